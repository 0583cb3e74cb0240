"""Where things go: board positions (axial hexes, squares, inches) to pixels for one image.

A ``Frame`` is the whole-board picture or a zoomed window of it; every layer (cached background,
zones, overlays, counters) asks the same frame, so they line up.
"""

from __future__ import annotations

import functools
import math
import string
from dataclasses import dataclass

from games.core.hexgrid import HexLayout
from games.core.squaregrid import SquareBoard
from games.core.view import Board, Pos

SQRT3 = math.sqrt(3.0)
# Board-area targets: chat previews are ~550 px wide, so about 1000 px keeps labels legible at half size.
TARGET_WIDTH = 1000.0
ZOOM_WIDTH = 900.0
MIN_WIDTH = 560  # a tiny board still gets a status strip wide enough to read
# Discord shows a board about 500 px high; a label must be >= ~11 px tall there (10.5 px em size:
# DejaVu Bold's line is ~1.1 em). The status strip under the board is about this tall.
CHAT_HEIGHT = 500.0
CHAT_TEXT_PX = 10.5
STRIP_ALLOWANCE = 260.0


@dataclass(frozen=True)
class Frame:
    """A mapping from board units to pixels: ``px = unit * scale + offset`` in a ``width`` x ``height`` area."""

    board_kind: str
    scale: float  # hex circumradius, square side, or pixels per inch
    ox: float
    oy: float
    width: int
    height: int
    flat: bool = True  # hex orientation
    ranks: int = 8  # square boards: rank 0 is drawn at the bottom
    zoomed: bool = False  # a window: no margin, so coordinates are printed inside the cells
    table_width: float = 0.0  # a table's size in inches (where its mat ends)
    table_height: float = 0.0

    def unit(self, pos: Pos) -> tuple[float, float]:
        """Board units before scaling: hex centres at circumradius 1, square centres, inches."""
        if self.board_kind == "hex":
            q, r = pos
            if self.flat:
                return (1.5 * q, SQRT3 * (r + q / 2.0))
            return (SQRT3 * (q + r / 2.0), 1.5 * r)
        if self.board_kind == "square":
            return (pos[0] + 0.5, self.ranks - 1 - pos[1] + 0.5)
        return (float(pos[0]), float(pos[1]))

    def px(self, pos: Pos) -> tuple[float, float]:
        ux, uy = self.unit(pos)
        return (ux * self.scale + self.ox, uy * self.scale + self.oy)

    def unit_px(self, ux: float, uy: float) -> tuple[float, float]:
        return (ux * self.scale + self.ox, uy * self.scale + self.oy)

    def visible(self, x: float, y: float, pad: float) -> bool:
        return -pad <= x <= self.width + pad and -pad <= y <= self.height + pad

    @property
    def text_px(self) -> float:
        """The smallest label size (px) that stays readable once the picture (board plus a
        typical strip) is shrunk to chat size; ``chat_text_px`` when the strip is known."""
        return chat_text_px(self, STRIP_ALLOWANCE)

    @property
    def key(self) -> tuple[str, float, float, float, int, int, bool]:
        return (self.board_kind, round(self.scale, 3), round(self.ox, 2), round(self.oy, 2), self.width, self.height, self.zoomed)


def chat_text_px(frame: Frame, strip_height: float) -> float:
    """The smallest label size (px) that stays readable once the whole picture (board plus its
    status strip) is shrunk to chat height. Whole pixels, so a strip a line longer or shorter
    seldom changes the size (every counter sprite is cached per size)."""
    shown = frame.height + strip_height
    return float(max(11, math.ceil(CHAT_TEXT_PX * shown / CHAT_HEIGHT)))


def _unit_bounds(board: Board) -> tuple[float, float, float, float]:
    """Bounding box of the board in units (hexes include their corners)."""
    if board.kind == "hex":
        return _hex_bounds(_layout(board))
    return (0.0, 0.0, float(board.width), float(board.height))


@functools.lru_cache(maxsize=64)
def _hex_bounds(layout: HexLayout) -> tuple[float, float, float, float]:
    """Every corner of every hex, once per map layout: it cost ~8 ms a board when asked each draw."""
    xs: list[float] = []
    ys: list[float] = []
    for h in layout.all_hexes():
        for x, y in layout.corners(h, 1.0):
            xs.append(x)
            ys.append(y)
    return (min(xs), min(ys), max(xs), max(ys))


def _layout(board: Board) -> HexLayout:
    return board.hex_layout if board.hex_layout is not None else HexLayout()


def margin_for(board: Board, scale: float) -> float:
    """Pixels around the board: edge coordinates and rulers need room on squares and tables."""
    if board.kind == "hex":
        return max(10.0, scale * 0.35)
    if board.kind == "square":
        return max(22.0, scale * 0.3)
    return 30.0


def auto_scale(board: Board) -> float:
    """Pixels per unit so the board area is about ``TARGET_WIDTH`` wide (clamped to stay legible)."""
    x0, y0, x1, y1 = _unit_bounds(board)
    w = max(x1 - x0, 1e-6)
    h = max(y1 - y0, 1e-6)
    # fit the width, and keep very tall boards from running off a phone screen
    s = min(TARGET_WIDTH / w, 1.25 * TARGET_WIDTH / h)
    limits = {"hex": (18.0, 64.0), "square": (48.0, 108.0), "table": (8.0, 60.0)}[board.kind]
    return max(limits[0], min(limits[1], s))


def full_frame(board: Board, scale: float | None = None) -> Frame:
    s = auto_scale(board) if scale is None else float(scale)
    x0, y0, x1, y1 = _unit_bounds(board)
    m = margin_for(board, s)
    flat = _layout(board).orientation == "flat"
    width = math.ceil((x1 - x0) * s + 2 * m)
    extra = max(0, MIN_WIDTH - width)  # centre a small board in the wider picture
    return Frame(
        board_kind=board.kind,
        scale=s,
        ox=m + extra / 2 - x0 * s,
        oy=m - y0 * s,
        width=width + extra,
        height=math.ceil((y1 - y0) * s + 2 * m),
        flat=flat,
        ranks=int(board.height),
        table_width=float(board.width),
        table_height=float(board.height),
    )


def resolve_pos(board: Board, where: Pos | str) -> Pos:
    """A zoom centre: a position, or a printed hex number / square name (``1205``, ``c4``)."""
    if not isinstance(where, str):
        return (float(where[0]), float(where[1]))
    if board.kind == "hex":
        h = _layout(board).parse(where)
        return (float(h.q), float(h.r))
    if board.kind == "square":
        sq = SquareBoard(int(board.width), int(board.height)).parse(where)
        return (float(sq.x), float(sq.y))
    raise ValueError(f"zoom centre {where!r}: a table needs (x, y) inches, not a name")


def zoom_frame(board: Board, where: Pos | str, radius: float, scale: float | None = None) -> Frame:
    """A square window ``radius`` cells (hexes, squares, inches) around a position, drawn larger.

    A radius so big that the window would be drawn smaller than the whole board gives the whole
    board instead."""
    pos = resolve_pos(board, where)
    probe = Frame(board.kind, 1.0, 0.0, 0.0, 1, 1, _layout(board).orientation == "flat", int(board.height))
    cx, cy = probe.unit(pos)
    r = max(float(radius), 0.5)
    half_units = {"hex": r * SQRT3 + 1.0, "square": r + 0.5, "table": r}[board.kind]
    s = ZOOM_WIDTH / (2 * half_units) if scale is None else float(scale)
    if scale is None and s <= auto_scale(board):
        return full_frame(board)
    size = math.ceil(2 * half_units * s)
    return Frame(
        board_kind=board.kind,
        scale=s,
        ox=size / 2 - cx * s,
        oy=size / 2 - cy * s,
        width=size,
        height=size,
        flat=probe.flat,
        ranks=int(board.height),
        zoomed=True,
    )


def square_label(x: int, y: int) -> str:
    return f"{string.ascii_lowercase[x % 26]}{y + 1}"
