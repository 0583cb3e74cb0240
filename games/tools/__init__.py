"""Table tools for any channel, game or not: dice, secret rolls, named decks and hands, sealed orders.

They are a rule system of their own (not listed in ``/game new``): the table service keeps one
tools "game" per channel with its own seed, so every roll and draw comes from an auditable stream
and replays exactly. The acting "seat" is the user's id; events name users as ``<@id>``, which the
front end turns into its mention format. Internal order notation (built by the table service)::

    roll 2d6+1 [# label words...]
    secret 2d6 purpose words...         reveal 3
    deck new NAME FROM                  deck shuffle NAME        deck reshuffle NAME
    deck draw NAME [hand]               deck deal NAME COUNT USER USER...
    play CARD [NAME]
    seal open USER USER...              seal text TEXT...        seal reveal
    (``seal TEXT...`` without ``text`` is still read, for logs written before)

A channel's stream can be published on request (``/tools verify``) once nothing secret depends on
its seed; the next stream starts from the same table (``carry_over``), with every draw pile
shuffled again from the new stream, since the published seed tells the order of the old piles.
A stream holding unrevealed secret rolls can instead be closed (``/tools close``): its seed stays
secret, its rolls stay revealable there, and the next stream numbers its rolls on from it.

The state keeps only the unrevealed secret rolls (a revealed one leaves it: its roll and reveal are
in the stream's log, one entry each), so the snapshot rewritten on every tool use does not grow
with the rolls made; the table service caps how many may be unrevealed at once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from games.core.decks import (
    RANK_WORDS,
    SUIT_WORDS,
    Deck,
    card_matches,
    card_name,
    custom_cards,
    rank_of,
    standard_cards,
    suit_of,
)
from games.core.dice import CustomDie, DiceParser
from games.core.errors import IllegalOrder, InvalidSyntax, NotAllowed, UnknownName, WrongPhase, quote
from games.core.rng import Rng, seal
from games.core.ruleset import UMPIRE, Event, Outcome, Ruleset, ScenarioInfo, Seat, private, public, unhandled
from games.core.schema import decode, usable
from games.core.view import Board, View
from games.tools import orders
from games.tools.orders import (
    DeckDeal,
    DeckDraw,
    DeckNew,
    DeckReshuffle,
    DeckShuffle,
    Play,
    Reveal,
    Roll,
    SealBare,
    SealOpen,
    SealReveal,
    SealText,
    Secret,
    ToolOrder,
)
from games.tools.schema import DeckSchema, DieSchema

DeckOrder = DeckNew | DeckShuffle | DeckReshuffle | DeckDraw | DeckDeal

MAX_DECKS = 20
MAX_SEAL_TEXT = 1500


def small_number(text: str) -> int | None:
    """``text`` as a non-negative number of at most 9 ASCII digits, else None.

    ``str.isdigit`` accepts ``²`` (which ``int`` refuses) and ``int`` refuses over 4300 digits:
    both would crash the command instead of explaining the mistake.
    """
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def custom_dice() -> dict[str, CustomDie]:
    """Custom dice from ``data/dice/*.toml`` (``name``, ``faces``), keyed by lower-case name."""
    dice: dict[str, CustomDie] = {}
    for path in usable("dice"):
        die = decode(path, DieSchema)
        dice[die.name.lower()] = CustomDie(die.name, tuple(die.faces))
    return dice


def deck_sources() -> dict[str, list[str]]:
    """Deck names usable in ``/deck new from:``: the standard decks and ``data/decks/*.toml``."""
    sources: dict[str, list[str]] = {"standard52": standard_cards(0), "standard54": standard_cards(2)}
    for path in usable("decks"):
        sources[path.removeprefix("decks/").removesuffix(".toml")] = custom_cards(decode(path, DeckSchema).cards)
    return sources


@dataclass
class SecretRoll:
    number: int
    roller: str
    purpose: str
    result: str
    nonce: str
    commitment: str
    revealed: bool = False


@dataclass
class SealRound:
    opener: str
    participants: list[str]
    texts: dict[str, str] = field(default_factory=dict)
    nonces: dict[str, str] = field(default_factory=dict)
    commitments: dict[str, str] = field(default_factory=dict)


@dataclass
class ToolsState:
    rolls: list[SecretRoll] = field(default_factory=list)  # unrevealed ones (older snapshots: all of them)
    decks: dict[str, Deck] = field(default_factory=dict)
    seal_round: SealRound | None = None
    rounds_revealed: int = 0
    made: int = 0  # the number of the last secret roll made (0 in snapshots from before it was kept)

    def last_number(self) -> int:
        """The last secret roll's number: older snapshots kept every roll instead of a count."""
        return max(self.made, max((r.number for r in self.rolls), default=0))

    def unrevealed(self, user: str | None = None) -> list[SecretRoll]:
        return [r for r in self.rolls if not r.revealed and (user is None or r.roller == user)]



def card_spellings(card: str) -> str:
    """How a player may type ``card`` (each spelling ``card_matches`` takes), for a refusal's
    example: ``JS``, ``J♠`` or ``jack of spades``; a custom card by its name."""
    rank = rank_of(card)
    if not rank:
        return quote(card_name(card))
    word = next((w for w, r in RANK_WORDS.items() if r == rank), rank) if not rank.isdigit() else rank
    suit = next(w for w, s in SUIT_WORDS.items() if s == suit_of(card) and w.endswith("s"))
    return f"{quote(card)}, {quote(card_name(card))} or {quote(f'{word} of {suit}')}"

def _user(uid: str) -> str:
    return f"<@{uid}>"


class Tools(Ruleset[ToolsState, ToolOrder]):
    id = "tools"
    name = "Table tools"
    state_type = ToolsState

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo("tools", "Table tools")]

    def setup(self, scenario: str, options: dict[str, str], rng: Rng) -> ToolsState:
        """An empty table, or (option ``carry``) the table a published stream left, whose draw piles
        are shuffled from this new stream: the old seed, now public, tells their old order."""
        if "carry" not in options:
            return ToolsState()
        state = self.decode(json.loads(options["carry"]))
        for _, deck in sorted(state.decks.items()):
            deck.shuffle(rng)
        return state

    # --- publishing a stream's seed -------------------------------------------------------------
    def seed_would_reveal(self, state: ToolsState) -> list[str]:
        """What publishing this stream's seed would give away now (empty: safe to publish): the
        seed re-derives every unrevealed roll, every sealing nonce and every card dealt to a hand."""
        problems: list[str] = []
        hidden = [f"#{r.number}" for r in state.unrevealed()]
        if hidden:
            problems.append(f"unrevealed secret roll{'s' if len(hidden) > 1 else ''} {', '.join(hidden)}"
                            " (reveal with /reveal roll:<n>, or keep them sealed with /tools close)")
        return problems + self.carry_would_reveal(state)

    def carry_would_reveal(self, state: ToolsState) -> list[str]:
        """What starting the next stream from this table would give away (the next stream's set-up
        options are published with its seed): the open sealed round and the cards in hands."""
        problems: list[str] = []
        if state.seal_round is not None:
            problems.append("the open sealed round (reveal it with /seal reveal)")
        holding = sorted({_user(u) for deck in state.decks.values() for u, cards in deck.hands.items() if cards})
        if holding:
            problems.append(f"the cards in the hands of {', '.join(holding)} (play them with /play first)")
        return problems

    def carry_over(self, state: ToolsState) -> dict[str, str]:
        """Set-up options for the next stream: this table with each draw pile in a canonical order
        (sorted), so the published options show which cards are in a pile but not their order."""
        carried = self.decode(self.encode(state))
        for deck in carried.decks.values():
            deck.draw_pile.sort()
        # the rolls stay with their own stream (revealed, or sealed in a closed one); numbering goes on
        carried.made, carried.rolls = carried.last_number(), []
        return {"carry": json.dumps(self.encode(carried), separators=(",", ":"), sort_keys=True)}

    def seats(self, state: ToolsState) -> list[Seat]:
        return []

    def to_act(self, state: ToolsState) -> list[str]:
        if state.seal_round:
            return [u for u in state.seal_round.participants if u not in state.seal_round.texts]
        return []

    def legal_orders(self, state: ToolsState, seat: str) -> list[ToolOrder]:
        return []

    def parse_order(self, state: ToolsState, seat: str, text: str) -> ToolOrder:
        return orders.parse(text)

    def view(self, state: ToolsState, seat: str | None) -> View:
        return View(board=Board(kind="square", key="tools", width=0, height=0), viewer=seat, sides=())

    def outcome(self, state: ToolsState) -> Outcome | None:
        return None

    # --- queries the service uses for private, read-only answers -------------------------------
    def hand_text(self, state: ToolsState, user: str) -> str:
        lines = [
            f"**{name}**: {', '.join(card_name(c) for c in deck.hands[user])}"
            for name, deck in sorted(state.decks.items())
            if deck.hands.get(user)
        ]
        return "\n".join(lines) if lines else "You hold no cards."

    def private_text(self, state: ToolsState, user: str) -> list[str]:
        """Everything private this user may see: hand, own unrevealed secret rolls, own sealed text."""
        lines = [self.hand_text(state, user)]
        lines += self.secret_lines(state, user)
        if state.seal_round and user in state.seal_round.texts:
            lines.append(f"Your sealed text: {state.seal_round.texts[user]}")
        return lines

    def secret_lines(self, state: ToolsState, user: str) -> list[str]:
        """This user's unrevealed secret rolls, one line each."""
        return [f"Secret roll #{r.number} ({r.purpose}): {r.result}" for r in state.unrevealed(user)]

    # --- apply ---------------------------------------------------------------------------------
    def apply(self, state: ToolsState, seat: str, order: ToolOrder, rng: Rng) -> list[Event]:
        match order:
            case Roll(dice=dice):
                result = DiceParser(custom_dice()).roll(dice, rng)
                return [public(f"{_user(seat)} rolls {result.describe()}", reveals=True)]
            case Secret(dice=dice, purpose=purpose):
                return self._secret(state, seat, dice, purpose or "unspecified purpose", rng)
            case Reveal(roll=ref):
                return self._reveal(state, seat, ref or "")
            case DeckNew() | DeckShuffle() | DeckReshuffle() | DeckDraw() | DeckDeal():
                return self._deck(state, seat, order, rng)
            case Play(card=card, deck=deck):
                return self._play(state, seat, card, deck or "")
            case SealOpen(people=people):
                return self._seal_open(state, seat, (people or "").split())
            case SealReveal():
                return self._seal_reveal(state, seat)
            case SealText(words=text) | SealBare(words=text):
                return self._seal(state, seat, text, rng)
            case _:
                unhandled(order)

    def _secret(self, state: ToolsState, seat: str, expr: str, purpose: str, rng: Rng) -> list[Event]:
        result = DiceParser(custom_dice()).roll(expr, rng)
        number = state.last_number() + 1
        text = result.describe()
        nonce = rng.nonce(text)
        digest = seal(text, nonce)
        state.rolls = [*state.unrevealed(), SecretRoll(number, seat, purpose, text, nonce, digest)]
        state.made = number
        return [
            public(f"{_user(seat)} made secret roll #{number} of {expr} for *{purpose}*. Commitment: `{digest}`"),
            private(f"Your secret roll #{number} ({purpose}): {text}\nNonce: `{nonce}`", seat),
        ]

    def _reveal(self, state: ToolsState, seat: str, ref: str) -> list[Event]:
        number = small_number(ref.lstrip("#"))
        roll = next((r for r in state.unrevealed() if r.number == number), None)
        if roll is None:
            if number is not None and 1 <= number <= state.last_number():
                raise IllegalOrder(f"Secret roll #{number} is already revealed.")
            known = ", ".join(f"#{r.number}" for r in state.unrevealed()) or "none"
            problem = f"No secret roll {quote(ref)} in this channel." if ref else "Say which secret roll to reveal."
            raise UnknownName(problem, hint=f"Unrevealed: {known}.")
        if seat not in (roll.roller, UMPIRE):
            raise NotAllowed(f"Only {_user(roll.roller)} or the umpire may reveal secret roll #{roll.number}.")
        state.made = state.last_number()
        state.rolls = [r for r in state.unrevealed() if r is not roll]  # its reveal is in the log
        return [
            public(
                f"Secret roll #{roll.number} by {_user(roll.roller)} for *{roll.purpose}*: {roll.result}\n"
                f"Nonce `{roll.nonce}`; check: SHA-256 of `<nonce>:<result>` equals the commitment "
                f"`{roll.commitment}`.",
                reveals=True,
            )
        ]

    def _deck(self, state: ToolsState, seat: str, order: DeckOrder, rng: Rng) -> list[Event]:
        name = order.name
        if isinstance(order, DeckNew):
            return self._deck_new(state, seat, name, order.source, rng)
        deck = self._find_deck(state, name)
        match order:
            case DeckShuffle():
                deck.shuffle(rng)
                return [public(f"{_user(seat)} shuffled **{name}** ({len(deck.draw_pile)} cards in the draw pile).")]
            case DeckReshuffle():
                deck.reshuffle_discards(rng)
                return [public(f"{_user(seat)} shuffled the discards back into **{name}** ({len(deck.draw_pile)} cards).")]
            case DeckDraw(hand=True):
                card = deck.draw_to_hand(seat)
                return [
                    public(f"{_user(seat)} drew a card from **{name}** into their hand ({len(deck.hands[seat])} held)."),
                    private(f"You drew **{card_name(card)}** from {name}.", seat),
                ]
            case DeckDraw():
                card = deck.draw()
                deck.table.append(card)
                return [public(f"{_user(seat)} drew **{card_name(card)}** from **{name}** face up.", reveals=True)]
        assert isinstance(order, DeckDeal)
        return self._deal(seat, deck, order)

    def _deck_new(self, state: ToolsState, seat: str, name: str, source: str, rng: Rng) -> list[Event]:
        if name in state.decks:
            raise IllegalOrder(f"A deck called {quote(name)} already exists here.", hint="Pick another name.")
        if len(state.decks) >= MAX_DECKS:
            raise IllegalOrder(f"This channel already has {MAX_DECKS} decks.")
        sources = deck_sources()
        if source not in sources:
            raise UnknownName(f"No deck to copy called {quote(source)}.", hint=f"Decks: {', '.join(sorted(sources))}.")
        deck = Deck.of(name, sources[source])
        deck.shuffle(rng)
        state.decks[name] = deck
        return [public(f"{_user(seat)} made deck **{name}** from {source} ({len(deck.draw_pile)} cards), shuffled.")]

    def _deal(self, seat: str, deck: Deck, order: DeckDeal) -> list[Event]:
        count = small_number(order.count) if order.holders else None
        if count is None:
            raise InvalidSyntax("Write `/deck deal name:<name> count:<k> to:<@a @b>` with a whole number k.")
        holders = (order.holders or "").split()
        if not 1 <= count <= 52:
            raise InvalidSyntax(f"Deal between 1 and 52 cards each, not {count}.")
        dealt = deck.deal(holders, count)
        events = [public(f"{_user(seat)} dealt {count} card(s) from **{deck.name}** to {', '.join(_user(h) for h in holders)}.")]
        events += [private(f"You were dealt from {deck.name}: {', '.join(card_name(c) for c in cards)}", h) for h, cards in dealt.items()]
        return events

    def _find_deck(self, state: ToolsState, name: str) -> Deck:
        if name not in state.decks:
            known = ", ".join(sorted(state.decks)) or "none yet (make one with /deck new)"
            raise UnknownName(f"No deck called {quote(name)} in this channel.", hint=f"Decks: {known}.")
        return state.decks[name]

    def _play(self, state: ToolsState, seat: str, card: str, deck_name: str) -> list[Event]:
        decks = [self._find_deck(state, deck_name)] if deck_name else list(state.decks.values())
        holding = [d for d in decks if any(card_matches(c, card) for c in d.hands.get(seat, []))]
        if not holding:
            held = [f"{d.name}: {', '.join(card_name(c) for c in d.hands[seat])}" for d in decks if d.hands.get(seat)]
            if not held:  # "see your cards with /hand" would send them to look at nothing
                where = f" from {quote(deck_name)}" if deck_name else ""
                take = (f"Take some with /deck draw name:{decks[0].name if len(decks) == 1 else '<deck>'} to:hand, "
                        "or ask for /deck deal." if decks else "Make a deck first: /deck new name:cards from:standard52.")
                raise UnknownName(f"You hold no cards{where}, so you cannot play {quote(card)}.",
                                  hint=f"{take} Cards are typed like `JS`, `10c` or `jack of spades`.")
            first = next(c for d in decks for c in d.hands.get(seat, []))
            raise UnknownName(f"You hold no card {quote(card)}.",
                              hint=f"You hold {'; '.join(held)}. Type a card like {card_spellings(first)}.")
        if len(holding) > 1:
            raise IllegalOrder(f"You hold {quote(card)} from several decks.", hint="Name the deck too.")
        played = holding[0].play(seat, card)
        return [public(f"{_user(seat)} plays **{card_name(played)}** from **{holding[0].name}**.", reveals=True)]

    def _seal_open(self, state: ToolsState, seat: str, who: list[str]) -> list[Event]:
        if state.seal_round:
            raise WrongPhase("A sealed round is already open here.", hint="Seal your text or reveal the round first.")
        people = list(dict.fromkeys(who))
        if len(people) < 2:
            raise InvalidSyntax("Name at least two people to seal orders.", hint="`/seal open who:@a @b`")
        state.seal_round = SealRound(seat, people)
        return [public(f"{_user(seat)} opened sealed orders for {', '.join(_user(p) for p in people)}.")]

    def _seal_reveal(self, state: ToolsState, seat: str) -> list[Event]:
        sr = state.seal_round
        if not sr:
            raise WrongPhase("Nothing is sealed here.", hint="Seal a text first with /seal text:<orders>.")
        # the opener or umpire may close a round nobody sealed in, or it would block the channel for good
        if seat not in (sr.opener, UMPIRE):
            raise NotAllowed("Only the umpire (or whoever opened the round) may reveal before everyone has sealed.")
        return self._reveal_round(state)

    def _seal(self, state: ToolsState, seat: str, rest: str, rng: Rng) -> list[Event]:
        sr = state.seal_round
        if sr is None:
            raise WrongPhase("No sealed round is open here.", hint="Open one with /seal open who:@a @b.")
        if seat not in sr.participants:
            raise NotAllowed("You are not one of the people sealing in this round.")
        if seat in sr.texts:
            raise IllegalOrder("You have already sealed your text for this round.", hint="Wait for the reveal.")
        if len(rest) > MAX_SEAL_TEXT:
            raise InvalidSyntax(f"A sealed text may be at most {MAX_SEAL_TEXT} characters.")
        nonce = rng.nonce(rest)
        sr.texts[seat] = rest
        sr.nonces[seat] = nonce
        sr.commitments[seat] = seal(rest, nonce)
        events = [
            public(f"{_user(seat)} has sealed ({len(sr.texts)}/{len(sr.participants)}). Commitment: `{sr.commitments[seat]}`"),
            private(f"You sealed: {rest}\nNonce: `{nonce}`", seat),
        ]
        if len(sr.texts) == len(sr.participants):
            events += self._reveal_round(state)
        return events

    def _reveal_round(self, state: ToolsState) -> list[Event]:
        sr = state.seal_round
        assert sr is not None
        lines = [f"Sealed orders revealed ({len(sr.texts)}/{len(sr.participants)} sealed):"]
        for person in sr.participants:
            if person in sr.texts:
                lines.append(f"{_user(person)}: {sr.texts[person]}  (nonce `{sr.nonces[person]}`)")
            else:
                lines.append(f"{_user(person)}: (did not seal)")
        lines.append("Check each: SHA-256 of `<nonce>:<text>` equals the commitment shown when it was sealed.")
        state.seal_round = None
        state.rounds_revealed += 1
        return [public("\n".join(lines), reveals=True)]


TOOLS = Tools()

