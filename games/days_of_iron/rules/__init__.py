"""The rules of book 002 (Days of Iron), one module per section of the book (``<topic>_<section>.py``).

On the measured table (option ``board=measured``, the default) the bot sets out and moves the units
itself; with ``board=tape`` the miniatures stand on a real table, measured with a tape, and the bot
keeps the records. The sections with modules: disputed matters (``disputes_3_4``), stand
points (``points_5``), orders of battle (``orders_of_battle_6``), staff (``staff_14``), the simple
d6 checks of terrain and staff (``checks_15``), deployment with hidden and off-board units
(``deployment_16``), the phases of play (``phases_17``, which runs the turn and guards who may
give what when), initiative (``initiative_17_1``), morale tests (``morale_17_2``), losses and
shattered units (``losses_17_5``), the owners' dice tables (``reference_sheets_17``), ending the
game and the winner (``victory_18``) and scouting (``scouting_19_1``). A full game on a measured
table adds its sections beside them: formations ``formations_12``, shooting ``shooting_17_3``,
movement ``movement_17_4``, close assault ``close_assault_17_5``... A rule's docstring names the
ruling where the book is silent (house). Lower sections never import ``phases_17``.
"""
