"""Hex boards as a new player read them at chat size (play-test d24): whose shot is whose."""

from __future__ import annotations

import colorsys
import dataclasses

import pytest
from PIL import Image, ImageChops

from games.core.view import Overlay, View
from render import Renderer, theme
from render.counters import make_sprite
from tests.render.scenes import ax, hex_view


def _plain(view: View) -> View:
    return dataclasses.replace(view, overlays=())


def _drawn_hues(view: View, *shots: Overlay) -> list[tuple[int, int, int]]:
    """The strongly coloured pixels the shots add to the board (their dashes and arrowheads)."""
    r = Renderer()
    base = r.render_board(_plain(view)).convert("RGB")
    with_shot = r.render_board(dataclasses.replace(view, overlays=shots)).convert("RGB")
    mask = ImageChops.difference(base, with_shot).convert("L").point(lambda v: 255 if v > 60 else 0)
    pixels = Image.composite(with_shot, Image.new("RGB", with_shot.size), mask).getdata()
    return [p for p in pixels if max(p) - min(p) > 80]  # saturated: not the dark casing or label box


def _closest(pixel: tuple[int, int, int], colours: dict[str, theme.RGB]) -> str:
    """The side whose counter colour has the nearest hue (the shade may differ: a line is brighter)."""
    def hue(c: tuple[int, int, int]) -> float:
        return colorsys.rgb_to_hsv(*(v / 255 for v in c))[0]

    def apart(a: float, b: float) -> float:
        return min(abs(a - b), 1 - abs(a - b))

    return min(colours, key=lambda side: apart(hue(pixel), hue(colours[side])))


@pytest.mark.slow
def test_each_sides_shots_are_drawn_in_its_own_colour() -> None:
    """Both sides' lines of fire were the same red: a player could not tell whose shot was whose.
    Each is now drawn in a bright version of its side's counter colour (the same hue)."""
    view = hex_view(face_down=False)
    colours = {s.id: theme.hex_to_rgb(s.colour) for s in view.sides}  # the counters' colours
    for side, firer, target in (("red", "1404", "1603"), ("blue", "1603", "1404")):
        hues = _drawn_hues(view, Overlay("fire", (ax(firer), ax(target)), side=side, text="1 hit"))
        assert len(hues) > 50, side
        votes = [_closest(p, colours) for p in hues]
        assert votes.count(side) > 0.8 * len(votes), (side, votes.count("red"), votes.count("blue"))


def test_two_ships_shooting_at_each_other_show_both_lines() -> None:
    """A shot and the answer to it run side by side: neither hides the other."""
    view = hex_view(face_down=False)
    red = Overlay("fire", (ax("1404"), ax("1603")), side="red", text="1 hit")
    blue = Overlay("fire", (ax("1603"), ax("1404")), side="blue", text="2 hits")
    colours = {s.id: theme.hex_to_rgb(s.colour) for s in view.sides}
    votes = [_closest(p, colours) for p in _drawn_hues(view, red, blue)]
    assert votes.count("red") > 40 and votes.count("blue") > 40, (votes.count("red"), votes.count("blue"))


def _name_columns(view: View, zoom: tuple[str, float], counter: str) -> tuple[int, int, int]:
    """Where a counter's name (its white lettering) runs in the picture: first and last column,
    and the picture's width."""
    r = Renderer()
    frame = r.frame(view, zoom=zoom)
    colours = {s.id: theme.hex_to_rgb(s.colour) for s in view.sides}
    look, (x, _) = r._looks(view, frame, colours, frame.text_px)[counter]
    sprite = make_sprite(look)
    white = [i % sprite.image.width for i, p in enumerate(sprite.image.getdata()) if p[:3] == (255, 255, 255) and p[3] > 200]
    return round(x) - sprite.ax + min(white), round(x) - sprite.ax + max(white), frame.width


def test_a_name_at_a_zoomed_windows_edge_stays_inside_the_picture() -> None:
    """A ship standing just past the window's edge had its name cut there ("ichmond" for
    "Richmond"): a centre outside the picture read as the other edge, so the name moved outwards."""
    view = hex_view(face_down=False)
    first, last, width = _name_columns(view, ("1704", 2.0), "hua")  # Huascar's centre: 3.6 px left of the window
    assert first >= 0 and last < width, (first, last)


def test_the_heading_mark_beyond_a_name_is_big_enough_for_chat() -> None:
    """The bow pointer drawn past a wide name was a speck at chat size (half the picture): it is
    now an arrowhead at least 18 px long, white in a dark rim."""
    view = hex_view(face_down=False)
    r = Renderer()
    frame = r.frame(view)
    colours = {s.id: theme.hex_to_rgb(s.colour) for s in view.sides}
    look, _ = r._looks(view, frame, colours, frame.text_px)["hua"]
    look = dataclasses.replace(look, label="Huascar Huascar", facing=90.0)  # a wide name over the bow point, facing east
    sprite = make_sprite(look).image
    # the arrowhead: pure white pixels right of the name's end and of the body, on the centre row band
    c = sprite.width // 2
    band = [(x, y) for y in range(c - 10, c + 11) for x in range(c, sprite.width) if sprite.getpixel((x, y))[:3] == (250, 250, 250)]
    assert band and max(x for x, _ in band) - min(x for x, _ in band) >= 12, band[:5]


def test_the_number_of_a_hex_with_a_counter_on_it_shows() -> None:
    """A counter and its highlight ring covered the lower half of its own hex's number (at the
    real boards' scale, ~35 px a hex); it is drawn again over them, whole, in a dark rim."""
    view = hex_view(face_down=False)
    r = Renderer()
    frame = r.frame(view, scale=35.0)
    img = r.render_board(view, scale=35.0).convert("RGB")
    s = frame.scale
    for hex_label in ("1705", "1404"):  # Cov., and Huascar with its ring
        cx, cy = frame.px(ax(hex_label))
        lower_half = (round(cx - 0.4 * s), round(cy - 0.66 * s), round(cx + 0.4 * s), round(cy - 0.52 * s))
        light = [p for p in img.crop(lower_half).getdata() if min(p) > 200]
        assert len(light) >= 15, (hex_label, len(light))  # the old picture: 6 and 2
