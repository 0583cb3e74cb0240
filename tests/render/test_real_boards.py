"""Goldens of real scenario boards (each system's set-up, as posted to the channel), full size and
as Discord shows them (~500 px high), and the chat-size legibility rules checked on each."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import NamePlaces, Renderer
from render.counters import Look, has_table_name, make_sprite, table_name_size, table_name_sprite
from render.frame import CHAT_HEIGHT, CHAT_TEXT_PX, chat_text_px
from render.labels import Placed, grow, overlap
from render.theme import hex_to_rgb
from tests.render.golden import check_golden
from tests.render.real_boards import BOARDS, real_view, script_view

MAX_BOARD_BYTES = 300_000


def chat_png(png: bytes) -> bytes:
    """The board shrunk to chat height the way a viewer sees it (Lanczos, like a browser)."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    small = img.resize((round(img.width * CHAT_HEIGHT / img.height), round(CHAT_HEIGHT)), Image.Resampling.LANCZOS)
    buf = io.BytesIO()
    small.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(buf, "PNG", compress_level=9)
    return buf.getvalue()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BOARDS))
def test_real_board_golden(name: str) -> None:
    png = Renderer().render_png(real_view(name))
    assert len(png) < MAX_BOARD_BYTES
    check_golden(f"real-{name}", png)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BOARDS))
def test_real_board_at_chat_size_golden(name: str) -> None:
    check_golden(f"real-{name}-chat", chat_png(Renderer().render_png(real_view(name))))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BOARDS))
def test_names_stay_readable_at_chat_size(name: str) -> None:
    """Every name the board drew, shrunk with the whole picture to chat height, is >= 10.5 px."""
    renderer = Renderer()
    img = renderer.render_board(real_view(name))
    looks = [key for key in renderer.sprites._data if isinstance(key, Look) and key.label and not key.face_down]
    assert looks or name == "days-of-iron"  # its miniatures are on a real table, not the board
    for look in looks:
        assert look.text_px * CHAT_HEIGHT / img.height >= CHAT_TEXT_PX, (look.label, look.text_px, img.height)


@pytest.mark.slow
def test_every_board_has_a_side_key() -> None:
    """The strip names every side in its colour: at chat size colour is what tells sides apart."""
    view = real_view("hex-ironclads")
    plain = Renderer().render_board(view)
    no_sides = Renderer().render_board(type(view)(**{**view.__dict__, "sides": ()}))
    assert plain.height > no_sides.height  # the key's row


@pytest.mark.slow
def test_table_name_boxes_hold_what_is_drawn() -> None:
    """The renderer places table names by ``table_name_size`` without drawing them: every pixel
    of the name sprite (name, pips, damage text, badges) must fall inside that box."""
    renderer = Renderer()
    for board in ("oak-and-iron", "days-of-iron"):
        renderer.render_board(real_view(board))
    looks = [key for key in renderer.sprites._data if isinstance(key, Look) and has_table_name(key)]
    assert {look.kind for look in looks} == {"ship", "unit", "general"}  # ships, units and generals
    for look in looks:
        sprite = table_name_sprite(look)
        w, h = table_name_size(look)
        ink = sprite.image.getchannel("A").getbbox()
        assert ink is not None
        x0, y0, x1, y1 = (ink[0] - sprite.ax, ink[1] - sprite.ay, ink[2] - sprite.ax, ink[3] - sprite.ay)
        assert -w / 2 - 1 <= x0 and x1 <= w / 2 + 1 and -h / 2 - 1 <= y0 and y1 <= h / 2 + 1, (look.label, ink, w, h)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BOARDS))
def test_title_side_key_and_headline_stay_readable_at_chat_size(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The strip lines that say where the game stands (title, turn, phase, who acts) are >= 10.5 px
    once the whole picture is shrunk to chat height; the per-unit lines after them may be smaller."""
    import render.board
    import render.strip as strip

    drawn: list[tuple[str, float]] = []
    original = strip.text_image.__wrapped__

    def recording(line: str, size: float, bold: bool, colour: tuple[int, int, int]) -> Image.Image:
        drawn.append((line, size))
        return original(line, size, bold, colour)

    def draw_strip(*args: object, **kwargs: object) -> Image.Image:
        drawn.clear()  # keep only the lines of the strip the picture ends up with
        return strip.draw_strip(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(strip, "text_image", recording)
    monkeypatch.setattr(render.board, "draw_strip", draw_strip)
    view = real_view(name)
    img = Renderer().render_board(view)
    headline = [view.title or view.board.name, *view.status[: view.headline]]
    for text in headline:
        first_words = " ".join(text.split()[:2])
        size = next(s for line, s in drawn if line.startswith(first_words))
        assert size * CHAT_HEIGHT / img.height >= CHAT_TEXT_PX, (text, size, img.height)


@pytest.mark.slow
def test_a_unit_that_did_not_move_keeps_its_name_where_it_was() -> None:
    """Days of Iron, order by order: between two consecutive pictures of the table drawn with the
    game's NamePlaces, a unit whose base did not move keeps its name's box, unless a base or a moved
    unit's name now stands on that box (names used to jump about round a unit that moved)."""
    renderer, places = Renderer(), NamePlaces()
    previous: dict[str, Placed] = {}
    compared = 0
    for orders in range(4, 16):
        view = script_view("days-of-iron", "spicheren-measured", orders)
        renderer.render_board(view, names=places)
        frame = renderer.frame(view)
        names = places.before((view.board.key, view.viewer, frame.width, frame.height))
        moved = [p.box for k, p in names.items() if k not in previous or previous[k].base != p.base]
        in_the_way = [*(grow(b, 2.0, 2.0) for b in renderer.table_layout(view).bases), *moved]
        for key, placed in names.items():
            old = previous.get(key)
            if old is not None and old.base == placed.base and not any(overlap(old.box, b) for b in in_the_way):
                compared += 1
                assert placed.box == old.box, (orders, key, old.box, placed.box)
        previous = names
    assert compared > 100, compared


@pytest.mark.slow
def test_a_picture_depends_on_its_view_alone() -> None:
    """Without NamePlaces a picture is a function of its View: drawing other pictures first (of the
    same table, as another test or another game would) changes nothing. The names' memory once lived
    in the shared Renderer, and what one test drew changed what the next drew."""
    view = script_view("days-of-iron", "spicheren-measured", 15)
    alone = Renderer().render_png(view)
    renderer = Renderer()
    for orders in range(4, 15):
        renderer.render_png(script_view("days-of-iron", "spicheren-measured", orders))
    assert renderer.render_png(view) == alone
    before = script_view("days-of-iron", "spicheren-measured", 14)
    drawn = []  # with a game's own memory, only that game's pictures count, whichever Renderer drew
    for painter in (renderer, Renderer()):
        places = NamePlaces()
        painter.render_png(before, names=places)
        drawn.append(painter.render_png(view, names=places))
    assert drawn[0] == drawn[1]


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_every_name_lies_inside_the_picture(name: str) -> None:
    """A name box never leaves the board picture (a name at the edge was cut off)."""
    renderer = Renderer()
    view = real_view(name)
    frame = renderer.frame(view)
    for key, placed in renderer.table_layout(view).names.items():
        x0, y0, x1, y1 = placed.box
        assert x0 >= 0 and y0 >= 0 and x1 <= frame.width and y1 <= frame.height, (key, placed.box, frame.width, frame.height)


@pytest.mark.parametrize("name", ["hex-ironclads", "iron-and-fire", "ironclad-draughts"])
def test_every_counter_and_name_is_drawn_inside_the_picture(name: str) -> None:
    """Hex and square boards: every counter's sprite ink (its name included) lies inside the
    picture; a name in the edge column moves inward instead ("Palestro" was cut at the edge)."""
    renderer = Renderer()
    view = real_view(name)
    img = renderer.render_board(view)
    frame = renderer.frame(view)
    colours = {s.id: hex_to_rgb(s.colour) for s in view.sides}
    looks = renderer._looks(view, frame, colours, chat_text_px(frame, img.height - frame.height))
    for cid, (look, (x, _y)) in looks.items():
        sprite = make_sprite(look)
        ink = sprite.image.getchannel("A").getbbox()
        assert ink is not None
        left, right = round(x) - sprite.ax + ink[0], round(x) - sprite.ax + ink[2]
        assert left >= 0 and right <= frame.width, (cid, look.label, left, right, frame.width)
