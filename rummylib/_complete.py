"""Fast tests of what a hand can meld: all of it (optionally after one discard), or one card.

This is the engine's hot path in Israeli rummy: every turn, the list of legal actions must
know whether the player can declare. The test is a relaxation of the exact question: it
covers every natural card with disjoint melds (groups and runs, jokers standing in), allowing
one card from ``skippable`` to be set aside, but it does not insist that every joker is used.
So ``False`` is exact ("impossible"), while ``True`` means "possible, or a joker would be
left over" — callers confirm with :func:`rummylib.arrangement.arrange`.

The search always places the lowest remaining natural card (by :attr:`Card.index`), so it
fails fast on the isolated cards that make most hands impossible.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

from rummylib.cards import JOKER, JOKER_INDEX, Card
from rummylib.melds import AceRule, MeldRules, find_melds, is_meld, rank_at

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
    if not rules.group_distinct_suits or rules.min_naturals != 1:
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
    if rules.min_size != 3 or rules.ace is AceRule.WRAP:
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
                    wanted = Card(rank_at(other), card.suit)
                    triple.append(wanted if wanted in present else JOKER)
            if triple.count(JOKER) <= jokers:
                triples.append(triple)
    return triples


def _index(card: Card) -> int:
    return card.index
