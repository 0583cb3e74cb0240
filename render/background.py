"""The layer that never changes during a game: terrain, grid, coastlines, coordinates.

Shapes are drawn at ``SS`` times the size and box-downsampled (antialiasing Pillow's polygon
filler lacks); text is drawn afterwards at full size, where FreeType already antialiases it.
The renderer caches the result per ``board.key`` and frame, so this runs once per map and scale.
"""

from __future__ import annotations

import hashlib
import math

from PIL import Image, ImageDraw

from games.core.hexgrid import Hex, HexLayout
from games.core.view import Board, Terrain
from render import theme
from render.fonts import font
from render.frame import Frame, margin_for, square_label

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
        _table_shapes(draw, board, frame)
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
    layout = _layout(board)
    s = frame.scale
    by_hex = {h: kind for h, _, kind, _, _ in cells}
    for _, _, kind, cx, cy in cells:
        draw.polygon(_ss(_hex_poly(frame, cx, cy, 1.0)), fill=theme.terrain_colour(kind))
    # texture that tells terrain apart without colour: sand dots on shoals, roofs in towns
    for h, _, kind, cx, cy in cells:
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
    # grid: one translucent stroke per hex so shared sides read as a single thin line
    grid_w = max(1, round(s / 30)) * SS
    for _, _, _, cx, cy in cells:
        poly = _ss(_hex_poly(frame, cx, cy))
        draw.line([*poly, poly[0]], fill=(255, 255, 255, 70), width=grid_w)
    # coastlines: land hexsides that face water
    coast_w = max(2, round(s / 12)) * SS
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
    s = frame.scale
    f = font(max(8.0, s * 0.30))
    top = 0.80 if frame.flat else 0.86
    for _, label, kind, cx, cy in cells:
        base = theme.terrain_colour(kind)
        ink = theme.ink_on(base)
        colour = (*ink, 150) if ink == (255, 255, 255) else (*ink, 190)
        draw.text((cx, cy - s * top), label, font=f, fill=colour, anchor="ma")


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

_TABLE_STYLE: dict[str, tuple[theme.RGBA, theme.RGBA | None, int]] = {
    # kind -> (fill, outline, outline width in px at 1x)
    "island": ((122, 160, 88, 255), (*theme.SAND, 255), 4),
    "land": ((122, 160, 88, 255), (*theme.SAND, 255), 4),
    "rock": ((104, 100, 96, 255), (40, 38, 36, 255), 2),
    "shoal": ((170, 214, 210, 150), (226, 208, 152, 220), 2),
    "fog": ((235, 240, 245, 120), None, 0),
}


def _table_shapes(draw: ImageDraw.ImageDraw, board: Board, frame: Frame) -> None:
    x0, y0 = frame.unit_px(0, 0)
    x1, y1 = frame.unit_px(board.width, board.height)
    draw.rectangle((x0 * SS, y0 * SS, x1 * SS, y1 * SS), fill=theme.TABLE_SEA)
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
    for t in board.table_terrain:
        _table_terrain(draw, frame, t)
    draw.rectangle((x0 * SS, y0 * SS, x1 * SS, y1 * SS), outline=(210, 220, 230), width=2 * SS)


def _table_terrain(draw: ImageDraw.ImageDraw, frame: Frame, t: Terrain) -> None:
    fill, outline, width = _TABLE_STYLE.get(t.kind, ((*theme.fallback_colour(t.kind), 220), (30, 30, 30, 200), 2))
    if t.centre is not None and t.radius > 0:
        cx, cy = frame.px(t.centre)
        r = t.radius * frame.scale
        box = ((cx - r) * SS, (cy - r) * SS, (cx + r) * SS, (cy + r) * SS)
        draw.ellipse(box, fill=fill, outline=outline, width=width * SS if outline else 0)
    elif len(t.points) >= 3:
        pts = _ss([frame.px(p) for p in t.points])
        draw.polygon(pts, fill=fill)
        if outline is not None:
            draw.line([*pts, pts[0]], fill=outline, width=width * SS, joint="curve")
    if t.kind == "shoal":  # sand speckle so a shoal reads without colour
        cx, cy, r = _terrain_extent(frame, t)
        for i in range(int(max(6, r * r / 60))):
            h = hashlib.blake2b(f"{t.kind}{cx:.0f}{cy:.0f}{i}".encode(), digest_size=4).digest()  # same board, same dots
            x = cx + r * (int.from_bytes(h[:2], "big") / 32767.5 - 1.0)
            y = cy + r * (int.from_bytes(h[2:], "big") / 32767.5 - 1.0)
            if math.hypot(x - cx, y - cy) > r * 0.95 or (t.points and not _inside(frame, t, x, y)):
                continue
            draw.ellipse(((x - 1.3) * SS, (y - 1.3) * SS, (x + 1.3) * SS, (y + 1.3) * SS), fill=(*theme.SAND, 200))


def _terrain_extent(frame: Frame, t: Terrain) -> tuple[float, float, float]:
    """Centre and rough radius in pixels (for labels and speckles)."""
    if t.centre is not None and t.radius > 0:
        cx, cy = frame.px(t.centre)
        return (cx, cy, t.radius * frame.scale)
    pts = [frame.px(p) for p in t.points] or [(0.0, 0.0)]
    cx = sum(p[0] for p in pts) / len(pts)
    cy = sum(p[1] for p in pts) / len(pts)
    r = max(math.hypot(x - cx, y - cy) for x, y in pts)
    return (cx, cy, r)


def _inside(frame: Frame, t: Terrain, x: float, y: float) -> bool:
    pts = [frame.px(p) for p in t.points]
    inside = False
    j = len(pts) - 1
    for i in range(len(pts)):
        xi, yi = pts[i]
        xj, yj = pts[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / ((yj - yi) or 1e-9) + xi:
            inside = not inside
        j = i
    return inside


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
    lf = font(max(frame.text_px, min(18.0, frame.scale * 0.5)), bold=True)  # readable at chat size
    for t in board.table_terrain:
        text = t.label or t.kind
        cx, cy, _ = _terrain_extent(frame, t)
        fill = (40, 40, 40, 210) if t.kind in ("fog", "shoal") else (255, 255, 255, 230)
        stroke = (255, 255, 255, 150) if t.kind in ("fog", "shoal") else (20, 30, 20, 200)
        draw.text((cx, cy), text, font=lf, fill=fill, anchor="mm", stroke_width=2, stroke_fill=stroke)
