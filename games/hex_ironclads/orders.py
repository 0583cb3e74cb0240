"""The order notation: ``Monitor fire Virginia``, ``Monitor hold``, ``Monitor move F F S``,
``Monitor stay``, ``seal``, ``done`` and the umpire's ``reveal``.

``parse`` and ``fmt`` round-trip: ``parse(fmt(order)) == order``. Steps are F (forward one hex),
P (turn 60 degrees to port) and S (to starboard); L and R are read as P and S.
"""

from __future__ import annotations

from games.core.errors import InvalidSyntax, quote, resolve_name
from games.core.ruleset import Order
from games.hex_ironclads.state import HexIroncladsState

WORDS = ("seal", "reveal", "done")
VERBS = ("fire", "hold", "move", "stay")
STEP_ALIASES = {"F": "F", "P": "P", "S": "S", "L": "P", "R": "S"}
SYNTAX_HINT = "Write e.g. `Monitor fire Virginia`, `Monitor hold`, `Monitor move F F S`, `Monitor stay`, `seal` or `done`."


def ship_names(state: HexIroncladsState) -> dict[str, str]:
    return {s.id: s.name for s in state.ships}


def fmt(state: HexIroncladsState, args: tuple[str, ...]) -> str:
    """Canonical text of an order from its arguments."""
    kind = args[0]
    if kind in WORDS:
        return kind
    name = state.ship(args[1]).name
    if kind == "fire":
        return f"{name} fire {state.ship(args[2]).name}"
    if kind == "hold":
        return f"{name} hold"
    steps = args[2]
    return f"{name} move {' '.join(steps)}" if steps else f"{name} stay"


def make(state: HexIroncladsState, *args: str) -> Order:
    return Order(fmt(state, args), tuple(args))


def parse_steps(text: str, whole: str) -> str:
    steps = []
    for ch in text.replace(",", " ").replace(" ", "").upper():
        if ch not in STEP_ALIASES:
            raise InvalidSyntax(
                f"{quote(whole)}: {quote(ch)} is not a movement step.",
                hint="Steps are F (forward one hex), P (turn to port), S (turn to starboard), e.g. `move F F S F`.",
            )
        steps.append(STEP_ALIASES[ch])
    return "".join(steps)


def parse(state: HexIroncladsState, text: str) -> Order:
    words = text.split()
    if not words:
        raise InvalidSyntax("No order given.", hint=SYNTAX_HINT)
    if len(words) == 1 and words[0].lower() in WORDS:
        return make(state, words[0].lower())
    verb_at = next((i for i, w in enumerate(words) if i >= 1 and w.lower() in VERBS), None)
    if verb_at is None:
        raise InvalidSyntax(f"Cannot read the order {quote(text)}.", hint=SYNTAX_HINT)
    ship_id = resolve_name(" ".join(words[:verb_at]), ship_names(state), "ship")
    verb = words[verb_at].lower()
    rest = " ".join(words[verb_at + 1 :])
    if verb == "fire":
        if not rest:
            raise InvalidSyntax(f"{quote(text)}: fire at which ship?", hint="Write e.g. `Monitor fire Virginia`.")
        return make(state, "fire", ship_id, resolve_name(rest, ship_names(state), "ship"))
    if verb in ("hold", "stay") and rest:
        raise InvalidSyntax(f"{quote(text)}: nothing may follow {quote(verb)}.", hint=SYNTAX_HINT)
    if verb == "hold":
        return make(state, "hold", ship_id)
    steps = parse_steps(rest, text) if verb == "move" else ""
    return make(state, "move", ship_id, steps)
