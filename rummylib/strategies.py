"""Hypothesis strategies for property tests of code that uses rummylib.

Every strategy builds its values constructively (it picks a rank, then suits, then where the
jokers go; a deal, then moves), so nothing is filtered away and each example shrinks towards
the simplest case: clubs before spades, low ranks first, no jokers, the default
:class:`~rummylib.melds.MeldRules`, the sorted deal and the fewest moves. This module needs
Hypothesis (``pip install 'rummylib[test]'``); nothing in rummylib imports it.

Once rummylib is installed, Hypothesis also knows these strategies by type, with no import of
this module (rummylib registers them through Hypothesis's entry point): ``st.from_type(Card)``
is :func:`cards`, and ``@given`` infers a ``GameState`` argument from its annotation. See
:func:`for_type` for the whole table.

>>> from hypothesis import given
>>> from rummylib import is_meld
>>> rules = MeldRules(joker_beside_ace=False)
>>> @given(melds(rules))
... def test_a_meld_keeps_its_cards(meld: Meld) -> None:
...     assert is_meld(reversed(meld.cards), rules)
>>> test_a_meld_keeps_its_cards()
"""

from __future__ import annotations

import enum
import typing
from collections import OrderedDict
from collections.abc import Callable, Collection, Sequence
from typing import Any, Final, TypeVar

import attrs
from hypothesis import reject
from hypothesis import strategies as st

from rummylib.actions import (
    ACTION_TYPES,
    Action,
    Codec,
    Discard,
    DrawStock,
    LayOff,
    Pass,
    PlayerAction,
    TakeDiscard,
    spec_of,
    specs,
)
from rummylib.bots import GreedyBot
from rummylib.cards import CARDS, JOKER, JOKER_INDEX, Card, Rank, Suit, make_deck
from rummylib.engine import PhaseBase
from rummylib.errors import ConfigurationError, shorten
from rummylib.melds import AceRule, Meld, MeldKind, MeldRules, RunEnd, rank_at
from rummylib.scoring import CardPoints
from rummylib.state import GameState, new_game
from rummylib.variants import VARIANTS, Variant, get_variant
from rummylib.views import Observation

__all__ = [
    "Refusal",
    "actions",
    "card_points",
    "cards",
    "for_type",
    "games",
    "hands",
    "illegal_actions",
    "legal_actions",
    "meld_rules",
    "melds",
    "observations",
    "sorted_deal",
    "variants",
]

#: Hand sizes :func:`hands` draws by default: empty up to the 14 cards of a full Israeli turn.
DEFAULT_HAND_SIZE: Final = (0, 14)

#: Groups bigger than this many cards above the smallest meld are not generated (only rules
#: without ``group_distinct_suits`` allow them, and they make examples slow to read).
GROUP_SIZE_SPREAD: Final = 8


def cards(*, jokers: bool = True) -> st.SearchStrategy[Card]:
    """One card, natural or (unless ``jokers=False``) the joker.

    Examples shrink towards the ace of clubs.

    >>> from hypothesis import Phase, find, settings
    >>> # No replay of saved examples, and no "explain" phase (it only annotates a report):
    >>> fresh = settings(max_examples=2000, database=None, phases=[Phase.generate, Phase.shrink])
    >>> find(cards(), lambda card: card.suit is Suit.HEARTS, settings=fresh)
    Card.parse('Ah')
    >>> find(cards(), lambda card: card.is_joker, settings=fresh)
    Card.parse('*')

    Args:
        jokers: whether the joker may be drawn.

    Raises:
        ConfigurationError: ``jokers`` is not ``True`` or ``False``.
    """
    if not isinstance(jokers, bool):
        msg = f"jokers must be True or False, not {jokers!r}"
        raise ConfigurationError(msg)
    return st.sampled_from(CARDS if jokers else CARDS[:JOKER_INDEX])


def _hand_size_range(size: object, deck_size: int) -> tuple[int, int]:
    """Read ``size`` (a whole number or a ``(min, max)`` pair) and check it fits the deck."""
    if isinstance(size, tuple) and len(size) == 2:
        low, high = size
    else:
        low = high = size
    for bound in (low, high):
        if isinstance(bound, bool) or not isinstance(bound, int):
            msg = f"size must be a whole number or a (min, max) pair of them, not {size!r}"
            raise ConfigurationError(msg)
    assert isinstance(low, int)
    assert isinstance(high, int)
    if not 0 <= low <= high <= deck_size:
        msg = f"size {size!r} does not fit a deck of {deck_size} cards"
        raise ConfigurationError(msg)
    return low, high


def hands(
    size: int | tuple[int, int] = DEFAULT_HAND_SIZE, decks: int = 1, jokers: int = 0
) -> st.SearchStrategy[tuple[Card, ...]]:
    """A hand dealt from ``make_deck(decks, jokers)``: cards drawn without replacement.

    With two packs a hand may hold both copies of a card, never a third. The cards come in
    the order they were drawn; examples shrink towards the start of the deck (low clubs).

    >>> from hypothesis import Phase, find, settings
    >>> from rummylib import format_cards
    >>> # No replay of saved examples, and no "explain" phase (it only annotates a report):
    >>> fresh = settings(max_examples=2000, database=None, phases=[Phase.generate, Phase.shrink])
    >>> israeli_deal = hands(size=13, decks=2, jokers=4)
    >>> format_cards(find(israeli_deal, lambda hand: hand.count(JOKER) > 1, settings=fresh))
    'Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc * *'
    >>> hands(size=(10, 60))
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: size (10, 60) does not fit a deck of 52 cards

    Args:
        size: the number of cards, or a ``(min, max)`` pair of bounds (both included).
        decks: the number of 52-card packs in the deck.
        jokers: the number of jokers in the deck.

    Raises:
        ConfigurationError: the deck settings are bad (see :func:`~rummylib.cards.make_deck`)
            or ``size`` does not fit the deck.
    """
    deck = make_deck(decks, jokers)
    low, high = _hand_size_range(size, len(deck))
    positions = st.lists(st.integers(0, len(deck) - 1), min_size=low, max_size=high, unique=True)
    return positions.map(lambda chosen: tuple(deck[position] for position in chosen))


def _default_first(default: int, values: Sequence[int]) -> list[int]:
    """``values`` in increasing order, but ``default`` first when present (it shrinks there)."""
    return sorted(values, key=lambda value: (value != default, value))


def _default_first_ace() -> list[AceRule]:
    default = MeldRules().ace
    return [default, *(rule for rule in AceRule if rule is not default)]


@st.composite
def _meld_rules(draw: st.DrawFn) -> MeldRules:
    group_distinct_suits = draw(st.booleans().map(lambda value: not value))
    largest_group = len(Suit) if group_distinct_suits else 2 * len(Suit)
    smallest = range(2, largest_group + 1) if group_distinct_suits else range(2, 7)
    min_size = draw(st.sampled_from(_default_first(3, smallest)))
    # Drawn from a list that does not depend on min_size, then raised to it: the draw then
    # shrinks to the default 4 whatever min_size is.
    largest = draw(st.sampled_from(_default_first(4, range(2, largest_group + 1))))
    max_group_size = max(min_size, largest)
    ace = draw(st.sampled_from(_default_first_ace()))
    min_naturals = draw(st.sampled_from(_default_first(1, range(1, 5))))
    joker_beside_ace = draw(st.booleans().map(lambda value: not value))
    max_run_size = draw(st.none() | st.integers(min_size, 14))
    return MeldRules(
        min_size=min_size,
        max_group_size=max_group_size,
        group_distinct_suits=group_distinct_suits,
        ace=ace,
        min_naturals=min_naturals,
        joker_beside_ace=joker_beside_ace,
        max_run_size=max_run_size,
    )


def meld_rules() -> st.SearchStrategy[MeldRules]:
    """Valid :class:`~rummylib.melds.MeldRules`, shrinking towards the defaults.

    Every setting varies: groups with or without distinct suits (at most 4 or 8 cards),
    ``min_size`` 2–4 (2–6 without distinct suits), every :class:`~rummylib.melds.AceRule`,
    ``min_naturals`` 1–4, both ``joker_beside_ace`` values, and ``max_run_size`` unset or
    ``min_size``–14. A few of these rules admit no meld at all (``min_naturals`` above every
    allowed size); :func:`melds` is then empty.

    >>> from hypothesis import Phase, find, settings
    >>> # No replay of saved examples, and no "explain" phase (it only annotates a report):
    >>> fresh = settings(max_examples=2000, database=None, phases=[Phase.generate, Phase.shrink])
    >>> find(meld_rules(), lambda rules: True, settings=fresh) == MeldRules()
    True
    >>> find(meld_rules(), lambda rules: rules.ace is AceRule.WRAP, settings=fresh)
    MeldRules(min_size=3, max_group_size=4, group_distinct_suits=True,
              ace=<AceRule.WRAP: 'wrap'>, min_naturals=1, joker_beside_ace=True,
              max_run_size=None, wild_ranks=frozenset())
    """
    return _meld_rules()


def _smallest_meld(rules: MeldRules) -> int:
    return max(rules.min_size, rules.min_naturals)


def _group_sizes(rules: MeldRules) -> range:
    low = _smallest_meld(rules)
    return range(low, min(rules.max_group_size, low + GROUP_SIZE_SPREAD) + 1)


def _run_sizes(rules: MeldRules) -> range:
    return range(_smallest_meld(rules), rules.longest_run + 1)


def _place_jokers(
    draw: st.DrawFn, rules: MeldRules, stands_for: Sequence[Card], places: Sequence[int]
) -> list[Card]:
    """Put jokers at some of ``places`` (none as examples shrink), keeping ``min_naturals``."""
    most = min(len(places), len(stands_for) - rules.min_naturals)
    jokers: set[int] = set()
    if most > 0:
        jokers = set(draw(st.lists(st.sampled_from(places), max_size=most, unique=True)))
    return [JOKER if offset in jokers else card for offset, card in enumerate(stands_for)]


@st.composite
def _group(draw: st.DrawFn, rules: MeldRules) -> list[Card]:
    size = draw(st.sampled_from(_group_sizes(rules)))
    rank = draw(st.sampled_from(Rank))
    suits = st.lists(
        st.sampled_from(Suit), min_size=size, max_size=size, unique=rules.group_distinct_suits
    )
    stands_for = [Card(rank, suit) for suit in draw(suits)]
    return _place_jokers(draw, rules, stands_for, range(size))


def _joker_places(rules: MeldRules, stands_for: Sequence[Card]) -> list[int]:
    """The offsets of a run where a joker may stand under ``rules.joker_beside_ace``."""
    if rules.joker_beside_ace:
        return list(range(len(stands_for)))
    near_ace: set[int] = set()
    for offset, card in enumerate(stands_for):
        if card.rank is Rank.ACE:
            near_ace.update((offset - 1, offset, offset + 1))
    return [offset for offset in range(len(stands_for)) if offset not in near_ace]


@st.composite
def _run(draw: st.DrawFn, rules: MeldRules) -> list[Card]:
    size = draw(st.sampled_from(_run_sizes(rules)))
    start = draw(st.sampled_from(rules.run_starts(size)))
    suit = draw(st.sampled_from(Suit))
    stands_for = [Card(rank_at(position), suit) for position in range(start, start + size)]
    return _place_jokers(draw, rules, stands_for, _joker_places(rules, stands_for))


@st.composite
def _meld(draw: st.DrawFn, rules: MeldRules, kinds: Sequence[MeldKind]) -> Meld:
    kind = draw(st.sampled_from(kinds))
    chosen = draw(_group(rules) if kind is MeldKind.GROUP else _run(rules))
    shuffled = draw(st.permutations(chosen))
    return Meld.from_cards(shuffled, rules, kind=kind)


def melds(rules: MeldRules) -> st.SearchStrategy[Meld]:
    """Valid melds under ``rules``, built constructively.

    The strategy picks the kind, then a size. For a group it picks a rank and the suits
    (different when ``group_distinct_suits``); for a run a window of positions from
    :meth:`~rummylib.melds.MeldRules.run_starts` and a suit. Then it picks which positions
    hold jokers, keeping ``min_naturals`` natural cards and, with ``joker_beside_ace=False``,
    never putting a joker in a run at an ace's position or next to it. The cards, shuffled, go
    through :meth:`~rummylib.melds.Meld.from_cards`, so each meld carries the preferred reading
    of its kind. Groups hold at most ``GROUP_SIZE_SPREAD`` (8) cards more than the smallest
    allowed meld. If the rules admit no meld at all, the strategy is empty
    (``hypothesis.strategies.nothing()``).

    >>> from hypothesis import Phase, find, settings
    >>> # No replay of saved examples, and no "explain" phase (it only annotates a report):
    >>> fresh = settings(max_examples=2000, database=None, phases=[Phase.generate, Phase.shrink])
    >>> israeli = MeldRules(joker_beside_ace=False)
    >>> def run_with_joker(meld: Meld) -> bool:
    ...     return meld.kind is MeldKind.RUN and meld.joker_count > 0
    >>> print(find(melds(israeli), run_with_joker, settings=fresh))
    Ac 2c *=3c
    >>> def group_with_two_jokers(meld: Meld) -> bool:
    ...     return meld.kind is MeldKind.GROUP and meld.joker_count == 2
    >>> print(find(melds(israeli), group_with_two_jokers, settings=fresh))
    *=Ac *=Ad Ah

    Args:
        rules: the meld rules every generated meld satisfies.

    Raises:
        ConfigurationError: ``rules`` is not a :class:`~rummylib.melds.MeldRules`.
    """
    if not isinstance(rules, MeldRules):
        msg = f"rules must be a MeldRules, not {rules!r}"
        raise ConfigurationError(msg)
    kinds = [
        kind
        for kind, sizes in (
            (MeldKind.GROUP, _group_sizes(rules)),
            (MeldKind.RUN, _run_sizes(rules)),
        )
        if len(sizes) > 0
    ]
    if not kinds:
        return st.nothing()
    return _meld(rules, kinds)


def variants(*, players: int | None = None) -> st.SearchStrategy[Variant]:
    """Every registered variant, with its default settings (that seats ``players``, if given).

    >>> from hypothesis import Phase, find, settings
    >>> # No replay of saved examples, and no "explain" phase (it only annotates a report):
    >>> fresh = settings(max_examples=200, database=None, phases=[Phase.generate, Phase.shrink])
    >>> find(variants(), lambda variant: variant.name == "rummy71", settings=fresh).name
    'rummy71'
    >>> find(variants(players=6), lambda variant: True, settings=fresh).name
    'indian_deals'

    Raises:
        ConfigurationError: ``players`` is not a whole number, or no variant seats that many.
    """
    names = sorted(VARIANTS)
    if players is not None:
        if isinstance(players, bool) or not isinstance(players, int):
            msg = f"players must be a whole number, not {shorten(players)}"
            raise ConfigurationError(msg)
        names = [
            name
            for name in names
            if VARIANTS[name].min_players <= players <= VARIANTS[name].max_players
        ]
        if not names:
            msg = f"no registered variant seats {players} players"
            raise ConfigurationError(msg)
    return st.sampled_from(names).map(get_variant)


#: The most points :func:`card_points` gives a card.
MAX_CARD_POINTS: Final = 25


def card_points() -> st.SearchStrategy[CardPoints]:
    """Valid :class:`~rummylib.scoring.CardPoints`, shrinking towards the defaults.

    An ace, a face card and a joker are each worth 0 to ``MAX_CARD_POINTS`` (25) points
    (defaults first: 1, 10, 0), and ``ace_low_run`` is unset or in the same range.

    >>> from hypothesis import Phase, find, settings
    >>> # No replay of saved examples, no "explain" phase (it only annotates a report), and a
    >>> # fixed seed: which of several equally small examples a shrink ends on varies by run.
    >>> fresh = settings(
    ...     max_examples=500, database=None, phases=[Phase.generate, Phase.shrink], derandomize=True
    ... )
    >>> find(card_points(), lambda points: True, settings=fresh)
    CardPoints(ace=1, face=10, joker=0, ace_low_run=None, numbered_faces=False)
    >>> find(card_points(), lambda points: points.joker > points.face, settings=fresh)
    CardPoints(ace=1, face=10, joker=11, ace_low_run=None, numbered_faces=False)
    """
    values = range(MAX_CARD_POINTS + 1)
    return st.builds(
        CardPoints,
        ace=st.sampled_from(_default_first(1, values)),
        face=st.sampled_from(_default_first(10, values)),
        joker=st.sampled_from(_default_first(0, values)),
        ace_low_run=st.none() | st.sampled_from(values),
    )


# -- actions ---------------------------------------------------------------------------------

#: How :func:`actions` fills each field of an action class (by field name).
_ACTION_FIELDS: Final[dict[str, Callable[[int], st.SearchStrategy[Any]]]] = {
    "player": lambda players: st.integers(0, players - 1),
    "card": lambda players: cards(),
    "discard": lambda players: cards(),
    "count": lambda players: st.integers(1, 5),
    "melds": lambda players: st.lists(melds(MeldRules()), max_size=3).map(tuple),
    "table": lambda players: st.lists(melds(MeldRules()), max_size=3).map(tuple),
    "accept": lambda players: st.booleans(),
    "meld_index": lambda players: st.integers(0, 5),
    "stands_for": lambda players: st.none() | cards(jokers=False),
    "end": lambda players: st.none() | st.sampled_from(RunEnd),
}

#: How :func:`actions` fills a field of another name (a registered class's), by its type.
_CODEC_FIELDS: Final[dict[Codec, Callable[[int], st.SearchStrategy[Any]]]] = {
    Codec.CARD: lambda players: cards(),
    Codec.OPTIONAL_CARD: lambda players: st.none() | cards(jokers=False),
    Codec.WHOLE: lambda players: st.integers(0, 5),
    Codec.FLAG: lambda players: st.booleans(),
    Codec.MELDS: lambda players: st.lists(melds(MeldRules()), max_size=3).map(tuple),
    Codec.END: lambda players: st.none() | st.sampled_from(RunEnd),
}

_A = TypeVar("_A", bound=PlayerAction)


def actions(action_type: type[_A] | None = None, *, players: int = 6) -> st.SearchStrategy[Any]:
    """Well-formed actions of ``action_type`` (default: of every class), legal or not.

    These are the values a server's parser must turn into moves and back, whatever the state:
    players ``0…players-1``, any card, 1–5 cards taken from the pile, up to three melds under
    the default :class:`~rummylib.melds.MeldRules`, meld indexes 0–5. Examples shrink towards
    ``DrawStock(player=0)``; for moves that fit a state, see :func:`legal_actions` and
    :func:`illegal_actions`.

    >>> from hypothesis import Phase, find, settings
    >>> # No replay of saved examples, and no "explain" phase (it only annotates a report):
    >>> fresh = settings(max_examples=500, database=None, phases=[Phase.generate, Phase.shrink])
    >>> find(actions(), lambda action: True, settings=fresh)
    DrawStock(player=0)
    >>> find(actions(Discard), lambda action: action.card.is_joker, settings=fresh)
    Discard(player=0, card=Card.parse('*'))
    >>> actions(str)
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: action_type must be an action class, not <class 'str'>

    Args:
        action_type: an action class of :mod:`rummylib.actions`, or ``None`` for any.
        players: how many seats the ``player`` fields range over.

    Raises:
        ConfigurationError: ``action_type`` is not an action class, or ``players`` is not a
            whole number of at least 1.
    """
    if isinstance(players, bool) or not isinstance(players, int) or players < 1:
        msg = f"players must be a whole number of at least 1, not {players!r}"
        raise ConfigurationError(msg)
    if action_type is None or action_type is PlayerAction:
        return st.one_of([actions(cls, players=players) for cls in ACTION_TYPES.values()])
    if action_type not in ACTION_TYPES.values():
        msg = f"action_type must be an action class, not {action_type!r}"
        raise ConfigurationError(msg)
    codecs = dict(spec_of(action_type).codecs)
    fields = {
        field.name: (
            _ACTION_FIELDS[field.name]
            if field.name in _ACTION_FIELDS
            else _CODEC_FIELDS[codecs[field.name]]
        )(players)
        for field in attrs.fields(action_type)
        if field.init
    }
    return st.builds(action_type, **fields)


# -- deals and games -------------------------------------------------------------------------


def sorted_deal(variant: Variant | str, players: int) -> tuple[Card, ...]:
    """The deck, stacked so each player is dealt a block of consecutive cards of the deck.

    Player 0 gets the first cards of :meth:`~rummylib.engine.Variant.deck_for` in its
    canonical order (clubs from the ace up), player 1 the next ones, and so on; the rest
    follows in canonical order (face-up cards first, then the stock, top first). It is the deal
    :func:`games` (steered to a wanted state) and :class:`~rummylib.testing.RulesMachine`
    shrink towards: readable, and rich in melds, so declarations and lay-downs come after a
    move or two.

    >>> from rummylib import format_cards
    >>> deck = sorted_deal("rummy101", 2)
    >>> state = new_game("rummy101", players=2, seed=0, deck=deck)
    >>> [format_cards(hand) for hand in state.hands]
    ['Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc', 'Ad 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd']
    >>> state.open_card, state.stock[0]
    (Card.parse('Ah'), Card.parse('2h'))

    Args:
        variant: a variant or registered name.
        players: the player count.

    Raises:
        UnknownVariantError: the name is not registered.
        ConfigurationError: a bad player count.
    """
    if isinstance(variant, str):
        variant = get_variant(variant)
    players = variant.check_players(players)
    deck = variant.deck_for(players)
    size = variant.hand_size_for(players)
    dealt = players * size
    # Dealing is round-robin from player 0: the i-th card dealt goes to player i % players.
    front = [deck[(index % players) * size + index // players] for index in range(dealt)]
    return (*front, *deck[dealt:])


#: How many moves :func:`games` plays at most to reach a wanted state, unless told.
STEERING_BUDGET: Final = 200

#: Out of ``GUIDE_ODDS + 1`` steered moves, about one leaves the greedy guide for another
#: legal move; shrinking brings every move back to the guide's.
GUIDE_ODDS: Final = 4

#: How many of a state's listed moves steering tries for one that reaches a wanted state (a
#: Turkish hand rich in melds lists hundreds of lay-downs).
LOOKAHEAD: Final = 32

#: How many matches :func:`games` keeps the explored states of (see :class:`_Step`).
_KEPT_MATCHES: Final = 8


class _Step:
    """A state met while steering, with the states its moves lead to, computed once.

    Shrinking replays the same matches hundreds of times with small changes; keeping what was
    explored (the greedy move, the legal moves' results) makes a replay of a known line cost
    look-ups instead of moves.
    """

    __slots__ = ("_after", "_guided", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._after: dict[int, _Step] = {}
        self._guided: _Step | None = None

    def after(self, index: int) -> _Step:
        """The step after the ``index``-th legal action."""
        step = self._after.get(index)
        if step is None:
            step = _Step(self.state.apply(self.state.legal_actions()[index]))
            self._after[index] = step
        return step

    def guided(self) -> _Step:
        """The step after the greedy player's move."""
        if self._guided is None:
            state = self.state
            move = _GUIDE.choose(state.observation(state.to_act[0]))
            self._guided = _Step(state.apply(move))
        return self._guided


_GUIDE: Final = GreedyBot()
_MATCHES: Final[OrderedDict[tuple[Variant, int, int, bool], _Step]] = OrderedDict()


def _start(variant: Variant, players: int, seed: int, is_sorted: bool) -> _Step:
    key = (variant, players, seed, is_sorted)
    step = _MATCHES.get(key)
    if step is None:
        deck = sorted_deal(variant, players) if is_sorted else None
        step = _Step(new_game(variant, players=players, seed=seed, deck=deck))
        _MATCHES[key] = step
        while len(_MATCHES) > _KEPT_MATCHES:
            _MATCHES.popitem(last=False)
    else:
        _MATCHES.move_to_end(key)
    return step


@st.composite
def _deal(
    draw: st.DrawFn, variant: Variant | None, players: int | None, *, sorted_deals: bool
) -> _Step:
    """A new match: a variant, a player count, then a seeded shuffle or the sorted deal."""
    chosen = draw(variants(players=players)) if variant is None else variant
    count = (
        draw(st.integers(chosen.min_players, chosen.max_players)) if players is None else players
    )
    # About one match in four starts with the sorted deal, and examples shrink to it.
    is_sorted = sorted_deals and draw(st.integers(0, 3)) == 0
    seed = draw(st.integers(0, 2**32 - 1))
    return _start(chosen, count, seed, is_sorted)


def _random_play(draw: st.DrawFn, state: GameState, max_actions: int) -> GameState:
    choices = draw(st.lists(st.integers(0, 2**16), max_size=max_actions))
    for choice in choices:
        if state.is_over:
            break
        moves = state.legal_actions()
        state = state.apply(moves[choice % len(moves)])
    return state


def _reaching(step: _Step, target: Callable[[GameState], bool]) -> list[_Step]:
    """The steps after the first ``LOOKAHEAD`` legal actions that meet ``target``."""
    count = min(len(step.state.legal_actions()), LOOKAHEAD)
    return [after for after in map(step.after, range(count)) if target(after.state)]


def _steer(draw: st.DrawFn, step: _Step, target: Callable[[GameState], bool], budget: int) -> _Step:
    """Play towards ``target``: greedy moves, a few others, and any move that gets there.

    A listed move that reaches a wanted state is taken; so is the first listed move when a
    move after it does (a draw before a declaration). Otherwise the greedy player moves, or,
    about once in ``GUIDE_ODDS + 1`` times, any legal move. Every choice is a draw that
    shrinks to the first option, so shrinking shortens the line as far as steering allows.
    """
    for _ in range(budget):
        if target(step.state):
            return step
        if step.state.is_over:
            break
        reaching = _reaching(step, target)
        if reaching:
            return draw(st.sampled_from(reaching))
        first = step.after(0)
        if _reaching(first, target):
            step = first  # two moves away, through the first listed move
        elif draw(st.integers(0, GUIDE_ODDS)) < GUIDE_ODDS:
            step = step.guided()
        else:
            step = step.after(draw(st.integers(0, len(step.state.legal_actions()) - 1)))
    if not target(step.state):
        reject()  # the budget ran out (or the match ended) before the state was reached
    return step


def _linger(
    draw: st.DrawFn, step: _Step, target: Callable[[GameState], bool], most: int
) -> GameState:
    """Up to ``most`` further legal moves, as long as each leads to a state meeting ``target``."""
    for choice in draw(st.lists(st.integers(0, 2**16), max_size=most)):
        count = len(step.state.legal_actions())
        if count == 0:
            break
        after = step.after(choice % count)
        if not target(after.state):
            break
        step = after
    return step.state


@st.composite
def _game(
    draw: st.DrawFn,
    variant: Variant | None,
    players: int | None,
    *,
    max_actions: int,
    target: Callable[[GameState], bool] | None,
    max_actions_after: int,
) -> GameState:
    start = draw(_deal(variant, players, sorted_deals=target is not None))
    if target is None:
        return _random_play(draw, start.state, max_actions)
    reached = _steer(draw, start, target, max_actions)
    return _linger(draw, reached, target, max_actions_after)


def _read_phases(phase: object) -> frozenset[PhaseBase] | None:
    if phase is None:
        return None
    if isinstance(phase, PhaseBase):
        return frozenset({phase})
    if isinstance(phase, Collection) and not isinstance(phase, str):
        phases = frozenset(phase)
        if phases and all(isinstance(one, PhaseBase) for one in phases):
            return phases
    msg = f"phase must be a Phase or a collection of them, not {phase!r}"
    raise ConfigurationError(msg)


def _read_count(name: str, value: object, *, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        msg = f"{name} must be a whole number of at least {low}, not {value!r}"
        raise ConfigurationError(msg)
    return value


def _target(
    phases: frozenset[PhaseBase] | None, where: Callable[[GameState], object] | None
) -> Callable[[GameState], bool] | None:
    if phases is None and where is None:
        return None

    def target(state: GameState) -> bool:
        if phases is not None and state.phase not in phases:
            return False
        return where is None or bool(where(state))

    return target


def games(
    variant: Variant | str | None = None,
    *,
    players: int | None = None,
    max_actions: int | None = None,
    phase: PhaseBase | Collection[PhaseBase] | None = None,
    where: Callable[[GameState], object] | None = None,
    max_actions_after: int = 10,
) -> st.SearchStrategy[GameState]:
    """States reachable by legal play: a deal, then legal moves, optionally to a wanted state.

    Without ``phase`` or ``where``: a seeded deal (the seed makes every later shuffle too),
    then up to ``max_actions`` (default 60) moves, each drawn as an index into
    :meth:`~rummylib.state.GameState.legal_actions`: examples shrink towards the start of
    the match and the first listed action.

    With ``phase`` (a :class:`~rummylib.engine.PhaseBase`: a core or a variant's phase, or
    several) and/or ``where`` (a predicate on states), about one deal in four is the
    :func:`sorted_deal`, and play is *steered* to a wanted state instead of filtered: a greedy
    player (:class:`~rummylib.bots.GreedyBot`) makes most moves, about one in five is another legal
    move, and any legal move that reaches a wanted state is taken at once. Once there, up to
    ``max_actions_after`` further moves are drawn among those that keep the state wanted
    (other players showing their melds, more lay-downs). A state not reached within
    ``max_actions`` moves (default 200) is rejected, so ask only for states the variant has
    (``KNOCK_CHOICE`` is Carousel's). Examples shrink to the sorted deal and the fewest moves:
    here a Rummy 101 declaration on the first turn.

    >>> import hypothesis  # (its Phase, of a test run, is not rummylib's Phase, of a game)
    >>> from hypothesis import find, settings
    >>> # No replay of saved examples, and no "explain" phase (it only annotates a report):
    >>> fresh = settings(
    ...     max_examples=200,
    ...     database=None,
    ...     phases=[hypothesis.Phase.generate, hypothesis.Phase.shrink],
    ... )
    >>> state = find(games("rummy101", players=2), lambda s: len(s.history) >= 3, settings=fresh)
    >>> len(state.history), state.player_count
    (3, 2)
    >>> from rummylib.variants.israeli import IsraeliPhase
    >>> wanted = games("rummy101", players=2, phase=IsraeliPhase.SHOW_MELDS)
    >>> state = find(wanted, lambda state: True, settings=fresh)
    >>> [type(action).__name__ for action in state.history]
    ['DrawStock', 'DeclareRummy']
    >>> declaration = state.history[-1]
    >>> str(declaration.discard), [str(meld) for meld in declaration.melds]
    ('2h', ['Ac 2c 3c', '4c 5c 6c', '7c 8c 9c', 'Tc Jc Qc Kc'])
    >>> state.phase, state.to_act
    (<IsraeliPhase.SHOW_MELDS: 'show_melds'>, (1,))

    Args:
        variant: a variant or registered name; ``None`` draws one of :func:`variants`.
        players: the player count; ``None`` draws one in the variant's range (fewest first).
        max_actions: the most moves played from the deal (to reach the wanted state, with
            ``phase`` or ``where``).
        phase: the wanted phase, or a collection of phases any of which will do.
        where: a predicate the wanted state meets, e.g. ``lambda state: state.table`` for
            melds on the table.
        max_actions_after: the most moves played on within the wanted states.

    Raises:
        UnknownVariantError: the variant name is not registered.
        ConfigurationError: a bad player count, phase, predicate or number of moves.
    """
    if isinstance(variant, str):
        variant = get_variant(variant)
    if variant is not None and players is not None:
        variant.check_players(players)
    elif players is not None:
        variants(players=players)  # some variant must seat them
    phases = _read_phases(phase)
    if where is not None and not callable(where):
        msg = f"where must be a predicate on states, not {where!r}"
        raise ConfigurationError(msg)
    target = _target(phases, where)
    if max_actions is None:
        max_actions = 60 if target is None else STEERING_BUDGET
    max_actions = _read_count("max_actions", max_actions)
    max_actions_after = _read_count("max_actions_after", max_actions_after)
    return _game(
        variant,
        players,
        max_actions=max_actions,
        target=target,
        max_actions_after=max_actions_after,
    )


@st.composite
def _observation(draw: st.DrawFn, states: st.SearchStrategy[GameState]) -> Observation:
    state = draw(states)
    player = draw(st.integers(0, state.player_count - 1))
    return state.observation(player)


def observations(
    variant: Variant | str | None = None,
    *,
    players: int | None = None,
    max_actions: int | None = None,
    phase: PhaseBase | Collection[PhaseBase] | None = None,
    where: Callable[[GameState], object] | None = None,
    max_actions_after: int = 10,
) -> st.SearchStrategy[Observation]:
    """What one player sees of a state from :func:`games`, for testing bots and views.

    The arguments are those of :func:`games`; the seat is any of the table, shrinking towards
    player 0.

    >>> from hypothesis import Phase, find, settings
    >>> # No replay of saved examples, and no "explain" phase (it only annotates a report):
    >>> fresh = settings(max_examples=200, database=None, phases=[Phase.generate, Phase.shrink])
    >>> seen = find(observations("carousel"), lambda seen: seen.player == 1, settings=fresh)
    >>> seen.player, seen.hand_sizes, seen.legal_actions
    (1, (10, 10), ())

    Raises:
        UnknownVariantError: the variant name is not registered.
        ConfigurationError: a bad player count, phase, predicate or number of moves.
    """
    return _observation(
        games(
            variant,
            players=players,
            max_actions=max_actions,
            phase=phase,
            where=where,
            max_actions_after=max_actions_after,
        )
    )


# -- moves that fit a state ------------------------------------------------------------------


def _melds_field(action: Action) -> str | None:
    """The name of the action's melds field (its verb's ``| {melds}``), if it has one."""
    return spec_of(type(action)).melds


def _reordered(action: Action, order: Sequence[int]) -> Action:
    field = _melds_field(action)
    if field is None:
        return action
    melds = getattr(action, field)
    changes: dict[str, Any] = {field: tuple(melds[index] for index in order)}
    return attrs.evolve(action, **changes)


def _meld_count(action: Action) -> int:
    field = _melds_field(action)
    return 0 if field is None else len(getattr(action, field))


@st.composite
def _legal_action(draw: st.DrawFn, listed: tuple[Action, ...], reorder_melds: bool) -> Action:
    action = draw(st.sampled_from(listed))
    count = _meld_count(action)
    if reorder_melds and count > 1:
        action = _reordered(action, draw(st.permutations(range(count))))
    return action


def legal_actions(
    state: GameState, player: int | None = None, *, reorder_melds: bool = True
) -> st.SearchStrategy[Action]:
    """A legal action in ``state``: one of its listed actions (of ``player``, if given).

    An action that carries several melds may come with them in another order: the same cards
    shown the same way, which the rules accept too, so a server must not insist on the listed
    order (``reorder_melds=False`` keeps it).
    Examples shrink towards the first listed action; the strategy is empty when nobody (or
    not ``player``) may act.

    >>> from hypothesis import Phase, find, settings
    >>> # No replay of saved examples, and no "explain" phase (it only annotates a report):
    >>> fresh = settings(max_examples=200, database=None, phases=[Phase.generate, Phase.shrink])
    >>> state = new_game("rummy101", players=2, seed=5)
    >>> find(legal_actions(state), lambda action: True, settings=fresh)
    DrawStock(player=0)
    >>> legal_actions(state, player=1).is_empty
    True

    Args:
        state: the state to act in.
        player: whose actions; ``None`` for everyone who may act now.
        reorder_melds: whether melds of an action may come in another order.
    """
    listed = state.legal_actions(player)
    if not listed:
        return st.nothing()
    return _legal_action(listed, reorder_melds)


class Refusal(enum.Enum):
    """Why an action from :func:`illegal_actions` must be refused: how it was built.

    >>> Refusal("not_your_turn")
    <Refusal.NOT_YOUR_TURN: 'not_your_turn'>
    """

    #: A legal move of someone who may act, made by a seated player who may not act now.
    NOT_YOUR_TURN = "not_your_turn"
    #: A move of a player who must act, of a kind none of their legal moves is now (a discard
    #: before taking a card, a draw after it, a pass or a knock the rules do not offer).
    WRONG_PHASE = "wrong_phase"
    #: A legal discard or lay-off (or a declaration's finishing card) with the card replaced
    #: by one the player does not hold.
    CARD_NOT_HELD = "card_not_held"
    #: A lay-off onto a table meld that does not exist (the index is out of range).
    NO_SUCH_MELD = "no_such_meld"
    #: Taking no cards, or more cards than the discard pile holds.
    BAD_COUNT = "bad_count"
    #: A legal move, made by a seat beyond the table.
    NO_SUCH_PLAYER = "no_such_player"
    #: Any move once the match is over.
    MATCH_OVER = "match_over"
    #: A move that carries melds (a lay-down, a declaration, a new table) with one of them not
    #: a meld: a listed move with a meld cut to fewer cards than a meld needs, or a move of a
    #: kind the phase allows whose one meld is that many cards from the player's hand.
    INVALID_MELD = "invalid_meld"


def _bare_moves() -> list[type[Action]]:
    """The registered moves with no field but the player's (host events are not moves).

    :data:`Refusal.WRONG_PHASE` tries each.
    """
    bare = [spec.cls for spec in specs() if not spec.codecs and not spec.cls.host_event]
    return sorted(bare, key=_table_order)


def _table_order(kind: type[Action]) -> int:
    """Where a kind's first block stands in the env action tables (simplest moves first)."""
    return min((block.order for block in kind.env_blocks), default=1000)


def _flag_moves() -> list[tuple[type[Action], str]]:
    """The registered moves whose one field is a flag, with its name (a Frish answer)."""
    return [
        (spec.cls, spec.codecs[0][0])
        for spec in specs()
        if len(spec.codecs) == 1 and spec.codecs[0][1] is Codec.FLAG
    ]


def _not_held(hand: Sequence[Card], *, jokers: bool) -> list[Card]:
    """A few cards ``hand`` does not hold: the first absent naturals, and the joker."""
    held = set(hand)
    absent = [card for card in CARDS[:JOKER_INDEX] if card not in held][:2]
    if jokers and JOKER not in held:
        absent.append(JOKER)
    return absent


def _change(field: str, value: object) -> dict[str, Any]:
    return {field: value}


def _with_other_card(action: Action, hand: Sequence[Card]) -> list[Action]:
    """The action with a card it names (not one declaring a joker) replaced by one not held."""
    for part in spec_of(type(action)).words:
        if isinstance(part, str) or part.codec is not Codec.CARD:
            continue
        if part.declared is not None and getattr(action, part.declared) is not None:
            continue
        others = _not_held(hand, jokers=part.declared is None)
        return [attrs.evolve(action, **_change(part.field, card)) for card in others]
    return []


def _wrong_phase(state: GameState, player: int) -> list[Action]:
    kinds = {type(action) for action in state.legal_actions(player)}
    moves: list[Action] = [kind(player=player) for kind in _bare_moves() if kind not in kinds]
    for kind, field in _flag_moves():
        if kind not in kinds:
            moves += [kind(player=player, **{field: answer}) for answer in (False, True)]
    if TakeDiscard not in kinds:
        moves.append(TakeDiscard(player=player))
    if Discard not in kinds:
        held = sorted(set(state.hands[player]), key=lambda card: card.index)
        moves += [Discard(player=player, card=card) for card in held]
    return moves


def _lay_off_nowhere(state: GameState, player: int) -> list[Action]:
    hand = state.hands[player]
    if not hand:
        return []
    card = min(hand, key=lambda card: card.index)
    stands_for = CARDS[0] if card.is_joker else None
    size = len(state.table)
    return [
        LayOff(player=player, card=card, meld_index=index, stands_for=stands_for)
        for index in (size, size + 1, -1)
    ]


def _cut(meld: Meld, size: int) -> Meld:
    """The meld's first ``size`` cards, as a meld that is not one (too few cards)."""
    return Meld(meld.kind, meld.cards[:size], meld.stands_for[:size])


def _with_broken_meld(action: Action, size: int) -> list[Action]:
    """The action with each of its (up to three first) melds in turn cut to ``size`` cards."""
    field = _melds_field(action)
    if field is None or size < 1:
        return []
    melds: tuple[Meld, ...] = getattr(action, field)
    broken = []
    for index, meld in enumerate(melds[:3]):
        if len(meld.cards) > size:
            cut = (*melds[:index], _cut(meld, size), *melds[index + 1 :])
            broken.append(attrs.evolve(action, **_change(field, cut)))
    return broken


def _melds_from_hand(state: GameState, player: int, size: int) -> list[Action]:
    """A move of each meld-carrying kind the phase allows, with ``size`` hand cards as a meld.

    Its other fields: a card is another card of the hand (a declaration's finishing card); a
    move whose melds are the whole new table (``table``) keeps the table's melds too.
    """
    hand = sorted(set(state.hands[player]), key=lambda card: card.index)
    naturals = [card for card in hand if not card.is_joker]
    if size < 1 or len(naturals) < size:
        return []
    cards = tuple(naturals[:size])
    bad = Meld(MeldKind.GROUP, cards, cards)
    spare = next((card for card in naturals[size:]), None)
    allowed = state.variant.phase_actions.get(state.phase, ())
    moves: list[Action] = []
    for kind in allowed:
        spec = spec_of(kind)
        if spec.melds is None:
            continue
        fields: dict[str, Any] = {"player": player}
        for name, codec in spec.codecs:
            if name == spec.melds:
                fields[name] = (*state.table, bad) if name == "table" else (bad,)
            elif codec is Codec.CARD and spare is not None:
                fields[name] = spare
            elif codec not in {Codec.OPTIONAL_CARD, Codec.END}:
                break  # a field this cannot fill: no such move
        else:
            moves.append(kind(**fields))
    return moves


def _refusals(state: GameState) -> list[tuple[Action, Refusal]]:
    """Every illegal action :func:`illegal_actions` draws from, with its kind, simplest first."""
    seats = range(state.player_count)
    if state.is_over:
        return [(DrawStock(player=player), Refusal.MATCH_OVER) for player in seats] + [
            (Pass(player=player), Refusal.MATCH_OVER) for player in seats
        ]
    listed = state.legal_actions()
    found: list[tuple[Action, Refusal]] = []
    waiting = [player for player in seats if player not in state.to_act]
    found += [
        (attrs.evolve(action, player=player), Refusal.NOT_YOUR_TURN)
        for player in waiting
        for action in listed
    ]
    for player in state.to_act:
        found += [(action, Refusal.WRONG_PHASE) for action in _wrong_phase(state, player)]
    for action in listed:
        found += [
            (changed, Refusal.CARD_NOT_HELD)
            for changed in _with_other_card(action, state.hands[action.player])
        ]
    for player in state.to_act:
        found += [(action, Refusal.NO_SUCH_MELD) for action in _lay_off_nowhere(state, player)]
        size = len(state.discard_pile)
        found += [
            (TakeDiscard(player=player, count=count), Refusal.BAD_COUNT)
            for count in (size + 1, 0, -1)
        ]
    found += [
        (attrs.evolve(action, player=state.player_count + extra), Refusal.NO_SUCH_PLAYER)
        for extra in (0, 1)
        for action in listed[:3]
    ]
    short = state.meld_rules.min_size - 1  # one card fewer than a meld has
    for action in listed:
        found += [(broken, Refusal.INVALID_MELD) for broken in _with_broken_meld(action, short)]
    for player in state.to_act:
        found += [
            (action, Refusal.INVALID_MELD) for action in _melds_from_hand(state, player, short)
        ]
    return found


def illegal_actions(
    state: GameState, kinds: Refusal | Collection[Refusal] | None = None
) -> st.SearchStrategy[tuple[Action, Refusal]]:
    """An action ``state`` must refuse, with the :class:`Refusal` it was built to break.

    Each is a well-formed action with one thing wrong: a legal move made by someone who may
    not act, a kind of move the player has no legal instance of now, a card the player does
    not hold, a meld index or a count that does not fit, a seat beyond the table, or any move
    after the end. (What the engine says is in the :class:`~rummylib.errors.IllegalActionError`
    it raises; the kind is for the caller's own error codes.) A kind is drawn first, each of
    those the state has as likely as any other, then a class of action among that kind's,
    then an action of that class: a rare mistake (drawing twice) is tried about as often as
    one with many instances (each card not held).
    Examples shrink towards the first kind in :class:`Refusal` order that the state has; the
    strategy is empty when no action of the wanted kinds fits.

    >>> from hypothesis import Phase, find, settings
    >>> # No replay of saved examples, and no "explain" phase (it only annotates a report):
    >>> fresh = settings(max_examples=200, database=None, phases=[Phase.generate, Phase.shrink])
    >>> state = new_game("rummy101", players=2, seed=5)
    >>> find(illegal_actions(state), lambda pair: True, settings=fresh)
    (DrawStock(player=1), <Refusal.NOT_YOUR_TURN: 'not_your_turn'>)
    >>> action, kind = find(illegal_actions(state, Refusal.WRONG_PHASE), bool, settings=fresh)
    >>> state.verify(action)
    Traceback (most recent call last):
    ...
    rummylib.errors.IllegalActionError: Knock is not a move of the draw phase

    Args:
        state: the state that must refuse the action.
        kinds: the kinds wanted (one or a collection); ``None`` for all.

    Raises:
        ConfigurationError: ``kinds`` is not a :class:`Refusal` or a collection of them.
    """
    if kinds is None:
        wanted = frozenset(Refusal)
    elif isinstance(kinds, Refusal):
        wanted = frozenset({kinds})
    elif isinstance(kinds, Collection) and all(isinstance(kind, Refusal) for kind in kinds):
        wanted = frozenset(kinds)
    else:
        msg = f"kinds must be a Refusal or a collection of them, not {kinds!r}"
        raise ConfigurationError(msg)
    # kind -> action class -> the actions, each level in first-seen order (kinds by Refusal).
    grouped: dict[Refusal, dict[type[Action], list[tuple[Action, Refusal]]]] = {}
    for pair in _refusals(state):
        if pair[1] in wanted:
            grouped.setdefault(pair[1], {}).setdefault(type(pair[0]), []).append(pair)
    if not grouped:
        return st.nothing()

    def of_kind(kind: Refusal) -> st.SearchStrategy[tuple[Action, Refusal]]:
        classes = grouped[kind]
        return st.sampled_from(list(classes)).flatmap(lambda cls: st.sampled_from(classes[cls]))

    return st.sampled_from([kind for kind in Refusal if kind in grouped]).flatmap(of_kind)


# -- type strategies -------------------------------------------------------------------------


def for_type(thing: type[Any]) -> st.SearchStrategy[Any]:
    """The strategy rummylib registers with Hypothesis for the type ``thing``.

    rummylib's entry point in the ``hypothesis`` group registers these when Hypothesis
    starts (``st.from_type(Card)``, ``@given`` with annotations), and imports this module
    only when one of them is first used:

    ========================================= ==================================================
    type                                      strategy
    ========================================= ==================================================
    :class:`~rummylib.cards.Card`             :func:`cards`
    :class:`~rummylib.melds.Meld`             :func:`melds` under the default ``MeldRules()``
    :class:`~rummylib.melds.MeldRules`        :func:`meld_rules`
    :class:`~rummylib.scoring.CardPoints`     :func:`card_points`
    :class:`~rummylib.engine.Variant`         :func:`variants`
    :class:`~rummylib.state.GameState`        :func:`games`
    :class:`~rummylib.views.Observation`      :func:`observations`
    each action class, and ``PlayerAction``   :func:`actions` of that class (of any)
    ========================================= ==================================================

    A generic form stands for its class: ``GameState[Any]`` is ``GameState``, ``Variant[Any]``
    is ``Variant``.

    >>> from hypothesis import Phase, find, settings
    >>> # No replay of saved examples, and no "explain" phase (it only annotates a report):
    >>> fresh = settings(max_examples=200, database=None, phases=[Phase.generate, Phase.shrink])
    >>> find(for_type(Card), lambda card: True, settings=fresh)
    Card.parse('Ac')
    >>> for_type(int)
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: rummylib registers no strategy for <class 'int'>

    Raises:
        ConfigurationError: ``thing`` is not one of the types above.
    """
    thing = typing.get_origin(thing) or thing
    simple: dict[type[Any], Callable[[], st.SearchStrategy[Any]]] = {
        Card: cards,
        Meld: lambda: melds(MeldRules()),
        MeldRules: meld_rules,
        CardPoints: card_points,
        Variant: variants,
        GameState: games,
        Observation: observations,
        PlayerAction: actions,
    }
    if thing in simple:
        return simple[thing]()
    if thing in ACTION_TYPES.values():
        return actions(thing)
    msg = f"rummylib registers no strategy for {thing!r}"
    raise ConfigurationError(msg)
