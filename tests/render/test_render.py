"""Behaviour of the renderer beyond the goldens: zoom, replay, encoding, caching, facing, terrain."""

from __future__ import annotations

import dataclasses
import io
import math
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image

from games.core.errors import GameError
from games.core.hexgrid import HexLayout
from games.core.view import Board, Counter, Overlay, View
from render import MAX_REPLAY_BYTES, Renderer, encode_png, render_board, render_png, render_replay, theme
from render.counters import look_of, make_sprite, token_radius
from render.frame import full_frame
from tests.render.scenes import SIDES, ax, hex_board, hex_view, square_view, table_view


def _open(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


@pytest.mark.parametrize("make", [hex_view, square_view, table_view])
def test_default_size_reads_in_a_chat_preview(make: object) -> None:
    """About 900-1200 px wide: halved to ~550 px in a preview, labels stay readable."""
    view = make()  # type: ignore[operator]
    img = render_board(view)
    assert 880 <= img.width <= 1200


@pytest.mark.slow
def test_cached_render_equals_uncached_render() -> None:
    """Caching is an optimisation only: same picture as drawing everything from scratch."""
    cached = Renderer()
    for make in (hex_view, square_view, table_view):
        view = make()
        cached.render_board(view)  # warm the caches
        assert cached.render_board(view).tobytes() == Renderer(cache=False).render_board(view).tobytes()


def test_background_is_drawn_once_per_board_and_scale() -> None:
    r = Renderer()
    view = hex_view()
    r.render_board(view)
    moved = dataclasses.replace(view, counters=tuple(dataclasses.replace(c, pos=(c.pos[0], c.pos[1] + 1)) for c in view.counters))
    r.render_board(moved)
    assert len(r.backgrounds) == 1
    # moving counters re-uses their sprites (one per counter, plus the highlight ring)
    assert len(r.sprites) == len(view.counters) + 1
    r.render_board(view, scale=20)
    assert len(r.backgrounds) == 2


@pytest.mark.slow
def test_moving_a_counter_changes_only_its_neighbourhood() -> None:
    view = hex_view()
    esm = next(c for c in view.counters if c.id == "esm")
    moved = dataclasses.replace(view, counters=tuple(dataclasses.replace(c, pos=ax("1707")) if c.id == "esm" else c for c in view.counters))
    a, b = render_board(view), render_board(moved)
    box = Image.frombytes("RGB", a.size, bytes(x ^ y for x, y in zip(a.tobytes(), b.tobytes(), strict=True))).getbbox()
    assert box is not None
    frame = full_frame(view.board)
    (x1, y1), (x2, y2) = frame.px(esm.pos), frame.px(ax("1707"))
    pad = frame.scale * 1.6
    assert box[0] >= min(x1, x2) - pad and box[2] <= max(x1, x2) + pad
    assert box[1] >= min(y1, y2) - pad and box[3] <= max(y1, y2) + pad


@pytest.mark.parametrize("bearing", [0.0, 60.0, 90.0, 180.0, 225.0, 300.0])
def test_bow_points_along_the_facing(bearing: float) -> None:
    """The one protruding point of a counter is its bow, on the facing's bearing (clockwise from up)."""
    c = Counter("a", "", "red", (0.0, 0.0), facing=bearing)
    for kind, scale in (("hex", 40.0), ("square", 100.0)):
        sprite = make_sprite(look_of(c, (200, 40, 40), kind, scale))
        alpha = sprite.image.getchannel("A")
        r = token_radius(kind, scale)
        ax0, ay0 = sprite.ax, sprite.ay

        def opaque(deg: float, dist: float, alpha: Image.Image = alpha, ax0: int = ax0, ay0: int = ay0) -> bool:
            a = math.radians(deg)
            value = alpha.getpixel((round(ax0 + dist * math.sin(a)), round(ay0 - dist * math.cos(a))))
            assert isinstance(value, int)
            return value > 128

        assert opaque(bearing, r * 1.3)
        assert not opaque(bearing + 180.0, r * 1.3)
        assert not opaque(bearing + 90.0, r * 1.3)


def test_table_base_is_drawn_to_scale_and_angle() -> None:
    view = table_view()
    r = Renderer()
    frame = r.frame(view)
    only = Counter("s", "", "red", (12.0, 9.0), facing=90.0, size=(4.0, 1.0))
    img = r.render_board(dataclasses.replace(view, counters=(only,), overlays=()))
    x, y = frame.px(only.pos)
    red = theme.hex_to_rgb("#c0392b")

    def near_red(px: float, py: float) -> bool:
        p = img.getpixel((round(px), round(py)))
        assert isinstance(p, tuple)
        return sum(abs(a - b) for a, b in zip(p, red, strict=False)) < 40

    s = frame.scale
    assert near_red(x + 1.6 * s, y) and near_red(x - 1.8 * s, y)  # 4 inches long, lying east-west
    assert not near_red(x, y + 0.9 * s) and not near_red(x + 2.4 * s, y)  # 1 inch beam, nothing past the bow


def test_unknown_terrain_kind_gets_a_stable_fallback_colour() -> None:
    view = dataclasses.replace(hex_view(), counters=(), overlays=(), zones=())
    frame = full_frame(view.board)
    img = render_board(view)
    for label, kind in (("1903", "kelp"), ("1101", "land"), ("1501", "deep")):
        x, y = frame.px(ax(label))
        pixel = img.getpixel((round(x + frame.scale * 0.3), round(y + frame.scale * 0.25)))
        assert pixel == theme.terrain_colour(kind), label
    assert theme.fallback_colour("kelp") == theme.terrain_colour("kelp") != theme.terrain_colour("reef-x")


def test_pointy_topped_maps_render_with_their_own_geometry() -> None:
    pointy = HexLayout(orientation="pointy", first_col=1, first_row=1, cols=8, rows=6, shifted="even")
    board = hex_board(pointy, key="hex:pointy")
    board = dataclasses.replace(board, terrain={"*": "deep", "0302": "land"})
    view = View(board=board, viewer=None, sides=SIDES, counters=(Counter("a", "A", "red", ax("0505", pointy), facing=pointy.bearing(1)),))
    img = render_board(view)
    frame = full_frame(board)
    x, y = frame.px(ax("0302", pointy))
    assert img.getpixel((round(x), round(y + frame.scale * 0.3))) == theme.terrain_colour("land")
    assert frame.width > frame.height  # 8 pointy columns by 6 rows is wider than tall


@pytest.mark.slow
def test_zoom_draws_a_window_at_a_larger_scale() -> None:
    view = hex_view()
    r = Renderer()
    full = r.frame(view)
    z = r.frame(view, zoom=("1404", 2))
    assert z.scale > full.scale * 1.5
    cx, cy = z.px(ax("1404"))
    assert abs(cx - z.width / 2) < 1 and abs(cy - z.height / 2) < 1
    by_label = r.render_board(view, zoom=("1404", 2))
    by_pos = r.render_board(view, zoom=(ax("1404"), 2))
    assert by_label.tobytes() == by_pos.tobytes()
    square = r.render_board(square_view(), zoom=("d2", 1.5))
    table = r.render_board(table_view(), zoom=((10.0, 9.0), 4))
    assert square.width >= 800 and table.width >= 800


def test_zoom_on_a_bad_hex_number_is_a_user_error_quoting_it() -> None:
    with pytest.raises(GameError, match="9999"):
        render_board(hex_view(), zoom=("9999", 2))
    with pytest.raises(GameError, match="z9"):
        render_board(square_view(), zoom=("z9", 2))


@pytest.mark.slow
def test_encode_png_is_a_small_palette_png() -> None:
    img = render_board(hex_view())
    png = encode_png(img)
    out = _open(png)
    assert out.format == "PNG" and out.mode == "P" and out.size == img.size
    assert len(png) < 300_000
    # render_png (fixed per-board palette) looks like the adaptive encoding of the same picture
    fixed = _open(render_png(hex_view())).convert("RGB")
    adaptive = out.convert("RGB")
    diff = [abs(a - b) for a, b in zip(fixed.tobytes(), adaptive.tobytes(), strict=True)]
    assert sum(diff) / len(diff) < 3.0


def test_replay_is_an_animated_gif_with_one_frame_per_view() -> None:
    base = hex_view()
    views = [
        base,
        dataclasses.replace(base, overlays=(), counters=base.counters[1:]),
        dataclasses.replace(base, title="Turn 3"),
    ]
    data = render_replay(views, ["Huascar moves and fires", "Esmeralda sinks", "Turn 3"])
    assert len(data) < MAX_REPLAY_BYTES
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and getattr(gif, "n_frames", 1) == 3
    assert gif.info.get("loop") == 0


@pytest.mark.slow
def test_replay_shrinks_to_fit_its_size_limit() -> None:
    views = [hex_view(), dataclasses.replace(hex_view(), counters=())]
    full = render_replay(views, ["a", "b"])
    r = Renderer()
    from render.replay import render_replay as replay_with

    small = replay_with(r, views, ["a", "b"], max_bytes=len(full) // 2)
    assert len(small) <= len(full) // 2
    assert Image.open(io.BytesIO(small)).width < Image.open(io.BytesIO(full)).width


@pytest.mark.slow
def test_a_replay_far_over_its_limit_is_drawn_smaller_after_a_few_frames_not_whole_again_and_again() -> None:
    """The frames so far project the GIF's size: one far too large is given up after a few frames
    and drawn once at a size aimed under the limit (it was drawn whole at 3/4 the size, again
    and again: each attempt drew every frame)."""
    base = hex_view()
    views = [dataclasses.replace(base, title=f"Turn {i}", counters=base.counters[i % 2:]) for i in range(24)]
    r = Renderer()
    full = render_replay(views, [f"step {i}" for i in range(24)])
    drawn = 0
    real = r._render

    def counted(*args: object, **kw: object) -> object:
        nonlocal drawn
        drawn += 1
        return real(*args, **kw)  # type: ignore[arg-type]

    r._render = counted  # type: ignore[method-assign,assignment]
    from render.replay import render_replay as replay_with

    small = replay_with(r, views, [f"step {i}" for i in range(24)], max_bytes=len(full) // 5)
    assert len(small) <= len(full) // 5
    assert drawn <= 2 * 8 + 24  # at most two attempts given up after 8 frames, then the one drawn whole


def test_replay_needs_one_caption_per_view() -> None:
    with pytest.raises(ValueError, match="one caption per view"):
        render_replay([hex_view()], [])
    with pytest.raises(ValueError, match="at least one"):
        render_replay([], [])


@pytest.mark.slow
def test_renders_from_worker_threads_agree() -> None:
    r = Renderer()
    views = [hex_view(), square_view(), table_view()] * 4
    with ThreadPoolExecutor(max_workers=4) as pool:
        pngs = list(pool.map(r.render_png, views))
    assert pngs[:3] == pngs[3:6] == pngs[9:12]


def test_a_board_with_no_sides_or_counters_still_renders() -> None:
    board = Board(kind="square", key="square:empty-10x6", width=10, height=6)
    img = render_board(View(board=board, viewer=None, sides=()))
    assert img.width > img.height
    counter_of_unknown_side = Counter("x", "X", "nobody", (0.0, 0.0), facing=0.0)
    with_counter = render_board(View(board=board, viewer=None, sides=(), counters=(counter_of_unknown_side,)))
    x, y = full_frame(board).px((0.0, 0.0))
    assert with_counter.getpixel((round(x), round(y + 8))) == theme.NEUTRAL_SIDE  # drawn, in a neutral colour


def test_bad_side_colour_falls_back_instead_of_crashing() -> None:
    assert theme.hex_to_rgb("#zzzzzz") == theme.NEUTRAL_SIDE
    assert theme.hex_to_rgb("#fff") == (255, 255, 255)
    view = dataclasses.replace(square_view(), sides=(dataclasses.replace(SIDES[0], colour="crimson"), SIDES[1]))
    neutral = dataclasses.replace(square_view(), sides=(dataclasses.replace(SIDES[0], colour=theme.rgb_hex(theme.NEUTRAL_SIDE)), SIDES[1]))
    assert render_board(view).tobytes() == render_board(neutral).tobytes()


def test_zoom_wider_than_the_board_gives_the_whole_board() -> None:
    view = hex_view()
    assert render_board(view, zoom=("1404", 50)).size == render_board(view).size


def test_a_counter_or_overlay_at_a_non_finite_position_is_skipped_not_fatal() -> None:
    view = hex_view()
    nan = float("nan")
    broken = dataclasses.replace(
        view,
        counters=(*view.counters, Counter("bad", "Bad", "red", (nan, 0.0), facing=0.0)),
        overlays=(*view.overlays, Overlay("fire", ((0.0, 0.0), (float("inf"), 1.0)), text="lost")),
    )
    assert render_board(broken).tobytes() == render_board(view).tobytes()


def test_replay_frames_of_different_sizes_are_padded_to_one_size() -> None:
    data = render_replay([hex_view(), square_view()], ["hex", "square"])
    gif = Image.open(io.BytesIO(data))
    sizes = set()
    for i in range(getattr(gif, "n_frames", 1)):
        gif.seek(i)
        sizes.add(gif.size)
    assert len(sizes) == 1


def test_every_view_marker_has_its_own_badge() -> None:
    from games.core.view import MARKERS

    letters = [theme.MARKER_STYLE[m][0] for m in MARKERS]
    assert len(set(letters)) == len(letters)


def test_the_named_terrain_kinds_are_told_apart() -> None:
    kinds = ("deep", "shallow", "shoal", "land", "town")
    assert len({theme.terrain_colour(k) for k in kinds}) == len(kinds)


def test_zones_tint_only_their_cells_or_polygon() -> None:
    from games.core.view import Zone

    table = dataclasses.replace(table_view(), counters=(), overlays=())
    zoned = dataclasses.replace(table, zones=(Zone("Deploy", "red", polygon=((0.0, 0.0), (6.0, 0.0), (6.0, 18.0), (0.0, 18.0))),))
    frame = full_frame(table.board)
    box = _difference_box(render_board(table), render_board(zoned))
    x_edge = frame.px((6.0, 0.0))[0]
    assert box is not None and box[2] <= x_edge + 4  # nothing changes right of the zone's edge

    square = dataclasses.replace(square_view(), counters=(), overlays=())
    first_rank = dataclasses.replace(square, zones=(Zone("Start", "blue", cells=tuple((float(x), 0.0) for x in range(8))),))
    sframe = full_frame(square.board)
    sbox = _difference_box(render_board(square), render_board(first_rank))
    assert sbox is not None and sbox[1] >= sframe.px((0.0, 0.0))[1] - sframe.scale / 2 - 4  # only rank 1 changes


def _difference_box(a: Image.Image, b: Image.Image) -> tuple[int, int, int, int] | None:
    from PIL import ImageChops

    return ImageChops.difference(a, b).getbbox()


def test_boards_sharing_a_key_but_not_terrain_do_not_share_a_cached_picture() -> None:
    r = Renderer()
    plain = dataclasses.replace(square_view(), counters=(), overlays=())
    rocky = dataclasses.replace(plain, board=dataclasses.replace(plain.board, terrain={"a1": "rock"}))
    assert plain.board.key == rocky.board.key
    assert r.render_board(plain).tobytes() != r.render_board(rocky).tobytes()
    assert r.render_board(rocky).tobytes() == Renderer(cache=False).render_board(rocky).tobytes()
