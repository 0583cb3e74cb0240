"""Iron and Fire (Against the Odds): the Huáscar and the naval war of the Pacific, 1879.

Registered as ``iron-and-fire``. Where the book is silent or unclear, the rulings are written
out in ``data/iron_and_fire/RULINGS.md``, each with the test that pins it; where a ruling is a real
choice it is an option (``once_per``, ``land_blocks``, ``ironclad_save``, ``battery_save``,
``s2_end``, ``turns``). Scenario 5 has no turn limit, as 15.6.5 says (``turns`` 0 in the data).
"""

from games.iron_and_fire.ruleset import IronAndFire

__all__ = ["IronAndFire"]
