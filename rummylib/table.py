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
from typing import Final, NamedTuple

import attrs

from rummylib import _table_solver
from rummylib._arrange import wild_points
from rummylib._settings import Choice, read_choice
from rummylib.cards import CARDS, JOKER, Card
from rummylib.errors import ConfigurationError, InvalidMeldError, shorten
from rummylib.melds import AceRule, Meld, MeldKind, MeldRules, wild_bits, without_wild
from rummylib.scoring import CardPoints, hand_points
from rummylib.tiles import CARD_NOTATION, Notation

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

    Wild cards standing for another card (:attr:`MeldRules.wild_ranks
    <rummylib.melds.MeldRules.wild_ranks>`) are jokers there and count too; a wild card in its
    own natural place does not.

    >>> from rummylib import Rank, format_cards, parse_meld
    >>> format_cards(joker_identities([parse_meld("7h 8h *=9h", MeldRules())]).elements())
    '9h'
    >>> wild = MeldRules(wild_ranks={Rank.SEVEN})
    >>> format_cards(joker_identities([parse_meld("7h 8h 7c=9h", wild)]).elements())
    '9h'
    """
    identities: Counter[Card] = Counter()
    for meld in melds:
        for card, stands in zip(meld.cards, meld.stands_for, strict=True):
            if card is not stands:
                identities[stands] += 1
    return identities


def rearrangement_refusal(  # noqa: PLR0911, PLR0912  (one return per condition, in order)
    table: Sequence[Meld],
    hand: Sequence[Card],
    new_table: Sequence[Meld],
    rules: MeldRules,
    replacement: JokerReplacementSource = JokerReplacementSource.HAND_OR_TABLE,
    *,
    jokers: str = "locked",
    notation: Notation = CARD_NOTATION,
) -> str | None:
    """Why replacing ``table`` by ``new_table`` is not a legal meld action, or ``None``.

    The conditions, checked in this order: (a) every card added comes from ``hand`` and at
    least one does; (b) no table card goes back to a hand; (c) every meld of the new table is
    legal under ``rules``; (d) every table joker still stands for the card it was declared
    as, unless that natural card took its place (from the hand only, with
    ``replacement="hand_only"``). Carousel's meld action (rule 2.5) is such a rearrangement.
    With ``jokers="free"`` (Rummikub's ``joker_rule="free"``) condition (d) is dropped: a
    table joker may take any identity. The refusal names cards in ``notation`` (Rummikub's
    tiles, for instance).

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
        names = notation.cards(_elements({i: n for i, n in not_held.items() if n > 0}))
        return f"the new table has {notation.noun}s the player does not hold: {names}"
    if not added:
        source = "hand" if notation.hand == "hand" else f"the {notation.hand}"  # "the rack"
        return f"no {notation.noun} from {source} was played"
    removed = _minus(old_cards, new_cards)
    if removed:
        return _left_the_table(_elements(removed), notation)
    for meld in new_table:
        if not meld.is_valid(rules):
            try:
                meld.check(rules)
            except InvalidMeldError as error:
                if notation is CARD_NOTATION:
                    return str(error)
                # the melds' own words name cards: said again in this notation's
                reason = notation.reason(error.reason)
                return f"not a valid {notation.meld_noun}: {notation.meld(meld)}: {reason}"
    if jokers == "free":
        return None
    if jokers != "locked":
        msg = f"bad jokers {shorten(jokers)}: 'locked' or 'free'"
        raise ConfigurationError(msg)
    old_jokers = _tally(old_rest, jokers=True)
    new_jokers = _tally(new_rest, jokers=True)
    lost = _minus(old_jokers, new_jokers)
    hand_only = read_choice(JokerReplacementSource, replacement) is JokerReplacementSource.HAND_ONLY
    if not lost:
        return None
    gained = _elements(_minus(new_jokers, old_jokers))
    # The natural cards that may take a joker's place: those standing for themselves (a wild
    # card standing for another card is a joker there), from the hand only if so asked.
    whole_table = _tally(new_table, jokers=False, naturals=True)
    for index in sorted(lost):
        card = CARDS[index]
        natural = whole_table.get(index, 0)
        replacing = min(added.get(index, 0), natural) if hand_only else natural
        if replacing < lost[index]:
            named, new = notation.card(card), notation.card(gained[0])
            msg = f"the joker declared as {named} changed to {new}"
            if hand_only and whole_table.get(index, 0) > replacing:
                msg += f" (only a {named} from the hand may take its place)"
            return msg
    return None


def _tally(melds: Iterable[Meld], *, jokers: bool, naturals: bool = False) -> dict[int, int]:
    """How many of each card (by index) the melds hold, or (``jokers``) their jokers stand for.

    A joker here is any card standing for another (a printed joker, or a wild card); with
    ``naturals`` only the cards standing for themselves are counted.
    """
    counts: dict[int, int] = {}
    for meld in melds:
        if jokers or naturals:
            for card, stands in zip(meld.cards, meld.stands_for, strict=True):
                if (card is not stands) is jokers:
                    counts[stands.index] = counts.get(stands.index, 0) + 1
        else:
            for card in meld.cards:
                counts[card.index] = counts.get(card.index, 0) + 1
    return counts


def _left_the_table(gone: Sequence[Card], notation: Notation) -> str:
    """``"7s left the table (and 8s, a joker)"``: every card gone, the first in card order first.

    A second copy of a card is "another 7s" (two packs), of a joker "another joker".
    """
    names: list[str] = []
    for at, card in enumerate(gone):
        name = "joker" if card.is_joker else notation.card(card)
        again = card in gone[:at]
        names.append(f"another {name}" if again else "a joker" if card.is_joker else name)
    rest = f" (and {', '.join(names[1:])})" if len(names) > 1 else ""
    return f"{names[0]} left the table{rest}"


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


def _check_solver_rules(
    rules: MeldRules, joker_count: int, *, wild: bool = False
) -> _table_solver.Layout:
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
        what = "jokers and wild cards" if wild else "jokers"
        reason = (
            f"{joker_count} {what} with min_naturals={rules.min_naturals} "
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
    base = points or _DEFAULT_POINTS
    table = tuple(table)
    wild = wild_bits(rules) if rules.wild_ranks else 0
    if wild and (
        any(card.bit & wild for card in hand)
        or any(card.bit & wild for meld in table for card in meld.cards)
    ):
        scenarios, capable = _wild_scenarios(table, hand, rules, jokers == "free")
        layout = _check_solver_rules(rules, capable, wild=True)
        base = wild_points(base, rules.wild_ranks)
    else:
        rules = without_wild(rules)
        hand_counts = Counter(hand)
        hand_jokers = hand_counts.pop(JOKER, 0)
        table_naturals = cards_of(table)
        table_naturals.pop(JOKER, None)
        identities = joker_identities(table)
        layout = _check_solver_rules(rules, sum(identities.values()) + hand_jokers)
        scenarios = _scenarios(
            table_naturals, identities, hand_counts, hand_jokers, jokers == "free"
        )
    if not hand:
        return None
    values = base.values

    def weight(card: Card) -> int:
        if objective == "cards":
            return 1
        return values[card.index] * _WEIGHT + 1

    weights = [weight(CARDS[index]) for index in range(52)]
    joker_weight = weight(JOKER)
    best: tuple[int, _table_solver.Solution, _Scenario, Counter[Card]] | None = None
    for scenario in scenarios:
        forced: Counter[Card] = Counter()
        feasible = True
        if jokers == "locked":
            for card, count in scenario.released.items():
                on_table = (
                    scenario.table_naturals[card]
                    if source is JokerReplacementSource.HAND_OR_TABLE
                    else 0
                )
                forced[card] = max(0, count - on_table)
                if forced[card] > scenario.hand_naturals[card]:
                    feasible = False
        if not feasible:
            continue
        must = [0] * 52
        optional = [0] * 52
        for counts in (scenario.table_naturals, scenario.kept, forced):
            for card, count in counts.items():
                must[card.index] += count
        for card, count in scenario.hand_naturals.items():
            optional[card.index] += count
        for card, count in forced.items():
            optional[card.index] -= count  # never below 0: at most the hand's (see above)
        solution = _table_solver.solve(
            layout,
            must,
            optional,
            weights,
            table_jokers=len(scenario.table_free),
            hand_jokers=len(scenario.hand_jokers),
            joker_value=joker_weight,
            min_size=rules.min_size,
            max_group_size=rules.max_group_size,
            longest_run=rules.longest_run,
        )
        if solution is None:
            continue
        value = solution.value + sum(weights[card.index] * count for card, count in forced.items())
        if value and (best is None or value > best[0]):
            best = (value, solution, scenario, forced)
    if best is None:
        return None
    _, solution, scenario, forced = best
    return _play(solution, scenario, forced, layout, base)


class _Scenario(NamedTuple):
    """One reading of the table and the hand for the search: which cards are what.

    Attributes:
        table_naturals: the natural cards of the table, each standing for itself.
        kept: the table jokers (or wild cards standing in) that keep their identity, by it.
        kept_cards: those cards themselves, by identity.
        released: the table jokers that may change identity, by the identity they had.
        table_free: the table cards that are free jokers in the search (they must be placed).
        hand_naturals: the hand's natural cards (wild cards read as themselves among them).
        hand_jokers: the hand's cards that are jokers in the search, those to play first first.
    """

    table_naturals: Counter[Card]
    kept: Counter[Card]
    kept_cards: dict[Card, list[Card]]
    released: Counter[Card]
    table_free: tuple[Card, ...]
    hand_naturals: Counter[Card]
    hand_jokers: tuple[Card, ...]


def _scenarios(
    table_naturals: Counter[Card],
    identities: Counter[Card],
    hand_counts: Counter[Card],
    hand_jokers: int,
    free: bool,
) -> list[_Scenario]:
    """The scenarios without wild cards: each way to release some table jokers."""
    known = sorted(identities, key=_index)
    releases: Iterable[tuple[int, ...]]
    if free:
        releases = [tuple(identities[card] for card in known)]
    else:
        releases = itertools.product(*(range(identities[card] + 1) for card in known))
    found = []
    for released in releases:
        kept = Counter(
            {card: identities[card] - count for card, count in zip(known, released, strict=True)}
        )
        found.append(
            _Scenario(
                table_naturals=table_naturals,
                kept=kept,
                kept_cards={card: [JOKER] * count for card, count in kept.items()},
                released=Counter(dict(zip(known, released, strict=True)))
                if not free
                else Counter(),
                table_free=(JOKER,) * sum(released),
                hand_naturals=hand_counts,
                hand_jokers=(JOKER,) * hand_jokers,
            )
        )
    return found


def _wild_scenarios(  # noqa: PLR0912  (classify the cards, then every reading of the wild ones)
    table: Sequence[Meld], hand: Sequence[Card], rules: MeldRules, free: bool
) -> tuple[list[_Scenario], int]:
    """The scenarios of a table or hand holding wild cards, and how many cards may be jokers.

    Each wild card is tried as itself (a natural card) and as a joker. A table card standing
    for another (a printed joker or a wild card) keeps its identity or, released, takes a new
    one (as a joker) or, if it is a wild card, stands for itself. The cards that may be
    jokers are counted for :func:`_check_solver_rules`.
    """
    wild = rules.wild_ranks
    plain: Counter[Card] = Counter()
    table_wild: list[Card] = []
    standing: dict[Card, list[Card]] = {}
    for meld in table:
        for card, stands in zip(meld.cards, meld.stands_for, strict=True):
            if card is not stands:
                standing.setdefault(stands, []).append(card)
            elif card.rank in wild:
                table_wild.append(card)
            else:
                plain[card] += 1
    hand_plain: Counter[Card] = Counter()
    hand_wild: list[Card] = []
    printed = 0
    for card in hand:
        if card.is_joker:
            printed += 1
        elif card.rank in wild:
            hand_wild.append(card)
        else:
            hand_plain[card] += 1
    capable = len(table_wild) + sum(map(len, standing.values())) + len(hand_wild) + printed
    known = sorted(standing, key=_index)
    # Per identity: each sub-multiset of its cards that is released (all of them when free).
    per_identity: list[list[tuple[tuple[Card, ...], tuple[Card, ...]]]] = []
    for identity in known:
        cards = sorted(standing[identity], key=_index)
        ways = []
        for size in range(len(cards) + 1) if not free else [len(cards)]:
            for gone in sorted(set(itertools.combinations(cards, size)), key=_indexes):
                kept = list(cards)
                for card in gone:
                    kept.remove(card)
                ways.append((tuple(kept), gone))
        per_identity.append(ways)
    found: list[_Scenario] = []
    for choice in itertools.product(*per_identity):
        kept_cards = {
            identity: list(kept) for identity, (kept, _) in zip(known, choice, strict=True) if kept
        }
        released_cards = [card for _, gone in choice for card in gone]
        released = Counter(
            {identity: len(gone) for identity, (_, gone) in zip(known, choice, strict=True) if gone}
        )
        loose_wild = [card for card in released_cards if not card.is_joker]
        loose_printed = [card for card in released_cards if card.is_joker]
        for table_roles in _wild_roles([*table_wild, *loose_wild]):
            for hand_roles in _wild_roles(hand_wild):
                naturals = plain + Counter(table_roles[0])
                found.append(
                    _Scenario(
                        table_naturals=naturals,
                        kept=Counter(
                            {identity: len(cards) for identity, cards in kept_cards.items()}
                        ),
                        kept_cards=kept_cards,
                        released=Counter() if free else released,
                        table_free=(*table_roles[1], *loose_printed),
                        hand_naturals=hand_plain + Counter(hand_roles[0]),
                        hand_jokers=(*hand_roles[1], *(JOKER,) * printed),
                    )
                )
    return found, capable


def _wild_roles(cards: Sequence[Card]) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    """Each way to read wild ``cards`` as themselves or as jokers: (naturals, jokers).

    Distinct as multisets; more natural cards first.
    """
    ordered = sorted(cards, key=_index)
    ways: list[tuple[tuple[Card, ...], tuple[Card, ...]]] = []
    seen: set[tuple[int, ...]] = set()
    for size in range(len(ordered), -1, -1):
        for chosen in itertools.combinations(range(len(ordered)), size):
            naturals = tuple(ordered[at] for at in chosen)
            key = _indexes(naturals)
            if key in seen:
                continue
            seen.add(key)
            ways.append(
                (naturals, tuple(card for at, card in enumerate(ordered) if at not in chosen))
            )
    return ways


def _indexes(cards: Sequence[Card]) -> tuple[int, ...]:
    return tuple(card.index for card in cards)


def _play(
    solution: _table_solver.Solution,
    scenario: _Scenario,
    forced: Counter[Card],
    layout: _table_solver.Layout,
    points: CardPoints,
) -> Play:
    """The :class:`Play` of the search's best solution, with the physical cards in place."""
    # the tiles of each card: table naturals, then hand cards, then kept jokers (as themselves)
    pools: dict[int, list[Card]] = {}
    played: list[Card] = list(forced.elements())
    for index in range(52):
        card = CARDS[index]
        used = solution.used[index]
        played.extend([card] * used)
        tiles = [card] * (scenario.table_naturals[card] + forced[card] + used)
        tiles += scenario.kept_cards.get(card, [])
        if tiles:
            pools[index] = tiles
    hand_jokers = scenario.hand_jokers[: solution.hand_jokers]
    played.extend(hand_jokers)
    free = iter((*scenario.table_free, *hand_jokers))
    melds: list[Meld] = []
    for run in solution.runs:
        cards: list[Card] = []
        stands: list[Card] = []
        for offset, is_joker in enumerate(run.jokers):
            rank = layout.ranks[run.start + offset]
            natural = CARDS[run.suit * 13 + rank - 1]
            stands.append(natural)
            cards.append(next(free) if is_joker else pools[natural.index].pop(0))
        melds.append(Meld(MeldKind.RUN, cards, stands))
    for group in solution.groups:
        items = [
            (pools[suit * 13 + group.rank - 1].pop(0), CARDS[suit * 13 + group.rank - 1])
            for suit in group.suits
        ]
        missing = [suit for suit in range(4) if suit not in group.suits][: group.jokers]
        items += [(next(free), CARDS[suit * 13 + group.rank - 1]) for suit in missing]
        items.sort(key=lambda item: item[1].index)
        melds.append(Meld(MeldKind.GROUP, [item[0] for item in items], [item[1] for item in items]))
    melds.sort(key=lambda meld: (min(card.index for card in meld.stands_for), meld.kind.value))
    played = sorted(played, key=lambda card: card.index)
    return Play(table=tuple(melds), played=tuple(played), points=hand_points(played, points))
