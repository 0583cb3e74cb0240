"""The layer that never changes during a game: terrain, grid, coastlines, coordinates.

Shapes are drawn at ``SS`` times the size and box-downsampled (antialiasing Pillow's polygon
filler lacks); text is drawn afterwards at full size, where FreeType already antialiases it.
The renderer caches the result per ``board.key`` and frame, so this runs once per map and scale.
"""

from __future__ import annotations

import functools
import math

from PIL import Image, ImageDraw

from games.core.hexgrid import Hex, HexLayout
from games.core.view import Board, Terrain
from render import theme
from render.fonts import UNCACHED, font
from render.frame import Frame, margin_for, square_label
from render.terrain import draw_pieces

SS = 2  # supersampling factor for shapes


def draw_background(board: Board, frame: Frame) -> Image.Image:
    """The static picture of a board in a frame (RGB)."""
    big = Image.new("RGB", (frame.width * SS, frame.height * SS), theme.MARGIN)
    draw = ImageDraw.Draw(big, "RGBA")
    if board.kind == "hex":
        cells = _hex_cells(board, frame)
        _hex_shapes(draw, board, frame, cells)
    elif board.kind == "square":
        _square_shapes(draw, board, frame)
    else:
        _table_shapes(big, draw, board, frame)
    img = big.reduce(SS)
    draw = ImageDraw.Draw(img, "RGBA")
    if board.kind == "hex":
        _hex_text(draw, board, frame, cells)
    elif board.kind == "square":
        _square_text(draw, board, frame)
    else:
        _table_text(draw, board, frame)
    return img


# --- hex maps -------------------------------------------------------------------------------


def _layout(board: Board) -> HexLayout:
    return board.hex_layout if board.hex_layout is not None else HexLayout()


def hex_terrain(board: Board, label: str) -> str:
    return board.terrain.get(label, board.terrain.get("*", "deep"))


def _hex_cells(board: Board, frame: Frame) -> list[tuple[Hex, str, str, float, float]]:
    """(hex, label, terrain, centre x, centre y) for the hexes inside the frame."""
    layout = _layout(board)
    out = []
    for h in layout.all_hexes():
        cx, cy = frame.px((h.q, h.r))
        if frame.visible(cx, cy, frame.scale * 1.1):
            label = layout.label(h)
            out.append((h, label, hex_terrain(board, label), cx, cy))
    return out


def _ss(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    return [(x * SS, y * SS) for x, y in points]


def _hex_poly(frame: Frame, cx: float, cy: float, shrink: float = 1.0) -> list[tuple[float, float]]:
    start = 0.0 if frame.flat else 30.0
    s = frame.scale * shrink
    return [(cx + s * math.cos(math.radians(start + 60 * i)), cy + s * math.sin(math.radians(start + 60 * i))) for i in range(6)]


def _hex_shapes(draw: ImageDraw.ImageDraw, board: Board, frame: Frame, cells: list[tuple[Hex, str, str, float, float]]) -> None:
    s = frame.scale
    for _, _, kind, cx, cy in cells:
        draw.polygon(_ss(_hex_poly(frame, cx, cy, 1.0)), fill=theme.terrain_colour(kind))
    for h, _, kind, cx, cy in cells:
        _hex_texture(draw, s, h, kind, cx, cy)
    # grid: one translucent stroke per hex so shared sides read as a single thin line
    grid_w = max(1, round(s / 30)) * SS
    for _, _, _, cx, cy in cells:
        poly = _ss(_hex_poly(frame, cx, cy))
        draw.line([*poly, poly[0]], fill=(255, 255, 255, 70), width=grid_w)
    _hex_coasts(draw, board, frame, cells)


def _hex_texture(draw: ImageDraw.ImageDraw, s: float, h: Hex, kind: str, cx: float, cy: float) -> None:
    """Texture that tells terrain apart without colour: sand dots on shoals, roofs in towns."""
    if kind == "shoal":
        for i in range(7):
            a = math.radians(i * 97.0 + h.q * 31 + h.r * 17)
            d = s * (0.2 + 0.45 * ((i * 37) % 10) / 10)
            x, y = cx + d * math.cos(a), cy + d * math.sin(a)
            rr = max(1.0, s * 0.05) * SS
            draw.ellipse((x * SS - rr, y * SS - rr, x * SS + rr, y * SS + rr), fill=(*theme.SAND, 200))
    elif kind in ("town", "port"):
        b = s * 0.16
        for dx, dy in ((-0.28, 0.02), (0.06, -0.14), (0.24, 0.16), (-0.06, 0.3)):
            x, y = cx + dx * s, cy + dy * s
            draw.rectangle(((x - b) * SS, (y - b * 0.8) * SS, (x + b) * SS, (y + b * 0.8) * SS), fill=(150, 74, 52))
    elif kind == "shallow":
        for i in range(3):
            y = cy + (i - 1) * s * 0.35
            x = cx + ((i * 13) % 5 - 2) * s * 0.08
            draw.arc(((x - s * 0.22) * SS, (y - s * 0.08) * SS, (x + s * 0.22) * SS, (y + s * 0.08) * SS), 200, 340, fill=(255, 255, 255, 70), width=SS)


def _hex_coasts(draw: ImageDraw.ImageDraw, board: Board, frame: Frame, cells: list[tuple[Hex, str, str, float, float]]) -> None:
    """Coastlines: the land hexsides that face water."""
    layout = _layout(board)
    by_hex = {h: kind for h, _, kind, _, _ in cells}
    coast_w = max(2, round(frame.scale / 12)) * SS
    for h, _, kind, cx, cy in cells:
        if kind not in theme.LAND_KINDS:
            continue
        poly = _hex_poly(frame, cx, cy)
        for d in range(6):
            n = layout.neighbour(h, d)
            nk = by_hex.get(n)
            if nk is None:
                if not layout.on_map(n):
                    continue
                nk = hex_terrain(board, layout.label(n))
            if nk in theme.LAND_KINDS:
                continue
            p0, p1 = poly[(d - 2) % 6], poly[(d - 1) % 6]
            draw.line([(p0[0] * SS, p0[1] * SS), (p1[0] * SS, p1[1] * SS)], fill=theme.SAND, width=coast_w)


def _hex_text(draw: ImageDraw.ImageDraw, board: Board, frame: Frame, cells: list[tuple[Hex, str, str, float, float]]) -> None:
    for _, label, kind, cx, cy in cells:
        base = theme.terrain_colour(kind)
        ink = theme.ink_on(base)
        colour = (*ink, 150) if ink == (255, 255, 255) else (*ink, 190)
        hex_number(draw, frame, label, cx, cy, colour)


def _number_top(frame: Frame, cy: float) -> float:
    return cy - frame.scale * (0.80 if frame.flat else 0.86)


def _number_size(frame: Frame) -> float:
    return max(8.0, frame.scale * 0.30)


def hex_number(draw: ImageDraw.ImageDraw, frame: Frame, label: str, cx: float, cy: float, colour: tuple[int, ...]) -> None:
    """A hex's printed number at the top of the hex centred at (cx, cy), on the background."""
    draw.text((cx, _number_top(frame, cy)), label, font=font(_number_size(frame)), fill=colour, anchor="ma")


@functools.lru_cache(maxsize=2048)
def _number_sprite(label: str, size: float) -> tuple[Image.Image, int, int]:
    """A hex number in white with a dark rim, and where its top centre falls in the image."""
    f = font(size)
    x0, y0, x1, y1 = (math.floor(v) for v in f.getbbox(label, anchor="ma", stroke_width=2))
    img = Image.new("RGBA", (x1 - x0 + 3, y1 - y0 + 3), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((1 - x0, 1 - y0), label, font=f, fill=(255, 255, 255), anchor="ma", stroke_width=2, stroke_fill=theme.OUTLINE)
    return img, 1 - x0, 1 - y0


def hex_number_over(img: Image.Image, frame: Frame, label: str, cx: float, cy: float) -> None:
    """The number again over a counter standing in the hex, which hides it: white in a dark rim,
    rasterised once per number and size (a render pastes it)."""
    make = _number_sprite.__wrapped__ if UNCACHED.get() else _number_sprite
    sprite, ax, ay = make(label, _number_size(frame))
    img.paste(sprite, (round(cx) - ax, round(_number_top(frame, cy)) - ay), sprite)


# --- square boards --------------------------------------------------------------------------


def square_terrain(board: Board, x: int, y: int) -> str:
    return board.terrain.get(square_label(x, y), board.terrain.get("*", "deep"))


def _square_shapes(draw: ImageDraw.ImageDraw, board: Board, frame: Frame) -> None:
    s = frame.scale
    for x in range(int(board.width)):
        for y in range(int(board.height)):
            px, py = frame.px((x, y))
            if not frame.visible(px, py, s):
                continue
            kind = square_terrain(board, x, y)
            base = theme.terrain_colour(kind)
            if kind in ("deep", "sea", "open"):
                base = theme.SQUARE_DARK if (x + y) % 2 == 0 else theme.SQUARE_LIGHT
            else:
                base = theme.mix(base, (0, 0, 0), 0.12) if (x + y) % 2 == 0 else base
            h = s / 2
            draw.rectangle(((px - h) * SS, (py - h) * SS, (px + h) * SS - 1, (py + h) * SS - 1), fill=base)
    # thin grid and a firm border round the board
    x0, y0 = frame.unit_px(0, 0)
    x1, y1 = frame.unit_px(board.width, board.height)
    for i in range(int(board.width) + 1):
        gx = frame.unit_px(i, 0)[0]
        draw.line([(gx * SS, y0 * SS), (gx * SS, y1 * SS)], fill=(255, 255, 255, 40), width=SS)
    for j in range(int(board.height) + 1):
        gy = frame.unit_px(0, j)[1]
        draw.line([(x0 * SS, gy * SS), (x1 * SS, gy * SS)], fill=(255, 255, 255, 40), width=SS)
    draw.rectangle((x0 * SS, y0 * SS, x1 * SS, y1 * SS), outline=(210, 220, 230), width=2 * SS)


def _square_text(draw: ImageDraw.ImageDraw, board: Board, frame: Frame) -> None:
    s = frame.scale
    if frame.zoomed:
        f = font(max(9.0, s * 0.14))
        for x in range(int(board.width)):
            for y in range(int(board.height)):
                px, py = frame.px((x, y))
                if frame.visible(px, py, s):
                    draw.text((px - s * 0.46, py - s * 0.46), square_label(x, y), font=f, fill=(255, 255, 255, 150))
        return
    f = font(max(12.0, min(20.0, s * 0.2)), bold=True)
    m = margin_for(board, s)
    x0, y0 = frame.unit_px(0, 0)
    x1, y1 = frame.unit_px(board.width, board.height)
    for x in range(int(board.width)):
        px = frame.px((x, 0))[0]
        letter = square_label(x, 0)[0]
        draw.text((px, y0 - m / 2), letter, font=f, fill=theme.MARGIN_TEXT, anchor="mm")
        draw.text((px, y1 + m / 2), letter, font=f, fill=theme.MARGIN_TEXT, anchor="mm")
    for y in range(int(board.height)):
        py = frame.px((0, y))[1]
        draw.text((x0 - m / 2, py), str(y + 1), font=f, fill=theme.MARGIN_TEXT, anchor="mm")
        draw.text((x1 + m / 2, py), str(y + 1), font=f, fill=theme.MARGIN_TEXT, anchor="mm")
    # named terrain squares carry their kind so colour is not the only cue
    tf = font(max(9.0, s * 0.13))
    for label, kind in board.terrain.items():
        if label == "*" or kind in ("deep", "sea", "open"):
            continue
        try:
            x = ord(label[0].lower()) - ord("a")
            y = int(label[1:]) - 1
        except (ValueError, IndexError):
            continue
        px, py = frame.px((x, y))
        draw.text((px, py + s * 0.42), kind, font=tf, fill=(*theme.ink_on(theme.terrain_colour(kind)), 170), anchor="md")


# --- continuous tables ----------------------------------------------------------------------

def _table_shapes(big: Image.Image, draw: ImageDraw.ImageDraw, board: Board, frame: Frame) -> None:
    """The mat (sea, or a piece of ground as big as the table), the measuring grid and rulers over
    it, then the terrain pieces (see ``render.terrain``)."""
    x0, y0 = frame.unit_px(0, 0)
    x1, y1 = frame.unit_px(board.width, board.height)
    draw.rectangle((x0 * SS, y0 * SS, x1 * SS, y1 * SS), fill=theme.TABLE_SEA)
    whole = board.width * board.height * 0.9
    ground = tuple(t for t in board.table_terrain if _covers(t, whole))
    draw_pieces(big, frame.px, frame.scale, ground, SS)
    # measuring aids: a faint line every inch when zoomed, every 6 inches otherwise
    step = 1 if frame.zoomed else 6
    for i in range(0, int(board.width) + 1, step):
        x = frame.unit_px(i, 0)[0]
        draw.line([(x * SS, y0 * SS), (x * SS, y1 * SS)], fill=(255, 255, 255, 26 if i % 6 else 46), width=SS)
    for j in range(0, int(board.height) + 1, step):
        y = frame.unit_px(0, j)[1]
        draw.line([(x0 * SS, y * SS), (x1 * SS, y * SS)], fill=(255, 255, 255, 26 if j % 6 else 46), width=SS)
    if not frame.zoomed:  # inch ticks along the edges
        tick = 5 * SS
        for i in range(int(board.width) + 1):
            x = frame.unit_px(i, 0)[0] * SS
            length = tick * (2 if i % 6 == 0 else 1)
            draw.line([(x, y0 * SS), (x, y0 * SS + length)], fill=(255, 255, 255, 120), width=SS)
            draw.line([(x, y1 * SS), (x, y1 * SS - length)], fill=(255, 255, 255, 120), width=SS)
        for j in range(int(board.height) + 1):
            y = frame.unit_px(0, j)[1] * SS
            length = tick * (2 if j % 6 == 0 else 1)
            draw.line([(x0 * SS, y), (x0 * SS + length, y)], fill=(255, 255, 255, 120), width=SS)
            draw.line([(x1 * SS, y), (x1 * SS - length, y)], fill=(255, 255, 255, 120), width=SS)
    draw_pieces(big, frame.px, frame.scale, tuple(t for t in board.table_terrain if t not in ground), SS)
    draw.rectangle((x0 * SS, y0 * SS, x1 * SS, y1 * SS), outline=(210, 220, 230), width=2 * SS)


def _covers(t: Terrain, area: float) -> bool:
    """A piece as big as the table: the ground it is made of, drawn under the measuring grid."""
    pts = t.points
    if t.centre is not None or len(pts) < 3:
        return False
    return abs(sum(pts[i][0] * pts[i - 1][1] - pts[i - 1][0] * pts[i][1] for i in range(len(pts)))) / 2 >= area


def _table_text(draw: ImageDraw.ImageDraw, board: Board, frame: Frame) -> None:
    f = font(12)
    m = margin_for(board, frame.scale)
    if not frame.zoomed:
        x0, y0 = frame.unit_px(0, 0)
        x1, y1 = frame.unit_px(board.width, board.height)
        for i in range(0, int(board.width) + 1, 6):
            x = frame.unit_px(i, 0)[0]
            draw.text((x, y0 - m / 2), f'{i}"', font=f, fill=theme.MARGIN_TEXT, anchor="mm")
            draw.text((x, y1 + m / 2), f'{i}"', font=f, fill=theme.MARGIN_TEXT, anchor="mm")
        for j in range(0, int(board.height) + 1, 6):
            y = frame.unit_px(0, j)[1]
            draw.text((x0 - m / 2, y), f'{j}"', font=f, fill=theme.MARGIN_TEXT, anchor="mm")
            draw.text((x1 + m / 2, y), f'{j}"', font=f, fill=theme.MARGIN_TEXT, anchor="mm")
