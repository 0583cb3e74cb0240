"""The shipped DejaVu fonts, loaded by path so a fresh machine without system fonts still draws text."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parents[1] / "data" / "fonts"
REGULAR = FONT_DIR / "DejaVuSans.ttf"
BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"


@lru_cache(maxsize=128)
def font(size: float, *, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped face at a pixel size (cached: opening a TrueType file costs about a millisecond)."""
    return ImageFont.truetype(str(BOLD if bold else REGULAR), max(6, round(size)))


def text_width(text: str, size: float, *, bold: bool = False) -> float:
    return font(size, bold=bold).getlength(text)
