"""The exact solver behind :func:`rummylib.arrangement.arrange` (private).

Vocabulary:

* A **shape** is the natural part of a meld (a multiset of natural cards, by
  :attr:`~rummylib.cards.Card.index`) with an interval ``low..high`` of joker counts: the shape
  with any number of jokers in that interval is a legal meld. Shapes are built once per
  ``(rules, joker_count)`` and only **irreducible** ones are kept: a meld that can be cut into two
  legal melds (a seven-card run, say) is left out, because the two pieces meld the same cards.
* **Weights** turn the objective into one integer to maximise: a card removed from the deadwood
  (melded or discarded) is worth ``points * BIG + 1``, so a larger total means fewer deadwood
  points first and fewer deadwood cards second.
* Jokers: a meld takes its shape's ``low`` jokers when it is chosen; once the natural cards are
  placed, the jokers left over go into the chosen melds' spare room (``high - low`` each) and
  only the rest stay in the deadwood. Since every joker count in ``low..high`` is legal, that is
  the same as trying every count, but it branches far less.

* The discard: setting a card aside and arranging the rest is the same as arranging the whole
  hand and taking the heaviest allowed card out of its deadwood. So no solver branches on the
  discard; they track the heaviest allowed deadwood card instead.

Three solvers share the tables, fastest first (``arrange`` picks the first that applies):

* :func:`solve_simple` for hands without jokers or duplicate cards (gin rummy, and most hands of
  any variant): the best runs of every set of ranks of a suit are precomputed (8192-entry
  tables, with and without a discard), so only the few ranks that can form a group are
  enumerated. :func:`solve_simple_copies` extends it to duplicates that no meld can use.
* :func:`solve_one_joker` for one joker and distinct natural cards: the joker completes one
  meld (then the rest is a :func:`solve_simple` hand), fills a meld's spare room, or stays.
* :func:`solve_general` for everything else: a depth-first search over the count vector of the
  hand that takes the lowest remaining card and tries every shape holding it, then leaving it
  in the deadwood; memoised on (cards left, jokers left, spare room, heaviest discard) within
  the call, and bounded: a state that cannot beat the best arrangement found so far, even by
  melding every card a meld could still take, is cut off (its bound is remembered instead).

All are exact; the tests hold them to a brute-force oracle and to each other. Tables are pure
functions of frozen rule and points objects, cached with :func:`functools.lru_cache` (and a
small identity-keyed memo in front of it, since hashing those objects costs more than a gin
hand's whole search). No state survives from one hand to the next.

Nothing is built at import. The first hand arranged under a rule set and points table builds
the simple solver's tables (about 0.1 s), and the first hand with jokers or duplicates the
general solver's tables for its joker count (0.01 to 0.1 s each); both last for the process.
:func:`clear_tables` forgets them.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Sequence
from typing import Final, NamedTuple

import attrs

from rummylib.cards import CARDS, JOKER, JOKER_INDEX, Card, Rank
from rummylib.melds import Meld, MeldKind, MeldRules
from rummylib.scoring import CardPoints

#: Weight of one point; the weight of a card is ``points * BIG + 1``. Far above any card count.
BIG: Final = 1 << 32
#: Smaller than any reachable weight ("no solution").
NEG: Final = -(1 << 200)
#: The bit of each card in a presence sum; jokers sit far above the naturals so that the carries
#: of duplicate naturals never reach them (see :func:`read_hand`).
JOKER_SHIFT: Final = 64
CARD_BITS: Final = (*(1 << index for index in range(JOKER_INDEX)), 1 << JOKER_SHIFT)
#: A sum of ``CARD_BITS`` below this holds no joker.
ONE_PACK_LIMIT: Final = 1 << JOKER_INDEX
#: The joker's bit in a sum of ``CARD_BITS``.
JOKER_BIT: Final = 1 << JOKER_SHIFT
NATURALS: Final = (1 << JOKER_SHIFT) - 1
ALL_NATURALS: Final = (1 << JOKER_INDEX) - 1
SUIT_MASK: Final = (1 << 13) - 1


# ------------------------------------------------------------------------------------------
# Wild cards: points that count them as jokers.


@attrs.frozen(kw_only=True)
class _WildPoints(CardPoints):
    """``CardPoints`` in which every card of ``wild_ranks`` is worth a joker (rule 6.5).

    The solvers read nothing but :attr:`~rummylib.scoring.CardPoints.values`, so a hand with
    wild cards is solved under these points. It never equals a plain ``CardPoints``, so the
    tables cached for one are never taken for the other's.
    """

    wild_ranks: frozenset[Rank] = frozenset()

    def __attrs_post_init__(self) -> None:
        super().__attrs_post_init__()
        values = list(self.values)
        for card in CARDS[:JOKER_INDEX]:
            if card.rank in self.wild_ranks:
                values[card.index] = self.joker
        object.__setattr__(self, "values", tuple(values))


@functools.lru_cache(maxsize=64)
def wild_points(points: CardPoints, wild_ranks: frozenset[Rank]) -> CardPoints:
    """``points`` with the natural cards of ``wild_ranks`` worth :attr:`CardPoints.joker`.

    Cached, so that the solvers' identity-keyed memos meet one object per pair.
    """
    return _WildPoints(
        ace=points.ace,
        face=points.face,
        joker=points.joker,
        ace_low_run=points.ace_low_run,
        numbered_faces=points.numbered_faces,
        wild_ranks=wild_ranks,
    )


# ------------------------------------------------------------------------------------------
# Shapes: the irreducible natural parts of melds, per (rules, joker count).


class Shape(NamedTuple):
    """The natural cards of a family of melds and the joker counts that complete them."""

    #: Natural card indexes, ascending (repeated for a group holding two copies of a card).
    naturals: tuple[int, ...]
    #: Fewest jokers.
    low: int
    #: Most jokers (never above the joker count the table was built for).
    high: int
    #: ``melds[j - low]`` is the meld with ``j`` jokers, read as :meth:`Meld.from_cards` reads it.
    melds: tuple[Meld, ...]
    #: The most copies of one card among the naturals (1 unless groups may repeat a card).
    copies: int
    #: ``meld_order`` of each meld (the same for every joker count).
    order: tuple[int, int, int]


def _group_sizes_ok(naturals: int, jokers: int, rules: MeldRules) -> bool:
    size = naturals + jokers
    return naturals >= rules.min_naturals and rules.min_size <= size <= rules.max_group_size


def _group_splits(naturals: int, jokers: int, rules: MeldRules) -> bool:
    """Whether a group of this many naturals and jokers can be cut into two legal groups."""
    for first_naturals in range(naturals + 1):
        for first_jokers in range(jokers + 1):
            if _group_sizes_ok(first_naturals, first_jokers, rules) and _group_sizes_ok(
                naturals - first_naturals, jokers - first_jokers, rules
            ):
                return True
    return False


def _run_reading_ok(is_natural: Sequence[bool], ranks: Sequence[int], rules: MeldRules) -> bool:
    """Whether jokers are placed legally in a run window (the joker-beside-ace rule)."""
    if rules.joker_beside_ace:
        return True
    size = len(ranks)
    for offset, rank in enumerate(ranks):
        if rank != 1:
            continue
        if not is_natural[offset]:
            return False
        for neighbour in (offset - 1, offset + 1):
            if 0 <= neighbour < size and not is_natural[neighbour]:
                return False
    return True


def _run_reading_splits(is_natural: Sequence[bool], rules: MeldRules) -> bool:
    """Whether a legal run reading can be cut into two legal runs."""
    size = len(is_natural)
    total = sum(is_natural)
    before = 0
    for cut in range(1, size):
        before += is_natural[cut - 1]
        if (
            rules.min_size <= cut <= size - rules.min_size
            and before >= rules.min_naturals
            and total - before >= rules.min_naturals
        ):
            return True
    return False


@functools.lru_cache(maxsize=256)
def _run_windows(size: int, rules: MeldRules) -> tuple[tuple[int, ...], ...]:
    """The rank sequences of every run window of ``size`` cards (ranks 1–13)."""
    return tuple(
        tuple((position - 1) % 13 + 1 for position in range(start, start + size))
        for start in rules.run_starts(size)
    )


def _readings(naturals: tuple[int, ...], jokers: int, rules: MeldRules) -> tuple[bool, bool]:
    """Whether some reading of the cards is a legal meld, and whether some legal one splits."""
    natural_count = len(naturals)
    if natural_count < rules.min_naturals or natural_count + jokers < rules.min_size:
        return False, False
    legal = splits = False
    ranks = {index % 13 + 1 for index in naturals}
    suits = {index // 13 for index in naturals}
    distinct = len(set(naturals)) == natural_count
    if (
        len(ranks) == 1
        and (distinct or not rules.group_distinct_suits)
        and _group_sizes_ok(natural_count, jokers, rules)
    ):
        legal = True
        splits = _group_splits(natural_count, jokers, rules)
    size = natural_count + jokers
    if len(suits) == 1 and distinct and size <= rules.longest_run:
        for window in _run_windows(size, rules):
            if not ranks <= set(window):
                continue
            is_natural = [rank in ranks for rank in window]
            if _run_reading_ok(is_natural, window, rules):
                legal = True
                splits = splits or _run_reading_splits(is_natural, rules)
    return legal, splits


def _candidate_pairs(  # noqa: PLR0912  (one pass over groups, then over run windows)
    rules: MeldRules, joker_count: int
) -> set[tuple[tuple[int, ...], int]]:
    """(naturals, jokers) pairs that may be irreducible melds: a superset of them."""
    pairs: set[tuple[tuple[int, ...], int]] = set()
    least = rules.min_naturals
    # Groups: any multiset of one rank's cards, any joker count.
    copies = 1 if rules.group_distinct_suits else rules.max_group_size
    for rank in range(13):
        for size in range(least, rules.max_group_size + 1):
            for suits in itertools.combinations_with_replacement(range(4), size):
                if max(suits.count(suit) for suit in suits) > copies:
                    continue
                naturals = tuple(sorted(13 * suit + rank for suit in suits))
                for jokers in range(min(joker_count, rules.max_group_size - size) + 1):
                    pairs.add((naturals, jokers))
    # Runs: windows whose natural positions admit no cut into two legal runs. A reading of
    # 2 * min_size cards or more with a natural part that big can always be cut (see below), so
    # long windows only matter with many jokers.
    short = 2 * rules.min_size - 1
    most_naturals_long = max(2 * least - 1, rules.min_size + least - 1)
    longest = min(rules.longest_run, max(short, joker_count + most_naturals_long))
    for size in range(rules.min_size, longest + 1):
        most = size if size <= short else min(size, most_naturals_long)
        for window in _run_windows(size, rules):
            for natural_count in range(max(least, size - joker_count), most + 1):
                for chosen in itertools.combinations(range(size), natural_count):
                    is_natural = [False] * size
                    for offset in chosen:
                        is_natural[offset] = True
                    if not _run_reading_ok(is_natural, window, rules):
                        continue
                    if _run_reading_splits(is_natural, rules):
                        continue
                    for suit in range(4):
                        naturals = tuple(
                            sorted(13 * suit + window[offset] - 1 for offset in chosen)
                        )
                        pairs.add((naturals, size - natural_count))
    return pairs


#: The general solver's tables are built for this many jokers and fewer at once (one pause,
#: early), the fewer-joker shapes cut from this many's.
BATCH_JOKERS: Final = 4


@functools.lru_cache(maxsize=64)
def shapes(rules: MeldRules, joker_count: int) -> tuple[Shape, ...]:
    """Every irreducible shape needing at most ``joker_count`` jokers, in canonical order.

    Whether a meld is legal and irreducible does not depend on the joker count the table is
    for, so the shapes for one to ``BATCH_JOKERS - 1`` jokers are those for ``BATCH_JOKERS``
    that need at most ``joker_count``, their joker intervals cut there.
    """
    if 0 < joker_count < BATCH_JOKERS:
        result = []
        for shape in shapes(rules, BATCH_JOKERS):
            if shape.low <= joker_count:
                high = min(shape.high, joker_count)
                melds = shape.melds[: high - shape.low + 1]
                result.append(shape._replace(high=high, melds=melds))
        return tuple(result)
    return shapes_of(rules, joker_count)


def shapes_of(rules: MeldRules, joker_count: int) -> tuple[Shape, ...]:
    """:func:`shapes`, worked out from the candidate melds for this joker count (no cache)."""
    kept: dict[tuple[int, ...], list[int]] = {}
    for naturals, jokers in _candidate_pairs(rules, joker_count):
        legal, splits = _readings(naturals, jokers, rules)
        if legal and not splits:
            kept.setdefault(naturals, []).append(jokers)
    result: list[Shape] = []
    for naturals in sorted(kept):
        counts = sorted(kept[naturals])
        runs: list[list[int]] = []
        for jokers in counts:
            if runs and runs[-1][-1] == jokers - 1:
                runs[-1].append(jokers)
            else:
                runs.append([jokers])
        for interval in runs:
            melds = tuple(reading(naturals, jokers, rules) for jokers in interval)
            copies = max(naturals.count(index) for index in naturals)
            order = meld_order(melds[0])
            result.append(Shape(naturals, interval[0], interval[-1], melds, copies, order))
    return tuple(result)


def reading(naturals: tuple[int, ...], jokers: int, rules: MeldRules) -> Meld:
    """The reading :meth:`Meld.from_cards` gives these cards (a legal meld), built directly.

    As in :mod:`rummylib.melds`: a group when the cards can be one (free jokers take the
    suits used least, in suit order), else the run whose first natural card comes earliest,
    then whose window starts lowest. The tests hold this to :meth:`Meld.from_cards`.
    """
    size = len(naturals) + jokers
    ranks = {index % 13 for index in naturals}
    if (
        len(ranks) == 1
        and size <= rules.max_group_size
        and (not rules.group_distinct_suits or len(set(naturals)) == len(naturals))
    ):
        rank = naturals[0] % 13
        used = [0, 0, 0, 0]
        for index in naturals:
            used[index // 13] += 1
        filled = []
        for _ in range(jokers):
            suit = min(range(4), key=lambda suit: (used[suit], suit))
            used[suit] += 1
            filled.append(13 * suit + rank)
        items = sorted([(index, False) for index in naturals] + [(index, True) for index in filled])
        return Meld(
            MeldKind.GROUP,
            [JOKER if is_joker else CARDS[index] for index, is_joker in items],
            [CARDS[index] for index, _ in items],
        )
    suit = naturals[0] // 13
    held = {index % 13 + 1 for index in naturals}
    best: tuple[tuple[int, int], tuple[int, ...]] | None = None
    for start, window in zip(rules.run_starts(size), _run_windows(size, rules), strict=True):
        if not held <= set(window):
            continue
        is_natural = [rank in held for rank in window]
        if not _run_reading_ok(is_natural, window, rules):
            continue
        key = (is_natural.index(True), start)
        if best is None or key < best[0]:
            best = (key, window)
    if best is None:  # pragma: no cover - only legal shapes get here
        msg = f"internal error: no reading of {naturals} with {jokers} jokers"
        raise AssertionError(msg)
    stands = [CARDS[13 * suit + rank - 1] for rank in best[1]]
    cards = [card if card.index % 13 + 1 in held else JOKER for card in stands]
    return Meld(MeldKind.RUN, cards, stands)


# ------------------------------------------------------------------------------------------
# Reading a hand.


def meld_order(meld: Meld) -> tuple[int, int, int]:
    """Sort key of the melds of a result: groups by rank, then runs by suit and lowest card."""
    lowest = min(card.index for card in meld.cards)
    if meld.kind is MeldKind.GROUP:
        return (0, lowest % 13, lowest // 13)
    return (1, lowest, 0)


#: What a solver returns: the melds (groups by rank, then runs by suit and lowest card), the
#: deadwood (by card index, jokers last), its points, and the discard.
Result = tuple[tuple[Meld, ...], tuple[Card, ...], int, Card | None]


# ------------------------------------------------------------------------------------------
# The general solver.


class _GeneralTables(NamedTuple):
    """Where to find the shapes a hand holds, for one rule set and joker count."""

    shapes: tuple[Shape, ...]
    #: ``runs[ranks]``: the run patterns (shapes of one suit: runs, and one card with jokers)
    #: whose ranks (bit ``rank - 1``) all lie in the 13-bit mask ``ranks``, by pattern number.
    runs: tuple[tuple[int, ...], ...]
    #: ``run_shapes[suit][pattern]``: the shape number of a run pattern in a suit.
    run_shapes: tuple[tuple[int, ...], ...]
    #: ``groups[rank - 1][suits]``: the shapes of two or more suits of one rank whose suits all
    #: lie in the 4-bit mask ``suits``.
    groups: tuple[tuple[tuple[int, ...], ...], ...]
    #: Shapes holding two copies of a card (groups, when suits may repeat): checked one by one.
    repeated: tuple[int, ...]
    #: Each shape's natural cards as a bit set over card indexes.
    bits: tuple[int, ...]


#: Slot of each natural card: rank-major, so that the cards of a group are neighbours and a run
#: reaches only a few ranks ahead.
SLOT_OF: Final = tuple(4 * (index % 13) + index // 13 for index in range(JOKER_INDEX))


@functools.lru_cache(maxsize=64)
def _general_tables(rules: MeldRules, joker_count: int) -> _GeneralTables:
    table = shapes(rules, joker_count)
    # Run patterns are the same in every suit (the suits are symmetric): number them once.
    patterns: list[list[int]] = [[], [], [], []]
    run_shapes: list[list[int]] = [[], [], [], []]
    by_rank: list[list[tuple[int, int]]] = [[] for _ in range(13)]
    repeated: list[int] = []
    for number, shape in enumerate(table):
        naturals = shape.naturals
        suits = {index // 13 for index in naturals}
        if shape.copies > 1:
            repeated.append(number)
        elif len(suits) == 1:
            suit = naturals[0] // 13
            patterns[suit].append(sum(1 << (index % 13) for index in naturals))
            run_shapes[suit].append(number)
        else:
            by_rank[naturals[0] % 13].append((sum(1 << suit for suit in suits), number))
    if any(suit_patterns != patterns[0] for suit_patterns in patterns):  # pragma: no cover
        msg = "internal error: run patterns differ between suits"
        raise AssertionError(msg)
    by_top: list[list[tuple[int, int]]] = [[] for _ in range(13)]
    for pattern_number, ranks in enumerate(patterns[0]):
        by_top[ranks.bit_length() - 1].append((ranks, pattern_number))
    runs: list[tuple[int, ...]] = [()]
    for mask in range(1, 1 << 13):
        top = mask.bit_length() - 1
        extra = tuple(number for ranks, number in by_top[top] if ranks & mask == ranks)
        runs.append(runs[mask ^ (1 << top)] + extra if extra else runs[mask ^ (1 << top)])
    groups = tuple(
        tuple(
            tuple(number for suits, number in by_rank[rank] if suits & present == suits)
            for present in range(16)
        )
        for rank in range(13)
    )
    bits = tuple(sum(1 << index for index in set(shape.naturals)) for shape in table)
    return _GeneralTables(
        table,
        tuple(runs),
        tuple(tuple(numbers) for numbers in run_shapes),
        groups,
        tuple(repeated),
        bits,
    )


#: Per shape: natural card indexes, fewest jokers, spare room for more, weight (naturals and
#: fewest jokers), weight of the naturals, natural cards as a bit set.
ShapeInfo = tuple[tuple[int, ...], int, int, int, int, int]


# 256: an Indian table meets 14 wild-rank point tables (13 ranks, none) x 5 joker counts.
@functools.lru_cache(maxsize=256)
def _shape_info(
    rules: MeldRules, joker_count: int, points: CardPoints
) -> tuple[tuple[ShapeInfo, ...], tuple[int, ...]]:
    """What the general search needs of each shape, and the weight of each card index."""
    card_weight = tuple(value * BIG + 1 for value in points.values)
    joker = card_weight[JOKER_INDEX]
    tables = _general_tables(rules, joker_count)
    info = []
    for shape, bits in zip(tables.shapes, tables.bits, strict=True):
        natural = sum(card_weight[index] for index in shape.naturals)
        info.append(
            (
                shape.naturals,
                shape.low,
                shape.high - shape.low,
                natural + shape.low * joker,
                natural,
                bits,
            )
        )
    return tuple(info), card_weight


#: The tables of the last few (rules, joker count, points), by identity (see _RECENT_SIMPLE).
_RECENT_GENERAL: dict[
    tuple[int, int, int],
    tuple[MeldRules, CardPoints, _GeneralTables, tuple[ShapeInfo, ...], tuple[int, ...]],
] = {}


def general_tables(
    rules: MeldRules, joker_count: int, points: CardPoints
) -> tuple[_GeneralTables, tuple[ShapeInfo, ...], tuple[int, ...]]:
    key = (id(rules), joker_count, id(points))
    entry = _RECENT_GENERAL.get(key)
    if entry is not None and entry[0] is rules and entry[1] is points:
        return entry[2], entry[3], entry[4]
    if joker_count <= BATCH_JOKERS:  # the first hand with jokers builds 0 to 4 jokers' tables
        for count in range(BATCH_JOKERS + 1):
            _shape_info(rules, count, points)
    tables = _general_tables(rules, joker_count)
    info, card_weight = _shape_info(rules, joker_count, points)
    if len(_RECENT_GENERAL) >= 16:
        _RECENT_GENERAL.clear()
    _RECENT_GENERAL[key] = (rules, points, tables, info, card_weight)
    return tables, info, card_weight


def _candidates(counts: dict[int, int], tables: _GeneralTables) -> list[int]:
    """The numbers of the shapes that the hand holds, ascending."""
    suit_ranks = [0, 0, 0, 0]
    for index in counts:
        suit_ranks[index // 13] |= 1 << (index % 13)
    m0, m1, m2, m3 = suit_ranks
    runs = tables.runs
    run_shapes = tables.run_shapes
    found: list[int] = []
    for suit, mask in enumerate(suit_ranks):
        if mask:
            numbers = run_shapes[suit]
            found.extend([numbers[pattern] for pattern in runs[mask]])
    # Ranks held in two suits or more.
    seen = m0 | m1
    many = m0 & m1 | seen & m2
    many |= (seen | m2) & m3
    groups = tables.groups
    while many:
        low = many & -many
        rank = low.bit_length() - 1
        suits = (m0 >> rank & 1) | (m1 >> rank & 1) << 1 | (m2 >> rank & 1) << 2
        found.extend(groups[rank][suits | (m3 >> rank & 1) << 3])
        many ^= low
    if tables.repeated:
        naturals = [shape.naturals for shape in tables.shapes]
        found.extend(
            number
            for number in tables.repeated
            if all(
                counts.get(index, 0) >= naturals[number].count(index) for index in naturals[number]
            )
        )
    found.sort()
    return found


Option = tuple[int, int, int, int, int, int, int]

#: Sort key of options: their weight.
_WEIGHT_OF: Final = operator.itemgetter(3)
_FIRST: Final = operator.itemgetter(0)
#: The top bit of every field of a count vector, for each field width.
_GUARDS: Final = tuple(
    sum(1 << (width * slot + width - 1) for slot in range(64)) if width else 0 for width in range(9)
)


def _lowest_bit(bits: int) -> int:
    return bits & -bits


def solve_general(
    counts: dict[int, int],
    joker_count: int,
    rules: MeldRules,
    points: CardPoints,
    allowed: set[int] | None,
) -> Result:
    """Exact search over the count vector (any hand, any rules); see :func:`solve_above`."""
    result = solve_above(counts, joker_count, rules, points, allowed, NEG)
    if result is None:  # pragma: no cover - the caller checked that a discard exists
        msg = "internal error: no card may be discarded"
        raise AssertionError(msg)
    return result


def solve_above(  # noqa: PLR0912, PLR0915, PLR0917  (one search, kept in one frame for speed)
    counts: dict[int, int],
    joker_count: int,
    rules: MeldRules,
    points: CardPoints,
    allowed: set[int] | None,
    floor: int,
) -> Result | None:
    """Exact search over the count vector (any hand, any rules), if it beats ``floor``.

    ``counts`` maps natural card indexes to copies. ``allowed`` is ``None`` without a discard,
    else the card indexes that may be discarded (52 for the joker), at least one of them held.
    ``floor`` is a weight taken out of the deadwood (melded and discarded, see ``BIG``): the
    best arrangement is returned only if it takes out more, else ``None``; the search cuts
    off what cannot, so a high floor makes it quick. ``NEG``: no floor.

    The natural cards that some meld could use get **positions**: component by component
    (cards linked by a common candidate meld), rank-major inside a component. The search takes
    the lowest position first, so it finishes one component before it starts the next and the
    memo never mixes their states; only the jokers and the pending discard link them.
    """
    tables, info, card_weight = general_tables(rules, joker_count, points)
    table = tables.shapes
    values = points.values
    joker_weight = card_weight[JOKER_INDEX]
    found = _candidates(counts, tables)

    # Components: merge the candidates' card sets that overlap.
    components: list[int] = []
    solid_bits = 0
    for number in found:
        merged = info[number][5]
        if not info[number][1]:
            solid_bits |= merged
        kept = []
        for component in components:
            if component & merged:
                merged |= component
            else:
                kept.append(component)
        kept.append(merged)
        components = kept
    order: list[int] = []  # card indexes by position
    if len(components) > 1:
        components.sort(key=_lowest_bit)
    for component in components:
        members = []
        left = component
        while left:
            low = left & -left
            members.append(low.bit_length() - 1)
            left ^= low
        members.sort(key=SLOT_OF.__getitem__)
        order.extend(members)
    position = {index: number for number, index in enumerate(order)}
    most = max((counts[index] for index in order), default=1)
    width = 2 if most == 1 else most.bit_length() + 1
    guards = _GUARDS[width] & (1 << (width * len(order))) - 1
    weight_at = [card_weight[index] for index in order]

    # Options per lowest position, heaviest first so that good arrangements come early and
    # bound the rest of the search. "Solid" cards are those that a meld without jokers can
    # use: once the jokers are spent, only they can still leave the deadwood. ``per_joker``
    # is the most weight one joker can bring out of the deadwood: itself, and its share of the
    # cards that only melds with jokers can use.
    options: list[list[Option]] = [[] for _ in order]
    solid_at = [weight_at[at] if solid_bits >> index & 1 else 0 for at, index in enumerate(order)]
    per_joker = joker_weight
    for number in found:
        naturals, low, room, weight, natural, _ = info[number]
        mask = 0
        solid = 0
        lowest = len(order)
        for index in naturals:
            at = position[index]
            mask += 1 << (width * at)
            solid += solid_at[at]
            lowest = at if at < lowest else lowest
        options[lowest].append((mask, low, room, weight, natural, solid, number))
        if low:
            share = -((solid - natural) // low) + joker_weight
            per_joker = share if share > per_joker else per_joker
    for choices in options:
        if len(choices) > 1:
            choices.sort(key=_WEIGHT_OF, reverse=True)  # stable: shape order among equals

    # The discard. Setting a card aside before arranging the rest is the same as arranging the
    # whole hand and then taking the heaviest allowed card out of the deadwood (a card set
    # aside is deadwood of the whole hand, and a deadwood card taken out leaves an arrangement
    # of the rest). So the search carries ``heaviest``, the weight of the heaviest allowed
    # card in the deadwood so far (0: none yet), instead of branching on the discard.
    discard_at = [0] * len(order)  # the weight of each position's card if it may be discarded
    joker_discard = False
    heaviest_free = 0  # the heaviest allowed card in no candidate meld
    loose = 0  # the heaviest allowed card that no meld without jokers can use
    if allowed is not None:
        for index in allowed:
            weight = card_weight[index]
            if index == JOKER_INDEX:
                joker_discard = True
            elif index in position:
                discard_at[position[index]] = weight
                if not solid_bits >> index & 1:
                    loose = weight if weight > loose else loose
            else:
                heaviest_free = weight if weight > heaviest_free else heaviest_free
    loose = heaviest_free if heaviest_free > loose else loose
    start = 0
    start_total = 0
    start_solid = 0
    for at, index in enumerate(order):
        start += counts[index] << (width * at)
        start_total += counts[index] * weight_at[at]
        start_solid += counts[index] * solid_at[at]

    # Memo keys: the cards left, then the jokers, the spare room and the heaviest discard.
    heavy_numbers = {weight: number for number, weight in enumerate(sorted({0, *discard_at}))}
    heavy_numbers[heaviest_free] = heavy_numbers.get(heaviest_free, len(heavy_numbers))
    heavy_count = len(heavy_numbers)
    scale = (joker_count + 1) * (joker_count + 1) * heavy_count
    #: Exact values of states, and upper bounds of states whose search was cut off.
    exact: dict[int, int] = {}
    upper: dict[int, int] = {}
    #: The choice made in each exactly known state: (position, option number or -1 for
    #: deadwood; position -1 for none).
    choice: dict[int, tuple[int, int]] = {}
    discarding = allowed is not None
    allowed_set = allowed if allowed is not None else set()

    def leaf(jokers: int, spare: int, heaviest: int) -> int:
        if not discarding:
            return spare * joker_weight
        best = heaviest + spare * joker_weight if heaviest else NEG
        if joker_discard and jokers:
            value = joker_weight * (1 + (jokers - 1 if jokers - 1 < spare else spare))
            best = value if value > best else best
        return best

    def search(  # noqa: PLR0912, PLR0915, PLR0917  (the search loop, unrolled for speed)
        rest: int, total: int, solid: int, jokers: int, spare: int, heaviest: int, floor: int
    ) -> int:
        """The best weight removable from ``rest`` and the jokers (and the discard).

        ``total`` is the weight of the cards in ``rest``, ``solid`` that of its solid ones.
        Exact when above ``floor``; otherwise an upper bound, no more than ``floor`` (the
        caller has something at least as good already).
        """
        key = rest * scale + (jokers * (joker_count + 1) + spare) * heavy_count
        key += heavy_numbers[heaviest]
        known = exact.get(key)
        if known is not None:
            return known
        # Nothing beats removing every card that can still go, plus the heaviest discard.
        ceiling = solid + (loose if loose > heaviest else heaviest)
        if jokers:
            ceiling += jokers * per_joker
            most = total + jokers * joker_weight + heaviest
            ceiling = most if most < ceiling else ceiling
        if ceiling <= floor:
            return ceiling
        known = upper.get(key)
        if known is not None and known <= floor:
            return known
        best = NEG
        at = -1
        pick = -1
        while rest:  # cards that can only be deadwood are passed over without a new state
            at = ((rest & -rest).bit_length() - 1) // width
            unit = 1 << (width * at)
            moved = False
            for number, (mask, low, room, weight, natural, firm, _) in enumerate(options[at]):
                if low <= jokers and ((rest | guards) - mask) & guards == guards:
                    moved = True
                    after = spare + room
                    left = jokers - low
                    value = weight + search(
                        rest - mask,
                        total - natural,
                        solid - firm,
                        left,
                        left if after > left else after,
                        heaviest,
                        (best if best > floor else floor) - weight,
                    )
                    if value > best:
                        best = value
                        pick = number
                        if value == ceiling:
                            break
            here = weight_at[at]
            firm = solid_at[at]
            heavier = discard_at[at]
            heavier = heavier if heavier > heaviest else heaviest
            if moved:
                if best != ceiling:
                    value = search(
                        rest - unit,
                        total - here,
                        solid - firm,
                        jokers,
                        spare,
                        heavier,
                        best if best > floor else floor,
                    )
                    if value > best:
                        best = value
                        pick = -1
                break
            rest -= unit
            total -= here
            solid -= firm
            heaviest = heavier
            ceiling = solid + (loose if loose > heaviest else heaviest)
            if jokers:
                ceiling += jokers * per_joker
                most = total + jokers * joker_weight + heaviest
                ceiling = most if most < ceiling else ceiling
            if ceiling <= floor:
                upper[key] = ceiling
                return ceiling
        else:
            best = leaf(jokers, spare, heaviest)
            at = -1
            exact[key] = best
            choice[key] = (at, pick)
            return best
        if best > floor:
            exact[key] = best
            choice[key] = (at, pick)
        else:
            upper[key] = best
        return best

    goal = search(start, start_total, start_solid, joker_count, 0, heaviest_free, floor)
    if goal <= floor or goal <= NEG // 2:
        return None  # nothing above the floor (or no card may be discarded)

    # Follow the recorded choices.
    chosen: list[tuple[int, int]] = []  # (shape number, jokers)
    deadwood = {index: count for index, count in counts.items() if index not in position}
    rest, jokers, spare, heaviest = start, joker_count, 0, heaviest_free
    while True:
        key = rest * scale + (jokers * (joker_count + 1) + spare) * heavy_count
        at, pick = choice[key + heavy_numbers[heaviest]]
        while rest:
            lowest = ((rest & -rest).bit_length() - 1) // width
            if lowest == at:
                break
            deadwood[order[lowest]] = deadwood.get(order[lowest], 0) + 1
            heaviest = max(heaviest, discard_at[lowest])
            rest -= 1 << (width * lowest)
        if at < 0:
            break
        if pick >= 0:
            mask, low, room, _, _, _, number = options[at][pick]
            chosen.append((number, low))
            rest -= mask
            jokers -= low
            spare = min(jokers, spare + room)
        else:
            deadwood[order[at]] = deadwood.get(order[at], 0) + 1
            heaviest = max(heaviest, discard_at[at])
            rest -= 1 << (width * at)
    # The leaf: the discard, then the spare room for the jokers left.
    extra = spare
    thrown: int | None = None
    if discarding:
        goal = leaf(jokers, spare, heaviest)
        if heaviest and heaviest + spare * joker_weight == goal:
            thrown = min(
                index
                for index in deadwood
                if deadwood[index] and card_weight[index] == heaviest and index in allowed_set
            )
            deadwood[thrown] -= 1
        else:
            thrown = JOKER_INDEX
            jokers -= 1
            extra = min(jokers, spare)
    left = jokers - extra
    placed: list[tuple[tuple[int, int, int], Meld]] = []
    for number, low in chosen:
        shape = table[number]
        add = min(extra, shape.high - low)
        extra -= add
        placed.append((shape.order, shape.melds[low + add - shape.low]))
    placed.sort(key=_FIRST)
    melds = [meld for _, meld in placed]
    dead_cards: list[Card] = []
    dead_points = 0
    for index in sorted(deadwood):
        count = deadwood[index]
        dead_cards.extend([CARDS[index]] * count)
        dead_points += values[index] * count
    if left:
        dead_cards.extend([JOKER] * left)
        dead_points += values[JOKER_INDEX] * left
    thrown_card = None if thrown is None else CARDS[thrown]
    return tuple(melds), tuple(dead_cards), dead_points, thrown_card


# ------------------------------------------------------------------------------------------
# The simple solver: no jokers, no duplicate cards.


class _SimpleRules(NamedTuple):
    """The points-independent tables of :func:`solve_simple` for one rule set."""

    #: Run patterns (13-bit rank masks, bit ``rank - 1``) by their lowest rank bit.
    runs_by_low: tuple[tuple[int, ...], ...]
    #: ``run_melds[suit][pattern]``.
    run_melds: tuple[dict[int, Meld], ...]
    #: For each 4-bit set of suits at one rank: the ways to meld groups from it, as
    #: (suits used, the groups' suit sets); the empty way first.
    group_ways: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]
    #: ``group_melds[rank - 1][suits]``.
    group_melds: tuple[dict[int, Meld], ...]
    #: The fewest cards in a group (5 when groups are impossible).
    group_min: int


@functools.lru_cache(maxsize=64)
def _simple_rules(rules: MeldRules) -> _SimpleRules:
    runs_by_low: list[list[int]] = [[] for _ in range(13)]
    run_melds: tuple[dict[int, Meld], ...] = ({}, {}, {}, {})
    group_melds: tuple[dict[int, Meld], ...] = tuple({} for _ in range(13))
    group_min = 5
    for shape in shapes(rules, 0):
        if shape.copies > 1:
            continue  # a group with two copies of a card: never in a hand of distinct cards
        naturals = shape.naturals
        meld = shape.melds[0]
        suits = {index // 13 for index in naturals}
        if len(suits) == 1 and len(naturals) > 1 and len({i % 13 for i in naturals}) > 1:
            suit = naturals[0] // 13
            pattern = sum(1 << (index % 13) for index in naturals)
            if suit == 0:
                runs_by_low[(pattern & -pattern).bit_length() - 1].append(pattern)
            run_melds[suit][pattern] = meld
        else:
            rank = naturals[0] % 13
            group_melds[rank][sum(1 << (index // 13) for index in naturals)] = meld
            group_min = min(group_min, len(naturals))
    # The group shapes are the same at every rank: combine them into ways per set of suits.
    sizes = sorted(group_melds[0], key=lambda suits: (suits & -suits, suits))
    ways: list[tuple[tuple[int, tuple[int, ...]], ...]] = []
    for present in range(16):
        found: dict[int, tuple[int, ...]] = {0: ()}
        frontier: list[tuple[int, tuple[int, ...]]] = [(0, ())]
        while frontier:
            used, groups = frontier.pop(0)
            for group_suits in sizes:
                if group_suits & used or group_suits & present != group_suits:
                    continue
                if groups and (group_suits & -group_suits) < (groups[-1] & -groups[-1]):
                    continue  # one order per set of groups
                key = used | group_suits
                if key not in found:
                    found[key] = (*groups, group_suits)
                    frontier.append((key, found[key]))
        ways.append(tuple(found.items()))
    return _SimpleRules(
        tuple(tuple(patterns) for patterns in runs_by_low),
        run_melds,
        tuple(ways),
        group_melds,
        group_min,
    )


class _SimpleTables(NamedTuple):
    """The tables of :func:`solve_simple` for one rule set and one points table.

    Masks are 13-bit rank masks of one suit (bit ``rank - 1``); "best runs" means the disjoint
    runs of greatest weight within the mask, and the ``*_discard`` tables the same with one
    card of the mask set aside as the discard as well.
    """

    #: The fewest cards in a group (5: groups are impossible).
    group_min: int
    #: Weight of the best runs.
    best: tuple[int, ...]
    #: ``melds[suit][mask]``: the best runs as melds.
    melds: tuple[tuple[tuple[Meld, ...], ...], ...]
    #: ``deadwood[suit][mask]``: the cards the best runs leave.
    deadwood: tuple[tuple[tuple[Card, ...], ...], ...]
    #: Their points.
    deadwood_points: tuple[int, ...]
    #: How much better the best runs plus a discard are (``NEG`` for an empty mask).
    gain: tuple[int, ...]
    #: The same three tables with the discard.
    melds_discard: tuple[tuple[tuple[Meld, ...], ...], ...]
    deadwood_discard: tuple[tuple[tuple[Card, ...], ...], ...]
    deadwood_points_discard: tuple[int, ...]
    #: ``discarded[suit][mask]``: the discarded card.
    discarded: tuple[tuple[Card | None, ...], ...]
    #: ``group_ways[rank - 1][suits]``: the ways to form groups at that rank from those suits,
    #: as (rank bit removed from each suit's mask, the melds, their weight); no group first.
    group_ways: tuple[tuple[tuple[tuple[int, int, int, int, tuple[Meld, ...], int], ...], ...], ...]
    #: The ranks that some run within the mask could use.
    run_ranks: tuple[int, ...]
    #: Whether a second copy of a card can only meld where the first could (suits in a group
    #: must differ).
    copies_idle: bool
    #: The four suits' ``melds``, the four suits' ``deadwood`` and ``deadwood_points``, flat.
    runs_only: tuple[
        tuple[tuple[Meld, ...], ...],
        tuple[tuple[Meld, ...], ...],
        tuple[tuple[Meld, ...], ...],
        tuple[tuple[Meld, ...], ...],
        tuple[tuple[Card, ...], ...],
        tuple[tuple[Card, ...], ...],
        tuple[tuple[Card, ...], ...],
        tuple[tuple[Card, ...], ...],
        tuple[int, ...],
    ]


@functools.lru_cache(maxsize=32)
def _simple_tables(  # noqa: PLR0912, PLR0915  (two dynamic programs and their tables)
    rules: MeldRules, points: CardPoints
) -> _SimpleTables:
    base = _simple_rules(rules)
    rank_points = points.values[:13]
    weight = tuple(value * BIG + 1 for value in rank_points)
    size = 1 << 13
    pattern_weight = {
        pattern: sum(weight[rank] for rank in range(13) if pattern >> rank & 1)
        for patterns in base.runs_by_low
        for pattern in patterns
    }
    best = [0] * size
    used = [0] * size
    chosen: list[tuple[int, ...]] = [()] * size
    best_d = [NEG] * size
    used_d = [0] * size
    discarded = [0] * size
    chosen_d: list[tuple[int, ...]] = [()] * size
    totals = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        rank = low.bit_length() - 1
        rest = mask ^ low
        totals[mask] = totals[rest] + rank_points[rank]
        # Without a discard: a run holding the lowest card, else that card is deadwood.
        top, top_used = NEG, 0
        top_chosen: tuple[int, ...] = ()
        for pattern in base.runs_by_low[rank]:
            if pattern & mask == pattern:
                value = pattern_weight[pattern] + best[mask ^ pattern]
                if value > top:
                    top = value
                    top_used = pattern | used[mask ^ pattern]
                    top_chosen = (pattern, *chosen[mask ^ pattern])
        if best[rest] > top:
            top, top_used, top_chosen = best[rest], used[rest], chosen[rest]
        best[mask], used[mask], chosen[mask] = top, top_used, top_chosen
        # With one discard: a run, then discarding the lowest card, then leaving it.
        top, top_used, top_discard = NEG, 0, 0
        top_chosen = ()
        for pattern in base.runs_by_low[rank]:
            if pattern & mask == pattern:
                value = pattern_weight[pattern] + best_d[mask ^ pattern]
                if value > top:
                    rest_d = mask ^ pattern
                    top = value
                    top_used = pattern | used_d[rest_d]
                    top_chosen = (pattern, *chosen_d[rest_d])
                    top_discard = discarded[rest_d]
        value = weight[rank] + best[rest]
        if value > top:
            top, top_used, top_chosen, top_discard = value, used[rest], chosen[rest], low
        if best_d[rest] > top:
            top, top_used = best_d[rest], used_d[rest]
            top_chosen, top_discard = chosen_d[rest], discarded[rest]
        best_d[mask], used_d[mask], chosen_d[mask] = top, top_used, top_chosen
        discarded[mask] = top_discard
    run_ranks = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        union = run_ranks[mask ^ low]
        for pattern in base.runs_by_low[low.bit_length() - 1]:
            if pattern & mask == pattern:
                union |= pattern
        run_ranks[mask] = union
    cards = _suit_cards()
    run_melds = base.run_melds
    dead = [mask ^ used[mask] for mask in range(size)]
    dead_d = [mask ^ used_d[mask] ^ discarded[mask] for mask in range(size)]
    group_ways = []
    for rank in range(13):
        bit = 1 << rank
        per_suits = []
        for ways in base.group_ways:
            entries = []
            for suits_used, groups in ways:
                removed = [bit if suits_used >> suit & 1 else 0 for suit in range(4)]
                count = suits_used.bit_count()
                entries.append(
                    (
                        removed[0],
                        removed[1],
                        removed[2],
                        removed[3],
                        tuple(base.group_melds[rank][suits] for suits in groups),
                        count * weight[rank],
                    )
                )
            per_suits.append(tuple(entries))
        group_ways.append(tuple(per_suits))
    # One tuple per distinct set of runs (some 1,500 per table, not 8,192 per suit): the
    # tables live as long as the process, and every tuple in them is one more object for each
    # full garbage collection to visit.
    built: dict[tuple[int, tuple[int, ...]], tuple[Meld, ...]] = {}

    def runs_of(suit: int, runs: tuple[int, ...]) -> tuple[Meld, ...]:
        found = built.get((suit, runs))
        if found is None:
            found = built[suit, runs] = tuple(run_melds[suit][pattern] for pattern in runs)
        return found

    melds = tuple(tuple(runs_of(suit, runs) for runs in chosen) for suit in range(4))
    deadwood = tuple(tuple(cards[suit][dead[mask]] for mask in range(size)) for suit in range(4))
    deadwood_points = tuple(totals[dead[mask]] for mask in range(size))
    return _SimpleTables(
        group_min=base.group_min,
        best=tuple(best),
        melds=melds,
        deadwood=deadwood,
        deadwood_points=deadwood_points,
        gain=tuple(best_d[mask] - best[mask] if mask else NEG for mask in range(size)),
        melds_discard=tuple(tuple(runs_of(suit, runs) for runs in chosen_d) for suit in range(4)),
        deadwood_discard=tuple(
            tuple(cards[suit][dead_d[mask]] for mask in range(size)) for suit in range(4)
        ),
        deadwood_points_discard=tuple(totals[dead_d[mask]] for mask in range(size)),
        discarded=tuple(
            tuple(
                CARDS[13 * suit + discarded[mask].bit_length() - 1] if mask else None
                for mask in range(size)
            )
            for suit in range(4)
        ),
        group_ways=tuple(group_ways),
        run_ranks=tuple(run_ranks),
        copies_idle=rules.group_distinct_suits,
        runs_only=(
            melds[0],
            melds[1],
            melds[2],
            melds[3],
            deadwood[0],
            deadwood[1],
            deadwood[2],
            deadwood[3],
            deadwood_points,
        ),
    )


def _suit_cards() -> tuple[tuple[tuple[Card, ...], ...], ...]:
    """``_suit_cards()[suit][mask]``: the cards of a 13-bit rank mask, by rank.

    Not cached: the tables keep only the tuples their deadwood uses (fewer objects for the
    garbage collector to visit as long as the process runs).
    """
    table = []
    for suit in range(4):
        cards: list[tuple[Card, ...]] = [()]
        for mask in range(1, 1 << 13):  # the mask without its top rank, then that rank
            top = mask.bit_length() - 1
            cards.append((*cards[mask ^ (1 << top)], CARDS[13 * suit + top]))
        table.append(tuple(cards))
    return tuple(table)


#: The tables of the last few (rules, points) pairs, by identity: a bounded, pure memo in front
#: of the ``lru_cache`` (which hashes both objects field by field on every call).
_RECENT_SIMPLE: dict[tuple[int, int], tuple[MeldRules, CardPoints, _SimpleTables]] = {}
LAST_SIMPLE: list[tuple[MeldRules, CardPoints, _SimpleTables] | None] = [None]


def simple_tables(rules: MeldRules, points: CardPoints) -> _SimpleTables:
    """The tables of :func:`solve_simple` (cached)."""
    entry = LAST_SIMPLE[0]
    if entry is not None and entry[0] is rules and entry[1] is points:
        return entry[2]
    entry = _RECENT_SIMPLE.get((id(rules), id(points)))
    if entry is None or entry[0] is not rules or entry[1] is not points:
        if len(_RECENT_SIMPLE) >= 8:
            _RECENT_SIMPLE.clear()
        entry = (rules, points, _simple_tables(rules, points))
        _RECENT_SIMPLE[id(rules), id(points)] = entry
    LAST_SIMPLE[0] = entry
    return entry[2]


def _group_ranks(tables: _SimpleTables, m0: int, m1: int, m2: int, m3: int) -> int:
    """The ranks held in at least ``group_min`` suits."""
    group_min = tables.group_min
    if group_min == 3:
        return m0 & m1 & (m2 | m3) | m2 & m3 & (m0 | m1)
    if group_min == 2:
        seen = m0 | m1
        return m0 & m1 | seen & m2 | (seen | m2) & m3
    if group_min == 4:
        return m0 & m1 & m2 & m3
    return 0


def solve_simple_copies(
    present: int,
    extra: tuple[Card, ...],
    tables: _SimpleTables,
    points: CardPoints,
    discard: bool,
) -> Result | None:
    """:func:`solve_simple` for a hand with duplicates, when no duplicated card can meld.

    ``present`` has bit ``card.index`` set for each distinct card; ``extra`` holds the
    further copies. Returns ``None`` (use the general solver) when a duplicated card could
    meld: then its copies might go to different melds.
    """
    if not tables.copies_idle:
        return None
    m0 = present & SUIT_MASK
    m1 = present >> 13 & SUIT_MASK
    m2 = present >> 26 & SUIT_MASK
    m3 = present >> 39
    groups = _group_ranks(tables, m0, m1, m2, m3)
    run_ranks = tables.run_ranks
    meldable = (
        (run_ranks[m0] | groups)
        | (run_ranks[m1] | groups) << 13
        | (run_ranks[m2] | groups) << 26
        | (run_ranks[m3] | groups) << 39
    )
    for card in extra:
        if meldable >> card.index & 1:
            return None
    result = solve_simple(present, tables, discard)
    if result is None:
        return None
    melds, deadwood, total, thrown = result
    values = points.values
    total += sum(values[card.index] for card in extra)
    merged = tuple(sorted(deadwood + extra, key=_INDEX_KEY))
    return melds, merged, total, thrown


@functools.lru_cache(maxsize=64)
def _joker_extensions(rules: MeldRules) -> dict[tuple[int, ...], Meld]:
    """For each meld without jokers that has room for one, that meld with one joker."""
    return {
        shape.naturals: shape.melds[1 - shape.low]
        for shape in shapes(rules, 1)
        if shape.low == 0 and shape.high >= 1
    }


def solve_one_joker(  # noqa: PLR0912, PLR0917  (three cases, each a call of solve_simple)
    present: int,
    rules: MeldRules,
    points: CardPoints,
    tables: _SimpleTables,
    discard: bool,
    joker_discard: bool,
) -> Result | None:
    """Exact arrangement of distinct natural cards and one joker, from the simple solver.

    The joker either completes one meld that needs it (then the rest is a hand without
    jokers), or it goes into a meld that has room for it, or it stays in the deadwood (or is
    the discard). Each case is a call to :func:`solve_simple`; the best wins, ties going to
    the first. Returns ``None`` (use the general solver) when the best melds without the
    joker have no room for it, or :func:`solve_simple` declines.
    """
    joker_points = points.values[JOKER_INDEX]
    base = solve_simple(present, tables, discard)
    if base is None:
        return None
    melds, deadwood, dead_points, thrown = base
    best: Result
    if melds:
        extensions = _joker_extensions(rules)
        for number, meld in enumerate(melds):
            extended = extensions.get(tuple(sorted(card.index for card in meld.cards)))
            if extended is not None:
                best = (
                    (*melds[:number], extended, *melds[number + 1 :]),
                    deadwood,
                    dead_points,
                    thrown,
                )
                break
        else:
            return None  # only full melds: another arrangement might make room
    else:
        best = (melds, (*deadwood, JOKER), dead_points + joker_points, thrown)
        if discard and joker_discard:
            kept = solve_simple(present, tables, False)
            if kept is not None and (kept[2], len(kept[1])) < (best[2], len(best[1])):
                best = (kept[0], kept[1], kept[2], JOKER)
    # The joker completing a meld: every shape that needs exactly one joker. Compare weights
    # taken out of the deadwood, and build the arrangement only for the winner.
    general, info, card_weight = general_tables(rules, 1, points)
    counts = {index: 1 for index in range(JOKER_INDEX) if present >> index & 1}
    hand_weight = sum(card_weight[index] for index in counts) + card_weight[JOKER_INDEX]
    top = hand_weight - (best[2] * BIG + len(best[1]))  # melded and discarded
    winner = -1
    for number in _candidates(counts, general):
        _, low, _, weight, _, bits = info[number]
        if low != 1:
            continue
        rest = simple_value(present & ~bits, tables, discard)
        if rest is None:
            return None
        if rest + weight > top and rest > NEG // 2:
            top = rest + weight
            winner = number
    if winner >= 0:
        rest_result = solve_simple(present & ~info[winner][5], tables, discard)
        if rest_result is None:  # pragma: no cover - simple_value agreed above
            return None
        shape = general.shapes[winner]
        placed = sorted(
            [*((meld_order(meld), meld) for meld in rest_result[0]), (shape.order, shape.melds[0])],
            key=_FIRST,
        )
        best = (tuple(meld for _, meld in placed), rest_result[1], rest_result[2], rest_result[3])
    return best


def _index_key(card: Card) -> int:
    return card.index


_INDEX_KEY: Final = _index_key


#: The most ways to form groups that :func:`solve_simple` tries one by one (a hand of 14 cards
#: has at most 6 * 6 * 6 * 2 = 432).
MOST_GROUP_COMBINATIONS: Final = 512


def _choose_groups(  # noqa: PLR0917  (the four suit masks travel together)
    tables: _SimpleTables,
    group_ranks: int,
    m0: int,
    m1: int,
    m2: int,
    m3: int,
    discard: bool,
) -> tuple[int, tuple[int, int, int, int], tuple[Meld, ...]] | None:
    """Try every way to form groups at ``group_ranks``; runs take the rest, from the tables.

    Returns the best weight, the suit masks left for runs and the groups; ``None`` when there
    are more than ``MOST_GROUP_COMBINATIONS`` ways.
    """
    best = tables.best
    gain = tables.gain
    group_ways = tables.group_ways
    ways_per_rank = []
    combinations = 1
    while group_ranks:
        low = group_ranks & -group_ranks
        rank = low.bit_length() - 1
        suits = (m0 >> rank & 1) | (m1 >> rank & 1) << 1
        suits |= (m2 >> rank & 1) << 2 | (m3 >> rank & 1) << 3
        ways_per_rank.append(group_ways[rank][suits])
        combinations *= len(ways_per_rank[-1])
        group_ranks ^= low
    if combinations > MOST_GROUP_COMBINATIONS:
        return None
    top = NEG
    top_masks = (m0, m1, m2, m3)
    groups: tuple[Meld, ...] = ()
    if len(ways_per_rank) == 1:
        for way in ways_per_rank[0]:
            a0, a1, a2, a3 = m0 ^ way[0], m1 ^ way[1], m2 ^ way[2], m3 ^ way[3]
            value = way[5] + best[a0] + best[a1] + best[a2] + best[a3]
            if discard:
                value += max(gain[a0], gain[a1], gain[a2], gain[a3])
            if value > top:
                top = value
                top_masks = (a0, a1, a2, a3)
                groups = way[4]
        return top, top_masks, groups
    for combination in itertools.product(*ways_per_rank):
        a0, a1, a2, a3 = m0, m1, m2, m3
        value = 0
        for r0, r1, r2, r3, _, weight in combination:
            a0 ^= r0
            a1 ^= r1
            a2 ^= r2
            a3 ^= r3
            value += weight
        value += best[a0] + best[a1] + best[a2] + best[a3]
        if discard:
            value += max(gain[a0], gain[a1], gain[a2], gain[a3])
        if value > top:
            top = value
            top_masks = (a0, a1, a2, a3)
            groups = tuple(meld for way in combination for meld in way[4])
    return top, top_masks, groups


def simple_value(bits: int, tables: _SimpleTables, discard: bool) -> int | None:
    """The weight that :func:`solve_simple` takes out of the deadwood (melds and discard).

    ``NEG`` or less when a discard is asked of no card; ``None`` when it would decline.
    """
    m0 = bits & SUIT_MASK
    m1 = bits >> 13 & SUIT_MASK
    m2 = bits >> 26 & SUIT_MASK
    m3 = bits >> 39
    group_ranks = _group_ranks(tables, m0, m1, m2, m3)
    if group_ranks:
        chosen = _choose_groups(tables, group_ranks, m0, m1, m2, m3, discard)
        return None if chosen is None else chosen[0]
    best = tables.best
    value = best[m0] + best[m1] + best[m2] + best[m3]
    if discard:
        gain = tables.gain
        value += max(gain[m0], gain[m1], gain[m2], gain[m3])
    return value


def solve_simple(bits: int, tables: _SimpleTables, discard: bool) -> Result | None:
    """Exact arrangement of a hand of distinct natural cards (any may be the discard).

    ``bits`` has bit ``card.index`` set for each card. Returns ``None`` (use the general
    solver) for hands that can form groups in too many ways.
    """
    m0 = bits & 0x1FFF
    m1 = bits >> 13 & 0x1FFF
    m2 = bits >> 26 & 0x1FFF
    m3 = bits >> 39
    if tables.group_min == 3:  # the usual rules, inline: ranks held in three suits or more
        group_ranks = m0 & m1 & (m2 | m3) | m2 & m3 & (m0 | m1)
    else:
        group_ranks = _group_ranks(tables, m0, m1, m2, m3)
    groups: tuple[Meld, ...] = ()
    if group_ranks:
        chosen = _choose_groups(tables, group_ranks, m0, m1, m2, m3, discard)
        if chosen is None:
            return None  # a big hand with many groups: the general search copes better
        _, (m0, m1, m2, m3), groups = chosen
    elif not discard:
        # The usual case, unrolled: the best runs of each suit, straight from the tables.
        r0, r1, r2, r3, d0, d1, d2, d3, left = tables.runs_only
        return (
            r0[m0] + r1[m1] + r2[m2] + r3[m3],
            d0[m0] + d1[m1] + d2[m2] + d3[m3],
            left[m0] + left[m1] + left[m2] + left[m3],
            None,
        )
    if discard:
        gain = tables.gain
        gains = (gain[m0], gain[m1], gain[m2], gain[m3])
        suit = gains.index(max(gains))
        masks = [m0, m1, m2, m3]
        mask = masks[suit]
        suit_melds = list(tables.melds)
        suit_deadwood = list(tables.deadwood)
        suit_points = [tables.deadwood_points] * 4
        suit_melds[suit] = tables.melds_discard[suit]
        suit_deadwood[suit] = tables.deadwood_discard[suit]
        suit_points[suit] = tables.deadwood_points_discard
        return (
            groups + suit_melds[0][m0] + suit_melds[1][m1] + suit_melds[2][m2] + suit_melds[3][m3],
            suit_deadwood[0][m0]
            + suit_deadwood[1][m1]
            + suit_deadwood[2][m2]
            + suit_deadwood[3][m3],
            suit_points[0][m0] + suit_points[1][m1] + suit_points[2][m2] + suit_points[3][m3],
            tables.discarded[suit][mask],
        )
    melds_of = tables.melds
    deadwood_of = tables.deadwood
    points_of = tables.deadwood_points
    return (
        groups + melds_of[0][m0] + melds_of[1][m1] + melds_of[2][m2] + melds_of[3][m3],
        deadwood_of[0][m0] + deadwood_of[1][m1] + deadwood_of[2][m2] + deadwood_of[3][m3],
        points_of[m0] + points_of[m1] + points_of[m2] + points_of[m3],
        None,
    )


def clear_tables() -> None:
    """Forget every cached rule table (for benchmarks that time building them)."""
    for cached in (
        shapes,
        _general_tables,
        _shape_info,
        _simple_rules,
        _simple_tables,
        wild_points,
    ):
        cached.cache_clear()
    _run_windows.cache_clear()
    _RECENT_SIMPLE.clear()
    _RECENT_GENERAL.clear()
    LAST_SIMPLE[0] = None
