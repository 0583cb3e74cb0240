"""Orders: /order (given or previewed) and /game undo."""

from __future__ import annotations

from bot.rooms.common import CONCEDE_ORDER, HIDDEN_ORDER, Loaded, Output, User, flag
from bot.rooms.context import Table
from bot.rooms.delivery import give_order
from bot.rooms.seats import may_read_order, replay_state, resolve_seat, seat_label, seat_users, umpire_of, user_seats
from bot.undo_rule import plan_undo
from games.core.codec import clone
from games.core.errors import InvalidSyntax, NotAllowed, WrongPhase, quote
from games.core.preview import preview_view
from games.core.rng import DrawRefused, NoDraws
from games.core.ruleset import UMPIRE, read_order


class Orders:
    """Give, preview and take back orders."""

    def __init__(self, ctx: Table) -> None:
        self.ctx = ctx

    async def order_or_preview(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        if flag(opts, "preview"):
            return await self.preview(channel, user, opts)
        return await self.order(channel, user, opts)

    async def preview(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        """/order preview:true: the order run on a copy that may not roll, drawn for the asker only
        (games/core/preview.py says what is and is not shown). Nothing is stored."""
        loaded, seat = await self._ordering_seat(channel, user, opts)
        text = opts.get("text", "")
        if text in ("", "?"):
            raise InvalidSyntax("Give the order to preview.", hint="e.g. /order text:<your order> preview:true")
        working = clone(loaded.state)
        order = read_order(loaded.rules, working, seat, text)
        written = loaded.rules.format_order(order)
        try:
            loaded.rules.apply(working, seat, order, NoDraws())
        except DrawRefused:
            return [Output("ephemeral", f"{quote(written)} rolls dice, so it cannot be previewed: a preview never "
                           "spends or shows the game's rolls. Moves and turns can be previewed.", to=user.id)]
        view = preview_view(loaded.rules, loaded.state, working, seat, written)
        moved = sum(1 for c in view.counters if c.ghost)
        where = "where your pieces would end, translucent" if moved else "no piece of yours would move"
        return [Output("ephemeral", f"Preview of {quote(written)}: {where}. Nothing has been ordered; "
                       f"give it with /order text:{written}", to=user.id, view=view)]


    async def order(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        loaded, seat = await self._ordering_seat(channel, user, opts)
        text = opts.get("text", "")
        if text in ("", "?"):
            legal = loaded.legal(seat)
            return [Output("ephemeral", "Legal orders: " + ("; ".join(legal) or "none right now"), to=user.id)]
        working = clone(loaded.state)
        order = read_order(loaded.rules, working, seat, text)
        written = loaded.rules.format_order(order)
        if written == CONCEDE_ORDER:  # the log's concession mark: /game concede
            raise InvalidSyntax(f"{quote(text)} is not an order.", hint="To concede, use /game concede.")
        return await give_order(self.ctx, loaded, working, seat, user, order, written)

    async def _ordering_seat(self, channel: str, user: User, opts: dict[str, str]) -> tuple[Loaded, str]:
        """The running game and the seat an /order (given or previewed) is for; refused for a game
        not started and for a user holding no seat."""
        loaded = await self.ctx.live(channel)
        if loaded.row.status != "running":
            raise WrongPhase("The game has not started yet.", hint="Fill the seats and /game start.")
        mine = user_seats(loaded.row, user.id)
        if not mine:
            raise NotAllowed("You hold no seat in this game, so you cannot give orders.",
                             hint="Spectators can use /game board, /game status and /game log.")
        return loaded, self._pick_seat(loaded, mine, opts.get("seat", ""))

    def _pick_seat(self, loaded: Loaded, mine: list[str], wanted: str) -> str:
        if wanted:
            seats = {s.id: s for s in loaded.rules.seats(loaded.state)}
            seat = resolve_seat(seats, wanted)
            if seat.id not in mine and UMPIRE not in mine:
                raise NotAllowed(f"You do not hold the seat {quote(wanted)}.")
            return seat.id
        to_act = loaded.to_act()
        for held in mine:
            if held in to_act:
                return held
        # Not this user's turn as far as to_act says; the rules refuse out-of-turn orders
        # themselves (with a message that can say more, e.g. "your orders are already sealed").
        return UMPIRE if UMPIRE in mine else mine[0]

    async def game_undo(self, channel: str, user: User, opts: dict[str, str]) -> list[Output]:
        loaded = await self.ctx.live(channel)
        row = loaded.row
        orders = await self.ctx.store.orders(row.id, include_undone=False)
        is_umpire = umpire_of(row) == user.id
        plan = plan_undo(orders, user.id, set(user_seats(row, user.id)), umpire=is_umpire)  # bot/undo_rule.py
        last, at = plan.target, orders.index(plan.target)
        state, counter = replay_state(loaded.rules, row, orders[:at])
        if (not is_umpire and any(e["to"] is not None for e in last.events)
                and counter != replay_state(loaded.rules, row, orders[:at + 1])[1]):
            # a privately told random value (a hidden die, a drawn card, a nonce): after an undo the
            # stream rewinds, so the player would know what comes next before choosing again
            raise NotAllowed(f"Your last order {quote(last.text)} told you something random in private, so only the umpire can undo it.")
        if len(plan.remaining) != at:  # others' secret orders after it stand: replayed without it
            state, counter = replay_state(loaded.rules, row, plan.remaining)
        for o in (*plan.dropped, last):
            row = await self.ctx.store.mark_undone(row, o.seq, snapshot=loaded.rules.encode(state), counter=counter)
        rules = loaded.rules
        shown_after = rules.view(state, None)
        public = (any(e["to"] is None for e in last.events) or rules.view(loaded.state, None) != shown_after
                  or set(rules.to_act(loaded.state)) != set(rules.to_act(state)))
        whose = "their last order" if last.user_id == user.id else f"the last order of {seat_label(loaded, last.seat)}"
        if public:
            shown = f" ({quote(last.text)})" if may_read_order(row, None, last) else f" {HIDDEN_ORDER}"
            return [Output("message", f"<@{user.id}> undid {whose}{shown}. It stays in the log, marked undone.",
                           channel=channel, view=shown_after)] + [
                Output("dm", f"Your order {quote(o.text)} for {seat_label(loaded, o.seat)} was taken back with the "
                             "order it came after, which was undone; give it again if you still want it.",
                       to=uid, private_fallback=True)
                for o in plan.dropped for uid in seat_users(row, [o.seat])]
        # The order was given in secret (nothing public changed when it was given, so nothing does
        # now): its undo is as quiet as it was, told only to whoever undid it and the seat's players.
        outputs = [Output("ephemeral", f"You undid {whose} ({quote(last.text)}). It changed nothing anyone else "
                                       "can see, so nothing was posted in the channel; it stays in the log, marked undone.",
                          to=user.id, view=rules.view(state, UMPIRE if is_umpire else last.seat))]
        for uid in seat_users(row, [last.seat]):
            if uid != user.id:
                outputs.append(Output("dm", f"The umpire took back your order {quote(last.text)} for "
                                            f"{seat_label(loaded, last.seat)}.", to=uid, private_fallback=True))
        return outputs

