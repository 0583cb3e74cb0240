"""The words on a continuous table: ships' and units' names, set-up zones' and terrain pieces'
captions. They are placed per picture (``render.labels``), because where they fit depends on where
the counters stand now, and drawn after every base, so nothing covers a name."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache

from PIL import Image, ImageDraw

from games.core.view import Terrain, View
from render import theme
from render.counters import Look, Sprite, has_table_name, table_base_box, table_name_size
from render.fonts import UNCACHED, font, kept_font
from render.frame import Frame
from render.labels import Box, Caption, Name, Placed, Placer, TableLayout, edge_spots, overlap
from render.overlays import CASING, Pen, play_area

NAME_SPILL = 3.0  # a name's box has a few pixels' padding round its text: those may leave the picture
Looks = dict[str, tuple[Look, tuple[float, float]]]


def _move(box: Box, x: float, y: float) -> Box:
    return (box[0] + x, box[1] + y, box[2] + x, box[3] + y)


def table_layout(
    view: View, frame: Frame, looks: Looks, text_px: float, taken: list[Box] | None = None, before: Mapping[str, Placed] | None = None
) -> TableLayout:
    """Names next to their bases (where they were in ``before``, the previous picture, for a counter
    that has not moved), then the zones' and terrain's captions where nothing else is."""
    ax0, ay0, ax1, ay1 = play_area(frame)
    area = (float(ax0), float(ay0), float(ax1), float(ay1))
    bases = [_move(table_base_box(look), x, y) for look, (x, y) in looks.values() if look.kind not in ("wake", "landing")]
    # a name may stand on the rulers round the mat (dark, with numbers every 6" that the other
    # side repeats) when the mat has no room for it: a unit on the baseline has none below it
    picture = (-NAME_SPILL, -NAME_SPILL, frame.width + NAME_SPILL, frame.height + NAME_SPILL)
    placer = Placer(area, bases, taken or [])
    # the zones' captions first, clear of the bases (names can step round them; a zone full of
    # names may have no clear place left for a caption), then the names, then the terrain's
    zones = _zone_captions(view, frame, placer, area, text_px)
    placer.area, placer.mat = picture, area
    names = [Name(cid, _move(table_base_box(look), x, y), *table_name_size(look)) for cid, (look, (x, y)) in looks.items() if has_table_name(look)]
    placed = placer.place_names(names, before)
    placer.area = area  # captions stay on the mat
    captions = [*zones, *_terrain_captions(view, frame, placer, area, text_px)]
    return TableLayout(placed, tuple(captions), tuple(bases))


def _text_box(text: str, size: float, bold: bool) -> tuple[float, float]:
    """A caption's box: measured once per text and size (afresh while a ``Renderer(cache=False)`` draws)."""
    return (_measured.__wrapped__ if UNCACHED.get() else _measured)(text, size, bold)


@lru_cache(maxsize=1024)
def _measured(text: str, size: float, bold: bool) -> tuple[float, float]:
    left, top, right, bottom = font(size, bold=bold).getbbox(text, anchor="mm", stroke_width=2)
    return (right - left + 4, bottom - top + 4)


def _zone_captions(view: View, frame: Frame, placer: Placer, area: Box, text_px: float) -> list[Caption]:
    size = max(text_px, min(20.0, frame.scale * 0.38))
    colours = {s.id: theme.hex_to_rgb(s.colour) for s in view.sides}
    out = []
    for z in view.zones:
        pts = [frame.px(p) for p in z.polygon] or [frame.px(c) for c in z.cells]
        if not z.name or not pts:
            continue
        box = (max(area[0], min(p[0] for p in pts)), max(area[1], min(p[1] for p in pts)), min(area[2], max(p[0] for p in pts)), min(area[3], max(p[1] for p in pts)))
        if box[2] <= box[0] or box[3] <= box[1]:
            continue  # the zone is outside this zoom window
        w, h = _text_box(z.name, size, True)
        at = placer.place_caption(w, h, edge_spots(box, w, h))
        if at is not None:
            colour = colours.get(z.side, (240, 240, 240))
            out.append(Caption(at, z.name, size, True, theme.mix(colour, (255, 255, 255), 0.75), theme.OUTLINE))
    return out


def _terrain_captions(view: View, frame: Frame, placer: Placer, area: Box, text_px: float) -> list[Caption]:
    """Each piece's name (or kind) in, on or just off the piece. A piece as big as the table (the
    table itself, '72" x 48" table') is named only while nothing stands on it and where no piece
    is: once there are units the rulers say as much, and the caption would sit among them."""
    size = max(text_px, min(18.0, frame.scale * 0.5))
    table = float(view.board.width * view.board.height)  # a zoom window does not know the table size
    pieces = sorted(view.board.table_terrain, key=lambda t: _area(t) >= table * 0.9 > 0)
    out = []
    for t in pieces:
        text = t.label or t.kind.replace("-", " ")
        whole = table > 0 and _area(t) >= table * 0.9
        if whole and view.counters:
            continue
        box = _piece_box(frame, t)
        if overlap(box, area) == 0:
            continue
        w, h = _text_box(text, size, False)
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        spots = [(cx, cy), *edge_spots(box, w, h), (cx, box[1] - h / 2 - 3), (cx, box[3] + h / 2 + 3)]
        if whole:  # the table's own name stays off the pieces on it
            others = [_piece_box(frame, p) for p in pieces if p is not t]
            spots = [(x, y) for x, y in spots if all(overlap((x - w / 2, y - h / 2, x + w / 2, y + h / 2), o) == 0 for o in others)]
        at = placer.place_caption(w, h, spots, optional=whole)
        if at is None:
            continue
        light = t.kind in ("fog", "shoal")
        fill = (40, 40, 40) if light else theme.TERRAIN_TEXT
        out.append(Caption(at, text, size, False, fill, (255, 255, 255) if light else theme.OUTLINE))
    return out


def _area(t: Terrain) -> float:
    if t.centre is not None and t.radius > 0:
        return 3.14159 * t.radius * t.radius
    pts = t.points
    return abs(sum(pts[i][0] * pts[i - 1][1] - pts[i - 1][0] * pts[i][1] for i in range(len(pts)))) / 2


def _piece_box(frame: Frame, t: Terrain) -> Box:
    if t.centre is not None and t.radius > 0:
        cx, cy = frame.px(t.centre)
        r = t.radius * frame.scale
        return (cx - r, cy - r, cx + r, cy + r)
    pts = [frame.px(p) for p in t.points] or [(0.0, 0.0)]
    return (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))


def draw_names(img: Image.Image, layout: TableLayout, looks: Looks, sprite: Callable[[tuple[str, Look]], Sprite]) -> None:
    """Leaders first (under every name), then the names."""
    pen = Pen(img)
    for placed in layout.names.values():
        if placed.leader is not None:
            a, b = placed.leader
            pen.segment(a, b, [(3.5, CASING), (1.6, theme.LEADER)], keep=True)  # a kept name's leader is drawn again
    for cid, placed in layout.names.items():
        look = looks[cid][0]
        name = sprite(("name", look))
        x = round((placed.box[0] + placed.box[2]) / 2) - name.ax
        y = round((placed.box[1] + placed.box[3]) / 2) - name.ay
        img.paste(name.image, (x, y), name.image)


def draw_captions(img: Image.Image, layout: TableLayout) -> None:
    d = ImageDraw.Draw(img)
    for c in layout.captions:
        at = ((c.box[0] + c.box[2]) / 2, (c.box[1] + c.box[3]) / 2)
        d.text(at, c.text, font=kept_font(c.size, bold=c.bold), fill=c.fill, anchor="mm", stroke_width=2 if not c.bold else 3, stroke_fill=c.stroke)


def result_spot(frame: Frame, layout: TableLayout, taken: list[Box]) -> Callable[[tuple[float, float], float, float], tuple[float, float]]:
    """Where an overlay's result text goes on a table: the nearest place to where it wanted to be
    (stepping out in rings) that covers no name, caption, base or earlier label."""
    ax0, ay0, ax1, ay1 = play_area(frame)
    words = [p.box for p in layout.names.values()] + [c.box for c in layout.captions]
    placer = Placer((float(ax0), float(ay0), float(ax1), float(ay1)), layout.bases, [*taken, *words])

    def spot(at: tuple[float, float], w: float, h: float) -> tuple[float, float]:
        x, y = at
        spots = [(x, y)]
        for ring in range(1, 7):
            dy, dx = ring * (h + 4), ring * w * 0.55
            spots.extend([(x, y + dy), (x, y - dy), (x + dx, y), (x - dx, y), (x + dx, y + dy), (x - dx, y - dy), (x + dx, y - dy), (x - dx, y + dy)])
        box = placer.place_caption(w, h, spots)
        return (x, y) if box is None else ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)

    return spot
