"""Book section 7, Damage Effects: hits against PF, the MP and CF caps of 7.1, crippled ships,
land batteries (7.2), and the armour saves of 6.1.4.
"""

from __future__ import annotations

import math

from games.core.ruleset import Event
from games.iron_and_fire.data import (
    SIDE_NAMES,
    battery,
)
from games.iron_and_fire.dice import Dice
from games.iron_and_fire.report import say, sign
from games.iron_and_fire.state import State, Unit


# --- unit values (7.1) ---------------------------------------------------------------------
def half_pf(s: State, u: Unit) -> int:
    """Half the PF, rounded up (the 7.1 thresholds)."""
    return math.ceil(u.pf / 2)


def steam_limited(s: State, u: Unit) -> bool:
    """Scenario 2 (15.3): the Covadonga moves 1 MP for the secretly rolled number of turns."""
    return u.id == "covadonga" and s.scenario == "s2" and s.turn <= s.steam_turns


def eff_cf(s: State, u: Unit) -> int:
    """7.1: a ship's CF less 2 at two hits and 1 more at four; a battery keeps its CF (7.2)."""
    cf = u.cf
    if not u.battery:
        if u.hits >= 2:
            cf -= 2
        if u.hits >= 4:
            cf -= 1
    return cf


def base_mp(s: State, u: Unit) -> int:
    """MP from hits and criticals, without temporary penalties (section 7.1, 10.0)."""
    if u.battery:
        return 0
    if u.hits >= u.pf:
        return 0
    mp = u.mf
    if steam_limited(s, u):  # 15.3.2: 1 MP; any damage that drops MP by one makes it drift
        mp = min(1, u.mf) - (1 if u.hits >= half_pf(s, u) else 0)
    elif u.hits >= half_pf(s, u):
        mp = min(mp, 1)
    mp -= u.criticals.count("propulsion")
    return max(0, mp)


def mp_secret(s: State, u: Unit) -> bool:
    """The Covadonga's MP gives away the secret steam roll until it is revealed."""
    return u.id == "covadonga" and any(sec.key == "steam" and not sec.revealed for sec in s.secrets)


def eff_mp(s: State, u: Unit) -> int:
    """The MP a ship has this activation: its 7.1 allowance less an Order Confusion penalty (14)."""
    return max(0, base_mp(s, u) - u.mp_penalty)


def crippled(s: State, u: Unit) -> bool:
    """2.1/12.0: hits that take MP to 0 (hits equal to PF, 7.1) and CF below 0; critical
    hits and raising steam do not cripple."""
    return not u.battery and u.hits >= u.pf and eff_cf(s, u) < 0


# --- damage (7.0, 10.0) -------------------------------------------------------------------
def hit(s: State, dice: Dice, events: list[Event], u: Unit, n: int, cause: str, by: str = "") -> None:
    """Put ``n`` hits on a unit and carry out sinking, surrender and the random-event checks."""
    if n <= 0 or not u.afloat:
        return
    u.hits += n
    if u.battery:
        limit = battery().surrender_hits
        if u.hits >= limit:
            u.status = "surrendered"
            u.sunk_by = by
            say(events, f"{u.name} takes {n} hit{'s' if n > 1 else ''} ({cause}) and surrenders ({u.hits} hits).")
        else:
            say(events, f"{u.name} takes {n} hit{'s' if n > 1 else ''} ({cause}): {u.hits} of {limit}.")
        return
    if u.hits > u.pf:
        u.status = "sunk"
        u.sunk_by = by
        break_boarding(s, u)
        say(events, f"{u.name} takes {n} hit{'s' if n > 1 else ''} ({cause}): {u.hits} hit{'s' if u.hits != 1 else ''}, more than PF {u.pf}: **sunk**.")
        return
    effects = [f"MP {eff_mp(s, u)}"] if not mp_secret(s, u) else []
    effects.append(f"CF {sign(eff_cf(s, u))}")
    if crippled(s, u):
        effects.append("crippled")
    say(events, f"{u.name} takes {n} hit{'s' if n > 1 else ''} ({cause}): {u.hits} hit{'s' if u.hits != 1 else ''}, {', '.join(effects)}.")
    if s.save_captain and u.side == "chile":
        s.save_captain = False
        _save_roll(dice, events, u, "Save the Captain", "chile")
    if s.save_admiral and u.id in ("huascar", "independencia"):
        s.save_admiral = False
        _save_roll(dice, events, u, "Save the Admiral", "peru")


def _save_roll(dice: Dice, events: list[Event], u: Unit, what: str, side: str) -> None:
    die = dice.d(6)
    if die == 6:
        u.criticals.append("bridge")
        say(events, f"{what}: {SIDE_NAMES[side]} rolls d6 **6**: {u.name} is marked with a Bridge critical hit.")
    else:
        say(events, f"{what}: {SIDE_NAMES[side]} rolls d6 **{die}**: no effect (needs 6).")


def unlock(s: State, a: Unit, b: Unit) -> None:
    """6.3: remove the Boarding Combat markers between a and b (each may be locked elsewhere).

    Kept here, below boarding, because a ship leaving play (7) ends its Boarding Combats too."""
    if a.boarding_with == b.id:
        a.boarding_with = ""
    if b.boarding_with == a.id:
        b.boarding_with = ""
    # a target still boarded by another ship stays locked with that one
    for x in (a, b):
        if not x.boarding_with:
            partner = next((y for y in s.units if y.afloat and y.boarding_with == x.id), None)
            if partner is not None:
                x.boarding_with = partner.id


def break_boarding(s: State, u: Unit) -> None:
    """7 and 6.3: a ship leaves play, so every Boarding Combat it was part of ends."""
    partners = [y for y in s.units if y.id != u.id and (y.boarding_with == u.id or u.boarding_with == y.id)]
    if partners or u.boarding_with:
        for y in partners:
            unlock(s, u, y)
        u.boarding_with = ""
        if s.phase == "boarding" and u.id in s.boarding_pair:
            s.phase = "activations"
            s.decider = ""
            s.boarding_pair = []
