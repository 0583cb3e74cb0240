"""Hex ironclads ("Memoir of Battle at Sea" style, book 003): sealed simultaneous fire, dice by arc.

The model system (``docs/adding-a-system.md``): ``state.py`` (``State``), ``orders.py`` (typed
orders), ``rules/`` (one module per book section), ``view.py``, ``ruleset.py`` (the adapter, where
it registers), ``data.py`` and ``schema.py`` (the TOML it reads).
"""

from games.hex_ironclads.ruleset import HexIronclads

__all__ = ["HexIronclads"]
