"""The table solver: the best meld action on a shared table that anyone may rearrange.

:func:`best_play` is exact: given the melds on the table and a hand, it finds the legal meld
action that puts the most cards (or points) from the hand on the table, splitting, joining and
extending table melds as needed. Carousel's rules (section 2 of the rules pages) and its bots
use it; with ``jokers="free"`` it solves Rummikub-style tables too. The search itself is a
dynamic programme over ranks and suits in ``rummylib._table_solver``.

>>> from rummylib import MeldRules, parse_cards, parse_meld
>>> play = best_play([parse_meld("7h 8h 9h", MeldRules())], parse_cards("Th 2c"), MeldRules())
>>> [str(meld) for meld in play.table], play.card_count
(['7h 8h 9h Th'], 1)
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Final

import attrs

from rummylib import _table_solver
from rummylib._settings import Choice, read_choice
from rummylib.cards import CARDS, JOKER, Card, format_cards
from rummylib.errors import ConfigurationError, InvalidMeldError, shorten
from rummylib.melds import AceRule, Meld, MeldKind, MeldRules
from rummylib.scoring import CardPoints, hand_points

__all__ = [
    "JokerReplacementSource",
    "Play",
    "best_play",
    "cards_of",
    "joker_identities",
    "rearrangement_refusal",
]


class JokerReplacementSource(Choice):
    """Where the natural card that takes a table joker's place may come from (rule 2.10).

    >>> JokerReplacementSource("hand_only")
    <JokerReplacementSource.HAND_ONLY: 'hand_only'>
    """

    #: From the hand, or from elsewhere on the table.
    HAND_OR_TABLE = "hand_or_table"
    #: Only from the hand of the player making the meld action.
    HAND_ONLY = "hand_only"


def cards_of(melds: Iterable[Meld]) -> Counter[Card]:
    """Every card of the melds, jokers included, as a multiset.

    >>> from rummylib import parse_cards, parse_meld
    >>> cards_of([parse_meld("7h 8h *", MeldRules())]) == Counter(parse_cards("7h 8h *"))
    True
    """
    counts: Counter[Card] = Counter()
    for meld in melds:
        counts.update(meld.cards)
    return counts


def joker_identities(melds: Iterable[Meld]) -> Counter[Card]:
    """What the jokers of the melds stand for, as a multiset of natural cards.

    >>> from rummylib import format_cards, parse_meld
    >>> format_cards(joker_identities([parse_meld("7h 8h *=9h", MeldRules())]).elements())
    '9h'
    """
    identities: Counter[Card] = Counter()
    for meld in melds:
        for card, stands in zip(meld.cards, meld.stands_for, strict=True):
            if card.is_joker:
                identities[stands] += 1
    return identities


def rearrangement_refusal(  # noqa: PLR0911  (one return per condition, in order)
    table: Sequence[Meld],
    hand: Sequence[Card],
    new_table: Sequence[Meld],
    rules: MeldRules,
    replacement: JokerReplacementSource = JokerReplacementSource.HAND_OR_TABLE,
) -> str | None:
    """Why replacing ``table`` by ``new_table`` is not a legal meld action, or ``None``.

    The conditions, checked in this order: (a) every card added comes from ``hand`` and at
    least one does; (b) no table card goes back to a hand; (c) every meld of the new table is
    legal under ``rules``; (d) every table joker still stands for the card it was declared
    as, unless that natural card took its place (from the hand only, with
    ``replacement="hand_only"``). Carousel's meld action (rule 2.5) is such a rearrangement.

    >>> from rummylib.cards import parse_cards
    >>> from rummylib.melds import parse_meld
    >>> rules = MeldRules()
    >>> old, new = [parse_meld("7c 7h *=7d", rules)], [parse_meld("7c 7h 7d 7s", rules)]
    >>> rearrangement_refusal(old, parse_cards("7d 7s"), new, rules)
    'a joker left the table'
    """
    # A meld on both tables changes nothing: compare only what differs (a meld action usually
    # adds one meld or changes one). The multiset differences below are those of the whole
    # tables, since adding the same cards to both sides of a difference leaves it as it is.
    # Cards are counted by index (one object per card, so index and card are one).
    old_rest, new_rest = _differing(table, new_table)
    old_cards = _tally(old_rest, jokers=False)
    new_cards = _tally(new_rest, jokers=False)
    added = _minus(new_cards, old_cards)
    held = hand.count if isinstance(hand, tuple | list) else Counter(hand).__getitem__
    not_held = {index: count - held(CARDS[index]) for index, count in added.items()}
    if any(count > 0 for count in not_held.values()):
        names = format_cards(_elements({i: n for i, n in not_held.items() if n > 0}))
        return f"the new table has cards the player does not hold: {names}"
    if not added:
        return "no card from hand was played"
    removed = _minus(old_cards, new_cards)
    if removed:
        first = CARDS[min(removed)]
        return "a joker left the table" if first.is_joker else f"{first} left the table"
    for meld in new_table:
        if not meld.is_valid(rules):
            try:
                meld.check(rules)
            except InvalidMeldError as error:
                return str(error)
    old_jokers = _tally(old_rest, jokers=True)
    new_jokers = _tally(new_rest, jokers=True)
    lost = _minus(old_jokers, new_jokers)
    hand_only = read_choice(JokerReplacementSource, replacement) is JokerReplacementSource.HAND_ONLY
    if not lost:
        return None
    gained = _elements(_minus(new_jokers, old_jokers))
    whole_table = _tally(new_table, jokers=False)
    for index in sorted(lost):
        card = CARDS[index]
        replacing = added.get(index, 0) if hand_only else whole_table.get(index, 0)
        if replacing < lost[index]:
            msg = f"the joker declared as {card} changed to {gained[0]}"
            if hand_only and whole_table.get(index, 0) > replacing:
                msg += f" (only a {card} from the hand may take its place)"
            return msg
    return None


def _tally(melds: Iterable[Meld], *, jokers: bool) -> dict[int, int]:
    """How many of each card (by index) the melds hold, or (``jokers``) their jokers stand for."""
    counts: dict[int, int] = {}
    for meld in melds:
        if jokers:
            for card, stands in zip(meld.cards, meld.stands_for, strict=True):
                if card.is_joker:
                    counts[stands.index] = counts.get(stands.index, 0) + 1
        else:
            for card in meld.cards:
                counts[card.index] = counts.get(card.index, 0) + 1
    return counts


def _minus(counts: dict[int, int], other: dict[int, int]) -> dict[int, int]:
    """The multiset difference of two tallies (what :class:`~collections.Counter` ``-`` gives)."""
    return {
        index: count - other.get(index, 0)
        for index, count in counts.items()
        if count > other.get(index, 0)
    }


def _elements(counts: dict[int, int]) -> list[Card]:
    """The cards of a tally, in card order."""
    return [CARDS[index] for index in sorted(counts) for _ in range(counts[index])]


def _differing(table: Sequence[Meld], new_table: Sequence[Meld]) -> tuple[list[Meld], list[Meld]]:
    """The two tables without the melds that stay in place (the same object at one place).

    A meld action built from the table keeps its other melds where they were.
    """
    table, new_table = tuple(table), tuple(new_table)
    shared = min(len(table), len(new_table))
    old_rest = list(table[shared:])
    new_rest = list(new_table[shared:])
    for old, new in zip(table[:shared], new_table[:shared], strict=True):
        if old is not new:
            old_rest.append(old)
            new_rest.append(new)
    return old_rest, new_rest


def _index(card: Card) -> int:
    return card.index


@attrs.frozen(kw_only=True)
class Play:
    """A meld action found by :func:`best_play`.

    Attributes:
        table: the complete new table.
        played: the hand cards it puts on the table, in canonical order.
        points: the points of those cards.

    >>> from rummylib import parse_cards
    >>> Play(table=(), played=parse_cards("7h"), points=7).card_count
    1
    """

    table: tuple[Meld, ...]
    played: tuple[Card, ...]
    points: int

    @property
    def card_count(self) -> int:
        """How many cards from the hand go down.

        >>> from rummylib import parse_cards
        >>> Play(table=(), played=parse_cards("7h 8h"), points=15).card_count
        2
        """
        return len(self.played)


_LAYOUTS: Final = {
    AceRule.LOW: _table_solver.LOW,
    AceRule.HIGH: _table_solver.HIGH,
    AceRule.LOW_OR_HIGH: _table_solver.LOW_OR_HIGH,
}
#: With the "points" objective, the weight of a point against one card (the tie-break).
_WEIGHT: Final = 1 << 16
_DEFAULT_POINTS: Final = CardPoints(ace=1, face=10, joker=25)


def _check_solver_rules(rules: MeldRules, joker_count: int) -> _table_solver.Layout:
    layout = _LAYOUTS.get(rules.ace)
    reason = ""
    if layout is None:
        reason = f"ace={rules.ace.value}"
    elif rules.min_size != 3:
        reason = f"min_size={rules.min_size} (3 only)"
    elif not rules.group_distinct_suits:
        reason = "groups with repeated suits"
    elif not rules.joker_beside_ace:
        reason = "joker_beside_ace=False"
    elif rules.max_run_size is not None and rules.max_run_size < 2 * rules.min_size - 1:
        reason = f"max_run_size={rules.max_run_size} (at least {2 * rules.min_size - 1})"
    elif joker_count > rules.min_size - rules.min_naturals:
        reason = (
            f"{joker_count} jokers with min_naturals={rules.min_naturals} "
            f"(at most {rules.min_size - rules.min_naturals})"
        )
    if layout is None or reason:
        msg = f"best_play does not support {reason}"
        raise ConfigurationError(msg)
    return layout


def best_play(  # noqa: PLR0912, PLR0915  (one pass: inputs, search, melds)
    table: Sequence[Meld],
    hand: Sequence[Card],
    rules: MeldRules,
    *,
    objective: str = "cards",
    jokers: str = "locked",
    points: CardPoints | None = None,
    replacement: JokerReplacementSource | str = JokerReplacementSource.HAND_OR_TABLE,
) -> Play | None:
    """The legal meld action that puts the most cards (or points) from ``hand`` on the table.

    The whole table may be rearranged. Every table card stays on the table; each new meld is
    legal under ``rules``. It is exact (a dynamic programme over ranks and suits, see
    ``rummylib._table_solver``) and deterministic.

    Args:
        table: the melds on the table now.
        hand: the player's cards.
        rules: what a meld is. Supported: aces ``low``, ``high`` or ``low_or_high``, melds of at
            least 3, groups of distinct suits, jokers allowed beside aces, and no more jokers in
            all than ``min_size - min_naturals`` (Carousel has at most two).
        objective: ``"cards"`` (the most cards) or ``"points"`` (the most points, then the
            most cards). Ties are broken by the search's fixed order, so the answer is
            deterministic.
        jokers: ``"locked"`` — Carousel: a table joker keeps its declared card unless the
            natural card it names joins the table in its place (rule 2.10), and is then placed
            again with a new identity; ``"free"`` — Rummikub: table jokers may take any
            identity, as long as they stay on the table.
        points: card values for the ``"points"`` objective and the tie-break (default:
            Carousel's, joker 25).
        replacement: with locked jokers, where the replacing natural card may come from
            (:class:`JokerReplacementSource`).

    Returns:
        The new table and the hand cards it uses, or ``None`` when no card can be played.

    >>> from rummylib import format_cards, parse_cards, parse_meld
    >>> rules = MeldRules()
    >>> table = [parse_meld("5s *=6s 7s", rules), parse_meld("9h 9c 9d", rules)]
    >>> play = best_play(table, parse_cards("6s 2d 3d"), rules)
    >>> [str(meld) for meld in play.table], format_cards(play.played)
    (['9c 9d 9h', '2d 3d *=4d', '5s 6s 7s'], '2d 3d 6s')

    The 6s took the joker's place, and the joker, declared again as 4d, made a run of 2d 3d.

    Raises:
        ConfigurationError: the rules or the number of jokers are outside what it supports, or
            an option is unknown.
    """
    if objective not in {"cards", "points"}:
        msg = f"objective must be 'cards' or 'points', not {shorten(objective)}"
        raise ConfigurationError(msg)
    if jokers not in {"locked", "free"}:
        msg = f"jokers must be 'locked' or 'free', not {shorten(jokers)}"
        raise ConfigurationError(msg)
    source = read_choice(JokerReplacementSource, replacement)
    values = (points or _DEFAULT_POINTS).values
    table = tuple(table)
    hand_counts = Counter(hand)
    hand_jokers = hand_counts.pop(JOKER, 0)
    table_naturals = cards_of(table)
    table_naturals.pop(JOKER, None)
    identities = joker_identities(table)
    layout = _check_solver_rules(rules, sum(identities.values()) + hand_jokers)
    if not hand:
        return None

    def weight(card: Card) -> int:
        if objective == "cards":
            return 1
        return values[card.index] * _WEIGHT + 1

    weights = [weight(CARDS[index]) for index in range(52)]
    joker_weight = weight(JOKER)
    known = sorted(identities, key=lambda card: card.index)
    if jokers == "free":
        releases: Iterable[tuple[int, ...]] = [tuple(identities[card] for card in known)]
    else:
        releases = itertools.product(*(range(identities[card] + 1) for card in known))
    best: tuple[int, _table_solver.Solution, Counter[Card], Counter[Card]] | None = None
    for released in releases:
        kept: Counter[Card] = Counter()
        forced: Counter[Card] = Counter()
        feasible = True
        for card, count in zip(known, released, strict=True):
            kept[card] = identities[card] - count
            if jokers == "locked" and count:
                on_table = (
                    table_naturals[card] if source is JokerReplacementSource.HAND_OR_TABLE else 0
                )
                forced[card] = max(0, count - on_table)
                if forced[card] > hand_counts[card]:
                    feasible = False
        if not feasible:
            continue
        must = [0] * 52
        optional = [0] * 52
        for card, count in (table_naturals + kept + forced).items():
            must[card.index] += count
        for card, count in (hand_counts - forced).items():
            optional[card.index] += count
        solution = _table_solver.solve(
            layout,
            must,
            optional,
            weights,
            table_jokers=sum(released),
            hand_jokers=hand_jokers,
            joker_value=joker_weight,
            min_size=rules.min_size,
            max_group_size=rules.max_group_size,
            longest_run=rules.longest_run,
        )
        if solution is None:
            continue
        value = solution.value + sum(weights[card.index] * count for card, count in forced.items())
        if value and (best is None or value > best[0]):
            best = (value, solution, kept, forced)
    if best is None:
        return None
    _, solution, kept, forced = best
    # the tiles of each card: table naturals, then hand cards, then kept jokers (as themselves)
    pools: dict[int, list[Card]] = {}
    played: list[Card] = list(forced.elements())
    for index in range(52):
        card = CARDS[index]
        used = solution.used[index]
        played.extend([card] * used)
        tiles = [card] * (table_naturals[card] + forced[card] + used) + [JOKER] * kept[card]
        if tiles:
            pools[index] = tiles
    played.extend([JOKER] * solution.hand_jokers)
    melds: list[Meld] = []
    for run in solution.runs:
        cards: list[Card] = []
        stands: list[Card] = []
        for offset, is_joker in enumerate(run.jokers):
            rank = layout.ranks[run.start + offset]
            natural = CARDS[run.suit * 13 + rank - 1]
            stands.append(natural)
            cards.append(JOKER if is_joker else pools[natural.index].pop(0))
        melds.append(Meld(MeldKind.RUN, cards, stands))
    for group in solution.groups:
        items = [
            (pools[suit * 13 + group.rank - 1].pop(0), CARDS[suit * 13 + group.rank - 1])
            for suit in group.suits
        ]
        missing = [suit for suit in range(4) if suit not in group.suits][: group.jokers]
        items += [(JOKER, CARDS[suit * 13 + group.rank - 1]) for suit in missing]
        items.sort(key=lambda item: item[1].index)
        melds.append(Meld(MeldKind.GROUP, [item[0] for item in items], [item[1] for item in items]))
    melds.sort(key=lambda meld: (min(card.index for card in meld.stands_for), meld.kind.value))
    played = sorted(played, key=lambda card: card.index)
    base = points or _DEFAULT_POINTS
    return Play(table=tuple(melds), played=tuple(played), points=hand_points(played, base))
