"""The last activation and measuring aids: paths moved, lines of fire, rams, range rings, arcs.

Drawn fresh on every render (each activation has new ones), so they must be cheap *and*
antialiased. ``Pen`` supersamples each stroke (with its casing) in short pieces, each in its own
small RGBA patch: the cost follows the stroke's length, not the area of its bounding box (a line of fire across a 1000 px board touches a few thousand pixels, not a million).
Result texts are drawn last, above the counters.
"""

from __future__ import annotations

import itertools
import math
import threading
from collections.abc import Callable, Hashable

from PIL import Image, ImageDraw

from games.core.view import Overlay
from render import theme
from render.fonts import UNCACHED, font
from render.frame import Frame

Pt = tuple[float, float]
Label = tuple[Pt, str, theme.RGB, tuple[Pt, ...]]  # where, text, colour, counters to keep clear of
CASING: theme.RGB = (14, 18, 24)
PIECE = 48.0  # pixels of stroke per supersampled patch


_MASKS: dict[Hashable, Image.Image] = {}  # (shape key, patch, supersampling, op) -> its mask (``Pen.patch``)
_MASKS_LOCK = threading.Lock()  # renders run in worker threads
MASKS_KEPT = 2048


def _keep_mask(key: Hashable, mask: Image.Image) -> None:
    with _MASKS_LOCK:
        if len(_MASKS) >= MASKS_KEPT:
            _MASKS.clear()
        _MASKS[key] = mask


Layers = list[tuple[float, theme.RGB]]  # (width, colour) drawn in order: a casing, then the stroke
Shape = Callable[[ImageDraw.ImageDraw, Callable[[Pt], Pt], int], None]  # draws in fill=255
Ops = list[tuple[theme.RGB, Shape]]  # shapes, bottom first, each with its colour


class Pen:
    """Antialiased strokes and small shapes on an RGB image, via small supersampled masks.

    Each shape is drawn white-on-black into a greyscale mask at ``ss`` times the size, shrunk
    (the antialiasing) and used to paste its colour: greyscale masks are a quarter of the bytes
    of an RGBA layer and need no alpha premultiplication when shrunk."""

    def __init__(self, img: Image.Image, ss: int = 2, clip: tuple[int, int, int, int] | None = None) -> None:
        self.img = img
        self.ss = ss
        self.clip = clip if clip is not None else (0, 0, img.width, img.height)

    def patch(self, box: tuple[float, float, float, float], ops: Ops, key: Hashable | None = None) -> None:
        """``ops`` drawn in the patch round ``box``. ``key``: what the ops' shapes depend on, besides
        the patch and the supersampling; their masks are then kept (``_MASKS``) for the next
        picture that draws the very same shapes there (a name's leader that has not moved)."""
        k = self.ss
        cx0, cy0, cx1, cy1 = self.clip
        x0, y0 = max(cx0, math.floor(box[0]) - 1), max(cy0, math.floor(box[1]) - 1)
        x1, y1 = min(cx1, math.ceil(box[2]) + 1), min(cy1, math.ceil(box[3]) + 1)
        if x1 <= x0 or y1 <= y0:
            return

        def loc(p: Pt) -> Pt:
            return ((p[0] - x0) * k, (p[1] - y0) * k)

        kept = None if key is None or UNCACHED.get() else (key, x0, y0, x1, y1, k)
        for n, (colour, shape) in enumerate(ops):
            mask = None if kept is None else _MASKS.get((kept, n))
            if mask is None:
                drawn = Image.new("L", ((x1 - x0) * k, (y1 - y0) * k), 0)
                shape(ImageDraw.Draw(drawn), loc, k)
                mask = drawn.reduce(k)
                if kept is not None:
                    _keep_mask((kept, n), mask)
            self.img.paste(colour, (x0, y0, x1, y1), mask)

    def segment(self, a: Pt, b: Pt, layers: Layers, *, keep: bool = False) -> None:
        """A straight stroke (with its casing) in pieces, so the patches stay small. The whole
        casing goes down before the stroke, and pieces overlap by a pixel, so no seam shows.
        ``keep``: the pieces' masks are kept (``patch``), for a stroke drawn again in later pictures."""
        dist = math.hypot(b[0] - a[0], b[1] - a[1])
        n = max(1, math.ceil(dist / PIECE))
        ux, uy = ((b[0] - a[0]) / dist, (b[1] - a[1]) / dist) if dist else (0.0, 0.0)
        for width, colour in layers:
            half = width / 2 + 1
            for i in range(n):
                t0, t1 = max(0.0, dist * i / n - 1), min(dist, dist * (i + 1) / n + 1)
                p = (a[0] + ux * t0, a[1] + uy * t0)
                q = (a[0] + ux * t1, a[1] + uy * t1)
                box = (min(p[0], q[0]) - half, min(p[1], q[1]) - half, max(p[0], q[0]) + half, max(p[1], q[1]) + half)
                self.patch(box, [(colour, _line([p, q], width))], key=("line", p, q, width) if keep else None)

    def polyline(self, pts: list[Pt], layers: Layers, *, closed: bool = False) -> None:
        """Segments with round joins (a disc at every sharp inner vertex), layer by layer."""
        seq = [*pts, pts[0]] if closed else pts
        joints = [
            seq[i]
            for i in range(len(seq))
            if (closed or 0 < i < len(seq) - 1) and _turn(seq[i - 1], seq[i], seq[(i + 1) % len(seq)]) > 20.0
        ]  # gentle bends (a ring) need no joint
        for width, colour in layers:
            for here in joints:
                self.disc(here, [(width / 2, colour)])
            for a, b in itertools.pairwise(seq):
                self.segment(a, b, [(width, colour)])

    def ring(self, c: Pt, r: float, width: float, colour: theme.RGB) -> None:
        """A circle outline in pieces, each a fine polyline (6 px facets do not show; Pillow's own
        arc costs as much as the whole circle's bounding box)."""
        n = max(8, math.ceil(2 * math.pi * r / PIECE))
        steps = max(2, math.ceil(2 * math.pi * r / n / 6))
        for i in range(n):
            a0, a1 = 2 * math.pi * i / n, 2 * math.pi * (i + 1) / n + 0.5 / max(r, 1)
            pts = [(c[0] + r * math.cos(a0 + (a1 - a0) * j / steps), c[1] + r * math.sin(a0 + (a1 - a0) * j / steps)) for j in range(steps + 1)]
            box = (min(p[0] for p in pts) - width, min(p[1] for p in pts) - width, max(p[0] for p in pts) + width, max(p[1] for p in pts) + width)
            self.patch(box, [(colour, _line(pts, width))])

    def disc(self, c: Pt, rings: Layers) -> None:
        """Concentric filled circles, ``(radius, colour)`` from the outside in."""
        r0 = max(r for r, _ in rings)
        self.patch((c[0] - r0 - 1, c[1] - r0 - 1, c[0] + r0 + 1, c[1] + r0 + 1), [(colour, _ellipse(c, r)) for r, colour in rings])

    def polygons(self, shapes: list[tuple[list[Pt], theme.RGB]]) -> None:
        """Small filled polygons in one patch, later ones on top (an arrowhead over its casing)."""
        pts = [p for shape, _ in shapes for p in shape]
        box = (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))
        self.patch(box, [(colour, _polygon(shape)) for shape, colour in shapes])

    def translucent_fill(self, pts: list[Pt], colour: theme.RGB, alpha: int) -> None:
        """A big see-through area (a broadside arc): no supersampling, its outline hides the edge."""
        box = (min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts))
        cx0, cy0, cx1, cy1 = self.clip
        x0, y0 = max(cx0, math.floor(box[0])), max(cy0, math.floor(box[1]))
        x1, y1 = min(cx1, math.ceil(box[2]) + 1), min(cy1, math.ceil(box[3]) + 1)
        if x1 <= x0 or y1 <= y0:
            return
        mask = Image.new("L", (x1 - x0, y1 - y0), 0)
        ImageDraw.Draw(mask).polygon([(x - x0, y - y0) for x, y in pts], fill=alpha)
        self.img.paste(colour, (x0, y0, x1, y1), mask)


def _turn(a: Pt, b: Pt, c: Pt) -> float:
    """Degrees the direction changes at b."""
    h1 = math.atan2(b[1] - a[1], b[0] - a[0])
    h2 = math.atan2(c[1] - b[1], c[0] - b[0])
    return abs((math.degrees(h2 - h1) + 180.0) % 360.0 - 180.0)


def _line(pts: list[Pt], width: float) -> Shape:
    def shape(d: ImageDraw.ImageDraw, loc: Callable[[Pt], Pt], k: int) -> None:
        d.line([loc(p) for p in pts], fill=255, width=max(1, round(width * k)), joint="curve" if len(pts) > 2 else None)

    return shape


def _ellipse(c: Pt, r: float) -> Shape:
    def shape(d: ImageDraw.ImageDraw, loc: Callable[[Pt], Pt], k: int) -> None:
        d.ellipse((*loc((c[0] - r, c[1] - r)), *loc((c[0] + r, c[1] + r))), fill=255)

    return shape


def _polygon(pts: list[Pt]) -> Shape:
    def shape(d: ImageDraw.ImageDraw, loc: Callable[[Pt], Pt], k: int) -> None:
        d.polygon([loc(p) for p in pts], fill=255)

    return shape


def play_area(frame: Frame) -> tuple[int, int, int, int]:
    """Where overlays may draw: the table mat itself (a 12" ring near the edge must not run over
    the rulers), else the whole picture."""
    if frame.board_kind != "table" or frame.zoomed:
        return (0, 0, frame.width, frame.height)
    (x0, y0), (x1, y1) = frame.unit_px(0.0, 0.0), frame.unit_px(frame.table_width, frame.table_height)
    return (max(0, math.floor(x0)), max(0, math.floor(y0)), min(frame.width, math.ceil(x1) + 1), min(frame.height, math.ceil(y1) + 1))


def _width(frame: Frame) -> float:
    unit = frame.scale if frame.board_kind != "table" else frame.scale * 1.2
    return max(3.0, min(9.0, unit * 0.09))


def draw_overlays(
    img: Image.Image, overlays: tuple[Overlay, ...], frame: Frame, colours: dict[str, theme.RGB], names: frozenset[str] = frozenset()
) -> tuple[list[Label], list[Label]]:
    """Draw the overlays' shapes; return their labels: measuring aids' names (rings, arcs, paths)
    to draw under the counters, so no ship's name is hidden, and results (fire, ram) to draw over.
    A path whose text is a counter's name (``names``) gets no label: the ship at its end already
    carries that name, and the same name twice on a board reads as two ships."""
    pen = Pen(img, clip=play_area(frame))
    w = _width(frame)
    labels: list[Label] = []  # measuring aids: under the counters
    results: list[Label] = []  # fire and ram results: over them
    for o in overlays:
        pts = [frame.px(p) for p in o.points]
        if not pts or not all(math.isfinite(v) for p in pts for v in p) or not math.isfinite(o.radius):
            continue  # a rule system's bad point must not take the whole board image down
        side = colours.get(o.side, (245, 245, 245))
        if o.kind == "path":
            _path(pen, pts, theme.mix(side, (255, 255, 255), 0.3), w * 1.3)
            if o.text and o.text not in names:
                # at the start, where the mover was: its end is under the counter that moved
                labels.append((pts[0], o.text, (245, 245, 245), (pts[-1],)))
        elif o.kind == "fire" and len(pts) >= 2:
            # in the firing side's colour: with both sides' shots on the board, whose is whose
            shot = theme.vivid(colours[o.side]) if o.side in colours else theme.OVERLAY_FIRE
            a, b = _beside(pts[0], pts[-1], w * 1.4)
            _fire(pen, a, b, w * 1.4, shot)
            results.append((_label_spot(a, b), o.text or "fire", shot, (pts[0], pts[-1])))
        elif o.kind == "ram" and len(pts) >= 2:
            _ram(pen, pts[0], pts[-1], w)
            results.append((_label_spot(pts[0], pts[-1]), f"RAM {o.text}".strip(), theme.OVERLAY_RAM, (pts[0], pts[-1])))
        elif o.kind == "ring":
            r = o.radius * frame.scale
            cx, cy = pts[0]
            pen.ring((cx, cy), r, max(2.0, w * 0.55), theme.OVERLAY_RING)
            labels.append(((cx, cy - r), o.text or f'{o.radius:g}"', theme.OVERLAY_RING, ()))
        elif o.kind == "arc" and len(pts) >= 3:
            # a big translucent fill needs no supersampling: its antialiased outline hides the edge
            pen.translucent_fill(pts, side, 64)
            pen.polyline(pts, [(max(2.0, w * 0.5), side)], closed=True)
            if o.text:
                cx = sum(p[0] for p in pts) / len(pts)
                cy = sum(p[1] for p in pts) / len(pts)
                labels.append(((cx, cy), o.text, theme.mix(side, (255, 255, 255), 0.6), ()))
    return labels, results


def _beside(a: Pt, b: Pt, by: float) -> tuple[Pt, Pt]:
    """The line from a to b moved ``by`` pixels to its right: two ships' shots at each other run
    side by side, each readable, instead of one drawn over the other."""
    dist = math.hypot(b[0] - a[0], b[1] - a[1])
    if dist == 0:
        return a, b
    rx, ry = -(b[1] - a[1]) / dist * by, (b[0] - a[0]) / dist * by
    return (a[0] + rx, a[1] + ry), (b[0] + rx, b[1] + ry)


def _label_spot(a: Pt, b: Pt) -> Pt:
    """Part of the way to the target: near the result, clear of the firer's counter."""
    return (a[0] + (b[0] - a[0]) * 0.6, a[1] + (b[1] - a[1]) * 0.6)


def _arrowhead(pen: Pen, a: Pt, b: Pt, size: float, fill: theme.RGB, casing: float = 0.0) -> None:
    ang = math.atan2(b[1] - a[1], b[0] - a[0])

    def head(s: float, tip: Pt) -> list[Pt]:
        return [tip, (tip[0] - s * math.cos(ang - 0.45), tip[1] - s * math.sin(ang - 0.45)), (tip[0] - s * math.cos(ang + 0.45), tip[1] - s * math.sin(ang + 0.45))]

    shapes = [(head(size, b), fill)]
    if casing:
        shapes.insert(0, (head(size + casing * 2.6, (b[0] + casing * math.cos(ang), b[1] + casing * math.sin(ang))), CASING))
    pen.polygons(shapes)


def _shorten(a: Pt, b: Pt, by: float) -> Pt:
    """End a line short of a point (arrowheads stop at the counter's rim, not under it)."""
    dist = math.hypot(b[0] - a[0], b[1] - a[1])
    if dist <= by * 1.5:
        return b
    t = (dist - by) / dist
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _path(pen: Pen, pts: list[Pt], colour: theme.RGB, w: float) -> None:
    if len(pts) == 1:
        pen.disc(pts[0], [(w, CASING), (w - 1, colour)])
        return
    pen.polyline(pts, [(w + 2, CASING), (w, colour)])
    for p in pts[:-1]:  # a dot per step moved
        pen.disc(p, [(w * 0.95, CASING), (w * 0.95 - 1, colour)])
    _arrowhead(pen, pts[-2], pts[-1], w * 3.0, colour, casing=1.0)


def _dashes(a: Pt, b: Pt, dash: float, gap: float) -> list[tuple[Pt, Pt]]:
    dist = math.hypot(b[0] - a[0], b[1] - a[1])
    if dist == 0:
        return []
    ux, uy = (b[0] - a[0]) / dist, (b[1] - a[1]) / dist
    out = []
    t = 0.0
    while t < dist:
        e = min(dist, t + dash)
        out.append(((a[0] + ux * t, a[1] + uy * t), (a[0] + ux * e, a[1] + uy * e)))
        t = e + gap
    return out


def _fire(pen: Pen, a: Pt, b: Pt, w: float, colour: theme.RGB) -> None:
    end = _shorten(a, b, w * 2.5)
    dashes = _dashes(a, end, w * 4, w * 2)
    for p, q in dashes:  # a dark casing under every dash keeps the colour readable on any terrain
        pen.segment(p, q, [(w + 2, CASING), (w, colour)])
    _arrowhead(pen, a, end, w * 3.6, colour, casing=1.0)


def _ram(pen: Pen, a: Pt, b: Pt, w: float) -> None:
    end = _shorten(a, b, w * 1.5)
    pen.segment(a, end, [(w * 1.6 + 2, CASING), (w * 1.6, theme.OVERLAY_RAM)])
    _arrowhead(pen, a, end, w * 4, theme.OVERLAY_RAM, casing=1.0)
    star = []  # a burst at the point of impact
    for i in range(16):
        r = w * (3.2 if i % 2 == 0 else 1.6)
        ang = math.radians(i * 22.5)
        star.append((end[0] + r * math.cos(ang), end[1] + r * math.sin(ang)))
    pen.polygons([([(x + (x - end[0]) * 0.12, y + (y - end[1]) * 0.12) for x, y in star], CASING), (star, theme.OVERLAY_RAM)])


Box = tuple[float, float, float, float]  # centre x, centre y, width, height
Spot = Callable[[Pt, float, float], Pt]  # where a label wanted to go, its width and height -> its centre


def draw_labels(img: Image.Image, labels: list[Label], frame: Frame, placed: list[Box] | None = None, *, spot: Spot | None = None) -> list[Box]:
    """Overlay texts in small dark boxes, kept inside the picture and clear of each other (and of
    ``placed``, boxes drawn earlier); returns every box placed so far. ``spot``, when given, picks
    the place instead (a table's, clear of every name and base: ``render.table_text``)."""
    placed = [] if placed is None else list(placed)
    if not labels:
        return placed
    d = ImageDraw.Draw(img, "RGBA")
    f = font(max(14.0, min(22.0, _width(frame) * 3.6)), bold=True)
    ax0, ay0, ax1, ay1 = play_area(frame)
    r = frame.scale * {"hex": 0.8, "square": 0.45}.get(frame.board_kind, 0.6)  # a counter and its name
    # hex and square counters carry their names inside, so a label may sit just above them; table
    # ships have their names above, so a label steps below them instead
    up = frame.board_kind != "table"
    for (x, y), text, colour, avoid in labels:
        box = d.textbbox((0, 0), text, font=f, anchor="mm")
        tw, th = box[2] - box[0], box[3] - box[1]
        for _ in range(3):  # off the firer and target: between neighbours, lift it above them
            hit = [p for p in avoid if abs(x - p[0]) < tw / 2 + 6 + r and abs(y - p[1]) < th / 2 + 4 + r]
            if not hit:
                break
            y = min(p[1] for p in hit) - r - th / 2 - 4 if up else max(p[1] for p in hit) + r + th / 2 + 4
        x = min(max(x, ax0 + tw / 2 + 6), ax1 - tw / 2 - 6)
        y = min(max(y, ay0 + th / 2 + 6), ay1 - th / 2 - 6)
        if spot is not None:
            x, y = spot((x, y), tw + 12, th + 8)
        for _ in range(0 if spot is not None else len(placed) * 2 + 1):  # step clear of boxes already drawn (ring and fire labels meet)
            if not any(abs(x - px) < (tw + pw) / 2 + 8 and abs(y - py) < (th + ph) / 2 + 8 for px, py, pw, ph in placed):
                break
            y = y + th + 12 if y + th + 12 < ay1 - th / 2 - 6 else y - th - 12
        placed.append((x, y, tw, th))
        d.rounded_rectangle((x - tw / 2 - 6, y - th / 2 - 4, x + tw / 2 + 6, y + th / 2 + 4), radius=5, fill=(14, 18, 24, 215), outline=(*colour, 255), width=2)
        d.text((x, y), text, font=f, fill=colour, anchor="mm")
    return placed
