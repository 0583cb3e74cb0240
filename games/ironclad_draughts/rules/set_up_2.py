"""Book section 2, Set-Up: the opposing squadrons in the outside ranks, heading towards each other,
one ship per square; with section 1's equipment (the activation pack of 52 cards and the damage
pack of 54 with two Jokers), both shuffled by the umpire (Sequence 1-2). The options say which
readings of the book are in force.
"""

from __future__ import annotations

import re

from games.core.decks import Deck, standard_cards
from games.core.errors import IllegalOrder, InvalidSyntax, quote, resolve_name
from games.core.options import check_options, with_defaults
from games.core.rng import Rng
from games.core.ruleset import OptionSpec
from games.ironclad_draughts.data import ScenarioSpec, ShipEntry, SideSpec, scenarios, ship_classes
from games.ironclad_draughts.rules.sequence_3 import advance, deal
from games.ironclad_draughts.state import DEAL, Gun, Ship, SideState, State

OPTIONS = (
    OptionSpec("seats", "One seat per squadron or one per ship.", "squadron", ("squadron", "ship")),
    OptionSpec("umpire_deals", "The seated umpire deals each turn with `deal`.", "no", ("no", "yes")),
    OptionSpec(
        "damage_shuffle",
        "Reshuffle the damage pack's discards only when it runs out (ruling) or at every deal (Sequence 1).",
        "when-empty",
        ("when-empty", "each-turn"),
    ),
    OptionSpec(
        "pass_through",
        "A two-square move may pass through an occupied square (the book is silent; house: no).",
        "no",
        ("no", "yes"),
    ),
    OptionSpec(
        "engine_hit",
        "Engine Hit: one square straight ahead at the next activation, then stopped until repaired "
        "(stop, the ruling) or one square straight ahead at every activation until repaired (ahead).",
        "stop",
        ("stop", "ahead"),
    ),
    OptionSpec(
        "damaged_may_stop",
        "Whether a damaged ship (damage card in force or flotation lost) may stop: no (the ruling: it must "
        "move unless damage forbids) or yes (Movement 2 read literally).",
        "no",
        ("no", "yes"),
    ),
    OptionSpec("turn_limit", "End after this many turns (0 = no limit, as the book).", "0", between=(0, 999_999)),
    OptionSpec("squadron1", "Replace the first squadron: class ids joined by +, e.g. inflexible+devastation.", ""),
    OptionSpec("squadron2", "Replace the second squadron, as squadron1.", ""),
    OptionSpec("board", "Board size WxH (default: the scenario's).", ""),
)


def read_options(options: dict[str, str]) -> dict[str, str]:
    """The options checked (``games.core.options``) over their defaults; a turn limit as a plain number."""
    out = with_defaults(OPTIONS, check_options(OPTIONS, options, system="Ironclad Draughts"))
    out["turn_limit"] = str(int(out["turn_limit"]))
    return out


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.casefold()).strip("-")


def _squadron_from_option(text: str, base: SideSpec) -> SideSpec:
    """Option squadron1/squadron2: class ids joined by + (``class:Name`` names a ship)."""
    classes = ship_classes()
    names = {cid: c.name for cid, c in classes.items()}
    entries: list[ShipEntry] = []
    for part in text.split("+"):
        part = part.strip()
        if not part:
            continue
        cls_text, _, name = part.partition(":")
        cid = resolve_name(cls_text, names, "ship class")
        entries.append(ShipEntry(name=name.strip() or classes[cid].name, class_id=cid))
    if not entries:
        raise InvalidSyntax(f"Squadron {quote(text)} names no ship classes.", hint=f"Classes: {', '.join(classes)}.")
    return SideSpec(base.id, base.name, base.colour, tuple(entries))


def _spread(count: int, width: int) -> list[int]:
    """Files for ``count`` ships spread evenly across a back rank of ``width`` squares."""
    return [((2 * i + 1) * width) // (2 * count) for i in range(count)]


def _board_size(spec: ScenarioSpec, board: str) -> tuple[int, int]:
    if not board:
        return spec.width, spec.height
    size = re.fullmatch(r"\s*(\d+)\s*[x×]\s*(\d+)\s*", board)
    if not size or not (3 <= int(size[1]) <= 26 and 3 <= int(size[2]) <= 26):
        raise InvalidSyntax(f"Option board={quote(board)} is not a size.", hint="Write it like 8x8 (3 to 26).")
    return int(size[1]), int(size[2])


def _place_side(side: SideSpec, index: int, width: int, height: int, used: set[str]) -> list[Ship]:
    """One squadron in its outside rank, heading towards the enemy (Set-Up); names made unique."""
    if len(side.ships) > width:
        raise IllegalOrder(
            f"{side.name} has {len(side.ships)} ships but the back rank has only {width} squares.",
            hint="Choose a wider board (option board=WxH) or fewer ships.",
        )
    classes = ship_classes()
    rank = 0 if index == 0 else height - 1
    ships: list[Ship] = []
    for entry, file in zip(side.ships, _spread(len(side.ships), width), strict=True):
        name = entry.name
        n = 2
        while _slug(name) in used:
            name = f"{entry.name} {n}"
            n += 1
        used.add(_slug(name))
        cls = classes[entry.class_id]
        ships.append(
            Ship(
                id=_slug(name),
                name=name,
                short=entry.short if name == entry.name else "",
                class_id=cls.id,
                class_name=cls.name,
                side=side.id,
                x=file if index == 0 else width - 1 - file,
                y=rank,
                heading=0 if index == 0 else 4,
                flotation=cls.flotation,
                flotation_max=cls.flotation,
                guns=[Gun(g.name, g.calibre, g.arc) for g in cls.guns for _ in range(g.count)],
                home_rank=rank,
                far_rank=height - 1 - rank,
            )
        )
    return ships


def setup(scenario: str, options: dict[str, str], rng: Rng) -> State:
    """A new game: the scenario's squadrons (or the options'), the packs shuffled, the first deal
    made unless the umpire deals (Set-Up; Sequence 1-2)."""
    specs = scenarios()
    scen_id = resolve_name(scenario or "standard", {k: s.name for k, s in specs.items()}, "scenario")
    spec = specs[scen_id]
    opts = read_options(options)
    width, height = _board_size(spec, opts["board"])
    sides = list(spec.sides)
    for i, key in enumerate(("squadron1", "squadron2")):
        if opts[key]:
            sides[i] = _squadron_from_option(opts[key], sides[i])
    used: set[str] = set()
    ships = [ship for index, side in enumerate(sides) for ship in _place_side(side, index, width, height, used)]
    state = State(
        scenario=spec.id,
        scenario_name=spec.name,
        width=width,
        height=height,
        sides=[SideState(s.id, s.name, s.colour) for s in sides],
        ships=ships,
        options=opts,
        activation_deck=Deck.of("activation", standard_cards(0)),
        damage_deck=Deck.of("damage", standard_cards(2)),
    )
    # The umpire's shuffles (Sequence 1 and 2).
    state.damage_deck.shuffle(rng)
    state.activation_deck.shuffle(rng)
    if opts["umpire_deals"] == "yes":
        state.phase = DEAL
    else:
        lines: list[str] = []
        deal(state, rng, lines)
        advance(state, rng, lines)
    return state
