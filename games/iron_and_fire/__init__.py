"""Iron and Fire (Against the Odds): the Huáscar and the naval war of the Pacific, 1879.

Registered as ``iron-and-fire``. Where the book is silent or unclear the house rulings are
listed here; where a ruling is a real choice it is an option (``once_per``, ``land_blocks``, ``ironclad_save``,
``battery_save``). Further house readings this package makes, each visible in play:

* "N hexes from an edge" (Scenarios 1 and 3) is the Nth hex row from that edge.
* Scenario 2's exit "at hex 2813 or 2912" and Scenario 5's "at 1101 or 1201" count any move off
  the map from those hexes; drifting off the map is never an exit: the ship is eliminated and
  counts as sunk.
* A ship drifting onto land stays in its hex, grounded, with two hits. Ships locked in a
  Boarding Combat do not drift. The cable ship atop the buoy does not drift (15.4.2, 15.5.3).
* A propulsion critical (and Bad Boilers) takes 1 MP after the section 7.1 caps, so a ship held
  to 1 MP by damage drifts (the Covadonga note in 15.3.2 reads the same way).
* Crippled (2.1, 12.0) is by hits alone: hits equal to PF (MP 0 by 7.1) and CF below 0. A
  propulsion critical or Bad Boilers can stop a ship (it drifts) without crippling it.
* Bombardment's "fired upon by the Abtao/Magallanes" counts fire at the Huáscar this turn; Peru
  places the Scenario 4 cable buoy during its set-up.
* Scenario 5 has no turn limit in the book: a house cap of 20 turns (option ``turns``), then
  victory points. Scenarios 1 and 2: 12 turns, then victory points (house ruling); option
  ``s2_end=draw`` makes Scenario 2's turn limit a draw as 15.3.4 prints. A Scenario 2 side left
  with nothing in play is a draw either way ("any other result").
* Scenario 5's "all ironclads sunk or captured: a draw" is checked before Chile's win (the Huáscar
  is an ironclad, so the clause could never apply otherwise).
* Scenario 2's shoals modifier "+1: ship moving two or more hexes" counts hexes entered this
  activation (turns are not hexes); 5.1's grounding modifier counts MP as it says.
* A ship lost to a Fire critical (its spreading hits or the magazine) is sunk by the ship whose
  hit set the fire: it counts among the Huáscar's kills in Scenario 5.
* A fire attack that cannot hit even with a d10 of 10 (every fixed modifier, the Visibility d6
  falling even, the firer's Lucky Shot and its Fortunes of War if played) is refused (6.1, 7.1:
  a ship fires "as long as a possibility exists ... to cause a hit").
* Chilean Honor: an honour-bound ship fires and boards at -2 and may not move so as to open the
  range to the nearest Peruvian ironclad; the requirement ends with its ram.
* Fortunes of War: ``fow reroll N`` replays the last activation with its Nth die rolled afresh;
  Mine counters it turned over stay the same counters (a counter is not a die).
"""

from games.iron_and_fire.ruleset import IronAndFire

__all__ = ["IronAndFire"]
