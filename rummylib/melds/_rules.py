"""Meld rules and melds: what a meld is, reading one, and why a meld is refused."""

from __future__ import annotations

import enum
import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, Final

import attrs

from rummylib import _svg
from rummylib._settings import flag, whole
from rummylib.cards import (
    CARDS,
    JOKER,
    JOKER_INDEX,
    Card,
    Rank,
    Suit,
    format_cards,
    parse_card,
)
from rummylib.errors import ConfigurationError, InvalidMeldError, NotationError, shorten
from rummylib.scoring import CardPoints

_SUITS: Final = tuple(Suit)
_SUIT_ORDER: Final = {suit: number for number, suit in enumerate(_SUITS)}


class AceRule(enum.Enum):
    """Where an ace may stand in a run (rule 0.3 of the rules pages).

    >>> AceRule("low_or_high")
    <AceRule.LOW_OR_HIGH: 'low_or_high'>
    """

    #: A-2-3 only.
    LOW = "low"
    #: Q-K-A only.
    HIGH = "high"
    #: Either end, never in the middle (no K-A-2).
    LOW_OR_HIGH = "low_or_high"
    #: Runs may turn the corner (K-A-2 is a run).
    WRAP = "wrap"


class MeldKind(enum.Enum):
    """The two kinds of meld.

    >>> MeldKind.GROUP.value
    'group'
    """

    #: Cards of one rank ("set", "book").
    GROUP = "group"
    #: Consecutive cards of one suit ("sequence").
    RUN = "run"


class RunEnd(enum.Enum):
    """The two ends of a run, where a card laid off on it may go.

    >>> RunEnd("low")
    <RunEnd.LOW: 'low'>
    """

    #: Below the lowest card.
    LOW = "low"
    #: Above the highest card.
    HIGH = "high"


def _to_ace_rule(value: AceRule | str) -> AceRule:
    try:
        return AceRule(value)
    except ValueError:
        names = ", ".join(rule.value for rule in AceRule)
        msg = f"ace must be one of {names}, not {shorten(value)}"
        raise ConfigurationError(msg) from None


def _optional_run_size(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is not None:
        whole(2)(instance, attribute, value)


def _to_wild_ranks(value: Iterable[Rank | int]) -> frozenset[Rank]:
    """The wild ranks as a frozenset of :class:`~rummylib.cards.Rank` (ints 1–13 are read)."""
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        msg = f"wild_ranks must be ranks such as {{Rank.SEVEN}}, not {shorten(value)}"
        raise ConfigurationError(msg)
    ranks: set[Rank] = set()
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int) or not 1 <= item <= len(Rank):
            msg = f"wild_ranks must hold ranks (Rank.ACE to Rank.KING), not {shorten(item)}"
            raise ConfigurationError(msg)
        ranks.add(Rank(item))
    return frozenset(ranks)


@attrs.frozen(kw_only=True, cache_hash=True)
class MeldRules:
    """What counts as a meld in a variant (rules 0.2–0.5 and Israeli rule 1.13).

    Attributes:
        min_size: the fewest cards in a meld.
        max_group_size: the most cards in a group (at most 4 while suits must differ).
        group_distinct_suits: whether the cards of a group must all have different suits
            (so never two identical cards, even with two packs).
        ace: where an ace may stand in a run; a string value such as ``"low"`` is accepted.
        min_naturals: the fewest natural (non-joker) cards in a meld; at least 1, since a
            meld of jokers alone would stand for nothing in particular.
        joker_beside_ace: whether a joker may sit directly next to a natural ace in a run or
            stand for an ace. ``False`` is the Israeli rule 1.13.
        max_run_size: the most cards in a run; ``None`` means no limit beyond the 13 ranks.
        wild_ranks: the ranks whose natural cards are wild for the deal (Indian rummy, rules
            6.3 and 6.7): each may stand for any card, as a joker does, except where it
            sits in its own natural place, where it stands for itself and is a natural card.
            Any iterable of :class:`~rummylib.cards.Rank` is accepted; empty: no wild cards.

    >>> MeldRules(ace="low").ace
    <AceRule.LOW: 'low'>
    >>> MeldRules(max_group_size=5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: max_group_size 5 is above 4, the number of suits, ...
    >>> sorted(MeldRules(wild_ranks=[Rank.SEVEN, 2]).wild_ranks)
    [<Rank.TWO: 2>, <Rank.SEVEN: 7>]
    >>> MeldRules(wild_ranks="7")
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: wild_ranks must be ranks such as {Rank.SEVEN}, not '7'
    """

    min_size: int = attrs.field(default=3, validator=whole(2))
    max_group_size: int = attrs.field(default=4, validator=whole(2))
    group_distinct_suits: bool = attrs.field(default=True, validator=flag)
    ace: AceRule = attrs.field(default=AceRule.LOW_OR_HIGH, converter=_to_ace_rule)
    min_naturals: int = attrs.field(default=1, validator=whole(1))
    joker_beside_ace: bool = attrs.field(default=True, validator=flag)
    max_run_size: int | None = attrs.field(default=None, validator=_optional_run_size)
    wild_ranks: frozenset[Rank] = attrs.field(default=frozenset(), converter=_to_wild_ranks)

    def __attrs_post_init__(self) -> None:
        if self.max_group_size < self.min_size:
            msg = f"max_group_size {self.max_group_size} is below min_size {self.min_size}"
            raise ConfigurationError(msg)
        if self.group_distinct_suits and self.max_group_size > len(_SUITS):
            msg = (
                f"max_group_size {self.max_group_size} is above 4, the number of suits, "
                "while group_distinct_suits is set"
            )
            raise ConfigurationError(msg)
        if self.max_run_size is not None and self.max_run_size < self.min_size:
            msg = f"max_run_size {self.max_run_size} is below min_size {self.min_size}"
            raise ConfigurationError(msg)

    @property
    def longest_run(self) -> int:
        """The most cards a run may hold, 13 (a run never holds two aces) or ``max_run_size``.

        >>> MeldRules().longest_run, MeldRules(max_run_size=5).longest_run
        (13, 5)
        """
        return 13 if self.max_run_size is None else min(13, self.max_run_size)

    def run_starts(self, size: int) -> range:
        """The start positions a run of ``size`` cards may have.

        Positions number the ranks upward: 1 is a low ace, 2…13 are two to king, 14 is a high
        ace, and with :attr:`AceRule.WRAP` positions go on round the corner (15 is a two).

        >>> list(MeldRules(ace="low").run_starts(12)), list(MeldRules().run_starts(12))
        ([1, 2], [1, 2, 3])
        """
        if self.ace is AceRule.LOW:
            return range(1, 15 - size)
        if self.ace is AceRule.HIGH:
            return range(2, 16 - size)
        if self.ace is AceRule.LOW_OR_HIGH:
            return range(1, 16 - size)
        return range(1, 14)


def rank_at(position: int) -> Rank:
    """The rank at a run position (1 = low ace, 14 = high ace, 15 = a two past the corner).

    >>> rank_at(1), rank_at(14), rank_at(15)
    (<Rank.ACE: 1>, <Rank.ACE: 1>, <Rank.TWO: 2>)
    """
    return _RANKS[(position - 1) % 13]


_RANKS: Final = tuple(Rank)
_RANK_LETTERS: Final = "A23456789TJQK"
#: The canonical natural cards, by object id (cards are one object each, see Card.__new__).
_NATURAL_IDS: Final = frozenset(id(card) for card in CARDS[:JOKER_INDEX])
#: Every canonical card, the joker included, by object id.
_CARD_IDS: Final = frozenset(id(card) for card in CARDS)


@functools.lru_cache(maxsize=64)
def wild_cards(rules: MeldRules) -> tuple[Card, ...]:
    """The natural cards of the wild ranks of ``rules``, in card order (cached).

    >>> format_cards(wild_cards(MeldRules(wild_ranks={Rank.SEVEN})))
    '7c 7d 7h 7s'
    """
    return tuple(card for card in CARDS[:JOKER_INDEX] if card.rank in rules.wild_ranks)


@functools.lru_cache(maxsize=64)
def wild_bits(rules: MeldRules) -> int:
    """Bit ``card.index`` set for each natural card of a wild rank of ``rules`` (cached).

    >>> (
    ...     wild_bits(MeldRules()),
    ...     wild_bits(MeldRules(wild_ranks={Rank.ACE}))
    ...     == sum(1 << index for index in (0, 13, 26, 39)),
    ... )
    (0, True)
    """
    return sum(card.bit for card in wild_cards(rules))


@functools.lru_cache(maxsize=64)
def without_wild(rules: MeldRules) -> MeldRules:
    """``rules`` without wild ranks (the same object when it has none; cached).

    >>> without_wild(MeldRules(wild_ranks={Rank.SEVEN})) == MeldRules()
    True
    """
    if not rules.wild_ranks:
        return rules
    return attrs.evolve(rules, wild_ranks=frozenset())


def _not_wild(card: Card, stands: Card, rules: MeldRules) -> str:
    """Why the natural ``card`` may not stand for another card ``stands`` under ``rules``."""
    reason = f"{card} cannot stand for {stands}"
    if rules.wild_ranks:
        letters = ", ".join(_RANK_LETTERS[rank - 1] for rank in sorted(rules.wild_ranks))
        plural = "rank is" if len(rules.wild_ranks) == 1 else "ranks are"
        reason += f" (only a joker or a wild card may; the wild {plural} {letters})"
    return reason


def _card(rank: int, suit: Suit) -> Card:
    return CARDS[13 * _SUIT_ORDER[suit] + rank - 1]


def _stands_for_list(stands: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(stands)


def _cards_list(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(cards)


@attrs.frozen(repr=False, cache_hash=True)
class Meld:
    """A meld with one reading: what each of its cards, jokers included, stands for.

    Build one with :meth:`from_cards` (finds a legal reading) or :func:`parse_meld` (reads
    declared jokers such as ``*=3h``); :meth:`check` tests a reading against rules.

    A card that stands for another card is a **substitute**: a printed joker, or a natural
    card of a wild rank (:attr:`MeldRules.wild_ranks`), written ``7d=5s``. Building a meld
    only checks that every position holds a card standing for a natural card; whether a
    natural card may stand for another (only a wild one may) is a question of the rules,
    which :meth:`check` answers.

    Attributes:
        kind: group or run.
        cards: the cards in reading order (groups by suit, runs from low to high), jokers and
            wild cards in place.
        stands_for: for each position, the natural card it represents (the card itself,
            unless a substitute sits there).

    >>> meld = parse_meld("Ah 2h *=3h 4h", MeldRules())
    >>> meld.kind, format_cards(meld.cards), format_cards(meld.stands_for)
    (<MeldKind.RUN: 'run'>, 'Ah 2h * 4h', 'Ah 2h 3h 4h')
    >>> wild = parse_meld("5s 6s 7d=7s", MeldRules(wild_ranks={Rank.SEVEN}))
    >>> format_cards(wild.cards), format_cards(wild.stands_for), wild.is_pure
    ('5s 6s 7d', '5s 6s 7s', False)
    """

    kind: MeldKind
    cards: tuple[Card, ...] = attrs.field(converter=_cards_list)
    stands_for: tuple[Card, ...] = attrs.field(converter=_stands_for_list)

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.kind, MeldKind):
            msg = f"bad meld kind {shorten(self.kind)}: use MeldKind.GROUP or MeldKind.RUN"
            raise InvalidMeldError(msg)
        if len(self.cards) != len(self.stands_for):
            msg = (
                f"bad meld: {len(self.cards)} cards but {len(self.stands_for)} cards they stand for"
            )
            raise InvalidMeldError(msg)
        for card, stands in zip(self.cards, self.stands_for, strict=True):
            if id(stands) in _NATURAL_IDS and (card is stands or id(card) in _CARD_IDS):
                continue  # a natural card as itself, or a joker or a wild card standing in
            if not isinstance(card, Card) or not isinstance(stands, Card):
                shown = f"{shorten(card)} standing for {shorten(stands)}"
                msg = f"bad meld: {shown} is not a pair of cards"
                raise InvalidMeldError(msg)
            if stands.is_joker:
                msg = f"bad meld: {card} cannot stand for {stands}"
                raise InvalidMeldError(msg)

    @classmethod
    def from_cards(
        cls, cards: Iterable[Card], rules: MeldRules, *, kind: MeldKind | None = None
    ) -> Meld:
        """Find a legal reading of the cards, in whatever order they come.

        When both a group and a run reading exist (one natural card and jokers), the group is
        chosen unless ``kind`` asks for a run. Among run readings, jokers go as high as they
        can: first into gaps, then above the highest natural card, then below.

        Wild cards (:attr:`MeldRules.wild_ranks`) stand for themselves wherever they can: the
        reading keeps as many of them natural as a legal reading allows (fewer wild cards
        standing in, the first ones in card order kept natural on a tie), and only the rest
        stand in as jokers. Those take the places a joker would, in reading order, before
        any printed joker.

        >>> from rummylib import parse_cards
        >>> print(Meld.from_cards(parse_cards("9h * 7h"), MeldRules()))
        7h *=8h 9h
        >>> print(Meld.from_cards(parse_cards("7h * *"), MeldRules(), kind=MeldKind.RUN))
        7h *=8h *=9h
        >>> wild = MeldRules(wild_ranks={Rank.SEVEN})
        >>> print(Meld.from_cards(parse_cards("8h 7h 6h"), wild))
        6h 7h 8h
        >>> print(Meld.from_cards(parse_cards("9c 9d 7h"), wild))
        9c 9d 7h=9h
        >>> Meld.from_cards(parse_cards("3c 4c 6c"), MeldRules())
        Traceback (most recent call last):
        ...
        rummylib.errors.InvalidMeldError: 3c 4c 6c is not a meld: gap at 5c

        Raises:
            InvalidMeldError: no reading is legal; the message gives the reason.
        """
        cards = tuple(cards)
        naturals = [card for card in cards if not _is_joker(card)]
        jokers = len(cards) - len(naturals)
        if rules.wild_ranks:
            wild = [card for card in naturals if card.rank in rules.wild_ranks]
            if wild:
                plain = [card for card in naturals if card.rank not in rules.wild_ranks]
                return _read_wild(plain, wild, [], jokers, rules, kind, cards)[0]
        return _read(naturals, [], jokers, rules, kind, cards)

    def check(self, rules: MeldRules) -> None:
        """Raise unless this reading is legal under ``rules``.

        >>> parse_meld("Qh Kh *=Ah", MeldRules()).check(MeldRules(joker_beside_ace=False))
        Traceback (most recent call last):
        ...
        rummylib.errors.InvalidMeldError: Qh Kh *=Ah is not a meld: joker standing for an ace

        Raises:
            InvalidMeldError: the reading breaks a rule; the message says which.
        """
        message = _check_message(self, rules)
        if message is not None:
            raise InvalidMeldError(message)

    def is_valid(self, rules: MeldRules) -> bool:
        """Whether :meth:`check` passes.

        >>> parse_meld("Ah *=2h 3h", MeldRules()).is_valid(MeldRules(joker_beside_ace=False))
        False
        """
        return _check_message(self, rules) is None

    @property
    def joker_count(self) -> int:
        """How many printed jokers the meld holds (wild cards are not counted).

        >>> parse_meld("7h 7d * *", MeldRules()).joker_count
        2
        """
        return sum(card.is_joker for card in self.cards)

    @property
    def is_pure(self) -> bool:
        """Whether no card stands for another, as in a pure sequence (Indian rule 6.8).

        A printed joker always stands for another card, so a meld that holds one is never
        pure; a wild card in its own natural place stands for itself and keeps it pure.

        >>> rules = MeldRules(wild_ranks={Rank.SEVEN})
        >>> parse_meld("6h 7h 8h", rules).is_pure, parse_meld("6h 7c=7h 8h", rules).is_pure
        (True, False)
        >>> parse_meld("6h *=7h 8h", rules).is_pure
        False
        """
        return all(card is stands for card, stands in zip(self.cards, self.stands_for, strict=True))

    @property
    def rank(self) -> Rank | None:
        """The rank of a group, ``None`` for a run.

        >>> parse_meld("7h 7d 7s", MeldRules()).rank
        <Rank.SEVEN: 7>
        """
        if self.kind is MeldKind.GROUP:
            return self.stands_for[0].rank
        return None

    @property
    def suit(self) -> Suit | None:
        """The suit of a run, ``None`` for a group.

        >>> parse_meld("7h 8h 9h", MeldRules()).suit
        <Suit.HEARTS: 'h'>
        """
        if self.kind is MeldKind.RUN:
            return self.stands_for[0].suit
        return None

    def points(self, points: CardPoints) -> int:
        """The value of the meld's cards, an ace at the low end of a run counted low.

        The low ace counts :attr:`~rummylib.scoring.CardPoints.ace_low_run`.

        >>> turkish = CardPoints(ace=15, joker=15, ace_low_run=1)
        >>> parse_meld("Ah 2h 3h", MeldRules()).points(turkish)
        6
        >>> parse_meld("Qh Kh Ah", MeldRules()).points(turkish)
        35

        A wild card standing for another card counts as a joker (Indian rule 6.5); in its own
        natural place it counts as itself.

        >>> wild = MeldRules(wild_ranks={Rank.TWO})
        >>> parse_meld("2c=7h 8h 9h", wild).points(turkish)
        32
        >>> parse_meld("2h 3h 4h", wild).points(turkish)
        9
        """
        values = points.values
        total = 0
        low_aces = 0
        for card, stands in zip(self.cards, self.stands_for, strict=True):
            if card is stands:
                total += values[card.index]
                low_aces += card.rank == Rank.ACE
            else:
                total += values[JOKER_INDEX]  # a joker, or a wild card standing in as one
        if self.kind is MeldKind.RUN and low_aces:
            ranks = {stands.rank for stands in self.stands_for}
            # The ace is the low end when the run goes on to the two and not round the king.
            if Rank.TWO in ranks and Rank.KING not in ranks:
                total += low_aces * (points.ace_in_low_run - points.ace)
        return total

    def canonical(self) -> Meld:
        """The same meld (same cards, same joker readings) in its canonical order (R10).

        Runs go from their low end to their high end (a full 13-card run from the ace),
        groups by suit (clubs, diamonds, hearts, spades), so two melds of the same cards read
        the same way are equal once canonical, whatever order they were written in.

        >>> print(parse_meld("9h *=8h 7h", MeldRules()).canonical())
        7h *=8h 9h
        >>> print(parse_meld("Ah Kh Qh", MeldRules()).canonical())
        Qh Kh Ah
        >>> print(parse_meld("7s *=7c 7d", MeldRules()).canonical())
        *=7c 7d 7s
        """
        if _is_in_order(self):
            return self
        pairs = list(zip(self.cards, self.stands_for, strict=True))
        # Where two cards stand for one (groups with repeated suits), the natural comes first.
        if self.kind is MeldKind.GROUP:
            pairs.sort(key=lambda pair: (pair[1].index, pair[0] is not pair[1], pair[0].index))
        else:
            position = _run_positions({int(stands.rank or 0) for stands in self.stands_for})
            pairs.sort(key=lambda pair: (position[int(pair[1].rank or 0)], pair[0] is not pair[1]))
        stands_for = tuple(pair[1] for pair in pairs)
        if stands_for == self.stands_for:
            return self
        return Meld(self.kind, [pair[0] for pair in pairs], stands_for)

    def declared_tokens(self) -> tuple[str, ...]:
        """The meld in notation, one token per card, jokers as ``*=card``.

        A wild card standing for another card is written ``7d=5s``; one standing for itself
        is written as itself.

        >>> parse_meld("* 7h 7c", MeldRules()).declared_tokens()
        ('*=7d', '7h', '7c')
        >>> parse_meld("5s 6s 7d=7s 7s=8s", MeldRules(wild_ranks={Rank.SEVEN})).declared_tokens()
        ('5s', '6s', '7d=7s', '7s=8s')
        """
        return tuple(
            str(card) if card is stands else f"{card}={stands}"
            for card, stands in zip(self.cards, self.stands_for, strict=True)
        )

    def __str__(self) -> str:
        return " ".join(self.declared_tokens())

    def __repr__(self) -> str:
        return f"Meld({self.kind.value}: {self})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        # Pretty printers (IPython, Hypothesis's failure reports) would list the fields.
        printer.text(repr(self))

    def _repr_svg_(self) -> str:  # a notebook shows the meld as a picture (rummylib.svg)
        return _svg.meld(self.declared_tokens())


def _is_in_order(meld: Meld) -> bool:
    """Whether :meth:`Meld.canonical` surely leaves ``meld`` as it is (a quick test).

    True when the sort keys of canonical order strictly increase: card indexes for a group,
    ranks for a run whose ace cannot be high (it does not hold both an ace and a king, or it
    holds all 13 ranks).
    """
    previous = -1
    if meld.kind is MeldKind.GROUP:
        for stands in meld.stands_for:
            index = stands.index
            if index <= previous:
                return False
            previous = index
        return True
    count = 0
    for stands in meld.stands_for:
        index = stands.index
        if index == JOKER_INDEX:
            return False
        rank = index % 13
        if rank <= previous:
            return False
        previous = rank
        count += 1
    # Ranks only increase, so a king is last and an ace first: both, short of 13, is Q-K-A.
    return not (count < 13 and previous == 12 and meld.stands_for[0].index % 13 == 0)


def _run_positions(ranks: set[int]) -> dict[int, int]:
    """Where each rank of a run stands, counted from its low end.

    An ace is low beside a two, high beside a king, and low in a full 13-card run; a run that
    turns the corner (K-A-2, under :attr:`AceRule.WRAP`) starts after its missing ranks.
    """
    if Rank.ACE in ranks and Rank.KING in ranks and len(ranks) < 13:
        # Either the ace is high (no two) or the run wraps: start just after the widest gap.
        present = sorted(ranks)
        gaps = [
            ((present[(at + 1) % len(present)] - rank) % 13, at) for at, rank in enumerate(present)
        ]
        _, at = max(gaps)
        start = present[(at + 1) % len(present)]
        return {rank: (rank - start) % 13 for rank in ranks}
    return {rank: rank for rank in ranks}


def _is_joker(card: object) -> bool:
    if not isinstance(card, Card):
        msg = f"bad card {shorten(card)}: expected a Card"
        raise NotationError(msg)
    return card.index == JOKER_INDEX


def _fail(shown: Sequence[Card] | Sequence[str], reason: str) -> InvalidMeldError:
    text = " ".join(str(item) for item in shown)
    return InvalidMeldError(f"{text} is not a meld: {reason}")


def _read(  # noqa: PLR0917  (a private reader with one caller shape)
    naturals: Sequence[Card],
    declared: Sequence[Card],
    free_jokers: int,
    rules: MeldRules,
    kind: MeldKind | None,
    shown: Sequence[Card] | Sequence[str],
) -> Meld:
    """Find the preferred legal reading of naturals + declared jokers + free jokers."""
    reading = _reading(naturals, declared, free_jokers, rules, kind)
    if isinstance(reading, str):
        raise _fail(shown, reading)
    return reading


def _read_wild(  # noqa: PLR0917  (the reader's arguments, and the wild cards)
    plain: Sequence[Card],
    wild: Sequence[Card],
    declared: Sequence[Card],
    free_jokers: int,
    rules: MeldRules,
    kind: MeldKind | None,
    shown: Sequence[Card] | Sequence[str],
) -> tuple[Meld, tuple[Card, ...]]:
    """The preferred reading of ``plain`` naturals, ``wild`` cards and jokers; which stand in.

    Tries the wild cards as naturals, as many as possible first (subsets in card order),
    the others standing in as jokers; the first legal reading wins. The reading is built
    with the physical cards in place: wild cards standing in take the joker places that the
    ``declared`` identities leave, in reading order, before the printed jokers. Returns the
    meld and the wild cards that stand in (in card order).
    """
    ordered = sorted(wild, key=_card_index)
    count = len(ordered)
    tried: set[tuple[int, ...]] = set()
    for size in range(count, -1, -1):
        for chosen in itertools.combinations(range(count), size):
            key = tuple(ordered[at].index for at in chosen)
            if key in tried:
                continue  # two copies of a wild card: the same choice again
            tried.add(key)
            naturals = [*plain, *(ordered[at] for at in chosen)]
            standing = tuple(card for at, card in enumerate(ordered) if at not in chosen)
            jokers = free_jokers + len(standing)
            reading = _reading(naturals, declared, jokers, rules, kind, explain=False)
            if isinstance(reading, Meld):
                return _stand_in(reading, standing, declared), standing
    # The reading with every wild card standing in is the most permissive, unless it fails
    # for want of natural cards: then the cards as they are say more.
    reason = _reading(plain, declared, free_jokers + count, rules, kind)
    if isinstance(reason, str) and reason.startswith("not enough natural cards"):
        reason = _reading([*plain, *ordered], declared, free_jokers, rules, kind)
    assert isinstance(reason, str)  # both readings were tried above
    raise _fail(shown, reason)


def _stand_in(reading: Meld, standing: Sequence[Card], declared: Sequence[Card]) -> Meld:
    """``reading`` with the wild cards ``standing`` in its first free joker places."""
    if not standing:
        return reading
    declared_left = Counter(declared)
    given = iter(standing)
    cards = list(reading.cards)
    for at, (card, stands) in enumerate(zip(reading.cards, reading.stands_for, strict=True)):
        if card is stands:
            continue
        if declared_left[stands]:
            declared_left[stands] -= 1
            continue
        wild = next(given, None)
        if wild is None:
            break
        cards[at] = wild
    return Meld(reading.kind, cards, reading.stands_for)


def _card_index(card: Card) -> int:
    return card.index


def _reading(  # noqa: PLR0911, PLR0917  (each refusal returns its reason)
    naturals: Sequence[Card],
    declared: Sequence[Card],
    free_jokers: int,
    rules: MeldRules,
    kind: MeldKind | None,
    explain: bool = True,
) -> Meld | str:
    """The preferred legal reading of naturals + declared jokers + free jokers, or why none is.

    ``naturals`` and ``declared`` (what declared jokers stand for) are natural cards. Without
    ``explain`` a refusal may say less (for callers that only ask whether there is a reading).
    """
    size = len(naturals) + len(declared) + free_jokers
    if size < rules.min_size:
        return f"too few cards ({size}, at least {rules.min_size})"
    if len(naturals) < rules.min_naturals:
        return f"not enough natural cards ({len(naturals)}, at least {rules.min_naturals})"
    fixed = [card.index for card in (*naturals, *declared)]
    single_rank = len({index % 13 for index in fixed}) == 1
    single_suit = len({index // 13 for index in fixed}) == 1
    reasons: list[str] = []
    if single_rank and kind is not MeldKind.RUN:
        group = _read_group(naturals, declared, free_jokers, rules)
        if isinstance(group, Meld):
            return group
        reasons.append(group)
    if single_suit and kind is not MeldKind.GROUP:
        run = _read_run(naturals, declared, free_jokers, rules, explain=explain)
        if isinstance(run, Meld):
            return run
        reasons.append(run)
    if reasons:
        return reasons[0]
    if kind is MeldKind.GROUP:
        return "a group needs cards of one rank"
    if kind is MeldKind.RUN:
        return "a run needs cards of one suit"
    return "mixed suits and ranks: a group needs one rank, a run one suit"


def _refusal(meld: Meld, rules: MeldRules) -> str | None:
    """Why the reading ``meld`` breaks ``rules`` (the reason of :meth:`Meld.check`), or ``None``."""
    naturals: list[Card] = []
    declared: list[Card] = []
    for card, stands in zip(meld.cards, meld.stands_for, strict=True):
        if card is stands:
            naturals.append(card)
        else:
            if card.index != JOKER_INDEX and card.rank not in rules.wild_ranks:
                return _not_wild(card, stands, rules)
            declared.append(stands)  # a joker, or a wild card standing in as one
    reading = _reading(naturals, declared, 0, rules, meld.kind)
    if isinstance(reading, str):
        return reading
    # Every card is placed (no free joker), so the reading stands for the meld's own cards.
    if sorted(map(id, reading.stands_for)) != sorted(map(id, meld.stands_for)):  # pragma: no cover
        return "its jokers cannot stand for those cards"
    return None


@functools.lru_cache(maxsize=1 << 14)
def _check_message(meld: Meld, rules: MeldRules) -> str | None:
    """The message :meth:`Meld.check` raises for ``meld`` under ``rules``; ``None``: legal.

    Cached (bounded, by value): the engine checks the same melds again and again.
    """
    reason = _refusal(meld, rules)
    return None if reason is None else f"{meld} is not a meld: {reason}"


def _group_order(item: tuple[Card, Card]) -> tuple[int, bool]:
    return item[1].index, item[0].index == JOKER_INDEX


def _read_group(
    naturals: Sequence[Card], declared: Sequence[Card], free_jokers: int, rules: MeldRules
) -> Meld | str:
    size = len(naturals) + len(declared) + free_jokers
    if size > rules.max_group_size:
        return f"group too large ({size} cards, at most {rules.max_group_size})"
    fixed = (*naturals, *declared)
    number = fixed[0].index % 13  # the rank, less one
    counts = [0] * len(_SUITS)
    for card in fixed:
        counts[card.index // 13] += 1
    if rules.group_distinct_suits:
        seen: set[int] = set()
        for card in fixed:
            if card.index in seen:
                return f"duplicate card in a group: {card}"
            seen.add(card.index)
    filled: list[Card] = []
    for _ in range(free_jokers):
        suit = counts.index(min(counts))  # the fewest cards, then the first suit
        counts[suit] += 1
        filled.append(CARDS[13 * suit + number])
    items = [(card, card) for card in naturals]
    items += [(JOKER, stands) for stands in (*declared, *filled)]
    items.sort(key=_group_order)
    return Meld(MeldKind.GROUP, [item[0] for item in items], [item[1] for item in items])


#: One window of run positions: its start, the rank at each position, a bit ``1 << rank`` for
#: each rank, and each rank's offset in the window (indexed by rank).
_Window = tuple[int, tuple[int, ...], int, tuple[int, ...]]


@functools.lru_cache(maxsize=1024)
def _run_windows(rules: MeldRules, size: int) -> tuple[_Window, ...]:
    """The windows of ``size`` positions a run may fill under ``rules``, by start."""
    windows: list[_Window] = []
    for start in rules.run_starts(size):
        ranks = tuple(int(rank_at(position)) for position in range(start, start + size))
        mask = 0
        offsets = [size] * 14
        for offset, rank in enumerate(ranks):
            mask |= 1 << rank
            offsets[rank] = offset
        windows.append((start, ranks, mask, tuple(offsets)))
    return tuple(windows)


def _run_fits(ranks: Sequence[int], size: int, starts: Iterable[int]) -> bool:
    for start in starts:
        window = {int(rank_at(position)) for position in range(start, start + size)}
        if all(rank in window for rank in ranks):
            return True
    return False


def _read_run(  # noqa: PLR0911, PLR0912  (one pass over the windows, with its diagnosis)
    naturals: Sequence[Card],
    declared: Sequence[Card],
    free_jokers: int,
    rules: MeldRules,
    *,
    explain: bool = True,
) -> Meld | str:
    size = len(naturals) + len(declared) + free_jokers
    if size > rules.longest_run:
        return f"run too long ({size} cards, at most {rules.longest_run})"
    first = (naturals or declared)[0]
    base = first.index - first.index % 13  # the suit's first card index
    is_joker_at: dict[int, bool] = {}
    for card, joker in [(card, False) for card in naturals] + [(card, True) for card in declared]:
        rank = card.index % 13 + 1
        if rank in is_joker_at:
            return f"duplicate rank in a run: {card}"
        is_joker_at[rank] = joker
    fixed_mask = natural_mask = 0
    natural_ranks: list[int] = []
    for rank, joker in is_joker_at.items():
        fixed_mask |= 1 << rank
        if not joker:
            natural_mask |= 1 << rank
            natural_ranks.append(rank)
    best: tuple[tuple[int, int], tuple[int, ...]] | None = None
    failure: tuple[tuple[int, int], str] | None = None
    beside_ace = rules.joker_beside_ace
    for start, ranks, mask, offsets in _run_windows(rules, size):
        if fixed_mask & ~mask:
            continue
        key = (min([offsets[rank] for rank in natural_ranks]), start)  # first natural, start
        if not beside_ace:
            reason = _ace_reason(ranks, natural_mask)
            if reason:
                if failure is None or key < failure[0]:
                    failure = (key, reason)
                continue
        if best is None or key < best[0]:
            best = (key, ranks)
    if best is not None:
        stands = [CARDS[base + rank - 1] for rank in best[1]]
        cards = [
            card if natural_mask >> rank & 1 else JOKER
            for card, rank in zip(stands, best[1], strict=True)
        ]
        return Meld(MeldKind.RUN, cards, stands)
    if failure is not None:
        return failure[1]
    if not explain:
        return "no run"  # the caller does not show it: spare the diagnosis below
    fixed = list(is_joker_at)
    if rules.ace is AceRule.LOW and _run_fits(fixed, size, range(2, 16 - size)):
        return "the ace ranks low only (A-2-3), not high"
    if rules.ace is AceRule.HIGH and _run_fits(fixed, size, range(1, 15 - size)):
        return "the ace ranks high only (Q-K-A), not low"
    if rules.ace is not AceRule.WRAP and _run_fits(fixed, size, range(1, 14)):
        return "wraps past the ace"
    return _gap_reason(fixed, _SUITS[base // 13], free_jokers, rules)


def _ace_reason(ranks: Sequence[int], natural_mask: int) -> str:
    """Israeli rule 1.13 for one window: a joker must neither be an ace nor sit beside one."""
    jokers = [not natural_mask >> rank & 1 for rank in ranks]
    for offset, rank in enumerate(ranks):
        if rank != Rank.ACE:
            continue
        if jokers[offset]:
            return "joker standing for an ace"
        neighbours = [jokers[i] for i in (offset - 1, offset + 1) if 0 <= i < len(ranks)]
        if any(neighbours):
            return "joker beside an ace"
    return ""


def _gap_reason(ranks: Sequence[int], suit: Suit, free_jokers: int, rules: MeldRules) -> str:
    """Name the cards missing from the shortest run the rules allow that holds the ranks."""
    wanted = set(ranks)
    for size in range(len(wanted), 14):
        for start in rules.run_starts(size):
            positions = [
                position for position in range(start, start + size) if rank_at(position) in wanted
            ]
            if len(positions) != len(wanted):
                continue
            missing = [
                _card(rank_at(position), suit)
                for position in range(positions[0], positions[-1] + 1)
                if rank_at(position) not in wanted
            ]
            reason = f"gap at {format_cards(missing)}"
            if free_jokers:
                plural = "joker" if free_jokers == 1 else "jokers"
                reason += f" ({len(missing)} missing, {free_jokers} {plural})"
            return reason
    return "no run holds these cards"  # pragma: no cover  (every rank fits in 13 cards)


def is_meld(cards: Iterable[Card], rules: MeldRules) -> bool:
    """Whether the cards, in any order, form a meld under ``rules``.

    >>> from rummylib import parse_cards
    >>> is_meld(parse_cards("Ah * 3h"), MeldRules())
    True
    >>> is_meld(parse_cards("Ah * 3h"), MeldRules(joker_beside_ace=False))
    False
    """
    try:
        Meld.from_cards(cards, rules)
    except InvalidMeldError:
        return False
    return True


def parse_meld(text: str, rules: MeldRules) -> Meld:  # noqa: PLR0912  (a branch per token kind)
    """Read a meld whose jokers may declare what they stand for (``*=3h``).

    Undeclared jokers get the preferred reading of :meth:`Meld.from_cards` that agrees with
    the declared ones. Under rules with wild ranks a wild card may declare a card as well
    (``7d=5s``, or ``7h=7h`` for itself); an undeclared wild card stands for itself where a
    legal reading allows, as in :meth:`Meld.from_cards`.

    >>> print(parse_meld("Ah 2h *=3h 4h", MeldRules(joker_beside_ace=False)))
    Ah 2h *=3h 4h
    >>> print(parse_meld("9c 9d 7h=9s", MeldRules(wild_ranks={Rank.SEVEN})))
    9c 9d 7h=9s
    >>> parse_meld("Ah *=2h 3h", MeldRules(joker_beside_ace=False))
    Traceback (most recent call last):
    ...
    rummylib.errors.InvalidMeldError: Ah *=2h 3h is not a meld: joker beside an ace
    >>> parse_meld("Ah 7h=3h", MeldRules())
    Traceback (most recent call last):
    ...
    rummylib.errors.NotationError: bad meld token '7h=3h': only a joker may declare a card
    >>> parse_meld("Ah 7h=3h", MeldRules(wild_ranks={Rank.TWO}))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rummylib.errors.NotationError: bad meld token '7h=3h': only a joker or a wild card (rank 2) ...

    Raises:
        NotationError: a token is not a card, a declared joker or a declared wild card.
        InvalidMeldError: the cards and declarations do not form a legal meld.
    """
    if not isinstance(text, str):
        msg = f"bad meld {shorten(text)}: expected text such as 'Ah 2h *=3h'"
        raise NotationError(msg)
    tokens = [token for token in text.replace(",", " ").split() if token]
    wild_ranks = rules.wild_ranks
    naturals: list[Card] = []
    declared: list[Card] = []
    free_wild: list[Card] = []
    # Per token: the card as written, and what it stands for (``None``: left to the reading).
    written: list[tuple[Card, Card | None]] = []
    free_jokers = 0
    for token in tokens:
        if "=" in token:
            left, _, right = token.partition("=")
            if not left or not right:
                msg = f"bad meld token {shorten(token)}: write a declared joker as '*=3h'"
                raise NotationError(msg)
            card = parse_card(left)
            if not card.is_joker and card.rank not in wild_ranks:
                raise NotationError(_declaring_refusal(token, wild_ranks))
            stands = parse_card(right)
            if stands.is_joker:
                msg = f"bad meld token {shorten(token)}: a joker must stand for a natural card"
                raise NotationError(msg)
            if stands is card:
                naturals.append(card)  # a wild card declared in its own natural place
            else:
                declared.append(stands)
            written.append((card, stands))
            continue
        card = parse_card(token)
        if card.is_joker:
            free_jokers += 1
            written.append((card, None))
        elif card.rank in wild_ranks:
            free_wild.append(card)
            written.append((card, None))
        else:
            naturals.append(card)
            written.append((card, card))
    if not free_wild:
        reading = _read(naturals, declared, free_jokers, rules, None, tokens)
        return _as_written(reading, written, declared)
    reading, standing = _read_wild(naturals, free_wild, declared, free_jokers, rules, None, tokens)
    standing_left = Counter(standing)
    for at, (card, declared_as) in enumerate(written):
        if declared_as is None and not card.is_joker:
            if standing_left[card]:
                standing_left[card] -= 1
            else:
                written[at] = (card, card)  # an undeclared wild card read as itself
    return _as_written(reading, written, declared)


def _declaring_refusal(token: str, wild_ranks: frozenset[Rank]) -> str:
    """Why the natural card of ``token`` may not declare a card."""
    if not wild_ranks:
        return f"bad meld token {shorten(token)}: only a joker may declare a card"
    letters = ", ".join(_RANK_LETTERS[rank - 1] for rank in sorted(wild_ranks))
    plural = "rank" if len(wild_ranks) == 1 else "ranks"
    return (
        f"bad meld token {shorten(token)}: only a joker or a wild card ({plural} {letters}) "
        "may declare a card"
    )


def _as_written(
    reading: Meld, written: Sequence[tuple[Card, Card | None]], declared: Sequence[Card]
) -> Meld:
    """``reading`` in the order the meld was written (R10), one entry of ``written`` a token.

    ``written`` holds each token's card and what it stands for: itself, a declared identity,
    or ``None`` for a joker (or wild card) left to the reading, which says what those stand
    for.
    """
    declared_left = Counter(declared)
    free_stands: list[Card] = []
    for card, stands in zip(reading.cards, reading.stands_for, strict=True):
        if card is stands:
            continue
        if declared_left[stands]:
            declared_left[stands] -= 1
        else:
            free_stands.append(stands)
    free_order = iter(free_stands)
    cards: list[Card] = []
    stands_for: list[Card] = []
    for card, declared_as in written:
        cards.append(card)
        stands_for.append(declared_as if declared_as is not None else next(free_order))
    return Meld(reading.kind, cards, stands_for)


@functools.lru_cache(maxsize=1 << 14)
def _key_meld(key: tuple[int, ...], rules: MeldRules) -> Meld | None:
    """The meld :meth:`Meld.from_cards` reads from the card indexes ``key``, or ``None``.

    Cached (bounded): the same runs and groups turn up in many hands.
    """
    try:
        return Meld.from_cards([CARDS[index] for index in key], rules)
    except InvalidMeldError:
        return None  # a run candidate whose only readings put a joker beside an ace


def reading_of(cards: Iterable[Card], rules: MeldRules) -> Meld:
    """:meth:`Meld.from_cards` of ``cards``, remembered (bounded) by their multiset.

    For solvers that read the same melds again and again.

    >>> from rummylib import parse_cards
    >>> print(reading_of(parse_cards("9c 9d 7h"), MeldRules(wild_ranks={Rank.SEVEN})))
    9c 9d 7h=9h

    Raises:
        InvalidMeldError: the cards are no meld (as :meth:`Meld.from_cards` says).
    """
    cards = tuple(cards)
    meld = _key_meld(tuple(sorted(card.index for card in cards)), rules)
    return Meld.from_cards(cards, rules) if meld is None else meld
