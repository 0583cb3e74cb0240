"""Terrain pieces on a continuous table, each kind with its own look: woods are stippled with
trees, towns with building blocks, hills carry contour lines, rivers ripples, fields furrows, and a
bridge or ford is laid across the water. Colour is never the only cue (chat previews are small and
some players cannot tell greens from browns), and the strip's key shows the same swatches.

Kinds are matched by the words in their names (``light-wood``, ``high-hill``, ``urban``...), so a
rule system's own names get a proper look without a table here naming every one."""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw

from games.core.view import Terrain
from render import theme

Pt = tuple[float, float]

# family -> words that name it; the first family whose word is in a kind wins (bridge before river)
FAMILIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("bridge", ("bridge",)),
    ("works", ("works",)),  # a crossing being built (a pontoon being laid): no deck yet
    ("ford", ("ford",)),
    ("river", ("river", "stream", "brook", "canal", "lake", "pond", "water")),
    ("road", ("road", "track", "rail", "lane")),
    ("wood", ("wood", "forest", "copse", "orchard", "trees")),
    ("town", ("urban", "town", "village", "farm", "house", "building", "hamlet", "church")),
    ("marsh", ("swamp", "marsh", "bog", "fen")),
    ("hill", ("hill", "ridge", "height", "slope")),
    ("field", ("field", "crop", "vineyard", "wheat", "meadow")),
    ("wall", ("wall", "hedge", "fence", "obstacle", "earthwork", "redoubt", "entrench")),
    ("open", ("open", "clear")),
)


def family(kind: str) -> str:
    """The look a terrain kind takes ('' for one no family names: a muted fallback colour)."""
    k = kind.lower()
    for name, words in FAMILIES:
        if any(w in k for w in words):
            return name
    return ""


def dense(kind: str) -> bool:
    """Heavy woods, high hills, deep rivers: the same look, drawn heavier."""
    k = kind.lower()
    return any(w in k for w in ("heavy", "high", "steep", "dense", "deep", "river"))


@dataclass(frozen=True)
class Style:
    fill: theme.RGBA
    outline: theme.RGBA | None
    width: float  # outline width at 1x, pixels
    layer: int  # drawing order: ground first, water, roads, then crossings


STYLES: dict[str, Style] = {
    "open": Style((0, 0, 0, 0), (240, 236, 210, 120), 1.5, 0),
    "field": Style((196, 184, 106, 255), (150, 136, 70, 255), 1.5, 0),
    "hill": Style((170, 150, 98, 255), (112, 92, 54, 255), 2.0, 0),
    "marsh": Style((102, 126, 100, 255), (70, 92, 80, 255), 1.5, 1),
    "wood": Style((70, 116, 58, 255), (36, 70, 32, 255), 2.0, 2),
    "town": Style((178, 166, 150, 255), (84, 66, 56, 255), 2.0, 2),
    "wall": Style((150, 146, 138, 255), (60, 58, 56, 255), 2.5, 2),
    "river": Style((62, 128, 186, 255), (34, 82, 132, 255), 2.0, 3),
    "road": Style((204, 184, 140, 255), (146, 124, 86, 255), 1.5, 4),
    "ford": Style((124, 176, 204, 255), (226, 208, 152, 255), 2.0, 5),
    "bridge": Style((146, 104, 64, 255), (52, 36, 24, 255), 2.0, 5),
    "works": Style((146, 104, 64, 90), (52, 36, 24, 220), 1.5, 5),  # over the water, which shows through
    # the sea tables' own kinds
    "island": Style((122, 160, 88, 255), (*theme.SAND, 255), 4, 0),
    "land": Style((122, 160, 88, 255), (*theme.SAND, 255), 4, 0),
    "rock": Style((104, 100, 96, 255), (40, 38, 36, 255), 2, 1),
    "shoal": Style((170, 214, 210, 150), (226, 208, 152, 220), 2, 1),
    "fog": Style((235, 240, 245, 120), None, 0, 6),
    "fire": Style((236, 92, 20, 210), (176, 30, 10, 255), 2.5, 6),  # Days of Iron 15.9: over the burning ground
}


def style(kind: str) -> Style:
    if kind in STYLES:
        base = STYLES[kind]
    elif family(kind):
        base = STYLES[family(kind)]
    else:
        return Style((*theme.fallback_colour(kind), 220), (30, 30, 30, 200), 2, 1)
    if dense(kind) and family(kind) in ("wood", "hill"):
        return Style((*theme.mix(base.fill[:3], (0, 0, 0), 0.15), 255), base.outline, base.width, base.layer)
    if family(kind) == "river" and not dense(kind):  # a stream: paler, thinner banks
        return Style((104, 164, 204, 255), base.outline, 1.5, base.layer)
    return base


def keyed(kinds: list[str]) -> list[str]:
    """The kinds a board's key shows: every styled kind but the ground the table is made of."""
    out: list[str] = []
    for k in kinds:
        if k not in out and k not in ("land", "island", "open", "sea", "deep") and (family(k) or k in STYLES):
            out.append(k)
    return out


def key_name(kind: str) -> str:
    """'light-wood' -> 'Light wood'; 'urban' -> 'Town' (what a player calls it)."""
    if family(kind) == "town" and kind.lower() == "urban":
        return "Town"
    text = kind.replace("-", " ").replace("_", " ").strip()
    return text[:1].upper() + text[1:]


# --- drawing --------------------------------------------------------------------------------


def _seeded(*parts: object) -> float:
    """A stable number in [0, 1) from a piece and an index: the same board gets the same trees."""
    h = hashlib.blake2b("|".join(map(str, parts)).encode(), digest_size=4).digest()
    return int.from_bytes(h, "big") / 2**32


def _axis(pts: list[Pt]) -> float:
    """The direction (radians) of a piece's longest side: a river runs along it, a bridge across."""
    best = (0.0, 0.0)
    for i in range(len(pts)):
        (x0, y0), (x1, y1) = pts[i - 1], pts[i]
        d = math.hypot(x1 - x0, y1 - y0)
        if d > best[0]:
            best = (d, math.atan2(y1 - y0, x1 - x0))
    return best[1]


def _outline(frame_px: Callable[[Pt], Pt], t: Terrain, ss: int) -> list[Pt]:
    if t.centre is not None and t.radius > 0:
        cx, cy = frame_px(t.centre)
        r = abs(frame_px((t.centre[0] + t.radius, t.centre[1]))[0] - cx)
        return [((cx + r * math.cos(a * math.pi / 24)) * ss, (cy + r * math.sin(a * math.pi / 24)) * ss) for a in range(48)]
    return [(x * ss, y * ss) for x, y in (frame_px(p) for p in t.points)]


def draw_piece(big: Image.Image, frame_px: Callable[[Pt], Pt], scale: float, t: Terrain, ss: int) -> None:
    """One piece on the supersampled table: its fill, its kind's pattern clipped to it, its edge."""
    pts = _outline(frame_px, t, ss)
    if len(pts) < 3:
        return
    st = style(t.kind)
    draw = ImageDraw.Draw(big, "RGBA")
    if st.fill[3]:
        draw.polygon(pts, fill=st.fill)
    pattern = PATTERNS.get(family(t.kind) or t.kind)
    if pattern is not None:
        x0, y0 = math.floor(min(p[0] for p in pts)), math.floor(min(p[1] for p in pts))
        x1, y1 = math.ceil(max(p[0] for p in pts)), math.ceil(max(p[1] for p in pts))
        if x1 > x0 and y1 > y0:
            layer = Image.new("RGBA", (x1 - x0, y1 - y0), (0, 0, 0, 0))
            local = [(x - x0, y - y0) for x, y in pts]
            pattern(ImageDraw.Draw(layer, "RGBA"), local, t, scale * ss)
            mask = Image.new("L", layer.size, 0)
            ImageDraw.Draw(mask).polygon(local, fill=255)
            layer.putalpha(ImageChops.multiply(layer.getchannel("A"), mask))  # clipped to the piece
            big.paste(layer, (x0, y0), layer)
    if st.outline is not None and st.width:
        draw.line([*pts, pts[0]], fill=st.outline, width=max(1, round(st.width * ss)), joint="curve")


def _grid(local: list[Pt], step: float, jitter: float, t: Terrain) -> list[Pt]:
    """Points on a jittered grid over a piece's box (stable per piece)."""
    x0, y0 = min(p[0] for p in local), min(p[1] for p in local)
    x1, y1 = max(p[0] for p in local), max(p[1] for p in local)
    out = []
    rows = int((y1 - y0) / step) + 1
    cols = int((x1 - x0) / step) + 1
    for j in range(rows):
        for i in range(cols):
            dx = (_seeded(t.kind, t.points, t.centre, i, j, "x") - 0.5) * jitter
            dy = (_seeded(t.kind, t.points, t.centre, i, j, "y") - 0.5) * jitter
            out.append((x0 + (i + 0.5 + (0.5 if j % 2 else 0.0)) * step + dx, y0 + (j + 0.5) * step + dy))
    return out


def _trees(d: ImageDraw.ImageDraw, local: list[Pt], t: Terrain, unit: float) -> None:
    """Round tree crowns with a lit side: sparse in light wood, close in heavy wood."""
    heavy = dense(t.kind)
    r = max(2.5, unit * 0.38)
    step = r * (2.3 if heavy else 3.2)
    dark = (30, 62, 28, 255) if heavy else (40, 80, 34, 255)
    lit = (104, 150, 74, 255) if heavy else (126, 168, 86, 255)
    for x, y in _grid(local, step, step * 0.5, t):
        d.ellipse((x - r, y - r, x + r, y + r), fill=dark)
        d.ellipse((x - r * 0.75, y - r * 0.85, x + r * 0.35, y + r * 0.25), fill=lit)


def _buildings(d: ImageDraw.ImageDraw, local: list[Pt], t: Terrain, unit: float) -> None:
    """Blocks of houses with dark roofs along little streets."""
    b = max(3.0, unit * 0.45)
    step = b * 3.6
    for x, y in _grid(local, step, step * 0.2, t):
        wide = _seeded(t.points, x, y) > 0.5
        w, h = (b * 1.3, b * 0.75) if wide else (b * 0.75, b * 1.2)
        d.rectangle((x - w, y - h, x + w, y + h), fill=(146, 82, 64, 255), outline=(70, 44, 36, 255), width=max(1, round(unit / 14)))


def _contours(d: ImageDraw.ImageDraw, local: list[Pt], t: Terrain, unit: float) -> None:
    """Contour lines inside the edge (two on a high hill), with short hachures down the slope."""
    cx = sum(p[0] for p in local) / len(local)
    cy = sum(p[1] for p in local) / len(local)
    ink = (104, 84, 48, 255)
    levels = (0.72, 0.42) if dense(t.kind) else (0.6,)
    w = max(1, round(unit / 9))
    for k in levels:
        ring = [(cx + (x - cx) * k, cy + (y - cy) * k) for x, y in local]
        d.line([*ring, ring[0]], fill=ink, width=w, joint="curve")
    # hachures: short ticks from the edge towards the top, every so often along the edge
    for i in range(len(local)):
        (x0, y0), (x1, y1) = local[i - 1], local[i]
        length = math.hypot(x1 - x0, y1 - y0)
        n = int(length / max(6.0, unit * 0.9))
        for j in range(1, n):
            px, py = x0 + (x1 - x0) * j / n, y0 + (y1 - y0) * j / n
            d.line([(px, py), (px + (cx - px) * 0.14, py + (cy - py) * 0.14)], fill=ink, width=w)


def _ripples(d: ImageDraw.ImageDraw, local: list[Pt], t: Terrain, unit: float) -> None:
    """Light wavy lines along the flow (the piece's long side)."""
    a = _axis(local)
    ux, uy, vx, vy = math.cos(a), math.sin(a), -math.sin(a), math.cos(a)
    cx = sum(p[0] for p in local) / len(local)
    cy = sum(p[1] for p in local) / len(local)
    span = max(math.hypot(x - cx, y - cy) for x, y in local)
    gap = max(5.0, unit * 0.6)
    w = max(1, round(unit / 10))
    for k in range(-int(span / gap), int(span / gap) + 1):
        line = []
        for s in range(-int(span / 2), int(span / 2) + 1):
            u, v = s * 2.0, k * gap + math.sin(s * 2.0 / max(4.0, unit * 0.5)) * gap * 0.15
            line.append((cx + u * ux + v * vx, cy + u * uy + v * vy))
        d.line(line, fill=(200, 228, 246, 150), width=w)


def _hatch(d: ImageDraw.ImageDraw, local: list[Pt], gap: float, fill: tuple[int, int, int, int], width: int,
           *, along: bool) -> float:
    """Parallel lines ``gap`` apart over a piece, along its long axis or across it; returns the axis."""
    a = _axis(local)
    ux, uy, vx, vy = math.cos(a), math.sin(a), -math.sin(a), math.cos(a)
    (ox, oy), (lx, ly) = ((vx, vy), (ux, uy)) if along else ((ux, uy), (vx, vy))
    cx = sum(p[0] for p in local) / len(local)
    cy = sum(p[1] for p in local) / len(local)
    span = max(math.hypot(x - cx, y - cy) for x, y in local)
    for k in range(-int(span / gap), int(span / gap) + 1):
        p = (cx + k * gap * ox - span * lx, cy + k * gap * oy - span * ly)
        q = (cx + k * gap * ox + span * lx, cy + k * gap * oy + span * ly)
        d.line([p, q], fill=fill, width=width)
    return a


def _works(d: ImageDraw.ImageDraw, local: list[Pt], t: Terrain, unit: float) -> None:
    """Crossing works: the boats' lines, no deck over them."""
    _hatch(d, local, max(6.0, unit * 0.5), (52, 36, 24, 200), max(1, round(unit / 10)), along=True)


def _furrows(d: ImageDraw.ImageDraw, local: list[Pt], t: Terrain, unit: float) -> None:
    _hatch(d, local, max(4.0, unit * 0.5), (150, 132, 64, 200), max(1, round(unit / 12)), along=True)


def _tufts(d: ImageDraw.ImageDraw, local: list[Pt], t: Terrain, unit: float) -> None:
    """Reed tufts over pools: the map symbol for marsh."""
    s = max(3.0, unit * 0.4)
    for x, y in _grid(local, s * 3.2, s, t):
        d.line([(x - s, y + s * 0.3), (x + s, y + s * 0.3)], fill=(150, 190, 210, 220), width=max(1, round(s / 4)))
        for dx in (-0.5, 0.0, 0.5):
            d.line([(x + dx * s, y + s * 0.2), (x + dx * s * 1.6, y - s * 0.7)], fill=(40, 70, 40, 230), width=max(1, round(s / 5)))


def _stones(d: ImageDraw.ImageDraw, local: list[Pt], t: Terrain, unit: float) -> None:
    """A ford: stepping stones across the shallow water."""
    r = max(2.0, unit * 0.22)
    for x, y in _grid(local, r * 3.4, r * 1.2, t):
        d.ellipse((x - r, y - r * 0.8, x + r, y + r * 0.8), fill=(*theme.SAND, 255), outline=(150, 132, 90, 255))


def _planks(d: ImageDraw.ImageDraw, local: list[Pt], t: Terrain, unit: float) -> None:
    """A bridge deck: planks across its length and a dark rail along each long side."""
    a = _hatch(d, local, max(3.0, unit * 0.3), (96, 64, 38, 255), max(1, round(unit / 14)), along=False)
    for i in range(len(local)):  # the long sides as rails
        (x0, y0), (x1, y1) = local[i - 1], local[i]
        if abs(math.sin(math.atan2(y1 - y0, x1 - x0) - a)) < 0.3:
            d.line([(x0, y0), (x1, y1)], fill=(40, 26, 16, 255), width=max(2, round(unit / 5)))


def _stone_wall(d: ImageDraw.ImageDraw, local: list[Pt], t: Terrain, unit: float) -> None:
    b = max(3.0, unit * 0.4)
    for x, y in _grid(local, b * 1.6, 0.0, t):
        d.rectangle((x - b * 0.7, y - b * 0.35, x + b * 0.7, y + b * 0.35), outline=(96, 92, 86, 255), width=1)


def _road_line(d: ImageDraw.ImageDraw, local: list[Pt], t: Terrain, unit: float) -> None:
    """Wheel ruts along the road."""
    a = _axis(local)
    ux, uy, vx, vy = math.cos(a), math.sin(a), -math.sin(a), math.cos(a)
    cx = sum(p[0] for p in local) / len(local)
    cy = sum(p[1] for p in local) / len(local)
    span = max(math.hypot(x - cx, y - cy) for x, y in local)
    for off in (-0.18, 0.18):
        o = off * unit
        d.line([(cx - span * ux + o * vx, cy - span * uy + o * vy), (cx + span * ux + o * vx, cy + span * uy + o * vy)], fill=(164, 140, 98, 220), width=max(1, round(unit / 12)))


def _sand(d: ImageDraw.ImageDraw, local: list[Pt], t: Terrain, unit: float) -> None:
    """Sand speckle, so a shoal reads without colour."""
    r = 1.3 * unit / max(1.0, unit / 2)  # about 1.3 px at any scale
    for x, y in _grid(local, max(8.0, unit * 0.8), unit * 0.6, t):
        d.ellipse((x - r, y - r, x + r, y + r), fill=(*theme.SAND, 200))


Pattern = Callable[[ImageDraw.ImageDraw, list[Pt], Terrain, float], None]
PATTERNS: dict[str, Pattern] = {
    "wood": _trees,
    "town": _buildings,
    "hill": _contours,
    "river": _ripples,
    "field": _furrows,
    "marsh": _tufts,
    "ford": _stones,
    "bridge": _planks,
    "works": _works,
    "wall": _stone_wall,
    "road": _road_line,
    "shoal": _sand,
}


def draw_pieces(big: Image.Image, frame_px: Callable[[Pt], Pt], scale: float, pieces: tuple[Terrain, ...], ss: int) -> None:
    """Every piece, ground before water before roads before crossings (a bridge lies over its river)."""
    for t in sorted(pieces, key=lambda t: style(t.kind).layer):
        draw_piece(big, frame_px, scale, t, ss)


def swatch(kind: str, size: int) -> Image.Image:
    """A small square of a kind's look for the strip's key."""
    k = 3
    big = Image.new("RGB", (size * k, size * k), theme.STRIP)
    side = size * k
    piece = Terrain(kind, points=((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)))
    if family(kind) in ("river", "road", "bridge", "ford"):  # a strip across the swatch shows the long way
        piece = Terrain(kind, points=((0.0, 0.25), (1.0, 0.25), (1.0, 0.75), (0.0, 0.75)))
    draw_piece(big, lambda p: (p[0] * side / k, p[1] * side / k), max(6.0, size * 0.45), piece, k)
    return big.reduce(k)
