"""The rules of book 003 (hex ironclads), one module per section of the book.

The book's headings are not numbered; the project numbers them in the book's order, and each
module's name ends with its number: 1 Turn Sequence (``turn_sequence_1``), 2 Firing Dice
(``firing_dice_2``), 3 Damage and Sinking (``damage_3``), 4 Movement (``movement_4``), 5 Ramming
(``ramming_5``). Rulings where the book is silent or contradicts itself are in
``data/hex_ironclads/README.md`` (with the options that switch them). Lower sections never import ``turn_sequence_1``, which runs the
turn and so calls all the others.
"""
