"""Board images drawn from a ``games.core.view.View`` (never from game state).

Public API (options keyword-only)::

    render_board(view, *, scale=None, zoom=None, names=None) -> PIL.Image.Image   # RGB: board + strip
    render_png(view, **kw) -> bytes                                    # render_board + encode_png
    encode_png(img) -> bytes                                           # 256-colour palette PNG
    render_replay(views, captions, **kw) -> bytes                      # animated GIF, < 8 MiB

``scale`` is pixels per unit (hex circumradius, square side, or pixels per inch); by default a
board is about 1000 px wide so labels survive Discord's ~550 px preview. ``zoom=(where, radius)``
draws a window ``radius`` hexes/squares/inches around ``where`` (a position, or a printed hex
number like ``"1205"`` / square like ``"c4"``) at a larger scale.

Chat size: Discord shows a board about 500 px high, so every counter name is at least
``Frame.text_px`` (10.5 px there, ~11 px tall, scaled by the whole picture's height) and a name
that does not fit the room its neighbours leave goes on two lines, then is cut with an ellipsis;
on a table a ship's name moves under its base when it would run into another. A picture is a pure
function of its View, except that a caller drawing one game's pictures in sequence may pass the
game's ``NamePlaces`` (``names=``): a table counter that has not moved then keeps its name's place
from the previous picture (the bot keeps one per channel, a replay one per call). The strip starts
with a key of the sides' colours, since colour is what tells the sides apart at that size.

The highlight ring (yellow; on a table a yellow outline of the base) means **this counter acts
now**, i.e. the next order is for it, in every system that declares the ``acts-now`` board mark:
ironclad-draughts (the active ship), hex-ironclads (ships still to move), iron-and-fire (units the
card in play may still activate). Oak & Iron declares ``in-focus`` instead: it outlines the ship in
focus (activating, else the last that moved, attacked or was measured from), round which its range
rings are drawn. Days of Iron and the free table ring nothing. The last activation itself is shown
by the overlays (path, fire, ram), never by the ring. Each system's ``Ruleset.board_marks`` says
which it draws; /help prints the key from it (``games.core.view.BOARD_KEY``).

What a viewer may see is decided by the rule system's ``view()``; this package draws exactly what
the View holds. A face-down counter is drawn as a grey "?" using only its position (and
highlight): its label, side, facing, damage and markers are never read (``counters.look_of``).
``view.private_text`` is drawn, marked "Private to <viewer>", because a seat's own View is what
gets sent to that seat; post only spectator Views (``view(state, None)``) to a channel.

Caching (why a render after the first costs a few milliseconds):

* Background: terrain, hex grid, coastlines, hex numbers, edge coordinates and table terrain never
  change during a game. They are drawn once per board and frame (scale, window) with shapes
  supersampled 2x and box-downsampled for antialiasing, text at full size, and kept in an LRU.
  The cache key is ``board.key`` plus the drawn content itself (layout, terrain, sizes), so two
  boards that happen to share a key never share a picture (``board.static_key``).
* Zones: the background with a View's set-up zones tinted on it, keyed by the zones and side
  colours (they change only at set-up).
* Counter sprites: one small antialiased RGBA image (2-4x supersampled by size) per distinct
  *look* (side colour, label, facing, damage, markers, scale), independent of position, so moving
  a counter re-uses its sprite; the highlight ring is a sprite of its own, so moving the highlight
  redraws nothing. A render pastes sprites onto one copy of the cached background.
* Text lines (counter names, badge letters, strip lines) are rasterised once and composited.
* Palette: a fixed 256-colour palette per board (its background's colours plus everything drawn
  over it), so encoding quantizes by lookup (~1 ms) instead of adaptively (~8 ms), and replay
  frames of one board share colours (small GIFs).
* Not cached: the last activation's overlays (path, line of fire, ram, rings, arcs) are new with
  every activation, so they are drawn every call, antialiased in short supersampled pieces whose
  cost follows the length of the stroke (``render.overlays.Pen``). The status strip is laid out
  every call. Fonts are the shipped DejaVu files in ``data/fonts``, loaded by path, cached per
  size and thread.

Cached images are never drawn on (every render starts from a copy); caches are thread-safe LRUs so
renders may run in a worker thread (do: a render is ~10 ms of CPU). ``Renderer(cache=False)``
redraws everything each call (only opened font files stay cached), which ``benchmarks/render.py``
uses as its baseline.
"""

from __future__ import annotations

from PIL import Image

from games.core.view import View
from render.board import NamePlaces, Renderer, Zoom, encode_png
from render.replay import MAX_REPLAY_BYTES
from render.replay import render_replay as _render_replay

__all__ = ["MAX_REPLAY_BYTES", "NamePlaces", "Renderer", "encode_png", "render_board", "render_png", "render_replay"]

DEFAULT = Renderer()


def render_board(view: View, *, scale: float | None = None, zoom: Zoom | None = None,
                 names: NamePlaces | None = None) -> Image.Image:
    """The board, counters, last activation and status strip of one View."""
    return DEFAULT.render_board(view, scale=scale, zoom=zoom, names=names)


def render_png(view: View, *, scale: float | None = None, zoom: Zoom | None = None,
               names: NamePlaces | None = None) -> bytes:
    """``render_board`` encoded as a palette PNG, ready to attach to a message."""
    return DEFAULT.render_png(view, scale=scale, zoom=zoom, names=names)


def render_replay(
    views: list[View], captions: list[str], *, scale: float | None = None, frame_ms: int = 1600, last_frame_ms: int = 4000
) -> bytes:
    """An animated GIF of a game, one frame per activation, each with its caption line."""
    return _render_replay(DEFAULT, views, captions, scale=scale, frame_ms=frame_ms, last_frame_ms=last_frame_ms)
