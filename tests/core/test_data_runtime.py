"""Data-pack files are validated before use, also when added or changed while the bot runs
(issue 26): a file is read again when it changed (size or time, then content hash), a changed or
new file is used only if it is at most MAX_FILE_BYTES, valid TOML and passes its schema, and
otherwise the last good version stays in use; a new broken file is left out of the tools' dice."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from games.core import data
from games.core.data import MAX_FILE_BYTES, listing, load, set_data_packs
from games.core.errors import DataError
from games.core.schema import usable
from games.tools import custom_dice

WritePack = Callable[[str, str, str], Path]
GOOD_DIE = 'source = "house"\nname = "{name}"\nfaces = ["A", "B"]\n'


def rewrite(path: Path, text: str) -> None:
    """Change a file as an owner would, and make sure its time differs from the last read."""
    path.write_text(text, encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))


@pytest.fixture
def pack(write_pack: WritePack, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setattr(data, "CHECK_EVERY", 0.0)  # the bot looks at most once a second; here at every load
    root = write_pack("owner", "dice/fate.toml", GOOD_DIE.format(name="fate"))
    set_data_packs([root])
    yield root
    set_data_packs([])


def test_a_broken_die_added_while_running_is_left_out_not_fatal(pack: Path) -> None:
    assert set(custom_dice()) == {"oak", "fate"}
    (pack / "dice" / "bad.toml").write_text('name = "bad"\nfaces = [', encoding="utf-8")  # not TOML
    (pack / "dice" / "odd.toml").write_text('source = "house"\nname = "odd"\nfaces = ["A"]\nweight = 3\n',
                                            encoding="utf-8")  # a key no die has
    assert set(custom_dice()) == {"oak", "fate"}  # the old code: every roll failed on bad.toml
    assert "dice/bad.toml" in listing("dice") and "dice/bad.toml" not in usable("dice")  # the start-up check sees it
    assert "dice/odd.toml" not in usable("dice")
    with pytest.raises(DataError, match=r"data pack 'owner': dice/bad.toml: not valid TOML"):
        load("dice/bad.toml")


def test_a_bad_change_keeps_the_last_good_version_and_a_good_one_is_taken(pack: Path) -> None:
    path = pack / "dice" / "fate.toml"
    assert load("dice/fate.toml").doc["faces"] == ["A", "B"]
    rewrite(path, 'source = "house"\nname = "fate"\nfaces = "AB"\n')  # faces must be a list
    assert load("dice/fate.toml").doc["faces"] == ["A", "B"]
    rewrite(path, 'source = "house"\nname = "fate"\nfaces = ["A", "X"]\nweight = 3\n')  # a key no die has
    assert load("dice/fate.toml").doc["faces"] == ["A", "B"]
    rewrite(path, 'source = "house"\nname = "fate"\nfaces = ["A", "B", "C"]\n')
    assert load("dice/fate.toml").doc["faces"] == ["A", "B", "C"]  # changed and good: in use at once


def test_size_is_limited_per_file_at_start_and_at_run_time(pack: Path) -> None:
    big = 'source = "house"\nname = "huge"\nfaces = ["A"]\n' + "# filler\n" * (MAX_FILE_BYTES // 9 + 1)
    (pack / "dice" / "huge.toml").write_text(big, encoding="utf-8")
    with pytest.raises(DataError, match=rf"dice/huge.toml: is [\d,]+ bytes; a data file may be at most {MAX_FILE_BYTES:,}"):
        load("dice/huge.toml")
    assert "huge" not in custom_dice()
    path = pack / "dice" / "fate.toml"
    load("dice/fate.toml")
    rewrite(path, 'source = "house"\nname = "fate"\nfaces = ["Z"]\n' + "# filler\n" * (MAX_FILE_BYTES // 9 + 1))
    assert load("dice/fate.toml").doc["faces"] == ["A", "B"]  # the last good one


def test_an_unchanged_file_is_not_read_again(pack: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    load("dice/fate.toml")
    reads: list[str] = []
    real = data.parse_toml
    monkeypatch.setattr(data, "parse_toml", lambda raw, name: reads.append(name) or real(raw, name))
    load("dice/fate.toml")
    path = pack / "dice" / "fate.toml"
    rewrite(path, path.read_text(encoding="utf-8"))  # touched, same content: the hash says unchanged
    load("dice/fate.toml")
    assert reads == []
