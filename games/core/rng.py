"""The game's auditable random stream.

Verify procedure (also printed by ``/game verify`` and in the README):

1. The channel was shown ``commitment = SHA-256(seed)`` (hex) when the game was created.
   When the seed is published, check ``sha256(bytes.fromhex(seed)).hexdigest() == commitment``.
2. Draw number ``i`` (0, 1, 2, ...) is ``HMAC-SHA256(key=seed, msg=i as 8 bytes big-endian)``,
   read as a big-endian 256-bit integer ``v``.
3. A number in ``range(n)``: let ``limit = (2**256 // n) * n``; if ``v < limit`` the result is
   ``v % n``, else take the next draw (rejection sampling: no value is more likely than another).
   A die with ``m`` faces is ``range(m)`` plus one. (For ``n > 2**256``, ``v`` joins ``k`` consecutive
   draws big-endian, with ``k`` the fewest whose ``2**(256*k) >= n``, and the limit uses that span.)
4. A shuffle is Fisher-Yates: for ``j`` from ``len-1`` down to 1, swap item ``j`` with item
   ``range(j + 1)``.
5. A commitment nonce for a text is ``HMAC-SHA256(seed, b"nonce:" + i as 8 bytes + text)`` in hex,
   and uses up draw number ``i``. The commitment is ``SHA-256(nonce + ":" + text)``.

The counter is part of the game's stored state, so replaying the same orders reproduces every
result and undo can never re-roll a die. There is no module-level ``random`` anywhere.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")


def new_seed() -> bytes:
    """A fresh secret seed from the operating system."""
    return secrets.token_bytes(32)


def seed_from_number(number: int) -> bytes:
    """A reproducible seed for tests and ``--seed`` (never for real games)."""
    return hashlib.sha256(f"wargame-table-seed:{number}".encode()).digest()


def commitment(seed: bytes) -> str:
    """SHA-256 of the seed, shown publicly before any draw."""
    return hashlib.sha256(seed).hexdigest()


class Rng:
    """HMAC-SHA256 counter stream over a secret seed."""

    def __init__(self, seed: bytes, counter: int = 0) -> None:
        if len(seed) < 16:
            raise ValueError("seed too short")
        self._seed = seed
        self.counter = counter

    @property
    def commitment(self) -> str:
        return commitment(self._seed)

    def raw(self) -> int:
        """Draw ``counter`` as a 256-bit integer and advance the counter."""
        mac = hmac.new(self._seed, self.counter.to_bytes(8, "big"), hashlib.sha256).digest()
        self.counter += 1
        return int.from_bytes(mac, "big")

    def below(self, n: int) -> int:
        """Uniform integer in ``range(n)``."""
        if n <= 0:
            raise ValueError(f"range must be positive, got {n}")
        blocks = 1
        while (1 << (256 * blocks)) < n:  # ranges beyond 2**256 join several draws, big-endian
            blocks += 1
        span = 1 << (256 * blocks)
        limit = (span // n) * n
        while True:
            v = 0
            for _ in range(blocks):
                v = (v << 256) | self.raw()
            if v < limit:
                return v % n

    def randint(self, low: int, high: int) -> int:
        """Uniform integer with ``low <= x <= high``."""
        return low + self.below(high - low + 1)

    def die(self, faces: int) -> int:
        return self.below(faces) + 1

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates in place."""
        for j in range(len(items) - 1, 0, -1):
            k = self.below(j + 1)
            items[j], items[k] = items[k], items[j]

    def choice(self, items: list[T]) -> T:
        if not items:
            raise ValueError("choice from an empty list")
        return items[self.below(len(items))]

    def nonce(self, salt: str = "") -> str:
        """A commitment nonce, bound to the text it will seal (``salt``).

        ``HMAC-SHA256(seed, b"nonce:" + counter as 8 bytes + salt)`` as hex, advancing the counter.
        Binding the text matters after an undo: the counter rewinds, and a different text sealed
        at the same counter gets an unrelated nonce, so revealing it later tells nothing about the
        commitment of the text that was taken back.
        """
        msg = b"nonce:" + self.counter.to_bytes(8, "big") + salt.encode()
        self.counter += 1
        return hmac.new(self._seed, msg, hashlib.sha256).hexdigest()


class DrawRefused(Exception):
    """An order asked a ``NoDraws`` stream for a random number."""


class NoDraws(Rng):
    """A stream that refuses every draw. A preview runs an order on it, so no number of the game's
    real stream is spent or shown ahead of time: an order that would roll cannot be previewed."""

    def __init__(self) -> None:
        super().__init__(b"\0" * 16)

    def raw(self) -> int:
        raise DrawRefused

    def nonce(self, salt: str = "") -> str:
        raise DrawRefused


def seal(text: str, nonce: str) -> str:
    """Commitment to a hidden text (a secret roll's value, a sealed order)."""
    return hashlib.sha256(f"{nonce}:{text}".encode()).hexdigest()


def check_seal(text: str, nonce: str, digest: str) -> bool:
    """Anyone can check a revealed text against the commitment shown earlier."""
    return hmac.compare_digest(seal(text, nonce), digest)
