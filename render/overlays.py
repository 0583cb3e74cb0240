"""The last activation and measuring aids: paths moved, lines of fire, rams, range rings, arcs.

Shapes go in one supersampled RGBA layer covering just the overlays' bounding box (so a short
move costs little), pasted under the counters; result texts are drawn last, above everything.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from games.core.view import Overlay
from render import theme
from render.fonts import font
from render.frame import Frame

SS = 2
Pt = tuple[float, float]


@dataclass(frozen=True)
class OverlayLayer:
    image: Image.Image | None  # RGBA, or None when there is nothing to draw
    x: int
    y: int
    labels: tuple[tuple[Pt, str, theme.RGB], ...]  # (where, text, colour) drawn above counters


def _width(frame: Frame) -> float:
    unit = frame.scale if frame.board_kind != "table" else frame.scale * 1.2
    return max(3.0, min(9.0, unit * 0.09))


def build_layer(overlays: tuple[Overlay, ...], frame: Frame, colours: dict[str, theme.RGB]) -> OverlayLayer:
    if not overlays:
        return OverlayLayer(None, 0, 0, ())
    w = _width(frame)
    pad = w * 5 + 4
    xs: list[float] = []
    ys: list[float] = []
    for o in overlays:
        pts = [frame.px(p) for p in o.points]
        if o.kind == "ring" and pts:
            r = o.radius * frame.scale
            pts = [(pts[0][0] - r, pts[0][1] - r), (pts[0][0] + r, pts[0][1] + r)]
        xs.extend(p[0] for p in pts)
        ys.extend(p[1] for p in pts)
    if not xs:
        return OverlayLayer(None, 0, 0, ())
    x0 = max(0, math.floor(min(xs) - pad))
    y0 = max(0, math.floor(min(ys) - pad))
    x1 = min(frame.width, math.ceil(max(xs) + pad))
    y1 = min(frame.height, math.ceil(max(ys) + pad))
    if x1 <= x0 or y1 <= y0:
        return OverlayLayer(None, 0, 0, ())
    big = Image.new("RGBA", ((x1 - x0) * SS, (y1 - y0) * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)

    def loc(p: Pt) -> Pt:
        return ((p[0] - x0) * SS, (p[1] - y0) * SS)

    labels: list[tuple[Pt, str, theme.RGB]] = []
    for o in overlays:
        pts = [frame.px(p) for p in o.points]
        if not pts:
            continue
        side = colours.get(o.side, (245, 245, 245))
        if o.kind == "path":
            _path(d, [loc(p) for p in pts], theme.mix(side, (255, 255, 255), 0.3), w * 1.3 * SS)
            if o.text:
                labels.append((pts[-1], o.text, (245, 245, 245)))
        elif o.kind == "fire" and len(pts) >= 2:
            _fire(d, loc(pts[0]), loc(pts[-1]), w * SS)
            labels.append((_label_spot(pts[0], pts[-1]), o.text or "fire", theme.OVERLAY_FIRE))
        elif o.kind == "ram" and len(pts) >= 2:
            _ram(d, loc(pts[0]), loc(pts[-1]), w * SS)
            labels.append((_label_spot(pts[0], pts[-1]), f"RAM {o.text}".strip(), theme.OVERLAY_RAM))
        elif o.kind == "ring":
            r = o.radius * frame.scale * SS
            cx, cy = loc(pts[0])
            d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=(*theme.OVERLAY_RING, 200), width=max(2, round(w * 0.6)) * SS)
            labels.append(((pts[0][0], pts[0][1] - o.radius * frame.scale), o.text or f'{o.radius:g}"', theme.OVERLAY_RING))
        elif o.kind == "arc" and len(pts) >= 3:
            lp = [loc(p) for p in pts]
            d.polygon(lp, fill=(*side, 60))
            d.line([*lp, lp[0]], fill=(*side, 210), width=max(2, round(w * 0.5)) * SS, joint="curve")
            if o.text:
                cx = sum(p[0] for p in pts) / len(pts)
                cy = sum(p[1] for p in pts) / len(pts)
                labels.append(((cx, cy), o.text, theme.mix(side, (255, 255, 255), 0.6)))
    return OverlayLayer(big.reduce(SS), x0, y0, tuple(labels))


def _label_spot(a: Pt, b: Pt) -> Pt:
    """Two thirds of the way to the target: near the result, clear of the firer's counter."""
    return (a[0] + (b[0] - a[0]) * 0.6, a[1] + (b[1] - a[1]) * 0.6)


def _arrowhead(d: ImageDraw.ImageDraw, a: Pt, b: Pt, size: float, fill: theme.RGBA) -> None:
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    left = (b[0] - size * math.cos(ang - 0.45), b[1] - size * math.sin(ang - 0.45))
    right = (b[0] - size * math.cos(ang + 0.45), b[1] - size * math.sin(ang + 0.45))
    d.polygon([b, left, right], fill=fill)


def _shorten(a: Pt, b: Pt, by: float) -> Pt:
    """End a line short of a point (arrowheads stop at the counter's rim, not under it)."""
    dist = math.hypot(b[0] - a[0], b[1] - a[1])
    if dist <= by * 1.5:
        return b
    t = (dist - by) / dist
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _path(d: ImageDraw.ImageDraw, pts: list[Pt], colour: theme.RGB, w: float) -> None:
    if len(pts) == 1:
        x, y = pts[0]
        d.ellipse((x - w, y - w, x + w, y + w), fill=(*colour, 230))
        return
    casing = (12, 16, 22, 150)
    d.line(pts, fill=casing, width=round(w + 2 * SS), joint="curve")
    d.line(pts, fill=(*colour, 235), width=round(w), joint="curve")
    for x, y in pts[:-1]:
        r = w * 0.9
        d.ellipse((x - r, y - r, x + r, y + r), fill=(*colour, 255), outline=casing, width=SS)
    _arrowhead(d, pts[-2], pts[-1], w * 3.4, (*colour, 255))


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


def _fire(d: ImageDraw.ImageDraw, a: Pt, b: Pt, w: float) -> None:
    end = _shorten(a, b, w * 2.5)
    dashes = _dashes(a, end, w * 4, w * 2)
    for p, q in dashes:  # a dark casing under every dash keeps red readable on any terrain
        d.line([p, q], fill=(12, 16, 22, 170), width=round(w + 2 * SS))
    for p, q in dashes:
        d.line([p, q], fill=(*theme.OVERLAY_FIRE, 255), width=round(w))
    _arrowhead(d, a, end, w * 3.6, (*theme.OVERLAY_FIRE, 255))


def _ram(d: ImageDraw.ImageDraw, a: Pt, b: Pt, w: float) -> None:
    end = _shorten(a, b, w * 1.5)
    d.line([a, end], fill=(12, 16, 22, 160), width=round(w * 1.6 + 2 * SS))
    d.line([a, end], fill=(*theme.OVERLAY_RAM, 255), width=round(w * 1.6))
    _arrowhead(d, a, end, w * 4, (*theme.OVERLAY_RAM, 255))
    # a burst at the point of impact
    star = []
    for i in range(16):
        r = w * (3.2 if i % 2 == 0 else 1.6)
        ang = math.radians(i * 22.5)
        star.append((end[0] + r * math.cos(ang), end[1] + r * math.sin(ang)))
    d.polygon(star, fill=(*theme.OVERLAY_RAM, 200), outline=(12, 16, 22, 200))


def draw_labels(img: Image.Image, layer: OverlayLayer, frame: Frame) -> None:
    """Result texts in small dark boxes, kept inside the picture."""
    if not layer.labels:
        return
    d = ImageDraw.Draw(img, "RGBA")
    f = font(max(12.0, min(20.0, _width(frame) * 3.2)), bold=True)
    placed: list[tuple[float, float, float, float]] = []
    for (x, y), text, colour in layer.labels:
        box = d.textbbox((0, 0), text, font=f, anchor="mm")
        tw, th = box[2] - box[0], box[3] - box[1]
        x = min(max(x, tw / 2 + 6), frame.width - tw / 2 - 6)
        y = min(max(y, th / 2 + 6), frame.height - th / 2 - 6)
        for _ in range(len(placed) * 2):  # step clear of boxes already drawn (ring and fire labels meet)
            if not any(abs(x - px) < (tw + pw) / 2 + 8 and abs(y - py) < (th + ph) / 2 + 8 for px, py, pw, ph in placed):
                break
            y = y + th + 12 if y + th + 12 < frame.height - th / 2 - 6 else y - th - 12
        placed.append((x, y, tw, th))
        d.rounded_rectangle((x - tw / 2 - 6, y - th / 2 - 4, x + tw / 2 + 6, y + th / 2 + 4), radius=5, fill=(14, 18, 24, 215), outline=(*colour, 255), width=2)
        d.text((x, y), text, font=f, fill=colour, anchor="mm")
