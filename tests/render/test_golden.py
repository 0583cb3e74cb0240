"""Goldens: one small image per board kind, drawn at a small scale so each PNG stays well under 100 KB."""

from __future__ import annotations

from render import Renderer
from tests.render.golden import GOLDEN, check_golden
from tests.render.scenes import hex_view, kinds_view, long_names_view, square_view, table_view


def test_hex_golden() -> None:
    check_golden("hex", Renderer().render_png(hex_view(), scale=22))


def test_square_golden() -> None:
    check_golden("square", Renderer().render_png(square_view(), scale=56))


def test_table_golden() -> None:
    check_golden("table", Renderer().render_png(table_view(), scale=18))


def test_hex_zoom_golden() -> None:
    check_golden("hex-zoom", Renderer().render_png(hex_view(), zoom=("1404", 1.5), scale=40))


def test_goldens_stay_small() -> None:
    sizes = {p.name: p.stat().st_size for p in GOLDEN.glob("*.png")}
    assert sizes, "goldens missing"
    assert all(size < 120_000 for size in sizes.values()), sizes  # real boards with chat-size strip text: ~105 KB


def test_table_kinds_golden() -> None:
    check_golden("table-kinds", Renderer().render_png(kinds_view(), scale=18))


def test_square_long_names_golden() -> None:
    check_golden("square-long-names", Renderer().render_png(long_names_view(), scale=90))
