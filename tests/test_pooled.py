"""Complete arrangements with runs for hands with wild cards (``rummylib._pooled``).

Indian rule 6.12 (a show melds all 13 cards, with two sequences, one of them pure) under a
wild rank (rules 6.3 and 6.7). The search under test pools jokers and wild cards; its answers
are held to two searches that do not: the brute-force :class:`~tests.oracle.RequirementOracle`
(every set of disjoint melds of :func:`rummylib.find_melds`, small hands) and the general
search of :mod:`rummylib._require` (larger hands, reached by turning the pooled search off).
A discard must be the heaviest allowed card (at its value in hand, a wild card as a joker;
the lowest among equals) whose setting aside leaves such an arrangement.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummylib import (
    Arrangement,
    Card,
    CardPoints,
    MeldRules,
    Rank,
    _pooled,
    arrange,
    format_cards,
    make_deck,
    parse_cards,
)
from rummylib.arrangement import Requirement
from tests.oracle import RequirementOracle
from tests.test_arrange import drawn
from tests.test_arrange_require import check_meets

POINTS = CardPoints(ace=10, face=10, joker=0)
SEVENS = MeldRules(wild_ranks={Rank.SEVEN})
ACES = MeldRules(wild_ranks={Rank.ACE})  # the wild rank of a deal whose wild card is a joker
SEVENS_SHORT = MeldRules(wild_ranks={Rank.SEVEN}, max_run_size=4, ace="low")
SHOW = Requirement(min_runs=2, min_pure_runs=1, complete=True)
PACKS = make_deck(decks=2, jokers=2)


def near(ranks: set[int], suits: str) -> list[Card]:
    """The cards of two packs of these ranks (1 an ace) and suits, and the printed jokers."""
    return [
        card
        for card in PACKS
        if card.is_joker or (card.index % 13 + 1 in ranks and str(card)[-1] in suits)
    ]


SEVENS_POOL = near({5, 6, 7, 8, 9}, "chs")
ACES_POOL = near({1, 2, 3, 12, 13}, "dhs")
REQUIREMENTS = st.builds(
    Requirement, min_runs=st.integers(1, 2), min_pure_runs=st.integers(0, 2), complete=st.just(True)
)


def weight(card: Card, rules: MeldRules) -> int:
    """A card's value in hand: a wild card is worth a joker (rule 6.5)."""
    return 0 if card.is_joker or card.rank in rules.wild_ranks else POINTS.values[card.index]


def oracle_meets(hand: Sequence[Card], rules: MeldRules, requirement: Requirement) -> bool:
    oracle = RequirementOracle(
        hand,
        rules,
        POINTS,
        min_runs=requirement.min_runs,
        min_pure_runs=requirement.min_pure_runs,
        complete=True,
    )
    return oracle.best_meeting() is not None


def check_discard(
    hand: Sequence[Card],
    rules: MeldRules,
    requirement: Requirement,
    result: Arrangement | None,
    meets: Callable[[Sequence[Card]], bool],
    *,
    can_discard: Callable[[Card], bool] | None = None,
) -> None:
    """``result`` sets aside the heaviest allowed card that leaves a rest that ``meets``."""
    allowed = sorted(
        {card for card in hand if can_discard is None or can_discard(card)},
        key=lambda card: (-weight(card, rules), card.index),
    )
    for card in allowed:
        rest = list(hand)
        rest.remove(card)
        if meets(rest):
            assert result is not None, format_cards(hand)
            assert result.discard == card, format_cards(hand)
            return
    assert result is None, format_cards(hand)


@settings(deadline=None, max_examples=150)
@given(
    st.sampled_from(
        [(SEVENS, SEVENS_POOL), (ACES, ACES_POOL), (SEVENS_SHORT, SEVENS_POOL)]
    ).flatmap(lambda pair: st.tuples(st.just(pair[0]), drawn(pair[1], 9))),
    REQUIREMENTS,
)
def test_rule_6_12_wild_hands_meld_as_the_oracle_says(
    rules_and_hand: tuple[MeldRules, list[Card]], requirement: Requirement
) -> None:
    rules, hand = rules_and_hand
    result = arrange(hand, rules, POINTS, require=requirement)
    if oracle_meets(hand, rules, requirement):
        assert result is not None, format_cards(hand)
        check_meets(hand, rules, POINTS, requirement, result)
    else:
        assert result is None, format_cards(hand)


@settings(deadline=None, max_examples=100)
@given(drawn(SEVENS_POOL, 9), REQUIREMENTS, st.booleans())
def test_rule_6_12_the_heaviest_card_that_leaves_a_show_goes(
    hand: list[Card], requirement: Requirement, keep_jokers: bool
) -> None:
    can_discard = (lambda card: not card.is_joker) if keep_jokers else None
    if not hand or (keep_jokers and all(card.is_joker for card in hand)):
        return
    result = arrange(
        hand, SEVENS, POINTS, discard=True, can_discard=can_discard, require=requirement
    )
    if result is not None:
        check_meets(
            hand, SEVENS, POINTS, requirement, result, discard=True, can_discard=can_discard
        )
    check_discard(
        hand,
        SEVENS,
        requirement,
        result,
        lambda rest: oracle_meets(rest, SEVENS, requirement),
        can_discard=can_discard,
    )


NO_JOKER_BESIDE_ACE = MeldRules(joker_beside_ace=False)  # Israeli rule 1.13: the general search
TWO_NATURALS = MeldRules(min_naturals=2)  # the general search too


@settings(deadline=None, max_examples=100)
@given(
    st.sampled_from([NO_JOKER_BESIDE_ACE, TWO_NATURALS, MeldRules(), SEVENS]),
    drawn(near({1, 2, 3, 4, 12, 13}, "cdh"), 9),
    REQUIREMENTS,
)
def test_every_search_sets_aside_the_heaviest_card_that_leaves_the_requirement_met(
    rules: MeldRules, hand: list[Card], requirement: Requirement
) -> None:
    # The documented choice of ``arrange(..., discard=True, require=...)`` with ``complete``,
    # whichever search answers (the pooled one models the last two rule sets only).
    if not hand:
        return
    result = arrange(hand, rules, POINTS, discard=True, require=requirement)
    if result is not None:
        check_meets(hand, rules, POINTS, requirement, result, discard=True)
    check_discard(
        hand, rules, requirement, result, lambda rest: oracle_meets(rest, rules, requirement)
    )


def test_rule_1_13_rules_the_pooled_search_leaves_out_also_set_aside_the_heaviest_card() -> None:
    # 14 cards of four neighbouring ranks of two packs with four jokers, with jokers kept from
    # aces (the general search); each rest is judged without a discard.
    rng = random.Random(1)
    deck = make_deck(decks=2, jokers=4)
    requirement = Requirement(min_runs=1, min_pure_runs=1, complete=True)
    points = CardPoints(ace=1, face=10, joker=0)
    shown = 0
    for _ in range(300):
        low = rng.randint(1, 10)
        hand = rng.sample(
            [card for card in deck if card.is_joker or low <= card.index % 13 + 1 <= low + 3], 14
        )
        result = arrange(hand, NO_JOKER_BESIDE_ACE, points, discard=True, require=requirement)
        if result is None:
            continue
        shown += 1
        gone = result.discard
        assert gone is not None
        heavier = [
            card
            for card in set(hand)
            if (-points.values[card.index], card.index) < (-points.values[gone.index], gone.index)
        ]
        for card in heavier:
            rest = list(hand)
            rest.remove(card)
            assert arrange(rest, NO_JOKER_BESIDE_ACE, points, require=requirement) is None, (
                format_cards(hand),
                card,
            )
    assert shown >= 50


def show_hands(count: int, seed: int) -> list[list[Card]]:
    """14 meld-dense cards with the sevens wild: 0 to 10 jokers, three ranks near the sevens.

    The hands of ``benchmarks/bench_arrange.py``'s last row, from their own generator.
    """
    rng = random.Random(seed)
    jokers = [card for card in PACKS if card.is_joker or card.rank is Rank.SEVEN]
    hands = []
    for _ in range(count):
        low = rng.randint(4, 7)
        naturals = [
            card
            for card in PACKS
            if not card.is_joker and low <= card.index % 13 + 1 < low + 4 and card not in jokers
        ]
        wild = rng.randint(0, len(jokers))
        hands.append(rng.sample(jokers, wild) + rng.sample(naturals, 14 - wild))
    return hands


@pytest.mark.parametrize("seed", [1, 2])
def test_rule_6_12_fourteen_card_shows_agree_with_the_general_search(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    hands = show_hands(20, seed)
    pooled = [arrange(hand, SEVENS, POINTS, discard=True, require=SHOW) for hand in hands]
    with monkeypatch.context() as patch:
        patch.setattr(_pooled, "models", lambda rules: False)
        general = [arrange(hand, SEVENS, POINTS, discard=True, require=SHOW) for hand in hands]

        def meets(rest: Sequence[Card]) -> bool:
            return arrange(rest, SEVENS, POINTS, require=SHOW) is not None

        for hand, result, other in zip(hands, pooled, general, strict=True):
            assert (result is None) == (other is None), format_cards(hand)
            if result is not None:
                check_meets(hand, SEVENS, POINTS, SHOW, result, discard=True)
            check_discard(hand, SEVENS, SHOW, result, meets)
    assert sum(result is not None for result in pooled) >= 5  # shows and wrong shows both


def test_rule_6_12_a_wild_card_in_its_own_place_keeps_a_sequence_pure() -> None:
    # 5h 6h 7h is pure (the 7h stands for itself); 8c 9c with the joker is the second run.
    hand = parse_cards("5h 6h 7h 8c 9c * 5s 5c 5d Kh Kc Ks 2d")
    result = arrange(hand, SEVENS, POINTS, require=SHOW, discard=True)
    assert result is not None
    assert result.discard == parse_cards("2d")[0]
    pure = [meld for meld in result.melds if meld.is_pure and meld.kind.value == "run"]
    assert [format_cards(meld.cards) for meld in pure] == ["5h 6h 7h"]


def test_rule_6_12_wild_cards_alone_make_the_second_sequence() -> None:
    # A pure run and three groups of naturals: only the 7c, the 7d and the joker are left for
    # the second sequence, a run around a wild card in its own place (6c 7c 8c, say). The
    # search may also lend them to a group and read a natural card as a run instead.
    hand = parse_cards("2h 3h 4h 9c 9d 9s Qc Qd Qs Kc Kd Ks 7c 7d *")
    result = arrange(hand, SEVENS, POINTS, require=SHOW)
    assert result is not None
    assert sum(meld.kind.value == "run" for meld in result.melds) >= 2
    # Without the 7d, two wild cards cannot make a sequence of their own, and a natural card
    # read as a run (a 9 with the 7c and the joker) leaves its group two cards short.
    assert (
        arrange(
            parse_cards("2h 3h 4h 9c 9d 9s Qc Qd Qs Kc Kd Ks 7c *"), SEVENS, POINTS, require=SHOW
        )
        is None
    )


def test_rule_6_12_without_a_pure_sequence_wild_cards_do_not_make_a_show() -> None:
    # Every run needs a wild card or a joker in another's place: no pure sequence.
    hand = parse_cards("2h 4h 7h 9c Jc 7d Qs Ks 7s 5d 5c 5s 8h")
    assert arrange(hand, SEVENS, POINTS, require=SHOW) is None


def test_only_rules_it_models_take_the_pooled_search() -> None:
    assert _pooled.models(SEVENS)
    assert _pooled.models(MeldRules())
    assert not _pooled.models(MeldRules(wild_ranks={Rank.SEVEN, Rank.TWO}))
    assert not _pooled.models(MeldRules(wild_ranks={Rank.SEVEN}, joker_beside_ace=False))
    assert not _pooled.models(MeldRules(wild_ranks={Rank.SEVEN}, min_naturals=2))
    assert not _pooled.models(MeldRules(ace="wrap"))
