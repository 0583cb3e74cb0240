"""Golden-image comparison with a small tolerance, a side-by-side on failure, and a regenerate switch.

Set ``REGEN_GOLDEN=1`` to rewrite the goldens from the current renderer (then look at them!).
"""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"
FAILURES = HERE / "failures"
REGENERATE = os.environ.get("REGEN_GOLDEN", "") not in ("", "0")

# A pixel "differs" when a channel moves by more than this; a few may (font hinting, rounding).
CHANNEL_TOLERANCE = 40
MAX_DIFFERING_FRACTION = 0.002


def differing_fraction(a: Image.Image, b: Image.Image) -> float:
    if a.size != b.size:
        return 1.0
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    worst = ImageChops.lighter(ImageChops.lighter(diff.getchannel("R"), diff.getchannel("G")), diff.getchannel("B"))
    hist = worst.histogram()
    return sum(hist[CHANNEL_TOLERANCE + 1 :]) / (a.width * a.height)


def side_by_side(expected: Image.Image, actual: Image.Image) -> Image.Image:
    w = expected.width + actual.width + 10
    h = max(expected.height, actual.height) + 24
    out = Image.new("RGB", (w, h), (255, 0, 255))
    out.paste(expected.convert("RGB"), (0, 24))
    out.paste(actual.convert("RGB"), (expected.width + 10, 24))
    d = ImageDraw.Draw(out)
    d.text((4, 4), "expected", fill=(0, 0, 0))
    d.text((expected.width + 14, 4), "actual", fill=(0, 0, 0))
    return out


def check_golden(name: str, png: bytes) -> None:
    path = GOLDEN / f"{name}.png"
    actual = Image.open(io.BytesIO(png))
    actual.load()
    if REGENERATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(png)
        pytest.skip(f"regenerated {path.name}")
    assert path.exists(), f"no golden {path}; run with REGEN_GOLDEN=1 and look at the result"
    expected = Image.open(path)
    expected.load()
    frac = differing_fraction(expected, actual)
    if frac > MAX_DIFFERING_FRACTION:
        FAILURES.mkdir(exist_ok=True)
        out = FAILURES / f"{name}.png"
        side_by_side(expected, actual).save(out)
        pytest.fail(f"{name}: {frac:.2%} of pixels differ (size {expected.size} vs {actual.size}); expected|actual saved to {out}")
