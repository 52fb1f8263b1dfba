"""Fast tests of what a hand can meld: all of it (optionally after one discard), or one card.

This is the engine's hot path in Israeli rummy: every turn, the list of legal actions must
know whether the player can declare. The test is a relaxation of the exact question: it
covers every natural card with disjoint melds (groups and runs, jokers standing in), allowing
one card from ``skippable`` to be set aside, but it does not insist that every joker is used.
So ``False`` is exact ("impossible"), while ``True`` means "possible, or a joker would be
left over" — callers confirm with the exact solver.

:func:`may_meld_all` searches: it always places the lowest remaining natural card (by
:attr:`Card.index`), so it fails fast on the isolated cards that make most hands impossible.
:func:`meldable_discards` answers the same question from per-suit tables for the usual rules,
and :func:`may_complete` asks it of a whole hand: it is the first step of
``arrange(..., require=Requirement(complete=True))`` (:mod:`rummylib._require`), where it
rules out most hands in microseconds. The tests hold the tables to the search. Nothing is
built at import: the first call for a rule set builds its tables (a few hundredths of a
second).

Wild ranks (``MeldRules.wild_ranks``, natural cards acting as jokers) are outside what these
tables model. :func:`may_complete` and :func:`completing_discards` still answer for them
through a relaxation (:func:`_relaxed`): a hand without a wild card is a hand under the same
rules without wild ranks, and a hand of at most two wild cards and printed jokers may read its
wild cards as printed jokers (where every meld keeps a natural card and a joker may sit beside
an ace, anything a wild card does a printed joker can). Other hands answer "maybe" (``True``,
or every distinct card), for the exact solver to decide; the other functions here answer
"maybe" or ask the exact search for any hand that holds a wild card.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Final

import attrs

from rummylib.cards import CARDS, JOKER, JOKER_INDEX, Card
from rummylib.melds import AceRule, MeldRules, find_melds, is_meld, wild_bits


def _holds_wild(hand: Iterable[Card], rules: MeldRules) -> bool:
    """Whether ``hand`` holds a wild card of ``rules``: the tables here do not model them."""
    if not rules.wild_ranks:
        return False
    wild = wild_bits(rules)
    return any(card.bit & wild for card in hand)


# A run window through one card: the other cards' indexes by position, the offset of the
# card itself, and the offsets that are ace positions.
_Window = tuple[tuple[int, ...], int, tuple[int, ...]]


@functools.lru_cache(maxsize=16)
def _windows(rules: MeldRules) -> tuple[tuple[_Window, ...], ...]:
    """For each natural card index, every run window that holds it, up to 2·min_size − 1 long.

    Longer runs need not be tried: a longer run splits into pieces of ``min_size`` to
    ``2·min_size − 1`` cards, splitting only removes neighbours (so no joker ends up beside
    an ace), and a piece left with no natural card only leaves jokers over, which the
    relaxation allows.
    """
    table: list[list[_Window]] = [[] for _ in range(JOKER_INDEX)]
    longest = min(rules.longest_run, 2 * rules.min_size - 1)
    for suit in range(4):
        for size in range(rules.min_size, longest + 1):
            for start in rules.run_starts(size):
                ranks = [(position - 1) % 13 for position in range(start, start + size)]
                indexes = tuple(13 * suit + rank for rank in ranks)
                aces = tuple(offset for offset, rank in enumerate(ranks) if rank == 0)
                for offset, index in enumerate(indexes):
                    table[index].append((indexes, offset, aces))
    return tuple(tuple(windows) for windows in table)


@functools.lru_cache(maxsize=16)
def _quick_tables(
    rules: MeldRules,
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[tuple[int, ...], ...]] | None:
    """Per natural card: its position bits, the bits within two places, its 3-card windows.

    Positions are bits 1…14 of a per-suit mask (bit 1 a low ace, bit 14 a high ace). ``None``
    for rules the quick filter does not model (wrapping runs, other meld sizes).
    """
    if rules.ace is AceRule.WRAP or rules.min_size != 3:
        return None
    ace_positions = {AceRule.LOW: (1,), AceRule.HIGH: (14,), AceRule.LOW_OR_HIGH: (1, 14)}[
        rules.ace
    ]
    starts = list(rules.run_starts(3))
    bits: list[int] = []
    near: list[int] = []
    windows: list[tuple[int, ...]] = []
    for index in range(JOKER_INDEX):
        rank = index % 13
        positions = ace_positions if rank == 0 else (rank + 1,)
        bits.append(sum(1 << position for position in positions))
        close = 0
        for position in positions:
            for step in (-2, -1, 1, 2):
                if 1 <= position + step <= 14:
                    close |= 1 << (position + step)
        near.append(close & ~bits[-1])
        windows.append(
            tuple(
                0b111 << start
                for start in starts
                if any(start <= position < start + 3 for position in positions)
            )
        )
    return tuple(bits), tuple(near), tuple(windows)


def _isolated(indexes: Sequence[int], jokers: int, rules: MeldRules) -> list[int] | None:
    """Natural cards no meld of the hand can hold, or ``None`` when this cannot be told fast.

    ``indexes`` are the hand's card indexes (copies repeated). The search stops at the second
    isolated card, which is enough to rule a declaration out.

    With two jokers any card makes a group, so nothing is isolated. Errs towards "connected"
    (a joker beside an ace is not checked), so the result is a subset of the truly isolated.
    """
    tables = _quick_tables(rules)
    if tables is None:
        return None
    if jokers >= 2:
        return []
    bits, near, windows = tables
    suit_masks = [0, 0, 0, 0]
    suits_of_rank = [0] * 13
    present = [index for index in indexes if index != JOKER_INDEX]
    for index in present:
        suit_masks[index // 13] |= bits[index]
        suits_of_rank[index % 13] |= 1 << (index // 13)
    isolated: list[int] = []
    for index in present:
        if len(isolated) > 1:
            break
        if (suits_of_rank[index % 13] & ~(1 << (index // 13))).bit_count() + jokers >= 2:
            continue
        mask = suit_masks[index // 13]
        if jokers:
            if mask & near[index]:
                continue
        elif any(mask & window == window for window in windows[index]):
            continue
        isolated.append(index)
    return isolated


def _needy_count(indexes: Sequence[int], rules: MeldRules) -> int | None:
    """How many natural cards have no meld without jokers among the hand's cards.

    Such a card must be discarded or sit in a meld with a joker. A meld with ``j`` jokers holds
    at most ``2(j + 1)`` of them: three or more naturals of a group, or three consecutive
    naturals of a run, would make a joker-free meld for each of those cards. So ``J`` jokers
    cover at most ``4J`` such cards, a bound that rules out many joker-rich hands at once.
    ``None`` when the rules are outside what :func:`_quick_tables` models.
    """
    tables = _quick_tables(rules)
    if tables is None:
        return None
    bits, _, windows = tables
    suit_masks = [0, 0, 0, 0]
    suits_of_rank = [0] * 13
    present = [index for index in indexes if index != JOKER_INDEX]
    for index in present:
        suit_masks[index // 13] |= bits[index]
        suits_of_rank[index % 13] |= 1 << (index // 13)
    needy = 0
    for index in present:
        if (suits_of_rank[index % 13] & ~(1 << (index // 13))).bit_count() >= 2:
            continue
        mask = suit_masks[index // 13]
        if not any(mask & window == window for window in windows[index]):
            needy += 1
    return needy


#: Ranks (0 = ace) a joker may not take when it may not stand beside an ace: ace, two, king.
_NEAR_ACE: Final = frozenset({0, 1, 12})


def _joker_placement_ok(joker_offsets: Iterable[int], aces: Sequence[int], size: int) -> bool:
    jokers = set(joker_offsets)
    return not any(ace in jokers or ace - 1 in jokers or ace + 1 in jokers for ace in aces)


def may_meld_all(  # noqa: PLR0915  (one search, kept in one place for speed)
    hand: Sequence[Card], rules: MeldRules, skippable: Iterable[Card] = ()
) -> bool:
    """Whether the natural cards can be covered by melds, one ``skippable`` card aside.

    ``False`` is certain; ``True`` may still fail on a joker that has no meld to join.

    >>> from rummylib import MeldRules, parse_cards
    >>> rules = MeldRules(joker_beside_ace=False)
    >>> may_meld_all(parse_cards("Ah 2h 3h 7c 7d 7s Kd"), rules, parse_cards("Kd"))
    True
    >>> may_meld_all(parse_cards("Ah 2h 3h 7c 7d 7s Kd Qc"), rules, parse_cards("Kd Qc"))
    False
    """
    if not rules.group_distinct_suits or rules.min_naturals != 1 or _holds_wild(hand, rules):
        return True  # outside what the fast search models: let the exact search decide
    counts = [0] * (JOKER_INDEX + 1)
    for card in hand:
        counts[card.index] += 1
    jokers = counts[JOKER_INDEX]
    allowed = frozenset(card.index for card in skippable)
    indexes = [card.index for card in hand]
    isolated = _isolated(indexes, jokers, rules)
    if isolated:
        if len(isolated) > 1 or isolated[0] not in allowed:
            return False
        allowed = frozenset(isolated)
    needy = _needy_count(indexes, rules)
    if needy is not None and needy - bool(allowed) > 4 * jokers:
        return False
    windows = _windows(rules)
    beside_ok = rules.joker_beside_ace
    failed: set[tuple[bytes, int, bool]] = set()

    def search(lowest: int, jokers: int, skip: bool) -> bool:  # noqa: PLR0912
        while lowest < JOKER_INDEX and not counts[lowest]:
            lowest += 1
        if lowest == JOKER_INDEX:
            return True
        key = (bytes(counts[lowest:JOKER_INDEX]), jokers, skip)
        if key in failed:
            return False
        card = lowest
        counts[card] -= 1
        try:
            if skip and card in allowed and search(card, jokers, skip=False):
                return True
            # Groups: other suits of the same rank, plus jokers.
            rank = card % 13
            others = [
                13 * suit + rank
                for suit in range(4)
                if 13 * suit + rank != card and counts[13 * suit + rank]
            ]
            for size in range(len(others) + 1):
                # Only as many jokers as the group needs: a spare joker may stay unused.
                used = max(0, rules.min_size - 1 - size)
                if used > jokers or 1 + size + used > rules.max_group_size:
                    continue
                for chosen in itertools.combinations(others, size):
                    for index in chosen:
                        counts[index] -= 1
                    found = search(card, jokers - used, skip)
                    for index in chosen:
                        counts[index] += 1
                    if found:
                        return True
            # Runs through this card.
            for indexes, offset, aces in windows[card]:
                present = []
                absent = []
                for position, index in enumerate(indexes):
                    if position == offset:
                        continue
                    if counts[index]:
                        present.append(position)
                    else:
                        absent.append(position)
                if len(absent) > jokers:
                    continue
                last = len(indexes) - 1
                if len(indexes) > rules.min_size and (0 in absent or last in absent):
                    continue  # a joker at an end is never needed: the shorter run does
                spare = jokers - len(absent)
                # A joker standing in for a natural card that is present only helps when that
                # card is needed where a joker may not go: beside an ace (ace, two, king).
                swappable = (
                    []
                    if beside_ok or not spare
                    else [position for position in present if indexes[position] % 13 in _NEAR_ACE]
                )
                for extra in range(min(spare, len(swappable)) + 1):
                    for replaced in itertools.combinations(swappable, extra):
                        joker_offsets = (*absent, *replaced)
                        if not beside_ok and not _joker_placement_ok(
                            joker_offsets, aces, len(indexes)
                        ):
                            continue
                        naturals = [
                            indexes[position] for position in present if position not in replaced
                        ]
                        for index in naturals:
                            counts[index] -= 1
                        found = search(card, jokers - len(joker_offsets), skip)
                        for index in naturals:
                            counts[index] += 1
                        if found:
                            return True
            failed.add(key)
            return False
        finally:
            counts[card] += 1

    return search(0, jokers, skip=bool(allowed))


def may_meld_card(hand: Sequence[Card], card: Card, rules: MeldRules) -> bool:
    """Whether ``card`` (one of ``hand``) is in some meld of cards from ``hand``; exact.

    With three-card melds and no wrap-around every meld holding a card has a three-card part
    that holds it (a window of a run, three cards of a group), so only those are tried; other
    rules search :func:`~rummylib.melds.find_melds`.

    >>> from rummylib.cards import parse_card, parse_cards
    >>> hand = parse_cards("7h 8h * Kc")
    >>> (
    ...     may_meld_card(hand, parse_card("7h"), MeldRules()),
    ...     may_meld_card(hand, parse_card("Kc"), MeldRules()),
    ... )
    (True, False)
    """
    if rules.min_size != 3 or rules.ace is AceRule.WRAP or _holds_wild(hand, rules):
        return any(card in meld.cards for meld in find_melds(hand, rules))
    return any(is_meld(triple, rules) for triple in _triples_with(hand, card))


def _positions(card: Card) -> tuple[int, ...]:
    """Where a natural card can stand in a run: 1 (low ace) … 13 (king), 14 (high ace)."""
    rank = int(card.rank or 0)
    return (1, 14) if rank == 1 else (rank,)


def _triples_with(hand: Sequence[Card], card: Card) -> list[list[Card]]:
    """Three-card candidate melds holding ``card`` drawn from ``hand`` (which holds it)."""
    others = Counter(hand)
    others[card] -= 1
    jokers = others.pop(JOKER, 0)
    naturals = sorted((other for other, count in others.items() if count > 0), key=_index)
    triples: list[list[Card]] = []
    if card.is_joker:
        if jokers and naturals:
            triples.append([card, JOKER, naturals[0]])
        for offset, first in enumerate(naturals):
            for second in naturals[offset + 1 :]:
                close = first.suit == second.suit and any(
                    abs(a - b) in {1, 2} for a in _positions(first) for b in _positions(second)
                )
                if close or (first.rank == second.rank and first.suit != second.suit):
                    triples.append([card, first, second])
        return triples
    present = set(naturals)
    alike = [other for other in naturals if other.rank == card.rank and other.suit != card.suit]
    if len(alike[:2]) + jokers >= 2:
        triples.append([card, *alike[:2], *[JOKER] * (2 - len(alike[:2]))])
    for position in _positions(card):
        for start in range(max(1, position - 2), min(position, 12) + 1):
            triple = [card]
            for other in range(start, start + 3):
                if other != position:
                    wanted = CARDS[card.index - card.index % 13 + (other - 1) % 13]
                    triple.append(wanted if wanted in present else JOKER)
            if triple.count(JOKER) <= jokers:
                triples.append(triple)
    return triples


def _index(card: Card) -> int:
    return card.index


# ------------------------------------------------------------------------------------------
# The same test by tables, for the usual rules: three-card melds, groups of different suits,
# one natural card a meld at least, no run round the corner.
#
# A hand is two bit sets over card indexes, ``first`` (the natural cards held) and ``second``
# (those held twice), and a count of jokers; a suit is the same pair of 13-bit rank masks
# (bit ``rank - 1``). The question is the one :func:`may_meld_all` answers: do melds cover the
# natural cards (but one, with a free discard) with the jokers there are? A run of six cards
# or more splits into runs of three to five (a piece without a natural card only leaves its
# jokers over, which the question allows), so windows of three to five cards are enough; a
# card alone is a group with two jokers. Three stages, cheapest first: a bound that drops
# the second copies and shares a group's jokers out among its cards (:func:`_coarse`), the
# same bound exact for every suit and with the copies (:func:`_bound`), then every way to
# form groups with the suits' exact costs (:func:`_fits`).

#: The bit of each natural card index.
_BITS: Final = tuple(1 << index for index in range(JOKER_INDEX))
#: 13 bits: the ranks of one suit.
_SUIT: Final = (1 << 13) - 1
#: For each 4-bit set of suits, those suits' aces as card bits (shift left by a rank).
_SPREAD: Final = tuple(
    sum(1 << (13 * suit) for suit in range(4) if mask >> suit & 1) for mask in range(16)
)
#: What a suit's tables depend on: the ace rule's value, ``joker_beside_ace``, the longest
#: window (at most five).
_Key = tuple[str, bool, int]
#: A run window through a card: its ranks (bits), its length, the ranks that must be natural.
_RunWindow = tuple[int, int, int]
#: A way to form groups at one rank: the bits it clears in ``second`` and in ``first``, and
#: the jokers the groups need.
_GroupWay = tuple[int, int, int]
#: Per rank mask of a suit: the fewest jokers covering it, the same with one card free, the
#: fewest half jokers when any card may leave for half a joker, the same with one card free;
#: and the windows through each rank.
_SuitTables = tuple[
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[int, ...],
    tuple[tuple[_RunWindow, ...], ...],
]


def _starts(ace: str, size: int) -> range:
    """:meth:`MeldRules.run_starts <rummylib.melds.MeldRules.run_starts>` without wrapping."""
    if ace == AceRule.LOW.value:
        return range(1, 15 - size)
    if ace == AceRule.HIGH.value:
        return range(2, 16 - size)
    return range(1, 16 - size)


def _run_windows(key: _Key) -> tuple[tuple[_RunWindow, ...], ...]:
    """For each rank, the run windows holding it (positions 1 and 14 are the ace's)."""
    ace, beside, longest = key
    windows = []
    for rank in range(13):
        here = (1, 14) if rank == 0 else (rank + 1,)
        found = []
        for size in range(3, longest + 1):
            for start in _starts(ace, size):
                end = start + size - 1
                if not any(start <= position <= end for position in here):
                    continue
                ranks = required = 0
                for position in range(start, end + 1):
                    ranks |= 1 << (position - 1) % 13
                    if not beside and position in {1, 14}:  # the ace and its neighbours
                        for near in range(max(start, position - 1), min(end, position + 1) + 1):
                            required |= 1 << (near - 1) % 13
                found.append((ranks, size, required))
        windows.append(tuple(found))
    return tuple(windows)


def _with_one_free(costs: Sequence[int]) -> tuple[int, ...]:
    """For each mask, the least cost of the mask or of the mask less one card."""
    free = [0] * len(costs)
    for mask in range(1, len(costs)):
        best = costs[mask]
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            cost = costs[mask ^ low]
            best = cost if cost < best else best
        free[mask] = best
    return tuple(free)


@functools.lru_cache(maxsize=16)
def _suit_tables(key: _Key) -> _SuitTables:
    """The tables of one suit (see :data:`_SuitTables`), built once per key.

    The cover takes the lowest card and tries it alone, then each window through it, every
    window using all the cards of the mask it holds: a window that left one of them to
    another meld could take it back, that meld taking a joker in its place, at no extra cost
    (the place is never beside that meld's ace, which would be the lowest card and so in this
    window).
    """
    windows = _run_windows(key)
    runs = [0] * (1 << 13)
    for mask in range(1, 1 << 13):
        low = mask & -mask
        best = 2 + runs[mask ^ low]
        for ranks, size, required in windows[low.bit_length() - 1]:
            used = mask & ranks
            if used & required == required:
                cost = size - used.bit_count() + runs[mask & ~ranks]
                best = cost if cost < best else best
        runs[mask] = best
    shed = [0] * (1 << 13)
    for mask in range(1, 1 << 13):
        best = 2 * runs[mask]
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            cost = 1 + shed[mask ^ low]
            best = cost if cost < best else best
        shed[mask] = best
    return tuple(runs), _with_one_free(runs), tuple(shed), _with_one_free(shed), windows


@functools.lru_cache(maxsize=1 << 14)
def _suit_cost(key: _Key, first: int, second: int) -> int:
    """The fewest jokers covering a suit that holds ``first``, the ranks ``second`` twice."""
    runs, _, _, _, windows = _suit_tables(key)
    if not second:
        return runs[first]
    low = first & -first
    best = 2 + _suit_cost(key, first & ~(low & ~second), second & ~low)
    for ranks, size, required in windows[low.bit_length() - 1]:
        used = first & ranks
        if used & required == required:
            rest = _suit_cost(key, first & ~(used & ~second), second & ~used)
            best = min(best, size - used.bit_count() + rest)
    return best


@functools.lru_cache(maxsize=1 << 12)
def _suit_cost_free(key: _Key, first: int, second: int) -> int:
    """:func:`_suit_cost` with one card of the suit set aside for free."""
    best = _suit_cost(key, first, second)
    rest = first
    while rest:
        low = rest & -rest
        rest ^= low
        best = min(best, _suit_cost(key, first & ~(low & ~second), second & ~low))
    return best


def _leave(
    mask: int, leaving: int, half: int, runs: Sequence[int], runs_free: Sequence[int]
) -> tuple[int, int]:
    """A suit's share of the bound, in half jokers, without and with a free card.

    Each card of ``leaving`` may go to a group, for half a joker at a ``half`` rank (a group
    of two suits needs one joker) and for nothing elsewhere (three suits need none); the
    suit's runs cover the rest.
    """
    whole = loose = 1 << 30
    part = leaving
    while True:  # every subset of ``leaving``
        rest = mask ^ part
        price = (part & half).bit_count()
        value = 2 * runs[rest] + price
        whole = value if value < whole else whole
        value = 2 * runs_free[rest] + price
        loose = value if value < loose else loose
        if not part:
            return whole, loose
        part = (part - 1) & leaving


@functools.lru_cache(maxsize=1 << 12)
def _suit_bound(key: _Key, packed: int) -> tuple[int, int]:
    """:func:`_leave` for a suit holding cards twice.

    ``packed`` holds four 13-bit masks: the ranks, those held twice, the ranks whose cards
    may leave, and the half ranks among them. One copy or both may leave.
    """
    first, second = packed & _SUIT, packed >> 13 & _SUIT
    leaving, half = packed >> 26 & _SUIT, packed >> 39
    best = loose = 1 << 30
    choices = []
    rest = leaving & second
    while rest:
        low = rest & -rest
        rest ^= low
        choices.append(
            ((0, 0, 0), (low, 0, 1 if half & low else 0), (low, low, 2 if half & low else 0))
        )
    for ways in itertools.product(*choices):
        clear_second = clear_first = price = 0
        for copy, card, cost in ways:
            clear_second |= copy
            clear_first |= card
            price += cost
        twice = second & ~clear_second
        part = leaving & ~second  # the cards held once: leave or stay
        while True:
            held = first & ~clear_first & ~part
            extra = price + (part & half).bit_count()
            whole = 2 * _suit_cost(key, held, twice) + extra
            best = whole if whole < best else best
            free = 2 * _suit_cost_free(key, held, twice) + extra
            loose = free if free < loose else loose
            if not part:
                break
            part = (part - 1) & leaving & ~second
    return best, loose


def _group_cost(taken: Sequence[int], most: int) -> int | None:
    """Fewest jokers for groups holding ``taken[suit]`` cards of each suit, or ``None``.

    Groups of one rank: different suits, two to ``most`` cards each.
    """
    if not any(taken):
        return 0
    lead = next(suit for suit in range(4) if taken[suit])
    others = [suit for suit in range(4) if suit != lead and taken[suit]]
    best: int | None = None
    for size in range(1, min(len(others), most - 1) + 1):
        for chosen in itertools.combinations(others, size):
            rest = list(taken)
            rest[lead] -= 1
            for suit in chosen:
                rest[suit] -= 1
            cost = _group_cost(rest, most)
            if cost is not None and (best is None or cost + max(0, 2 - size) < best):
                best = cost + max(0, 2 - size)
    return best


@functools.lru_cache(maxsize=4)
def _group_ways(most: int) -> tuple[tuple[tuple[_GroupWay, ...], ...], ...]:
    """``_group_ways(most)[rank][held | twice << 4]``: the ways to form groups at a rank.

    From the suits held (``twice``: held twice), groups of at most ``most`` cards; the way
    without a group comes first.
    """
    patterns: list[list[tuple[int, int, int]]] = []  # (copy suits, card suits, jokers)
    for pattern in range(256):
        held, twice = pattern & 15, pattern >> 4
        counts = [(held >> suit & 1) + (twice >> suit & 1) for suit in range(4)]
        ways = []
        if not twice & ~held:
            for taken in itertools.product(*(range(count + 1) for count in counts)):
                cost = _group_cost(taken, most)
                if cost is not None:
                    copy = sum(1 << s for s in range(4) if counts[s] == 2 and taken[s])
                    card = sum(1 << s for s in range(4) if taken[s] and taken[s] == counts[s])
                    ways.append((copy, card, cost))
        patterns.append(ways)
    return tuple(
        tuple(
            tuple((_SPREAD[copy] << rank, _SPREAD[card] << rank, cost) for copy, card, cost in ways)
            for ways in patterns
        )
        for rank in range(13)
    )


#: The tables for one rule set: the suits' key and tables, the group ways, whether the quick
#: bounds apply (runs of five allowed: two overlapping runs then merge into runs), and the
#: suit tables in half jokers for :func:`_coarse`.
_Tables = tuple[
    _Key,
    _SuitTables,
    tuple[tuple[tuple[_GroupWay, ...], ...], ...],
    bool,
    tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]],
]


@functools.lru_cache(maxsize=16)
def _rule_tables(rules: MeldRules) -> _Tables | None:
    """The tables for ``rules``, or ``None`` for rules they do not model."""
    if (
        rules.min_size != 3
        or not rules.group_distinct_suits
        or rules.min_naturals != 1
        or rules.ace is AceRule.WRAP
    ):
        return None
    key = (rules.ace.value, rules.joker_beside_ace, min(5, rules.longest_run))
    suits = _suit_tables(key)
    runs, runs_free, shed, shed_free, _ = suits
    halves = (
        tuple(2 * cost for cost in runs),
        tuple(2 * cost for cost in runs_free),
        shed,
        shed_free,
    )
    return key, suits, _group_ways(rules.max_group_size), rules.longest_run >= 5, halves


def _split(hand: Sequence[Card]) -> tuple[int, int, int] | None:
    """The hand as ``(first, second, jokers)``; ``None`` if it holds a card three times."""
    first = second = jokers = 0
    bits = _BITS
    for card in hand:
        index = card.index
        if index == JOKER_INDEX:
            jokers += 1
            continue
        bit = bits[index]
        if first & bit:
            if second & bit:
                return None
            second |= bit
        else:
            first |= bit
    return first, second, jokers


def _coarse(first: int, jokers: int, tables: _Tables, free: bool) -> bool:
    """Whether a quick lower bound on the jokers needed leaves the hand possible.

    It leaves the second copies out, which cannot cost more: a copy's run, if it had one,
    merges with the run of the other copy into one run that needs no more jokers, and a copy
    in a group simply goes. It shares a group's jokers out among its cards, as
    :func:`_leave` does, exactly for a suit with one or two cards at ranks that other suits
    hold too, and for a suit with more by letting any of its cards leave for half a joker.
    """
    runs, runs_free, shed, shed_free = tables[4]
    m0, m1, m2 = first & _SUIT, first >> 13 & _SUIT, first >> 26 & _SUIT
    m3 = first >> 39
    seen = m0 | m1
    two = m0 & m1 | seen & m2 | (seen | m2) & m3
    three = m0 & m1 & (m2 | m3) | m2 & m3 & (m0 | m1)
    total = gain = 0
    for mask in (m0, m1, m2, m3):
        leaving = mask & two
        whole, loose = runs[mask], runs_free[mask]
        if leaving:
            low = leaving & -leaving
            high = leaving ^ low
            if high & (high - 1):  # three cards or more: any card of the suit may leave
                free_cards = (mask & three).bit_count()
                whole, loose = shed[mask] - free_cards, shed_free[mask] - free_cards
            else:  # one or two cards: each leaves or stays
                price = 0 if low & three else 1
                value = runs[mask ^ low] + price
                whole = value if value < whole else whole
                value = runs_free[mask ^ low] + price
                loose = value if value < loose else loose
                if high:
                    extra = 0 if high & three else 1
                    value = runs[mask ^ high] + extra
                    whole = value if value < whole else whole
                    value = runs_free[mask ^ high] + extra
                    loose = value if value < loose else loose
                    value = runs[mask ^ leaving] + price + extra
                    whole = value if value < whole else whole
                    value = runs_free[mask ^ leaving] + price + extra
                    loose = value if value < loose else loose
        total += whole
        gain = whole - loose if whole - loose > gain else gain
    return (total - gain if free else total) <= 2 * jokers


def _bound(first: int, second: int, jokers: int, tables: _Tables, free: bool) -> bool:
    """Whether a lower bound on the jokers needed leaves the hand possible.

    Each suit is counted apart (:func:`_leave`, :func:`_suit_bound`): a group's jokers are
    shared out among its cards, half a joker each in a group of two suits.
    """
    key, suits, _, _, _ = tables
    runs, runs_free, _, _, _ = suits
    m0, m1, m2 = first & _SUIT, first >> 13 & _SUIT, first >> 26 & _SUIT
    m3 = first >> 39
    seen = m0 | m1
    two = m0 & m1 | seen & m2 | (seen | m2) & m3
    three = m0 & m1 & (m2 | m3) | m2 & m3 & (m0 | m1)
    half = two & ~three
    total = gain = 0
    for shift, mask in ((0, m0), (13, m1), (26, m2), (39, m3)):
        twice = second >> shift & _SUIT
        leaving = mask & two
        if twice:
            packed = mask | twice << 13 | leaving << 26 | (leaving & half) << 39
            whole, loose = _suit_bound(key, packed)
        else:
            whole, loose = _leave(mask, leaving, half, runs, runs_free)
        total += whole
        gain = whole - loose if whole - loose > gain else gain
    return (total - gain if free else total) <= 2 * jokers


def _suits_cost(first: int, second: int, tables: _Tables, free: bool) -> int:
    """The jokers the four suits' runs need (with one card free if ``free``)."""
    key, suits, _, _, _ = tables
    runs, runs_free, _, _, _ = suits
    total = gain = 0
    for shift in (0, 13, 26, 39):
        mask = first >> shift & _SUIT
        twice = second >> shift & _SUIT
        if twice:
            whole = _suit_cost(key, mask, twice)
            loose = _suit_cost_free(key, mask, twice) if free else whole
        else:
            whole, loose = runs[mask], runs_free[mask]
        total += whole
        gain = whole - loose if whole - loose > gain else gain
    return total - gain if free else total


def _fits(first: int, second: int, jokers: int, tables: _Tables, free: bool) -> bool:
    """Whether melds cover the natural cards (but one, if ``free``) with ``jokers`` jokers.

    Exact: every way to form groups at the ranks held in two suits or more, each with the
    suits' runs covering the rest. The bounds rule most hands out before that.
    """
    if (tables[3] and not _coarse(first, jokers, tables, free)) or not _bound(
        first, second, jokers, tables, free
    ):
        return False
    for clear_second, clear_first, cost in _groupings(first, second, tables):
        if cost <= jokers and (
            cost + _suits_cost(first & ~clear_first, second & ~clear_second, tables, free) <= jokers
        ):
            return True
    return False


def _groupings(first: int, second: int, tables: _Tables) -> Iterator[tuple[int, int, int]]:
    """Every way to form groups: the bits it clears in ``second`` and ``first``, its jokers."""
    ways_at = tables[2]
    m0, m1, m2 = first & _SUIT, first >> 13 & _SUIT, first >> 26 & _SUIT
    m3 = first >> 39
    seen = m0 | m1
    ranks = m0 & m1 | seen & m2 | (seen | m2) & m3
    choices = []
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        rank = low.bit_length() - 1
        held = (first >> rank & 1) | (first >> (13 + rank) & 1) << 1
        held |= (first >> (26 + rank) & 1) << 2 | (first >> (39 + rank) & 1) << 3
        twice = (second >> rank & 1) | (second >> (13 + rank) & 1) << 1
        twice |= (second >> (26 + rank) & 1) << 2 | (second >> (39 + rank) & 1) << 3
        choices.append(ways_at[rank][held | twice << 4])
    for ways in itertools.product(*choices):
        clear_second = clear_first = cost = 0
        for copy, card, needed in ways:
            clear_second |= copy
            clear_first |= card
            cost += needed
        yield clear_second, clear_first, cost


def _fitting_bits(  # noqa: PLR0912  (one pass over the groupings, in one frame)
    first: int, second: int, jokers: int, allowed: int, tables: _Tables
) -> int:
    """The ``allowed`` natural cards whose discard leaves a hand that fits, as bits.

    One pass over the ways to form groups, trying each discard in each: with the groups
    chosen, only the discard's own suit changes.
    """
    key, suits, _, _, _ = tables
    runs, runs_free, _, _, _ = suits
    found = 0
    for clear_second, clear_first, cost in _groupings(first, second, tables):
        if cost > jokers:
            continue
        left, twice = first & ~clear_first, second & ~clear_second
        costs = []
        total = cost
        saving = 0
        for shift in (0, 13, 26, 39):
            mask, copies = left >> shift & _SUIT, twice >> shift & _SUIT
            if copies:
                whole = _suit_cost(key, mask, copies)
                loose = _suit_cost_free(key, mask, copies)
            else:
                whole, loose = runs[mask], runs_free[mask]
            costs.append(whole)
            total += whole
            saving = whole - loose if whole - loose > saving else saving
        if total - saving > jokers:
            continue  # not even the best discard helps
        for number, shift in enumerate((0, 13, 26, 39)):
            mask, copies = left >> shift & _SUIT, twice >> shift & _SUIT
            rest = total - costs[number]
            candidates = (allowed & ~found) >> shift & mask
            while candidates:
                low = candidates & -candidates
                candidates ^= low
                if copies & low:
                    after = _suit_cost(key, mask, copies ^ low)
                elif copies:
                    after = _suit_cost(key, mask ^ low, copies)
                else:
                    after = runs[mask ^ low]
                if rest + after <= jokers:
                    found |= low << shift
        if found == allowed:
            break
    return found


#: The tables of the last rule set asked about, checked by identity (a pure memo in front of
#: the ``lru_cache``, like the solver's ``LAST_SIMPLE``).
_LAST_TABLES: list[tuple[MeldRules, _Tables | None] | None] = [None]


def _tables_for(rules: MeldRules) -> _Tables | None:
    last = _LAST_TABLES[0]
    if last is not None and last[0] is rules:
        return last[1]
    tables = _rule_tables(rules)
    _LAST_TABLES[0] = (rules, tables)
    return tables


def meldable_discards(
    hand: Sequence[Card], rules: MeldRules, allowed: Sequence[Card]
) -> list[Card]:
    """The cards of ``allowed`` whose discard leaves a hand that :func:`may_meld_all` passes.

    ``allowed`` holds distinct cards of ``hand``. The answer is the same as asking
    :func:`may_meld_all` of each rest; tables find it for three-card melds, groups of
    different suits and no run round the corner (with no card held three times), and
    :func:`may_meld_all` otherwise. The first call for a rule set builds its tables (a few
    hundredths of a second).

    >>> from rummylib import MeldRules, parse_cards
    >>> hand = parse_cards("Ah 2h 3h 7c 7d 7s Kd *")
    >>> meldable_discards(hand, MeldRules(joker_beside_ace=False), parse_cards("Ah 7c Kd"))
    [Card.parse('Kd')]
    """
    tables = _tables_for(rules)
    split = None if tables is None or _holds_wild(hand, rules) else _split(hand)
    if tables is None or split is None:
        found = []
        if may_meld_all(hand, rules, allowed):
            for card in allowed:
                rest = list(hand)
                rest.remove(card)
                if may_meld_all(rest, rules):
                    found.append(card)
        return found
    first, second, jokers = split
    if not _fits(first, second, jokers, tables, free=True):
        return []
    bits = sum(1 << card.index for card in allowed if card.index != JOKER_INDEX)
    fitting = _fitting_bits(first, second, jokers, bits, tables)
    if JOKER in allowed and _fits(first, second, jokers - 1, tables, free=False):
        fitting |= 1 << JOKER_INDEX
    return [card for card in allowed if fitting >> card.index & 1]


def may_complete(hand: Sequence[Card], rules: MeldRules, discard: bool) -> bool:
    """Whether the hand may meld completely (after one discard, if ``discard``).

    ``False`` is certain: no arrangement of the hand (less any one card, with ``discard``)
    leaves no deadwood. ``True`` may still fail (a joker with no meld to join, or rules the
    tables do not model). The tables answer for the usual rules, :func:`may_meld_all`
    otherwise; rules with wild ranks always pass.

    >>> from rummylib import MeldRules, parse_cards
    >>> rules = MeldRules(joker_beside_ace=False)
    >>> may_complete(parse_cards("Ah 2h 3h 7c 7d 7s Kd"), rules, discard=True)
    True
    >>> may_complete(parse_cards("Ah 2h 3h 7c 7d 7s Kd"), rules, discard=False)
    False
    """
    if rules.wild_ranks:  # natural cards that act as jokers: relaxed, or not modelled
        relaxed = _relaxed(hand, rules)
        if relaxed is None:
            return True
        hand, rules = relaxed
    last = _LAST_TABLES[0]
    tables = last[1] if last is not None and last[0] is rules else _tables_for(rules)
    split = None if tables is None else _split(hand)
    if tables is None or split is None:
        skippable = [card for card in hand if card.index != JOKER_INDEX] if discard else ()
        return may_meld_all(hand, rules, skippable)
    first, second, jokers = split
    if tables[3] and not _coarse(first, jokers, tables, discard):  # most hands end here
        return False
    return _fits_remembered(first, second, jokers, rules, discard)


def clear_remembered() -> None:
    """Forget the hands :func:`may_complete` and :func:`completing_discards` remember."""
    _fits_remembered.cache_clear()
    _fitting_any.cache_clear()


@functools.lru_cache(maxsize=512)
def _fits_remembered(first: int, second: int, jokers: int, rules: MeldRules, free: bool) -> bool:
    """:func:`_fits` for rules the tables model, remembered (bounded, keyed on the hand).

    A hand that passes the quick bound is often asked again at once: a declaration listed
    one discard at a time asks of the same hand once per discard.
    """
    tables = _tables_for(rules)
    assert tables is not None
    return _fits(first, second, jokers, tables, free)


@functools.lru_cache(maxsize=256)
def _fitting_any(first: int, second: int, jokers: int, rules: MeldRules) -> int:
    """The cards (bits, the joker's too) whose discard leaves a hand that fits; remembered."""
    tables = _tables_for(rules)
    assert tables is not None
    fitting = _fitting_bits(first, second, jokers, first, tables)
    if jokers and _fits(first, second, jokers - 1, tables, free=False):
        fitting |= 1 << JOKER_INDEX
    return fitting


def completing_discards(hand: Sequence[Card], rules: MeldRules) -> list[Card]:
    """The distinct cards of ``hand`` whose discard may leave a complete hand, by index.

    The answer of :func:`meldable_discards` (jokers too) for a hand that :func:`may_complete`
    has passed with a discard: the tables skip the whole-hand test it already made, and they
    remember the hand (bounded). Every card with wild ranks, which the relaxation does not
    model.

    >>> from rummylib import MeldRules, parse_cards
    >>> hand = parse_cards("Ah 2h 3h 7c 7d 7s Kd *")
    >>> completing_discards(hand, MeldRules(joker_beside_ace=False))
    [Card.parse('Kd')]
    """
    if getattr(rules, "wild_ranks", None):
        relaxed = _relaxed(hand, rules)
        if relaxed is None:
            return sorted(set(hand), key=_index)
        found = completing_discards(*relaxed)
        if JOKER not in found or relaxed[0] == tuple(hand):
            return found
        # A joker of the relaxed hand stands for each wild card and printed joker.
        wild = {card for card in hand if card.is_joker or card.rank in rules.wild_ranks}
        return sorted({*found, *wild} - ({JOKER} - set(hand)), key=_index)
    tables = _tables_for(rules)
    split = None if tables is None else _split(hand)
    if tables is None or split is None:
        return meldable_discards(hand, rules, sorted(set(hand), key=_index))
    fitting = _fitting_any(*split, rules)
    found = []
    while fitting:
        low = fitting & -fitting
        found.append(CARDS[low.bit_length() - 1])
        fitting ^= low
    return found


#: The most wild cards and printed jokers a hand may hold for :func:`_relaxed` to read its wild
#: cards as printed jokers: with three, a meld of wild cards alone (in their own places, or
#: standing for others) would read as three jokers, which no meld is.
_MOST_RELAXED_JOKERS: Final = 2


def _relaxed(hand: Sequence[Card], rules: MeldRules) -> tuple[tuple[Card, ...], MeldRules] | None:
    """The hand and rules without wild ranks that answer for ``hand`` under ``rules``, or None.

    A hand without a wild card melds exactly as under the same rules without wild ranks. A
    hand with some may read them as printed jokers when that gives up nothing: at most
    :data:`_MOST_RELAXED_JOKERS` wild cards and jokers together (so every meld keeps a natural
    card), ``min_naturals`` 1 and jokers allowed beside an ace. ``None`` otherwise.
    """
    wild_ranks = rules.wild_ranks
    plain = _plain_rules(rules)
    wild = sum(1 for card in hand if card.rank in wild_ranks)
    if not wild:
        return tuple(hand), plain
    jokers = wild + sum(1 for card in hand if card.index == JOKER_INDEX)
    if jokers > _MOST_RELAXED_JOKERS or rules.min_naturals != 1 or not rules.joker_beside_ace:
        return None
    return tuple(JOKER if card.rank in wild_ranks else card for card in hand), plain


@functools.lru_cache(maxsize=64)
def _plain_rules(rules: MeldRules) -> MeldRules:
    """``rules`` without wild ranks (one per rule set, bounded)."""
    return attrs.evolve(rules, wild_ranks=frozenset())
