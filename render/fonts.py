"""The shipped DejaVu fonts, loaded by path so a fresh machine without system fonts still draws text."""

from __future__ import annotations

import math
import threading
from collections.abc import Hashable
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parents[1] / "data" / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

# Set while a ``Renderer(cache=False)`` draws (the benchmark's baseline): text is then rasterised
# afresh every time too. Only the opened font files stay cached.
UNCACHED: ContextVar[bool] = ContextVar("render_uncached", default=False)

# One cache per thread: opening a TrueType file costs about a millisecond, and a FreeType face is
# not safe to share between threads that render at the same time (renders run in worker threads).
_local = threading.local()


def font(size: float, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped face at a pixel size (cached per thread)."""
    cache: dict[tuple[int, bool], ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = {}
        _local.fonts = cache
    key = (max(6, round(size)), bold)
    f = cache.get(key)
    if f is None:
        f = ImageFont.truetype(str(BOLD if bold else REGULAR), key[0])
        cache[key] = f
    return f



class _KeptMasks(ImageFont.FreeTypeFont):
    """The face whose rasterised lines are kept: ``ImageDraw.text`` with it draws the very masks it
    would rasterise (FreeType gives the same mask for the same arguments), so the pixels are the
    same; only greyscale masks are kept (the colour-font path changes its mask in place)."""

    MASKS_KEPT: ClassVar[int] = 512

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.masks: dict[Hashable, tuple[Any, tuple[int, int]]] = {}

    def getmask2(self, text: str | bytes, mode: str = "", *args: Any,
                 **kwargs: Any) -> tuple[Any, tuple[int, int]]:
        if mode not in ("L", "1"):
            return super().getmask2(text, mode, *args, **kwargs)
        try:
            key: Hashable = (text, mode, args, tuple(sorted(kwargs.items())))
            kept = self.masks.get(key)
        except TypeError:  # a list of features: not a key
            return super().getmask2(text, mode, *args, **kwargs)
        if kept is None:
            kept = super().getmask2(text, mode, *args, **kwargs)
            if len(self.masks) >= self.MASKS_KEPT:
                self.masks.clear()
            self.masks[key] = kept
        return kept


def kept_font(size: float, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """``font``, keeping what it rasterises (for text drawn again in every picture, the same words
    in the same place: a table's captions); plain ``font`` while a ``Renderer(cache=False)`` draws."""
    if UNCACHED.get():
        return font(size, bold=bold)
    cache: dict[tuple[int, bool], _KeptMasks] | None = getattr(_local, "kept", None)
    if cache is None:
        cache = {}
        _local.kept = cache
    key = (max(6, round(size)), bold)
    f = cache.get(key)
    if f is None:
        f = _KeptMasks(str(BOLD if bold else REGULAR), key[0])
        cache[key] = f
    return f


@lru_cache(maxsize=2048)
def _text_sprite(text: str, size: int, bold: bool, fill: tuple[int, int, int], stroke: int, stroke_fill: tuple[int, int, int]) -> tuple[Image.Image, int, int]:
    """A line of text on a transparent image, and where its drawing origin (Pillow's "la") lies."""
    f = font(size, bold=bold)
    left, top, right, bottom = f.getbbox(text, stroke_width=stroke)
    ox, oy = 1 - math.floor(left), 1 - math.floor(top)
    img = Image.new("RGBA", (max(1, math.ceil(right) + ox + 1), max(1, math.ceil(bottom) + oy + 1)), (*fill, 0))
    ImageDraw.Draw(img).text((ox, oy), text, font=f, fill=fill, stroke_width=stroke, stroke_fill=stroke_fill)
    return img, ox, oy


def paste_text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: float,
    *,
    bold: bool = False,
    fill: tuple[int, int, int] = (255, 255, 255),
    anchor: str = "mm",
    stroke: int = 0,
    stroke_fill: tuple[int, int, int] = (0, 0, 0),
) -> None:
    """Like ``ImageDraw.text`` on an RGBA image, from a cache of rendered lines: a counter's name
    and badge letters are the same in every look it takes, so each is rasterised once."""
    if not text:
        return
    px = max(6, round(size))
    make = _text_sprite.__wrapped__ if UNCACHED.get() else _text_sprite
    sprite, ox, oy = make(text, px, bold, fill, stroke, stroke_fill)
    f = font(px, bold=bold)
    anchored = f.getbbox(text, anchor=anchor)
    plain = f.getbbox(text)
    # the drawing origin that puts the anchor on xy, then the sprite's corner from the origin
    x = round(xy[0] + anchored[0] - plain[0]) - ox
    y = round(xy[1] + anchored[1] - plain[1]) - oy
    src = sprite
    if x < 0 or y < 0:  # alpha_composite wants a destination inside the image
        src = sprite.crop((max(0, -x), max(0, -y), sprite.width, sprite.height))
        x, y = max(0, x), max(0, y)
    if x < img.width and y < img.height:
        img.alpha_composite(src.crop((0, 0, min(src.width, img.width - x), min(src.height, img.height - y))), (x, y))
