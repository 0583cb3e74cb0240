"""Terrain on a measured table: every section-15 kind has its own look (never the fallback
colour), crossings lie over their river, and the strip keys what is on the table."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest
from PIL import ImageStat

from render import Renderer
from render.frame import full_frame
from render.strip import terrain_key
from render.terrain import PATTERNS, dense, family, key_name, style, swatch
from tests.book.days_of_iron.table import set_alight
from tests.days_of_iron.helpers import RS
from tests.render.golden import check_golden
from tests.render.scenes import TERRAIN_KINDS, terrain_view

DATA = Path(__file__).resolve().parents[2] / "data" / "days_of_iron"


def _kinds_in_data() -> set[str]:
    sheet = tomllib.loads((DATA / "reference" / "sheets" / "terrain.toml").read_text(encoding="utf-8"))
    kinds = set(sheet["types"])
    for scenario in (DATA / "scenarios").glob("*.toml"):
        kinds |= {t["type"] for t in tomllib.loads(scenario.read_text(encoding="utf-8")).get("terrain", [])}
    return kinds


def test_terrain_golden() -> None:
    check_golden("table-terrain", Renderer().render_png(terrain_view(), scale=16))


def test_every_days_of_iron_terrain_kind_has_its_own_look() -> None:
    kinds = _kinds_in_data() | set(TERRAIN_KINDS)
    assert {"light-wood", "heavy-wood", "urban", "hill", "river"} <= kinds
    for kind in kinds:
        assert family(kind), kind  # not the fallback colour
        assert family(kind) == "open" or family(kind) in PATTERNS, kind  # colour is never the only cue
    # no two kinds drawn alike (light and heavy wood too), but a "hill" is a low hill
    looks = {(family(kind), dense(kind)): swatch(kind, 24).tobytes() for kind in kinds}
    assert len(set(looks.values())) == len(looks) >= 14


def test_a_patterned_piece_is_not_a_flat_fill() -> None:
    for kind in ("light-wood", "urban", "high-hill", "river", "swamp", "field", "bridge", "ford"):
        lo, hi = zip(*ImageStat.Stat(swatch(kind, 32).convert("RGB")).extrema, strict=True)
        assert max(hi) - min(lo) > 60, kind


def test_a_bridge_and_a_ford_lie_across_their_river() -> None:
    """The scene lists the crossings before the river; they are still drawn on top of it."""
    view = dataclasses.replace(terrain_view(), counters=())
    img = Renderer().render_board(view)
    frame = full_frame(view.board)

    def mean(x0: float, y0: float, x1: float, y1: float) -> list[float]:
        (a, b), (c, d) = frame.px((x0, y0)), frame.px((x1, y1))
        return ImageStat.Stat(img.crop((round(a), round(b), round(c), round(d)))).mean

    r, g, b = mean(30.3, 10.8, 32.7, 13.2)[:3]  # the bridge's deck, where the river runs under it
    assert r > b + 40, (r, g, b)  # timber, not water
    r, g, b = mean(40.0, 11.0, 44.0, 13.0)[:3]  # the river beside it
    assert b > r + 60, (r, g, b)
    r, g, b = mean(12.3, 10.8, 14.7, 13.2)[:3]  # the ford: paler water with stones
    assert min(r, g, b) > 120, (r, g, b)


@pytest.mark.slow
def test_the_strip_keys_the_terrain_on_the_table() -> None:
    keyed = terrain_key(terrain_view())
    assert "land" not in keyed and "open" not in keyed  # the table itself, and nothing to see
    assert keyed[:3] == ("bridge", "ford", "river")  # in the order the board lists them
    assert key_name("urban") == "Town" and key_name("light-wood") == "Light wood"
    plain = dataclasses.replace(terrain_view(), board=dataclasses.replace(terrain_view().board, table_terrain=()))
    assert Renderer().render_board(plain).height < Renderer().render_board(terrain_view()).height  # the key's row


def test_heavy_woods_and_high_hills_are_darker_than_light_and_low_ones() -> None:
    assert sum(style("heavy-wood").fill[:3]) < sum(style("light-wood").fill[:3])
    assert sum(style("high-hill").fill[:3]) < sum(style("low-hill").fill[:3])


def test_a_days_of_iron_fire_is_drawn_over_its_wood_and_keyed() -> None:
    """15.9 "Use cotton wool to denote the spreading fire": the burning part of a wood is drawn in
    the fire's own colour over the trees (the unburnt rest stays wood), named on the board and keyed."""
    state, _, _, _ = set_alight()
    view = dataclasses.replace(RS.view(state, "french"), counters=())
    img = Renderer().render_board(view).convert("RGB")
    frame = full_frame(view.board)

    def mean(x: float, y: float) -> list[float]:
        (a, b), (c, d) = frame.px((x - 1.0, y - 1.0)), frame.px((x + 1.0, y + 1.0))
        return ImageStat.Stat(img.crop((round(a), round(b), round(c), round(d)))).mean

    burning, wood = mean(36.0, 29.0), mean(36.0, 37.0)
    assert burning[0] > burning[1] + 40 and burning[0] > 150, burning  # orange: red well over green
    assert wood[1] > wood[0], wood  # the rest of the wood is still green
    assert "fire" in terrain_key(view)
    assert [t.label for t in view.board.table_terrain if t.kind == "fire"] == ["fire (the wood)"]
