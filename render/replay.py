"""Animated replays, drawn and encoded one frame at a time so memory does not grow with the game.

Pillow's own animated-GIF writer keeps every frame until it saves; a long game then needs gigabytes.
``GifStream`` writes the GIF as it goes instead, keeping only the previous frame (to store just the
rectangle that changed, as Pillow's writer does). Frame data is encoded by Pillow's documented
``GifImagePlugin.getdata``; the file header is the few fixed bytes of the GIF89a format.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Sequence
from typing import BinaryIO

from PIL import GifImagePlugin, Image, ImageChops, ImageDraw

from games.core.view import View
from render import theme
from render.board import NamePlaces, Renderer
from render.fonts import font

MAX_REPLAY_BYTES = 8 * 1024 * 1024
CAPTION_BAND = 40
CAPTION_MAX_CHARS = 200  # more never fits a frame's width: cut before measuring


class GifStream:
    """An animated GIF written frame by frame to ``fp`` (a looping GIF89a with a global palette)."""

    def __init__(self, fp: BinaryIO, size: tuple[int, int], palette: bytes, *, loop: int = 0) -> None:
        self.fp = fp
        self.size = size
        self.palette = _padded(palette)
        self._prev: Image.Image | None = None
        self._prev_palette = b""
        self._start = fp.tell() if fp.seekable() else None
        w, h = size
        fp.write(b"GIF89a" + struct.pack("<HHBBB", w, h, 0xF7, 0, 0) + self.palette)  # 256-colour global table
        fp.write(b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\x00")

    def grow(self, size: tuple[int, int]) -> None:
        """Make the picture at least ``size`` (the next frame is stored whole). The size is in the
        file's header, rewritten in place (``fp`` must be seekable): frames already written keep
        their size, and what lies beyond them shows the viewer's background until this one."""
        if self._start is None:
            raise ValueError("a GIF can only grow when written to a seekable file")
        size = (max(size[0], self.size[0]), max(size[1], self.size[1]))
        if size == self.size:
            return
        end = self.fp.tell()
        self.fp.seek(self._start + 6)
        self.fp.write(struct.pack("<HH", *size))
        self.fp.seek(end)
        self.size, self._prev = size, None

    def add(self, frame: Image.Image, duration_ms: int) -> None:
        """Append a palette ("P") frame of the stream's size."""
        if frame.mode != "P" or frame.size != self.size:
            raise ValueError(f"a frame must be a {self.size} palette image, got {frame.mode} {frame.size}")
        palette = _padded(bytes(frame.getpalette() or b""))
        box: tuple[int, int, int, int] = (0, 0, *self.size)
        part, extra = frame, {}
        if self._prev is not None and palette == self._prev_palette:
            # same colours as the frame before: store only the rectangle whose palette indices changed,
            # and in it, the pixels that did not change as a colour this part does not use, marked
            # transparent (the frame before shows through): long runs of one index, which LZW packs
            # into a few bytes, where names and counters moved all over the board
            diff = ImageChops.difference(_indices(self._prev), _indices(frame))
            box = diff.getbbox() or (0, 0, 1, 1)
            part = frame.crop(box)
            unused = _unused_index(part)
            if unused is not None:
                same = diff.crop(box).point(_SAME)
                part.paste(unused, mask=same)
                extra = {"transparency": unused}
        chunks = GifImagePlugin.getdata(
            part, offset=box[:2], duration=duration_ms, disposal=1, include_color_table=palette != self.palette,
            **extra,
        )
        for chunk in chunks:
            self.fp.write(chunk)
        self._prev, self._prev_palette = frame, palette

    def close(self) -> None:
        self.fp.write(b";")


_SAME = [255] + [0] * 255  # a difference of indices of 0 (unchanged) -> the mask's "on"


def _unused_index(part: Image.Image) -> int | None:
    """A palette index no pixel of ``part`` uses (to mark unchanged pixels transparent), or None."""
    used = {index for _, index in part.getcolors(256) or ()}
    return next((i for i in range(256) if i not in used), None)


def _padded(palette: bytes) -> bytes:
    return palette[:768].ljust(768, b"\0")


def _indices(im: Image.Image) -> Image.Image:
    """A palette image's raw indices as a greyscale image (so a difference compares indices, not colours)."""
    return Image.frombytes("L", im.size, im.tobytes())


def fit_caption(caption: str, width: float, size: float = 19) -> str:
    """The caption, cut with an ellipsis to fit ``width`` pixels: a binary search over a bounded
    prefix, so a 6,000-character order costs a dozen measurements, not thousands."""
    f = font(size, bold=True)
    text = caption.replace("\n", " ")[:CAPTION_MAX_CHARS]
    if f.getlength(text) <= width:
        return text
    lo, hi = 0, len(text)  # the longest prefix that fits with the ellipsis lies in [lo, hi)
    while lo < hi - 1:
        mid = (lo + hi) // 2
        if f.getlength(text[:mid] + "\u2026") <= width:
            lo = mid
        else:
            hi = mid
    return text[:lo] + "\u2026" if lo else ""


def captioned(img: Image.Image, caption: str, index: int, total: int, size: tuple[int, int] | None = None) -> Image.Image:
    """The board with a caption band on top: the activation's text left, ``index/total`` right;
    on a picture of ``size`` when given (a replay's canvas: the strip's colour fills the rest)."""
    out = Image.new("RGB", size or (img.width, img.height + CAPTION_BAND), theme.STRIP)
    out.paste(img, (0, CAPTION_BAND))
    d = ImageDraw.Draw(out)
    counter = f"{index + 1}/{total}"
    f = font(19, bold=True)
    text = fit_caption(caption, img.width - f.getlength(counter) - 40)
    d.text((12, CAPTION_BAND / 2), text, font=f, fill=theme.TITLE_TEXT, anchor="lm")
    d.text((img.width - 12, CAPTION_BAND / 2), counter, font=f, fill=theme.STRIP_DIM, anchor="rm")
    return out


def render_replay(
    renderer: Renderer,
    views: Sequence[View],
    captions: Sequence[str],
    *,
    scale: float | None = None,
    frame_ms: int = 1600,
    last_frame_ms: int = 4000,
    max_bytes: int = MAX_REPLAY_BYTES,
) -> bytes:
    """An animated GIF, one frame per view with its caption, under ``max_bytes``: drawn and encoded
    one frame at a time; if the result would be too large it is drawn again, smaller."""
    if not views:
        raise ValueError("a replay needs at least one view")
    if len(captions) != len(views):
        raise ValueError(f"a replay needs one caption per view: got {len(views)} views and {len(captions)} captions")
    factor = 1.0
    while True:
        data, projected = _encode(renderer, views, captions, scale, factor, frame_ms, last_frame_ms, max_bytes)
        if data is not None:
            return data
        if factor < 0.2:
            raise ValueError(f"replay of {len(views)} frames does not fit in {max_bytes} bytes even at {factor:.2f} scale")
        # aim under the limit at once rather than shrink by steps (each attempt draws its frames
        # anew); measured, a replay's size falls about as its width does, not as its area
        factor *= min(0.9, 0.95 * max_bytes / projected)


# how a frame is shrunk: Hamming takes half Lanczos's time on a measured-table frame (15 vs 29 ms), and
# names shrunk to 0.64 of their size read the same either way (compared side by side)
SHRINK = Image.Resampling.HAMMING
PROJECT_AFTER = 8  # frames encoded before their size so far is trusted to project the whole GIF's
# a projection is a little low as often as high: one within 3% of the limit is given up too, rather than
# drawn to its end and found just over
HEADROOM = 0.97
# room under the first frame for the status strip to grow (a replay's strip gains lines as the game
# goes on: up to a quarter of the picture in measured games); a taller frame grows the picture
HEADROOM_SHARE = 0.06


def _encode(
    renderer: Renderer,
    views: Sequence[View],
    captions: Sequence[str],
    scale: float | None,
    factor: float,
    frame_ms: int,
    last_frame_ms: int,
    max_bytes: int,
) -> tuple[bytes | None, float]:
    """One attempt at ``factor`` of full size: the GIF, or None and the size it would have had as
    soon as it passes ``max_bytes``, or as soon as the frames so far project it past (the
    first frame is whole, the others only what changed: the projection counts them apart)."""
    buf = io.BytesIO()
    stream: GifStream | None = None
    first = 0
    names = NamePlaces()  # this replay's own: a name whose counter did not move stays put between frames
    drawn: tuple[View, Image.Image, Image.Image] | None = None  # the last board drawn, reused while its View is
    for i, (view, caption) in enumerate(zip(views, captions, strict=True)):
        if drawn is not None and drawn[0] == view:  # an order that changed nothing a spectator sees
            img, palette = drawn[1], drawn[2]
        else:
            img, palette = renderer._render(view, scale=scale, zoom=None, names=names)
            if factor != 1.0:
                img = img.resize((max(1, round(img.width * factor)), max(1, round(img.height * factor))), SHRINK)
            drawn = (view, img, palette)
        # the picture grows with the status strip under the board (more lines), never shrinks: a
        # shorter frame is padded, so nothing is scaled and a frame stores only what changed
        needed = (img.width, img.height + CAPTION_BAND)
        if stream is None:
            stream = GifStream(buf, (needed[0], needed[1] + round(needed[1] * HEADROOM_SHARE)), _palette_bytes(palette))
        elif needed[0] > stream.size[0] or needed[1] > stream.size[1]:
            stream.grow(needed)
        frame = captioned(img, caption, i, len(views), stream.size)
        # each board's fixed palette: fast, and frames of one board share it, so only changes are stored
        indexed = frame.quantize(palette=palette, dither=Image.Dither.NONE)
        stream.add(indexed, last_frame_ms if i == len(views) - 1 else frame_ms)
        if i == 0:
            first = buf.tell()
        projected = first + (buf.tell() - first) / i * (len(views) - 1) if i else float(buf.tell())
        if buf.tell() > max_bytes or (i + 1 >= PROJECT_AFTER and projected > max_bytes * HEADROOM):
            return None, max(projected, buf.tell())
    assert stream is not None
    stream.close()
    return (buf.getvalue(), buf.tell()) if buf.tell() <= max_bytes else (None, buf.tell())


def _palette_bytes(palette: Image.Image) -> bytes:
    return bytes(palette.getpalette() or b"")
