"""The fast paths of ``rummylib.melds`` and ``rummylib.table`` agree with the plain code.

The meld machinery has precomputed tables, bounded caches and quick tests that skip work.
Each test here holds one fast path to the straightforward code it replaced, copied below as
the ``reference_*`` functions (the code of commit 8f5d784, before the fast paths): the same
readings, the same refusal messages, the same melds in the same order.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from hypothesis import given
from hypothesis import strategies as st

from rummylib import (
    JOKER,
    AceRule,
    Card,
    InvalidMeldError,
    Meld,
    MeldKind,
    MeldRules,
    _table_solver,
    new_game,
)
from rummylib._complete import may_meld_card
from rummylib.actions import Action, LayDown, LayOff, Rearrange
from rummylib.cards import CARDS, JOKER_INDEX, Rank, Suit, format_cards, make_deck
from rummylib.engine import Variant, remove_cards
from rummylib.melds import Extension, RunEnd, extension_cards, extensions, find_melds, rank_at
from rummylib.state import GameState
from rummylib.strategies import cards as any_card
from rummylib.strategies import hands, meld_rules, melds
from rummylib.table import JokerReplacementSource, rearrangement_refusal
from rummylib.variants.carousel import Carousel
from rummylib.variants.turkish import Turkish500

# -- the reference code ---------------------------------------------------------------------

_SUITS = tuple(Suit)
_SUIT_ORDER = {suit: number for number, suit in enumerate(_SUITS)}


def reference_rank_at(position: int) -> Rank:
    return Rank((position - 1) % 13 + 1)


def _card(rank: int, suit: Suit) -> Card:
    return CARDS[13 * _SUIT_ORDER[suit] + rank - 1]


def _failure(shown: Sequence[Card] | Sequence[str], reason: str) -> str:
    return " ".join(str(item) for item in shown) + f" is not a meld: {reason}"


def reference_read(  # noqa: PLR0911, PLR0917  (the reference keeps the old shape)
    naturals: Sequence[Card],
    declared: Sequence[Card],
    free_jokers: int,
    rules: MeldRules,
    kind: MeldKind | None,
    shown: Sequence[Card] | Sequence[str],
) -> Meld | str:
    """The old ``_read``: the preferred reading, or the refusal message."""
    size = len(naturals) + len(declared) + free_jokers
    if size < rules.min_size:
        return _failure(shown, f"too few cards ({size}, at least {rules.min_size})")
    if len(naturals) < rules.min_naturals:
        reason = f"not enough natural cards ({len(naturals)}, at least {rules.min_naturals})"
        return _failure(shown, reason)
    fixed = [*naturals, *declared]
    single_rank = len({card.rank for card in fixed}) == 1
    single_suit = len({card.suit for card in fixed}) == 1
    reasons: list[str] = []
    if single_rank and kind is not MeldKind.RUN:
        group = _reference_group(naturals, declared, free_jokers, rules)
        if isinstance(group, Meld):
            return group
        reasons.append(group)
    if single_suit and kind is not MeldKind.GROUP:
        run = _reference_run(naturals, declared, free_jokers, rules)
        if isinstance(run, Meld):
            return run
        reasons.append(run)
    if reasons:
        return _failure(shown, reasons[0])
    if kind is MeldKind.GROUP:
        return _failure(shown, "a group needs cards of one rank")
    if kind is MeldKind.RUN:
        return _failure(shown, "a run needs cards of one suit")
    return _failure(shown, "mixed suits and ranks: a group needs one rank, a run one suit")


def _reference_group(
    naturals: Sequence[Card], declared: Sequence[Card], free_jokers: int, rules: MeldRules
) -> Meld | str:
    size = len(naturals) + len(declared) + free_jokers
    if size > rules.max_group_size:
        return f"group too large ({size} cards, at most {rules.max_group_size})"
    rank = (naturals or declared)[0].rank
    assert rank is not None
    counts = Counter(card.suit for card in (*naturals, *declared))
    if rules.group_distinct_suits:
        seen: set[Card] = set()
        for card in (*naturals, *declared):
            if card in seen:
                return f"duplicate card in a group: {card}"
            seen.add(card)
    filled: list[Card] = []
    for _ in range(free_jokers):
        suit = min(_SUITS, key=lambda suit: (counts[suit], _SUIT_ORDER[suit]))
        counts[suit] += 1
        filled.append(_card(rank, suit))
    items = [(card, card) for card in naturals]
    items += [(JOKER, stands) for stands in (*declared, *filled)]
    items.sort(key=lambda item: (item[1].index, item[0].is_joker))
    return Meld(MeldKind.GROUP, [item[0] for item in items], [item[1] for item in items])


def _reference_fits(ranks: Sequence[int], size: int, starts: Iterable[int]) -> bool:
    for start in starts:
        window = {int(reference_rank_at(position)) for position in range(start, start + size)}
        if all(rank in window for rank in ranks):
            return True
    return False


def _reference_run(  # noqa: PLR0911, PLR0912  (the reference keeps the old shape)
    naturals: Sequence[Card], declared: Sequence[Card], free_jokers: int, rules: MeldRules
) -> Meld | str:
    size = len(naturals) + len(declared) + free_jokers
    if size > rules.longest_run:
        return f"run too long ({size} cards, at most {rules.longest_run})"
    suit = (naturals or declared)[0].suit
    assert suit is not None
    is_joker_at: dict[int, bool] = {}
    for card, joker in [(card, False) for card in naturals] + [(card, True) for card in declared]:
        assert card.rank is not None
        if card.rank in is_joker_at:
            return f"duplicate rank in a run: {card}"
        is_joker_at[card.rank] = joker
    best: tuple[tuple[int, int], list[Card], list[Card]] | None = None
    failure: tuple[tuple[int, int], str] | None = None
    for start in rules.run_starts(size):
        ranks = [int(reference_rank_at(position)) for position in range(start, start + size)]
        if any(rank not in ranks for rank in is_joker_at):
            continue
        jokers = [is_joker_at.get(rank, True) for rank in ranks]
        key = (jokers.index(False), start)
        reason = ""
        if not rules.joker_beside_ace:
            for offset, rank in enumerate(ranks):
                if rank != Rank.ACE:
                    continue
                if jokers[offset]:
                    reason = "joker standing for an ace"
                    break
                neighbours = [jokers[i] for i in (offset - 1, offset + 1) if 0 <= i < size]
                if any(neighbours):
                    reason = "joker beside an ace"
                    break
        if reason:
            if failure is None or key < failure[0]:
                failure = (key, reason)
            continue
        if best is None or key < best[0]:
            stands = [_card(rank, suit) for rank in ranks]
            cards = [JOKER if joker else card for joker, card in zip(jokers, stands, strict=True)]
            best = (key, cards, stands)
    if best is not None:
        return Meld(MeldKind.RUN, best[1], best[2])
    if failure is not None:
        return failure[1]
    fixed = list(is_joker_at)
    if rules.ace is AceRule.LOW and _reference_fits(fixed, size, range(2, 16 - size)):
        return "the ace ranks low only (A-2-3), not high"
    if rules.ace is AceRule.HIGH and _reference_fits(fixed, size, range(1, 15 - size)):
        return "the ace ranks high only (Q-K-A), not low"
    if rules.ace is not AceRule.WRAP and _reference_fits(fixed, size, range(1, 14)):
        return "wraps past the ace"
    wanted = set(fixed)
    for length in range(len(wanted), 14):
        for start in rules.run_starts(length):
            positions = [
                position
                for position in range(start, start + length)
                if reference_rank_at(position) in wanted
            ]
            if len(positions) != len(wanted):
                continue
            missing = [
                _card(reference_rank_at(position), suit)
                for position in range(positions[0], positions[-1] + 1)
                if reference_rank_at(position) not in wanted
            ]
            reason = f"gap at {format_cards(missing)}"
            if free_jokers:
                plural = "joker" if free_jokers == 1 else "jokers"
                reason += f" ({len(missing)} missing, {free_jokers} {plural})"
            return reason
    return "no run holds these cards"  # pragma: no cover


def reference_from_cards(
    cards: Sequence[Card], rules: MeldRules, kind: MeldKind | None = None
) -> Meld | str:
    naturals = [card for card in cards if not card.is_joker]
    return reference_read(naturals, [], len(cards) - len(naturals), rules, kind, cards)


def reference_check(meld: Meld, rules: MeldRules) -> str | None:
    """The old ``Meld.check``: the refusal message, or ``None``."""
    naturals = [card for card in meld.cards if not card.is_joker]
    declared = [
        stands for card, stands in zip(meld.cards, meld.stands_for, strict=True) if card.is_joker
    ]
    reading = reference_read(naturals, declared, 0, rules, meld.kind, meld.declared_tokens())
    if isinstance(reading, str):
        return reading
    if Counter(reading.stands_for) != Counter(meld.stands_for):  # pragma: no cover
        return f"{meld} is not a meld: its jokers cannot stand for those cards"
    return None


def _reference_positions(ranks: set[int]) -> dict[int, int]:
    if Rank.ACE in ranks and Rank.KING in ranks and len(ranks) < 13:
        present = sorted(ranks)
        gaps = [
            ((present[(at + 1) % len(present)] - rank) % 13, at) for at, rank in enumerate(present)
        ]
        _, at = max(gaps)
        start = present[(at + 1) % len(present)]
        return {rank: (rank - start) % 13 for rank in ranks}
    return {rank: rank for rank in ranks}


def reference_canonical(meld: Meld) -> Meld:
    pairs = list(zip(meld.cards, meld.stands_for, strict=True))
    if meld.kind is MeldKind.GROUP:
        pairs.sort(key=lambda pair: (pair[1].index, pair[0].is_joker))
    else:
        position = _reference_positions({int(stands.rank or 0) for stands in meld.stands_for})
        pairs.sort(key=lambda pair: (position[int(pair[1].rank or 0)], pair[0].is_joker))
    stands_for = tuple(pair[1] for pair in pairs)
    if stands_for == meld.stands_for:
        return meld
    return Meld(meld.kind, [pair[0] for pair in pairs], stands_for)


def _reference_run_keys(
    counts: Counter[Card], jokers: int, rules: MeldRules
) -> set[tuple[int, ...]]:
    keys: set[tuple[int, ...]] = set()
    for suit in range(len(_SUITS)):
        base = suit * 13
        if not any(counts[CARDS[base + rank]] for rank in range(13)):
            continue
        have = [0] + [1 if counts[CARDS[base + (p - 1) % 13]] else 0 for p in range(1, 29)]
        prefix = list(itertools.accumulate(have))
        for size in range(rules.min_size, rules.longest_run + 1):
            for start in rules.run_starts(size):
                end = start + size - 1
                present = prefix[end] - prefix[start - 1]
                if size - present > jokers or present < rules.min_naturals:
                    continue
                indexes = [base + (p - 1) % 13 for p in range(start, end + 1) if have[p]]
                room = jokers - (size - present)
                for extra in range(min(room, len(indexes)) + 1):
                    for replaced in itertools.combinations(range(len(indexes)), extra):
                        kept = [index for n, index in enumerate(indexes) if n not in replaced]
                        if len(kept) >= rules.min_naturals:
                            keys.add((*sorted(kept), *(JOKER_INDEX,) * (size - len(kept))))
    return keys


def _reference_group_keys(
    counts: Counter[Card], jokers: int, rules: MeldRules
) -> set[tuple[int, ...]]:
    keys: set[tuple[int, ...]] = set()
    limit = 1 if rules.group_distinct_suits else rules.max_group_size
    for rank in range(13):
        if not any(counts[CARDS[suit * 13 + rank]] for suit in range(len(_SUITS))):
            continue
        choices = [
            range(min(counts[CARDS[suit * 13 + rank]], limit) + 1) for suit in range(len(_SUITS))
        ]
        for taken in itertools.product(*choices):
            naturals = [suit * 13 + rank for suit in range(len(_SUITS)) for _ in range(taken[suit])]
            if len(naturals) < rules.min_naturals:
                continue
            for extra in range(jokers + 1):
                if rules.min_size <= len(naturals) + extra <= rules.max_group_size:
                    keys.add((*naturals, *(JOKER_INDEX,) * extra))
    return keys


def reference_find_melds(hand: Sequence[Card], rules: MeldRules) -> tuple[Meld, ...]:
    counts = Counter(hand)
    jokers = counts.pop(JOKER, 0)
    keys = _reference_run_keys(counts, jokers, rules) | _reference_group_keys(counts, jokers, rules)
    found = []
    for key in sorted(keys):
        reading = reference_from_cards([CARDS[index] for index in key], rules)
        if isinstance(reading, Meld):
            found.append(reading)
    return tuple(found)


def _reference_neighbour(card: Card, step: int, rules: MeldRules) -> Card | None:
    assert card.rank is not None
    assert card.suit is not None
    rank = int(card.rank) + step
    if rank == 0:
        return _card(Rank.KING, card.suit) if rules.ace is AceRule.WRAP else None
    if rank == 14:
        return _card(Rank.ACE, card.suit)
    return _card(rank, card.suit)


def reference_extensions(meld: Meld, card: Card, rules: MeldRules) -> tuple[Extension, ...]:
    found: list[Extension] = []
    if meld.kind is MeldKind.GROUP:
        if len(meld.cards) >= rules.max_group_size:
            return ()
        rank = meld.stands_for[0].rank
        assert rank is not None
        for suit in _SUITS:
            target = _card(rank, suit)
            if not card.is_joker and target != card:
                continue
            grown = Meld(MeldKind.GROUP, (*meld.cards, card), (*meld.stands_for, target))
            if reference_check(grown, rules) is None:
                found.append(Extension(target, None, reference_canonical(grown)))
        return tuple(found)
    ordered = reference_canonical(meld)
    for end, step in ((RunEnd.LOW, -1), (RunEnd.HIGH, 1)):
        edge = ordered.stands_for[0 if step < 0 else -1]
        neighbour = _reference_neighbour(edge, step, rules)
        if neighbour is None or (not card.is_joker and neighbour != card):
            continue
        if step < 0:
            grown = Meld(MeldKind.RUN, (card, *ordered.cards), (neighbour, *ordered.stands_for))
        else:
            grown = Meld(MeldKind.RUN, (*ordered.cards, card), (*ordered.stands_for, neighbour))
        if reference_check(grown, rules) is None:
            found.append(Extension(neighbour, end, reference_canonical(grown)))
    return tuple(found)


def _cards_of(melds: Iterable[Meld]) -> Counter[Card]:
    counts: Counter[Card] = Counter()
    for meld in melds:
        counts.update(meld.cards)
    return counts


def _identities(melds: Iterable[Meld]) -> Counter[Card]:
    identities: Counter[Card] = Counter()
    for meld in melds:
        for card, stands in zip(meld.cards, meld.stands_for, strict=True):
            if card.is_joker:
                identities[stands] += 1
    return identities


def reference_rearrangement_refusal(
    table: Sequence[Meld],
    hand: Sequence[Card],
    new_table: Sequence[Meld],
    rules: MeldRules,
    replacement: JokerReplacementSource,
) -> str | None:
    old_cards = _cards_of(table)
    new_cards = _cards_of(new_table)
    added = new_cards - old_cards
    not_held = added - Counter(hand)
    if not_held:
        names = format_cards(sorted(not_held.elements(), key=lambda card: card.index))
        return f"the new table has cards the player does not hold: {names}"
    if not added:
        return "no card from hand was played"
    removed = sorted(old_cards - new_cards, key=lambda card: card.index)
    if removed:
        gone = sorted((old_cards - new_cards).elements(), key=lambda card: card.index)
        said: list[str] = []
        for at, card in enumerate(gone):
            name = "joker" if card.is_joker else str(card)
            if card in gone[:at]:
                said.append(f"another {name}")
            else:
                said.append("a joker" if card.is_joker else name)
        others = f" (and {', '.join(said[1:])})" if len(said) > 1 else ""
        return f"{said[0]} left the table{others}"
    for meld in new_table:
        message = reference_check(meld, rules)
        if message is not None:
            return message
    old_jokers = _identities(table)
    new_jokers = _identities(new_table)
    lost = old_jokers - new_jokers
    hand_only = replacement is JokerReplacementSource.HAND_ONLY
    gained = sorted((new_jokers - old_jokers).elements(), key=lambda card: card.index)
    for card in sorted(lost, key=lambda card: card.index):
        replacing = added[card] if hand_only else new_cards[card]
        if replacing < lost[card]:
            msg = f"the joker declared as {card} changed to {gained[0]}"
            if hand_only and new_cards[card] > replacing:
                msg += f" (only a {card} from the hand may take its place)"
            return msg
    return None


# -- strategies -----------------------------------------------------------------------------


@st.composite
def readings(draw: st.DrawFn) -> Meld:
    """Any reading of up to 14 cards, legal or not under any rules: naturals and jokers."""
    kind = draw(st.sampled_from(MeldKind))
    stands_for = draw(st.lists(any_card(jokers=False), max_size=14))
    cards = [JOKER if draw(st.booleans()) else stands for stands in stands_for]
    return Meld(kind, cards, stands_for)


@st.composite
def near_runs(draw: st.DrawFn) -> list[Card]:
    """Cards of one suit close together, with jokers: mostly runs, and their near misses."""
    suit = draw(st.integers(0, 3))
    low = draw(st.integers(0, 12))
    ranks = draw(st.lists(st.integers(low, low + 5), max_size=8))
    cards = [CARDS[suit * 13 + rank % 13] for rank in ranks]
    return cards + [JOKER] * draw(st.integers(0, 3))


@st.composite
def rules_and_melds(draw: st.DrawFn) -> tuple[MeldRules, Meld]:
    """Rules and a legal meld under them, or (when they admit none) any reading."""
    rules = draw(meld_rules())
    meld = draw(melds(rules) | readings())
    return rules, meld


card_lists = st.lists(any_card(), max_size=9) | near_runs()
two_pack_hands = hands(size=(0, 16), decks=2, jokers=3)


# -- the fast paths against the reference ---------------------------------------------------


def _outcome(make: Callable[[], object]) -> object:
    """What ``make()`` returns, or the message of the InvalidMeldError it raises."""
    try:
        return make()
    except InvalidMeldError as error:
        return str(error)


@given(st.integers(-40, 60))
def test_fast_rank_at_is_the_enum_lookup(position: int) -> None:
    assert rank_at(position) is reference_rank_at(position)


@given(card_lists, meld_rules(), st.sampled_from([None, *MeldKind]))
def test_fast_from_cards_matches_reference(
    cards: list[Card], rules: MeldRules, kind: MeldKind | None
) -> None:
    expected = reference_from_cards(cards, rules, kind)
    assert _outcome(lambda: Meld.from_cards(cards, rules, kind=kind)) == expected


@given(rules_and_melds(), meld_rules())
def test_fast_check_matches_reference(made: tuple[MeldRules, Meld], other: MeldRules) -> None:
    rules, meld = made
    for under in (rules, other):
        expected = reference_check(meld, under)
        for _ in range(2):  # the second time from the cache
            assert _outcome(lambda: meld.check(under)) == expected  # noqa: B023  (called at once)
            assert meld.is_valid(under) is (expected is None)


@given(st.one_of(readings(), meld_rules().flatmap(melds)))
def test_fast_canonical_matches_reference(meld: Meld) -> None:
    expected = reference_canonical(meld)
    canonical = meld.canonical()
    assert canonical == expected
    assert (canonical is meld) is (expected is meld)


@given(two_pack_hands, meld_rules())
def test_fast_find_melds_matches_reference(hand: tuple[Card, ...], rules: MeldRules) -> None:
    assert find_melds(hand, rules) == reference_find_melds(hand, rules)
    assert find_melds(hand, rules) == reference_find_melds(hand, rules)  # from the caches


@given(hands(size=(10, 14), decks=2, jokers=2))
def test_fast_find_melds_matches_reference_on_500_rummy_hands(hand: tuple[Card, ...]) -> None:
    rules = MeldRules()
    assert find_melds(hand, rules) == reference_find_melds(hand, rules)


@given(rules_and_melds(), st.lists(any_card(), min_size=1, max_size=6), meld_rules())
def test_fast_extensions_match_reference(
    made: tuple[MeldRules, Meld], cards: list[Card], other: MeldRules
) -> None:
    rules, meld = made
    for under in (rules, other):
        for card in [*cards, JOKER]:
            try:
                expected: tuple[Extension, ...] | type[Exception] = reference_extensions(
                    meld, card, under
                )
            except IndexError:  # a reading without cards has no end to extend
                expected = IndexError
            if expected is IndexError:
                try:
                    extensions(meld, card, under)
                except IndexError:
                    continue
                raise AssertionError("extensions of a meld without cards did not raise")
            assert extensions(meld, card, under) == expected


def test_fast_extensions_of_every_card_on_a_long_run() -> None:
    rules = MeldRules()
    run = Meld.from_cards(CARDS[1:13], rules)  # 2c … Kc: the ace fits both ends
    for card in CARDS:
        assert extensions(run, card, rules) == reference_extensions(run, card, rules)
    assert [way.end for way in extensions(run, CARDS[0], rules)] == [RunEnd.LOW, RunEnd.HIGH]


@st.composite
def rearrangements(
    draw: st.DrawFn,
) -> tuple[MeldRules, list[Meld], list[Card], list[Meld], JokerReplacementSource]:
    """A table, a hand and a new table: the table with melds kept, changed, dropped, added."""
    rules = draw(meld_rules())
    table = draw(st.lists(melds(rules) | readings(), max_size=4))
    new_table = [meld for meld in table if draw(st.booleans())]
    new_table += draw(st.lists(melds(rules) | readings(), max_size=2))
    new_table = draw(st.permutations(new_table))
    hand = draw(st.lists(any_card(), max_size=8))
    if draw(st.booleans()):  # the hand holds every card added, so later conditions are reached
        hand += list((_cards_of(new_table) - _cards_of(table)).elements())
    replacement = draw(st.sampled_from(JokerReplacementSource))
    return rules, table, hand, new_table, replacement


@given(rearrangements())
def test_fast_rearrangement_refusal_matches_reference(
    case: tuple[MeldRules, list[Meld], list[Card], list[Meld], JokerReplacementSource],
) -> None:
    rules, table, hand, new_table, replacement = case
    expected = reference_rearrangement_refusal(table, hand, new_table, rules, replacement)
    assert rearrangement_refusal(table, hand, new_table, rules, replacement) == expected


def test_fast_find_melds_of_a_whole_double_deck_matches_reference() -> None:
    deck = make_deck(decks=2, jokers=2)
    for rules in (MeldRules(), MeldRules(ace="low", max_run_size=5), MeldRules(min_size=4)):
        assert find_melds(deck[:60], rules) == reference_find_melds(deck[:60], rules)


@given(rules_and_melds(), meld_rules())
def test_fast_extension_cards_are_the_cards_with_extensions(
    made: tuple[MeldRules, Meld], other: MeldRules
) -> None:
    rules, meld = made
    for under in (rules, other):
        if not meld.cards:
            continue
        expected = tuple(card for card in CARDS if reference_extensions(meld, card, under))
        assert extension_cards(meld, under) == expected


# -- the variants' fast paths against their plain code ---------------------------------------


def _played(name: str, players: int, seed: int, steps: int) -> GameState:
    """A state after ``steps`` random legal actions (a private, seeded generator)."""
    choice = random.Random(seed)
    state = new_game(name, players=players, seed=seed)
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(choice.choice(state.legal_actions()))
    return state


def reference_carousel_candidates(state: GameState, player: int) -> list[Rearrange]:
    """The old ``Carousel.candidates_rearrange``: every hand card asked about every meld."""
    rules = state.variant.meld_rules
    hand, table = state.hands[player], state.table
    tables = [(*table, meld) for meld in reference_find_melds(hand, rules)]
    for number, meld in enumerate(table):
        for card in sorted(set(hand), key=lambda card: card.index):
            for extension in reference_extensions(meld, card, rules):
                tables.append((*table[:number], extension.meld, *table[number + 1 :]))
    return [Rearrange(player=player, table=new) for new in dict.fromkeys(tables)]


@given(st.integers(0, 10_000), st.integers(0, 400), st.sampled_from([2, 3, 5]))
def test_fast_carousel_candidates_match_reference(seed: int, steps: int, players: int) -> None:
    state = _played("carousel", players, seed, steps)
    variant = state.variant
    assert isinstance(variant, Carousel)
    for player in range(players):
        listed = list(variant.candidates_rearrange(state, player))
        assert listed == reference_carousel_candidates(state, player)


def _turkish_refusals(variant: Turkish500, state: GameState, action: Action) -> str | None:
    """The old Turkish 500 refusals of a lay-down and a lay-off, before the quick exits."""
    if isinstance(action, LayDown):
        refusal = Variant.refuse_lay_down(variant, state, action)
        if refusal is not None:
            return refusal
        laid = [card for meld in action.melds for card in meld.cards]
        rest = remove_cards(state.hands[action.player], laid)
        return variant._keep_refusal(state, action.player, len(rest)) or variant._owed_refusal(
            state, rest, (*state.table, *action.melds), laid
        )
    assert isinstance(action, LayOff)
    refusal = Variant.refuse_lay_off(variant, state, action)
    if refusal is not None:
        return refusal
    rest = remove_cards(state.hands[action.player], (action.card,))
    refusal = variant._keep_refusal(state, action.player, len(rest))
    if refusal is not None:
        return refusal
    table = list(state.table)
    way = reference_extensions(table[action.meld_index], action.card, variant.meld_rules)
    chosen = [
        option
        for option in way
        if option.stands_for == (action.stands_for or action.card)
        and (action.end is None or option.end is action.end)
    ]
    table[action.meld_index] = chosen[0].meld
    return variant._owed_refusal(state, rest, table, (action.card,))


def reference_can_still_meld(
    variant: Turkish500, hand: Sequence[Card], table: Sequence[Meld], card: Card, keep: int
) -> bool:
    rules = variant.meld_rules
    if card not in hand:
        return False
    if len(hand) - 1 >= keep and any(reference_extensions(meld, card, rules) for meld in table):
        return True
    if len(hand) - rules.min_size < keep:
        return False
    return may_meld_card(hand, card, rules)


@given(
    st.sampled_from(["turkish500", "rummy500", "turkish300"]),
    st.integers(0, 10_000),
    st.integers(0, 300),
    st.sampled_from([2, 4]),
)
def test_fast_turkish_refusals_match_reference(
    name: str, seed: int, steps: int, players: int
) -> None:
    state = _played(name, players, seed, steps)
    variant = state.variant
    assert isinstance(variant, Turkish500)
    if state.is_over:
        return
    player = state.to_act[0]
    hand = state.hands[player]
    # every lay-down and lay-off the engine lists, and lay-offs of each card onto each meld
    candidates: list[Action] = [
        *variant.candidates_lay_down(state, player),
        *variant.candidates_lay_off(state, player),
        *(
            LayOff(player=player, card=card, meld_index=index, stands_for=stands)
            for index in range(len(state.table))
            for card in set(hand)
            for stands in ([CARDS[seed % 52]] if card.is_joker else [None])
        ),
    ]
    for action in candidates:
        if isinstance(action, LayDown):
            assert variant.refuse_lay_down(state, action) == _turkish_refusals(
                variant, state, action
            )
        else:
            assert isinstance(action, LayOff)
            assert variant.refuse_lay_off(state, action) == _turkish_refusals(
                variant, state, action
            )
    taken = state.discard_pile
    for count in range(1, len(taken) + 1):
        extended = (*hand, *taken[-count:])
        for keep in (0, 1, 2):
            assert variant._can_still_meld(
                extended, state.table, taken[-count], keep
            ) is reference_can_still_meld(variant, extended, state.table, taken[-count], keep)


# -- the table solver -----------------------------------------------------------------------


def test_table_solver_numbers_run_states_the_same_in_every_process() -> None:
    """Run states are numbered at import in tuple order, whatever is solved first.

    Packed search keys hold these numbers, and ties between equally good plays are broken by
    the keys: numbering states as they first appeared made ``best_play`` choose between them
    by what the process had solved before.
    """
    for number, (short, two, long, joker_end) in enumerate(itertools.product(range(3), repeat=4)):
        state = (short, two, long, joker_end)
        assert _table_solver._STATE_IDS[state] == number
        assert _table_solver._STATES[number] == state
