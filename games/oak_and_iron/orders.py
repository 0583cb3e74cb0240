"""The Oak & Iron order notation: parse to a canonical text and a tuple of plain arguments.

    initiative Careful Aim
    Fluyt seamanship adjust +1 [fortune]        Fluyt seamanship heading port 30 [fortune]
    Fluyt seamanship cutfree [fortune]
    Fluyt move                                  Fluyt move turn-end port 30 (turn-start, starboard)
    Fluyt crew reload starboard | rally | repair [hull|aground] [fortune] | sail up|down
    Fluyt crew board Corvette [fortune] | row | flag Sloop | landing [x y]
    Fluyt done
    Fluyt broadside starboard Corvette [rigging|crew] [and port Sloop [rigging|crew]] [fortune] [helm-port]
    Fluyt partial Corvette [rigging|crew] [fortune] [helm-starboard]
    Fluyt close Corvette                        Fluyt landing-attack Corvette
    Fluyt hold
    capture Corvette | destroy Corvette | spare Corvette
    measure Fluyt Corvette

Names are matched case-insensitively, whole names or unique prefixes; the canonical text spells
them out in full, so ``format_order(parse_order(text))`` parses to the same order.
"""

from __future__ import annotations

from games.core.errors import InvalidSyntax, quote, resolve_name
from games.core.ruleset import Order
from games.oak_and_iron.cards import initiative_cards
from games.oak_and_iron.state import OakState

SIDES = ("port", "starboard")
AIMS = ("hull", "rigging", "crew")
FLAGS = ("fortune", "helm-port", "helm-starboard")
SHIP_VERBS = ("seamanship", "move", "crew", "done", "broadside", "partial", "close", "landing-attack", "hold")
HELP = (
    "Orders: `initiative <card>`, `<ship> seamanship adjust +1`, `<ship> move turn-end port 30`, "
    "`<ship> crew reload starboard`, `<ship> done`, `<ship> broadside starboard <target>`, "
    "`<ship> partial <target>`, `<ship> close <target>`, `<ship> hold`, `capture <ship>`, `measure <ship> <target>`."
)


def ship_names(state: OakState) -> dict[str, str]:
    return {s.id: s.name for s in state.ships}


def split_ship(state: OakState, tokens: list[str], text: str) -> tuple[str, list[str]]:
    """The longest leading run of words naming a ship exactly, else a unique prefix of one word."""
    names = ship_names(state)
    for k in range(min(4, len(tokens)), 0, -1):
        cand = " ".join(tokens[:k]).casefold()
        for sid, name in names.items():
            if cand in (name.casefold(), sid.casefold(), name.casefold().replace(" ", "-")):
                return sid, tokens[k:]
    if not tokens:
        raise InvalidSyntax(f"Expected a ship name in {quote(text)}.", hint=HELP)
    return resolve_name(tokens[0], names, "ship"), tokens[1:]


def _degrees(token: str, text: str) -> float:
    try:
        value = float(token.rstrip("°").removesuffix("deg"))
    except ValueError:
        raise InvalidSyntax(f"{quote(token)} in {quote(text)} is not a number of degrees.", hint="Write e.g. `turn-end port 30`.") from None
    if not 0 <= value <= 360 or value != value:
        raise InvalidSyntax(f"{quote(token)} in {quote(text)}: degrees must be between 0 and 360.")
    return value


def _num(value: float) -> str:
    return f"{value:g}"


def parse(state: OakState, text: str) -> Order:
    tokens = text.strip().split()
    if not tokens:
        raise InvalidSyntax("Empty order.", hint=HELP)
    head = tokens[0].casefold()
    names = ship_names(state)
    if head == "initiative":
        card_text = " ".join(tokens[1:])
        if not card_text:
            raise InvalidSyntax(f"{quote(text)}: name the initiative card.", hint="Write e.g. `initiative Careful Aim`.")
        cards = {k: c.name for k, c in initiative_cards().items()}
        key = card_text if card_text in cards else resolve_name(card_text, cards, "initiative card")
        return Order(f"initiative {cards[key]}", ("initiative", key))
    if head in ("capture", "destroy", "spare"):
        sid, rest = split_ship(state, tokens[1:], text)
        if rest:
            raise InvalidSyntax(f"Unexpected {quote(' '.join(rest))} in {quote(text)}.")
        return Order(f"{head} {names[sid]}", (head, sid))
    if head == "measure":
        sid, rest = split_ship(state, tokens[1:], text)
        tid, rest = split_ship(state, rest, text)
        if rest:
            raise InvalidSyntax(f"Unexpected {quote(' '.join(rest))} in {quote(text)}.")
        return Order(f"measure {names[sid]} {names[tid]}", ("measure", sid, tid))
    sid, rest = split_ship(state, tokens, text)
    if not rest:
        raise InvalidSyntax(f"{quote(text)}: what should {names[sid]} do?", hint=HELP)
    verb = rest[0].casefold()
    args = [a.casefold() for a in rest[1:]]
    name = names[sid]
    if verb not in SHIP_VERBS:
        raise InvalidSyntax(f"Unknown order {quote(rest[0])} in {quote(text)}.", hint=HELP)
    if verb in ("done", "hold"):
        if args:
            raise InvalidSyntax(f"Unexpected {quote(' '.join(rest[1:]))} in {quote(text)}.")
        return Order(f"{name} {verb}", (verb, sid))
    if verb == "move":
        return _parse_move(sid, name, args, text)
    if verb == "seamanship":
        return _parse_seamanship(sid, name, args, text)
    if verb == "crew":
        return _parse_crew(state, sid, name, rest[1:], text)
    if verb in ("close", "landing-attack"):
        tid, extra = split_ship(state, rest[1:], text)
        if extra:
            raise InvalidSyntax(f"Unexpected {quote(' '.join(extra))} in {quote(text)}.")
        return Order(f"{name} {verb} {names[tid]}", (verb, sid, tid))
    if verb == "partial":
        tid, extra = split_ship(state, rest[1:], text)
        aim, flags = _aim_and_flags(extra, text)
        canon = " ".join(x for x in (name, "partial", names[tid], "" if aim == "hull" else aim, *flags) if x)
        return Order(canon, ("partial", sid, tid, aim, "fortune" if "fortune" in flags else "", _helm(flags)))
    return _parse_broadside(state, sid, name, rest[1:], text)


def _helm(flags: list[str]) -> str:
    return "starboard" if "helm-starboard" in flags else "port"


def _aim_and_flags(tokens: list[str], text: str) -> tuple[str, list[str]]:
    aim = "hull"
    flags: list[str] = []
    for t in (x.casefold() for x in tokens):
        if t in AIMS:
            aim = t
        elif t in FLAGS:
            flags.append(t)
        else:
            raise InvalidSyntax(f"Unexpected {quote(t)} in {quote(text)}.", hint="After the target: rigging or crew, fortune, helm-port or helm-starboard.")
    return aim, sorted(set(flags))


def _parse_broadside(state: OakState, sid: str, name: str, tokens: list[str], text: str) -> Order:
    names = ship_names(state)
    shots: list[tuple[str, str, str]] = []
    flags: list[str] = []
    i = 0
    while i < len(tokens):
        side = tokens[i].casefold()
        if side not in SIDES:
            raise InvalidSyntax(f"{quote(text)}: expected port or starboard, got {quote(tokens[i])}.", hint="Write e.g. `Fluyt broadside starboard Corvette`.")
        j = i + 1
        while j < len(tokens) and tokens[j].casefold() not in ("and", *AIMS, *FLAGS):
            j += 1
        tid, extra = split_ship(state, tokens[i + 1 : j], text)
        if extra:
            raise InvalidSyntax(f"Unexpected {quote(' '.join(extra))} in {quote(text)}.")
        aim = "hull"
        while j < len(tokens) and tokens[j].casefold() in (*AIMS, *FLAGS):
            t = tokens[j].casefold()
            if t in AIMS:
                aim = t
            else:
                flags.append(t)
            j += 1
        shots.append((side, tid, aim))
        if j < len(tokens) and tokens[j].casefold() == "and":
            j += 1
        i = j
    if not shots:
        raise InvalidSyntax(f"{quote(text)}: name the side and the target.", hint="Write e.g. `Fluyt broadside starboard Corvette`.")
    if len(shots) > 2 or (len(shots) == 2 and shots[0][0] == shots[1][0]):
        raise InvalidSyntax(f"{quote(text)}: at most one broadside from each side.")
    flags = sorted(set(flags))
    parts = [" ".join(x for x in (side, names[tid], "" if aim == "hull" else aim) if x) for side, tid, aim in shots]
    canon = f"{name} broadside " + " and ".join(parts) + "".join(f" {f}" for f in flags)
    args: list[str] = ["broadside", sid, "fortune" if "fortune" in flags else "", _helm(flags)]
    for side, tid, aim in shots:
        args += [side, tid, aim]
    return Order(canon, tuple(args))


def _parse_move(sid: str, name: str, args: list[str], text: str) -> Order:
    if not args:
        return Order(f"{name} move", ("move", sid, "", "", "0"))
    if args[0] not in ("turn-start", "turn-end") or len(args) not in (2, 3) or args[1] not in SIDES:
        raise InvalidSyntax(
            f"Cannot read the move {quote(text)}.", hint="Write `Fluyt move`, or `Fluyt move turn-start|turn-end port|starboard [degrees]`."
        )
    deg = _degrees(args[2], text) if len(args) == 3 else 45.0
    when = args[0].removeprefix("turn-")
    return Order(f"{name} move {args[0]} {args[1]} {_num(deg)}", ("move", sid, when, args[1], _num(deg)))


def _parse_seamanship(sid: str, name: str, args: list[str], text: str) -> Order:
    fortune = "fortune" if "fortune" in args else ""
    args = [a for a in args if a != "fortune"]
    suffix = " fortune" if fortune else ""
    if args[:1] == ["adjust"] and len(args) == 2 and args[1] in ("+1", "-1", "1"):
        delta = "-1" if args[1] == "-1" else "+1"
        return Order(f"{name} seamanship adjust {delta}{suffix}", ("seamanship", sid, "adjust", delta, fortune))
    if args[:1] == ["heading"] and len(args) in (2, 3) and args[1] in SIDES:
        deg = _degrees(args[2], text) if len(args) == 3 else 45.0
        return Order(f"{name} seamanship heading {args[1]} {_num(deg)}{suffix}", ("seamanship", sid, "heading", args[1], fortune, _num(deg)))
    if args in (["cutfree"], ["cut-free"], ["cut", "free"]):
        return Order(f"{name} seamanship cutfree{suffix}", ("seamanship", sid, "cutfree", "", fortune))
    raise InvalidSyntax(
        f"Cannot read the Seamanship Action {quote(text)}.",
        hint="Write `seamanship adjust +1`, `seamanship adjust -1`, `seamanship heading port 30` or `seamanship cutfree`.",
    )


def _parse_crew(state: OakState, sid: str, name: str, raw: list[str], text: str) -> Order:
    args = [a.casefold() for a in raw]
    fortune = "fortune" if "fortune" in args else ""
    keep = [r for r in raw if r.casefold() != "fortune"]
    args = [a.casefold() for a in keep]
    suffix = " fortune" if fortune else ""
    names = ship_names(state)
    if not args:
        raise InvalidSyntax(f"{quote(text)}: which Crew Action?", hint="reload port|starboard, rally, repair, sail up|down, board <ship>, row, flag <ship>, landing.")
    action = args[0]
    if action == "reload" and len(args) == 2 and args[1] in SIDES:
        return Order(f"{name} crew reload {args[1]}", ("crew", sid, "reload", args[1], "", ""))
    if action in ("rally", "row") and len(args) == 1:
        return Order(f"{name} crew {action}", ("crew", sid, action, "", "", ""))
    if action == "repair" and len(args) <= 2 and (len(args) == 1 or args[1] in ("hull", "aground")):
        what = args[1] if len(args) == 2 else ""
        canon = " ".join(x for x in (name, "crew repair", what) if x) + suffix
        return Order(canon, ("crew", sid, "repair", what, "", fortune))
    if action == "sail" and len(args) == 2 and args[1] in ("up", "down"):
        return Order(f"{name} crew sail {args[1]}", ("crew", sid, "sail", args[1], "", ""))
    if action in ("board", "flag") and len(keep) >= 2:
        tid, extra = split_ship(state, keep[1:], text)
        if extra:
            raise InvalidSyntax(f"Unexpected {quote(' '.join(extra))} in {quote(text)}.")
        return Order(f"{name} crew {action} {names[tid]}{suffix if action == 'board' else ''}", ("crew", sid, action, tid, "", fortune))
    if action == "landing" and len(args) in (1, 3):
        if len(args) == 1:
            return Order(f"{name} crew landing", ("crew", sid, "landing", "", "", ""))
        try:
            x, y = float(args[1]), float(args[2])
        except ValueError:
            raise InvalidSyntax(f"{quote(text)}: the landing point is two numbers, inches from the top-left corner.") from None
        return Order(f"{name} crew landing {_num(x)} {_num(y)}", ("crew", sid, "landing", _num(x), _num(y), ""))
    raise InvalidSyntax(
        f"Cannot read the Crew Action {quote(text)}.",
        hint="reload port|starboard, rally, repair [hull|aground], sail up|down, board <ship>, row, flag <ship>, landing [x y].",
    )
