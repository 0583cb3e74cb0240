"""Autocomplete: the candidates each option's ``complete`` list (bot/commands.py) offers, only what
the asking user may see."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.commands import COMMANDS
from bot.rooms.common import User, place, zoom_counters
from bot.rooms.context import Table
from bot.rooms.seats import user_seats
from games.core.errors import DataError, GameError
from games.core.ruleset import UMPIRE, get_ruleset, system_ids

Completer = Callable[["Choices", str, User, dict[str, str], str], Awaitable[list[tuple[str, str]]]]


class Choices:
    """The completers (``COMPLETERS`` names them as bot/commands.py does) and the one way to them."""

    def __init__(self, ctx: Table) -> None:
        self.ctx = ctx

    async def pairs(self, channel: str, user: User, command: str, option: str, current: str,
                    given: dict[str, str] | None = None) -> list[tuple[str, str]]:
        """Autocomplete candidates as (label, value), for the option's ``complete`` list in
        bot/commands.py; ``given`` holds the command's other options typed so far. Only what this
        user may see is offered: their own seats' orders, hand, secret rolls and view of the board."""
        spec = COMMANDS.get(" ".join(command.split()).lower())
        param = next((p for p in spec.params if p.name == option), None) if spec else None
        if param is None or not param.complete:
            return []
        completer = COMPLETERS[param.complete]
        try:
            found = await completer(self, channel, user, given or {}, current)
        except (GameError, DataError):
            return []
        needle = current.strip().lower()
        unique = dict((value, label) for label, value in reversed(found))  # the first label of a value wins
        return [(label, value) for value, label in reversed(unique.items())
                if needle in value.lower() or needle in label.lower() or param.complete == "options"]

    async def _complete_systems(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        pairs = []
        for system_id in system_ids():
            try:
                pairs.append((f"{get_ruleset(system_id).name} ({system_id})", system_id))
            except GameError:  # listed but broken on this server: offer the id, /game new explains
                pairs.append((system_id, system_id))
        return pairs

    async def _complete_scenarios(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        systems = [given["system"]] if given.get("system") else system_ids()
        return [(f"{s.name} ({s.id})", s.id) for sid in systems for s in get_ruleset(sid).scenarios()]

    async def _complete_options(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        """``key=value`` completions for the last item of a comma-separated options string."""
        if not given.get("system"):
            return []
        done, _, last = current.rpartition(",")
        prefix = f"{done}," if done else ""
        used = {item.split("=", 1)[0].strip() for item in done.split(",") if item.strip()}
        names = [prefix + f"{spec.key}={value}" for spec in get_ruleset(given["system"]).options() if spec.key not in used
                 for value in (spec.choices or (spec.default,)) if f"{spec.key}={value}".startswith(last.strip())]
        if current and current not in names:
            names.insert(0, current)
        return [(name, name) for name in names]

    async def _complete_seats_free(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        loaded = await self.ctx.live(channel)
        return [(f"{s.label} ({s.id})" if s.label != s.id else s.id, s.id)
                for s in loaded.rules.seats(loaded.state) if s.id not in loaded.row.seats]

    async def _complete_seats(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        loaded = await self.ctx.live(channel)
        held = {seat: who.get("name", who["user"]) for seat, who in loaded.row.seats.items()}
        return [(f"{s.label} ({s.id}) - {'held by ' + held[s.id] if s.id in held else 'empty'}", s.id)
                for s in loaded.rules.seats(loaded.state)]

    async def _complete_my_seats(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        loaded = await self.ctx.live(channel)
        mine = set(user_seats(loaded.row, user.id))
        return [(s.label, s.id) for s in loaded.rules.seats(loaded.state) if s.id in mine]

    async def _complete_orders(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        loaded = await self.ctx.live(channel)
        seats = user_seats(loaded.row, user.id)
        if given.get("seat"):
            wanted = given["seat"].lower()
            seats = [s for s in seats if s.lower() == wanted] or seats
        return [(text, text) for seat in seats for text in loaded.legal(seat)]

    async def _complete_zoom(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        """The places of the units this user can see, named: where /game board zoom: most often goes."""
        loaded = await self.ctx.latest(channel)
        seats = user_seats(loaded.row, user.id)
        view = loaded.rules.view(loaded.state, UMPIRE if UMPIRE in seats else (seats[0] if seats else None))
        return [(f"{c.label} ({place(view, c.pos)})", place(view, c.pos)) for c in zoom_counters(view)]

    async def _complete_deck_sources(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        from games.tools import deck_sources

        return [(name, name) for name in sorted(deck_sources())]

    async def _complete_decks(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        state = await self.ctx.tools_state(channel)
        return [(f"{name} ({len(deck.draw_pile)} to draw)", name) for name, deck in sorted(state.decks.items())]

    async def _complete_hand_cards(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        state = await self.ctx.tools_state(channel)
        decks = [given["deck"]] if given.get("deck") in state.decks else sorted(state.decks)
        return [(f"{card} ({name})" if len(decks) > 1 else card, card)
                for name in decks for card in state.decks[name].hands.get(user.id, [])]

    async def _complete_my_rolls(self, channel: str, user: User, given: dict[str, str], current: str) -> list[tuple[str, str]]:
        state = await self.ctx.tools_state(channel)
        umpire = await self.ctx.is_umpire(channel, user)
        return [(f"#{r.number} {r.purpose}".strip() + ("" if r.roller == user.id else f" (by {self.ctx.mention(r.roller)})"),
                 str(r.number)) for r in state.rolls if not r.revealed and (r.roller == user.id or umpire)]


# Each ``complete`` list of bot/commands.py, by name -> its completer.
COMPLETERS: dict[str, Completer] = {
    "systems": Choices._complete_systems, "scenarios": Choices._complete_scenarios,
    "options": Choices._complete_options, "seats_free": Choices._complete_seats_free,
    "seats": Choices._complete_seats, "my_seats": Choices._complete_my_seats, "orders": Choices._complete_orders,
    "zoom": Choices._complete_zoom, "deck_sources": Choices._complete_deck_sources, "decks": Choices._complete_decks,
    "hand_cards": Choices._complete_hand_cards, "my_rolls": Choices._complete_my_rolls,
}
