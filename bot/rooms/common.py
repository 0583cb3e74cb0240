"""What every room shares: the service's records (User, Output, Loaded), its limits and texts, and
pure helpers for options, zoom, mentions and replaying a game's log."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from bot.storage import GameRow, OrderRow
from games.core.errors import SHORT_LIST, InvalidSyntax, UnknownName, closest_hint, quote, resolve_name
from games.core.hexgrid import Hex
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, Event, Outcome, Ruleset, Seat, get_ruleset, legal_texts
from games.core.squaregrid import Square, SquareBoard
from games.core.view import Counter, View
from games.tools import TOOLS

# a longer game is sampled: set-up, evenly spaced orders, the last. 40 frames play for about a minute
# (1.6 s each) and draw in under 5 s of CPU on the costliest boards (benchmarks/replay.py)
MAX_REPLAY_FRAMES = 40
STATE_CACHE = 512  # decoded game states kept in memory, newest first out last
MAX_MESSAGE = 1900  # the service leaves a front end room to add to a message (a ping, a note)
MAX_INPUT = 6000  # characters in one option, as on Discord; a pasted export (/game verify export:) may be longer
HIDDEN_ORDER = "(a hidden order, shown when the game ends)"
FINISHED = ("over", "published")  # a game that ended; a table-tools stream whose seed was published
OUT_OF_DATE = "This choice is out of date: the game has moved on since it was offered, so nothing was done."
NOT_YOUR_OFFER = "These choices are for the player to act now, so nothing was done."
USER_TOKEN = re.compile(r"<@([^<>\s]+)>")
T = TypeVar("T")


@dataclass(frozen=True)
class User:
    id: str
    name: str
    manage_server: bool = False


@dataclass(frozen=True)
class Output:
    kind: Literal["message", "dm", "ephemeral", "error"]
    text: str
    channel: str | None = None
    to: str | None = None
    view: View | None = None
    file: tuple[str, bytes] | None = None
    private_fallback: bool = False
    zoom: tuple[str | tuple[float, float], float] | None = None  # (where, radius) for the renderer


@dataclass
class Loaded:
    """A game row with its ruleset and decoded state, and what has been asked of that state.

    ``known`` holds the rules' answers about this state (who acts, the public view, the outcome,
    a seat's legal orders) so that each is asked once per (game, version): ``Table.decode`` hands
    every Loaded of one version the same ``known``, and the answers may depend only on the state
    and on what the version fixes in the row (its seats and status). Callers must not mutate the
    state, nor the answers."""

    row: GameRow
    rules: Ruleset[Any, Any]
    state: Any
    known: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    def memo(self, key: Any, work: Callable[[], T]) -> T:
        """``work()``, done once for this state (later calls return the first answer)."""
        if key not in self.known:
            self.known[key] = work()
        answer: T = self.known[key]
        return answer

    def to_act(self) -> list[str]:
        return list(self.memo("to_act", lambda: self.rules.to_act(self.state)))

    def outcome(self) -> Outcome | None:
        return self.memo("outcome", lambda: self.rules.outcome(self.state))

    def public_view(self) -> View:
        """What everyone sees (``view(state, None)``)."""
        return self.memo("view", lambda: self.rules.view(self.state, None))

    def view(self, viewer: str | None) -> View:
        """``viewer``'s picture now. Once the game is ended at the table (a concession, /game end)
        the rules' state may still name who acts next; nobody does, so that line is dropped."""
        view = self.rules.view(self.state, viewer)
        return view if self.row.status in ("setup", "running") else ended_view(view)

    def seats(self) -> list[Seat]:
        return list(self.memo("seats", lambda: self.rules.seats(self.state)))

    def legal(self, seat: str) -> list[str]:
        """The seat's legal orders as autocomplete offers them (``legal_texts``)."""
        return list(self.memo(("legal", seat), lambda: legal_texts(self.rules, self.state, seat)))




NEXT_LINE = re.compile(r"^(?:Next|To act): ")  # the rules' line naming who acts


GAME_OVER = "Game over."


def ended_view(view: View) -> View:
    """``view`` of a game that has ended: headed "Game over." (the rules' own lines may still say
    whose phase it was, as the state stood at a concession) and without their lines naming who acts."""
    keep = [i for i, line in enumerate(view.status) if not NEXT_LINE.match(line)]
    status = tuple(view.status[i] for i in keep)
    if status[:1] == (GAME_OVER,):
        return view
    return dataclasses.replace(view, status=(GAME_OVER, *status),
                               headline=1 + sum(1 for i in keep if i < view.headline))


def unstorable(text: str) -> str | None:
    """Why ``text`` cannot be stored, or None: a NUL (PostgreSQL refuses it in text) or a lone
    surrogate (no UTF-8 spelling, so no database driver takes it). Says where, never echoes it."""
    nul = text.find("\x00")
    try:
        text.encode("utf-8")
        bad = -1
    except UnicodeEncodeError as exc:
        bad = exc.start
    if nul < 0 and bad < 0:
        return None
    at = min(i for i in (nul, bad) if i >= 0)
    what = "a NUL character (U+0000)" if at == nul else f"a lone surrogate (U+{ord(text[at]):04X})"
    return f"character {at + 1} is {what}, which cannot be stored"


def storable_name(text: str) -> str:
    """A display name the front end gave, with anything that cannot be stored replaced by U+FFFD:
    the user cannot change it in the command, so it is mended rather than refused (a surrogate pair
    becomes the character it spells)."""
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").replace("\x00", "\ufffd")


def parse_options(text: str) -> dict[str, str]:
    """``k=v,k2=v2`` -> dict. A part without ``=`` continues the previous value (``sides=Peru,Chile``)."""
    out: dict[str, str] = {}
    last = ""
    for part in filter(None, (p.strip() for p in text.split(","))):
        if "=" not in part:
            if not last:
                raise InvalidSyntax(f"Option {quote(part)} has no value.", hint="Write options as key=value,key2=value2.")
            out[last] += "," + part
            continue
        key, value = (x.strip() for x in part.split("=", 1))
        if not key:
            raise InvalidSyntax(f"Option {quote(part)} has no name.", hint="Write options as key=value,key2=value2.")
        if key in out:
            raise InvalidSyntax(f"Option {quote(key)} is given twice.", hint="Give each option once.")
        out[key] = value
        last = key
    return out


def place(view: View, pos: tuple[float, float]) -> str:
    """A counter's position as /game board zoom: reads it: hex label, square, or x,y inches."""
    if view.board.kind == "hex" and view.board.hex_layout is not None:
        return view.board.hex_layout.label(Hex(int(pos[0]), int(pos[1])))
    if view.board.kind == "square":
        return SquareBoard(int(view.board.width), int(view.board.height)).label(Square(int(pos[0]), int(pos[1])))
    return f"{pos[0]:g},{pos[1]:g}"


ZOOM_RADIUS = {"hex": 3.0, "square": 2.0, "table": 6.0}


def zoom_counters(view: View) -> list[Counter]:
    """The counters /game board zoom: may be centred on by name: those the viewer sees face up,
    not wakes or markers. A face-down counter never answers, so a zoom cannot find a hidden unit."""
    return [c for c in view.counters if not c.face_down and c.kind not in ("wake", "marker") and c.label]


def parse_zoom(view: View, text: str) -> tuple[str | tuple[float, float], float]:
    """``1205``, ``c4 3``, ``12.5,18 8`` or a unit's name (``Monitor``, ``patrick henry 2``):
    where to centre a zoomed board, and how far to show."""
    parts = text.replace(";", " ").split()
    kind = view.board.kind
    radius = ZOOM_RADIUS[kind]
    if len(parts) > 1:
        try:
            radius = float(parts[-1])
        except ValueError:
            if _looks_like_place(kind, " ".join(parts[:-1])):  # "1205 big": a place, then no radius
                raise InvalidSyntax(f"Zoom radius {quote(parts[-1])} is not a number.") from None
        else:
            parts = parts[:-1]
            if not 0.5 <= radius <= 50:
                raise InvalidSyntax("Zoom radius must be between 0.5 and 50.")
    where = " ".join(parts)
    if _looks_like_place(kind, where):
        return _place(view, where), radius
    counters = {c.id: c for c in zoom_counters(view)}
    names = {cid: c.label for cid, c in counters.items()}
    what = "hex number" if kind == "hex" else "square" if kind == "square" else "point"
    example = {"hex": "1205", "square": "c4", "table": "12,18"}[kind]
    if not names:
        raise InvalidSyntax(f"Cannot zoom to {quote(where)}: it is not a {what} of this board, and no unit is in sight.",
                            hint=f"Write a {what} ({example}), then a radius if you like ({example} 3).")
    try:
        at = _zoomed_unit(where, names, {cid: c.name or c.label for cid, c in counters.items()})
    except UnknownName:
        listed = sorted(set(names.values()), key=str.casefold)
        known = f"Units: {', '.join(listed)}." if len(listed) <= SHORT_LIST else closest_hint(where, names, tail="")
        raise UnknownName(f"Cannot zoom to {quote(where)}: it is neither a {what} nor a unit you can see.",
                          hint=f"Write a {what} ({example}) or a unit's name, then a radius if you like "
                               f"({listed[0]} 2). {known}") from None
    return _place(view, place(view, counters[at].pos)), radius


def _zoomed_unit(where: str, labels: dict[str, str], full: dict[str, str]) -> str:
    """The unit ``where`` names: by its board label, else by its full name where the label is cut
    short ("5e Chass." is "5e Chasseurs à cheval", so "5e chasseurs" finds it)."""
    try:
        return resolve_name(where, labels, "unit")
    except UnknownName:
        if full == labels:
            raise
        return resolve_name(where, full, "unit")


def _looks_like_place(kind: str, where: str) -> bool:
    """Written as a hex number, a square or a point (anything else is taken as a unit's name)."""
    if kind == "hex":
        return where.isdigit()
    if kind == "square":
        return re.fullmatch(r"[A-Za-z]\d+", where) is not None
    return "," in where


def _place(view: View, where: str) -> str | tuple[float, float]:
    """A hex, square or point of the board as the renderer takes it; refused when off the board."""
    kind = view.board.kind
    if kind == "hex" and view.board.hex_layout is not None:
        view.board.hex_layout.parse(where)
        return where
    if kind == "square":
        SquareBoard(int(view.board.width), int(view.board.height)).parse(where)
        return where.lower()
    try:
        x_text, y_text = where.split(",")
        x, y = float(x_text), float(y_text)
    except ValueError:
        raise InvalidSyntax(f"Zoom point {quote(where)} should be x,y in inches, e.g. 12,18.") from None
    if not (0 <= x <= view.board.width and 0 <= y <= view.board.height):
        raise InvalidSyntax(f"Point {quote(where)} is off the {view.board.width:g}x{view.board.height:g} inch table.")
    return (x, y)


def rules_played(row: GameRow, rules: Ruleset[Any, Any]) -> str | None:
    """None when ``row`` was created under the rules version the bot runs; else a sentence naming
    both versions, for answers about a game an update of the rules may have left behind."""
    if row.rules == rules.rules_version:
        return None
    return (f"This game was played under {rules.name} rules {version_words(row.rules)}; this bot runs version "
            f"{rules.rules_version}.")


def version_words(played: str) -> str:
    """A stored rules version as a reader sees it ("" is a game stored before versions were kept)."""
    return f"version {played}" if played else "a version from before versions were recorded"


def ruleset_for(system: str) -> Ruleset[Any, Any]:
    """The rule system of a stored row or an export: a game's, or the channel table tools'."""
    return TOOLS if system == TOOLS.id else get_ruleset(system)


def fold(
    rules: Ruleset[Any, Any], seed: bytes, scenario: str, options: dict[str, str], orders: Iterable[tuple[str, str]],
    *, shown_only: bool = False,
) -> Iterator[tuple[Any, Rng, list[Event]]]:
    """Replay a game: set-up, then each (seat, order text) in turn, yielding the state, the random
    stream and that step's events after set-up and after every order (the same live objects).
    A concession (``CONCEDE_ORDER``, logged by /game concede) changes no state and draws nothing.
    ``shown_only``: the stored orders are only shown again (``Ruleset.replay``: checks that can
    only refuse may be skipped); a verify, or anything that acts on the result, leaves it False."""
    play = rules.replay if shown_only else rules.play
    rng = Rng(seed)
    state = rules.setup(scenario, options, rng)
    yield state, rng, []
    for seat, text in orders:
        if text == CONCEDE_ORDER:
            yield state, rng, [concession_event(rules, state, seat)]
            continue
        yield state, rng, play(state, seat, text, rng)


# /game concede is logged as an order with this text, for the conceding side's seat. No system's
# notation starts with "/" (tests/bot/test_concede.py checks every system refuses it as an order),
# so replay, export and verify tell it from a rules order without asking the rule system.
CONCEDE_ORDER = "/concede"


def side_of(seat: Seat) -> str:
    """The side a seat plays for (a ship's seat belongs to its side; a side's seat is the side)."""
    return seat.side or seat.id


def side_labels(rules: Ruleset[Any, Any], state: Any) -> dict[str, str]:
    """Side id -> its label, in seat order (the umpire is no side): its own seat's label, else (a
    side whose seats are its parts, e.g. an Oak & Iron fleet's squadrons) the view's name for it."""
    labels: dict[str, str] = {}
    named: dict[str, str] | None = None
    for seat in rules.seats(state):
        if seat.kind != "umpire" and seat.id != UMPIRE:
            side = side_of(seat)
            if side == seat.id:
                labels[side] = seat.label
            elif side not in labels:
                if named is None:
                    named = {s.id: s.name for s in rules.view(state, None).sides}
                labels[side] = named.get(side, side)
    return labels


def conceded_seats(rules: Ruleset[Any, Any], orders: Iterable[OrderRow]) -> set[str]:
    """The seats that conceded in the log (the orders not undone), by /game concede's mark or by the
    rules' own concede order (``Ruleset.concede_order``): both are one concession."""
    marks = {CONCEDE_ORDER, rules.concede_order}
    return {o.seat for o in orders if o.text in marks}


def conceded_sides(rules: Ruleset[Any, Any], state: Any, held: Iterable[str], orders: Iterable[OrderRow]) -> set[str]:
    """The sides out of the game: those every held seat of which (``held``, the game's seated
    seats) has conceded. A side of one seat is out once that seat concedes; a side whose seats are
    its parts (an Oak & Iron fleet's Squadrons) only once each of its players has."""
    seats = {s.id: s for s in rules.seats(state)}
    conceded = conceded_seats(rules, orders)
    teams: dict[str, list[str]] = {}
    for seat_id in held:
        if seat_id in seats:
            teams.setdefault(side_of(seats[seat_id]), []).append(seat_id)
    return {side for side, team in teams.items() if all(s in conceded for s in team)}


def concession_event(rules: Ruleset[Any, Any], state: Any, seat_id: str) -> Event:
    """A seat's concession: its side's, or (a seat that is one part of a side, such as an Oak &
    Iron Squadron) that seat's share of its side's concession."""
    seat = next((s for s in rules.seats(state) if s.id == seat_id), None)
    side = side_of(seat) if seat is not None else seat_id
    name = side_labels(rules, state).get(side, side)
    if seat is not None and seat.id != side:
        return Event(f"{seat.label} concedes for {name}.")
    return Event(f"{name} concedes.")


def replay_steps(orders: int, cap: int) -> list[int]:
    """The fold steps a replay shows (0 = set-up, i = after order i): all of them when they fit in
    ``cap`` frames, else ``cap`` evenly spaced ones that always include the set-up and the last."""
    if orders + 1 <= cap:
        return list(range(orders + 1))
    return sorted({round(i * orders / (cap - 1)) for i in range(cap)})


def event_json(e: Event) -> dict[str, Any]:
    return {"text": e.text, "to": sorted(e.to) if e.to is not None else None, "reveals": e.reveals}

TRUE, FALSE = ("true", "yes", "y", "on", "1"), ("false", "no", "n", "off", "0", "")


def flag(opts: dict[str, str], key: str) -> bool:
    """A true/false option (Discord sends true or false; the console takes what is typed): anything
    else is refused rather than read as false, so a mistyped preview:ture never gives the order."""
    value = opts.get(key, "").lower()
    if value not in TRUE + FALSE:
        raise InvalidSyntax(f"{key}:{quote(value)} is neither true nor false.", hint=f"Write {key}:true or leave it out.")
    return value in TRUE


def picture(view: View) -> View:
    """What a posted board shows that the message does not already say: the map, the counters, the
    lines drawn on it and its title. The status strip under the picture only repeats news the
    message text and the pinned status message carry, so a change there alone posts no board."""
    return dataclasses.replace(view, status=(), private_text=())

