"""Scenario set-up zones: cells tinted in the side's colour with a firm border and the zone's name."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from games.core.hexgrid import Hex, HexLayout
from games.core.view import Board, Zone
from render import theme
from render.fonts import font
from render.frame import Frame

SS = 2


def draw_zones(base: Image.Image, board: Board, frame: Frame, zones: tuple[Zone, ...], colours: dict[str, theme.RGB], *, captions: bool = True) -> Image.Image:
    """A copy of ``base`` with the zones on it (the renderer caches this per zone set). A table's
    captions are left to ``render.table_text``, which places them clear of the counters."""
    layer = Image.new("RGBA", (frame.width * SS, frame.height * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    labels: list[tuple[float, float, str, theme.RGB]] = []
    for z in zones:
        colour = colours.get(z.side, (240, 240, 240))
        pts: list[tuple[float, float]] = []
        if z.cells:
            cells = {(round(c[0]), round(c[1])) for c in z.cells}
            for cell in cells:
                poly, edges = _cell_shape(board, frame, cell, cells)
                d.polygon([(x * SS, y * SS) for x, y in poly], fill=(*colour, 70))
                for a, b in edges:
                    d.line([(a[0] * SS, a[1] * SS), (b[0] * SS, b[1] * SS)], fill=(*colour, 255), width=3 * SS)
                pts.append(frame.px((float(cell[0]), float(cell[1]))))
        if len(z.polygon) >= 3:
            poly = [frame.px(p) for p in z.polygon]
            d.polygon([(x * SS, y * SS) for x, y in poly], fill=(*colour, 60))
            d.line([(x * SS, y * SS) for x, y in [*poly, poly[0]]], fill=(*colour, 255), width=3 * SS, joint="curve")
            pts.extend(poly)
        if pts and z.name and captions:
            labels.append((sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts), z.name, colour))
    out = base.convert("RGBA")
    out.alpha_composite(layer.reduce(SS))
    img = out.convert("RGB")
    t = ImageDraw.Draw(img)
    f = font(max(frame.text_px, min(20.0, frame.scale * 0.38)), bold=True)  # readable at chat size
    for x, y, name, colour in labels:
        half = f.getlength(name) / 2 + 4
        x = min(max(x, half), frame.width - half)  # keep the name inside the picture
        t.text((x, y), name, font=f, fill=theme.mix(colour, (255, 255, 255), 0.75), anchor="mm", stroke_width=3, stroke_fill=theme.OUTLINE)
    return img


def _cell_shape(board: Board, frame: Frame, cell: tuple[int, int], cells: set[tuple[int, int]]) -> tuple[list[tuple[float, float]], list[tuple[tuple[float, float], tuple[float, float]]]]:
    """The cell's outline in pixels and its edges that face cells outside the zone."""
    cx, cy = frame.px((float(cell[0]), float(cell[1])))
    s = frame.scale
    if board.kind == "hex":
        layout = board.hex_layout if board.hex_layout is not None else HexLayout()
        start = 0.0 if frame.flat else 30.0
        poly = [(cx + s * math.cos(math.radians(start + 60 * i)), cy + s * math.sin(math.radians(start + 60 * i))) for i in range(6)]
        edges = []
        for direction in range(6):
            n = layout.neighbour(Hex(cell[0], cell[1]), direction)
            if (n.q, n.r) not in cells:
                edges.append((poly[(direction - 2) % 6], poly[(direction - 1) % 6]))
        return poly, edges
    h = s / 2
    tl, tr, br, bl = (cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h)
    x, y = cell
    sides = {(x, y + 1): (tl, tr), (x + 1, y): (tr, br), (x, y - 1): (br, bl), (x - 1, y): (bl, tl)}
    return [tl, tr, br, bl], [edge for n, edge in sides.items() if n not in cells]
