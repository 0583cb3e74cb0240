"""The renderer: cached static layers plus per-call counters, overlays and the status strip."""

from __future__ import annotations

import dataclasses
import io
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from typing import Any, TypeVar

from PIL import Image, ImageDraw

from games.core.hexgrid import Hex, HexLayout
from games.core.view import Board, Pos, View
from render import theme
from render.background import draw_background, hex_number_over
from render.counters import (
    TABLE_VESSELS,
    Look,
    Sprite,
    free_room,
    highlight_sprite,
    look_of,
    make_sprite,
    name_look,
    table_name_sprite,
    token_name,
)
from render.fonts import UNCACHED
from render.frame import Frame, chat_text_px, full_frame, zoom_frame
from render.labels import Placed, TableLayout
from render.overlays import draw_labels, draw_overlays
from render.palette import build_palette
from render.strip import draw_strip, strip_height
from render.table_text import draw_captions, draw_names, result_spot, table_layout
from render.zones import draw_zones

T = TypeVar("T")
EDGE_GAP = 2.0  # pixels a hex or square counter's name keeps clear of the picture's edge
Zoom = tuple[Pos | str, float]


class _Lru:
    """A small thread-safe LRU map; values are treated as immutable (callers copy before drawing)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[Hashable, object] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                value: T = self._data[key]  # type: ignore[assignment]
                return value
        made = make()  # outside the lock: two threads may both draw once, neither waits
        with self._lock:
            self._data[key] = made
            while len(self._data) > self.size:
                self._data.popitem(last=False)
        return made

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def __len__(self) -> int:
        return len(self._data)


def static_key(board: Board) -> Hashable:
    """What the cached background depends on. ``board.key`` names the board, but nothing stops a
    rule system from reusing one key with other terrain (a key made of the table size only), so the
    cache key holds the drawn content itself; hashing it costs microseconds."""
    return (board.key, board.kind, board.hex_layout, tuple(sorted(board.terrain.items())), board.hexside_compass, board.width, board.height, board.table_terrain)


class NamePlaces:
    """Where one game's table names went in its latest pictures, per board, viewer and picture size.
    Whoever draws a game's pictures in sequence keeps one per game and hands it to each render (the
    bot: one per channel; a replay: one per call), so a name whose counter did not move keeps its
    place from one picture to the next. The Renderer keeps none itself, so a picture depends only on
    its View and the NamePlaces passed in, never on what was drawn before for another game."""

    def __init__(self, size: int = 16) -> None:
        self.size = size  # layouts kept (boards x viewers x zoom windows); the oldest goes first
        self._latest: OrderedDict[Hashable, dict[str, Placed]] = OrderedDict()
        self._lock = threading.Lock()  # renders run in worker threads

    def before(self, key: Hashable) -> dict[str, Placed]:
        with self._lock:
            return dict(self._latest.get(key, {}))

    def take(self, other: NamePlaces) -> None:
        """Keep what ``other`` holds: a copy sent to a drawing process comes back placed there."""
        with self._lock, other._lock:
            self._latest = OrderedDict(other._latest)

    def __getstate__(self) -> dict[str, Any]:
        return {"size": self.size, "latest": self.before_all()}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.size = state["size"]
        self._latest = OrderedDict(state["latest"])
        self._lock = threading.Lock()

    def before_all(self) -> dict[Hashable, dict[str, Placed]]:
        with self._lock:
            return {key: dict(names) for key, names in self._latest.items()}

    def remember(self, key: Hashable, names: Mapping[str, Placed]) -> None:
        with self._lock:
            self._latest[key] = dict(names)
            self._latest.move_to_end(key)
            while len(self._latest) > self.size:
                self._latest.popitem(last=False)


class Renderer:
    """Draws Views. ``cache=False`` redraws everything every call (the benchmark's baseline)."""

    def __init__(self, *, cache: bool = True) -> None:
        self.cache = cache
        # sizes bound memory (a 1000 px background is ~3 MB, a counter sprite ~20-60 KB): a dozen
        # boards or zoom windows in play at once, and every counter look of a few games
        self.backgrounds = _Lru(12)
        self.zoned = _Lru(12)
        self.sprites = _Lru(512)
        self.palettes = _Lru(24)

    def _get(self, lru: _Lru, key: Hashable, make: Callable[[], T]) -> T:
        return lru.get(key, make) if self.cache else make()

    def clear(self) -> None:
        for lru in (self.backgrounds, self.zoned, self.sprites, self.palettes):
            lru.clear()

    def frame(self, view: View, *, scale: float | None = None, zoom: Zoom | None = None) -> Frame:
        if zoom is not None:
            where, radius = zoom
            return zoom_frame(view.board, where, radius, scale)
        return full_frame(view.board, scale)

    def render_png(self, view: View, *, scale: float | None = None, zoom: Zoom | None = None,
                   names: NamePlaces | None = None) -> bytes:
        """Render and encode with this board's cached palette (see ``render.palette``)."""
        img, palette = self._render(view, scale=scale, zoom=zoom, names=names)
        return encode_png(img, palette=palette)

    def render_board(self, view: View, *, scale: float | None = None, zoom: Zoom | None = None,
                     names: NamePlaces | None = None) -> Image.Image:
        """The board as this View shows it, with the status strip underneath (RGB). ``names``: the
        places of one game's earlier pictures (``NamePlaces``), so on a table a counter that has not
        moved keeps its name's place; without it the picture depends on the View alone."""
        return self._render(view, scale=scale, zoom=zoom, names=names)[0]

    def _render(self, view: View, *, scale: float | None, zoom: Zoom | None,
                names: NamePlaces | None = None) -> tuple[Image.Image, Image.Image]:
        token = UNCACHED.set(not self.cache)
        try:
            return self._draw(view, scale=scale, zoom=zoom, names=names)
        finally:
            UNCACHED.reset(token)

    def _sprite(self, look: Look) -> Sprite:
        sprite: Sprite = self._get(self.sprites, look, lambda: make_sprite(look))
        return sprite

    def _name_sprite(self, key: tuple[str, Look]) -> Sprite:
        look = name_look(key[1])  # a unit that only turned or moved keeps its name's sprite
        sprite: Sprite = self._get(self.sprites, ("name", look), lambda: table_name_sprite(look))
        return sprite

    def table_layout(self, view: View, *, scale: float | None = None, zoom: Zoom | None = None,
                     before: Mapping[str, Placed] | None = None) -> TableLayout:
        """Where a table's names and captions go in this View's picture (no overlay texts in the
        way): what ``render_board`` draws, for tests that check nothing covers anything. ``before``:
        the names' places in the previous picture (what a ``NamePlaces`` hands over)."""
        frame = self.frame(view, scale=scale, zoom=zoom)
        colours = {s.id: theme.hex_to_rgb(s.colour) for s in view.sides}
        text_px = chat_text_px(frame, self._strip(view, frame).height)
        return table_layout(view, frame, self._looks(view, frame, colours, text_px), text_px, before=before)

    def _strip(self, view: View, frame: Frame) -> Image.Image:
        """The status strip, its chat-size text (title, side key, headline lines) sized for the
        whole picture it ends up in: a strip taller than the allowance shrinks the picture more in
        chat, so it is laid out again at the size that picture needs (at most twice more), and
        drawn once, at the size settled on."""
        text_px = frame.text_px
        height = strip_height(view, frame.width, fresh=UNCACHED.get(), text_px=text_px)
        for _ in range(2):
            needed = chat_text_px(frame, height)
            if needed <= text_px:
                break
            text_px = needed
            height = strip_height(view, frame.width, fresh=UNCACHED.get(), text_px=text_px)
        return draw_strip(view, frame.width, fresh=UNCACHED.get(), text_px=text_px)

    def _looks(self, view: View, frame: Frame, colours: dict[str, theme.RGB], text_px: float) -> dict[str, tuple[Look, tuple[float, float]]]:
        """Each visible counter's look and pixel position (a table's names are placed afterwards,
        by ``_table_layout``)."""
        out: dict[str, tuple[Look, tuple[float, float]]] = {}
        kind = view.board.kind
        pad = frame.scale * 2
        for c in view.counters:
            x, y = frame.px(c.pos)
            if not (math.isfinite(x) and math.isfinite(y) and frame.visible(x, y, pad)):
                continue
            # a face-down counter's side is not even looked up: look_of draws it from position alone
            colour = theme.FACE_DOWN if c.face_down else colours.get(c.side, theme.NEUTRAL_SIDE)
            out[c.id] = (look_of(c, colour, kind, frame.scale, flat=frame.flat, text_px=text_px), (x, y))
        return out if kind == "table" else self._roomy(out, frame)

    @staticmethod
    def _roomy(looks: dict[str, tuple[Look, tuple[float, float]]], frame: Frame) -> dict[str, tuple[Look, tuple[float, float]]]:
        """Hex and square names: as wide as the nearest counter on the same row leaves room for."""
        named = [(cid, xy) for cid, (look, xy) in looks.items() if look.kind not in ("wake", "landing")]
        # counters whose one-line names would meet: on a hex map the next column's hexes sit half a
        # hex up or down, clear of a one-line name; on squares, the same rank
        text_px = next(iter(looks.values()))[0].text_px if looks else 11.0
        rows = text_px if frame.board_kind == "hex" else frame.scale * 0.6
        out = {}
        for cid, (look, (x, y)) in looks.items():
            if look.kind in ("wake", "landing") or look.face_down:
                out[cid] = (look, (x, y))
                continue
            gaps = [abs(ox - x) for oid, (ox, oy) in named if oid != cid and abs(oy - y) < rows and abs(ox - x) > 1]
            room = free_room(frame.board_kind, frame.scale, frame.flat, min(gaps) if gaps else None)
            # a counter in the edge column: its name may not reach past the picture's edge (it was
            # cut off there, "Palestro"), so the sprite moves it inward (``Look.edge``)
            left, right = x - EDGE_GAP, frame.width - x - EDGE_GAP
            edge, side = (round(left, 1), 1) if room / 2 > left else (round(right, 1), -1) if room / 2 > right else (0.0, 0)
            out[cid] = (dataclasses.replace(look, room=room, edge=edge, edge_side=side), (x, y))
        return out

    @staticmethod
    def _numbers_over_counters(img: Image.Image, view: View, frame: Frame, looks: dict[str, tuple[Look, tuple[float, float]]],
                               layout: HexLayout) -> None:
        """The number of each hex a counter stands on, drawn again over it: the counter and its
        highlight ring hid it, and a player reads a ship's hex off the board. Not where a two-line
        name rises into that place (the name matters more there)."""
        at: dict[str, tuple[float, float]] = {}  # hex number -> where (a stack's number once)
        tall: set[str] = set()
        for c in view.counters:
            if c.id in looks and looks[c.id][0].kind not in ("wake", "landing"):
                look, xy = looks[c.id]
                label = layout.label(Hex(round(c.pos[0]), round(c.pos[1])))
                at[label] = xy
                if len(token_name(look)[0]) > 1:
                    tall.add(label)
        for label, (x, y) in at.items():
            if label not in tall:
                hex_number_over(img, frame, label, x, y)

    def _draw(self, view: View, *, scale: float | None, zoom: Zoom | None,
              names: NamePlaces | None) -> tuple[Image.Image, Image.Image]:
        board = view.board
        frame = self.frame(view, scale=scale, zoom=zoom)
        colours = {s.id: theme.hex_to_rgb(s.colour) for s in view.sides}
        colour_key = tuple(sorted(colours.items()))
        board_key = (static_key(board), frame.key)
        bg = self._get(self.backgrounds, board_key, lambda: draw_background(board, frame))
        base = bg
        if view.zones:
            base = self._get(self.zoned, (board_key, view.zones, colour_key), lambda: draw_zones(bg, board, frame, view.zones, colours, captions=board.kind != "table"))
        palette = self._get(self.palettes, (board_key, view.zones, colour_key), lambda: build_palette(base, colours.values()))
        strip = self._strip(view, frame)
        # one copy of the cached base, already tall enough for the strip (crop pads past the edge)
        img = base.crop((0, 0, frame.width, frame.height + strip.height))
        aid_labels, result_labels = draw_overlays(img, view.overlays, frame, colours, frozenset(c.label for c in view.counters if not c.face_down))
        aid_boxes = draw_labels(img, aid_labels, frame)
        # markers (wakes, mines, flags) first, then ships, highlighted counters last: the things a
        # player must read are never hidden under a neighbour
        text_px = chat_text_px(frame, strip.height)
        looks = self._looks(view, frame, colours, text_px)
        for c in sorted(view.counters, key=lambda c: (c.highlight, c.face_down or c.kind in TABLE_VESSELS)):
            if c.id not in looks:
                continue
            look, (x, y) = looks[c.id]
            if c.highlight and board.kind != "table":
                ring: Sprite = self._get(self.sprites, ("highlight", board.kind, frame.scale), lambda: highlight_sprite(board.kind, frame.scale))
                img.paste(ring.image, (round(x) - ring.ax, round(y) - ring.ay), ring.image)
            sprite = self._sprite(look)
            img.paste(sprite.image, (round(x) - sprite.ax, round(y) - sprite.ay), sprite.image)
        if board.kind == "hex" and board.hex_layout is not None:
            self._numbers_over_counters(img, view, frame, looks, board.hex_layout)
        if board.kind == "table":
            taken = [(x - w / 2, y - h / 2, x + w / 2, y + h / 2) for x, y, w, h in aid_boxes]
            # the game's previous picture of this table for this viewer, if the caller keeps them: a
            # counter that has not moved keeps its name's place there (where its base stands exactly
            # as it did and the place is still clear)
            places = (board.key, view.viewer, frame.width, frame.height)
            layout = table_layout(view, frame, looks, text_px, taken, names.before(places) if names else None)
            if names is not None:
                names.remember(places, layout.names)
            draw_names(img, layout, looks, self._name_sprite)
            draw_captions(img, layout)
            # results (hits, can fire) go next to where they belong, clear of every name and base
            draw_labels(img, result_labels, frame, aid_boxes, spot=result_spot(frame, layout, taken))
        else:
            draw_labels(img, result_labels, frame, aid_boxes)
        if zoom is not None:
            d = ImageDraw.Draw(img)
            d.rectangle((0, 0, frame.width - 1, frame.height - 1), outline=(210, 220, 230), width=2)
        img.paste(strip, (0, frame.height))
        return img, palette


def encode_png(img: Image.Image, *, palette: Image.Image | None = None, compress_level: int = 2) -> bytes:
    """A 256-colour palette PNG: several times faster to write and smaller than RGB, and looks the
    same for flat board colours. With a known ``palette`` quantizing is a ~1 ms lookup; without one,
    FASTOCTREE (Pillow's quickest adaptive quantizer). No dithering keeps text crisp. zlib level 2
    measured faster than 1 on these images for about the same size."""
    rgb = img if img.mode == "RGB" else img.convert("RGB")
    if palette is not None:
        pal = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    else:
        pal = rgb.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    pal.save(buf, "PNG", compress_level=compress_level)
    return buf.getvalue()
