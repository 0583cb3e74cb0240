"""The rules of Iron and Fire (book 000), one module per section of the book; each module's name
ends with its section number: 3 Sequence of Play, 4 Activations, 5 Movement, 6.1 Firing,
6.2 Ramming, 6.3 Boarding Combats, 7 Damage Effects, 8 Repairing Damage, 9 Mines, 10 Critical
Hits, 11 End Phase, 12 Victory, 13.1 Fortunes of War, 13.2 Chilean Honor, 14 Random Events,
15 Scenarios (set-up and the scenarios' special rules).

Each function takes the plain ``State`` first, then what it uses and nothing more: the order's
``Dice`` (``dice.py``) if it rolls, the ``events`` list (``report.py``) if it reports, and its
typed order (``orders.py``). So a signature says whether a rule can roll or speak.

The modules import one way, a lower one never a higher one (no cycle; tests/test_skeleton.py):
sequence_3, damage_7, chilean_honor_13_2 and random_events_14 at the bottom; then
critical_hits_10, victory_12, scenarios_15 and repair_8; mines_9 and fortunes_of_war_13_1;
movement_5; ramming_6_2, firing_6_1 and boarding_6_3; end_phase_11; activations_4 at the top,
which draws the cards and runs a whole activation. Rulings where the book is silent or unclear
are listed in the package docstring (``games/iron_and_fire``) and, as options, in ``scene.py``.
"""
