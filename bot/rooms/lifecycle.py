"""Game lifecycle and seats: /game new, join, leave, assign, start, status, board, end, concede,
list."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from bot.mentions import mentioned_users
from bot.rooms.common import (
    CONCEDE_ORDER,
    MAX_MESSAGE,
    NEXT_LINE,
    Loaded,
    Output,
    User,
    conceded_seats,
    conceded_sides,
    concession_event,
    ended_view,
    event_json,
    flag,
    parse_options,
    parse_zoom,
    picture,
    side_labels,
    side_of,
)
from bot.rooms.context import Table
from bot.rooms.delivery import give_order
from bot.rooms.seats import (
    game_over_lines,
    mentions,
    players_of,
    private_views,
    resolve_seat,
    seat_label,
    seed_reveal,
    summary,
    umpire_of,
    user_seats,
    users_to_act,
)
from bot.storage import ChannelTaken, GameRow
from bot.text import split_text
from games.core.codec import clone, to_json
from games.core.errors import GameError, IllegalOrder, InvalidSyntax, NotAllowed, UnknownName, WrongPhase, quote
from games.core.options import check_options
from games.core.rng import Rng, commitment
from games.core.ruleset import UMPIRE, Outcome, Ruleset, Seat, get_ruleset, read_order, system_ids
from games.tools import small_number

LIST_PAGE = 10  # games per /game list page
LATER_COUNTER_FIELDS = {"name": ""}  # Counter fields newer than the stored end votes' marks, and their defaults
CHANNEL_HAS_GAME = "This channel already has a game."
CHANNEL_HAS_GAME_HINT = "Finish it with /game end, or use another channel."
END_RULE = ("Only the umpire, whoever created the game, or a member with Manage Server can end it at once; "
            "otherwise it ends when every seated player has voted with /game end.")
VOTES_LAPSE = "(Any change on the board, in who is to act or in the seats clears the votes.)"


class Lifecycle:
    """Set a game up, fill its seats, start it, show it, end it."""

    def __init__(self, ctx: Table) -> None:
        self.ctx = ctx

    async def game_new(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        if flag(opts, "thread"):  # the Discord adapter makes threads
            raise InvalidSyntax("This table has no threads: thread:true works on Discord only.",
                                hint="Leave out thread:, or open another channel.")
        if await self.ctx.live_game(channel):
            raise IllegalOrder(CHANNEL_HAS_GAME, hint=CHANNEL_HAS_GAME_HINT)
        rules, system, scenario, full = new_game_spec(opts)
        scenarios = rules.scenarios()
        seed = self.ctx.seed_source()
        rng = Rng(seed)
        state = rules.setup(scenario, full, rng)
        try:
            row = await self.ctx.store.create_game(
                channel=channel, system=system, scenario=scenario, options=full, seed=seed,
                commitment=commitment(seed), status="setup", snapshot=rules.encode(state), counter=rng.counter,
                creator=user.id, guild=self.ctx.guilds.get(channel, ""), rules=rules.rules_version,
            )
        except ChannelTaken:
            raise IllegalOrder(CHANNEL_HAS_GAME, hint=CHANNEL_HAS_GAME_HINT) from None
        seats = rules.seats(state)
        name = next(s.name for s in scenarios if s.id == scenario)
        only = "" if opts.get("scenario", "").strip() else f" (its only scenario, `{scenario}`, since none was named)"
        text = (
            f"<@{user.id}> set up **{rules.name}**: {name}{only}.\n"
            f"Seed commitment: `{row.commitment}` (SHA-256 of the secret seed, published at the end).\n"
            f"Seats: {', '.join(f'{s.label} (`{s.id}`)' for s in seats)}.\n"
            "Take a seat with /game join seat:<seat>, then /game start."
        )
        return [Output("message", text, channel=channel)]

    async def game_join(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        loaded = await self.ctx.live(channel)
        row = loaded.row
        seats = {s.id: s for s in loaded.rules.seats(loaded.state)}
        open_seats = [s for s in seats if s not in row.seats]
        wanted = opts.get("seat", "")
        if wanted in ("", "?"):
            return [Output("ephemeral", "Open seats: " + (", ".join(open_seats) or "none"), to=user.id)]
        seat = resolve_seat(seats, wanted)
        if row.status != "setup" and seat.id != UMPIRE:
            raise WrongPhase("This game has already started.", hint="Ask the umpire to assign you a seat with /game assign.")
        if row.status != "setup" and not user.manage_server:
            raise NotAllowed("The umpire sees every hand and sealed order, so once the game has begun only a member "
                             "with Manage Server may take the umpire seat (or /game assign it).")
        if seat.id in row.seats:
            holder = row.seats[seat.id]["user"]
            raise IllegalOrder(f"Seat {quote(seat.label)} is taken by <@{holder}>.", hint="Open seats: " + (", ".join(open_seats) or "none") + ".")
        if seat.id == UMPIRE and user_seats(row, user.id):
            raise IllegalOrder("The umpire cannot also hold a side's seat.", hint="Leave your seat first with /game leave.")
        if UMPIRE in row.seats and row.seats[UMPIRE]["user"] == user.id:
            raise IllegalOrder("You are the umpire here and cannot also hold a side's seat.")
        new_seats = dict(row.seats) | {seat.id: {"user": user.id, "name": user.name}}
        await self.ctx.store.update_game(row, seats=new_seats)
        return [Output("message", f"<@{user.id}> takes the seat **{seat.label}**.", channel=channel)]

    async def game_leave(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        loaded = await self.ctx.live(channel)
        mine = user_seats(loaded.row, user.id)
        if not mine:
            raise NotAllowed("You hold no seat in this game.")
        if loaded.row.status == "running" and UMPIRE not in loaded.row.seats:
            note = " The game waits for a new player in that seat (the umpire or a Manage Server member can /game assign)."
        else:
            note = ""
        seats = {k: v for k, v in loaded.row.seats.items() if k not in mine}
        await self.ctx.store.update_game(loaded.row, seats=seats)
        return [Output("message", f"<@{user.id}> leaves {', '.join(mine)}.{note}", channel=channel)]

    async def game_assign(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        """Umpire (or Manage Server): put a user in a seat, or empty it (``user:none``)."""
        loaded = await self.ctx.live(channel)
        if umpire_of(loaded.row) != user.id and not user.manage_server:
            raise NotAllowed("Only the umpire or a member with Manage Server can assign seats.")
        seats = {s.id: s for s in loaded.rules.seats(loaded.state)}
        seat = resolve_seat(seats, opts.get("seat", ""))
        target = opts.get("user", "").strip()
        new = dict(loaded.row.seats)
        if target.lower() in ("", "none"):
            new.pop(seat.id, None)
            text = f"Seat **{seat.label}** is now empty."
        else:
            named = mentioned_users(target, self.ctx.mention)
            if len(named) != 1:
                raise InvalidSyntax(f"Assign one user, not {quote(target)}.", hint="e.g. /game assign seat:red user:@alice")
            uid = named[0]
            others = {s for s, who in new.items() if who["user"] == uid and s != seat.id}
            if (seat.id == UMPIRE and others) or (seat.id != UMPIRE and UMPIRE in others):
                raise IllegalOrder(f"<@{uid}> cannot be both the umpire and a side's player.",
                                   hint="Empty their other seat first with /game assign seat:<seat> user:none.")
            new[seat.id] = {"user": uid, "name": opts.get("name", uid)}
            text = f"<@{uid}> now holds the seat **{seat.label}** (assigned by <@{user.id}>)."
        await self.ctx.store.update_game(loaded.row, seats=new)
        return [Output("message", text, channel=channel)]

    async def game_start(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        loaded = await self.ctx.live(channel)
        row = loaded.row
        if row.status != "setup":
            raise WrongPhase("This game has already started.")
        if not user_seats(row, user.id) and user.id != row.creator:
            raise NotAllowed("Only a seated player or whoever created the game can start it.")
        missing = [s.label for s in loaded.rules.seats(loaded.state) if not s.optional and s.id not in row.seats]
        if missing:
            raise WrongPhase(f"Seats still empty: {', '.join(missing)}.", hint="Fill them with /game join seat:<seat> first.")
        loaded.rules.check_start(loaded.state, set(row.seats))
        row = await self.ctx.store.update_game(row, status="running", last_activity=self.ctx.clock())
        loaded = Loaded(row, loaded.rules, loaded.state)
        to_act = users_to_act(loaded)
        text = f"The game begins! {summary(loaded)}"
        if to_act:
            text += f"\nTo act: {mentions(to_act)}"
        return [Output("message", text, channel=channel, view=loaded.rules.view(loaded.state, None)),
                *private_views(loaded, None)]

    async def game_status(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        return await self.status_of(await self.ctx.latest(channel), user)

    async def status_of(self, loaded: Loaded, user: User) -> list[Output]:
        """/game status of this game (the pinned status message is its text too)."""
        row = loaded.row
        seats = loaded.seats()
        told = loaded.memo("summary", lambda: summary(loaded))
        if row.status not in ("setup", "running"):  # a game ended at the table (concession, /game end): nobody is to act,
            told = "\n".join(line for line in told.split("\n") if not NEXT_LINE.match(line))  # whatever the rules' state says
        lines = [f"**{loaded.rules.name}** ({row.scenario}), {row.status}.", told]
        lines.append("Seats: " + ", ".join(
            f"{s.label}: {('<@' + row.seats[s.id]['user'] + '>') if s.id in row.seats else 'open'}" for s in seats))
        if row.status == "running":
            users = users_to_act(loaded)
            if users:
                lines.append(f"To act: {mentions(users)}")
        if row.status in ("setup", "running"):
            players, voted = players_of(row), await self.ctx.end_votes(row, self._public_mark(loaded))
            votes = [p for p in players if p in voted]
            if votes:
                lines.append(f"Votes to end: {mentions(votes)} ({len(votes)}/{len(players)} players).")
        if row.status != "setup" and not loaded.rules.concede_order:  # such rules name who is out in their summary
            out = loaded.known.get("conceded")  # fixed at a version (an order conceding nothing carries it on: give_order)
            if out is None:
                out = loaded.known["conceded"] = conceded_sides(loaded.rules, loaded.state, row.seats,
                                                                await self.ctx.store.orders(row.id, include_undone=False))
            labels = side_labels(loaded.rules, loaded.state)
            if out:
                lines.append(f"Out: {', '.join(labels[s] for s in labels if s in out)} (conceded).")
        outcome = loaded.outcome()
        if outcome:
            lines.append(f"Result: {outcome.reason}")
        return [Output("ephemeral", "\n".join(lines), to=user.id)]

    async def game_board(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        loaded = await self.ctx.latest(channel)
        seats = user_seats(loaded.row, user.id)
        viewer = UMPIRE if UMPIRE in seats else (seats[0] if seats else None)
        view = loaded.view(viewer)
        zoom = parse_zoom(view, opts.get("zoom", "")) if opts.get("zoom") else None
        note = f" around {opts['zoom']}" if zoom else ""
        return [Output("ephemeral", f"Board{note}: {view.title or loaded.rules.name}", to=user.id, view=view, zoom=zoom)]

    async def game_end(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        """The umpire, whoever created the game, or a Manage Server member end it at once; the seated
        players end it together, each by voting. A vote is bookkeeping in the store, not an order:
        it changes nothing in the game and counts only while the game stands as everyone saw it when
        cast (``_public_mark``: a change on the board, in who is to act or in the seats clears the
        votes; a hidden order does not, or the vanishing votes would tell that it was given)."""
        row = await self.ctx.live_row(channel)
        if user.manage_server or umpire_of(row) == user.id or user.id == row.creator:
            try:
                standing = self._standing(self.ctx.decode(row))
            except WrongPhase:  # saved under rules this bot cannot read: it can still be ended
                standing = ""
            await self.ctx.store.update_game(row, status="over")
            return [Output("message", f"<@{user.id}> ended the game.\n{standing}{seed_reveal(row)}", channel=channel)]
        loaded = self.ctx.decode(row)
        players = players_of(row)
        if user.id not in players:
            raise NotAllowed(f"You hold no seat in this game. {END_RULE}")
        mark = self._public_mark(loaded)
        votes = await self.ctx.store.end_votes(row.id, mark) & set(players)
        if user.id in votes:
            waiting = [p for p in players if p not in votes]
            raise IllegalOrder(f"You have already voted to end the game ({len(votes)}/{len(players)} players).",
                               hint=f"Waiting for {mentions(waiting)}.")
        votes.add(user.id)
        if len(votes) == len(players):
            await self.ctx.store.update_game(row, status="over")  # refused if an order came in meanwhile
            return [Output("message", f"<@{user.id}> votes to end too. All {len(players)} players agreed to end the "
                                      f"game.\n{self._standing(loaded)}{seed_reveal(row)}", channel=channel)]
        await self.ctx.store.add_end_vote(row.id, user.id, mark)
        waiting = [p for p in players if p not in votes]
        return [Output("message", f"<@{user.id}> votes to end the game ({len(votes)}/{len(players)} players); "
                                  f"{mentions(waiting)}: /game end to agree. {VOTES_LAPSE}", channel=channel)]

    @staticmethod
    def _standing(loaded: Loaded) -> str:
        """The rules' count of a running game stopped by /game end (Ruleset.standing), a line each;
        worked out only when the game really ends, not for every vote."""
        if loaded.row.status != "running":
            return ""
        return "".join(f"{line}\n" for line in loaded.rules.standing(loaded.state))

    def _public_mark(self, loaded: Loaded) -> int:
        """What everyone can see of the game (the picture, who is to act, the seats), as a number
        that fits the store's 64-bit vote column: end votes count while it stays the same. Worked
        out once per version (the seats and status are the version's too)."""
        return loaded.memo("public_mark", lambda: self._mark(loaded))

    @staticmethod
    def _mark(loaded: Loaded) -> int:
        shown: Any = to_json(picture(loaded.public_view()))
        for counter in shown.get("counters", ()):  # a field added since votes were first kept, at its default,
            for key, default in LATER_COUNTER_FIELDS.items():  # leaves the mark as it was: votes survive the upgrade
                if counter.get(key) == default:
                    del counter[key]
        seen = [shown, sorted(loaded.to_act()) if loaded.row.status == "running" else [], loaded.row.seats, loaded.row.status]
        return int.from_bytes(hashlib.sha256(json.dumps(seen, sort_keys=True).encode()).digest()[:7], "big")

    async def game_concede(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        """A seated player gives up for their side. It is logged as an order (``CONCEDE_ORDER``) for
        each of the player's seats of that side, so the log, export, replay and verify show it; it
        changes nothing on the board. A side whose seats several players hold (an Oak & Iron fleet
        with a seat a Squadron) concedes only once every held seat of it has: a team-mate cannot
        give up the partner's ships, and the game goes on until then. With two sides the other side
        then wins and the game ends; with more (the free table's sides= option) the conceding side is
        out and the game ends once one side is left. The umpire plays no side, so cannot concede;
        without ``confirm`` nothing happens but a reminder of what it would do."""
        loaded = await self.ctx.live(channel)
        row, rules = loaded.row, loaded.rules
        if row.status != "running":
            raise WrongPhase("The game has not started, so there is nothing to concede.",
                             hint="Leave your seat with /game leave, or end the game with /game end.")
        mine = [s for s in user_seats(row, user.id) if s != UMPIRE]
        seats = {s.id: s for s in rules.seats(loaded.state)}
        seat = _conceding_seat(user_seats(row, user.id), seats, opts.get("seat", ""))
        side = side_of(seat)
        labels = side_labels(rules, loaded.state)
        name = labels.get(side, side)
        orders = await self.ctx.store.orders(row.id, include_undone=False)
        conceded = conceded_seats(rules, orders)
        out = conceded_sides(rules, loaded.state, row.seats, orders)
        if side in out:
            raise IllegalOrder(f"{name} has already conceded.")
        team = [s for s in row.seats if s in seats and side_of(seats[s]) == side]  # the side's held seats
        giving = [s for s in team if s in mine and s not in conceded]
        if not giving:
            raise IllegalOrder(f"You have already conceded for {name}; it concedes once "
                               f"{_names(loaded, [s for s in team if s not in conceded])} concede too.")
        waiting = [s for s in team if s not in conceded and s not in giving]
        standing = [s for s in labels if s not in out | ({side} if not waiting else set())]
        if not flag(opts, "confirm"):
            effect = _concession_effect(loaded, name, waiting, [labels[s] for s in standing])
            return [Output("ephemeral", f"Conceding for {name} cannot be taken back: {effect}. "
                                        "To concede, run /game concede confirm:true.", to=user.id)]
        if rules.concede_order:  # the rules keep who is out (a seat each side): their order, exactly as /order gives it
            working = clone(loaded.state)
            order = read_order(rules, working, seat.id, rules.concede_order)
            return await give_order(self.ctx, loaded, working, seat.id, user, order)
        over = not waiting and len(standing) <= 1
        lines = []
        for i, seat_id in enumerate(giving):
            event = concession_event(rules, loaded.state, seat_id)
            last = i == len(giving) - 1
            row = await self.ctx.store.save_order(
                row, seat=seat_id, user_id=user.id, text=CONCEDE_ORDER, events=[event_json(event)],
                snapshot=row.snapshot, counter=row.counter, status="over" if over and last else "running",
            )
            lines.append(event.text)
        if seats[giving[0]].id != side and not waiting:  # the last of its seats: the side itself concedes
            lines.append(f"{name} concedes.")
        text = f"<@{user.id}>: " + " ".join(lines)
        if waiting:
            text += f" {name} plays on until {_names(loaded, waiting)} concede too."
        elif over:  # the same game-over block as every other ending
            ending = Outcome(standing[0] if standing else None,
                             f"{name} conceded." + ("" if standing else " No side is left."))
            text += "\n" + "\n".join(game_over_lines(ending, row, loaded))
        else:
            text += f" Still playing: {', '.join(labels[s] for s in standing)}."
        view = rules.view(loaded.state, None)
        return [Output("message", text, channel=channel, view=ended_view(view) if over else view)]

    async def game_list(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        """This server's games, the most recently active first, with whose turn it is. Players are
        named, not mentioned, so listing games pings nobody."""
        page_text = opts.get("page", "") or "1"
        page = small_number(page_text) or 0
        if page < 1:
            raise InvalidSyntax(f"No list page {quote(page_text)}.", hint="Pages start at 1 (the most recent games).")
        rows = await self.ctx.store.guild_games(self.ctx.guilds.get(channel, ""), limit=LIST_PAGE + 1,
                                            offset=(page - 1) * LIST_PAGE)
        if not rows:
            if page > 1:
                raise InvalidSyntax(f"No list page {page}: the server's games fit on fewer pages.",
                                    hint="Try /game list page:1.")
            return [Output("ephemeral", "No games on this server yet. Start one with /game new.", to=user.id)]
        lines = [f"Games on this server, most recent activity first (page {page}):"]
        for number, row in enumerate(rows[:LIST_PAGE], start=(page - 1) * LIST_PAGE + 1):
            lines.append(f"{number}. <#{row.channel}> {self._list_line(row)}")
        if len(rows) > LIST_PAGE:
            lines.append(f"More: /game list page:{page + 1}")
        return [Output("ephemeral", chunk, to=user.id) for chunk in split_text("\n".join(lines), MAX_MESSAGE)]

    def _list_line(self, row: GameRow) -> str:
        try:
            loaded = self.ctx.decode(row)
        except GameError:  # its system no longer loads here
            return f"**{row.system}** ({row.scenario}): {row.status}"
        head = f"**{loaded.rules.name}** ({row.scenario})"
        if row.status == "setup":
            open_seats = [s.label for s in loaded.rules.seats(loaded.state) if not s.optional and s.id not in row.seats]
            return f"{head}: setting up" + (f", open seats: {', '.join(open_seats)}" if open_seats else ", ready to start")
        if row.status != "running":
            return f"{head}: over"
        waiting = []
        for seat in loaded.rules.to_act(loaded.state):
            who = row.seats.get(seat, {}).get("name") or "seat empty"
            waiting.append(f"{seat_label(loaded, seat)} ({_plain(who)})")
        return f"{head}: running" + (f", to act: {', '.join(waiting)}" if waiting else "")



def _plain(name: str) -> str:
    """A display name shown as text: nothing in it formats, mentions or links."""
    return re.sub(r"([\\*_~`|>#<@\[\]()])", r"\\\1", name)


def new_game_spec(opts: dict[str, str]) -> tuple[Ruleset[Any, Any], str, str, dict[str, str]]:
    """/game new's options checked: (rules, system id, scenario id, every option with defaults)."""
    system = opts.get("system", "")
    if not system:
        raise InvalidSyntax("Name a system.", hint=f"Systems: {', '.join(system_ids())}.")
    system = system.lower()  # ids are lower case; "Table" means table
    rules = get_ruleset(system)
    scenarios = rules.scenarios()
    listed = "Scenarios: " + ", ".join(f"{s.id} ({s.name})" for s in scenarios) + "."
    wanted = opts.get("scenario", "").strip()
    if not wanted and len(scenarios) > 1:  # never a silent pick: the player chooses what to play
        raise InvalidSyntax(f"Name a scenario: {rules.name} has {len(scenarios)}.",
                            hint=f"{listed} For example: /game new system:{system} scenario:{scenarios[0].id}")
    wanted = wanted or scenarios[0].id  # the system's only scenario (game_new says so)
    scenario = next((s.id for s in scenarios if s.id.lower() == wanted.lower()), wanted)
    if scenario not in {s.id for s in scenarios}:
        raise UnknownName(f"{rules.name} has no scenario {quote(scenario)}.", hint=listed)
    specs = rules.options()
    options = check_options(specs, parse_options(opts.get("options", "")), system=rules.name)
    full = {o.key: o.default for o in specs if o.default != ""} | options  # "" = unset
    return rules, system, scenario, full


def _concession_effect(loaded: Loaded, name: str, waiting: list[str], standing: list[str]) -> str:
    """What a confirmed /game concede would do, for the reminder shown before it."""
    if waiting:
        return (f"{name} concedes only once {_names(loaded, waiting)} concede too; "
                "until then the game goes on and your seat plays as before")
    if len(standing) == 1:
        return f"the game ends and {standing[0]} wins"
    return f"{name} is out; {', '.join(standing)} play on"


def _conceding_seat(held: list[str], seats: dict[str, Seat], asked: str) -> Seat:
    """The seat whose side a /game concede gives up: the one named, or the asker's only side's."""
    mine = [s for s in held if s != UMPIRE]
    if not mine:
        if UMPIRE in held:
            raise NotAllowed("The umpire plays no side, so cannot concede for one.",
                             hint="A side's player concedes; the umpire can end the game with /game end.")
        raise NotAllowed("You hold no seat in this game, so you have nothing to concede.")
    if asked:
        seat = resolve_seat(seats, asked)
        if seat.id not in mine:
            raise NotAllowed(f"You do not hold the seat {quote(asked)}.")
        return seat
    sides = list(dict.fromkeys(side_of(seats[s]) for s in mine if s in seats))
    if len(sides) > 1:
        raise InvalidSyntax("You hold seats of several sides: say which one concedes.",
                            hint="e.g. /game concede seat:" + mine[0] + " confirm:true")
    return seats[mine[0]]


def _names(loaded: Loaded, seats: list[str]) -> str:
    """Seats by label with their players, for "concedes once ... concede too"."""
    return ", ".join(f"{seat_label(loaded, s)} (<@{loaded.row.seats[s]['user']}>)" for s in seats)
