"""Meld rules, melds and find_melds (RULES.md section 0 and rule 1.13, DESIGN.md section 3).

Rule tests are named after the rule they check. Expected values are written out from the
rules text, or computed by the small oracles below, which re-read RULES.md without using the
code under test: ``legal_reading`` checks one reading of a meld, ``has_legal_reading`` tries
every reading of a set of cards, and ``brute_force_melds`` enumerates multisets of cards.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from rummylib import (
    JOKER,
    AceRule,
    Card,
    CardPoints,
    ConfigurationError,
    InvalidMeldError,
    Meld,
    MeldKind,
    MeldRules,
    NotationError,
    Rank,
    RummyError,
    Suit,
    find_melds,
    format_cards,
    is_meld,
    make_deck,
    parse_cards,
    parse_meld,
)
from rummylib.melds import extension_cards, extensions
from rummylib.strategies import cards as any_card
from rummylib.strategies import hands, meld_rules, melds
from tests.oracle import least_standing_in, wild_melds

DEFAULT = MeldRules()
ISRAELI = MeldRules(joker_beside_ace=False)
LOW = MeldRules(ace=AceRule.LOW)
HIGH = MeldRules(ace=AceRule.HIGH)
WRAP = MeldRules(ace=AceRule.WRAP)


def reason_for(text: str, rules: MeldRules, *, kind: MeldKind | None = None) -> str:
    """The refusal message of ``Meld.from_cards`` for the cards written in ``text``."""
    with pytest.raises(InvalidMeldError) as caught:
        Meld.from_cards(parse_cards(text), rules, kind=kind)
    message = str(caught.value)
    prefix = f"{text} is not a meld: "
    assert message.startswith(prefix), message
    if kind is None:
        assert not is_meld(parse_cards(text), rules)
    return message.removeprefix(prefix)


def multiset_key(cards: Iterable[Card]) -> tuple[int, ...]:
    """A hashable multiset of cards (``Card`` deliberately has no order)."""
    return tuple(sorted(card.index for card in cards))


# --- independent oracles -----------------------------------------------------------------------


def longest_run(rules: MeldRules) -> int:
    # A run never holds two aces (RULES.md 0.3), so at most 13 cards.
    return 13 if rules.max_run_size is None else min(13, rules.max_run_size)


def run_positions(ranks: Sequence[int], ace: AceRule) -> bool:
    """Whether ranks, in reading order, are consecutive under the ace rule (RULES.md 0.3)."""

    def consecutive(values: Sequence[int]) -> bool:
        return all(b == a + 1 for a, b in itertools.pairwise(values))

    low = list(ranks)
    high = [14 if rank == 1 else rank for rank in ranks]
    if ace is AceRule.LOW:
        return consecutive(low)
    if ace is AceRule.HIGH:
        return consecutive(high)
    if ace is AceRule.LOW_OR_HIGH:
        return consecutive(low) or consecutive(high)
    return all(b == a % 13 + 1 for a, b in itertools.pairwise(ranks))


def legal_reading(meld: Meld, rules: MeldRules) -> str:  # noqa: PLR0911, PLR0912  (a rule each)
    """Check one reading against RULES.md; return "" if legal, else what is wrong."""
    cards, stands = meld.cards, meld.stands_for
    if len(cards) != len(stands):
        return "lengths differ"
    for card, stand in zip(cards, stands, strict=True):
        if stand.is_joker or (not card.is_joker and card != stand):
            return f"{card} cannot stand for {stand}"
    if len(cards) < rules.min_size:
        return "too few cards"
    if sum(not card.is_joker for card in cards) < rules.min_naturals:
        return "too few naturals"
    if meld.kind is MeldKind.GROUP:
        if len(cards) > rules.max_group_size:
            return "group too large"
        if len({stand.rank for stand in stands}) != 1:
            return "group of several ranks"
        if rules.group_distinct_suits and len({stand.suit for stand in stands}) != len(stands):
            return "group suits repeat"
        return ""
    if len(cards) > longest_run(rules):
        return "run too long"
    if len({stand.suit for stand in stands}) != 1:
        return "run of several suits"
    if not run_positions([int(stand.rank or 0) for stand in stands], rules.ace):
        return "run not consecutive"
    if not rules.joker_beside_ace:
        for offset, stand in enumerate(stands):
            if stand.rank != Rank.ACE:
                continue
            if cards[offset].is_joker:
                return "joker for an ace"
            if any(cards[i].is_joker for i in (offset - 1, offset + 1) if 0 <= i < len(cards)):
                return "joker beside an ace"
    return ""


def run_windows(size: int, ace: AceRule) -> list[list[int]]:
    """Every window of ``size`` ranks a run may cover (1 = ace), low to high."""
    if size > 13:
        return []
    if ace is AceRule.WRAP:
        return [[(start + i - 1) % 13 + 1 for i in range(size)] for start in range(1, 14)]
    first, last = {AceRule.LOW: (1, 13), AceRule.HIGH: (2, 14), AceRule.LOW_OR_HIGH: (1, 14)}[ace]
    return [
        [(position - 1) % 13 + 1 for position in range(start, start + size)]
        for start in range(first, last - size + 2)
    ]


def has_legal_reading(cards: Sequence[Card], rules: MeldRules) -> bool:
    """Whether some reading of the cards is legal, trying every group and run reading."""
    naturals = [card for card in cards if not card.is_joker]
    jokers = len(cards) - len(naturals)
    if len(cards) < rules.min_size or len(naturals) < rules.min_naturals:
        return False
    if len({card.rank for card in naturals}) == 1 and len(cards) <= rules.max_group_size:
        suits = [card.suit for card in naturals]
        if not rules.group_distinct_suits or (
            len(set(suits)) == len(suits) and len(suits) + jokers <= 4
        ):
            return True
    if len({card.suit for card in naturals}) != 1 or len(cards) > longest_run(rules):
        return False
    ranks = [int(card.rank or 0) for card in naturals]
    if len(set(ranks)) != len(ranks):
        return False
    for window in run_windows(len(cards), rules.ace):
        if not set(ranks) <= set(window):
            continue
        is_joker = [rank not in ranks for rank in window]
        if rules.joker_beside_ace or not any(
            window[i] == 1 and any(is_joker[j] for j in (i - 1, i, i + 1) if 0 <= j < len(window))
            for i in range(len(window))
        ):
            return True
    return False


def brute_force_melds(
    decks: int, jokers: int, rules: MeldRules, largest: int
) -> set[tuple[int, ...]]:
    """Every meld of ``make_deck(decks, jokers)`` of min_size to ``largest`` cards, as multisets.

    Groups: for each rank, every multiset of that rank's natural cards (0..decks copies of
    each suit) plus 0..jokers jokers. Runs: for each suit, every subset of its 13 cards plus
    0..jokers jokers. ``is_meld`` decides each; the two families are merged as multisets.
    """
    found: set[tuple[int, ...]] = set()
    for rank in Rank:
        suits = [Card(rank, suit) for suit in Suit]
        for copies in itertools.product(range(decks + 1), repeat=len(suits)):
            chosen = [card for card, count in zip(suits, copies, strict=True) for _ in range(count)]
            for joker_count in range(jokers + 1):
                candidate = chosen + [JOKER] * joker_count
                if rules.min_size <= len(candidate) <= largest and is_meld(candidate, rules):
                    found.add(multiset_key(candidate))
    for suit in Suit:
        ranks = [Card(rank, suit) for rank in Rank]
        for size in range(1, largest + 1):
            for subset in itertools.combinations(ranks, size):
                for joker_count in range(min(jokers, largest - size) + 1):
                    candidate = [*subset, *[JOKER] * joker_count]
                    if len(candidate) >= rules.min_size and is_meld(candidate, rules):
                        found.add(multiset_key(candidate))
    return found


def sub_multisets(hand: Sequence[Card], smallest: int) -> set[tuple[int, ...]]:
    keys: set[tuple[int, ...]] = set()
    for size in range(smallest, len(hand) + 1):
        for chosen in itertools.combinations(hand, size):
            keys.add(multiset_key(chosen))
    return keys


def test_oracles_agree_with_the_rules_text() -> None:
    # The oracles themselves, on examples of RULES.md 0.3 and 1.13.
    assert run_positions([12, 13, 1], AceRule.LOW_OR_HIGH)
    assert not run_positions([13, 1, 2], AceRule.LOW_OR_HIGH)
    assert run_positions([13, 1, 2], AceRule.WRAP)
    assert has_legal_reading(parse_cards("* 2h 3h"), ISRAELI)
    assert not has_legal_reading(parse_cards("Ah * 3h"), ISRAELI)
    assert has_legal_reading(parse_cards("Ah Ad *"), ISRAELI)
    assert not has_legal_reading(parse_cards("Kh Ah 2h"), DEFAULT)
    assert (
        legal_reading(Meld(MeldKind.RUN, parse_cards("* 2h 3h"), parse_cards("Ah 2h 3h")), DEFAULT)
        == ""
    )
    assert legal_reading(
        Meld(MeldKind.RUN, parse_cards("* 2h 3h"), parse_cards("Ah 2h 3h")), ISRAELI
    )


# --- RULES.md section 0 ------------------------------------------------------------------------


def test_rule_0_2_melds_have_at_least_three_cards() -> None:
    assert reason_for("7h 8h", DEFAULT) == "too few cards (2, at least 3)"
    assert reason_for("7h 7d", DEFAULT) == "too few cards (2, at least 3)"
    assert reason_for("*", DEFAULT) == "too few cards (1, at least 3)"
    assert is_meld(parse_cards("7h 8h 9h"), DEFAULT)
    assert is_meld(parse_cards("7h 8h"), MeldRules(min_size=2))
    assert not is_meld([], DEFAULT)


def test_rule_0_2_group_has_three_or_four_cards() -> None:
    assert Meld.from_cards(parse_cards("7h 7d 7c"), DEFAULT).kind is MeldKind.GROUP
    assert Meld.from_cards(parse_cards("7h 7d 7c 7s"), DEFAULT).kind is MeldKind.GROUP
    assert reason_for("7c 7d 7h 7s *", DEFAULT) == "group too large (5 cards, at most 4)"
    assert reason_for("7c 7d 7h 7s", MeldRules(max_group_size=3)) == (
        "group too large (4 cards, at most 3)"
    )


def test_rule_0_2_group_distinct_suits() -> None:
    assert reason_for("7h 7h 7d", DEFAULT) == "duplicate card in a group: 7h"
    # Even with two packs: the copies are the same card.
    two_packs = make_deck(decks=2)
    seven_of_hearts = [card for card in two_packs if str(card) == "7h"]
    assert len(seven_of_hearts) == 2
    assert not is_meld([*seven_of_hearts, Card(7, "d")], DEFAULT)
    assert not is_meld([*seven_of_hearts, JOKER], DEFAULT)
    # Without the constraint a group may repeat a suit.
    relaxed = MeldRules(group_distinct_suits=False, max_group_size=8)
    assert is_meld([*seven_of_hearts, Card(7, "d")], relaxed)


def test_rule_0_2_run_is_consecutive_in_one_suit() -> None:
    assert Meld.from_cards(parse_cards("9h 7h 8h"), DEFAULT).kind is MeldKind.RUN
    assert is_meld(parse_cards("7h 8h 9h Th Jh Qh"), DEFAULT)
    assert reason_for("3c 4c 6c", DEFAULT) == "gap at 5c"
    assert reason_for("3c 7c 4c", DEFAULT) == "gap at 5c 6c"
    assert reason_for("7h 7h 8h", DEFAULT) == "duplicate rank in a run: 7h"
    assert reason_for("7h 8h 9c", DEFAULT).startswith("mixed suits")


@pytest.mark.parametrize(
    ("ace", "text", "valid"),
    [
        (AceRule.LOW, "Ah 2h 3h", True),
        (AceRule.LOW, "Qh Kh Ah", False),
        (AceRule.LOW, "Kh Ah 2h", False),
        (AceRule.HIGH, "Ah 2h 3h", False),
        (AceRule.HIGH, "Qh Kh Ah", True),
        (AceRule.HIGH, "Kh Ah 2h", False),
        (AceRule.LOW_OR_HIGH, "Ah 2h 3h", True),
        (AceRule.LOW_OR_HIGH, "Qh Kh Ah", True),
        (AceRule.LOW_OR_HIGH, "Kh Ah 2h", False),
        (AceRule.WRAP, "Ah 2h 3h", True),
        (AceRule.WRAP, "Qh Kh Ah", True),
        (AceRule.WRAP, "Kh Ah 2h", True),
        (AceRule.WRAP, "Jh Qh Kh Ah 2h 3h", True),
    ],
)
def test_rule_0_3_ace_rules(ace: AceRule, text: str, valid: bool) -> None:
    rules = MeldRules(ace=ace)
    assert is_meld(parse_cards(text), rules) is valid
    assert has_legal_reading(parse_cards(text), rules) is valid


def test_rule_0_3_ace_rule_reasons() -> None:
    assert reason_for("Qh Kh Ah", LOW) == "the ace ranks low only (A-2-3), not high"
    assert reason_for("Ah 2h 3h", HIGH) == "the ace ranks high only (Q-K-A), not low"
    assert reason_for("Kh Ah 2h", DEFAULT) == "wraps past the ace"
    assert reason_for("Kh Ah 2h", LOW) == "wraps past the ace"


def test_rule_0_3_ace_setting_accepts_the_rule_names() -> None:
    assert [MeldRules(ace=name).ace for name in ("low", "high", "low_or_high", "wrap")] == [
        AceRule.LOW,
        AceRule.HIGH,
        AceRule.LOW_OR_HIGH,
        AceRule.WRAP,
    ]
    assert DEFAULT.ace is AceRule.LOW_OR_HIGH


def test_rule_0_3_a_run_never_holds_two_aces() -> None:
    ace_to_king = "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"
    two_to_ace = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"
    assert is_meld(parse_cards(ace_to_king), DEFAULT)
    assert is_meld(parse_cards(two_to_ace), DEFAULT)
    assert reason_for(f"{ace_to_king} Ah", DEFAULT) == "run too long (14 cards, at most 13)"
    assert reason_for(f"{ace_to_king} *", DEFAULT) == "run too long (14 cards, at most 13)"
    assert reason_for(f"{ace_to_king} *", WRAP) == "run too long (14 cards, at most 13)"
    assert reason_for("Ah 2h Ah", DEFAULT) == "duplicate rank in a run: Ah"
    assert DEFAULT.longest_run == 13
    assert MeldRules(max_run_size=20).longest_run == 13


@pytest.mark.parametrize("ace", list(AceRule))
def test_rule_0_3_run_starts(ace: AceRule) -> None:
    # Positions: 1 = low ace, 2…13, 14 = high ace (wrap: 15 is a two past the corner).
    rules = MeldRules(ace=ace)
    for size in range(2, 14):
        windows = [
            [(position - 1) % 13 + 1 for position in range(start, start + size)]
            for start in rules.run_starts(size)
        ]
        assert windows == run_windows(size, ace)


def test_rule_0_4_jokers_are_wild_in_groups_and_runs() -> None:
    group = Meld.from_cards(parse_cards("7h 7d *"), DEFAULT)
    assert group.kind is MeldKind.GROUP
    joker_stands = [s for c, s in zip(group.cards, group.stands_for, strict=True) if c.is_joker]
    assert len(joker_stands) == 1
    assert joker_stands[0].rank == Rank.SEVEN
    assert joker_stands[0].suit in (Suit.CLUBS, Suit.SPADES)
    assert str(Meld.from_cards(parse_cards("7h * 9h"), DEFAULT)) == "7h *=8h 9h"
    assert str(Meld.from_cards(parse_cards("* Ah 3h"), DEFAULT)) == "Ah *=2h 3h"


@given(st.data())
def test_rule_0_4_a_joker_stands_for_exactly_one_card(data: st.DataObject) -> None:
    rules = data.draw(meld_rules())
    meld = data.draw(melds(rules))
    assert len(meld.stands_for) == len(meld.cards)
    assert all(not stand.is_joker for stand in meld.stands_for)
    # No two positions stand for the same card, except repeated suits in relaxed groups.
    if meld.kind is MeldKind.RUN or rules.group_distinct_suits:
        assert len(set(meld.stands_for)) == len(meld.stands_for)


def test_rule_0_4_a_meld_needs_a_natural_card() -> None:
    assert reason_for("* * *", DEFAULT) == "not enough natural cards (0, at least 1)"
    assert reason_for("* * * *", DEFAULT) == "not enough natural cards (0, at least 1)"
    rules = MeldRules(min_naturals=2)
    assert reason_for("7h * *", rules) == "not enough natural cards (1, at least 2)"
    assert is_meld(parse_cards("7h 7c *"), rules)


def test_rule_0_4_no_card_below_a_low_ace_or_above_a_high_ace() -> None:
    run = MeldKind.RUN
    assert str(Meld.from_cards(parse_cards("Ah * *"), LOW, kind=run)) == "Ah *=2h *=3h"
    assert str(Meld.from_cards(parse_cards("Kh * *"), LOW, kind=run)) == "*=Jh *=Qh Kh"
    assert str(Meld.from_cards(parse_cards("Ah * *"), HIGH, kind=run)) == "*=Qh *=Kh Ah"
    assert str(Meld.from_cards(parse_cards("Qh Kh Ah *"), DEFAULT)) == "*=Jh Qh Kh Ah"
    assert str(Meld.from_cards(parse_cards("* Ah 2h"), DEFAULT)) == "Ah 2h *=3h"
    with pytest.raises(InvalidMeldError, match="wraps past the ace"):
        parse_meld("*=Kh Ah 2h", DEFAULT)
    with pytest.raises(InvalidMeldError, match="wraps past the ace"):
        parse_meld("Qh Kh Ah *=2h", DEFAULT)


def test_rule_0_6_an_ace_at_the_low_end_of_a_run_has_its_own_points() -> None:
    turkish = CardPoints(ace=15, joker=15, ace_low_run=1)
    assert parse_meld("Ah 2h 3h", DEFAULT).points(turkish) == 1 + 2 + 3
    assert parse_meld("Ah *=2h 3h", DEFAULT).points(turkish) == 1 + 15 + 3
    assert parse_meld("Qh Kh Ah", DEFAULT).points(turkish) == 10 + 10 + 15
    assert parse_meld("Ah Ad Ac", DEFAULT).points(turkish) == 45
    # A joker standing for the low ace counts as a joker.
    assert parse_meld("*=Ah 2h 3h", DEFAULT).points(turkish) == 15 + 2 + 3
    # Round the corner the ace is not the low end.
    assert parse_meld("Kh Ah 2h", WRAP).points(turkish) == 10 + 15 + 2
    assert parse_meld("Ah 2h 3h", WRAP).points(turkish) == 1 + 2 + 3
    # Without ace_low_run an ace counts the same everywhere.
    assert parse_meld("Ah 2h 3h", DEFAULT).points(CardPoints(ace=15)) == 15 + 2 + 3
    assert parse_meld("7h 8h *=9h", DEFAULT).points(CardPoints(joker=25)) == 7 + 8 + 25


# --- RULES.md rule 1.13: jokers keep away from aces in runs ------------------------------------


@pytest.mark.parametrize("text", ["Ah *=2h 3h", "Qh *=Kh Ah"])
def test_rule_1_13_joker_beside_ace_illegal(text: str) -> None:
    with pytest.raises(InvalidMeldError) as caught:
        parse_meld(text, ISRAELI)
    assert str(caught.value) == f"{text} is not a meld: joker beside an ace"
    undeclared = text.replace("*=2h", "*").replace("*=Kh", "*")
    assert reason_for(undeclared, ISRAELI) == "joker beside an ace"
    assert is_meld(parse_cards(undeclared), DEFAULT)


@pytest.mark.parametrize("text", ["*=Ah 2h 3h", "Qh Kh *=Ah"])
def test_rule_1_13_joker_standing_for_an_ace_illegal(text: str) -> None:
    with pytest.raises(InvalidMeldError) as caught:
        parse_meld(text, ISRAELI)
    assert str(caught.value) == f"{text} is not a meld: joker standing for an ace"
    assert not parse_meld(text, DEFAULT).is_valid(ISRAELI)
    assert parse_meld(text, DEFAULT).is_valid(DEFAULT)


@pytest.mark.parametrize("text", ["Ah 2h *=3h 4h", "*=Qh Kh Ah", "Qh Kh Ah"])
def test_rule_1_13_legal_examples(text: str) -> None:
    meld = parse_meld(text, ISRAELI)
    assert str(meld) == text
    assert meld.kind is MeldKind.RUN
    meld.check(ISRAELI)
    assert is_meld(meld.cards, ISRAELI)


def test_rule_1_13_a_set_is_a_meld_if_some_reading_is_legal() -> None:
    assert str(Meld.from_cards(parse_cards("* 2h 3h"), ISRAELI)) == "2h 3h *=4h"
    assert str(Meld.from_cards(parse_cards("Kh * Qh"), ISRAELI)) == "*=Jh Qh Kh"
    assert reason_for("Ah * 3h", ISRAELI) == "joker beside an ace"


def test_rule_1_13_joker_standing_for_an_ace_is_the_only_reading() -> None:
    # 2…K plus a joker: the joker can only be the ace, low or high.
    text = "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh *"
    assert reason_for(text, ISRAELI) == "joker standing for an ace"
    assert str(Meld.from_cards(parse_cards(text), DEFAULT)).endswith("*=Ah")


@pytest.mark.parametrize("text", ["Ah Ad *", "Ah * *", "Ac Ad Ah *"])
def test_rule_1_13_jokers_unrestricted_in_groups(text: str) -> None:
    meld = Meld.from_cards(parse_cards(text), ISRAELI)
    assert meld.kind is MeldKind.GROUP
    assert all(stand.rank == Rank.ACE for stand in meld.stands_for)


@pytest.mark.parametrize(
    "text", ["Ah *=2h 3h", "Qh *=Kh Ah", "*=Ah 2h 3h", "Qh Kh *=Ah", "Ah 2h *=3h 4h"]
)
def test_rule_1_13_with_joker_beside_ace_only_rule_0_4_applies(text: str) -> None:
    meld = parse_meld(text, DEFAULT)
    assert str(meld) == text
    meld.check(DEFAULT)
    assert is_meld(parse_cards("Ah * 3h"), DEFAULT)


# --- refusal reasons -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "rules", "kind", "reason"),
    [
        ("7h 8h", DEFAULT, None, "too few cards (2, at least 3)"),
        (
            "7h 8h 9c",
            DEFAULT,
            None,
            "mixed suits and ranks: a group needs one rank, a run one suit",
        ),
        ("7h 8h 9h", DEFAULT, MeldKind.GROUP, "a group needs cards of one rank"),
        ("7h 7d 7c", DEFAULT, MeldKind.RUN, "a run needs cards of one suit"),
        ("7h 7h 7d", DEFAULT, None, "duplicate card in a group: 7h"),
        ("7h 7h 8h", DEFAULT, None, "duplicate rank in a run: 7h"),
        ("3c 4c 6c", DEFAULT, None, "gap at 5c"),
        ("3c 6c *", DEFAULT, None, "gap at 4c 5c (2 missing, 1 joker)"),
        ("2c 7c * *", DEFAULT, None, "gap at 3c 4c 5c 6c (4 missing, 2 jokers)"),
        ("Kh Ah 2h", DEFAULT, None, "wraps past the ace"),
        ("Ah * 3h", ISRAELI, None, "joker beside an ace"),
        ("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh *", ISRAELI, None, "joker standing for an ace"),
        ("* * *", DEFAULT, None, "not enough natural cards (0, at least 1)"),
        ("7c 7d 7h 7s *", DEFAULT, None, "group too large (5 cards, at most 4)"),
        ("3h 4h 5h 6h", MeldRules(max_run_size=3), None, "run too long (4 cards, at most 3)"),
        ("Qh Kh Ah", LOW, None, "the ace ranks low only (A-2-3), not high"),
        ("Ah 2h 3h", HIGH, None, "the ace ranks high only (Q-K-A), not low"),
    ],
)
def test_refusal_reasons(text: str, rules: MeldRules, kind: MeldKind | None, reason: str) -> None:
    assert reason_for(text, rules, kind=kind) == reason


def test_invalid_meld_error_is_a_value_error_and_a_rummy_error() -> None:
    with pytest.raises(InvalidMeldError) as caught:
        Meld.from_cards(parse_cards("7h 8h"), DEFAULT)
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, RummyError)


def test_gap_under_ace_high_is_an_invalid_meld() -> None:
    # Core bug: with ace="high" a gap in a run without an ace raises a bare ValueError
    # ("min() arg is an empty sequence") from the diagnosis instead of InvalidMeldError.
    assert reason_for("3c 4c 6c", HIGH) == "gap at 5c"


def test_gap_round_the_corner_names_the_missing_card() -> None:
    # Core bug (message): under ace="wrap", Q-A-2 misses only the king, but the diagnosis
    # looks for the gap without turning the corner and names 3h…Jh.
    assert reason_for("Qh Ah 2h", WRAP) == "gap at Kh"


def test_cards_that_are_not_cards_raise_notation_error() -> None:
    with pytest.raises(NotationError):
        Meld.from_cards(["7h", "8h", "9h"], DEFAULT)  # type: ignore[list-item]
    with pytest.raises(NotationError):
        is_meld([Card(7, "h"), None, Card(9, "h")], DEFAULT)  # type: ignore[list-item]
    with pytest.raises(NotationError):
        find_melds(["7h"], DEFAULT)  # type: ignore[list-item]


# --- MeldRules -------------------------------------------------------------------------------


def test_meld_rules_defaults() -> None:
    assert (
        DEFAULT.min_size,
        DEFAULT.max_group_size,
        DEFAULT.group_distinct_suits,
        DEFAULT.ace,
        DEFAULT.min_naturals,
        DEFAULT.joker_beside_ace,
        DEFAULT.max_run_size,
    ) == (3, 4, True, AceRule.LOW_OR_HIGH, 1, True, None)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"min_size": 1}, "min_size must be a whole number of at least 2, not 1"),
        ({"min_size": "3"}, "min_size must be a whole number of at least 2, not '3'"),
        ({"min_size": True}, "min_size must be a whole number of at least 2, not True"),
        ({"max_group_size": 1}, "max_group_size must be a whole number of at least 2, not 1"),
        ({"min_size": 5}, "max_group_size 4 is below min_size 5"),
        ({"max_group_size": 2}, "max_group_size 2 is below min_size 3"),
        (
            {"max_group_size": 5},
            "max_group_size 5 is above 4, the number of suits, while group_distinct_suits is set",
        ),
        ({"group_distinct_suits": 1}, "group_distinct_suits must be True or False, not 1"),
        ({"ace": "sideways"}, "ace must be one of low, high, low_or_high, wrap, not 'sideways'"),
        ({"ace": None}, "ace must be one of low, high, low_or_high, wrap, not None"),
        ({"min_naturals": 0}, "min_naturals must be a whole number of at least 1, not 0"),
        ({"min_naturals": 1.0}, "min_naturals must be a whole number of at least 1, not 1.0"),
        ({"joker_beside_ace": "no"}, "joker_beside_ace must be True or False, not 'no'"),
        ({"max_run_size": 1}, "max_run_size must be a whole number of at least 2, not 1"),
        ({"max_run_size": 2}, "max_run_size 2 is below min_size 3"),
        ({"max_run_size": "5"}, "max_run_size must be a whole number of at least 2, not '5'"),
    ],
)
def test_meld_rules_bad_settings(settings: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigurationError) as caught:
        MeldRules(**settings)  # type: ignore[arg-type]
    assert str(caught.value) == message


def test_meld_rules_relaxed_groups_may_be_larger() -> None:
    rules = MeldRules(group_distinct_suits=False, max_group_size=6)
    assert rules.max_group_size == 6
    assert is_meld(parse_cards("7h 7h 7d 7d 7c *"), rules)
    assert reason_for("7h 7h 7d 7d 7c * *", rules) == "group too large (7 cards, at most 6)"


# --- parse_meld, Meld, check -----------------------------------------------------------------


def test_parse_meld_declared_jokers() -> None:
    meld = parse_meld("Ah 2h *=3h 4h", DEFAULT)
    assert meld.kind is MeldKind.RUN
    assert format_cards(meld.cards) == "Ah 2h * 4h"
    assert format_cards(meld.stands_for) == "Ah 2h 3h 4h"
    assert meld.joker_count == 1
    assert meld.suit is Suit.HEARTS
    assert meld.rank is None
    group = parse_meld("7h, *=7c 7d", DEFAULT)
    assert group.kind is MeldKind.GROUP
    assert group.rank is Rank.SEVEN
    assert group.suit is None
    # R10: parse_meld keeps the order as written; canonical() gives the stored reading.
    assert str(group) == "7h *=7c 7d"
    assert group.declared_tokens() == ("7h", "*=7c", "7d")
    assert group.canonical().declared_tokens() == ("*=7c", "7d", "7h")


def test_parse_meld_undeclared_jokers_agree_with_declared_ones() -> None:
    assert str(parse_meld("Ah *=2h * 4h", DEFAULT)) == "Ah *=2h *=3h 4h"
    assert str(parse_meld("*=Ac Ad *", DEFAULT)).count("*=Ac") == 1
    meld = parse_meld("*=Ac Ad *", DEFAULT)
    assert meld.kind is MeldKind.GROUP
    assert len(set(meld.stands_for)) == 3


def test_parse_meld_declared_card_agrees_with_the_rules() -> None:
    assert reason_of_parse("Ah *=9h 3h") == "gap at 2h 4h 5h 6h 7h 8h"
    assert reason_of_parse("7h 7d *=7h") == "duplicate card in a group: 7h"
    assert reason_of_parse("7h 8h *=7h") == "duplicate rank in a run: 7h"


def reason_of_parse(text: str) -> str:
    with pytest.raises(InvalidMeldError) as caught:
        parse_meld(text, DEFAULT)
    return str(caught.value).removeprefix(f"{text} is not a meld: ")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Ah 7h=3h", "bad meld token '7h=3h': only a joker may declare a card"),
        ("Ah *=* 3h", "bad meld token '*=*': a joker must stand for a natural card"),
        ("Ah *=3x 4h", "bad card '3x': unknown suit 'x'"),
        ("Ah 2h 3z", "bad card '3z': unknown suit 'z'"),
        ("Ah 2h 11h", "bad card '11h': unknown rank '11'"),
    ],
)
def test_parse_meld_bad_tokens(text: str, message: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_meld(text, DEFAULT)
    assert str(caught.value) == message


@pytest.mark.parametrize("token", ["*=", "=3h"])
def test_parse_meld_half_declared_joker_names_the_token(token: str) -> None:
    # Core bug (message): the error names the empty half, "bad card ''", not the token.
    with pytest.raises(NotationError, match=re.escape(repr(token))):
        parse_meld(f"Ah 2h {token}", DEFAULT)


@pytest.mark.parametrize("value", [None, 7, ["Ah", "2h", "3h"]])
def test_parse_meld_non_text(value: object) -> None:
    with pytest.raises(NotationError):
        parse_meld(value, DEFAULT)  # type: ignore[arg-type]


def test_meld_check_and_is_valid() -> None:
    high_ace = parse_meld("Qh Kh *=Ah", DEFAULT)
    high_ace.check(DEFAULT)
    assert high_ace.is_valid(DEFAULT)
    with pytest.raises(InvalidMeldError, match="joker standing for an ace"):
        high_ace.check(ISRAELI)
    assert not high_ace.is_valid(ISRAELI)
    four = parse_meld("7c 7d 7h 7s", DEFAULT)
    assert not four.is_valid(MeldRules(max_group_size=3))
    with pytest.raises(InvalidMeldError, match=re.escape("group too large (4 cards, at most 3)")):
        four.check(MeldRules(max_group_size=3))
    six = parse_meld("3h 4h 5h 6h 7h 8h", DEFAULT)
    with pytest.raises(InvalidMeldError, match=re.escape("run too long (6 cards, at most 5)")):
        six.check(MeldRules(max_run_size=5))
    assert not parse_meld("Ah 2h 3h", DEFAULT).is_valid(HIGH)
    assert not parse_meld("Kh Ah 2h", WRAP).is_valid(DEFAULT)


def test_meld_built_directly_is_checked_against_its_reading() -> None:
    beside = Meld(MeldKind.RUN, parse_cards("Ah * 3h"), parse_cards("Ah 2h 3h"))
    assert beside.is_valid(DEFAULT)
    assert not beside.is_valid(ISRAELI)
    # A natural card standing for another builds (a wild card may, DESIGN section 11), and
    # the rules refuse it unless its rank is wild.
    swapped = Meld(MeldKind.RUN, parse_cards("Ah 3h 4h"), parse_cards("2h 3h 4h"))
    assert str(swapped) == "Ah=2h 3h 4h"
    assert not swapped.is_valid(DEFAULT)
    with pytest.raises(
        InvalidMeldError, match=re.escape("Ah=2h 3h 4h is not a meld: Ah cannot stand for 2h") + "$"
    ):
        swapped.check(DEFAULT)
    assert swapped.is_valid(MeldRules(wild_ranks={Rank.ACE}))
    with pytest.raises(InvalidMeldError, match="bad meld: 3 cards but 2"):
        Meld(MeldKind.RUN, parse_cards("Ah 2h 3h"), parse_cards("Ah 2h"))
    with pytest.raises(InvalidMeldError, match="cannot stand for"):
        Meld(MeldKind.GROUP, parse_cards("* 7h 7d"), parse_cards("* 7h 7d"))
    with pytest.raises(InvalidMeldError, match="bad meld kind"):
        Meld("run", parse_cards("Ah 2h 3h"), parse_cards("Ah 2h 3h"))  # type: ignore[arg-type]


# --- properties --------------------------------------------------------------------------------


@st.composite
def rules_and_meld(draw: st.DrawFn) -> tuple[MeldRules, Meld]:
    rules = draw(meld_rules())
    return rules, draw(melds(rules))


@given(rules_and_meld())
def test_every_generated_meld_validates(case: tuple[MeldRules, Meld]) -> None:
    rules, meld = case
    assert legal_reading(meld, rules) == ""
    assert has_legal_reading(meld.cards, rules)
    assert is_meld(meld.cards, rules)
    meld.check(rules)
    assert meld.is_valid(rules)


@given(rules_and_meld(), st.randoms(use_true_random=False))
def test_validation_is_independent_of_card_order(
    case: tuple[MeldRules, Meld], rng: random.Random
) -> None:
    rules, meld = case
    shuffled = list(meld.cards)
    rng.shuffle(shuffled)
    assert is_meld(shuffled, rules)
    assert Meld.from_cards(shuffled, rules) == Meld.from_cards(meld.cards, rules)
    assert Meld.from_cards(shuffled, rules, kind=meld.kind) == meld


@given(meld_rules(), hands(size=(0, 6), decks=2, jokers=3), st.permutations(range(6)))
def test_any_cards_validate_the_same_in_any_order(
    rules: MeldRules, hand: tuple[Card, ...], order: list[int]
) -> None:
    shuffled = [hand[i] for i in order if i < len(hand)]
    assert is_meld(shuffled, rules) == is_meld(hand, rules)


@given(meld_rules(), hands(size=(0, 6), decks=2, jokers=3))
def test_is_meld_agrees_with_an_independent_reader(
    rules: MeldRules, hand: tuple[Card, ...]
) -> None:
    assert is_meld(hand, rules) == has_legal_reading(hand, rules)
    if is_meld(hand, rules):
        meld = Meld.from_cards(hand, rules)
        assert legal_reading(meld, rules) == ""
        assert Counter(meld.cards) == Counter(hand)


@st.composite
def near_melds(draw: st.DrawFn) -> tuple[MeldRules, list[Card]]:
    """A generated meld with one change: a card replaced, added or removed."""
    rules, meld = draw(rules_and_meld())
    cards = list(meld.cards)
    change = draw(st.sampled_from(["replace", "add", "remove"]))
    position = draw(st.integers(0, len(cards) - 1))
    other = draw(st.sampled_from(make_deck(jokers=1)))
    if change == "replace":
        cards[position] = other
    elif change == "add":
        cards.insert(position, other)
    else:
        del cards[position]
    return rules, cards


@given(near_melds())
def test_is_meld_agrees_with_an_independent_reader_near_melds(
    case: tuple[MeldRules, list[Card]],
) -> None:
    rules, cards = case
    assert is_meld(cards, rules) == has_legal_reading(cards, rules)


def own_run_starts(ace: AceRule, size: int) -> range:
    return {
        AceRule.LOW: range(1, 15 - size),
        AceRule.HIGH: range(2, 16 - size),
        AceRule.LOW_OR_HIGH: range(1, 16 - size),
        AceRule.WRAP: range(1, 14),
    }[ace]


@given(meld_rules(), st.data())
def test_a_natural_run_with_a_middle_card_removed_is_not_a_meld(
    rules: MeldRules, data: st.DataObject
) -> None:
    smallest = max(3, rules.min_size, rules.min_naturals)
    assume(smallest <= longest_run(rules))
    size = data.draw(st.integers(smallest, longest_run(rules)), label="size")
    start = data.draw(st.sampled_from(own_run_starts(rules.ace, size)), label="start")
    suit = data.draw(st.sampled_from(Suit), label="suit")
    run = [Card((position - 1) % 13 + 1, suit) for position in range(start, start + size)]
    assert is_meld(run, rules)
    middle = data.draw(st.integers(1, size - 2), label="middle")
    rest = run[:middle] + run[middle + 1 :]
    # The exceptions hold every rank: a 13-card run round the corner is a circle, still a
    # run without any card; A…K without the 2 is 3…A (and 2…A without the K is A…Q) when
    # the ace may rank low or high.
    beside_ace = Rank.ACE in (run[middle - 1].rank, run[middle + 1].rank)
    still_a_run = size == 13 and (
        rules.ace is AceRule.WRAP or (rules.ace is AceRule.LOW_OR_HIGH and beside_ace)
    )
    assert is_meld(rest, rules) == still_a_run


def test_a_full_circle_round_the_corner_without_one_card_is_still_a_run() -> None:
    circle = parse_cards("Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh")
    for missing in range(13):
        rest = circle[:missing] + circle[missing + 1 :]
        assert is_meld(rest, WRAP)
        # Without wrapping only A…Q (no king), 2…K (no ace) and 3…A (no two) stay runs.
        assert is_meld(rest, DEFAULT) == (missing in (0, 1, 12))


@given(rules_and_meld())
def test_parse_meld_of_str_round_trips(case: tuple[MeldRules, Meld]) -> None:
    rules, meld = case
    assert parse_meld(str(meld), rules) == meld


# --- find_melds: reference data ----------------------------------------------------------------


def test_find_melds_reference_count_185() -> None:
    # One 52-card pack, ace low, runs of 3 to 5 cards:
    # groups: 13 ranks * (C(4,3) + C(4,4)) = 13 * 5 = 65;
    # runs: 4 suits * (11 + 10 + 9) = 120 (a run of n cards starts at A…(14−n), ace low only).
    rules = MeldRules(ace=AceRule.LOW, max_run_size=5)
    found = find_melds(make_deck(), rules)
    assert len(found) == 13 * 5 + 4 * (11 + 10 + 9) == 185
    assert sum(meld.kind is MeldKind.GROUP for meld in found) == 65
    assert len({multiset_key(meld.cards) for meld in found}) == 185
    assert all(legal_reading(meld, rules) == "" for meld in found)


def runs_on_a_line(length: int, size: int, jokers: int) -> int:
    """Sets of ``size − jokers`` ranks on a line of ``length`` that fit a window of ``size``.

    A set of m ranks spanning exactly d consecutive positions: (length − d + 1) places for
    it, times C(d − 2, m − 2) choices of the ranks strictly inside (m ≥ 2); m = 1: length.
    """
    naturals = size - jokers
    if naturals == 1:
        return length
    return sum(
        (length - span + 1) * len(list(itertools.combinations(range(span - 2), naturals - 2)))
        for span in range(naturals, size + 1)
    )


def test_runs_on_a_line_by_hand() -> None:
    # Size 3 on the 13 ranks: 11 full runs; 12 + 11 pairs with one joker; 13 singles.
    assert [runs_on_a_line(13, 3, jokers) for jokers in (0, 1, 2)] == [11, 23, 13]
    assert [runs_on_a_line(13, 5, jokers) for jokers in (0, 1, 2)] == [9, 37, 58]


# Two packs + 2 jokers, runs of 3 to 5 cards, derived by hand:
# groups of one rank: n natural suits (C(4, n) ways) + j jokers, 3 ≤ n + j ≤ 4, j ≤ 2:
#   n=1: j=2 (4); n=2: j=1,2 (6 * 2); n=3: j=0,1 (4 * 2); n=4: j=0 (1) → 25 per rank, 325.
# runs of one suit, ace low (positions 1…13): sizes 3, 4, 5 with 0, 1, 2 jokers:
#   runs_on_a_line(13, s, j) summed → 47 + 74 + 104 = 225 per suit, 900.
# One natural card with two jokers is both a group and a run: 52 multisets counted twice.
# Total 325 + 900 − 52 = 1173.
# With joker_beside_ace=False (ace low) a run holding the ace and a joker needs the 2 beside
# the ace natural; lost: the ace without the 2 plus 1–2 jokers: per suit, size 3: {A,3}+1j,
# {A}+2j; size 4: {A,3,4}+1j, {A,x}+2j for x in 3,4; size 5: {A,3,4,5}+1j, {A,x,y}+2j for
# x<y in 3..5 (3) → 2 + 3 + 4 = 9 per suit, 36, of which {A}+2j (4) stay valid as groups:
# 1173 − 32 = 1141.
# Ace low or high (positions 1…14, the ace at either end), joker beside an ace allowed:
# runs_on_a_line(14, s, j) summed, less {A}+2j counted at both ends (4 * 1 per suit):
#   (50 + 81 + 115) = 246 per suit → 984; 325 + 984 − 52 = 1257.
TWO_PACK_COUNTS = [
    (AceRule.LOW, True, 1173),
    (AceRule.LOW, False, 1141),
    (AceRule.LOW_OR_HIGH, True, 1257),
]


@pytest.mark.parametrize(("ace", "joker_beside_ace", "count"), TWO_PACK_COUNTS)
def test_find_melds_two_packs_two_jokers_counts_by_hand(
    ace: AceRule, joker_beside_ace: bool, count: int
) -> None:
    rules = MeldRules(ace=ace, max_run_size=5, joker_beside_ace=joker_beside_ace)
    line = 13 if ace is AceRule.LOW else 14
    runs = 4 * sum(runs_on_a_line(line, size, jokers) for size in (3, 4, 5) for jokers in (0, 1, 2))
    runs -= 4 * (line - 13)  # the lone ace with two jokers, counted at both ends
    groups = 13 * (4 + 6 * 2 + 4 * 2 + 1)
    assert joker_beside_ace or ace is AceRule.LOW  # the count of lost melds is for ace low
    lost = 0 if joker_beside_ace else 4 * (2 + 3 + 4) - 4
    assert groups + runs - 52 - lost == count
    assert len(find_melds(make_deck(decks=2, jokers=2), rules)) == count


@pytest.mark.parametrize(
    "rules",
    [
        MeldRules(ace=AceRule.LOW, max_run_size=4),
        MeldRules(ace=AceRule.LOW, max_run_size=4, joker_beside_ace=False),
        MeldRules(ace=AceRule.LOW_OR_HIGH, max_run_size=4, joker_beside_ace=False),
    ],
    ids=["low", "low-no-joker-beside-ace", "low-or-high-no-joker-beside-ace"],
)
def test_find_melds_two_packs_two_jokers_brute_force(rules: MeldRules) -> None:
    # Two packs give exactly the melds of one pack with the same jokers: a meld never holds
    # two identical cards (a group's suits differ, a run's ranks differ), so the second copy
    # of a card adds no new multiset.
    largest = max(rules.max_group_size, rules.longest_run)
    two_packs = brute_force_melds(2, 2, rules, largest)
    found = find_melds(make_deck(decks=2, jokers=2), rules)
    assert {multiset_key(meld.cards) for meld in found} == two_packs
    assert len(found) == len(two_packs)
    assert len(find_melds(make_deck(decks=1, jokers=2), rules)) == len(found)
    for key in two_packs:
        naturals = [index for index in key if index != JOKER.index]
        assert len(set(naturals)) == len(naturals)


def check_find_melds(hand: Sequence[Card], rules: MeldRules) -> tuple[Meld, ...]:
    found = find_melds(hand, rules)
    have = Counter(hand)
    keys = [multiset_key(meld.cards) for meld in found]
    assert len(set(keys)) == len(keys), "melds repeat as multisets"
    assert keys == sorted(keys), "melds are not in canonical order"
    for meld in found:
        assert not Counter(meld.cards) - have, f"{meld} uses cards outside the hand"
        assert legal_reading(meld, rules) == ""
        meld.check(rules)
        assert Meld.from_cards(meld.cards, rules) == meld
    return found


@given(meld_rules(), hands(size=(0, 7), decks=2, jokers=3))
def test_find_melds_finds_every_meld_of_a_small_hand(
    rules: MeldRules, hand: tuple[Card, ...]
) -> None:
    found = check_find_melds(hand, rules)
    expected = {
        key
        for key in sub_multisets(hand, rules.min_size)
        if is_meld([Card.from_index(index) for index in key], rules)
    }
    assert {multiset_key(meld.cards) for meld in found} == expected


@given(meld_rules(), hands(size=(8, 14), decks=2, jokers=2))
def test_find_melds_of_a_full_hand_are_valid_distinct_and_from_the_hand(
    rules: MeldRules, hand: tuple[Card, ...]
) -> None:
    check_find_melds(hand, rules)


def test_find_melds_example() -> None:
    found = find_melds(parse_cards("7h 8h 9h 7c 7d *"), DEFAULT)
    # Groups of sevens: the three naturals, with or without the joker, and any two of them
    # with the joker (3). Runs of hearts: 7-8-9 with or without the joker, and any two of
    # 7h 8h 9h with the joker (3). A single natural card would need two jokers.
    keys = {multiset_key(meld.cards) for meld in found}
    expected = {
        multiset_key(parse_cards(text))
        for text in [
            "7c 7d 7h",
            "7c 7d 7h *",
            "7c 7d *",
            "7c 7h *",
            "7d 7h *",
            "7h 8h 9h",
            "7h 8h 9h *",
            "7h 8h *",
            "8h 9h *",
            "7h 9h *",
        ]
    }
    assert keys == expected


def test_find_melds_of_nothing() -> None:
    assert find_melds([], DEFAULT) == ()
    assert find_melds(parse_cards("* * * *"), DEFAULT) == ()


def test_r10_parse_meld_keeps_the_order_as_written() -> None:
    meld = parse_meld("7h 7d *=7c", DEFAULT)
    assert format_cards(meld.cards) == "7h 7d *"
    assert format_cards(meld.stands_for) == "7h 7d 7c"
    run = parse_meld("9h * 7h", DEFAULT)
    assert format_cards(run.cards) == "9h * 7h"
    assert format_cards(run.stands_for) == "9h 8h 7h"


def test_r10_canonical_orders_runs_from_the_low_end_and_groups_by_suit() -> None:
    assert str(parse_meld("9h 7h 8h", DEFAULT).canonical()) == "7h 8h 9h"
    assert str(parse_meld("Ah Qh Kh", DEFAULT).canonical()) == "Qh Kh Ah"
    assert str(parse_meld("3h Ah 2h", DEFAULT).canonical()) == "Ah 2h 3h"
    assert str(parse_meld("7s *=7c 7h 7d", DEFAULT).canonical()) == "*=7c 7d 7h 7s"
    wrap = MeldRules(ace=AceRule.WRAP)
    assert str(parse_meld("2h Kh Ah", wrap).canonical()) == "Kh Ah 2h"
    full = parse_meld("Kh Qh Jh Th 9h 8h 7h 6h 5h 4h 3h 2h Ah", DEFAULT).canonical()
    assert str(full) == "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh"
    same = parse_meld("7h 8h 9h", DEFAULT)
    assert same.canonical() is same


def _grows(meld: Meld, token: str, rules: MeldRules) -> bool:
    """The oracle: the meld written out with one more token still reads as the same kind."""
    try:
        return parse_meld(f"{meld} {token}", rules).kind is meld.kind
    except InvalidMeldError:
        return False


@given(data=st.data(), rules=meld_rules())
def test_extensions_agree_with_reading_the_grown_meld(
    data: st.DataObject, rules: MeldRules
) -> None:
    meld = data.draw(melds(rules))
    card = data.draw(any_card())
    found = extensions(meld, card, rules)
    for extension in found:
        assert extension.meld.is_valid(rules)
        assert Counter(extension.meld.cards) == Counter((*meld.cards, card))
        assert extension.meld.canonical() == extension.meld
        assert (extension.end is None) == (meld.kind is MeldKind.GROUP)
    readings = {extension.stands_for for extension in found}
    if card.is_joker:
        targets = [natural for natural in make_deck() if not _grows(meld, f"*={natural}", rules)]
        assert readings.isdisjoint(targets)
        for natural in make_deck():
            if _grows(meld, f"*={natural}", rules):
                assert natural in readings, natural
    else:
        assert readings == ({card} if _grows(meld, str(card), rules) else set())


# --- wild cards (RULES.md 6.3, 6.7, 6.8; DESIGN.md section 11) -----------------------------------

SEVENS = MeldRules(wild_ranks={Rank.SEVEN})


@st.composite
def wild_hands(draw: st.DrawFn, max_size: int = 8) -> tuple[list[Card], MeldRules]:
    """Small hands from a few neighbouring ranks, one or two wild ranks, two packs, jokers."""
    low = draw(st.integers(1, 11))
    width = draw(st.integers(1, 3))
    ranks = draw(
        st.lists(
            st.one_of(st.integers(low, min(13, low + width)), st.integers(1, 13)).map(Rank),
            min_size=1,
            max_size=2,
        )
    )
    base = draw(st.sampled_from([DEFAULT, ISRAELI, LOW, WRAP, MeldRules(min_naturals=2)]))
    pool = [
        card
        for card in make_deck(decks=2, jokers=2)
        if card.is_joker or low <= int(card.rank or 0) <= low + width or card.rank in ranks
    ]
    hand = draw(st.lists(st.sampled_from(pool), max_size=max_size))
    return hand, MeldRules(
        ace=base.ace,
        min_naturals=base.min_naturals,
        joker_beside_ace=base.joker_beside_ace,
        wild_ranks=ranks,
    )


def substitutes(meld: Meld) -> int:
    """How many wild (natural) cards of ``meld`` stand for another card."""
    return sum(
        not card.is_joker and card is not stands
        for card, stands in zip(meld.cards, meld.stands_for, strict=True)
    )


def test_wild_ranks_setting() -> None:
    assert MeldRules().wild_ranks == frozenset()
    assert MeldRules(wild_ranks=[7, Rank.SEVEN]) == SEVENS
    assert hash(MeldRules(wild_ranks=(Rank.SEVEN,))) == hash(SEVENS)
    assert MeldRules(wild_ranks=iter([Rank.ACE, Rank.KING])).wild_ranks == {Rank.ACE, Rank.KING}
    assert isinstance(next(iter(MeldRules(wild_ranks=[2]).wild_ranks)), Rank)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("7", "wild_ranks must be ranks such as {Rank.SEVEN}, not '7'"),
        (7, "wild_ranks must be ranks such as {Rank.SEVEN}, not 7"),
        (None, "wild_ranks must be ranks such as {Rank.SEVEN}, not None"),
        ([14], "wild_ranks must hold ranks (Rank.ACE to Rank.KING), not 14"),
        ([0], "wild_ranks must hold ranks (Rank.ACE to Rank.KING), not 0"),
        ([True], "wild_ranks must hold ranks (Rank.ACE to Rank.KING), not True"),
        ([Rank.TWO, "7"], "wild_ranks must hold ranks (Rank.ACE to Rank.KING), not '7'"),
    ],
)
def test_wild_ranks_bad_values(value: object, message: str) -> None:
    with pytest.raises(ConfigurationError, match=re.escape(message) + "$"):
        MeldRules(wild_ranks=value)  # type: ignore[arg-type]


def test_rule_6_7_wild_in_its_natural_place_is_natural() -> None:
    # Wild rank 7: 6h 7h 8h holds the 7h in its own place, so it stands for itself.
    meld = Meld.from_cards(parse_cards("8h 7h 6h"), SEVENS)
    assert str(meld) == "6h 7h 8h"
    assert meld.stands_for == meld.cards
    assert meld.is_pure
    # It is a natural card: it counts for min_naturals, and may sit beside an ace (rule 1.13).
    assert is_meld(parse_cards("6h 7h 8h"), MeldRules(min_naturals=3, wild_ranks={Rank.SEVEN}))
    israeli_twos = MeldRules(joker_beside_ace=False, wild_ranks={Rank.TWO})
    assert is_meld(parse_cards("Ah 2h 3h"), israeli_twos)
    assert not is_meld(parse_cards("Ah 2c 3h"), israeli_twos)  # 2c=2h is a joker beside Ah
    # Declaring it in its own place is the same as not declaring it.
    assert parse_meld("6h 7h=7h 8h", SEVENS) == parse_meld("6h 7h 8h", SEVENS)


def test_rule_6_7_a_wild_card_stands_for_any_card_of_a_set_or_sequence() -> None:
    # A joker takes the rank and suit of the card it stands for: wild 7h in 9c 9d 7h=9s.
    group = parse_meld("9c 9d 7h=9s", SEVENS)
    assert (group.kind, group.rank, format_cards(group.stands_for)) == (
        MeldKind.GROUP,
        Rank.NINE,
        "9c 9d 9s",
    )
    run = parse_meld("5s 7d=6s 7s 7c=8s", SEVENS)
    assert (run.kind, run.suit, format_cards(run.stands_for)) == (
        MeldKind.RUN,
        Suit.SPADES,
        "5s 6s 7s 8s",
    )
    assert str(run) == "5s 7d=6s 7s 7c=8s"
    # Undeclared, wild cards fill the places a joker would (gaps first, then upwards).
    assert str(Meld.from_cards(parse_cards("7s 5s 7d"), SEVENS)) == "5s 7d=6s 7s"
    as_run = Meld.from_cards(parse_cards("7h 7d 7c"), SEVENS, kind=MeldKind.RUN)
    assert str(as_run) == "7c 7d=8c 7h=9c"


def test_rule_6_7_a_meld_needs_a_card_that_stands_for_itself() -> None:
    every_one_standing_in = Meld(MeldKind.RUN, parse_cards("7c 7d *"), parse_cards("5s 6s 7s"))
    with pytest.raises(
        InvalidMeldError, match=re.escape("not enough natural cards (0, at least 1)")
    ):
        every_one_standing_in.check(SEVENS)
    # The same cards read another way meld: 7c 7d stand for themselves in a group.
    assert str(Meld.from_cards(parse_cards("7c 7d *"), SEVENS)) == "7c 7d *=7h"


def test_rule_6_7_a_group_of_wild_cards_alone_is_natural() -> None:
    meld = Meld.from_cards(parse_cards("7h 7d 7c"), SEVENS)
    assert str(meld) == "7c 7d 7h"
    assert meld.is_pure
    assert is_meld(parse_cards("7c 7d 7h"), MeldRules(min_naturals=3, wild_ranks={Rank.SEVEN}))
    # Two copies of 7c cannot both be themselves in a group of distinct suits.
    assert str(Meld.from_cards(parse_cards("7c 7c 7d"), SEVENS)) == "7c 7d 7c=7h"
    assert not is_meld(parse_cards("7c 7c 7d"), MeldRules(min_naturals=3, wild_ranks={7}))


def test_rule_6_8_purity() -> None:
    twos = MeldRules(wild_ranks={Rank.TWO})
    assert parse_meld("Ah 2h 3h", twos).is_pure  # a wild card in its own place
    assert not parse_meld("Ah 2c=2h 3h", twos).is_pure
    assert not parse_meld("Ah *=2h 3h", twos).is_pure  # a printed joker never
    assert not parse_meld("Ah 2h *=3h", twos).is_pure
    assert parse_meld("4c 5c 6c", DEFAULT).is_pure
    assert not parse_meld("4c *=5c 6c", DEFAULT).is_pure


def test_substitutes_outside_the_wild_ranks_are_refused() -> None:
    swapped = Meld(MeldKind.RUN, parse_cards("5s 6s 7d"), parse_cards("5s 6s 7s"))
    assert str(swapped) == "5s 6s 7d=7s"
    assert swapped.is_valid(SEVENS)
    assert not swapped.is_valid(DEFAULT)
    with pytest.raises(
        InvalidMeldError, match=re.escape("5s 6s 7d=7s is not a meld: 7d cannot stand for 7s") + "$"
    ):
        swapped.check(DEFAULT)
    with pytest.raises(
        InvalidMeldError,
        match=re.escape(
            "7d cannot stand for 7s (only a joker or a wild card may; the wild ranks are 2, K)"
        ),
    ):
        swapped.check(MeldRules(wild_ranks={Rank.TWO, Rank.KING}))
    # parse_meld: the same refusal as ever without wild ranks, and the wild ranks named.
    with pytest.raises(
        NotationError,
        match=re.escape("bad meld token '7d=7s': only a joker may declare a card") + "$",
    ):
        parse_meld("5s 6s 7d=7s", DEFAULT)
    with pytest.raises(
        NotationError,
        match=re.escape(
            "bad meld token '7d=5s': only a joker or a wild card (rank 2) may declare a card"
        ),
    ):
        parse_meld("7d=5s 6s 7s", MeldRules(wild_ranks={Rank.TWO}))
    with pytest.raises(NotationError, match=re.escape("bad meld token '7d=*': a joker must stand")):
        parse_meld("5s 6s 7d=*", SEVENS)
    with pytest.raises(
        NotationError, match=re.escape("bad meld token '7d=': write a declared joker")
    ):
        parse_meld("5s 6s 7d=", SEVENS)
    with pytest.raises(NotationError, match=re.escape("bad card 'x'")):
        parse_meld("5s 6s 7d=x", SEVENS)


def test_wild_substitutes_in_points_and_canonical_order() -> None:
    points = CardPoints(ace=15, joker=25, ace_low_run=1)
    # A wild card standing in counts as a joker; in its own place, as itself.
    assert parse_meld("7d=5s 6s 7s", SEVENS).points(points) == 25 + 6 + 7
    aces = MeldRules(wild_ranks={Rank.ACE})
    assert parse_meld("Ah 2h 3h", aces).points(points) == 1 + 2 + 3  # a low ace, natural
    assert parse_meld("Ac=Ah 2h 3h", aces).points(points) == 25 + 2 + 3
    assert str(parse_meld("8h 7c=7h 6h", SEVENS).canonical()) == "6h 7c=7h 8h"
    assert str(parse_meld("7c=7s 7d 7h", SEVENS).canonical()) == "7d 7h 7c=7s"


@given(wild_hands())
def test_find_melds_with_wild_cards_is_every_meld_of_the_hand(
    case: tuple[list[Card], MeldRules],
) -> None:
    # The oracle tries every sub-multiset with every choice of its wild cards as jokers,
    # read without wild ranks (tests/oracle.py).
    hand, rules = case
    found = find_melds(hand, rules)
    expected = wild_melds(hand, rules)
    assert [multiset_key(meld.cards) for meld in found] == sorted(expected)
    for meld in found:
        meld.check(rules)
        assert substitutes(meld) == expected[multiset_key(meld.cards)], str(meld)
        assert meld == Meld.from_cards(reversed(meld.cards), rules)


@given(wild_hands(5))
def test_is_meld_with_wild_cards_agrees_with_every_reading(
    case: tuple[list[Card], MeldRules],
) -> None:
    hand, rules = case
    least = least_standing_in(hand, rules)
    assert is_meld(hand, rules) == (least is not None)
    if least is not None:
        meld = Meld.from_cards(hand, rules)
        assert Counter(meld.cards) == Counter(hand)
        assert substitutes(meld) == least
        assert meld.is_pure == (least == 0 and JOKER not in hand)


@given(wild_hands())
def test_wild_melds_round_trip_through_their_notation(case: tuple[list[Card], MeldRules]) -> None:
    hand, rules = case
    for meld in find_melds(hand, rules):
        assert parse_meld(str(meld), rules) == meld
        assert parse_meld(" ".join(meld.declared_tokens()), rules) == meld


@given(wild_hands(), st.data())
def test_extensions_of_wild_cards_are_those_of_a_joker_and_their_own(
    case: tuple[list[Card], MeldRules], data: st.DataObject
) -> None:
    hand, rules = case
    found = find_melds(hand, rules)
    assume(found)
    meld = data.draw(st.sampled_from(found))
    # The oracle reads the meld written out with one more card (as in the test above), every
    # wild card declared, so that the cards already there keep their readings.
    written = " ".join(
        f"{card}={stands}" if card.rank in rules.wild_ranks else meld_token
        for card, stands, meld_token in zip(
            meld.cards, meld.stands_for, meld.declared_tokens(), strict=True
        )
    )

    def grows(token: str) -> bool:
        try:
            return parse_meld(f"{written} {token}", rules).kind is meld.kind
        except InvalidMeldError:
            return False

    joker_ways = {way.stands_for for way in extensions(meld, JOKER, rules)}
    for card in make_deck():
        ways = extensions(meld, card, rules)
        for way in ways:
            assert way.meld.is_valid(rules)
            assert Counter(way.meld.cards) == Counter((*meld.cards, card))
            assert way.meld.canonical() == way.meld
        readings = {way.stands_for for way in ways}
        is_wild = card.rank in rules.wild_ranks
        own = {card} if grows(f"{card}={card}" if is_wild else str(card)) else set()
        assert readings == (joker_ways | own if is_wild else own), str(card)
        assert (card in extension_cards(meld, rules)) == bool(ways)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("7c 7d", "too few cards (2, at least 3)"),
        ("Kc 7d 2s", "mixed suits and ranks: a group needs one rank, a run one suit"),
        # Read with the 7d standing in (the most any reading can do), one joker short.
        ("5s 7d 9s", "gap at 6s 7s 8s (3 missing, 1 joker)"),
    ],
)
def test_refusal_reasons_with_wild_cards(text: str, reason: str) -> None:
    assert reason_for(text, SEVENS) == reason


def test_refusal_reason_when_no_card_is_left_natural() -> None:
    # Five sevens are a run of five with four standing in (7c 7d=8c …), unless runs are
    # shorter; then every seven standing in leaves no natural card, and the cards as they
    # are say more: too many for a group.
    assert is_meld(parse_cards("7c 7d 7h 7s 7c"), SEVENS)
    short_runs = MeldRules(max_run_size=4, wild_ranks={Rank.SEVEN})
    reason = reason_for("7c 7d 7h 7s 7c", short_runs)
    assert reason == "group too large (5 cards, at most 4)"
