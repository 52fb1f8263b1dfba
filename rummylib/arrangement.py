"""The best arrangement of a hand: melds, deadwood, and optionally a discard.

:func:`arrange` splits a hand into disjoint melds plus deadwood so that the deadwood is worth as
few points as possible, and among those has as few cards as possible. With ``discard=True`` one
card is set aside first (an Israeli declaration's finishing card, a gin player's discard), chosen
so that the rest arranges best.

>>> from rummylib import CardPoints, MeldRules, arrange, parse_cards
>>> best = arrange(parse_cards("7c 7d 7h 8h 9h Ks"), MeldRules(), CardPoints())
>>> [str(meld) for meld in best.melds], format_cards(best.deadwood), best.deadwood_points
(['7h 8h 9h'], '7c 7d Ks', 24)

The run melds 24 points and the group only 21, so the run wins. With ``require=`` a
:class:`Requirement` (so many runs, so many of them pure, every card melded) gives the best
arrangement that meets it, or ``None``:

>>> print(arrange(best.deadwood, MeldRules(), CardPoints(), require=Requirement(min_runs=1)))
None
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import overload

import attrs

from rummylib import _svg
from rummylib._arrange import (
    CARD_BITS,
    JOKER_BIT,
    LAST_SIMPLE,
    ONE_PACK_LIMIT,
    simple_tables,
    solve_general,
    solve_one_joker,
    solve_simple,
    solve_simple_copies,
)
from rummylib._require import arrange_required
from rummylib._settings import MAX_COUNT, flag, whole
from rummylib.cards import CARDS, JOKER, JOKER_INDEX, Card, format_cards, sort_by_rank
from rummylib.errors import ConfigurationError, NotationError, shorten
from rummylib.melds import Meld, MeldRules
from rummylib.scoring import CardPoints

__all__ = ["Arrangement", "Requirement", "arrange", "format_arrangement"]


@attrs.frozen
class Arrangement:
    """A hand split into melds and deadwood (and a discard set aside, if one was asked for).

    Build one with :func:`arrange`. The fields are plain tuples so that arrangements compare and
    hash as values.

    Attributes:
        melds: the melds, each with the reading of its jokers; ordered by their lowest natural
            card (:attr:`~rummylib.cards.Card.index` order).
        deadwood: the cards left outside melds, by :attr:`~rummylib.cards.Card.index` (jokers
            last).
        deadwood_points: the points of the deadwood (each card at its value in hand).
        discard: the card set aside by ``arrange(..., discard=True)``, else ``None``.

    >>> from rummylib import parse_cards
    >>> best = arrange(parse_cards("Ah 2h 3h 4h Kd"), MeldRules(), CardPoints(), discard=True)
    >>> [str(meld) for meld in best.melds], best.deadwood, best.discard, best.is_complete
    (['Ah 2h 3h 4h'], (), Card.parse('Kd'), True)
    """

    melds: tuple[Meld, ...]
    deadwood: tuple[Card, ...]
    deadwood_points: int
    discard: Card | None = None

    @property
    def is_complete(self) -> bool:
        """Whether every card but the discard is melded, leaving no deadwood card at all.

        Not the same as zero deadwood points, since a joker may be worth 0.

        >>> from rummylib import parse_cards
        >>> arrange(parse_cards("7c 7d 7h *"), MeldRules(), CardPoints()).is_complete
        True
        >>> arrange(parse_cards("7c 7d *"), MeldRules(min_naturals=3), CardPoints()).is_complete
        False
        """
        return not self.deadwood

    @property
    def deadwood_count(self) -> int:
        """How many cards are left outside melds.

        >>> from rummylib import parse_cards
        >>> arrange(parse_cards("7c 7d 7h 2s *"), MeldRules(), CardPoints()).deadwood_count
        1
        """
        return len(self.deadwood)

    def _repr_svg_(self) -> str:  # a notebook shows the arrangement as a picture (rummylib.svg)
        return _svg.arrangement(self)


@attrs.frozen(kw_only=True)
class Requirement:
    """What an arrangement must hold to count: runs, pure runs, every card melded.

    Pass one to :func:`arrange` (``require=``) to get the best arrangement that meets it, or
    ``None`` when no arrangement of the hand does. Each meld counts at its strongest reading:
    cards that can be read as a pure run count as one (so they are a run too), cards that can
    be read as a run count as a run; when runs are asked for, the melds of the answer are shown
    at those readings (without, the answer is exactly the one ``arrange`` gives without a
    requirement, or ``None``).

    Attributes:
        min_runs: the fewest runs among the melds. Indian rule 6.12: a show needs at least
            two sequences (runs), and rule 6.15 counts a loser's hand at its best grouping only
            when it holds two.
        min_pure_runs: the fewest pure runs among them: runs in which no card stands for
            another (``meld.cards == meld.stands_for``: no joker, or only wild cards in their
            own natural place). Indian rules 6.8 and 6.12: at least one sequence must be pure.
            Pure runs count towards ``min_runs`` too; a ``min_pure_runs`` above ``min_runs``
            asks for that many runs, every one pure.
        complete: whether every card (but the discard) must be melded: Israeli rule 1.11
            (declaring Rummy), Turkish rule 3.12 (going out with the dealt hand), Indian rule
            6.12 (a show). Without it the answer is the arrangement with the least deadwood
            among those that meet the other fields.

    >>> from rummylib import parse_cards
    >>> show = Requirement(min_runs=2, min_pure_runs=1, complete=True)  # Indian rule 6.12
    >>> indian = CardPoints(ace=10, face=10, joker=0)
    >>> hand = parse_cards("2h 3h 4h 5s 6s * 9c 9d 9s Jd Qd Kd Ad 7c")
    >>> print(format_arrangement(arrange(hand, MeldRules(), indian, discard=True, require=show)))
    9c 9d 9s | Jd Qd Kd Ad | 2h 3h 4h | 5s 6s *=7s | no deadwood | discard 7c
    >>> groups = parse_cards("2c 2d 2h 5c 5h 5s 7c 7d 7s 9c 9d 9h Kd *")
    >>> arrange(groups, MeldRules(), indian, discard=True).is_complete
    True
    >>> print(arrange(groups, MeldRules(), indian, discard=True, require=show))
    None
    >>> Requirement(min_runs=-1)
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: min_runs must be a whole number from 0 to 1000, not -1
    """

    min_runs: int = attrs.field(default=0, validator=whole(0, maximum=MAX_COUNT))
    min_pure_runs: int = attrs.field(default=0, validator=whole(0, maximum=MAX_COUNT))
    complete: bool = attrs.field(default=False, validator=flag)


def _bad_card(hand: Iterable[object]) -> NotationError:
    for card in hand:
        if not isinstance(card, Card):
            return NotationError(f"bad card {shorten(card)}: expected a Card")
    return NotationError("bad hand: expected an iterable of Card")  # pragma: no cover


@overload
def arrange(
    hand: Iterable[Card],
    rules: MeldRules,
    points: CardPoints,
    *,
    discard: bool = ...,
    can_discard: Callable[[Card], bool] | None = ...,
    require: None = ...,
) -> Arrangement: ...


@overload
def arrange(
    hand: Iterable[Card],
    rules: MeldRules,
    points: CardPoints,
    *,
    discard: bool = ...,
    can_discard: Callable[[Card], bool] | None = ...,
    require: Requirement | None,
) -> Arrangement | None: ...


def arrange(  # noqa: PLR0912, PLR0915  (input checks, then the fast paths, then the general one)
    hand: Iterable[Card],
    rules: MeldRules,
    points: CardPoints,
    *,
    discard: bool = False,
    can_discard: Callable[[Card], bool] | None = None,
    require: Requirement | None = None,
) -> Arrangement | None:
    """Split a hand into melds and deadwood, as well as possible.

    The arrangement minimises the deadwood points, then the number of deadwood cards. Every
    meld is a legal reading under ``rules`` (jokers included), the melds are disjoint, and the
    melds, the deadwood and the discard hold exactly the cards of ``hand``. Deadwood cards count
    at their value in hand (:attr:`CardPoints.values <rummylib.scoring.CardPoints.values>`).

    The answer is exact for any hand: any size, duplicate cards from several packs, any number
    of jokers, every :class:`~rummylib.melds.MeldRules` setting.

    The solver's tables are built on first use, not at import: the first call with a rule
    set and points table takes about 0.1 s longer, and the first with a given number of
    jokers up to 0.1 s more; they are then kept for the process.

    Ties are broken deterministically: the result depends only on the hand as a multiset (not
    on the order of its cards), the rules and the points. Among equally good arrangements the
    solver keeps the first it finds; with a discard, it sets aside one of the heaviest allowed
    cards that the chosen melds leave.

    Args:
        hand: the cards, in any order.
        rules: what counts as a meld.
        points: what each card is worth.
        discard: set one card aside first (not counted in the deadwood), chosen so that the
            remaining cards arrange best; it is returned as :attr:`Arrangement.discard`.
        can_discard: which cards may be the discard (``None``: any card). Israeli rules:
            ``lambda card: not card.is_joker``.
        require: what the arrangement must hold (:class:`Requirement`): the answer is then
            the best arrangement, in the same order, among those that meet it, with the
            discard chosen under it too, and ``None`` when no arrangement meets it (also
            when no card can be the discard). With ``complete`` and a discard, the discard is
            the heaviest allowed card (the lowest among equals) that leaves the rest melded,
            with the arrangement ``arrange`` gives the rest. When it asks for runs, the
            melds are shown at their strongest readings (a pure run, else a run, where the
            cards allow one). Also exact; a complete requirement rules most hands out in
            microseconds, and a 14-card show with runs to find takes about a millisecond.

    Returns:
        The best arrangement; with ``require``, the best that meets it, or ``None``.

    Raises:
        NotationError: an item of ``hand`` is not a :class:`~rummylib.cards.Card`.
        ConfigurationError: ``rules``, ``points`` or ``require`` has the wrong type, or
            (without ``require``) ``discard`` is set but the hand is empty or
            ``can_discard`` allows none of its cards.

    >>> from rummylib import parse_cards
    >>> gin = MeldRules(ace="low")
    >>> best = arrange(parse_cards("As 2s 3s 7c 7d 7h Kd Qh 9c 5d"), gin, CardPoints())
    >>> print(format_arrangement(best))
    7c 7d 7h | As 2s 3s | deadwood 5d 9c Qh Kd (34 points)
    >>> hand = parse_cards("2d 2s As 4c 4d 4h 5c 5d 6c 6d 6h")
    >>> print(format_arrangement(arrange(hand, gin, CardPoints(), discard=True)))
    4c 5c 6c | 4d 5d 6d | deadwood As 2d 2s 4h (9 points) | discard 6h
    >>> israeli = MeldRules(joker_beside_ace=False)
    >>> hand = parse_cards("Ah 2h 3h * 9s 9d 9c Jc Qc Kc 5d 6d 7d 2s")
    >>> best = arrange(
    ...     hand, israeli, CardPoints(), discard=True, can_discard=lambda c: not c.is_joker
    ... )
    >>> best.is_complete, best.discard
    (True, Card.parse('2s'))
    >>> arrange([], gin, CardPoints(), discard=True)
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: cannot discard from an empty hand

    An Indian loser's count (rule 6.15) takes the best grouping with two runs, one pure:

    >>> hand = parse_cards("Kc Kd Ks Qs Js Qc Qd 9h Th Jh 4c 5d 2c")
    >>> indian = CardPoints(ace=10, face=10, joker=0)
    >>> two_runs = Requirement(min_runs=2, min_pure_runs=1)
    >>> print(format_arrangement(arrange(hand, MeldRules(), indian)))
    Qc Qd Qs | Kc Kd Ks | 9h Th Jh | deadwood 2c 4c 5d Js (21 points)
    >>> print(format_arrangement(arrange(hand, MeldRules(), indian, require=two_runs)))
    9h Th Jh | Js Qs Ks | deadwood 2c 4c 5d Qc Qd Kc Kd (51 points)

    The best grouping holds one run only; the two runs leave 51 points.
    """
    if not isinstance(rules, MeldRules):
        msg = f"rules must be a MeldRules, not {shorten(rules)}"
        raise ConfigurationError(msg)
    if not isinstance(points, CardPoints):
        msg = f"points must be a CardPoints, not {shorten(points)}"
        raise ConfigurationError(msg)
    if can_discard is not None and not callable(can_discard):
        msg = f"can_discard must be a function of a card, or None, not {shorten(can_discard)}"
        raise ConfigurationError(msg)
    cards: Sequence[Card] = hand if type(hand) is tuple or type(hand) is list else tuple(hand)
    if require is not None:  # the search of rummylib._require checks the cards as it goes
        if not isinstance(require, Requirement):
            msg = f"require must be a Requirement or None, not {shorten(require)}"
            raise ConfigurationError(msg)
        return arrange_required(cards, rules, points, require, discard, can_discard, _solve)
    total = 0
    bits = CARD_BITS
    try:
        for card in cards:
            total += bits[card.index]
    except (AttributeError, TypeError, IndexError):
        raise _bad_card(cards) from None
    if (
        total < ONE_PACK_LIMIT  # no jokers
        and total.bit_count() == len(cards)  # and no duplicates
        and (
            not discard
            or (can_discard is None and cards)
            or (can_discard is not None and _all_allowed(cards, can_discard))
        )
    ):
        # The fast table-driven solver (most hands of most games).
        last = LAST_SIMPLE[0]
        if last is not None and last[0] is rules and last[1] is points:
            tables = last[2]
        else:
            tables = simple_tables(rules, points)
        result = solve_simple(total, tables, discard)
        if result is not None:
            return Arrangement(*result)
    if discard and not cards:
        msg = "cannot discard from an empty hand"
        raise ConfigurationError(msg)
    naturals = total - JOKER_BIT
    if (
        0 <= naturals < ONE_PACK_LIMIT  # exactly one joker
        and naturals.bit_count() == len(cards) - 1  # and distinct natural cards
        and (
            not discard
            or (can_discard is None and len(cards) > 1)
            or (can_discard is not None and _all_natural_allowed(cards, can_discard))
        )
    ):
        joker_discard = discard and (can_discard is None or bool(can_discard(JOKER)))
        tables = simple_tables(rules, points)
        result = solve_one_joker(naturals, rules, points, tables, discard, joker_discard)
        if result is not None:
            return Arrangement(*result)
    counts: dict[int, int] = {}
    joker_count = 0
    for card in cards:
        if not isinstance(card, Card):
            raise _bad_card(cards)
        index = card.index
        if index == JOKER_INDEX:
            joker_count += 1
        else:
            counts[index] = counts.get(index, 0) + 1
    if not joker_count and (not discard or can_discard is None or _all_allowed(cards, can_discard)):
        # Duplicates, but maybe none that can meld: then the copies are plain deadwood.
        present = sum(1 << index for index in counts)
        extra = tuple(CARDS[index] for index, count in counts.items() for _ in range(count - 1))
        tables = simple_tables(rules, points)
        result = solve_simple_copies(present, extra, tables, points, discard)
        if result is not None:
            return Arrangement(*result)
    allowed = None
    if discard:
        allowed = _allowed(counts, joker_count, can_discard)
    return Arrangement(*solve_general(counts, joker_count, rules, points, allowed))


def _solve(
    cards: Sequence[Card],
    rules: MeldRules,
    points: CardPoints,
    discard: bool,
    can_discard: Callable[[Card], bool] | None,
) -> Arrangement:
    """:func:`arrange` without a requirement, for the search of :mod:`rummylib._require`."""
    return arrange(cards, rules, points, discard=discard, can_discard=can_discard)


def _all_allowed(cards: Sequence[Card], can_discard: Callable[[Card], bool]) -> bool:
    return bool(cards) and all(can_discard(card) for card in cards)


def _all_natural_allowed(cards: Sequence[Card], can_discard: Callable[[Card], bool]) -> bool:
    naturals = [card for card in cards if card.index != JOKER_INDEX]
    return bool(naturals) and all(can_discard(card) for card in naturals)


def _allowed(
    counts: dict[int, int], joker_count: int, can_discard: Callable[[Card], bool] | None
) -> set[int]:
    """The indexes of the cards that may be discarded (52: the joker)."""
    held = [*counts, *([JOKER_INDEX] if joker_count else [])]
    allowed = {index for index in held if can_discard is None or can_discard(CARDS[index])}
    if not allowed:
        present = format_cards(CARDS[index] for index in sorted(held))
        msg = f"cannot discard: can_discard allows none of {present}"
        raise ConfigurationError(msg)
    return allowed


def format_arrangement(arrangement: Arrangement) -> str:
    """One line for an arrangement: the melds, the deadwood and its points, the discard.

    Melds are separated by ``|`` and written with their jokers' readings (``*=3h``); the
    deadwood is sorted by rank ("777" order).

    >>> from rummylib import parse_cards
    >>> best = arrange(parse_cards("Ah 2h * 9c 8d Kd"), MeldRules(), CardPoints(), discard=True)
    >>> print(format_arrangement(best))
    Ah 2h *=3h | deadwood 8d 9c (17 points) | discard Kd
    >>> print(format_arrangement(arrange(parse_cards("7c 7d 7h"), MeldRules(), CardPoints())))
    7c 7d 7h | no deadwood
    """
    parts = [str(meld) for meld in arrangement.melds]
    if arrangement.deadwood:
        plural = "point" if arrangement.deadwood_points == 1 else "points"
        deadwood = format_cards(sort_by_rank(arrangement.deadwood))
        parts.append(f"deadwood {deadwood} ({arrangement.deadwood_points} {plural})")
    else:
        parts.append("no deadwood")
    if arrangement.discard is not None:
        parts.append(f"discard {arrangement.discard}")
    return " | ".join(parts)
