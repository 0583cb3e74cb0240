"""The rules of Iron and Fire (book 000), one module per section of the book; each module's name
ends with its section number: 3 Sequence of Play, 4 Activations, 5 Movement, 6.1 Firing,
6.2 Ramming, 6.3 Boarding Combats, 7 Damage Effects, 8 Repairing Damage, 9 Mines, 10 Critical
Hits, 11 End Phase, 12 Victory, 13.1 Fortunes of War, 13.2 Chilean Honor, 14 Random Events,
15 Scenarios (set-up and the scenarios' special rules). Each function takes the ``Game`` (the
state, the random stream and the events of one order, ``games.iron_and_fire.game``) first.
Rulings where the book is silent or unclear are listed in the package docstring
(``games/iron_and_fire``) and, as options, in ``scene.py``.
"""
