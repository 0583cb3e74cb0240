"""Every table command, declared once.

The table service dispatches on this table (handler, by reference, and accepted options), the Discord adapter
generates its slash commands from it (descriptions, option types, autocomplete), and the console
lists it. Adding a command is one entry here plus its handler in the room of its concern (``bot/rooms/``).

Option values always reach the service as text. ``complete`` names the candidate list
``TableService.choice_pairs`` (bot/rooms/choices.py) offers for the option (autocomplete on Discord, ``?`` on the console);
a front end never computes candidates itself.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from bot.rooms.common import Output, User
from bot.rooms.help import Help
from bot.rooms.lifecycle import Lifecycle
from bot.rooms.orders import Orders
from bot.rooms.records import Records
from bot.rooms.reminders import Reminders
from bot.rooms.tools import Tools
from bot.web.command import WebLinks

# A command's handler: a room's method (channel, user, options) -> outputs; its first argument is the room.
Handler = Callable[[Any, str, User, dict[str, str]], Awaitable[list[Output]]]
ParamKind = Literal["text", "int", "bool", "user"]
Completer = Literal[
    "", "systems", "scenarios", "options", "seats_free", "seats", "my_seats", "orders", "zoom",
    "deck_sources", "decks", "hand_cards", "my_rolls",
]


@dataclass(frozen=True)
class Param:
    """One option of a command, as the service names it."""

    name: str
    description: str
    kind: ParamKind = "text"
    required: bool = False
    complete: Completer = ""
    choices: tuple[str, ...] = ()  # a fixed short list (Discord shows a menu)
    low: int | None = None  # bounds of an int option
    high: int | None = None
    name_to: str = ""  # a user option also passes the user's display name as this option
    front_end: bool = True  # False: filled by the front end, never asked of the user


@dataclass(frozen=True)
class Command:
    """A command: ``name`` is what players type after the slash ("game new", "order")."""

    name: str
    handler: Handler  # a room's method, bound to the service's room of that class (bot/service.py)
    description: str
    params: tuple[Param, ...] = ()
    read_only: bool = False  # never changes a game: no status refresh, no buttons after it
    private: bool = False  # its reply is usually only for the asker (a deferral is ephemeral)
    slash: bool = True  # offered as a slash command (False: a console spelling of another command)
    detached: bool = False  # heavy: its handler takes the channel's lock only to read its snapshot

    @property
    def option_names(self) -> frozenset[str]:
        return frozenset(p.name for p in self.params) | frozenset(p.name_to for p in self.params if p.name_to)

    @property
    def usage(self) -> str:
        """``/order text:<text> [seat:<seat>] [preview:<true/false>]: Give an order ...``, for /help."""
        shown = {"bool": "true/false", "int": "number", "user": "member"}
        parts = [f"{p.name}:<{shown.get(p.kind, p.name)}>" if p.required else f"[{p.name}:<{shown.get(p.kind, p.name)}>]"
                 for p in self.params if p.front_end]
        return f"`/{' '.join([self.name, *parts])}`: {self.description}"


COMMAND_LIST: tuple[Command, ...] = (
    Command("game new", Lifecycle.game_new, "Start a new game in this channel", (
        Param("system", "Rule system", required=True, complete="systems"),
        Param("scenario", "Scenario to play", required=True, complete="scenarios"),
        Param("options", "Game options as key=value,key=value", complete="options"),
        Param("thread", "Play it in a new thread of this channel (its messages stay out of the channel)",
              kind="bool"),
    )),
    Command("game join", Lifecycle.game_join, "Take a seat in this channel's game", (
        Param("seat", "The side, ship or umpire seat to take", required=True, complete="seats_free"),
    )),
    Command("game leave", Lifecycle.game_leave, "Give up your seat"),
    Command("game start", Lifecycle.game_start, "Start play once the seats are filled"),
    Command("game status", Lifecycle.game_status, "Whose turn it is and how the game stands", read_only=True),
    Command("game board", Lifecycle.game_board, "Show the board (your own view if you are seated)", (
        Param("zoom", "Where to zoom in: a hex, square, point or unit", complete="zoom"),
    ), read_only=True),
    Command("game log", Records.game_log, "The game's orders, newest first, page by page", (
        Param("page", "Page number (1 = the newest orders)", kind="int", low=1, high=10_000),
    ), read_only=True),
    Command("game undo", Orders.game_undo, "Take back your last order (if nothing was revealed since)"),
    Command("game end", Lifecycle.game_end,
            "End the game: umpire, creator or Manage Server at once; players: all must vote"),
    Command("game concede", Lifecycle.game_concede, "Give up for your side: the other side wins (asks you to confirm)", (
        Param("confirm", "true to concede now (without it you are told what conceding would do)", kind="bool"),
        Param("seat", "Which of your seats' sides concedes (if you hold several)", complete="my_seats"),
    )),
    Command("game list", Lifecycle.game_list, "This server's games, most recent first, and whose turn it is", (
        Param("page", "Page number (1 = the most recently active games)", kind="int", low=1, high=10_000),
    ), read_only=True, private=True),
    Command("game export", Records.game_export, "Download the game record as JSON", read_only=True, private=True,
            detached=True),
    Command("game replay", Records.game_replay, "An animated replay of the game so far (only you see it)",
            read_only=True, detached=True),
    Command("game verify", Records.game_verify, "Check every roll and shuffle against the published seed", (
        Param("export", "A game export to check instead of this channel's game", front_end=False),
    ), read_only=True, detached=True),
    Command("game private", Records.game_private,
            "Your private information (hand, secret rolls), only to you; retries closed DMs", (
        Param("page", "Page number (1 = the first; the answer says how many there are)", kind="int", low=1, high=10_000),
    ), read_only=True, private=True),
    Command("game remind", Reminders.game_remind, "Set when to remind whoever must act (umpire or Manage Server)", (
        Param("after", "Hours without an order before the first reminder, e.g. 12"),
        Param("every", "Hours between reminders after that, e.g. 24"),
    )),
    Command("game assign", Lifecycle.game_assign, "Umpire: give a seat to someone, or empty it so play can move on", (
        Param("seat", "The seat", required=True, complete="seats"),
        Param("user", "Who takes it (leave out to empty the seat)", kind="user", name_to="name"),
    )),
    Command("game web", WebLinks.game_web, "A link to this game on the web: your own view, only to you", (
        Param("revoke", "true: make your earlier links stop working", kind="bool"),
    ), read_only=True, private=True),
    Command("game web revoke", WebLinks.game_web, "Make your earlier web links stop working", slash=False),
    Command("game help", Help.show_help, "How to play: order notation and where each rule is in the book", (
        Param("system", "Rule system (default: this channel's game)", complete="systems"),
    ), read_only=True, private=True),
    Command("help", Help.show_help, "How to play: commands, systems, each system's order notation", (
        Param("system", "Rule system to explain", complete="systems"),
    ), read_only=True, private=True),
    Command("order", Orders.order_or_preview, "Give an order for your seat (suggestions come from the rules)", (
        Param("text", "The order, e.g. 'Huascar move F F P F' or 'pass'", required=True, complete="orders"),
        Param("seat", "Which of your seats (if you hold several)", complete="my_seats"),
        Param("preview", "true: only show you where it would leave your pieces; nothing is ordered", kind="bool"),
    )),
    Command("roll", Tools.roll, "Roll dice, openly or in secret", (
        Param("dice", "Dice, e.g. 2d6+1, 4d6kh3, d%, 3d6!, adv", required=True),
        Param("secret", "Roll in secret (reveal later)", kind="bool"),
        Param("purpose", "What it is for"),
    )),
    Command("reveal", Tools.reveal, "Reveal one of your secret rolls", (
        Param("roll", "The secret roll's number", required=True, complete="my_rolls"),
    )),
    Command("deck new", Tools.deck, "Make a deck at this table from a deck definition", (
        Param("name", "One-word name for this deck", required=True),
        Param("from", "Deck to copy, e.g. standard54", required=True, complete="deck_sources"),
    )),
    Command("deck shuffle", Tools.deck, "Shuffle a deck (discards go back in)", (
        Param("name", "The deck", required=True, complete="decks"),
    )),
    Command("deck reshuffle", Tools.deck, "Gather the discards back into a deck and shuffle it", (
        Param("name", "The deck", required=True, complete="decks"),
    )),
    Command("deck draw", Tools.deck, "Draw a card, face up or into your hand", (
        Param("name", "The deck", required=True, complete="decks"),
        Param("to", "'hand' to draw privately into your hand", choices=("hand",)),
    )),
    Command("deck deal", Tools.deck, "Deal cards privately to players", (
        Param("name", "The deck", required=True, complete="decks"),
        Param("count", "Cards each", kind="int", required=True, low=1, high=100),
        Param("to", "Players, e.g. @alice @bob", required=True),
    )),
    Command("tools verify", Tools.tools_verify, "Publish this channel's dice seed, re-check every roll, start anew"),
    Command("tools close", Tools.tools_close,
            "Start a new dice stream, keeping this one's unrevealed secret rolls sealed (still revealable)"),
    Command("hand", Tools.hand, "Show your hand only to you", read_only=True, private=True),
    Command("play", Tools.play, "Play a card from your hand face up", (
        Param("card", "The card, e.g. A♥ (see /hand)", required=True, complete="hand_cards"),
        Param("deck", "The deck it belongs to, if several", complete="decks"),
    )),
    Command("seal", Tools.seal, "Sealed orders: seal yours, open a round, or reveal them all", (
        Param("text", "Your order to seal (hidden until everyone has sealed)"),
        Param("action", "open: start a sealed round for the players in 'who'; reveal: reveal the sealed orders",
              choices=("open", "reveal")),
        Param("who", "For action:open, the players, e.g. @alice @bob"),
    )),
    Command("seal open", Tools.seal, "Open a sealed round for these players", (
        Param("who", "The players, e.g. @alice @bob", required=True),
    ), slash=False),
    Command("seal reveal", Tools.seal, "Reveal the sealed orders", slash=False),
)

COMMANDS: dict[str, Command] = {c.name: c for c in COMMAND_LIST}
