"""Book section 17 (phases of play): a roll on one of the owner's dice tables from the reference
sheets (shooting 17.3, casualties in close assault 17.5.2...), which the text does not contain."""

from __future__ import annotations

from games.core.dice import DiceParser
from games.core.errors import IllegalOrder, resolve_name
from games.core.rng import Rng
from games.core.ruleset import Event, public
from games.days_of_iron.data import reference
from games.days_of_iron.orders import Table


def check_tables_loaded() -> None:
    """Dice tables (17.3, 17.5) need the owner's sheets loaded as a data pack."""
    if not reference().tables:
        raise IllegalOrder("no dice tables are loaded; the shipped game has none.",
                           hint="Load your reference sheets as a data pack (see the help).")


def check_table(order: Table) -> Table:
    """The column named (a one-column table needs none); a modifier of 0 is no modifier."""
    table = reference().tables[order.table]
    if len(table.columns) == 1 and order.column is None:
        column = table.columns[0]
    else:
        column = resolve_name(order.column or "", {c: c for c in table.columns}, "column")
    return Table(order.table, column, order.modifier or None)


def roll_table(order: Table, rng: Rng) -> list[Event]:
    """Roll the table's dice, add the modifier, read the row in the column (17.3, 17.5)."""
    table = reference().tables[order.table]
    column = table.columns.index(order.column or "")
    modifier = order.modifier or 0
    dice = DiceParser().roll(table.dice, rng)
    total = dice.total + modifier
    result = table.lookup(total, column)
    mod = f" {modifier:+d} = {total}" if modifier else ""
    return [public(f"**{table.name}** ({table.columns[column]}): {dice.describe()}{mod}: {result}", reveals=True)]
