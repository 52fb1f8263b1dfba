"""Hypothesis strategies for property tests of code that uses rummylib.

Every strategy builds its values constructively (it picks a rank, then suits, then where the
jokers go), so nothing is filtered away and each example shrinks towards the simplest case:
clubs before spades, low ranks first, no jokers, the default :class:`~rummylib.melds.MeldRules`.
This module needs Hypothesis (``pip install 'rummylib[test]'``); nothing in rummylib imports it.

>>> from hypothesis import given
>>> rules = MeldRules(joker_beside_ace=False)
>>> @given(melds(rules))
... def test_a_meld_keeps_its_cards(meld: Meld) -> None:
...     assert is_meld(reversed(meld.cards), rules)
>>> test_a_meld_keeps_its_cards()
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from hypothesis import strategies as st

from rummylib.cards import CARDS, JOKER, JOKER_INDEX, Card, Rank, Suit, make_deck
from rummylib.errors import ConfigurationError
from rummylib.melds import AceRule, Meld, MeldKind, MeldRules, rank_at
from rummylib.state import GameState, new_game
from rummylib.variants import VARIANTS, Variant, get_variant

__all__ = ["cards", "games", "hands", "meld_rules", "melds", "variants"]

#: Hand sizes :func:`hands` draws by default: empty up to the 14 cards of a full Israeli turn.
DEFAULT_HAND_SIZE: Final = (0, 14)

#: Groups bigger than this many cards above the smallest meld are not generated (only rules
#: without ``group_distinct_suits`` allow them, and they make examples slow to read).
GROUP_SIZE_SPREAD: Final = 8


def cards(*, jokers: bool = True) -> st.SearchStrategy[Card]:
    """One card, natural or (unless ``jokers=False``) the joker.

    Examples shrink towards the ace of clubs.

    >>> from hypothesis import find, settings
    >>> fresh = settings(max_examples=2000, database=None)  # no replay of saved examples
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

    >>> from hypothesis import find, settings
    >>> fresh = settings(max_examples=2000, database=None)  # no replay of saved examples
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

    >>> from hypothesis import find, settings
    >>> fresh = settings(max_examples=2000, database=None)  # no replay of saved examples
    >>> find(meld_rules(), lambda rules: True, settings=fresh) == MeldRules()
    True
    >>> find(meld_rules(), lambda rules: rules.ace is AceRule.WRAP, settings=fresh)
    MeldRules(min_size=3, max_group_size=4, group_distinct_suits=True,
              ace=<AceRule.WRAP: 'wrap'>, min_naturals=1, joker_beside_ace=True,
              max_run_size=None)
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

    >>> from hypothesis import find, settings
    >>> fresh = settings(max_examples=2000, database=None)  # no replay of saved examples
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


def variants() -> st.SearchStrategy[Variant]:
    """Every registered variant, with its default settings.

    >>> from hypothesis import find, settings
    >>> fresh = settings(max_examples=200, database=None)
    >>> find(variants(), lambda variant: variant.name == "rummy71", settings=fresh).name
    'rummy71'
    """
    return st.sampled_from(sorted(VARIANTS)).map(get_variant)


@st.composite
def _game(
    draw: st.DrawFn, variant: Variant | str | None, players: int | None, max_actions: int
) -> GameState:
    chosen = draw(variants()) if variant is None else variant
    if isinstance(chosen, str):
        chosen = get_variant(chosen)
    count = (
        draw(st.integers(chosen.min_players, chosen.max_players)) if players is None else players
    )
    seed = draw(st.integers(0, 2**32 - 1))
    choices = draw(st.lists(st.integers(0, 2**16), max_size=max_actions))
    state = new_game(chosen, players=count, seed=seed)
    for choice in choices:
        if state.is_over:
            break
        actions = state.legal_actions()
        state = state.apply(actions[choice % len(actions)])
    return state


def games(
    variant: Variant | str | None = None, *, players: int | None = None, max_actions: int = 60
) -> st.SearchStrategy[GameState]:
    """States reachable by legal play: a seeded deal, then up to ``max_actions`` legal moves.

    Each move is drawn as an index into :meth:`~rummylib.state.GameState.legal_actions`, so
    examples shrink towards the start of the match and towards the first listed action.

    >>> from hypothesis import find, settings
    >>> fresh = settings(max_examples=200, database=None)
    >>> state = find(games("rummy101", players=2), lambda s: len(s.history) >= 3, settings=fresh)
    >>> len(state.history), state.player_count
    (3, 2)

    Args:
        variant: a variant or registered name; ``None`` draws one of :func:`variants`.
        players: the player count; ``None`` draws one in the variant's range.
        max_actions: the most moves played from the deal.
    """
    if isinstance(variant, str):
        variant = get_variant(variant)
    if variant is not None and players is not None:
        variant.check_players(players)
    return _game(variant, players, max_actions)
