"""Finding every meld a hand can form (:func:`find_melds`), and their canonical order."""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence

from rummylib.cards import (
    CARDS,
    JOKER_INDEX,
    Card,
    format_cards,
)
from rummylib.melds._rules import (
    _SUITS,
    Meld,
    MeldRules,
    _is_joker,
    _key_meld,
    wild_cards,
    without_wild,
)

#: Melds found in part of a hand, each with its key: its card indexes, jokers last.
_Found = tuple[tuple[tuple[int, ...], Meld], ...]


@functools.lru_cache(maxsize=64)
def _run_spans(rules: MeldRules) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """Every window a run may fill, by size then start.

    Each is its size, a bit ``1 << (rank - 1)`` for each of its ranks, and those ranks less
    one, low to high.
    """
    spans = []
    for size in range(rules.min_size, rules.longest_run + 1):
        for start in rules.run_starts(size):
            numbers = tuple((position - 1) % 13 for position in range(start, start + size))
            bits = 0
            for number in numbers:
                bits |= 1 << number
            spans.append((size, bits, numbers))
    return tuple(spans)


@functools.lru_cache(maxsize=2048)
def _suit_runs(suit: int, present: int, jokers: int, rules: MeldRules) -> _Found:
    """The runs of one suit that a hand holding ``jokers`` jokers can form.

    ``present`` has bit ``rank - 1`` set for each rank of the suit the hand holds. A window
    that lacks more cards than there are jokers is skipped at once. Cached (bounded): a turn
    changes one suit at most.
    """
    keys: set[tuple[int, ...]] = set()
    joker_key = (JOKER_INDEX,)
    base = suit * 13
    least = rules.min_naturals
    largest = present.bit_count() + jokers
    for size, bits, numbers in _run_spans(rules):
        if size > largest:
            break  # the windows come by size: no longer run can be filled
        inside = present & bits
        count = inside.bit_count()
        if size - count > jokers or count < least:
            continue
        indexes = [base + number for number in numbers if inside >> number & 1]
        keys.add((*sorted(indexes), *joker_key * (size - count)))
        room = jokers - (size - count)
        # Jokers left over may stand in for cards held, as long as enough naturals remain.
        for extra in range(1, min(room, count - least) + 1):
            for replaced in itertools.combinations(range(count), extra):
                kept = [index for n, index in enumerate(indexes) if n not in replaced]
                keys.add((*sorted(kept), *joker_key * (size - len(kept))))
    found = [(key, _key_meld(key, rules)) for key in sorted(keys)]
    return tuple((key, meld) for key, meld in found if meld is not None)


@functools.lru_cache(maxsize=2048)
def _rank_groups(number: int, held: tuple[int, ...], jokers: int, rules: MeldRules) -> _Found:
    """The groups of one rank (``number`` is the rank less one) a hand can form.

    ``held`` is, per suit, how many of the card the hand holds, at most as many as a group
    may take; ``jokers`` is how many jokers it holds. Cached (bounded).
    """
    keys: set[tuple[int, ...]] = set()
    for taken in itertools.product(*(range(count + 1) for count in held)):
        naturals = [suit * 13 + number for suit in range(len(_SUITS)) for _ in range(taken[suit])]
        if len(naturals) < rules.min_naturals:
            continue
        for extra in range(jokers + 1):
            if rules.min_size <= len(naturals) + extra <= rules.max_group_size:
                keys.add((*naturals, *(JOKER_INDEX,) * extra))
    found = [(key, _key_meld(key, rules)) for key in sorted(keys)]
    return tuple((key, meld) for key, meld in found if meld is not None)


@functools.lru_cache(maxsize=64)
def _shared(rules: MeldRules) -> MeldRules:
    """The first of the rules equal to ``rules`` seen lately (bounded).

    The caches of one :func:`find_melds` call then meet one object, found by identity,
    instead of comparing equal rules field by field.
    """
    return rules


def find_melds(hand: Iterable[Card], rules: MeldRules) -> tuple[Meld, ...]:
    """Every distinct meld the hand can form.

    Melds are distinct as multisets of cards (two copies of one card are the same card), and
    each comes with the one reading :meth:`Meld.from_cards` prefers. They are sorted by their
    cards' :attr:`~rummylib.cards.Card.index` (jokers last). Wild cards
    (:attr:`MeldRules.wild_ranks`) meld as themselves or stand in as jokers.

    >>> from rummylib import make_deck, parse_cards
    >>> melds = find_melds(parse_cards("7h 8h 9h 7c 7d *"), MeldRules())
    >>> [str(meld) for meld in melds][:4]
    ['7c 7d 7h', '7c 7d 7h *=7s', '7c 7d *=7h', '7c *=7d 7h']
    >>> len(find_melds(make_deck(), MeldRules(ace="low", max_run_size=5)))
    185
    >>> [str(meld) for meld in find_melds(parse_cards("2c 5h 6h"), MeldRules(wild_ranks={2}))]
    ['5h 6h 2c=7h']
    """
    rules = _shared(rules)
    counts = [0] * (JOKER_INDEX + 1)
    present = [0] * len(_SUITS)  # per suit, bit ``rank - 1`` for each rank held
    for card in hand:
        if not isinstance(card, Card):
            _is_joker(card)  # raises
        index = card.index
        counts[index] += 1
        if index != JOKER_INDEX:
            present[index // 13] |= 1 << index % 13
    if rules.wild_ranks:
        wild = {card.index: counts[card.index] for card in wild_cards(rules) if counts[card.index]}
        if wild:
            found = _wild_melds(counts, present, wild, rules)
            return tuple([meld for _, meld in sorted(found.items())])
    found = _melds_of(counts, present, rules)
    return tuple([meld for _, meld in sorted(found.items())])


def _melds_of(
    counts: Sequence[int], present: Sequence[int], rules: MeldRules
) -> dict[tuple[int, ...], Meld]:
    """The melds of a hand held as ``counts`` by card index and ``present`` ranks per suit."""
    jokers = counts[JOKER_INDEX]
    # A part of the hand too small for a meld is skipped: it has none.
    short = rules.min_size - jokers
    found: dict[tuple[int, ...], Meld] = {}
    for suit, ranks in enumerate(present):
        if ranks and ranks.bit_count() >= short:
            found.update(_suit_runs(suit, ranks, jokers, rules))
    clubs, diamonds, hearts, spades = present
    limit = 1 if rules.group_distinct_suits else rules.max_group_size
    ranks = clubs | diamonds | hearts | spades
    while ranks:
        number = (ranks & -ranks).bit_length() - 1  # the lowest rank held, less one
        ranks &= ranks - 1
        held: tuple[int, ...]
        if limit == 1:
            held = (
                clubs >> number & 1,
                diamonds >> number & 1,
                hearts >> number & 1,
                spades >> number & 1,
            )
        else:
            held = tuple(min(counts[suit * 13 + number], limit) for suit in range(len(_SUITS)))
        if sum(held) >= short:
            found.update(_rank_groups(number, held, jokers, rules))
    return found


def _wild_melds(
    counts: Sequence[int], present: Sequence[int], wild: dict[int, int], rules: MeldRules
) -> dict[tuple[int, ...], Meld]:
    """The melds of a hand that holds wild cards (``wild``: their counts by card index).

    A meld of wild cards is a meld without wild ranks in which some of them are natural and
    the others jokers. So the melds are found as if each wild card were both a natural card
    and one more joker; each joker of such a meld is then, in every possible way, a printed
    joker or a wild card the meld does not already hold as a natural. Each distinct multiset
    gets the reading of :meth:`Meld.from_cards` under the wild rules.
    """
    base = _shared(without_wild(rules))
    printed = counts[JOKER_INDEX]
    widened = list(counts)
    widened[JOKER_INDEX] = printed + sum(wild.values())
    wild_indexes = sorted(wild)
    found: dict[tuple[int, ...], Meld] = {}
    for key in _melds_of(widened, present, base):
        naturals = [index for index in key if index != JOKER_INDEX]
        jokers = len(key) - len(naturals)
        held = Counter(naturals)
        pool = [wild[index] - held[index] for index in wild_indexes]
        for picks in _picks(pool, printed, jokers):
            chosen = [
                index
                for index, count in zip(wild_indexes, picks[:-1], strict=True)
                for _ in range(count)
            ]
            physical = (*sorted([*naturals, *chosen]), *(JOKER_INDEX,) * picks[-1])
            if physical in found:
                continue
            meld = _key_meld(physical, rules)
            if meld is None:  # pragma: no cover - each wild card reads as a natural or a joker
                msg = f"internal error: no reading of {format_cards(CARDS[i] for i in physical)}"
                raise AssertionError(msg)
            found[physical] = meld
    return found


def _picks(pool: Sequence[int], printed: int, total: int) -> list[tuple[int, ...]]:
    """Every way to take ``total`` cards: up to ``pool[i]`` of wild card ``i``, then jokers.

    Each way is the count taken of each wild card, and last the printed jokers taken.
    """
    ways: list[tuple[int, ...]] = []

    def take(at: int, left: int, taken: tuple[int, ...]) -> None:
        if at == len(pool):
            if left <= printed:
                ways.append((*taken, left))
            return
        for count in range(min(pool[at], left) + 1):
            take(at + 1, left - count, (*taken, count))

    take(0, total, ())
    return ways


def canonical_melds(melds: Iterable[Meld]) -> tuple[Meld, ...]:
    """Each meld in its canonical order (R10), the melds themselves in the order given.

    What a variant stores when melds reach the table or a declaration: the same play gives
    equal states however its cards were written. The order of the melds is kept: it is the
    player's layout, and lay-offs name table melds by their place.

    >>> from rummylib.cards import format_cards
    >>> from rummylib.melds import parse_meld
    >>> rules = MeldRules()
    >>> [
    ...     str(meld)
    ...     for meld in canonical_melds(
    ...         [parse_meld("9h 7h 8h", rules), parse_meld("Kd * Kc", rules)]
    ...     )
    ... ]
    ['7h 8h 9h', 'Kc Kd *=Kh']
    """
    return tuple(meld.canonical() for meld in melds)
