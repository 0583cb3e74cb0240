"""The slot for the book's reference sheets, which the text does not contain.

Owners of the printed sheets drop TOML files into ``days_of_iron/reference/`` of a data pack
(the shipped folder holds only a README). Two kinds are understood:

* ``kind = "morale"``: the morale tests of 17.2. Each test adds its factors (the unit's class,
  its commanding General's quality, and the factors the player names) and rolls 1d6; the unit
  passes when the die is HIGHER than the total.
* ``kind = "table"``: a dice table with columns (e.g. a shooting chart): roll the table's dice,
  add a modifier, read the row whose range holds the total in the named column.

The format is documented in ``data/days_of_iron/reference/README.md``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

from games.core.data import Record, listing, load, on_reload
from games.core.dice import DiceParser
from games.core.errors import DataError

REFERENCE_DIR = "days_of_iron/reference"
KINDS = ("morale", "table")


@dataclass(frozen=True)
class MoraleTest:
    id: str
    name: str
    base: int
    by_class: tuple[int, ...]  # Class 1-4, empty when class does not count
    by_staff: dict[str, int]  # inept/capable/exceptional/none -> factor
    factors: dict[str, int]
    on_pass: str
    on_fail: str


@dataclass(frozen=True)
class DiceTable:
    id: str
    name: str
    dice: str
    columns: tuple[str, ...]
    rows: tuple[tuple[int, int, tuple[str, ...]], ...]  # (low, high, one result per column)

    def lookup(self, total: int, column: int) -> str:
        if total < self.rows[0][0]:
            return self.rows[0][2][column]
        for low, high, results in self.rows:
            if low <= total <= high:
                return results[column]
        return self.rows[-1][2][column]


@dataclass(frozen=True)
class Reference:
    """Everything loaded from the reference folder (empty in the shipped game)."""

    morale: dict[str, MoraleTest]
    tables: dict[str, DiceTable]
    sources: tuple[str, ...]  # file names, for help and the status

    @property
    def empty(self) -> bool:
        return not self.morale and not self.tables


def _morale(rec: Record, test_id: str) -> MoraleTest:
    by_class: tuple[int, ...] = ()
    if rec.has("class"):
        values = rec.list("class")
        if len(values) != 4 or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise DataError(f"{rec.file}: key '{rec.prefix}class': expected four integers (Class 1-4), got {values!r}")
        by_class = tuple(values)
    by_staff: dict[str, int] = {}
    if rec.has("staff"):
        staff = rec.table("staff")
        for key in staff:
            if key not in ("inept", "capable", "exceptional", "none"):
                raise DataError(f"{rec.file}: key '{rec.prefix}staff.{key}': expected inept, capable, exceptional or none")
            by_staff[key] = staff.int(key)
    factors: dict[str, int] = {}
    if rec.has("factors"):
        table = rec.table("factors")
        factors = {key.casefold(): table.int(key) for key in table}
    return MoraleTest(
        id=test_id,
        name=rec.opt_str("name", test_id),
        base=rec.opt_int("base", 0),
        by_class=by_class,
        by_staff=by_staff,
        factors=factors,
        on_pass=rec.opt_str("pass", "passed"),
        on_fail=rec.opt_str("fail", "failed"),
    )


def _table(rec: Record, table_id: str) -> DiceTable:
    dice = rec.str("dice")
    try:
        DiceParser().parse(dice)
    except ValueError as exc:
        raise DataError(f"{rec.file}: key '{rec.prefix}dice': {exc}") from exc
    columns = tuple(rec.str_list("columns"))
    if not columns:
        raise DataError(f"{rec.file}: key '{rec.prefix}columns': expected at least one column")
    rows = []
    for row in rec.tables("rows"):
        span = row.list("roll")
        if len(span) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in span) or span[0] > span[1]:
            raise DataError(f"{row.file}: key '{row.prefix}roll': expected [low, high], got {span!r}")
        results = tuple(row.str_list("results"))
        if len(results) != len(columns):
            raise DataError(f"{row.file}: key '{row.prefix}results': expected {len(columns)} results (one per column)")
        rows.append((span[0], span[1], results))
    if not rows:
        raise DataError(f"{rec.file}: key '{rec.prefix}rows': expected at least one row")
    rows.sort()
    for (_, high, _), (low, _, _) in itertools.pairwise(rows):
        if low != high + 1:
            raise DataError(f"{rec.file}: key '{rec.prefix}rows': roll ranges must follow on without gaps or overlaps")
    return DiceTable(table_id, rec.opt_str("name", table_id), dice, columns, tuple(rows))


@lru_cache(maxsize=1)
def reference() -> Reference:
    """Every reference file of the active data packs (none ship with the game), read once per packs."""
    morale: dict[str, MoraleTest] = {}
    tables: dict[str, DiceTable] = {}
    sources: list[str] = []
    for path in listing(REFERENCE_DIR):
        doc = load(path)
        kind = doc.str("kind", KINDS)
        sources.append(path.rsplit("/", 1)[1])
        if kind == "morale":
            for test_id, rec in doc.table("tests").items():
                morale[test_id.casefold()] = _morale(rec, test_id.casefold())
        else:
            table_id = doc.opt_str("id", path.rsplit("/", 1)[1].removesuffix(".toml")).casefold()
            tables[table_id] = _table(doc, table_id)
    return Reference(morale, tables, tuple(sources))


on_reload(reference.cache_clear)
