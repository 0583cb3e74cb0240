"""Views, not state: the renderer draws only what a View holds, and never a face-down counter's identity."""

from __future__ import annotations

import dataclasses
from typing import NoReturn

import pytest
from PIL import ImageChops

from games.core.view import Counter, View
from render import Renderer
from render.strip import marker_key
from tests.render.scenes import hex_view, square_view, table_view


def _pixels(view: View) -> bytes:
    return Renderer().render_board(view).tobytes()


@pytest.mark.slow
def test_spectator_face_down_counter_draws_no_label_or_side() -> None:
    """The spectator's picture is pixel-identical whatever label/side the hidden counter carries."""
    spectator = hex_view(hidden_label="Union", hidden_side="red")
    blanked = hex_view(hidden_label="", hidden_side="")
    other = hex_view(hidden_label="Huascar", hidden_side="blue")
    assert _pixels(spectator) == _pixels(blanked) == _pixels(other)


def test_umpire_sees_the_counter_the_spectator_does_not() -> None:
    """Not vacuous: face up, the same counter changes the picture (so the test above can fail)."""
    spectator = Renderer().render_board(hex_view(face_down=True))
    umpire = Renderer().render_board(hex_view(face_down=False, viewer="umpire"))
    bbox = ImageChops.difference(spectator, umpire).getbbox()
    assert bbox is not None
    # the difference is where the hidden counter stands, not spread over the whole board
    assert bbox[2] - bbox[0] < spectator.width / 2


class Poison(str):
    """A string that fails the test the moment anything reads it."""

    def _boom(self, *args: object, **kwargs: object) -> NoReturn:
        raise AssertionError("the renderer read a face-down counter's hidden field")

    __str__ = __len__ = __hash__ = __eq__ = __iter__ = __getitem__ = __format__ = _boom
    encode = upper = lower = strip = split = startswith = _boom


def _poisoned(view: View) -> View:
    counters = tuple(
        dataclasses.replace(c, label=Poison("secret"), side=Poison("red"), damage_text=Poison("MP 2")) if c.face_down else c
        for c in view.counters
    )
    return dataclasses.replace(view, counters=counters)


@pytest.mark.slow
def test_renderer_never_reads_face_down_label_side_or_damage_text() -> None:
    for view in (hex_view(), square_view(), table_view()):
        hidden = Counter("x", "x", "red", view.counters[0].pos, facing=90.0, face_down=True, markers=("fire",))
        v = _poisoned(dataclasses.replace(view, counters=(*view.counters, hidden)))
        Renderer().render_png(v)
        Renderer().render_png(v, zoom=(view.counters[0].pos, 2))


def test_face_down_markers_stay_out_of_the_marker_key() -> None:
    view = hex_view()
    only_hidden = dataclasses.replace(view, counters=tuple(c for c in view.counters if c.face_down))
    assert only_hidden.counters and only_hidden.counters[0].markers == ("fire",)
    assert marker_key(only_hidden) == ""
    assert "F fire" in marker_key(view)  # the face-up Huascar is on fire


def test_private_text_is_drawn_only_when_the_view_has_it() -> None:
    spectator = hex_view()
    seat = dataclasses.replace(spectator, viewer="red", private_text=("Union arrives on turn 4",))
    a = Renderer().render_board(spectator)
    b = Renderer().render_board(seat)
    assert b.height > a.height  # the private lines take room in the strip
    # the board itself is the same picture: secrets go in the strip, labelled, nowhere else
    board_h = a.height - 200
    assert a.crop((0, 0, a.width, board_h)).tobytes() == b.crop((0, 0, b.width, board_h)).tobytes()
