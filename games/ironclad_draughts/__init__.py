"""Ironclad Draughts (book 004): umpired squadron actions on a draughts board.

Follows the book. Where the book is silent the house choices (the rulings this package makes)
are, in short:

* an activation is one order (move, end turn and fire together; see ``rules/sequence_3.py`` for why);
* a ship fires all its bearing guns at one enemy ship; friendly ships are never targets;
* a ship may not pass through another (option ``pass_through=yes`` allows it);
* leaving the board needs the word ``leave``; a move forced by damage leaves by itself;
* a stopped ship (engine hit after its one square) does not turn, even with a steering hit;
  an engine hit's one square is made at the first activation after the hit, including a hit
  placed by that activation's own damage-control draw;
* option ``engine_hit=ahead`` reads the Engine Hit's "move one square straight ahead and stop" as
  every activation's move until repaired, instead of the ruling's once-then-stopped (``stop``);
* option ``damaged_may_stop=yes`` reads Movement 2 ("Ships may not stop unless they are damaged")
  literally: a ship with a Damage Card in force or flotation lost may stop (``pass``, or ``fire``
  in place, without a turn); the ruling (``no``) makes every ship move unless damage forbids;
* the 90-degree turn at the end of a move still applies when the move ends in a ram;
* a further-damage result turns the drawn control card itself into the new Damage Card (its suit
  then decides repairs and, for steering, port or starboard); with several cards of one kind the
  oldest is tackled first and sets the steering direction;
* gun arcs (data) include their boundaries, so a target exactly 45 degrees off the bow is in both
  neighbouring arcs;
* the pass-through-and-return manoeuvre counts as done when a ship has reached the far edge's
  rank and later its own starting rank again;
* the book (Sequence 5) says when the game ends but names no winner: the side that still has a
  ship afloat on the board wins; if the last ships of both sides go in the same activation (a
  ram that sinks both), it is a draw;
* option ``turn_limit`` (0 = none, as the book) ends the game with the side holding more
  flotation points on the board as winner.

The package follows the common layout (``docs/adding-a-system.md``): ``state.py`` (``State``),
``orders.py`` (typed orders), ``rules/`` (one module per book section), ``view.py``, ``ruleset.py``
(the adapter, where it registers), ``data.py`` and ``schema.py`` (the TOML it reads).
"""

from games.ironclad_draughts.ruleset import IroncladDraughts

__all__ = ["IroncladDraughts"]
