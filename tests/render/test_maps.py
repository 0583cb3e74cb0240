"""Every shipped hex map renders (other engineers add maps in parallel: this iterates whatever is there)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from games.core.maps import load_map, map_ids
from games.core.view import Counter, SideInfo, View
from render import Renderer


def test_there_are_maps() -> None:
    assert map_ids()


@pytest.mark.parametrize("map_id", map_ids())
def test_every_shipped_map_renders(map_id: str) -> None:
    hex_map = load_map(map_id)
    board = hex_map.board()
    hexes = hex_map.layout.all_hexes()
    first, last = hexes[0], hexes[-1]
    view = View(
        board=board,
        viewer=None,
        sides=(SideInfo("a", "A", "#cc3333"),),
        counters=(
            Counter("c1", "One", "a", (float(first.q), float(first.r)), facing=hex_map.layout.bearing(2)),
            Counter("c2", "Two", "a", (float(last.q), float(last.r)), facing=hex_map.layout.bearing(5), face_down=True),
        ),
        status=(f"map {map_id}",),
        title=hex_map.name,
    )
    r = Renderer()
    png = r.render_png(view)
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and img.mode == "P"
    assert 600 <= img.width <= 1400
    assert len(png) < 300_000
    zoomed = Image.open(io.BytesIO(r.render_png(view, zoom=(hex_map.layout.label(first), 2))))
    assert zoomed.width < img.width * 1.2
