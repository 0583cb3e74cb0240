"""The golden comparison itself: small differences pass, real ones fail and leave expected|actual."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from tests.render import golden


def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


@pytest.fixture
def dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(golden, "GOLDEN", tmp_path / "golden")
    monkeypatch.setattr(golden, "FAILURES", tmp_path / "failures")
    monkeypatch.setattr(golden, "REGENERATE", False)
    (tmp_path / "golden").mkdir()
    base = Image.new("RGB", (200, 100), (30, 86, 134))
    ImageDraw.Draw(base).ellipse((20, 20, 80, 80), fill=(200, 40, 40))
    base.save(tmp_path / "golden" / "scene.png")
    return tmp_path


def test_a_few_pixels_of_difference_pass(dirs: Path) -> None:
    img = Image.open(dirs / "golden" / "scene.png").convert("RGB")
    img.putpixel((5, 5), (255, 255, 255))  # one pixel: 0.005% of the image
    golden.check_golden("scene", _png(img))
    assert not (dirs / "failures").exists()


def test_a_real_difference_fails_and_saves_expected_beside_actual(dirs: Path) -> None:
    img = Image.open(dirs / "golden" / "scene.png").convert("RGB")
    ImageDraw.Draw(img).rectangle((120, 20, 180, 80), fill=(255, 255, 255))
    with pytest.raises(pytest.fail.Exception, match="differ"):
        golden.check_golden("scene", _png(img))
    saved = Image.open(dirs / "failures" / "scene.png")
    assert saved.width == 2 * 200 + 10


def test_a_different_size_fails(dirs: Path) -> None:
    with pytest.raises(pytest.fail.Exception):
        golden.check_golden("scene", _png(Image.new("RGB", (100, 100))))


def test_regenerate_writes_the_golden(dirs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(golden, "REGENERATE", True)
    with pytest.raises(pytest.skip.Exception):
        golden.check_golden("new", _png(Image.new("RGB", (10, 10), (1, 2, 3))))
    assert Image.open(dirs / "golden" / "new.png").getpixel((0, 0)) == (1, 2, 3)
