"""Table manners (issue 13, items 1 and 6), through the table service with every rule system.

An order posts in the channel only when something public changed; a board goes with the post only
when the picture changed (or the game ended); pings go only to whoever's turn it newly is; a
hidden order posts nothing at all, so nobody can count sealed orders or time them; and the end of
a game is announced once. The systems' own console scripts are played line by line and every
order is checked against these rules; the hex-ironclads fire phase is checked in detail.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.console import parse_line
from bot.database import open_store
from bot.rooms.seats import users_to_act
from bot.service import Output, TableService, User
from games.core.rng import seed_from_number
from games.core.ruleset import UMPIRE
from games.core.view import View

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "tests" / "scripts"
GAMES = sorted(str(p.relative_to(SCRIPTS)) for p in SCRIPTS.glob("*/*.txt"))  # every system's scripts


@dataclass
class Moment:
    """The public side of a game at one moment: its status, seats to act, users to act, public view."""

    status: str
    seats: frozenset[str]
    users: list[str]
    view: View | None
    status_text: str


@dataclass
class Step:
    user: str
    command: str
    text: str
    outputs: list[Output]
    before: Moment | None
    after: Moment | None
    public_events: list[str]
    order_seat: str


async def service(seed: int) -> TableService:
    from tempfile import mkdtemp

    counter = iter(range(1_000_000))
    store = await open_store(Path(mkdtemp(prefix="noise-")) / "table.db")
    # the console's mention form: user ids are "@name", shown as they are
    return TableService(store, mention=lambda uid: uid, seed_source=lambda: seed_from_number(seed * 1_000_000 + next(counter)))


async def moment(svc: TableService, channel: str) -> Moment | None:
    row = await svc.store.latest_game(channel)
    if row is None or row.system == "tools":
        return None
    loaded = svc.table.decode(row)
    spectator = User("spectator", "spectator")
    status = "\n".join(o.text for o in await svc.handle(channel, spectator, "game status", {}))
    return Moment(row.status, frozenset(loaded.rules.to_act(loaded.state)), users_to_act(loaded),
                  loaded.rules.view(loaded.state, None), status)


async def play(lines: list[str], seed: int = 1, channel: str = "#table") -> list[Step]:
    """Run script lines as the console does, recording each command with the game around it."""
    svc = await service(seed)
    try:
        return await _play(svc, lines, channel)
    finally:
        await svc.store.close()


async def _play(svc: TableService, lines: list[str], channel: str) -> list[Step]:
    user = User("@you", "you")
    steps: list[Step] = []
    for raw in lines:
        line = raw.strip().lstrip("!").strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("as "):
            parts = line[3:].split()
            name = parts[0] if parts[0].startswith("@") else "@" + parts[0]
            user = User(name, name.lstrip("@"), manage_server="manage" in parts[1:])
            continue
        if line.startswith("in "):
            channel = line[3:].strip()
            continue
        command, options = parse_line(line)
        before = await moment(svc, channel)
        orders_before = await _order_count(svc, channel)
        outputs = await svc.handle(channel, user, command, options)
        after = await moment(svc, channel)
        events: list[str] = []
        seat = ""
        if command == "order" and await _order_count(svc, channel) > orders_before:
            row = await svc.store.latest_game(channel)
            assert row is not None
            last = (await svc.store.orders(row.id))[-1]
            events, seat = [e["text"] for e in last.events if e["to"] is None], last.seat
        steps.append(Step(user.id, command, options.get("text", ""), outputs, before, after, events, seat))
    return steps


async def _order_count(svc: TableService, channel: str) -> int:
    row = await svc.store.latest_game(channel)
    return len(await svc.store.orders(row.id)) if row is not None and row.system != "tools" else 0


def script(name: str) -> tuple[list[str], int]:
    text = (SCRIPTS / name).read_text()
    seed = re.search(r"--seed (\d+)", text)
    return text.splitlines(), int(seed[1]) if seed else 1


def channel_messages(outputs: list[Output]) -> list[Output]:
    return [o for o in outputs if o.kind == "message"]


def mentioned(text: str, users: set[str]) -> set[str]:
    return {u for u in re.findall(r"@[\w-]+", text) if u in users}


def picture(view: View | None) -> View | None:
    return None if view is None else dataclasses.replace(view, status=(), private_text=())


def orders(steps: list[Step]) -> list[Step]:
    """The orders that were carried out (refused ones change nothing and say so privately)."""
    return [s for s in steps if s.order_seat]


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
async def test_every_order_posts_only_what_changed_in_public(name: str) -> None:
    lines, seed = script(name)
    steps = await play(lines, seed)
    people = {s.user for s in steps}
    assert orders(steps), "the script gives orders"
    for step in orders(steps):
        before, after = step.before, step.after
        assert before is not None and after is not None
        where = f"{name}: {step.user} {step.text!r}"
        posted = channel_messages(step.outputs)
        over = after.status == "over"
        seats_changed = before.seats != after.seats
        changed = bool(step.public_events) or over or seats_changed or before.view != after.view
        if not step.public_events and not over:  # the rules' side: a hidden order must not show
            assert not seats_changed, f"{where}: a hidden order changed who is to act"
            assert before.view == after.view, f"{where}: a hidden order changed the public view"
        if not changed:
            assert not posted, f"{where}: a hidden order posted {[o.text for o in posted]}"
            notes = [o for o in step.outputs if o.kind == "ephemeral" and o.to == step.user]
            assert len(notes) == 1 and "nothing was posted" in notes[0].text, where
            assert after.status_text == before.status_text, f"{where}: the status message would change"
            continue
        assert posted, f"{where}: a public change went unposted"
        boards = [o for o in posted if o.view is not None]
        redrawn = over or picture(before.view) != picture(after.view)
        assert len(boards) == (1 if redrawn else 0), f"{where}: {len(boards)} boards, picture changed: {redrawn}"
        assert all(o.view is None for o in posted[1:]), f"{where}: the board rides on the first message"
        pinged = set().union(*(mentioned(o.text, people) for o in posted))
        newly = set(after.users) - set(before.users)
        assert newly <= pinged, f"{where}: {newly - pinged} newly to act but not pinged"
        umpire_moved_on = step.order_seat == UMPIRE and seats_changed
        if not umpire_moved_on:
            again = pinged & set(before.users)
            assert not again, f"{where}: {again} pinged again though already to act"
        assert pinged <= set(after.users), f"{where}: pinged {pinged - set(after.users)}, who are not to act"


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
async def test_the_end_is_announced_once(name: str) -> None:
    lines, seed = script(name)
    steps = await play(lines, seed)
    ended = [s for s in steps if s.after is not None and s.after.status == "over" and s.before is not None
             and s.before.status == "running"]
    assert len(ended) == 1, f"{name}: the script ends its game once"
    posted = "\n".join(o.text for s in steps for o in channel_messages(s.outputs))
    assert posted.count("**Game over.**") == 1
    assert posted.lower().count("game over") == 1, "the rules' own 'Game over' line is not posted again"
    last = channel_messages(ended[0].outputs)
    assert "**Game over.**" in last[0].text or "**Game over.**" in "\n".join(o.text for o in last)
    reason = next(line for line in "\n".join(o.text for o in last).splitlines() if line.startswith("**Game over.**"))
    why = reason.split(". ", 1)[1].strip()  # "**Game over.** Winner: x. <reason>"
    for part in filter(None, (p.strip().rstrip(".") for p in why.split(". "))):
        assert posted.count(part) == 1, f"{name}: {part!r} (of the reason {why!r}) is said more than once"
    assert sum(o.view is not None for o in last) == 1, "the final board goes with the game-over message"


@pytest.mark.slow
async def test_days_of_iron_set_up_posts_no_board() -> None:
    """The 20 copies of the same empty map: set-up changes nothing on the map, so no board is posted
    until something on it changes (here: the game's end)."""
    lines, seed = script("days_of_iron/meeting.txt")
    steps = await play(lines, seed)
    start = next(i for i, s in enumerate(steps) if s.command == "game start")
    assert channel_messages(steps[start].outputs)[0].view is not None  # the opening board
    set_up = [s for s in orders(steps) if s.before is not None and "Set-up" in s.before.status_text]
    assert len(set_up) >= 5
    assert not [o for s in set_up for o in s.outputs if o.kind == "message" and o.view is not None]
    boards = [o for s in steps[start + 1:] for o in channel_messages(s.outputs) if o.view is not None]
    assert len(boards) == 1 and "**Game over.**" in boards[0].text


HEX_DUEL = """
as @alice
/game new system:hex-ironclads scenario:duel
/game join seat:union
as @bob
/game join seat:confederate
as @carol
/game join seat:umpire
as @alice
/game start
""".strip().splitlines()


async def fire_phase(extra_union_orders: list[str]) -> list[Step]:
    """Turn 1 of the duel: Union gives the orders given, seals; Confederate fires and seals."""
    lines = [*HEX_DUEL, *(f"/order text:{o}" for o in extra_union_orders), "/order text:seal",
             "as @bob", "/order text:Virginia fire Monitor", "/order text:seal"]
    steps = await play(lines)
    return steps[len(HEX_DUEL) - 4:]  # from the start on (the as lines are not steps)


async def test_a_secret_fire_order_posts_nothing_and_pings_nobody() -> None:
    steps = await fire_phase(["Monitor fire Virginia", "Monitor hold", "Monitor fire Virginia"])
    secret = [s for s in steps if s.text.startswith("Monitor ")]
    assert len(secret) == 3
    for step in secret:
        assert not channel_messages(step.outputs)
        assert not [o for o in step.outputs if "@bob" in o.text]
        to = {o.to for o in step.outputs}
        assert to <= {"@alice", "@carol"}, to  # the giver, and the umpire's copy
        note = next(o for o in step.outputs if o.kind == "ephemeral")
        assert note.to == "@alice" and "Order noted for Union" in note.text and "nothing was posted" in note.text
        assert "secret until the reveal" in note.text  # the one private reply carries the private event (issue 24)


async def test_sealing_posts_text_and_the_reveal_posts_one_board_and_one_ping() -> None:
    steps = await fire_phase(["Monitor fire Virginia"])
    union_seal, bob_fire, bob_seal = steps[-3:]
    (sealed,) = channel_messages(union_seal.outputs)
    assert "Union has sealed its fire orders" in sealed.text and "Waiting for Confederate." in sealed.text
    assert sealed.view is None  # nothing moved on the map
    assert not mentioned(sealed.text, {"@alice", "@bob", "@carol"})  # Confederate was pinged at the start
    assert not channel_messages(bob_fire.outputs)
    revealed = channel_messages(bob_seal.outputs)
    assert [o.view is not None for o in revealed] == [True] + [False] * (len(revealed) - 1)
    text = "\n".join(o.text for o in revealed)
    assert "All fire orders are sealed" in text
    assert bob_seal.after is not None
    (mover,) = bob_seal.after.users
    assert re.findall(r"@\w+", text) == [mover] and f"Next: {mover}" in text


@pytest.mark.slow
async def test_the_channel_cannot_count_sealed_orders() -> None:
    """However many fire orders a side gives, changes or takes back, the channel sees the same posts:
    one per seal. The status message is the same before and after each hidden order, too."""
    few = await fire_phase([])
    many = await fire_phase(["Monitor fire Virginia", "Monitor hold", "Monitor fire Virginia", "Monitor hold"])

    def shape(steps: list[Step]) -> list[tuple[int, bool, frozenset[str]]]:
        return [(len(channel_messages(s.outputs)), any(o.view is not None for o in s.outputs if o.kind == "message"),
                 frozenset(mentioned("\n".join(o.text for o in channel_messages(s.outputs)), {"@alice", "@bob", "@carol"})))
                for s in steps if channel_messages(s.outputs)]

    assert shape(few) == shape(many)
    for step in many:
        if step.text.startswith("Monitor "):
            assert step.before is not None and step.after is not None
            assert step.before.status_text == step.after.status_text


async def test_the_umpire_ending_a_phase_pings_the_side_that_now_moves() -> None:
    """Both sides are writing fire orders; the umpire reveals. The side that moves first was already
    to act (writing orders), but now has something else to do, so it is pinged; nobody else is."""
    lines = [*HEX_DUEL, "/order text:Monitor fire Virginia", "as @carol", "/order text:reveal"]
    steps = await play(lines)
    reveal = steps[-1]
    assert reveal.before is not None and reveal.after is not None
    assert reveal.before.users == ["@alice", "@bob"]
    (mover,) = reveal.after.users
    text = "\n".join(o.text for o in channel_messages(reveal.outputs))
    assert re.findall(r"@\w+", text) == [mover]


async def test_a_free_table_concession_ends_the_game_once() -> None:
    lines = """
as @alice
/game new system:table scenario:free options:sides=Peru,Chile
/game join seat:peru
as @bob
/game join seat:chile
/game start
/order text:place Esmeralda d8 S
/order text:concede
""".strip().splitlines()
    steps = await play(lines)
    place, concede = steps[-2:]
    assert channel_messages(place.outputs)[0].view is not None
    (end,) = channel_messages(concede.outputs)
    assert end.text.count("Game over") == 1 and "Chile concedes." in end.text and end.view is not None


async def test_a_table_tools_seal_is_one_post_that_pings_nobody_else() -> None:
    """A sealed round's rules make each seal public (its commitment, and how many have sealed, so
    the reveal can be checked): one post, no board, and the others are not pinged again (the round's
    opening named them)."""
    lines = """
as @alice
/seal open who:@alice @bob
/seal text:Huascar fires at Esmeralda
as @bob
/seal text:Esmeralda turns to port
""".strip().splitlines()
    steps = await play(lines)
    opened, alice_seals, bob_seals = steps
    (opening,) = [o for o in channel_messages(opened.outputs) if "opened sealed orders" in o.text]
    assert mentioned(opening.text, {"@alice", "@bob"}) == {"@alice", "@bob"}
    (sealed,) = channel_messages(alice_seals.outputs)
    assert "has sealed (1/2)" in sealed.text and sealed.view is None
    assert mentioned(sealed.text, {"@bob"}) == set()
    assert [o.to for o in alice_seals.outputs if o.kind == "dm"] == ["@alice"]
    revealed = "\n".join(o.text for o in channel_messages(bob_seals.outputs))
    assert "Sealed orders revealed" in revealed


@pytest.mark.parametrize("how", ["creator", "vote", "concede"])
async def test_every_way_to_end_says_so_once(how: str) -> None:
    """/game end by whoever may end at once, the players' end vote and /game concede: one message
    each, with the seed once; nothing else in the channel says the game is over."""
    ending = {
        "creator": ["as @carol", "/game end"],  # carol set the game up
        "vote": ["as @bob", "/game end", "as @alice", "/game end"],
        "concede": ["as @bob", "/game concede confirm:true"],
    }[how]
    lines = """
as @carol
/game new system:hex-ironclads scenario:duel
as @alice
/game join seat:union
as @bob
/game join seat:confederate
/game start
""".strip().splitlines()
    steps = await play([*lines, *ending])
    last = steps[-1]
    assert last.after is not None and last.after.status == "over", [o.text for o in last.outputs]
    (message,) = channel_messages(last.outputs)
    posted = "\n".join(o.text for s in steps for o in channel_messages(s.outputs))
    assert posted.count("Seed: `") == 1 and message.text.count("Seed: `") == 1
    assert posted.lower().count("game over") <= 1
