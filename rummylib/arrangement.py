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

import itertools
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import overload

import attrs

from rummylib import _svg
from rummylib._arrange import (
    BIG,
    CARD_BITS,
    JOKER_BIT,
    LAST_SIMPLE,
    NEG,
    ONE_PACK_LIMIT,
    simple_tables,
    solve_above,
    solve_general,
    solve_one_joker,
    solve_simple,
    solve_simple_copies,
    wild_points,
)
from rummylib._require import arrange_required
from rummylib._settings import MAX_COUNT, flag, whole
from rummylib.cards import CARDS, JOKER, JOKER_INDEX, Card, format_cards, sort_by_rank
from rummylib.errors import ConfigurationError, NotationError, shorten
from rummylib.melds import Meld, MeldKind, MeldRules, reading_of, wild_bits, without_wild
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
        deadwood_points: the points of the deadwood (each card at its value in hand, a wild
            card at a joker's, see :func:`arrange`).
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

    Wild cards (:attr:`MeldRules.wild_ranks <rummylib.melds.MeldRules.wild_ranks>`) are
    jokers that may also stand for themselves in their own natural place. A wild card left in
    the deadwood counts as a joker (:attr:`CardPoints.joker
    <rummylib.scoring.CardPoints.joker>`, Indian rule 6.5), and it is reported as the card it
    is, in the deadwood and in its meld (with what it stands for there). A meld holding one is
    read as :meth:`Meld.from_cards <rummylib.melds.Meld.from_cards>` reads its cards, so wild
    cards stand for themselves wherever the meld allows. A hand with wild cards is solved once
    for each way of reading them as natural cards or jokers that could matter (with the
    default rules: only when it holds three wild cards and jokers or more).

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
            the heaviest allowed card (at its value in hand, a wild card as a joker; the
            lowest among equals) that leaves the rest melded as required; without runs asked,
            the rest is arranged as ``arrange`` arranges it. When it asks for runs, the
            melds are shown at their strongest readings (a pure run, else a run, where the
            cards allow one). Also exact; a complete requirement rules most hands out in
            microseconds, and a 14-card Indian show of meld-dense cards with wild cards takes
            about a tenth of a millisecond (median; ``benchmarks/bench_arrange.py``).

    Returns:
        The best arrangement; with ``require``, the best that meets it, or ``None``.

    Raises:
        NotationError: an item of ``hand`` is not a :class:`~rummylib.cards.Card`.
        ConfigurationError: ``rules``, ``points`` or ``require`` has the wrong type, or
            (without ``require``) ``discard`` is set but the hand is empty or
            ``can_discard`` allows none of its cards.

    >>> from rummylib import Rank, parse_cards
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
    >>> sevens = MeldRules(wild_ranks={Rank.SEVEN})
    >>> print(
    ...     format_arrangement(arrange(parse_cards("6h 7h 8h 9c 9d 7s Kd"), sevens, CardPoints()))
    ... )
    9c 9d 7s=9h | 6h 7h 8h | deadwood Kd (10 points)
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
        return arrange_required(
            cards, rules, points, require, discard, can_discard, _solve, _complete
        )
    total = 0
    bits = CARD_BITS
    try:
        for card in cards:
            total += bits[card.index]
    except (AttributeError, TypeError, IndexError):
        raise _bad_card(cards) from None
    if rules.wild_ranks:
        wild = wild_bits(rules)
        if any(card.bit & wild for card in cards):
            return _arrange_wild(cards, rules, points, discard, can_discard)
        rules = without_wild(rules)  # the same melds, and the tables of the rules without
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


def _arrange_wild(
    cards: Sequence[Card],
    rules: MeldRules,
    points: CardPoints,
    discard: bool,
    can_discard: Callable[[Card], bool] | None,
) -> Arrangement:
    """:func:`arrange` for a hand that holds wild cards, exactly.

    In a meld a wild card either stands for itself (a natural card) or for another card, and
    then it is a joker in every respect. So each way of choosing, for each wild card, whether
    it is natural or a joker gives a hand without wild cards, and the best arrangement of the
    hand is the best of theirs (a wild card left in the deadwood is worth a joker whichever
    it was, so nothing is lost by solving each of them under points that say so). The reading
    with every wild card a joker is solved first; the others, most natural wild cards first
    (then in card order), only need to beat it, which cuts their search short; an equal one
    wins only when it comes earlier in that order than the best so far. A wild card as
    itself does better than as a joker only where a meld would lack natural cards without it
    (or where a joker may not sit beside an ace): when the hand has too few wild cards and
    jokers for such a meld, the first reading is the only one.

    The jokers of the winner are then given back as the printed jokers and the wild cards
    chosen as jokers (:func:`_with_wild_cards`).
    """
    counts = Counter(card.index for card in cards)
    if discard:
        _allowed(
            {index: n for index, n in counts.items() if index != JOKER_INDEX},
            counts[JOKER_INDEX],
            can_discard,
        )  # raises when no card may be the discard
    plain = without_wild(rules)
    solving_points = wild_points(points, rules.wild_ranks)
    wild = wild_bits(rules)
    wild_indexes = sorted(index for index in counts if index != JOKER_INDEX and wild >> index & 1)
    fixed = {index: count for index, count in counts.items() if index not in wild_indexes}
    printed = fixed.pop(JOKER_INDEX, 0)
    # Every card weighs the same whichever way its wild cards are read (a wild card is worth a
    # joker), so the weight an arrangement takes out of the deadwood (see rummylib._arrange)
    # compares the readings directly.
    values = solving_points.values
    total = sum((values[index] * BIG + 1) * count for index, count in counts.items())

    def weight_of(result: Arrangement) -> int:
        return total - result.deadwood_points * BIG - len(result.deadwood)

    readings = list(itertools.product(*(range(counts[index], -1, -1) for index in wild_indexes)))
    capable = printed + sum(counts[index] for index in wild_indexes)
    if rules.joker_beside_ace and capable <= rules.min_size - rules.min_naturals:
        # A wild card as itself helps no more than as a joker, but for a meld short of natural
        # cards without it, and such a meld holds more wild cards and jokers than there are.
        readings = readings[-1:]
    # The last reading (every wild card a joker) is the most flexible: solved first, it makes
    # a floor that cuts the search of the others short. They are then tried in order, most
    # natural wild cards first; one wins over the best so far only if it is better, or as good
    # and before it in that order.
    best: tuple[int, int, Arrangement, dict[int, int]] | None = None
    for number in (len(readings) - 1, *range(len(readings) - 1)):
        naturals = readings[number]
        natural_counts = dict(fixed)
        standing: dict[int, int] = {}
        for index, kept in zip(wild_indexes, naturals, strict=True):
            if kept:
                natural_counts[index] = kept
            if counts[index] > kept:
                standing[index] = counts[index] - kept
        joker_count = printed + sum(standing.values())
        allow: Callable[[Card], bool] | None = None
        allowed: set[int] | None = None
        if can_discard is not None:
            allow = _split_can_discard(can_discard, standing, printed)
        if discard:
            held = [*natural_counts, *([JOKER_INDEX] if joker_count else [])]
            allowed = {index for index in held if allow is None or allow(CARDS[index])}
            if not allowed:
                continue  # no card of this reading may be the discard
        floor = NEG if best is None else best[0] - 1 if best[1] > number else best[0]
        if best is None or joker_count <= 1:
            # The table-driven paths are quicker than a search with a floor.
            hand = [CARDS[index] for index, count in natural_counts.items() for _ in range(count)]
            hand += [JOKER] * joker_count
            result = arrange(hand, plain, solving_points, discard=discard, can_discard=allow)
            if weight_of(result) > floor:
                best = (weight_of(result), number, result, standing)
            continue
        found = solve_above(natural_counts, joker_count, plain, solving_points, allowed, floor)
        if found is not None:
            result = Arrangement(*found)
            best = (weight_of(result), number, result, standing)
    assert best is not None  # some reading holds an allowed card, as checked above
    _, _, result, standing = best
    return _with_wild_cards(result, standing, rules, can_discard)


def _split_can_discard(
    can_discard: Callable[[Card], bool], standing: dict[int, int], printed: int
) -> Callable[[Card], bool]:
    """``can_discard`` for a hand whose jokers are printed ones and the wild cards ``standing``."""
    joker_allowed = (printed > 0 and bool(can_discard(JOKER))) or any(
        can_discard(CARDS[index]) for index in standing
    )

    def allowed(card: Card) -> bool:
        if card.index == JOKER_INDEX:
            return joker_allowed
        return bool(can_discard(card))

    return allowed


def _with_wild_cards(  # noqa: PLR0912  (three passes over the melds, and the discard)
    result: Arrangement,
    standing: dict[int, int],
    rules: MeldRules,
    can_discard: Callable[[Card], bool] | None,
) -> Arrangement:
    """``result`` with its jokers given back as printed jokers and the ``standing`` wild cards.

    The wild cards go where they can be themselves first: to a joker's place that stands for
    the card itself, then to a meld that reads them as themselves. The discard (when it is a
    joker) is the first allowed card of the others, else of those; then the melds' other
    joker places take wild cards before printed jokers, in meld order, and the deadwood keeps
    the rest. Each meld that holds a wild card is read as :meth:`Meld.from_cards` reads it.
    """
    printed = sum(card.index == JOKER_INDEX for meld in result.melds for card in meld.cards)
    printed += sum(card.index == JOKER_INDEX for card in result.deadwood)
    printed += result.discard is JOKER
    printed -= sum(standing.values())
    spare = [CARDS[index] for index in sorted(standing) for _ in range(standing[index])]
    # Per meld: its natural cards, and the wild cards given to its joker places.
    naturals = [[card for card in meld.cards if card.index != JOKER_INDEX] for meld in result.melds]
    places = [
        len(meld.cards) - len(kept) for meld, kept in zip(result.melds, naturals, strict=True)
    ]
    given: list[list[Card]] = [[] for _ in result.melds]
    for number, meld in enumerate(result.melds):  # a joker's place that is the wild card's own
        for card, stands in zip(meld.cards, meld.stands_for, strict=True):
            if card.index == JOKER_INDEX and stands in spare:
                spare.remove(stands)
                given[number].append(stands)
    for wild in list(spare):  # a meld that reads the wild card as itself
        for number in range(len(result.melds)):
            free = places[number] - len(given[number])
            if free and wild in spare:
                trial = [*naturals[number], *given[number], wild, *[JOKER] * (free - 1)]
                if wild in reading_of(trial, rules).stands_for:
                    spare.remove(wild)
                    given[number].append(wild)
    jokers = [*spare, *[JOKER] * printed]
    thrown = result.discard
    if thrown is JOKER:
        allowed = [card for card in jokers if can_discard is None or can_discard(card)]
        if allowed:
            thrown = allowed[0]
            jokers.remove(thrown)
        else:  # only a wild card placed as itself may go: its place takes a joker instead
            number, thrown = next(
                (number, card)
                for number, cards in enumerate(given)
                for card in cards
                if can_discard is None or can_discard(card)
            )
            given[number].remove(thrown)
    rest = iter(jokers)
    melds = []
    for number, solved in enumerate(result.melds):
        cards = [*naturals[number], *given[number]]
        cards += [next(rest) for _ in range(places[number] - len(given[number]))]
        if any(card.index != JOKER_INDEX and card.rank in rules.wild_ranks for card in cards):
            melds.append(reading_of(cards, rules))
        else:
            melds.append(solved)
    melds.sort(key=_meld_order)
    deadwood = [card for card in result.deadwood if card.index != JOKER_INDEX] + list(rest)
    deadwood.sort(key=_card_index)
    return Arrangement(tuple(melds), tuple(deadwood), result.deadwood_points, thrown)


def _meld_order(meld: Meld) -> tuple[int, int, int]:
    """The order of :attr:`Arrangement.melds`: groups by rank, then runs; by lowest natural card."""
    lowest = min(
        (
            card.index
            for card, stands in zip(meld.cards, meld.stands_for, strict=True)
            if card is stands
        ),
        default=min(stands.index for stands in meld.stands_for),
    )
    if meld.kind is MeldKind.GROUP:
        return (0, lowest % 13, lowest // 13)
    return (1, lowest, 0)


def _card_index(card: Card) -> int:
    return card.index


def _complete(melds: tuple[Meld, ...], discard: Card | None) -> Arrangement:
    """A complete arrangement: ``melds``, no deadwood, and the discard (or ``None``)."""
    return Arrangement(melds, (), 0, discard)


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
