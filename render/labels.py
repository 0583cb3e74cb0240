"""Where names and captions go on a continuous table.

Every ship's or unit's name goes next to its own base, clear of every other name (with a word's
gap, so two names on one line never read as one) and of every base; when nothing next to the base
is free it stands a row or two further out with a leader line to its base, the way a crowded chart
is lettered. Captions go at the first of a few places along their area where nothing else sits:
set-up zones' before the names (clear of the bases), terrain pieces' and overlay results' after
them. Pure geometry: nothing here draws (``render.table_text`` does).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in pixels
Pt = tuple[float, float]

GAP = 3.0  # between a base and its name
HARD = 1_000_000.0  # any overlap costs more than the least preferred clear place


@dataclass(frozen=True)
class Name:
    """One name to place: its base's box and the name row's width and height (pixels)."""

    key: str
    base: Box
    width: float
    height: float


@dataclass(frozen=True)
class Placed:
    """Where a name went, and its leader (base edge to name edge) when it stands off its base."""

    box: Box
    leader: tuple[Pt, Pt] | None = None
    base: Box = (0.0, 0.0, 0.0, 0.0)  # its own base's box


def overlap(a: Box, b: Box) -> float:
    """The area two boxes share (0 when apart). Called some 10^5 times a picture: no min/max calls."""
    w = (a[2] if a[2] < b[2] else b[2]) - (a[0] if a[0] > b[0] else b[0])
    if w <= 0:
        return 0.0
    h = (a[3] if a[3] < b[3] else b[3]) - (a[1] if a[1] > b[1] else b[1])
    return w * h if h > 0 else 0.0


def _overlaps(a: Box, boxes: Sequence[Box], base: float = 0.0, pref: float = 0.0, beat: float = math.inf) -> float:
    """The sum of ``overlap(a, b)`` over ``boxes``, the same sum in the same order (skipping
    zeros changes no bit), inlined: a table's name placement adds up some 10^6 overlaps. Infinity
    as soon as a covered place's cost, ``HARD + (base + sum) + pref``, reaches ``beat`` (a place
    already found): the rest of the sum only adds to it (float sums of terms >= 0 never fall)."""
    ax0, ay0, ax1, ay1 = a
    total = 0.0
    for b in boxes:
        w = (ax1 if ax1 < b[2] else b[2]) - (ax0 if ax0 > b[0] else b[0])
        if w > 0:
            h = (ay1 if ay1 < b[3] else b[3]) - (ay0 if ay0 > b[1] else b[1])
            if h > 0:
                total += w * h
                if HARD + (base + total) + pref >= beat:
                    return math.inf
    return total


def _touches(box: Box, others: Sequence[Box], word_gap: float, rise: float = 1.0) -> bool:
    """Whether a name's box, kept ``word_gap`` apart sideways and ``rise`` up and down, runs into any of
    ``others`` (``_overlaps(grow(box, word_gap, rise), others)`` above 0, stopping at the first:
    most places run into something, and their cost is only needed while none is clear)."""
    x0, y0, x1, y1 = box
    sx0, sy0, sx1, sy1 = x0 - word_gap, y0 - rise, x1 + word_gap, y1 + rise
    for o in others:  # noqa: SIM110 (a loop, not any() over a generator: this runs 10^5 times a replay)
        if o[0] < sx1 and sx0 < o[2] and o[1] < sy1 and sy0 < o[3]:
            return True
    return False


def grow(box: Box, dx: float, dy: float) -> Box:
    return (box[0] - dx, box[1] - dy, box[2] + dx, box[3] + dy)


def outside(box: Box, area: Box) -> float:
    """How much of a box lies off the area (its whole area when entirely off)."""
    return (box[2] - box[0]) * (box[3] - box[1]) - overlap(box, area)


def _centred(x: float, y: float, w: float, h: float) -> Box:
    return (x - w / 2, y - h / 2, x + w / 2, y + h / 2)


def name_candidates(name: Name) -> list[tuple[Box, float]]:
    """Places for a name with their preference (lower first): right above or below the base,
    slid a little sideways, beside it, then one to three rows further out (with a leader)."""
    x0, y0, x1, y1 = name.base
    w, h = name.width, name.height
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    out: list[tuple[Box, float]] = []
    for row in range(4):
        step = row * (h + 2)
        for shift in (0.0, -0.25, 0.25, -0.45, 0.45, -0.8, 0.8):
            x = cx + shift * w
            pref = row * 4.0 + abs(shift) * 3.0 + (5.0 if abs(shift) > 0.5 else 0.0)
            out.append((_centred(x, y0 - GAP - h / 2 - step, w, h), pref))
            out.append((_centred(x, y1 + GAP + h / 2 + step, w, h), pref + 0.5))
        # beside the base (row 1 and on: a name's height further off, past a neighbour's base)
        for dy in (0.0, -0.6, 0.6, -1.0, 1.0):
            y = cy + dy * h
            off = GAP + 2 + row * h
            out.append(((x1 + off, y - h / 2, x1 + off + w, y + h / 2), 1.5 + abs(dy) * 2 + row * 4.0))
            out.append(((x0 - off - w, y - h / 2, x0 - off, y + h / 2), 1.7 + abs(dy) * 2 + row * 4.0))
    out.sort(key=lambda c: c[1])
    return out


def apart(a: Box, b: Box) -> float:
    """The gap between two boxes (0 when they touch or overlap)."""
    return max(a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3], 0.0)


def cross(a: tuple[Pt, Pt], b: tuple[Pt, Pt]) -> bool:
    """Whether two segments cross (touching ends do not count)."""

    def side(p: Pt, q: Pt, r: Pt) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    d1, d2 = side(b[0], b[1], a[0]), side(b[0], b[1], a[1])
    d3, d4 = side(a[0], a[1], b[0]), side(a[0], a[1], b[1])
    return d1 * d2 < 0 and d3 * d4 < 0


def _clipped(line: tuple[Pt, Pt], box: Box) -> float:
    """The length of a segment inside a box (Liang-Barsky clipping)."""
    (ax, ay), (bx, by) = line
    dx, dy = bx - ax, by - ay
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, ax - box[0]), (dx, box[2] - ax), (-dy, ay - box[1]), (dy, box[3] - ay)):
        if p == 0:
            if q < 0:
                return 0.0
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 >= t1:
            return 0.0
    return (t1 - t0) * math.hypot(dx, dy)


def crossing(line: tuple[Pt, Pt], boxes: Sequence[Box]) -> float:
    """How many pixels of a leader run over the boxes."""
    return sum(_clipped(line, b) for b in boxes)


def leader_for(base: Box, box: Box) -> tuple[Pt, Pt] | None:
    """A line from the base to its name when the name does not sit against the base."""
    gap_x = max(box[0] - base[2], base[0] - box[2], 0.0)
    gap_y = max(box[1] - base[3], base[1] - box[3], 0.0)
    if gap_x <= GAP + 3 and gap_y <= GAP + 3:
        return None
    cx = min(max((base[0] + base[2]) / 2, box[0] + 4), box[2] - 4)
    cy = min(max((base[1] + base[3]) / 2, box[1] + 2), box[3] - 2)
    if gap_y > GAP + 3:  # above or below: from the facing edges
        start = ((base[0] + base[2]) / 2, base[1] if box[3] <= base[1] else base[3])
        end = (cx, box[3] if box[3] <= base[1] else box[1])
    else:
        start = (base[0] if box[2] <= base[0] else base[2], (base[1] + base[3]) / 2)
        end = (box[2] if box[2] <= base[0] else box[0], cy)
    return (start, end)


class _Places:
    """One name's candidate places (``name_candidates``) for one ``Placer.place_names``, with what
    each costs that no other name's place changes, worked out when first needed: whether it is
    blocked (a base, the table's edge), its bases' and edge's cost, its soft cost's fixed part."""

    def __init__(self, n: Name, bases: Sequence[Box]) -> None:
        candidates = name_candidates(n)
        self.boxes = [box for box, _ in candidates]
        self.prefs = [pref for _, pref in candidates]
        self.reach = grow(n.base, n.width * 1.5 + 4 * n.height, 5 * (n.height + 2))  # the farthest place's
        self.bases = [b for b in bases if overlap(b, self.reach) > 0]  # only these can cover a place
        self.blocked: list[bool | None] = [None] * len(candidates)
        self.fixed: list[tuple[float, float] | None] = [None] * len(candidates)
        self.soft: list[tuple[tuple[Pt, Pt] | None, float, float] | None] = [None] * len(candidates)


class Placer:
    """Keeps the boxes already taken and places names and captions clear of them."""

    def __init__(self, area: Box, bases: Sequence[Box], taken: Sequence[Box] = (), *, mat: Box | None = None) -> None:
        self.area = area  # nothing may leave it
        self.mat = area if mat is None else mat  # a name may leave it (onto a ruler) when it must
        self.bases = [grow(b, 2.0, 2.0) for b in bases]
        self.taken = list(taken)
        self._places: dict[str, _Places] = {}  # each name's, for one ``place_names``

    def _cost(self, box: Box, others: Sequence[Box], word_gap: float, bases: Sequence[Box] | None = None, *,
              pref: float = 0.0, beat: float = math.inf) -> float:
        """How much of a box runs into names (kept a word's gap apart), bases or off the table.
        A name never meets its own base: every candidate stands off it. Infinity once a covered
        place of preference ``pref`` could not cost less than ``beat`` (see ``_overlaps``)."""
        names = _overlaps(grow(box, word_gap, 1.0), others, 0.0, pref, beat)
        if names == math.inf:
            return names
        on_bases = _overlaps(box, self.bases if bases is None else bases, names, pref, beat)
        return names + on_bases + outside(box, self.area) * 4

    def _soft_parts(self, n: Name, box: Box, bases: Sequence[Box]) -> tuple[tuple[Pt, Pt] | None, float, float]:
        """What makes a clear place worse, but for what other names do: off the mat; without a
        leader, a name nearer a neighbour's base than its own; with one, the leader (longer is
        worse), a name against another base and the leader over other bases. (The leader, the
        first terms' sum, the bases' term; ``_spot_soft`` adds the names' terms.)"""
        off = outside(box, self.mat) / ((box[2] - box[0]) * (box[3] - box[1]))
        off_mat = 12.0 + 30.0 * off if off > 0 else 0.0
        line = leader_for(n.base, box)
        if line is None:
            return None, off_mat + (6.0 if self._nearer_other(n, box, bases) else 0.0), 0.0
        length = abs(line[1][0] - line[0][0]) + abs(line[1][1] - line[0][1])
        # a name against another base reads as that base's, leader or not
        beside = 4.0 if any(apart(box, b) < 4 for b in bases if overlap(b, n.base) == 0) else 0.0
        over_bases = crossing(line, [b for b in bases if overlap(b, n.base) == 0])
        # a leader over other names or across other leaders is worse too (``_spot_soft``)
        return line, off_mat + beside + length / 40, over_bases * 2

    def keep_names(self, names: Sequence[Name], before: Mapping[str, Placed]) -> dict[str, Placed]:
        """The names whose base has not moved since the previous picture (``before``) keep their
        place there while it is still clear of every base and of the names kept so far, so a name
        does not jump about from one picture to the next because another counter moved. Taken in
        key order: the result does not depend on the order the names come in."""
        kept: dict[str, Placed] = {}
        for n in sorted(names, key=lambda n: n.key):
            old = before.get(n.key)
            if old is None or old.base != n.base or not math.isclose(old.box[2] - old.box[0], n.width):
                continue
            if not math.isclose(old.box[3] - old.box[1], n.height):
                continue
            if self._cost(old.box, [*self.taken, *(p.box for p in kept.values())], n.height * 0.5) == 0:
                kept[n.key] = old
        self.taken.extend(p.box for p in kept.values())
        return kept

    def place_names(self, names: Sequence[Name], before: Mapping[str, Placed] | None = None) -> dict[str, Placed]:
        """Every name clear of the others and of every base where the table allows. A name whose
        base stands where it did in the previous picture keeps its place there (``keep_names``).
        The others: greedy, then a few passes moving each name to its best place given all the
        others; tried in a few orders (top rows first, bottom first, the hardest to place first,
        the widest first), keeping the best, since a name placed early can take a later one's only
        clear place."""
        kept = self.keep_names(names, before or {})
        names = [n for n in names if n.key not in kept]
        by_key = {n.key: n for n in names}
        self._places = {n.key: _Places(n, self.bases) for n in names}  # this call's: the area and mat may change

        def centre(n: Name) -> tuple[float, float]:
            return ((n.base[1] + n.base[3]) / 2, (n.base[0] + n.base[2]) / 2)

        orders: tuple[Callable[[], list[Name]], ...] = (
            lambda: sorted(names, key=centre),
            lambda: sorted(names, key=lambda n: (self._room(n), centre(n))),
            lambda: sorted(names, key=lambda n: (-centre(n)[0], centre(n)[1])),
            lambda: sorted(names, key=lambda n: (-n.width, centre(n))),
        )
        best: tuple[tuple[int, float], dict[str, Box]] | None = None
        tried: set[tuple[str, ...]] = set()
        for order in orders:
            names_in_order = order()
            sequence = tuple(n.key for n in names_in_order)
            if sequence in tried:
                continue  # the same order arranges the same (a lone name: the one order there is), never better
            tried.add(sequence)
            boxes, score = self._arrange(names_in_order)
            if best is None or score < best[0]:
                best = (score, boxes)
            if best[0] == (0, 0.0):
                break  # every name right by its base: nothing can be better
        assert best is not None or not names
        boxes = best[1] if best is not None else {}
        self.taken.extend(boxes.values())
        return kept | {k: Placed(b, leader_for(by_key[k].base, b), by_key[k].base) for k, b in boxes.items()}

    def _room(self, n: Name) -> int:
        """How many of a name's places are clear of the bases alone (fewer: place it sooner)."""
        # ``_cost`` is 0 when its three parts are: no base, nothing off the table, no name (no gap)
        places = self._places[n.key]
        return sum(1 for i, box in enumerate(places.boxes) if not self._blocked(places, i) and not _touches(box, self.taken, 0.0))

    def _blocked(self, places: _Places, i: int) -> bool:
        """Whether place ``i`` runs into a base or off the table (what no name's place changes: once
        per place and picture, however many orders and passes try it)."""
        blocked = places.blocked[i]
        if blocked is None:
            box = places.boxes[i]
            blocked = places.blocked[i] = _touches(box, places.bases, 0.0, 0.0) or outside(box, self.area) > 0
        return blocked

    def _spot_cost(self, places: _Places, i: int, others: Sequence[Box], word_gap: float, pref: float, beat: float) -> float:
        """``_cost`` of place ``i`` against the bases in its reach, the same value to the bit: the
        names' part is summed now, the bases' and the table edge's once per place and picture. The
        early stop is the same too: ``_overlaps`` stops once ``HARD + (names + partial sum) + pref``
        reaches ``beat``; partial sums of terms >= 0 only grow (float rounding keeps that order), so
        it stops at some term exactly when the whole sum reaches it. So when the bases alone reach
        it (``HARD + (0 + bases) + pref``, which the names' part can only raise), the names' part
        need not be summed: ``_cost`` gives infinity whatever it is."""
        box = places.boxes[i]
        fixed = places.fixed[i]
        if fixed is None:
            fixed = places.fixed[i] = (_overlaps(box, places.bases), outside(box, self.area) * 4)
        on_bases, off = fixed
        if on_bases > 0 and HARD + on_bases + pref >= beat:
            return math.inf
        names = _overlaps(grow(box, word_gap, 1.0), others, 0.0, pref, beat)
        if names == math.inf:
            return names
        if on_bases > 0 and HARD + (names + on_bases) + pref >= beat:
            return math.inf
        return names + on_bases + off

    def _arrange(self, order: Sequence[Name]) -> tuple[dict[str, Box], tuple[int, float]]:
        """Names placed in this order, then re-placed until none moves; the score counts the names
        left covering something, then the total cost."""
        boxes: dict[str, Box] = {}
        costs: dict[str, float] = {}
        lines: dict[str, tuple[Pt, Pt] | None] = {}  # each placed name's leader (``leader_for``), kept while it stays
        changes = 0  # how many times a name has gone somewhere new
        seen: dict[str, int] = {}  # each name's ``changes`` when it was last placed
        for _ in range(5):
            moved = False
            for n in order:
                if costs.get(n.key) == 0.0:
                    continue  # right by its base and clear: nothing placed later can have moved it
                if seen.get(n.key) == changes:
                    continue  # no other name has moved since: its best place is where it is (a lone name's second pass)
                others = [b for k, b in boxes.items() if k != n.key] + self.taken
                leaders = [line for k, line in lines.items() if k != n.key and line is not None]
                cost, box = self._best(n, others, leaders)
                if boxes.get(n.key) != box:
                    moved = True
                    changes += 1
                    lines[n.key] = leader_for(n.base, box)
                boxes[n.key], costs[n.key] = box, cost
                seen[n.key] = changes
            if not moved:
                break
        return boxes, (sum(1 for c in costs.values() if c >= HARD), sum(costs.values()))

    def _best(self, n: Name, others: Sequence[Box], leaders: Sequence[tuple[Pt, Pt]]) -> tuple[float, Box]:
        best: tuple[float, Box] | None = None
        places = self._places[n.key]
        reach = places.reach  # only what the farthest place could reach counts (a few times faster on a full table)
        others = [b for b in others if overlap(b, reach) > 0]
        gap = n.height * 0.5
        # a clear place costs its preference and its soft cost (a few dozen at most) and a covered one
        # more than HARD: while any place is clear, the covered ones need no cost, only a look
        for i, (box, pref) in enumerate(zip(places.boxes, places.prefs, strict=True)):
            if best is not None and pref >= best[0]:
                break  # candidates come in order of preference: nothing later can win
            if self._blocked(places, i) or _touches(box, others, gap):
                continue
            cost = pref + self._spot_soft(n, places, i, others, leaders)
            if best is None or cost < best[0]:
                best = (cost, box)
        if best is not None:
            return best
        for i, (box, pref) in enumerate(zip(places.boxes, places.prefs, strict=True)):  # every place covered
            # the one covering least: a place covering more than the best so far stops being counted,
            # and a covered place is judged by how much it covers alone (leaders and such are details then)
            hit = self._spot_cost(places, i, others, gap, pref, math.inf if best is None else best[0])
            cost = HARD + hit + pref
            if best is None or cost < best[0]:
                best = (cost, box)
        assert best is not None
        return best

    def _spot_soft(self, n: Name, places: _Places, i: int, others: Sequence[Box], leaders: Sequence[tuple[Pt, Pt]]) -> float:
        """What makes clear place ``i`` worse: the part no other name changes once per place and
        picture (``_soft_parts``), then a leader running over other names and across their leaders,
        added in the order the whole sum was always added in (the same value to the bit)."""
        parts = places.soft[i]
        if parts is None:
            parts = places.soft[i] = self._soft_parts(n, places.boxes[i], places.bases)
        line, head, over_bases = parts
        if line is None:
            return head
        return head + crossing(line, others) / 1.5 + over_bases + 3.0 * sum(1 for other in leaders if cross(line, other))

    def _nearer_other(self, n: Name, box: Box, bases: Sequence[Box]) -> bool:
        own = apart(box, n.base)
        return any(apart(box, b) < own + 2 for b in bases if overlap(b, n.base) == 0)

    def place_caption(self, width: float, height: float, spots: Sequence[Pt], *, optional: bool = False) -> Box | None:
        """A caption centred on the first spot where it is clear of everything placed so far
        (else the least covered spot, or nowhere when ``optional``); the caption is then taken."""
        best: tuple[float, Box] | None = None
        # only what some spot's box (grown by the names' gap) can meet: the others add nothing to
        # any spot's sums, whose terms keep their order, so every cost is the same to the bit
        near, bases = self.taken, self.bases
        reach = (min(x for x, _ in spots) - width / 2 - 4.0, min(y for _, y in spots) - height / 2 - 1.0,
                 max(x for x, _ in spots) + width / 2 + 4.0, max(y for _, y in spots) + height / 2 + 1.0) if spots else None
        if reach is not None and all(map(math.isfinite, reach)):  # (a NaN spot meets everything)
            near = [b for b in near if _touches(b, (reach,), 0.0, 0.0)]
            bases = [b for b in bases if _touches(b, (reach,), 0.0, 0.0)]
        for x, y in spots:
            box = _centred(x, y, width, height)
            hit = self._cost(box, near, 4.0, bases)
            if best is None or hit < best[0]:
                best = (hit, box)
            if hit == 0:
                break
        if best is None or (optional and best[0] > 0):
            return None
        self.taken.append(best[1])
        return best[1]


def edge_spots(area: Box, width: float, height: float, *, inset: float = 6.0) -> list[Pt]:
    """Caption centres over an area: along its inside top and bottom edges first, from the middle
    outwards, then rows between them, then just outside its top and bottom edges (still naming
    it, where the area is full of counters)."""
    x0, y0, x1, y1 = area
    cx = (x0 + x1) / 2
    half = max(0.0, (x1 - x0 - width) / 2 - inset)
    steps = [0.0]
    for i in range(1, 13):
        steps.extend((-i / 12, i / 12))
    top, bottom = y0 + inset + height / 2, y1 - inset - height / 2
    rows = [top, bottom, *(top + (bottom - top) * f for f in (0.5, 0.25, 0.75))] if bottom > top else [(y0 + y1) / 2]
    rows.extend((y0 - height / 2 - 2, y1 + height / 2 + 2))
    return [(cx + s * half, y) for y in rows for s in steps]


@dataclass(frozen=True)
class Caption:
    """A caption's box and how it is written (a zone's or a terrain piece's name)."""

    box: Box
    text: str
    size: float
    bold: bool
    fill: tuple[int, int, int]
    stroke: tuple[int, int, int]


@dataclass(frozen=True)
class TableLayout:
    """Where a table's names (by counter id) and captions go in one picture."""

    names: dict[str, Placed]
    captions: tuple[Caption, ...]
    bases: tuple[Box, ...] = ()  # every base's box, which names and captions keep clear of
