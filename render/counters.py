"""Counter sprites: one small antialiased RGBA image per distinct counter look, pasted per render.

A sprite depends only on how the counter looks (side colour, label, facing, damage, markers...),
never on where it stands, so a move re-uses the sprite and only the paste is new work.
What a face-down counter shows is decided here once: a grey "?" and nothing else from it
(no label, side, facing, damage or markers), so a View that still carries those can't leak them.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass

from PIL import Image, ImageDraw

from games.core.view import Counter
from render import theme
from render.fonts import UNCACHED, font, paste_text


def supersampling(radius: float) -> int:
    """Small counters need 4x to get smooth edges; big ones look the same at 2x for a quarter the work."""
    return 4 if radius < 24 else 3 if radius < 34 else 2


@dataclass(frozen=True)
class Look:
    """Everything a sprite depends on (the sprite cache key)."""

    board_kind: str
    scale: float
    kind: str
    label: str
    colour: theme.RGB
    facing: float | None
    damage: int
    damage_max: int
    damage_text: str
    markers: tuple[str, ...]
    face_down: bool
    highlight: bool
    size: tuple[float, float]
    room: float = 0.0  # how wide a name may be before it shrinks (px); 0 = the token's own width
    text_px: float = 11.0  # smallest name size that stays readable at chat size (``Frame.text_px``)
    ghost: bool = False  # a previewed position: the same sprite, translucent
    edge: float = 0.0  # a hex or square name may reach only this far past the centre towards ``edge_side`` (px)
    edge_side: int = 0  # the picture's edge near: 1 left, -1 right, 0 none (a centre past the edge gives edge < 0)


def label_room(board_kind: str, scale: float, flat: bool) -> float:
    """Width a counter's name may take without touching a neighbour's name or body.

    On a flat-topped map the nearest counters on the same row are two columns (3 radii) away and
    diagonal neighbours sit half a hex lower, so a name may be wider than its hex; on a
    pointy-topped map the next hex on the row is only 1.73 radii away."""
    if board_kind == "square":
        return scale * 0.9  # a gap short of the next square's name
    if board_kind != "hex":
        return 0.0
    return scale * (2.6 if flat else 1.55)


def free_room(board_kind: str, scale: float, flat: bool, gap_px: float | None) -> float:
    """Width a name may take given the nearest counter beside it (``gap_px`` between their
    centres, None when nothing stands on its row): never less than ``label_room``, and up to about
    two cells when the neighbouring cells are empty, so a long name is not cut for nothing."""
    base = label_room(board_kind, scale, flat)
    if board_kind not in ("hex", "square"):
        return base
    cap = scale * (4.2 if board_kind == "hex" else 2.0)
    free = cap if gap_px is None else min(cap, gap_px - scale * 0.15)
    return round(max(base, free), 1)


def look_of(
    counter: Counter,
    colour: theme.RGB,
    board_kind: str,
    scale: float,
    *,
    flat: bool = True,
    text_px: float = 11.0,
    room: float | None = None,
) -> Look:
    if counter.face_down:
        # only position and highlight survive: the "?" counter is the same for every hidden thing
        highlight = counter.highlight and board_kind == "table"
        return Look(board_kind, round(scale, 3), "hidden", "?", theme.FACE_DOWN, None, 0, 0, "", (), True, highlight, (0.0, 0.0))
    facing = None if counter.facing is None else round(counter.facing % 360.0, 1)
    return Look(
        board_kind,
        round(scale, 3),
        counter.kind,
        counter.label,
        colour,
        facing,
        counter.damage,
        counter.damage_max,
        counter.damage_text,
        tuple(counter.markers),
        False,
        # tokens get their highlight ring as a separate sprite (see highlight_sprite), so the
        # highlight moving from counter to counter does not redraw either counter
        counter.highlight and board_kind == "table",
        counter.size if board_kind == "table" else (0.0, 0.0),
        label_room(board_kind, scale, flat) if room is None else room,
        text_px,
        counter.ghost,
    )


@dataclass(frozen=True)
class Sprite:
    image: Image.Image
    ax: int  # where the counter's position falls inside the image
    ay: int
    # a table name sprite's box relative to its anchor (x0, y0, x1, y1): what the renderer keeps
    # clear of other names and bases; None for every other sprite
    label_box: tuple[float, float, float, float] | None = None


def token_radius(board_kind: str, scale: float) -> float:
    return scale * (0.62 if board_kind == "hex" else 0.36)


def _bearing_pt(cx: float, cy: float, r: float, deg: float) -> tuple[float, float]:
    a = math.radians(deg)
    return (cx + r * math.sin(a), cy - r * math.cos(a))


def _teardrop(cx: float, cy: float, r: float, facing: float | None) -> list[tuple[float, float]]:
    """A disc with a bow point: the point is the facing, readable at any size."""
    if facing is None:
        return [_bearing_pt(cx, cy, r, a * 7.5) for a in range(48)]
    half = 36.0
    pts = [_bearing_pt(cx, cy, r * 1.5, facing)]
    steps = 40
    for i in range(steps + 1):
        a = facing + half + (360.0 - 2 * half) * i / steps
        pts.append(_bearing_pt(cx, cy, r, a))
    return pts


def _fit_label(text: str, start: float, low: float, width: float) -> tuple[str, float]:
    """One size for every label on a board unless a long one must shrink (never below ``low``),
    then truncation: a label never spills far over its neighbours."""
    size = start
    while size > low and font(size, bold=True).getlength(text) > width:
        size -= 1
    if font(size, bold=True).getlength(text) > width * 1.25:
        while len(text) > 2 and font(size, bold=True).getlength(text + "\u2026") > width * 1.25:
            text = text[:-1]
        text = text.rstrip(" .") + "\u2026"
    return text, size


VOWELS = frozenset("aeiouyàáâäèéêëìíîïòóôöùúûü")


def _two_lines(text: str) -> tuple[str, str] | None:
    """The most even split of a name into two lines: at a space, else a hyphen before a
    consonant that starts a syllable ("Affon-datore"); None for words too short to break."""
    words = text.split(" ")
    if len(words) > 1:
        splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
        return min(splits, key=lambda pair: max(len(pair[0]), len(pair[1])))
    if len(text) < 8:
        return None
    breaks = [i for i in range(3, len(text) - 2) if text[i].lower() not in VOWELS and text[i + 1].lower() in VOWELS and text[i].isalpha()]
    if not breaks:
        return None
    i = min(breaks, key=lambda b: abs(b - len(text) / 2))
    return text[:i] + "-", text[i:]


def _fit_lines(text: str, start: float, low: float, width: float) -> tuple[tuple[str, ...], float]:
    """Like ``_fit_label``, but before truncating a name it tries two
    lines (at the largest size from ``start`` down to ``low`` that fits): the full name stays
    readable in a chat preview, where the board is shown at about half size."""
    one, size = _fit_label(text, start, low, width)
    if one == text:
        return (text,), size
    limit = width * 1.25
    pair = _two_lines(text)
    if pair is not None:
        size = start
        while size >= low:
            if max(font(size, bold=True).getlength(line) for line in pair) <= limit:
                return pair, size
            size -= 1
        # still too long ("Erzherzog Ferdinand Max"): a whole first word and a cut second line
        # say more than one cut line
        first, rest = text.split(" ", 1) if " " in text else ("", "")
        if first and font(low, bold=True).getlength(first) <= limit:
            second, _ = _fit_label(rest, low, low, width)
            return (first, second), low
    return (one,), low


def highlight_sprite(board_kind: str, scale: float) -> Sprite:
    """The ring drawn under a highlighted hex or square counter."""
    r = token_radius(board_kind, scale)
    k = supersampling(r)
    hr = r * 1.2
    width = max(3, round(r * 0.16))
    side = math.ceil(2 * (hr + width)) + 4
    big = Image.new("RGBA", (side * k, side * k), (0, 0, 0, 0))
    c = side * k / 2
    ImageDraw.Draw(big).ellipse((c - hr * k, c - hr * k, c + hr * k, c + hr * k), outline=theme.HIGHLIGHT, width=width * k)
    return Sprite(big.reduce(k), side // 2, side // 2)


GHOST_ALPHA = 0.45  # a previewed position: clearly there, clearly not (yet) real


def make_sprite(look: Look) -> Sprite:
    if look.ghost:
        solid = make_sprite(dataclasses.replace(look, ghost=False))
        faded = solid.image.copy()
        faded.putalpha(faded.getchannel("A").point(lambda a: round(a * GHOST_ALPHA)))
        return dataclasses.replace(solid, image=faded)
    if not look.face_down and look.kind == "wake":
        return _wake_sprite(look)
    if not look.face_down and look.kind == "landing":
        return _landing_sprite(look)
    if look.board_kind == "table":
        return _table_sprite(look)
    return _token_sprite(look)


# --- wakes and landing parties (any board) --------------------------------------------------


def _wake_sprite(look: Look) -> Sprite:
    """Where a ship was: a faint outline of the stern with a trail behind it and no label, so it
    reads as water the ship has left and never competes with a real counter or its name."""
    if look.board_kind == "table":
        length, beam = look.size if look.size[0] > 0 and look.size[1] > 0 else (0.6, 0.7)
        lp, bp = max(6.0, length * look.scale), max(6.0, beam * look.scale)
    else:
        r = token_radius(look.board_kind, look.scale)
        lp, bp = r * 0.8, r * 1.3
    trail = max(8.0, lp * 1.4)
    spread = trail * 0.35
    extent = math.hypot(lp / 2 + trail, bp / 2 + spread) + 3
    side = math.ceil(2 * extent)
    k = 3
    big = Image.new("RGBA", (side * k, side * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = side * k / 2
    a = math.radians(look.facing or 0.0)
    fx, fy = math.sin(a), -math.cos(a)  # forward
    sx, sy = math.cos(a), math.sin(a)  # starboard

    def at(u: float, v: float) -> tuple[float, float]:
        return (c + (u * fx + v * sx) * k, c + (u * fy + v * sy) * k)

    pale = theme.mix(look.colour, (255, 255, 255), 0.55)
    box = [at(-lp / 2, -bp / 2), at(lp / 2, -bp / 2), at(lp / 2, bp / 2), at(-lp / 2, bp / 2)]
    d.polygon(box, fill=(*pale, 45), outline=(*pale, 130), width=max(1, round(look.scale / 30)) * k)
    # two wake lines spreading astern, fainter as they go
    steps = 4
    for sign in (-1.0, 1.0):
        for i in range(steps):
            t0, t1 = i / steps, (i + 0.7) / steps
            p0 = at(-lp / 2 - trail * t0, sign * (bp / 2 + spread * t0))
            p1 = at(-lp / 2 - trail * t1, sign * (bp / 2 + spread * t1))
            d.line([p0, p1], fill=(*pale, round(130 * (1 - t0 * 0.8))), width=max(2, round(bp / 6)) * k // 2)
    return Sprite(big.reduce(k), side // 2, side // 2)


LANDING_SUFFIX = " landing party"


def landing_label(label: str) -> str:
    """"Sloop landing party" -> "Sloop": the triangle and the strip's key already say what it is."""
    if label.lower().endswith(LANDING_SUFFIX):
        return label[: -len(LANDING_SUFFIX)].strip()
    return label


def _landing_sprite(look: Look) -> Sprite:
    """A landing party: a small upright triangle in the side's colour with a white rim (unlike
    any hull, token or wake) and its ship's name underneath in small plain text."""
    if look.board_kind == "table":
        h = max(12.0, min(22.0, look.scale * 0.6))
        size = max(10.0, min(14.0, look.scale * 0.42))
    else:
        r = token_radius(look.board_kind, look.scale)
        h = max(12.0, r * 0.9)
        size = max(10.0, min(16.0, r * 0.45))
    label = landing_label(look.label)
    f = font(size)
    room = size * 7
    if f.getlength(label) > room:
        while len(label) > 2 and f.getlength(label + "\u2026") > room:
            label = label[:-1]
        label = label.rstrip(" .") + "\u2026"
    half_w = max(h * 0.7, f.getlength(label) / 2 + 3) + 2
    w = math.ceil(2 * half_w)
    top = h * 0.62 + 3  # the triangle's tip above the counter's position
    below = h * 0.38 + (size + 6 if label else 0) + 3
    height = math.ceil(top + below)
    k = 3
    big = Image.new("RGBA", (w * k, height * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    cx, cy = w / 2 * k, top * k
    tri = [(cx, cy - h * 0.62 * k), (cx + h * 0.55 * k, cy + h * 0.38 * k), (cx - h * 0.55 * k, cy + h * 0.38 * k)]
    d.polygon(tri, fill=look.colour, outline=(250, 250, 250), width=max(2, round(h / 9)) * k)
    img = big.reduce(k)
    if label:
        paste_text(img, (w / 2, top + h * 0.38 + 3 + size / 2), label, size, fill=(235, 240, 245), stroke=2, stroke_fill=theme.OUTLINE)
    return Sprite(img, round(w / 2), round(top))


def _badge_size(r: float) -> float:
    return max(6.5, r * 0.3)


def _edge_shift(label_w: float, edge: float, side: int) -> float:
    """How far a name moves from its counter's centre to stay inside the picture (``Look.edge``),
    also for a counter standing just outside a zoomed window ("ichmond" was cut there)."""
    if side and label_w / 2 > edge:
        return side * (label_w / 2 - edge)
    return 0.0


@functools.lru_cache(maxsize=1024)
def token_name(look: Look) -> tuple[tuple[str, ...], float]:
    """A hex or square counter's name as drawn: its lines and their size (asked again each render,
    for the hex numbers over counters: kept per look, like the sprite)."""
    r = token_radius(look.board_kind, look.scale)
    if look.face_down:
        return ("?",), max(11.0, min(22.0, r * 0.56)) * 1.6
    low = look.text_px  # never smaller than what a chat preview can still read
    # a name may spill over its cell but stops a gap short of the next counter's name (``room``),
    # so ships on every other square never read as one word ("PortogalloAffondatore"); when it
    # is too long it goes on two lines, then is cut with an ellipsis
    start = max(low, min(24.0, look.scale * 0.42) if look.board_kind == "hex" else min(22.0, r * 0.56))
    room = look.room or 2.3 * r * 1.25
    return _fit_lines(look.label, start, low, room / 1.25)


def _token_sprite(look: Look) -> Sprite:
    r = token_radius(look.board_kind, look.scale)
    badge = _badge_size(r)
    lines, label_size = token_name(look)
    label_w = max(font(label_size, bold=True).getlength(line) for line in lines)
    dx = _edge_shift(label_w, look.edge, look.edge_side)
    half = max(r * 1.62, r + 2 * badge + 2, label_w / 2 + abs(dx) + max(r * 0.8, 18.0) + 6) + 3  # room for a bow pointer
    side = math.ceil(2 * half)
    c = side / 2
    k = supersampling(r)
    big = Image.new("RGBA", (side * k, side * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    cx = cy = c * k
    _token_body(d, look, cx, cy, r, k)
    pips = _token_pips(d, look, cx, cy, r, k)
    badges = _badge_positions(look.markers, cx / k, cy / k, r, badge, look.facing)
    for (bx, by), (_, colour) in badges:
        d.ellipse(((bx - badge) * k, (by - badge) * k, (bx + badge) * k, (by + badge) * k), fill=colour, outline=theme.OUTLINE, width=k)
    rr = r * k
    if "sunk" in look.markers:
        d.line([(cx - rr * 0.8, cy - rr * 0.8), (cx + rr * 0.8, cy + rr * 0.8)], fill=(20, 20, 20), width=max(2, round(r / 7)) * k)
        d.line([(cx - rr * 0.8, cy + rr * 0.8), (cx + rr * 0.8, cy - rr * 0.8)], fill=(20, 20, 20), width=max(2, round(r / 7)) * k)
    img = big.reduce(k)
    if "sunk" in look.markers:
        img.putalpha(img.getchannel("A").point(lambda a: a * 3 // 5))
    ink = theme.ink_on(look.colour)
    halo = theme.OUTLINE if ink == (255, 255, 255) else (255, 255, 255)
    has_second_line = bool(pips or look.damage_text)
    label_y = c - r * 0.16 if has_second_line else c
    if look.kind == "mine":
        label_y = c + r * 0.95
        ink, halo = (255, 255, 255), theme.OUTLINE
    spills = label_w > 1.8 * r  # over the sea: a firmer halo
    step = label_size * 1.05
    if len(lines) > 1:  # two lines: the pair sits higher, its lower line clear of the damage text
        label_y = c - (r * 0.5 if has_second_line else r * 0.12)
    for i, line in enumerate(lines):
        y = label_y + (i - (len(lines) - 1) / 2) * step
        paste_text(img, (c + dx, y), line, label_size, bold=True, fill=ink, stroke=2 if spills or len(lines) > 1 else 1, stroke_fill=halo)
    if look.facing is not None and look.kind not in ("battery", "fort", "mine", "marker") and not look.face_down:
        text_top = label_y - (len(lines) / 2) * step
        box = (c + dx - label_w / 2 - 2, text_top - 2, c + dx + label_w / 2 + 2, text_top + len(lines) * step + 2)
        _bow_pointer_if_hidden(img, c, r, half, box, look.facing)
    if look.damage_text:
        paste_text(img, (c, c + r * 0.5), look.damage_text, max(9.0, r * 0.4), bold=True, fill=ink, stroke=1, stroke_fill=halo)
    if look.damage_max > 8 and not look.damage_text:
        paste_text(img, (c, c + r * 0.5), f"{look.damage}/{look.damage_max}", max(9.0, r * 0.4), bold=True, fill=ink, stroke=1, stroke_fill=halo)
    _badge_text(img, badges, badge)
    return Sprite(img, round(c), round(c))


def _token_body(d: ImageDraw.ImageDraw, look: Look, cx: float, cy: float, r: float, k: int) -> None:
    """The counter's shape for its kind, drawn supersampled by ``k`` around (cx, cy)."""
    rr = r * k
    outline_w = max(1, round(r / 14)) * k
    fill = look.colour
    if look.kind in ("battery", "fort"):
        h = rr * 0.9
        d.rounded_rectangle((cx - h, cy - h, cx + h, cy + h), radius=rr * 0.2, fill=fill, outline=theme.OUTLINE, width=outline_w)
        if look.facing is not None:
            tip = _bearing_pt(cx, cy, rr * 1.45, look.facing)
            d.polygon([tip, _bearing_pt(cx, cy, rr * 0.92, look.facing - 25), _bearing_pt(cx, cy, rr * 0.92, look.facing + 25)], fill=theme.OUTLINE)
    elif look.kind == "mine":
        m = rr * 0.62
        for i in range(8):
            d.line([_bearing_pt(cx, cy, m * 0.5, i * 45), _bearing_pt(cx, cy, m * 1.35, i * 45)], fill=theme.OUTLINE, width=max(2, round(r / 8)) * k)
        d.ellipse((cx - m, cy - m, cx + m, cy + m), fill=(44, 46, 50), outline=fill, width=max(2, round(r / 8)) * k)
    elif look.kind == "marker":
        m = rr * 0.85
        d.polygon([(cx, cy - m), (cx + m, cy), (cx, cy + m), (cx - m, cy)], fill=fill, outline=theme.OUTLINE, width=outline_w)
    else:
        facing = None if look.face_down else look.facing
        d.polygon(_teardrop(cx, cy, rr, facing), fill=fill, outline=theme.OUTLINE, width=outline_w)
        if look.face_down:
            d.ellipse((cx - rr * 0.8, cy - rr * 0.8, cx + rr * 0.8, cy + rr * 0.8), outline=(255, 255, 255, 90), width=k)


def _token_pips(d: ImageDraw.ImageDraw, look: Look, cx: float, cy: float, r: float, k: int) -> int:
    """Damage pips under the name (up to 8 boxes, hit ones filled); returns how many were drawn."""
    pip_y = cy + r * k * 0.45
    pips = look.damage_max if 0 < look.damage_max <= 8 and not look.damage_text else 0
    if pips:
        gap = min(max(2.2, r * 0.12) * 2.6, 1.7 * r / max(1, pips - 1)) * k
        pr = min(max(2.2, r * 0.12) * k, gap / 2.3)
        x0 = cx - gap * (pips - 1) / 2
        for i in range(pips):
            x = x0 + gap * i
            hit = i < look.damage
            d.ellipse((x - pr, pip_y - pr, x + pr, pip_y + pr), fill=theme.PIP_HIT if hit else theme.PIP_LEFT, outline=theme.OUTLINE, width=max(1, k // 2))
    return pips


def _bow_pointer_if_hidden(img: Image.Image, c: float, r: float, half: float, box: tuple[float, float, float, float],
                           facing: float) -> None:
    """Draw the bow pointer beyond the name when the name's ``box`` hides the teardrop's point."""
    tip = _bearing_pt(c, c, r * 1.5, facing)
    if box[0] < tip[0] < box[2] and box[1] < tip[1] < box[3]:  # a wide name hides the bow point
        base = r * 1.3
        while base < half and box[0] < _bearing_pt(c, c, base, facing)[0] < box[2] and box[1] < _bearing_pt(c, c, base, facing)[1] < box[3]:
            base += 1.0
        _bow_pointer(img, c, r, base, facing)


def _bow_pointer(img: Image.Image, c: float, r: float, base: float, facing: float) -> None:
    """An arrowhead just beyond the end of the name, pointing the way the ship faces: at chat size
    a facing must show even when a wide name covers the teardrop's point (ships facing along a
    row of hexes)."""
    k = 4
    # at chat size (half the picture) it must still be a clear arrowhead: at least 9 px long there,
    # white in a dark rim (a side's dark colour vanished on the sea), the hull says whose it is
    length = max(r * 0.8, 18.0)
    spread = math.degrees(math.atan2(length * 0.45, base))  # the same width at any distance
    pts = [_bearing_pt(c, c, base + length, facing), _bearing_pt(c, c, base, facing - spread), _bearing_pt(c, c, base, facing + spread)]
    # drawn in a small patch around the arrowhead, supersampled, then laid over the sprite
    x0, y0 = math.floor(min(p[0] for p in pts)) - 2, math.floor(min(p[1] for p in pts)) - 2
    x1, y1 = math.ceil(max(p[0] for p in pts)) + 2, math.ceil(max(p[1] for p in pts)) + 2
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(img.width, x1), min(img.height, y1)
    if x1 <= x0 or y1 <= y0:
        return
    layer = Image.new("RGBA", ((x1 - x0) * k, (y1 - y0) * k), (0, 0, 0, 0))
    ImageDraw.Draw(layer).polygon(
        [((x - x0) * k, (y - y0) * k) for x, y in pts], fill=(250, 250, 250), outline=theme.OUTLINE, width=max(2, round(r / 10)) * k
    )
    img.alpha_composite(layer.reduce(k), (x0, y0))


def _badge_positions(
    markers: tuple[str, ...], cx: float, cy: float, r: float, badge: float, facing: float | None
) -> list[tuple[tuple[float, float], tuple[str, theme.RGB]]]:
    """Badges sit around the counter's rim, upper right first, never on the bow point."""
    candidates = (45.0, 315.0, 100.0, 260.0, 135.0, 225.0, 0.0, 180.0, 80.0, 280.0)

    def clear_of_bow(a: float) -> bool:
        return facing is None or abs((a - facing + 180.0) % 360.0 - 180.0) > 50.0

    angles = [a for a in candidates if clear_of_bow(a)]
    out = []
    for i, m in enumerate(markers[: len(angles)]):
        style = theme.MARKER_STYLE.get(m, (m[:1].upper() or "?", (90, 90, 90)))
        out.append((_bearing_pt(cx, cy, r + badge * 0.35, angles[i]), style))
    return out


def _badge_text(img: Image.Image, badges: list[tuple[tuple[float, float], tuple[str, theme.RGB]]], badge: float) -> None:
    for (bx, by), (letter, colour) in badges:
        size = badge * (1.35 if len(letter) == 1 else 1.0)
        paste_text(img, (bx, by), letter, size, bold=True, fill=theme.ink_on(colour))


# --- table bases ----------------------------------------------------------------------------


# Bases drawn solid in their side's colour (a land unit's base is square-ended: only ships and the
# like are pointed). Their names are separate sprites (``table_name_sprite``) that the renderer
# places clear of every other name and base (``render.labels``) and draws after all the bases, so
# a base moved up to a neighbour never hides the neighbour's name.
TABLE_VESSELS = frozenset({"ship", "battery", "fort", "hidden", "unit", "general", "objective"})
SQUARE_BASES = frozenset({"unit"})
# a general is a disc with a white rim (a commander, not a body of troops, at any size); an
# objective is a flag on a pole whose foot is its position, in the colour of the side holding it
ROUND_BASES = frozenset({"general"})


def _flag_px(look: Look) -> float:
    return max(28.0, look.scale * 2.0)
Box = tuple[float, float, float, float]  # x0, y0, x1, y1 relative to a counter's position


def _hull(length: float, beam: float, facing: float, cx: float, cy: float, *, pointed: bool = True) -> list[tuple[float, float]]:
    """A rectangular base with a pointed bow, rotated to its facing (degrees clockwise from up)."""
    bow = min(beam * 0.9, length * 0.35) if pointed else 0.0
    local = [(-length / 2, -beam / 2), (length / 2 - bow, -beam / 2), (length / 2, 0.0), (length / 2 - bow, beam / 2), (-length / 2, beam / 2)]
    a = math.radians(facing)
    fx, fy = math.sin(a), -math.cos(a)  # forward
    sx, sy = math.cos(a), math.sin(a)  # starboard
    return [(cx + u * fx + v * sx, cy + u * fy + v * sy) for u, v in local]


def _base_px(look: Look) -> tuple[float, float]:
    """A table base's length and beam in pixels: its size, or a ship-like 2" x 0.7" (a small
    square for a marker) when it has none; a hidden counter is a 1.2" disc."""
    if look.face_down:
        return max(14.0, 1.2 * look.scale), max(6.0, 1.2 * look.scale)
    if look.kind == "objective":  # the flag stands above its foot: room for it either way
        return 2 * _flag_px(look), 2 * _flag_px(look)
    vessel = look.kind in TABLE_VESSELS
    length, beam = look.size if look.size[0] > 0 and look.size[1] > 0 else (2.0, 0.7) if vessel else (0.8, 0.8)
    return max(14.0, length * look.scale), max(6.0, beam * look.scale)


def _pointed(look: Look) -> bool:
    return look.kind in TABLE_VESSELS and look.kind not in SQUARE_BASES | ROUND_BASES | {"objective"}


def table_base_box(look: Look) -> Box:
    """The box a table counter's base (and its highlight) covers around its position: what other
    counters' names must keep clear of."""
    lp, bp = _base_px(look)
    if look.face_down or look.kind in ROUND_BASES:
        r = max(lp, bp, 16.0) / 2 + (6.0 if look.highlight else 1.0)
        return (-r, -r, r, r)
    if look.kind == "objective":
        h = _flag_px(look)
        return (-3.0, -h - 2, h * 0.65 + 2, 4.0)
    pts = _hull(lp, bp, look.facing or 0.0, 0.0, 0.0, pointed=_pointed(look))
    pad = 4.5 if look.highlight else 1.0
    return (min(p[0] for p in pts) - pad, min(p[1] for p in pts) - pad, max(p[0] for p in pts) + pad, max(p[1] for p in pts) + pad)


def has_table_name(look: Look) -> bool:
    """A table ship or unit whose name is its own sprite, placed by the renderer."""
    return look.board_kind == "table" and look.kind in TABLE_VESSELS and not look.face_down and bool(look.label)


@dataclass(frozen=True)
class _Row:
    """A table counter's text row: its name, then damage pips or text, then marker badges."""

    size: float  # name size
    label_w: float
    pips: int
    pr: float  # pip radius
    extra: str  # damage text
    small: float  # damage text size
    badge: float  # badge radius
    markers: int
    width: float

    def xs(self, x0: float) -> tuple[list[float], float, list[float]]:
        """Pip centres, the damage text's left end and badge centres for a row starting at x0."""
        x = x0 + self.label_w
        pip_xs = []
        if self.pips:
            x += 6
            pip_xs = [x + self.pr + i * self.pr * 2.7 for i in range(self.pips)]
            x += self.pips * self.pr * 2.7
        extra_x = x + 6
        if self.extra:
            x += font(self.small, bold=True).getlength(self.extra) + 6
        return pip_xs, extra_x, [x + 2 + self.badge + i * (2 * self.badge + 2) for i in range(self.markers)]


def _row(look: Look, vessel: bool) -> _Row:
    """Sizes of a table counter's text row: ships and units bold and chat-readable, markers smaller."""
    size = max(look.text_px, min(18.0, look.scale * 0.5)) * (1.0 if vessel else 0.75)
    label_w = font(size, bold=vessel).getlength(look.label) if look.label else 0.0
    pips = look.damage_max if 0 < look.damage_max <= 10 and not look.damage_text else 0
    pr = max(2.2, size * 0.2)
    extra = look.damage_text or (f"{look.damage}/{look.damage_max}" if look.damage_max > 10 else "")
    small = max(10.0, size * 0.8)
    badge = max(7.0, size * 0.55)
    width = label_w + (pips * pr * 2.7 + 6 if pips else 0) + (font(small, bold=True).getlength(extra) + 6 if extra else 0) + len(look.markers) * (2 * badge + 2)
    return _Row(size, label_w, pips, pr, extra, small, badge, len(look.markers), width)


def _row_shapes(d: ImageDraw.ImageDraw, look: Look, row: _Row, x0: float, y: float, k: int) -> None:
    """The row's pips and badge discs, on a drawing ``k`` times the size."""
    pip_xs, _, badge_xs = row.xs(x0)
    pr = row.pr
    for i, px in enumerate(pip_xs):
        hit = i < look.damage  # on open ground or sea a black pip would vanish: hits are red here
        d.ellipse(((px - pr) * k, (y - pr) * k, (px + pr) * k, (y + pr) * k), fill=theme.PIP_HIT_SEA if hit else theme.PIP_LEFT, outline=(250, 250, 250) if hit else theme.OUTLINE, width=k)
    for bx, m in zip(badge_xs, look.markers, strict=True):
        colour = theme.MARKER_STYLE.get(m, (m[:1].upper() or "?", (90, 90, 90)))[1]
        d.ellipse(((bx - row.badge) * k, (y - row.badge) * k, (bx + row.badge) * k, (y + row.badge) * k), fill=colour, outline=theme.OUTLINE, width=k)


def _row_text(img: Image.Image, look: Look, row: _Row, x0: float, y: float, vessel: bool) -> None:
    """The row's name, damage text and badge letters, at full size."""
    _, extra_x, badge_xs = row.xs(x0)
    ink = (255, 255, 255) if vessel else (225, 232, 240)
    paste_text(img, (x0, y), look.label, row.size, bold=vessel, fill=ink, anchor="lm", stroke=2, stroke_fill=theme.OUTLINE)
    if row.extra:
        paste_text(img, (extra_x, y), row.extra, row.small, bold=True, fill=(255, 235, 200), anchor="lm", stroke=2, stroke_fill=theme.OUTLINE)
    styles = [theme.MARKER_STYLE.get(m, (m[:1].upper() or "?", (90, 90, 90))) for m in look.markers]
    _badge_text(img, [((bx, y), st) for bx, st in zip(badge_xs, styles, strict=True)], row.badge)


_NAME_SIZES: dict[tuple[object, ...], tuple[float, float]] = {}  # what ``_row`` reads of a look -> the size
NAME_SIZES_KEPT = 4096


def table_name_size(look: Look) -> tuple[float, float]:
    """Width and height of a table ship's or unit's name row: the box the renderer keeps clear.
    Kept by what ``_row`` reads of the look (the text measured once, not in every picture; not
    while a ``Renderer(cache=False)`` draws)."""
    key = (look.text_px, look.scale, look.label, look.damage_max, look.damage_text, look.damage, len(look.markers))
    size = None if UNCACHED.get() else _NAME_SIZES.get(key)
    if size is None:
        row = _row(look, True)
        size = (row.width + 4, row.size + 6)
        if len(_NAME_SIZES) >= NAME_SIZES_KEPT:
            _NAME_SIZES.clear()
        _NAME_SIZES[key] = size
    return size


def name_look(look: Look) -> Look:
    """The look with what ``table_name_sprite`` does not read set to fixed values: its sprite's cache
    key, so a unit that only turned, moved or changed formation keeps its name's sprite (in a
    replay of a measured table most name sprites were drawn anew for that alone). A field not
    listed here stays in the key."""
    return dataclasses.replace(look, board_kind="table", kind="", colour=(0, 0, 0), facing=None, face_down=False,
                               highlight=False, size=(0.0, 0.0), room=0.0, edge=0.0, edge_side=0)


def table_name_sprite(look: Look) -> Sprite:
    """A table ship's or unit's name row on its own (``ax, ay`` at the row's centre)."""
    row = _row(look, True)
    w, h = table_name_size(look)
    side_w, side_h = math.ceil(w) + 4, math.ceil(h) + 4
    k = 3
    big = Image.new("RGBA", (side_w * k, side_h * k), (0, 0, 0, 0))
    cx, cy = side_w / 2, side_h / 2
    x0 = cx - row.width / 2
    _row_shapes(ImageDraw.Draw(big), look, row, x0, cy, k)
    img = big.reduce(k)
    _row_text(img, look, row, x0, cy, True)
    fade = GHOST_ALPHA if look.ghost else 0.6 if "sunk" in look.markers else 1.0
    if fade < 1.0:
        img.putalpha(img.getchannel("A").point(lambda a: round(a * fade)))
    return Sprite(img, round(cx), round(cy), (-w / 2, -h / 2, w / 2, h / 2))


def _table_sprite(look: Look) -> Sprite:
    """A table base; a marker (not a ship or unit) carries its small name just below it."""
    s = look.scale
    vessel = look.kind in TABLE_VESSELS
    lp, bp = _base_px(look)
    extent = math.hypot(lp, bp) / 2 + 4
    row = _row(look, vessel) if look.label and not vessel and not look.face_down else None
    text_h = row.size + 6 if row else 0.0
    w = math.ceil(2 * max(extent, row.width / 2 + 4 if row else 0.0))
    h = math.ceil(2 * (extent + text_h + 2))
    c = (w / 2, h / 2)
    k = 3
    big = Image.new("RGBA", (w * k, h * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    _table_base(d, look, c[0] * k, c[1] * k, lp * k, bp * k, max(1, round(s / 20)) * k, k)
    row_y = c[1] + extent + text_h / 2 - 2
    if row:
        _row_shapes(d, look, row, c[0] - row.width / 2, row_y, k)
    img = big.reduce(k)
    if "sunk" in look.markers:
        img.putalpha(img.getchannel("A").point(lambda a: a * 3 // 5))
    if look.face_down:
        paste_text(img, c, "?", max(11.0, lp * 0.7), bold=True)
    elif row:
        _row_text(img, look, row, c[0] - row.width / 2, row_y, False)
    return Sprite(img, round(c[0]), round(c[1]))


def _table_base(d: ImageDraw.ImageDraw, look: Look, cx: float, cy: float, lp: float, bp: float, line: int, k: int) -> None:
    """The base itself (a grey disc for a hidden counter), drawn ``k`` times the size."""
    if look.face_down:
        rr = lp / 2
        if look.highlight:
            d.ellipse((cx - rr - 5 * k, cy - rr - 5 * k, cx + rr + 5 * k, cy + rr + 5 * k), outline=theme.HIGHLIGHT, width=3 * k)
        d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=theme.FACE_DOWN, outline=theme.OUTLINE, width=2 * k)
        return
    if look.kind in ROUND_BASES or look.kind == "objective":
        _general_or_flag(d, look, cx, cy, max(lp, bp, 16.0 * k) / 2, k)
        return
    hull = _hull(lp, bp, look.facing or 0.0, cx, cy, pointed=_pointed(look))
    if look.highlight:
        d.line([*hull, hull[0]], fill=theme.HIGHLIGHT, width=7 * k, joint="curve")
    if look.kind in TABLE_VESSELS:
        d.polygon(hull, fill=look.colour, outline=theme.OUTLINE, width=line)
        if look.kind in SQUARE_BASES:
            _front_rank(d, look, cx, cy, lp, bp, k)
    else:
        d.polygon(hull, fill=(*theme.mix(look.colour, (255, 255, 255), 0.6), 150), outline=look.colour, width=max(1, round(look.scale / 24)) * k)
    if "sunk" in look.markers:
        d.line([hull[0], hull[2]], fill=(20, 20, 20), width=2 * k)
        d.line([hull[4], hull[2]], fill=(20, 20, 20), width=2 * k)


def _front_rank(d: ImageDraw.ImageDraw, look: Look, cx: float, cy: float, lp: float, bp: float, k: int) -> None:
    """A pale band along a square-ended base's front edge: which way a unit faces (its arcs of
    fire, its flank and rear) shows without a pointed bow."""
    band = max(2.0 * k, min(lp, bp) * 0.2)
    a = math.radians(look.facing or 0.0)
    fx, fy = math.sin(a), -math.cos(a)  # forward
    sx, sy = math.cos(a), math.sin(a)  # starboard
    u = lp / 2 - band / 2 - k  # just inside the front edge
    v = bp / 2 - k
    ends = [(cx + u * fx + s * v * sx, cy + u * fy + s * v * sy) for s in (-1.0, 1.0)]
    d.line(ends, fill=theme.mix(look.colour, (255, 255, 255), 0.65), width=round(band))


def _general_or_flag(d: ImageDraw.ImageDraw, look: Look, cx: float, cy: float, rr: float, k: int) -> None:
    """A general's disc, or an objective's flag (its foot on the position), ``k`` times the size."""
    if look.kind == "objective":
        h = _flag_px(look) * k
        d.ellipse((cx - 3 * k, cy - 3 * k, cx + 3 * k, cy + 3 * k), fill=(250, 250, 250), outline=theme.OUTLINE, width=k)
        d.line([(cx, cy), (cx, cy - h)], fill=theme.OUTLINE, width=3 * k)
        d.line([(cx, cy), (cx, cy - h)], fill=(235, 235, 235), width=k)
        d.polygon([(cx + k, cy - h), (cx + h * 0.65, cy - h * 0.8), (cx + k, cy - h * 0.6)], fill=look.colour, outline=(250, 250, 250), width=k)
        return
    if look.highlight:
        d.ellipse((cx - rr - 5 * k, cy - rr - 5 * k, cx + rr + 5 * k, cy + rr + 5 * k), outline=theme.HIGHLIGHT, width=3 * k)
    d.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=look.colour, outline=(245, 245, 245), width=2 * k)
