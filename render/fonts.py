"""The shipped DejaVu fonts, loaded by path so a fresh machine without system fonts still draws text."""

from __future__ import annotations

import threading
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parents[1] / "data" / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

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


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    return font(size, bold=bold).getlength(text)
