"""Hex ironclads ("Memoir of Battle at Sea" style, book 003): sealed simultaneous fire, dice by arc."""

from games.hex_ironclads.ruleset import HexIronclads

__all__ = ["HexIronclads"]
