"""Decks of cards: standard 52/54, custom decks from data, piles, hands and visibility.

Card ids are short ASCII strings: ``AH`` (Ace of Hearts), ``10C``, ``KS``, ``JK1``/``JK2``
(Jokers); custom cards are ``name`` or ``name#k`` when a deck holds several of one kind.
Where a card lies decides who may see it: the draw pile is seen by nobody, the discard pile and
face-up table cards by everyone, a hand by its holder (and the umpire).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from games.core.errors import IllegalOrder, UnknownName, quote
from games.core.rng import Rng

SUITS = ("H", "C", "D", "S")  # Ironclad Draughts order: Hearts, Clubs, Diamonds, Spades
SUIT_SYMBOLS = {"H": "♥", "C": "♣", "D": "♦", "S": "♠"}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
Visibility = Literal["public", "holder", "umpire", "nobody"]


RANK_WORDS = {
    "ace": "A", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
    "eight": "8", "nine": "9", "ten": "10", "jack": "J", "queen": "Q", "king": "K",
}  # fmt: skip
SUIT_WORDS = {"hearts": "H", "heart": "H", "clubs": "C", "club": "C", "diamonds": "D", "diamond": "D",
              "spades": "S", "spade": "S", **{symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}}  # fmt: skip


def card_matches(card: str, text: str) -> bool:
    """Whether a player's ``text`` names ``card``: its id (``JS``, ``10c``), its display name
    (``J♠``, ``storm``) or the words (``jack of spades``, ``10 of clubs``), in any case and spacing."""
    wanted = "".join(text.casefold().split())
    if wanted in (card.casefold(), card_name(card).casefold()):
        return True
    rank, suit = rank_of(card), suit_of(card)
    if not rank:
        return False
    words = wanted.replace("of", "")
    return any(
        words == f"{rank_word}{suit_word}"
        for rank_word in (rank.casefold(), *(w for w, r in RANK_WORDS.items() if r == rank))
        for suit_word in (suit.casefold(), *(w for w, s in SUIT_WORDS.items() if s == suit))
    )


def standard_cards(jokers: int = 0) -> list[str]:
    cards = [rank + suit for suit in SUITS for rank in RANKS]
    return cards + [f"JK{i + 1}" for i in range(jokers)]


def is_joker(card: str) -> bool:
    return card.startswith("JK")


def rank_of(card: str) -> str:
    """``A``..``K`` for standard cards ('' for Jokers and custom cards)."""
    if is_joker(card) or card[-1:] not in SUITS or card[:-1] not in RANKS:
        return ""
    return card[:-1]


def suit_of(card: str) -> str:
    return card[-1] if rank_of(card) else ""


def rank_value(card: str) -> int:
    """Ace low: A=1 .. K=13; 0 for Jokers and custom cards."""
    rank = rank_of(card)
    return RANKS.index(rank) + 1 if rank else 0


def is_red(card: str) -> bool:
    return suit_of(card) in ("H", "D")


def card_name(card: str) -> str:
    """Display name: ``A♥``, ``10♣``, ``Joker``; custom cards lose their ``#k``."""
    if is_joker(card):
        return "Joker"
    rank = rank_of(card)
    if rank:
        return rank + SUIT_SYMBOLS[suit_of(card)]
    return card.split("#", 1)[0]


def custom_cards(counts: dict[str, int]) -> list[str]:
    """Card ids for a custom deck given ``{name: count}``."""
    out: list[str] = []
    for name, count in counts.items():
        out.extend([name] if count == 1 else [f"{name}#{k + 1}" for k in range(count)])
    return out


@dataclass
class Deck:
    """One named deck: draw pile (top = end of list), discards, hands and face-up table cards."""

    name: str
    draw_pile: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)
    hands: dict[str, list[str]] = field(default_factory=dict)
    table: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, name: str, cards: list[str]) -> Deck:
        return cls(name=name, draw_pile=list(cards))

    def shuffle(self, rng: Rng) -> None:
        rng.shuffle(self.draw_pile)

    def reshuffle_discards(self, rng: Rng) -> None:
        """Put the discards back under the draw pile and shuffle the whole pile."""
        self.draw_pile = self.discards + self.draw_pile
        self.discards = []
        rng.shuffle(self.draw_pile)

    def draw(self, rng: Rng | None = None) -> str:
        """Take the top card. With an ``rng``, an empty pile is refilled from the discards first."""
        if not self.draw_pile and rng is not None and self.discards:
            self.reshuffle_discards(rng)
        if not self.draw_pile:
            raise IllegalOrder(
                f"The {quote(self.name)} deck is empty.",
                hint="Shuffle the discards back in first." if self.discards else "",
            )
        return self.draw_pile.pop()

    def draw_to_hand(self, holder: str, rng: Rng | None = None) -> str:
        card = self.draw(rng)
        self.hands.setdefault(holder, []).append(card)
        return card

    def deal(self, holders: list[str], count: int, rng: Rng | None = None) -> dict[str, list[str]]:
        """Deal ``count`` cards to each holder in turn, as at a table. All or nothing."""
        need = count * len(holders)
        available = len(self.draw_pile) + (len(self.discards) if rng is not None else 0)
        if need > available:
            raise IllegalOrder(
                f"Cannot deal {count} each to {len(holders)} players from {quote(self.name)}: "
                f"only {available} cards left{' counting the discards' if rng is not None else ''}."
            )
        dealt: dict[str, list[str]] = {h: [] for h in holders}
        for _ in range(count):
            for holder in holders:
                card = self.draw_to_hand(holder, rng)
                dealt[holder].append(card)
        return dealt

    def discard(self, card: str) -> None:
        self.discards.append(card)

    def play(self, holder: str, text: str, face_up: bool = True) -> str:
        """Play a card from a hand (matched by id or display name) to the table or discards."""
        hand = self.hands.get(holder, [])
        matches = [c for c in hand if card_matches(c, text)]
        if not matches:
            names = ", ".join(card_name(c) for c in hand) or "no cards"
            raise UnknownName(f"You hold no card {quote(text)} in {quote(self.name)}.", hint=f"Your hand: {names}.")
        card = matches[0]
        hand.remove(card)
        (self.table if face_up else self.discards).append(card)
        return card

    def visibility(self, card: str) -> Visibility:
        """Who may see a card where it lies now."""
        if card in self.table or card in self.discards:
            return "public"
        if any(card in hand for hand in self.hands.values()):
            return "holder"
        return "nobody"

    def holder_of(self, card: str) -> str | None:
        for holder, hand in self.hands.items():
            if card in hand:
                return holder
        return None
