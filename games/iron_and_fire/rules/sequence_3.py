"""Book section 3, Sequence of Play: a turn is Preparation (3.1: shuffle the deck), Activations
(3.2) and the End Phase (3.3); ships arriving on later turns are set up before the first card.
"""

from __future__ import annotations

from games.core.decks import card_name, standard_cards
from games.core.errors import IllegalOrder, NotYourTurn, WrongPhase
from games.core.hexgrid import Hex
from games.core.ruleset import Event
from games.iron_and_fire import scene
from games.iron_and_fire.data import SIDE_NAMES
from games.iron_and_fire.dice import Dice
from games.iron_and_fire.report import reveal, say
from games.iron_and_fire.state import State, Unit


# ==========================================================================================
# Turn structure (3.0, 4.0, 11.0)
# ==========================================================================================
def begin_turn(s: State, dice: Dice, events: list[Event], turn: int) -> None:
    """3.1 Preparation: a new turn, a freshly shuffled deck with both Jokers; then arrivals and activations."""
    scn = scene.scenario(s)
    s.turn = turn
    s.deck = standard_cards(jokers=2)
    dice.rng.shuffle(s.deck)
    s.discards = []
    s.jokers_drawn = 0
    s.extra_draws = -1
    s.acted_sides = []
    s.turn_used = []
    s.fow_used_turn = []
    s.fired_on_huascar = []
    s.card = ""
    s.card_side = ""
    s.acts_left = 0
    s.used = []
    say(events, f"**Turn {turn}**{scene.of_turns(s)}: the deck of 54 cards is shuffled.")
    if s.scenario == "s2" and turn == s.steam_turns + 1 and s.steam_turns:
        say(events, "The Covadonga has raised steam: full MP from now on.")
        reveal(s, events, "steam")
    if s.cable is not None and not s.cable_cut and scn.cable is not None and scn.cable.rule == "turns":
        atop = scene.unit_at(s, Hex(*s.cable))
        if atop is not None and atop.side == "peru" and atop.controller == "peru":
            if atop.id != s.cable_ship:
                s.cable_progress = 0
            s.cable_ship = atop.id
            s.cable_clean = True
        else:
            s.cable_ship = ""
            s.cable_progress = 0
    begin_arrivals(s, events)


def begin_arrivals(s: State, events: list[Event]) -> None:
    """The scenario's ships arriving this turn are set up, with their secret arrival rolls revealed, before the first card (15.x)."""
    scn = scene.scenario(s)
    for side in ("chile", "peru"):
        if any(u.status == "waiting" and u.arrive_turn == s.turn and u.controller == side for u in s.units):
            s.phase = "arrive"
            s.setup_side = side
            keys = {d.arrive_roll for d in scn.deploy if d.arrive_roll and scene.unit(s, d.ship).arrive_turn == s.turn}
            for key in sorted(keys):
                reveal(s, events, key)
            names = ", ".join(u.name for u in s.units if u.status == "waiting" and u.arrive_turn == s.turn and u.controller == side)
            say(events, f"Arriving this turn: {names}. {SIDE_NAMES[side]} places them, then says `done`.")
            return
    begin_activations(s)


def begin_activations(s: State) -> None:
    """3.2: the Activations Phase begins; the first card is drawn by ``activations_4.advance``,
    which every caller runs next (this module sits below the card draws)."""
    s.phase = "activations"


def activation_guard(s: State, side: str, uid: str) -> Unit:
    """The unit an activation names, after the checks every action shares (4.2): play under way, the side's card, the side's own unit, one activation each."""
    if s.phase in ("setup", "arrive"):
        raise WrongPhase("Set-up is not finished yet.", hint="Place your units and say `done`.")
    if s.phase == "over":
        raise WrongPhase("The game is over.")
    if s.phase in ("joker", "boarding"):
        raise WrongPhase(f"{SIDE_NAMES.get(s.decider, 'A side')} must decide first.", hint="`fow end` or `pass`." if s.phase == "joker" else "`continue` or `break off`.")
    u = scene.unit(s, uid)
    if u.controller != side:
        raise NotYourTurn(f"{u.name} is not under {SIDE_NAMES.get(side, side)}'s command.")
    if s.card_side != side:
        raise NotYourTurn(f"The card in play ({card_name(s.card)}) activates {SIDE_NAMES.get(s.card_side, '?')}, not {SIDE_NAMES[side]}.")
    if not u.afloat:
        raise IllegalOrder(f"{u.name} is no longer in play ({u.status}).")
    if u.id in s.used and s.bonus_unit != u.id:
        raise IllegalOrder(f"{u.name} has already activated on this card.", hint="One activation per unit per card; choose another unit or `done`.")
    if scene.opt(s, "once_per") == "turn" and u.id in s.turn_used and s.bonus_unit != u.id:
        raise IllegalOrder(f"{u.name} has already activated this turn (option once_per=turn).")
    return u
