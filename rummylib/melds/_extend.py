"""Extending a meld: where a card can join it (:func:`extensions`), and as what."""

from __future__ import annotations

import functools

import attrs

from rummylib.cards import (
    CARDS,
    JOKER,
    Card,
    Rank,
)
from rummylib.melds._rules import (
    _SUITS,
    AceRule,
    Meld,
    MeldKind,
    MeldRules,
    RunEnd,
    _card,
    _is_joker,
    _refusal,
    wild_cards,
)


@attrs.frozen
class Extension:
    """One way to add a card to a meld: what it stands for, where it goes, the meld after.

    Attributes:
        stands_for: the natural card the added card stands for (itself, unless a joker).
        end: where a card added to a run goes; ``None`` for a group.
        meld: the extended meld, in canonical order (:meth:`Meld.canonical`).
    """

    stands_for: Card
    end: RunEnd | None
    meld: Meld


def _neighbour(card: Card, step: int, rules: MeldRules) -> Card | None:
    """The card ``step`` (±1) ranks away in the same suit; the ace sits at either end."""
    assert card.rank is not None
    assert card.suit is not None
    rank = int(card.rank) + step
    if rank == 0:  # below the ace
        return _card(Rank.KING, card.suit) if rules.ace is AceRule.WRAP else None
    if rank == 14:  # above the king: the high ace
        return _card(Rank.ACE, card.suit)
    return _card(rank, card.suit)  # above a (high) ace: the two, which only a wrap allows


def extensions(meld: Meld, card: Card, rules: MeldRules) -> tuple[Extension, ...]:
    """Every legal way to add ``card`` to ``meld`` under ``rules`` (laying off).

    A natural card stands for itself; a joker may stand for any card that extends the meld,
    and so may a wild card (:attr:`MeldRules.wild_ranks`), which also extends it as itself
    where it fits. A card goes onto a run at its low or its high end; where both ends take
    the same card (an ace beside a 2…K run), the two ways are listed apart: the ace ranks
    low at one end and high at the other. The order is canonical: a group's new card by
    suit, a run's low end before its high end.

    >>> from rummylib.cards import format_cards, parse_card
    >>> from rummylib.melds import parse_meld
    >>> rules = MeldRules()
    >>> [
    ...     (str(e.stands_for), e.end, str(e.meld))
    ...     for e in extensions(parse_meld("7h 8h 9h", rules), parse_card("*"), rules)
    ... ]
    [('6h', <RunEnd.LOW: 'low'>, '*=6h 7h 8h 9h'), ('Th', <RunEnd.HIGH: 'high'>, '7h 8h 9h *=Th')]
    >>> [
    ...     e.end.value
    ...     for e in extensions(
    ...         parse_meld("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", rules), parse_card("Ah"), rules
    ...     )
    ... ]
    ['low', 'high']
    >>> extensions(parse_meld("7c 7d 7h", rules), parse_card("7h"), rules)
    ()
    >>> wild = MeldRules(wild_ranks={Rank.TWO})
    >>> [str(e.meld) for e in extensions(parse_meld("3h 4h 5h", wild), parse_card("2h"), wild)]
    ['2h 3h 4h 5h', '3h 4h 5h 2h=6h']
    >>> [str(e.meld) for e in extensions(parse_meld("3h 4h 5h", wild), parse_card("2c"), wild)]
    ['2c=2h 3h 4h 5h', '3h 4h 5h 2c=6h']
    """
    _is_joker(card)
    return _extension_table(meld, rules)[1].get(card.index, ())


@functools.lru_cache(maxsize=4096)
def extension_cards(meld: Meld, rules: MeldRules) -> tuple[Card, ...]:
    """The cards that :func:`extensions` finds a way for on ``meld``, in card order.

    For listings that ask every hand card about every table meld: only these cards need
    asking. Cached (bounded, by value).

    >>> from rummylib.cards import format_cards, parse_card
    >>> from rummylib.melds import parse_meld
    >>> rules = MeldRules()
    >>> format_cards(extension_cards(parse_meld("7h 8h 9h", rules), rules))
    '6h Th *'
    >>> format_cards(extension_cards(parse_meld("7c 7d 7h 7s", rules), rules))
    ''
    """
    return _extension_table(meld, rules)[0]


#: The cards with a way onto a meld, in card order, and their ways by card index.
_Extensions = tuple[tuple[Card, ...], dict[int, tuple[Extension, ...]]]


def _listed(found: dict[int, list[Extension]]) -> _Extensions:
    indexes = sorted(found)
    return tuple(CARDS[index] for index in indexes), {i: tuple(found[i]) for i in indexes}


@functools.lru_cache(maxsize=4096)
def _extension_table(meld: Meld, rules: MeldRules) -> _Extensions:
    """:func:`extensions` of ``meld`` for every card at once: the cards, and theirs by index.

    A card not listed has none. Cached (bounded, by value): lay-off listings ask about each
    hand card on each table meld, and table melds stay the same from turn to turn.
    """
    found: dict[int, list[Extension]] = {}
    # The cards that may stand in for another: the joker, and the wild cards.
    substitutes = (JOKER, *wild_cards(rules)) if rules.wild_ranks else (JOKER,)

    def grow(base: Meld, target: Card, end: RunEnd | None) -> None:
        for card in (target, *(other for other in substitutes if other is not target)):
            if end is RunEnd.LOW:
                grown = Meld(base.kind, (card, *base.cards), (target, *base.stands_for))
            else:
                grown = Meld(base.kind, (*base.cards, card), (*base.stands_for, target))
            if _refusal(grown, rules) is None:
                found.setdefault(card.index, []).append(Extension(target, end, grown.canonical()))

    if meld.kind is MeldKind.GROUP:
        if len(meld.cards) >= rules.max_group_size:
            return (), {}
        rank = meld.stands_for[0].rank
        assert rank is not None
        for suit in _SUITS:
            grow(meld, _card(rank, suit), None)
        return _listed(found)
    ordered = meld.canonical()
    for end, step in ((RunEnd.LOW, -1), (RunEnd.HIGH, 1)):
        edge = ordered.stands_for[0 if step < 0 else -1]
        neighbour = _neighbour(edge, step, rules)
        if neighbour is not None:
            grow(ordered, neighbour, end)
    return _listed(found)
