"""Days of Iron (book 002): a Franco-Prussian miniatures game.

On the measured table (the default) the bot sets out, draws and moves the units by the players'
orders; with ``board=tape`` the game is played on a physical table with free measurement. Either
way the bot keeps the orders of battle, makes the book's rolls, seals hidden and off-board records,
and scores the end.
The common skeleton (``docs/adding-a-system.md``): ``state.py`` (``State``), ``orders.py`` (typed
orders), ``rules/`` (one module per book section), ``view.py``, ``ruleset.py`` (the adapter, where
it registers), ``data.py`` and ``schema.py`` (the TOML it reads).
"""

from games.days_of_iron.ruleset import DaysOfIron

__all__ = ["DaysOfIron"]
