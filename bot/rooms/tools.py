"""The table tools, open at any table: /roll, /reveal, /deck, /hand, /play, /seal and /tools
verify, on the channel's own committed random stream."""

from __future__ import annotations

import dataclasses
import json

from bot.mentions import mentioned_users
from bot.rooms.common import Loaded, Output, User, event_json, flag
from bot.rooms.context import Table
from bot.rooms.delivery import route
from bot.rooms.records import export_record, verify_export
from bot.rooms.seats import umpire_of
from bot.storage import GameRow, StaleVersion
from games.core.dice import DiceParser, sanitise_label
from games.core.errors import GameError, IllegalOrder, InvalidSyntax, WrongPhase, quote
from games.core.rng import Rng, commitment
from games.core.ruleset import UMPIRE
from games.tools import TOOLS, ToolsState, custom_dice, small_number

TOOLS_RETRIES = 3
# Secret rolls a channel's stream may hold unrevealed at once, in all and per roller: each command
# there reads and rewrites the stream's state, which carries them. /tools close starts a new stream.
MAX_UNREVEALED = 50
MAX_UNREVEALED_PER_USER = 10
MAX_SEALED_STREAMS = 5  # closed streams of a channel still holding unrevealed rolls (/reveal looks in each)


class Tools:
    """Dice, decks, hands and sealed orders, on the channel's table-tools stream."""

    def __init__(self, ctx: Table) -> None:
        self.ctx = ctx


    async def _next_stream(self, row: GameRow, state: ToolsState, user: User, retire: str,
                           command: str) -> tuple[GameRow, ToolsState]:
        """Retire ``row`` (``retire``: published or sealed) and start the next stream from a fresh
        seed, carrying over what the rules carry (decks, hands); refused if the stream moved meanwhile."""
        carry = TOOLS.carry_over(state)
        seed = self.ctx.seed_source()
        rng = Rng(seed)
        fresh = TOOLS.setup(TOOLS.id, carry, rng)
        try:
            new = await self.ctx.store.publish_stream(row, seed=seed, commitment=commitment(seed), options=carry,
                                                      snapshot=TOOLS.encode(fresh), counter=rng.counter,
                                                      creator=user.id, retire=retire)
        except StaleVersion:
            raise WrongPhase("Someone used the table tools here at the same moment.",
                             hint=f"Run /tools {command} again.") from None
        return new, fresh

    async def _tools_apply(self, channel: str, user: User, text: str, *, as_umpire: bool = False) -> list[Output]:
        # Another bot process on the same database (a deploy overlap) may open this channel's tools
        # first or act on them at the same moment; a roll or draw decided nothing on the state it
        # read, so it is simply applied again on the fresh stream (one process serialises instead).
        for _ in range(TOOLS_RETRIES):
            try:
                return await self._tools_once(channel, user, text, as_umpire=as_umpire)
            except StaleVersion:
                continue
        return await self._tools_once(channel, user, text, as_umpire=as_umpire)

    async def _tools_once(self, channel: str, user: User, text: str, *, as_umpire: bool) -> list[Output]:
        row = await self.ctx.store.tools(channel)
        seat = "umpire" if as_umpire else user.id
        if row is None:  # the channel's first table command: store its tools only if the command is good
            seed = self.ctx.seed_source()
            setup_rng = Rng(seed)
            initial = TOOLS.setup("tools", {}, setup_rng)
            state: ToolsState = TOOLS.decode(TOOLS.encode(initial))
            rng = Rng(seed, setup_rng.counter)
            events = TOOLS.apply(state, seat, TOOLS.parse_order(state, seat, text), rng)
            row = await self.ctx.store.create_game(
                channel=channel, system="tools", scenario="tools", options={}, seed=seed, commitment=commitment(seed),
                status="tools", snapshot=TOOLS.encode(initial), counter=setup_rng.counter, creator=user.id,
                rules=TOOLS.rules_version,
            )
            opened = [Output("message", _stream_opened(row.commitment), channel=channel)]
        else:
            opened = []
            state = TOOLS.decode(row.snapshot)
            rng = Rng(row.seed, row.counter)
            events = TOOLS.apply(state, seat, TOOLS.parse_order(state, seat, text), rng)
        row = await self.ctx.store.save_order(
            row, seat=seat, user_id=user.id, text=text, events=[event_json(e) for e in events],
            snapshot=TOOLS.encode(state), counter=rng.counter, status="tools",
        )
        # the commitment is shown, not logged: the log holds what replaying the stream re-derives
        return opened + route(Loaded(row, TOOLS, state), events, umpire=umpire_of(await self.ctx.live_game(channel)))

    async def tools_verify(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        """Publish the seed of the channel's table-tools stream, re-derive every roll and card from
        it, and start a new committed stream, so a table can audit its dice as a game can at its end.
        Refused while the seed would give away something still secret. Closed streams (/tools
        close) whose rolls are all revealed are published and checked first."""
        closed = await self._publish_closed(channel)
        try:
            return closed + await self._verify_current(channel, user)
        except GameError as exc:
            if not closed:
                raise
            return [*closed, Output("message", f"The current stream was not published: {exc.text}", channel=channel)]

    async def _verify_current(self, channel: str, user: User) -> list[Output]:
        row = await self.ctx.store.tools(channel)
        if row is None:
            raise IllegalOrder("This channel has no table-tools stream yet: nothing to verify.",
                               hint="Its first /roll, /deck or /seal starts one and shows its commitment.")
        if row.version == 0:  # each roll or draw bumps the stream's version; nothing else does
            raise IllegalOrder(f"Nothing has been drawn from this channel's stream (commitment `{row.commitment}`) yet.",
                               hint="Verify it after some rolls or draws.")
        state: ToolsState = self.ctx.decode(row).state
        secrets = TOOLS.seed_would_reveal(state)
        if secrets:
            raise IllegalOrder("Publishing this channel's seed now would give away " + "; ".join(secrets) + ".",
                               hint="The seed re-derives every roll and card; verify once nothing is secret.")
        new, fresh = await self._next_stream(row, state, user, "published", "verify")
        published = dataclasses.replace(row, status="published")
        data = await export_record(self.ctx.store, published)
        report = await self.ctx.work(verify_export, data)  # a replay of the whole stream: off the loop
        piles = [name for name, deck in sorted(fresh.decks.items()) if deck.draw_pile]
        several = len(piles) > 1
        reshuffled = (f"\nThe draw pile{'s' if several else ''} of {', '.join(f'**{n}**' for n in piles)} "
                      f"{'were' if several else 'was'} shuffled again from the new stream (the published seed "
                      f"tells {'their' if several else 'its'} old order)." if piles else "")
        text = (f"<@{user.id}> published this channel's table-tools seed: `{row.seed.hex()}` (its SHA-256 is the "
                f"commitment `{row.commitment}` shown at its first use).\n{report}{reshuffled}\n"
                f"{_stream_opened(new.commitment)}")
        blob = json.dumps(data, indent=1, ensure_ascii=False).encode()
        return [self.ctx.format(Output("message", text, channel=channel, file=(f"tools-{row.id}-{channel}.json", blob)))]

    async def roll(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        dice = " ".join(opts.get("dice", "").split())
        if not dice:
            raise InvalidSyntax("Give dice to roll.", hint="e.g. /roll dice:2d6+1")
        read = DiceParser(custom_dice()).read(dice)  # reject bad dice with the user's own text quoted
        if flag(opts, "secret"):
            held = (await self.ctx.tools_state(channel)).unrevealed()
            mine = [r for r in held if r.roller == user.id]
            if len(held) >= MAX_UNREVEALED or len(mine) >= MAX_UNREVEALED_PER_USER:
                who = (f"You hold {len(mine)} unrevealed secret rolls here" if len(mine) >= MAX_UNREVEALED_PER_USER
                       else f"This channel holds {len(held)} unrevealed secret rolls")
                cap = MAX_UNREVEALED_PER_USER if len(mine) >= MAX_UNREVEALED_PER_USER else MAX_UNREVEALED
                raise IllegalOrder(f"{who}, the most it keeps ({cap}), so nothing was rolled.",
                                   hint="Reveal some with /reveal roll:<n>, or start a new stream with /tools close "
                                        "(the unrevealed rolls stay sealed and can still be revealed).")
            purpose = ": ".join(p for p in (sanitise_label(opts.get("purpose", "")), read.label) if p) or "unspecified purpose"
            return await self._tools_apply(channel, user, f"secret {read.text} {purpose}")
        return await self._tools_apply(channel, user, f"roll {read.order_text}")

    async def reveal(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        ref = opts.get("roll", "")
        number = small_number(ref.lstrip("#"))
        umpire = await self.ctx.is_umpire(channel, user)
        row = await self.ctx.store.tools(channel)
        state = TOOLS.decode(row.snapshot) if row else ToolsState()
        if not any(r.number == number for r in state.unrevealed()):
            for sealed in await self.ctx.store.sealed_streams(channel):  # a closed stream keeps its rolls
                old: ToolsState = TOOLS.decode(sealed.snapshot)
                roll = next((r for r in old.unrevealed() if r.number == number), None)
                if roll is not None:
                    seat = "umpire" if umpire and roll.roller != user.id else user.id
                    events = TOOLS.apply(old, seat, TOOLS.parse_order(old, seat, f"reveal {ref}"), Rng(sealed.seed, sealed.counter))
                    try:
                        saved = await self.ctx.store.save_order(
                            sealed, seat=seat, user_id=user.id, text=f"reveal {ref}",
                            events=[event_json(e) for e in events], snapshot=TOOLS.encode(old),
                            counter=sealed.counter, status="sealed")
                    except StaleVersion:
                        raise WrongPhase("Someone revealed a roll of that stream at the same moment.",
                                         hint="Run /reveal again.") from None
                    return route(Loaded(saved, TOOLS, old), events, umpire=umpire_of(await self.ctx.live_game(channel)))
        if umpire and any(r.number == number and r.roller == user.id for r in state.unrevealed()):
            umpire = False  # the umpire's own roll is revealed as theirs
        return await self._tools_apply(channel, user, f"reveal {ref}", as_umpire=umpire)

    async def tools_close(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        """Start a new stream while this one holds unrevealed secret rolls: its seed stays secret
        (so they stay sealed, each revealable with /reveal and checkable against its commitment),
        and /tools verify publishes it once they are all revealed."""
        row = await self.ctx.store.tools(channel)
        if row is None or row.version == 0:
            raise IllegalOrder("This channel's table tools have nothing to close yet.",
                               hint="/roll secret:true, /deck or /seal start a stream.")
        state: ToolsState = self.ctx.decode(row).state
        kept = state.unrevealed()
        if not kept:
            raise IllegalOrder("This stream holds no unrevealed secret roll, so nothing needs keeping sealed.",
                               hint="Use /tools verify: it publishes the seed, re-checks every roll and starts anew.")
        problems = TOOLS.carry_would_reveal(state)
        if problems:
            raise IllegalOrder("The next stream would start from this table and give away " + "; ".join(problems) + ".",
                               hint="Close the stream once those are settled.")
        waiting = [s for s in await self.ctx.store.sealed_streams(channel) if TOOLS.decode(s.snapshot).unrevealed()]
        if len(waiting) >= MAX_SEALED_STREAMS:
            raise IllegalOrder(f"This channel already has {len(waiting)} closed streams with unrevealed secret rolls "
                               f"(at most {MAX_SEALED_STREAMS}), so nothing was closed.",
                               hint="Reveal their rolls (/game private lists yours), then /tools verify publishes them.")
        new, _ = await self._next_stream(row, state, user, "sealed", "close")
        numbers = ", ".join(f"#{r.number}" for r in kept)
        text = (f"<@{user.id}> closed this channel's table-tools stream (commitment `{row.commitment}`) without "
                f"publishing its seed, so its unrevealed secret roll{'s' if len(kept) > 1 else ''} {numbers} "
                "stay sealed: /reveal still reveals each, and its nonce checks against its commitment. Once all "
                "are revealed, /tools verify publishes that stream's seed and re-checks it.\n"
                f"{_stream_opened(new.commitment)}")
        return [Output("message", text, channel=channel)]

    async def _publish_closed(self, channel: str) -> list[Output]:
        """Publish each closed stream of the channel whose secret rolls are all revealed now."""
        outputs = []
        for sealed in await self.ctx.store.sealed_streams(channel):
            if TOOLS.decode(sealed.snapshot).unrevealed():
                continue
            try:
                published = await self.ctx.store.update_game(sealed, status="published")
            except StaleVersion:
                continue  # another process published or revealed on it just now
            data = await export_record(self.ctx.store, published)
            report = await self.ctx.work(verify_export, data)
            text = (f"The closed table-tools stream with commitment `{sealed.commitment}` has every secret roll "
                    f"revealed, so its seed is published: `{sealed.seed.hex()}`.\n{report}")
            blob = json.dumps(data, indent=1, ensure_ascii=False).encode()
            outputs.append(Output("message", text, channel=channel, file=(f"tools-{sealed.id}-{channel}.json", blob)))
        return outputs

    async def deck(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        name = opts.get("name", "").strip()
        if not name or " " in name:
            raise InvalidSyntax(f"Deck name {quote(name)} must be one word.", hint="e.g. /deck new name:mines from:mines")
        verb = opts["_verb"]
        if verb == "new":
            if not opts.get("from"):
                raise InvalidSyntax("Say which deck to copy.", hint="e.g. /deck new name:cards from:standard54")
            return await self._tools_apply(channel, user, f"deck new {name} {opts['from']}")
        if verb == "deal":
            holders = list(dict.fromkeys(mentioned_users(opts.get("to", ""), self.ctx.mention)))  # each person once
            if not holders:
                raise InvalidSyntax("Name who to deal to.", hint="e.g. /deck deal name:cards count:3 to:@alice @bob")
            return await self._tools_apply(channel, user, f"deck deal {name} {opts.get('count', '1')} {' '.join(holders)}")
        place = opts.get("to", "").lower()
        if verb == "draw" and place not in ("", "hand", "table"):
            raise InvalidSyntax(f"to:{quote(opts['to'])} is not a place to draw to.", hint="Use to:hand, or leave it out to draw face up.")
        suffix = " hand" if verb == "draw" and place == "hand" else ""
        return await self._tools_apply(channel, user, f"deck {verb} {name}{suffix}")

    async def hand(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        row = await self.ctx.store.tools(channel)
        state: ToolsState = TOOLS.decode(row.snapshot) if row else ToolsState()
        return [Output("ephemeral", TOOLS.hand_text(state, user.id), to=user.id)]

    async def play(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        typed = opts.get("card", "").strip()
        card = typed.replace(" ", "")  # one word in the tools' log: "jack of spades" -> "jackofspades"
        if not card:
            raise InvalidSyntax("Name the card to play.", hint="e.g. /play card:A♥ (see /hand)")
        deck = opts.get("deck", "")
        try:
            return await self._tools_apply(channel, user, f"play {card} {deck}".strip())
        except GameError as err:  # quote the card as the player typed it, not as it is logged
            raise type(err)(err.message.replace(quote(card), quote(typed), 1), hint=err.hint) from None

    async def seal(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        verb = opts.get("action", "").lower() or opts["_verb"]
        if verb not in ("seal", "open", "reveal"):
            raise InvalidSyntax(f"action:{quote(verb)} is not a sealed-order action.", hint="Use action:open or action:reveal.")
        if verb == "reveal":
            return await self._tools_apply(channel, user, "seal reveal", as_umpire=await self.ctx.is_umpire(channel, user))
        if verb == "open" or "who" in opts:
            who = mentioned_users(opts.get("who", ""), self.ctx.mention)
            return await self._tools_apply(channel, user, "seal open " + " ".join(who))
        text = " ".join(opts.get("text", "").split())
        if not text:
            raise InvalidSyntax("Give the text to seal.", hint="e.g. /seal text:Huascar fires at Esmeralda")
        tools_row = await self.ctx.store.tools(channel)
        tools_state: ToolsState | None = TOOLS.decode(tools_row.snapshot) if tools_row else None
        outputs: list[Output] = []
        if tools_state is None or tools_state.seal_round is None:
            live = await self.ctx.live_game(channel)
            players = [w["user"] for s, w in (live.seats.items() if live else []) if s != UMPIRE]
            players = list(dict.fromkeys(players))
            if len(players) < 2:
                raise WrongPhase("No sealed round is open here.", hint="Open one with /seal open who:@a @b.")
            # dry run first: if this seal is refused, the round must not be left open either
            scratch = tools_state or ToolsState()
            dry_rng = Rng(bytes(32))
            for step in ("seal open " + " ".join(players), f"seal text {text}"):
                TOOLS.apply(scratch, user.id, TOOLS.parse_order(scratch, user.id, step), dry_rng)
            outputs += await self._tools_apply(channel, user, "seal open " + " ".join(players))
        return outputs + await self._tools_apply(channel, user, f"seal text {text}")



def _stream_opened(digest: str) -> str:
    return (f"Table tools here draw from a new random stream. Seed commitment: `{digest}` (SHA-256 of its secret "
            "seed; /tools verify publishes the seed and re-checks every roll and card).")


