"""The rules of book 004 (Ironclad Draughts), one module per section of the book.

The book's headings are not numbered; the project numbers them in the book's order, and each
module's name ends with its number: 1 Playing Equipment (the two packs, made in ``set_up_2``),
2 Set-Up (``set_up_2``), 3 Sequence of Play (``sequence_3``, and the umpire's adjustments in
``umpire_3``), 4 Movement (``movement_4``), 5 Firing (``firing_5``), 6 Damage Control
(``damage_control_6``), 7 Sinking (``sinking_7``), 8 Ramming (``ramming_8``). Rulings where the
book is silent are listed in the package docstring (``games/ironclad_draughts``). Sections 4 to 8
never import ``sequence_3``, which runs the turn and so calls all the others.
"""
