"""Every counter kind the rule systems use gets a deliberate look (wakes, landing parties...)."""

from __future__ import annotations

import dataclasses
from typing import cast

from PIL import Image

from games.core.view import Counter, Overlay
from render import Renderer
from render.counters import Sprite, _fit_lines, _two_lines, landing_label, look_of, make_sprite, token_radius
from render.frame import full_frame
from render.labels import overlap
from render.overlays import draw_overlays
from render.strip import marker_key
from tests.render.scenes import table_view

RED = (200, 40, 40)


def _rgba(img: Image.Image, xy: tuple[int, int]) -> tuple[int, int, int, int]:
    return cast(tuple[int, int, int, int], img.getpixel(xy))


def _sprite(counter: Counter, board_kind: str = "table", scale: float = 30.0) -> Sprite:
    return make_sprite(look_of(counter, RED, board_kind, scale))


def test_a_wake_is_faint_and_carries_no_label() -> None:
    wake = Counter("s1-wake", "wake", "red", (5.0, 5.0), facing=90.0, kind="wake", size=(0.6, 0.8))
    plain = dataclasses.replace(wake, label="")
    for board_kind in ("table", "hex", "square"):
        img = _sprite(wake, board_kind).image
        alpha = img.getchannel("A")
        low, high = cast(tuple[int, int], alpha.getextrema())
        assert low == 0 and 0 < high <= 140, board_kind  # seen, but never as solid as a ship
        # the label text changes nothing: a wake is drawn from where it is and which way it points
        assert img.tobytes() == _sprite(plain, board_kind).image.tobytes(), board_kind


def test_a_wake_trails_astern() -> None:
    """Heading east (90 degrees) the trail runs west of the counter's position."""
    sprite = _sprite(Counter("w", "wake", "red", (0.0, 0.0), facing=90.0, kind="wake", size=(0.6, 0.8)))
    bbox = sprite.image.getchannel("A").getbbox()
    assert bbox is not None
    left, _, right, _ = bbox
    assert sprite.ax - left > 2 * (right - sprite.ax)


def test_a_landing_party_is_a_small_triangle_named_after_its_ship() -> None:
    assert landing_label("Petite Fregate landing party") == "Petite Fregate"
    assert landing_label("Raiders") == "Raiders"
    ship = _sprite(Counter("s", "Sloop", "red", (0.0, 0.0), facing=0.0, size=(2.5, 0.8)))
    party = _sprite(Counter("s-landing", "Sloop landing party", "red", (0.0, 0.0), kind="landing"))
    assert party.image.width * party.image.height < ship.image.width * ship.image.height
    # the rim is white, unlike any hull: the pixel just inside the triangle's tip is near white
    tip_row = next(y for y in range(party.image.height) if _rgba(party.image, (party.ax, y))[3] > 200)
    r, g, b, _ = _rgba(party.image, (party.ax, tip_row + 1))
    assert min(r, g, b) > 180


def test_the_strip_keys_the_landing_triangle_only_when_one_is_shown() -> None:
    view = table_view()
    assert "landing party" not in marker_key(view)
    with_party = dataclasses.replace(view, counters=(*view.counters, Counter("l", "Sloop landing party", "red", (4.0, 9.0), kind="landing")))
    assert "\u25b2 landing party" in marker_key(with_party)
    hidden = dataclasses.replace(view, counters=(*view.counters, Counter("l", "", "", (4.0, 9.0), kind="landing", face_down=True)))
    assert "landing party" not in marker_key(hidden)


def test_a_table_with_wakes_and_landing_parties_renders() -> None:
    view = table_view()
    extra = (
        Counter("s1-wake", "wake", "red", (9.0, 10.0), facing=45.0, kind="wake", size=(0.6, 0.8)),
        Counter("s2-landing", "Fluyt landing party", "red", (4.0, 9.0), kind="landing"),
    )
    png = Renderer().render_png(dataclasses.replace(view, counters=extra + view.counters), scale=20)
    assert png.startswith(b"\x89PNG") and len(png) < 300_000


# --- long names on square boards -------------------------------------------------------------


def test_a_name_breaks_at_a_space_or_between_syllables() -> None:
    assert _two_lines("Almirante Cochrane") == ("Almirante", "Cochrane")
    assert _two_lines("Re di Portogallo") == ("Re di", "Portogallo")
    assert _two_lines("Affondatore") == ("Affon-", "datore")
    assert _two_lines("Huascar") is None  # too short to hyphenate


def test_long_square_names_wrap_before_they_are_cut() -> None:
    r = token_radius("square", 108.0)  # the 8 x 8 board's default scale
    start, low, width = max(11.0, min(22.0, r * 0.56)), max(10.0, r * 0.44), 2.3 * r
    # two lines, never below the floor (the chat-size minimum), instead of "Affondato..."
    lines, size = _fit_lines("Affondatore", start, low, width)
    assert lines == ("Affon-", "datore") and size >= low
    lines, size = _fit_lines("Almirante Cochrane", start, low, width)
    assert lines == ("Almirante", "Cochrane") and size >= low
    lines, _ = _fit_lines("Erzherzog Ferdinand Max", start, low, width)
    assert lines[0] == "Erzherzog" and lines[1].startswith("Ferdin") and "\u2026" not in lines[0]
    assert _fit_lines("Kent", start, low, width) == (("Kent",), start)


def test_a_wrapped_name_stays_within_its_square() -> None:
    """The drawn ink of a long name, wrapped or not, stays about one square wide."""
    for name in ("Affondatore", "Almirante Cochrane", "Erzherzog Ferdinand Max"):
        sprite = _sprite(Counter("a", name, "red", (0.0, 0.0), facing=0.0, damage_text="12/12"), "square", 108.0)
        bbox = sprite.image.getchannel("A").getbbox()
        assert bbox is not None
        assert bbox[2] - bbox[0] <= 108 + 8, name


def test_a_path_label_marks_where_the_move_began_not_the_moved_ship() -> None:
    """Oak & Iron names a path after its ship; at the path's end that label hid the ship itself."""
    view = table_view()
    path = Overlay("path", ((4.0, 4.0), (10.0, 9.0)), side="red", text="Sloop")  # Sloop now at (10, 9)
    frame = full_frame(view.board, 20.0)
    img = Image.new("RGB", (frame.width, frame.height))
    aids, results = draw_overlays(img, (path,), frame, {"red": RED})
    assert results == [] and [(label[0], label[1]) for label in aids] == [(frame.px((4.0, 4.0)), "Sloop")]


def test_a_units_front_edge_shows_which_way_it_faces() -> None:
    """A land unit's base is square-ended (no bow point), so its front rank is drawn pale."""
    for facing, front, rear in ((0.0, (0, -1), (0, 1)), (90.0, (1, 0), (-1, 0))):
        unit = Counter("u", "", "red", (0.0, 0.0), facing=facing, size=(2.0, 4.0), kind="unit")
        sprite = _sprite(unit)
        inset = 30.0 * 1.0 - 4  # 2" deep at 30 px an inch: the edges are 30 px from the centre

        def lum(direction: tuple[int, int], sprite: Sprite = sprite, inset: float = inset) -> int:
            r, g, b, _ = _rgba(sprite.image, (round(sprite.ax + direction[0] * inset), round(sprite.ay + direction[1] * inset)))
            return r + g + b

        assert lum(front) > lum(rear) + 200, facing


def test_a_general_is_a_rimmed_disc_and_an_objective_a_flag_over_its_position() -> None:
    """Kinds a measured table's view may give (render is ready for them): a general reads as a
    commander, not a 1" body of troops; an objective as a flag whose foot is the objective."""
    general = _sprite(Counter("g", "Frossard", "red", (0.0, 0.0), facing=0.0, size=(1.0, 1.0), kind="general"))
    r = 15  # a 1" base at 30 px an inch
    assert _rgba(general.image, (general.ax, general.ay))[:3] == RED  # filled
    assert max(min(_rgba(general.image, (general.ax, general.ay - r + d))[:3]) for d in range(-1, 3)) > 200  # a white rim
    assert _rgba(general.image, (general.ax + r - 1, general.ay - r + 1))[3] == 0  # round: no corner
    flag = _sprite(Counter("o", "Rotherberg", "red", (0.0, 0.0), kind="objective"))
    h = 60  # a 2" pole
    r_, g_, b_, a_ = _rgba(flag.image, (flag.ax + round(h * 0.25), flag.ay - round(h * 0.8)))
    assert a_ > 200 and (r_, g_, b_) == RED  # the pennant, above and right of the foot
    assert _rgba(flag.image, (flag.ax, flag.ay + 8))[3] == 0  # nothing below the foot


def test_a_general_and_an_objective_get_their_names_placed_clear() -> None:
    view = table_view()
    extra = (Counter("g", "Frossard", "red", (4.0, 9.0), size=(1.0, 1.0), kind="general"),
             Counter("o", "Rotherberg", "blue", (6.0, 9.0), kind="objective"))
    layout = Renderer().table_layout(dataclasses.replace(view, counters=view.counters + extra, overlays=()))
    assert {"g", "o"} <= set(layout.names)
    for key in ("g", "o"):
        assert all(overlap(layout.names[key].box, b) == 0 for b in layout.bases)
