"""The streaming GIF writer: what it writes decodes to exactly the frames given, and captions are
fitted with a bounded number of measurements."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from render import replay
from render.fonts import font
from render.replay import GifStream, captioned, fit_caption


def _frames() -> list[Image.Image]:
    base = Image.new("RGB", (64, 48), (20, 40, 80))
    frames = [base]
    moved = base.copy()
    ImageDraw.Draw(moved).rectangle((10, 10, 20, 20), fill=(200, 30, 30))
    frames += [moved, moved.copy()]  # a change, then no change at all
    other = moved.copy()
    ImageDraw.Draw(other).ellipse((30, 5, 60, 40), fill=(240, 240, 0))
    frames.append(other)
    return frames


def test_streamed_frames_decode_to_the_frames_written() -> None:
    frames = _frames()
    board_palette = Image.new("P", (1, 1))
    board_palette.putpalette([20, 40, 80, 200, 30, 30, 240, 240, 0] + [0] * (768 - 9))
    second_palette = Image.new("P", (1, 1))
    second_palette.putpalette([240, 240, 0, 200, 30, 30, 20, 40, 80] + [9] * (768 - 9))
    # the last frame uses another palette (a different board): it must carry its own colour table
    indexed = [f.quantize(palette=board_palette, dither=Image.Dither.NONE) for f in frames[:-1]]
    indexed.append(frames[-1].quantize(palette=second_palette, dither=Image.Dither.NONE))
    buf = io.BytesIO()
    stream = GifStream(buf, (64, 48), bytes(indexed[0].getpalette() or b""))
    for im in indexed:
        stream.add(im, 500)
    stream.close()
    with Image.open(io.BytesIO(buf.getvalue())) as gif:
        assert gif.n_frames == len(frames) and gif.info.get("loop") == 0
        for i, expected in enumerate(frames):
            gif.seek(i)
            assert gif.convert("RGB").tobytes() == expected.tobytes(), f"frame {i}"


def test_a_frame_of_the_wrong_size_or_mode_is_refused() -> None:
    stream = GifStream(io.BytesIO(), (8, 8), bytes(768))
    for bad in (Image.new("RGB", (8, 8)), Image.new("P", (9, 8))):
        try:
            stream.add(bad, 100)
        except ValueError as exc:
            assert "palette image" in str(exc)
        else:
            raise AssertionError("accepted a bad frame")


def test_a_huge_caption_is_fitted_with_few_measurements(monkeypatch: object) -> None:
    calls = 0
    real = font(19, bold=True)

    class Counting:
        def getlength(self, text: str) -> float:
            nonlocal calls
            calls += 1
            return float(real.getlength(text))

        def __getattr__(self, name: str) -> object:
            return getattr(real, name)

    monkeypatch.setattr(replay, "font", lambda size, bold=False: Counting())  # type: ignore[attr-defined]
    caption = "Huascar fire Esmeralda " * 300  # 6,900 characters
    text = fit_caption(caption, 500)
    assert calls <= 16
    assert text.endswith("\u2026") and real.getlength(text) <= 500
    longer = caption[: len(text)] + "\u2026"  # one more character of the caption no longer fits
    assert real.getlength(longer) > 500
    img = captioned(Image.new("RGB", (600, 300)), caption, 0, 1)
    assert img.size == (600, 340)


def test_a_short_caption_is_kept_whole() -> None:
    assert fit_caption("3. Peru: {0}", 500) == "3. Peru: {0}"


def test_a_stream_grows_and_later_frames_decode_whole() -> None:
    """A frame taller than the picture so far grows it (the header's size is rewritten): it and the
    frames after it decode to exactly what was written; the earlier frame keeps its own rows."""
    small = Image.new("RGB", (40, 30), (20, 40, 80))
    tall = Image.new("RGB", (40, 50), (20, 40, 80))
    ImageDraw.Draw(tall).rectangle((5, 35, 30, 45), fill=(200, 30, 30))
    after = tall.copy()
    ImageDraw.Draw(after).rectangle((0, 0, 8, 8), fill=(240, 240, 0))
    pal = Image.new("P", (1, 1))
    pal.putpalette([20, 40, 80, 200, 30, 30, 240, 240, 0] + [0] * (768 - 9))
    buf = io.BytesIO()
    stream = GifStream(buf, small.size, bytes(pal.getpalette() or b""))
    stream.add(small.quantize(palette=pal, dither=Image.Dither.NONE), 100)
    stream.grow(tall.size)
    assert stream.size == (40, 50)
    for im in (tall, after):
        stream.add(im.quantize(palette=pal, dither=Image.Dither.NONE), 100)
    stream.close()
    with Image.open(io.BytesIO(buf.getvalue())) as gif:
        assert gif.size == (40, 50) and getattr(gif, "n_frames", 1) == 3
        gif.seek(0)
        assert gif.convert("RGB").crop((0, 0, 40, 30)).tobytes() == small.tobytes()
        for i, expected in ((1, tall), (2, after)):
            gif.seek(i)
            assert gif.convert("RGB").tobytes() == expected.tobytes(), f"frame {i}"


def test_a_stream_written_to_an_unseekable_file_cannot_grow() -> None:
    class Pipe(io.BytesIO):
        def seekable(self) -> bool:
            return False

    stream = GifStream(Pipe(), (8, 8), bytes(768))
    try:
        stream.grow((8, 9))
    except ValueError as exc:
        assert "seekable" in str(exc)
    else:
        raise AssertionError("grew an unseekable stream")


def test_a_replay_whose_status_strip_grows_keeps_every_board_at_full_size() -> None:
    """Later frames with more status lines are taller than the set-up's: the picture grows and
    each board is stored as drawn (they were scaled down to the first frame's height, so every
    pixel changed, every frame was stored whole and long games overflowed into a second drawing)."""
    import dataclasses

    from render.board import Renderer
    from render.replay import CAPTION_BAND, render_replay
    from tests.render.scenes import hex_view

    base = hex_view()
    views = [dataclasses.replace(base, status=base.status[:1]),
             dataclasses.replace(base, status=base.status + tuple(f"Line {i} of a longer status." for i in range(6)))]
    r = Renderer()
    data = render_replay(r, views, ["set-up", "later"])
    last, palette = Renderer()._render(views[-1], scale=None, zoom=None)
    expected = last.quantize(palette=palette, dither=Image.Dither.NONE).convert("RGB")
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.size == (last.width, last.height + CAPTION_BAND)
        gif.seek(1)
        shown = gif.convert("RGB").crop((0, CAPTION_BAND, last.width, CAPTION_BAND + last.height))
        assert shown.tobytes() == expected.tobytes()


def test_a_frame_that_shows_nothing_new_reuses_the_board_drawn() -> None:
    import dataclasses

    from render.board import Renderer
    from render.replay import render_replay
    from tests.render.scenes import hex_view

    base = hex_view()
    views = [base, base, dataclasses.replace(base, title="Turn 3"), dataclasses.replace(base, title="Turn 3")]
    r = Renderer()
    drawn = 0
    real = r._render

    def counted(*args: object, **kw: object) -> object:
        nonlocal drawn
        drawn += 1
        return real(*args, **kw)  # type: ignore[arg-type]

    r._render = counted  # type: ignore[method-assign,assignment]
    data = render_replay(r, views, ["a", "b", "c", "d"])
    assert drawn == 2
    with Image.open(io.BytesIO(data)) as gif:
        assert getattr(gif, "n_frames", 1) == 4
