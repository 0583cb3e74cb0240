"""What a seat (or a spectator, or the umpire) may see: the only thing renderers and messages get.

A rule system builds a ``View`` with ``Ruleset.view(state, seat)``; anything not in it cannot leak.
Positions depend on the board kind:

* ``hex``: ``(q, r)`` axial coordinates on ``board.hex_layout``;
* ``square``: ``(x, y)`` zero-based file and rank (rank 0 at the bottom);
* ``table``: ``(x, y)`` in inches from the top-left corner of the table (y grows downward).

Facings are compass bearings in degrees, clockwise, 0 = up the picture, on every board kind
(a hex facing ``f`` is ``layout.bearing(f)``, a square heading ``h`` is ``45 * h``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from games.core.hexgrid import HexLayout

Pos = tuple[float, float]
BoardKind = Literal["hex", "square", "table"]

# Markers a counter may carry; renderers draw each as a small badge.
MARKERS = (
    "grounded",
    "fire",
    "critical",
    "captured",
    "boarding",
    "crippled",
    "shaken",
    "reload",
    "struck",
    "sunk",
    "off",
    "broken-off",
    "stopped",
    "flag",
)


@dataclass(frozen=True)
class SideInfo:
    id: str
    name: str
    colour: str  # "#rrggbb"


@dataclass(frozen=True)
class Counter:
    """One unit or marker on the board as this viewer may see it.

    A ``face_down`` counter shows only that something is there (label and side may be blank).
    ``damage``/``damage_max`` draw as pips (hits taken out of a maximum); ``damage_text`` as text.
    ``size`` is (length, beam) in inches for table bases, ignored elsewhere.
    """

    id: str
    label: str
    side: str
    pos: Pos
    facing: float | None = None
    damage: int = 0
    damage_max: int = 0
    damage_text: str = ""
    markers: tuple[str, ...] = ()
    face_down: bool = False
    highlight: bool = False
    size: tuple[float, float] = (0.0, 0.0)
    kind: str = "ship"  # ship, battery, mine, fort, marker, wake, landing, cable ...
    ghost: bool = False  # where a previewed order would leave it: drawn translucent (previews only)
    name: str = ""  # the full name where ``label`` is cut short to fit the board: /game board zoom: finds either


@dataclass(frozen=True)
class Terrain:
    """A terrain patch on a continuous table: a polygon (inches) or a circle (centre, radius)."""

    kind: str  # island, rock, shoal, fog, land ...
    points: tuple[Pos, ...] = ()
    centre: Pos | None = None
    radius: float = 0.0
    label: str = ""


@dataclass(frozen=True)
class Arrow:
    """A compass arrow printed on the board (north, current, wind)."""

    kind: str  # north, current, wind
    bearing: float  # degrees, the way it points
    label: str = ""
    strength: str = ""


@dataclass(frozen=True)
class Zone:
    """A set-up zone: hexes/squares (positions) or a polygon on a table, with a side."""

    name: str
    side: str
    cells: tuple[Pos, ...] = ()
    polygon: tuple[Pos, ...] = ()


@dataclass(frozen=True)
class Overlay:
    """The last activation drawn on the board, or a measuring aid.

    ``path``: cells or points moved through; ``fire``: from firer to target with ``text`` result;
    ``ram``: rammer to target; ``ring``: ``radius`` around ``points[0]`` (table, inches);
    ``arc``: a polygon (e.g. a broadside path) on a table.
    """

    kind: Literal["path", "fire", "ram", "ring", "arc"]
    points: tuple[Pos, ...]
    side: str = ""
    text: str = ""
    radius: float = 0.0


@dataclass(frozen=True)
class Board:
    """Everything that never changes during a game: drawn once and cached by the renderer."""

    kind: BoardKind
    key: str  # cache key: map or board id plus size
    name: str = ""
    hex_layout: HexLayout | None = None
    terrain: dict[str, str] = field(default_factory=dict)  # hex label or square label -> kind
    hexside_compass: tuple[str, ...] = ()  # printed labels for directions 0..5
    width: float = 8  # squares, or inches for a table
    height: float = 8
    table_terrain: tuple[Terrain, ...] = ()
    arrows: tuple[Arrow, ...] = ()


@dataclass(frozen=True)
class View:
    """One viewer's picture of the game at one moment."""

    board: Board
    viewer: str | None  # seat id, "umpire", or None for a spectator
    sides: tuple[SideInfo, ...]
    counters: tuple[Counter, ...] = ()
    overlays: tuple[Overlay, ...] = ()
    zones: tuple[Zone, ...] = ()
    arrows: tuple[Arrow, ...] = ()  # arrows that change in play (wind)
    status: tuple[str, ...] = ()  # the status strip, one line each
    headline: int = 2  # the first status lines that say where the game stands (turn, phase, who acts):
    # drawn readable at chat size; the rest (each unit's state) are for the full-size picture
    title: str = ""
    private_text: tuple[str, ...] = ()  # lines only this viewer may read (hand, secret values)


BoardMark = Literal["acts-now", "in-focus", "last-action", "aids", "zones"]

# What each mark means, for the board key /help prints (bot/rooms/help.py). A system declares the
# marks its views draw (``Ruleset.board_marks``); tests/bot/test_help_matches_the_game.py plays each
# system and checks the declaration against ``marks_drawn`` of its views. The yellow highlight has
# one of two meanings, so a system declares at most one of "acts-now" and "in-focus".
BOARD_KEY: dict[BoardMark, str] = {
    "acts-now": "a yellow ring (on a table a yellow outline of the base) marks the counters that act now",
    "in-focus": "a yellow outline marks the ship in focus: the one activating, else the last that moved, "
                "attacked or was measured from; its range rings and broadside paths are drawn round it",
    "last-action": "the last move, shot or ram is drawn as a line in its side's colour",
    "aids": "rings and outlined areas in a side's colour are measuring aids (ranges, broadside paths, "
            "deployment zones), each named on the board",
    "zones": "tinted areas are the set-up zones, named on the board",
}
HIGHLIGHT: tuple[BoardMark, ...] = ("acts-now", "in-focus")  # the meanings a highlight may have
NOT_DRAWN: dict[BoardMark, str] = {
    "acts-now": "no counter is ringed: the status strip says who acts now",
    "last-action": "the last move is not drawn: `/game log` tells what happened",
}


def marks_drawn(view: View, highlight: BoardMark = "acts-now") -> set[BoardMark]:
    """The board-key marks this view draws (what the renderer will show for it); a highlighted
    counter counts as the ``highlight`` meaning its system declares."""
    marks: set[BoardMark] = set()
    if any(c.highlight for c in view.counters):
        marks.add(highlight)
    kinds = {o.kind for o in view.overlays}
    if kinds & {"path", "fire", "ram"}:
        marks.add("last-action")
    if kinds & {"ring", "arc"}:
        marks.add("aids")
    if view.zones:
        marks.add("zones")
    return marks
