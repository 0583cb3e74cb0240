"""Words on a measured table: every name clear of every other name and of every base, captions
(set-up zones, terrain) where nothing else is, and a leader for any name standing off its base.
Checked on the real boards, at set-up and part-way through each Days of Iron console script."""

from __future__ import annotations

import dataclasses

import pytest

from games.core.view import Counter, SideInfo, View, Zone
from render import Renderer
from render.labels import GAP, Name, Placer, TableLayout, apart, grow, overlap
from render.table_text import result_spot
from tests.render.real_boards import real_view, script_view
from tests.render.scenes import table_view, terrain_view

SCRIPTS = ("measured", "outpost-measured", "spicheren-measured")
CASES = [("real", "days-of-iron", None), ("real", "oak-and-iron", None)] + [
    ("script", script, orders) for script in SCRIPTS for orders in (12, 30, None)
]


def _view(case: tuple[str, str, int | None]) -> View:
    kind, name, orders = case
    return real_view(name) if kind == "real" else script_view("days-of-iron", name, orders)


def _pairs(boxes: list[tuple[str, tuple[float, float, float, float]]]) -> list[tuple[str, str]]:
    return [(a, b) for i, (a, ba) in enumerate(boxes) for b, bb in boxes[i + 1 :] if overlap(ba, bb) > 0]


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[1]}-{c[2]}")
def test_names_keep_clear_of_names_and_bases(case: tuple[str, str, int | None]) -> None:
    layout = Renderer().table_layout(_view(case))
    assert layout.names
    # a word's gap between any two names, so two on a line never read as one
    spaced = [(k, grow(p.box, (p.box[3] - p.box[1]) * 0.2, 0.0)) for k, p in layout.names.items()]
    assert _pairs(spaced) == []
    for key, placed in layout.names.items():
        hits = [b for b in layout.bases if overlap(placed.box, b) > 0]
        assert hits == [], key


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[1]}-{c[2]}")
def test_captions_sit_where_no_name_base_or_caption_is(case: tuple[str, str, int | None]) -> None:
    view = _view(case)
    layout = Renderer().table_layout(view)
    captions = [(c.text, c.box) for c in layout.captions]
    named = {c.text for c in layout.captions}
    assert {z.name for z in view.zones} <= named  # every zone is named
    assert {t.label for t in view.board.table_terrain[1:]} <= named if view.zones else True  # every piece
    assert _pairs(captions) == []
    for text, box in captions:
        assert all(overlap(box, p.box) == 0 for p in layout.names.values()), text
        assert all(overlap(box, b) == 0 for b in layout.bases), text


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[1]}-{c[2]}")
def test_a_name_off_its_base_has_a_leader_to_it(case: tuple[str, str, int | None]) -> None:
    layout = Renderer().table_layout(_view(case))
    for key, p in layout.names.items():
        if p.leader is None:
            assert apart(p.box, p.base) <= GAP + 3, key
        else:
            (sx, sy), _ = p.leader
            assert apart((sx, sy, sx, sy), p.base) < 1, key  # it starts on the base


def test_generals_in_a_row_on_the_table_edge_get_names_apart() -> None:
    """Issue 15: 'Doëns' and 'Micheler', 1" bases 7" apart on the baseline, read as one name."""
    sides = (SideInfo("french", "French", "#2f4f9f"),)
    board = real_view("days-of-iron").board
    generals = tuple(Counter(f"g{i}", name, "french", (10.0 + 7 * i, 47.5), facing=0.0, size=(1.0, 1.0), kind="unit")
                     for i, name in enumerate(("Frossard", "Laveaucoupet", "Doëns", "Micheler", "Valabrègue")))
    layout = Renderer().table_layout(View(board=board, viewer=None, sides=sides, counters=generals))
    boxes = [p.box for p in layout.names.values()]
    assert len(boxes) == 5
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if min(a[3], b[3]) > max(a[1], b[1]):  # on the same line: a word's gap at least between
                assert max(b[0] - a[2], a[0] - b[2]) >= (a[3] - a[1]) * 0.4, (a, b)


def test_the_placer_moves_a_name_that_would_run_into_a_neighbours() -> None:
    area = (0.0, 0.0, 400.0, 200.0)
    names = [Name("a", (100.0, 100.0, 110.0, 110.0), 120.0, 20.0), Name("b", (150.0, 100.0, 160.0, 110.0), 120.0, 20.0)]
    placed = Placer(area, [n.base for n in names]).place_names(names)
    a, b = placed["a"].box, placed["b"].box
    assert overlap(grow(a, 10.0, 1.0), b) == 0
    assert all(overlap(p.box, area) == (p.box[2] - p.box[0]) * (p.box[3] - p.box[1]) for p in placed.values())  # on the table


def test_a_caption_steps_off_a_name_in_its_way() -> None:
    placer = Placer((0.0, 0.0, 400.0, 200.0), [], taken=[(150.0, 90.0, 250.0, 110.0)])
    box = placer.place_caption(100.0, 20.0, [(200.0, 100.0), (200.0, 30.0)])
    assert box == (150.0, 20.0, 250.0, 40.0)
    assert placer.place_caption(100.0, 20.0, [(200.0, 100.0)], optional=True) is None  # nowhere clear: left out


def test_a_zone_caption_is_not_under_the_units_deployed_in_it() -> None:
    """Issue 15: 'French deployment' was printed at the zone's centre, over the units' names."""
    view = table_view()
    zone = Zone("Red deployment", "red", polygon=((0.0, 0.0), (24.0, 0.0), (24.0, 6.0), (0.0, 6.0)))
    crowd = tuple(Counter(f"c{i}", f"Ship {i}", "red", (2.0 + 4 * i, 3.0), facing=90.0, size=(2.0, 0.7)) for i in range(6))
    layout: TableLayout = Renderer().table_layout(View(board=view.board, viewer=None, sides=view.sides, counters=crowd, zones=(zone,)))
    (caption,) = [c for c in layout.captions if c.text == "Red deployment"]
    assert all(overlap(caption.box, p.box) == 0 for p in layout.names.values())


def test_the_tables_own_name_shows_only_while_nothing_stands_on_it() -> None:
    """'72" x 48" table' in the middle of the board sat among the units and the preview's arcs."""
    view = terrain_view()
    with_units = {c.text for c in Renderer().table_layout(view).captions}
    empty = {c.text for c in Renderer().table_layout(dataclasses.replace(view, counters=())).captions}
    assert '48" x 24" table' in empty - with_units
    assert "Saar" in with_units  # the pieces' names stay


def test_a_zoom_window_leaves_the_tables_own_name_out_too() -> None:
    view = script_view("days-of-iron", "spicheren-measured", 12)
    layout = Renderer().table_layout(view, zoom=((17.0, 42.0), 8))
    assert layout.names and not any("table" in c.text for c in layout.captions)


@pytest.mark.slow
def test_a_result_label_steps_off_the_names_and_bases_where_it_would_land() -> None:
    """A preview's '8th Jäger 18"' landed on the moved unit's base and, pushed down, on a name."""
    view = real_view("days-of-iron")
    renderer = Renderer()
    layout = renderer.table_layout(view)
    spot = result_spot(renderer.frame(view), layout, [])
    for placed in list(layout.names.values())[:3]:  # a fire or a preview has a few results
        x0, y0, x1, y1 = placed.box
        x, y = spot(((x0 + x1) / 2, (y0 + y1) / 2), 150.0, 30.0)
        box = (x - 75, y - 15, x + 75, y + 15)
        assert all(overlap(box, p.box) == 0 for p in layout.names.values())
        assert all(overlap(box, b) == 0 for b in layout.bases)
        assert abs(y - (y0 + y1) / 2) <= 6 * 34  # still near where it belongs (six rows at most)


@pytest.mark.slow
def test_captions_stay_readable_at_chat_size() -> None:
    """Zone and terrain captions, shrunk with the whole picture to chat height, are >= 10.5 px."""
    from render.frame import CHAT_HEIGHT, CHAT_TEXT_PX

    for view in (real_view("days-of-iron"), script_view("days-of-iron", "spicheren-measured", 12)):
        renderer = Renderer()
        height = renderer.render_board(view).height
        captions = renderer.table_layout(view).captions
        assert captions
        for c in captions:
            assert c.size * CHAT_HEIGHT / height >= CHAT_TEXT_PX, (c.text, c.size, height)
