"""The status strip under the board: title, status lines, a key to the markers in view, compass
rose and arrows (north, wind, current), and the viewer's private lines when the View has any."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from games.core.view import Arrow, View
from render import theme
from render.fonts import font
from render.terrain import key_name, keyed, swatch

PAD = 14
ITEM = 86  # width of one compass/arrow item
TITLE_SIZE = 21
LINE_SIZE = 17
SMALL_SIZE = 14
# A View's first ``headline`` status lines (turn, phase, who acts) are drawn at chat-readable size
# like the title. The rest (each ship's state) stay smaller: they are read in the full-size picture,
# the pinned status message and /game status, and at chat size they would push the board out.


def wrap(text: str, size: float, width: float, *, bold: bool = False) -> list[str]:
    """Greedy word wrap by measured width (long words are cut rather than overflow)."""
    return list(_wrapped(text, size, width, bold))


@lru_cache(maxsize=4096)
def _wrapped(text: str, size: float, width: float, bold: bool) -> tuple[str, ...]:
    """``wrap``, kept: the same status lines come back picture after picture (a replay's frames),
    and measuring every word of them was a tenth of a frame's drawing."""
    f = font(size, bold=bold)
    lines: list[str] = []
    for para in text.split("\n"):
        cur = ""
        for word in para.split(" "):
            trial = f"{cur} {word}" if cur else word
            if f.getlength(trial) <= width:
                cur = trial
                continue
            if cur:
                lines.append(cur)
            while f.getlength(word) > width and len(word) > 1:
                cut = len(word)
                while cut > 1 and f.getlength(word[:cut]) > width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            cur = word
        lines.append(cur)
    return tuple(lines)


def _pt(cx: float, cy: float, r: float, deg: float) -> tuple[float, float]:
    a = math.radians(deg)
    return (cx + r * math.sin(a), cy - r * math.cos(a))


@lru_cache(maxsize=32)
def compass_rose(flat: bool, labels: tuple[str, ...]) -> Image.Image:
    """The printed hexside compass: a hex of the map's orientation with its direction labels."""
    k = 4
    size = ITEM
    big = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = size * k / 2
    r = 21 * k
    start = 0.0 if flat else 30.0
    poly = [(c + r * math.cos(math.radians(start + 60 * i)), c + r * math.sin(math.radians(start + 60 * i))) for i in range(6)]
    d.polygon(poly, fill=(*theme.TERRAIN["deep"], 255), outline=(220, 228, 236), width=2 * k)
    for direction in range(6):  # a spoke to each hexside, so it is clear which side a number names
        bearing = (60.0 * direction + (0.0 if flat else 30.0)) % 360.0
        d.line([(c, c), _pt(c, c, r * 0.8, bearing)], fill=(150, 190, 220), width=k)
    img = big.reduce(k)
    t = ImageDraw.Draw(img)
    f = font(15, bold=True)
    for direction, label in enumerate(labels[:6]):
        bearing = (60.0 * direction + (0.0 if flat else 30.0)) % 360.0
        # labels sit just outside each hexside, like the compass printed on a map
        x, y = _pt(size / 2, size / 2, 31, bearing)
        t.text((x, y), label, font=f, fill=(255, 255, 255), anchor="mm")
    return img


@lru_cache(maxsize=64)
def arrow_badge(arrow: Arrow) -> Image.Image:
    k = 4
    size = ITEM
    big = Image.new("RGBA", (size * k, size * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = size * k / 2
    cy = c - 8 * k
    r = 26 * k
    colour = theme.ARROW_COLOURS.get(arrow.kind, (230, 230, 230))
    d.ellipse((c - r, cy - r, c + r, cy + r), fill=(18, 24, 32), outline=(90, 100, 112), width=2 * k)
    b = arrow.bearing
    tip = _pt(c, cy, r * 0.86, b)
    tail = _pt(c, cy, r * 0.7, b + 180)
    d.line([tail, _pt(c, cy, r * 0.3, b)], fill=colour, width=4 * k)
    d.polygon([tip, _pt(tip[0], tip[1], r * 0.55, b + 180 - 28), _pt(tip[0], tip[1], r * 0.55, b + 180 + 28)], fill=colour)
    img = big.reduce(k)
    t = ImageDraw.Draw(img)
    name = arrow.label or arrow.kind.title()
    text = f"{name} {arrow.strength}".strip()
    f = font(13, bold=True)
    while f.getlength(text) > size - 4 and f.size > 9:
        f = font(f.size - 1, bold=True)
    t.text((size / 2, size - 9), text, font=f, fill=colour, anchor="mm")
    return img


def _items(view: View, fresh: bool = False) -> list[Image.Image]:
    out: list[Image.Image] = []
    board = view.board
    if board.kind == "hex" and board.hexside_compass:
        flat = board.hex_layout is None or board.hex_layout.orientation == "flat"
        rose = compass_rose.__wrapped__ if fresh else compass_rose
        out.append(rose(flat, tuple(board.hexside_compass)))
    badge = arrow_badge.__wrapped__ if fresh else arrow_badge
    for a in (*board.arrows, *view.arrows):
        out.append(badge(a))
    return out


def marker_key(view: View) -> str:
    """"F fire · G grounded": a key to the badges drawn, so letters never have to be guessed."""
    seen: list[str] = []
    for c in view.counters:
        if c.face_down:
            continue
        for m in c.markers:
            if m not in seen:
                seen.append(m)
    parts = []
    for m in seen:
        letter = theme.MARKER_STYLE.get(m, (m[:1].upper() or "?", (0, 0, 0)))[0]
        parts.append(f"{letter} {m}")
    if any(c.kind == "landing" and not c.face_down for c in view.counters):
        parts.append("\u25b2 landing party")  # drawn as a triangle (see render.counters)
    return "   ".join(parts)


LEGEND_SIZE = 20


@lru_cache(maxsize=64)
def legend_image(sides: tuple[tuple[str, theme.RGB], ...], width: int, size: float = LEGEND_SIZE, terrain: tuple[str, ...] = ()) -> Image.Image:
    """The side colour key: a swatch in each side's colour and its name (wrapping to more rows on
    a narrow picture). Bold and large: this row is what tells the sides apart in a chat preview.
    Then a swatch of each terrain kind on the table with its name, in plain dimmer text.
    (The highlight ring, whose meaning each system declares, is explained in /help rather than keyed here,
    so the row stays one line of side names at chat size.)"""
    bold = font(size, bold=True)
    plain = font(size)  # chat-readable like the side names, in plain weight
    sw = round(size)
    items: list[tuple[Image.Image | theme.RGB, str, bool]] = [(c, name, True) for name, c in sides]
    items.extend((swatch(kind, sw), key_name(kind), False) for kind in terrain)
    rows: list[list[tuple[Image.Image | theme.RGB, str, bool, float]]] = [[]]
    x = 0.0
    for mark, name, side in items:
        w = sw + 8 + (bold if side else plain).getlength(name) + 24
        if rows[-1] and x + w > width:
            rows.append([])
            x = 0.0
        rows[-1].append((mark, name, side, x))
        x += w
    line = round(size * 1.45)
    img = Image.new("RGBA", (max(1, width), line * len(rows)), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    for i, row in enumerate(rows):
        y = i * line + (line - sw) / 2
        for mark, name, _, x0 in row:
            if isinstance(mark, Image.Image):
                img.paste(mark, (round(x0), round(y)))
                d.rectangle((x0, y, x0 + sw - 1, y + sw - 1), outline=(150, 160, 170), width=1)
                d.text((x0 + sw + 8, y + sw / 2), name, font=plain, fill=theme.STRIP_DIM, anchor="lm")
                continue
            d.rounded_rectangle((x0, y, x0 + sw, y + sw), radius=4, fill=mark, outline=(235, 240, 245), width=2)
            d.text((x0 + sw + 8, y + sw / 2), name, font=bold, fill=theme.mix(mark, (255, 255, 255), 0.6), anchor="lm")
    return img


def terrain_key(view: View) -> tuple[str, ...]:
    """The terrain kinds on a table, in the order they are first listed, for the key."""
    if view.board.kind != "table":
        return ()
    return tuple(keyed([t.kind for t in view.board.table_terrain]))


Row = tuple[str, float, bool, theme.RGB]  # a line of text: the line, its size, bold, its colour


@dataclass(frozen=True)
class _Layout:
    """Where a strip's parts go: worked out without drawing, so its height can be asked for alone."""

    items: list[Image.Image]
    stacked: bool  # the items in a row of their own above the text
    left: int
    top: int
    rows: list[Row]
    legend: Image.Image | None
    title_rows: int  # the legend goes under this many rows (the title's)
    height: int


def _layout(view: View, width: int, fresh: bool, text_px: float) -> _Layout:
    items = _items(view, fresh)
    items_w = len(items) * ITEM
    # beside the text when there is room, else a row of their own above it (narrow zoom windows)
    stacked = bool(items) and width - items_w - 3 * PAD < 360
    left = PAD if stacked or not items else 2 * PAD + items_w
    top = PAD + (ITEM if stacked else 0)
    text_w = max(80, width - left - PAD)
    rows: list[Row] = []
    title = view.title or view.board.name
    if title:
        title_size = max(TITLE_SIZE, round(text_px))
        rows.extend((line, title_size, True, theme.TITLE_TEXT) for line in wrap(title, title_size, text_w, bold=True))
    for i, status in enumerate(view.status):
        line_size = max(LINE_SIZE, round(text_px)) if i < view.headline else LINE_SIZE
        rows.extend((line, line_size, False, theme.STRIP_TEXT) for line in wrap(status, line_size, text_w))
    legend: Image.Image | None = None
    terrain = terrain_key(view)
    if view.sides or terrain:
        sides = tuple((side.name, theme.hex_to_rgb(side.colour)) for side in view.sides)
        legend = (legend_image.__wrapped__ if fresh else legend_image)(sides, round(text_w), max(LEGEND_SIZE, round(text_px)), terrain)
    key = marker_key(view)
    if key:
        rows.extend((line, SMALL_SIZE, False, theme.STRIP_DIM) for line in wrap(f"Markers: {key}", SMALL_SIZE, text_w))
    if view.private_text:
        who = view.viewer or "this viewer"
        rows.append((f"Private to {who}:", SMALL_SIZE, True, theme.PRIVATE_TEXT))
        for line in view.private_text:
            rows.extend((w, LINE_SIZE, False, theme.PRIVATE_TEXT) for w in wrap(line, LINE_SIZE, text_w))
    text_h = sum(round(size * 1.35) for _, size, _, _ in rows) + (legend.height + 4 if legend else 0)
    title_rows = sum(1 for row in rows if row[2] and row[3] == theme.TITLE_TEXT)  # the key goes under the title
    height = (ITEM + text_h if stacked else max(text_h, ITEM if items else 0)) + 2 * PAD
    return _Layout(items, stacked, left, top, rows, legend, title_rows, height)


def strip_height(view: View, width: int, *, fresh: bool = False, text_px: float = 0.0) -> int:
    """The height of ``draw_strip``'s strip, without drawing it (its text size is settled first)."""
    return _layout(view, width, fresh, text_px).height


def draw_strip(view: View, width: int, *, fresh: bool = False, text_px: float = 0.0) -> Image.Image:
    """The strip for a View; ``fresh`` skips the sprite caches (for the uncached baseline).
    The title, the side key and the headline status lines are at least ``text_px`` (readable at
    chat size); the other status lines stay smaller (``View.headline``)."""
    lay = _layout(view, width, fresh, text_px)
    img = Image.new("RGB", (width, lay.height), theme.STRIP)
    d = ImageDraw.Draw(img)
    d.line([(0, 0), (width, 0)], fill=(70, 82, 96), width=2)
    for i, item in enumerate(lay.items):
        img.paste(item, (PAD + i * ITEM, PAD // 2 if lay.stacked else (lay.height - ITEM) // 2), item)
    y = lay.top
    draw_text = text_image.__wrapped__ if fresh else text_image
    for i, (line, size, bold, colour) in enumerate(lay.rows):
        if lay.legend is not None and i == lay.title_rows:
            img.paste(lay.legend, (lay.left, y), lay.legend)
            y += lay.legend.height + 4
        text = draw_text(line, size, bold, colour)
        img.paste(text, (lay.left, y), text)
        y += round(size * 1.35)
    if lay.legend is not None and lay.title_rows == len(lay.rows):
        img.paste(lay.legend, (lay.left, y), lay.legend)
    return img


@lru_cache(maxsize=512)
def text_image(line: str, size: float, bold: bool, colour: theme.RGB) -> Image.Image:
    """One line of strip text as an RGBA image: titles and most status lines repeat between
    renders (every seat's view of one activation shares them), so render each once."""
    f = font(size, bold=bold)
    box = f.getbbox(line)
    img = Image.new("RGBA", (max(1, int(box[2]) + 2), max(1, int(box[3]) + 2)), (*colour, 0))
    ImageDraw.Draw(img).text((0, 0), line, font=f, fill=colour)
    return img
