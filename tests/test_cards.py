"""Cards, the joker, card notation and decks (DESIGN.md section 2, RULES.md 0.1)."""

from __future__ import annotations

import copy
import pickle
import re
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.vendor.pretty import pretty

from rummylib import (
    JOKER,
    Card,
    ConfigurationError,
    MeldRules,
    NotationError,
    Rank,
    RummyError,
    Suit,
    format_cards,
    make_deck,
    new_game,
    parse_card,
    parse_cards,
    parse_meld,
    sort_by_rank,
    sort_by_suit,
)
from rummylib.strategies import cards, hands

# The notation, written out here independently of the module under test.
RANK_LETTERS = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"} | {n: str(n) for n in range(2, 10)}
SUIT_LETTERS = {Suit.CLUBS: "c", Suit.DIAMONDS: "d", Suit.HEARTS: "h", Suit.SPADES: "s"}
SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}
SUITS_IN_ORDER = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)


def natural(rank: int, suit: Suit) -> Card:
    return Card(Rank(rank), suit)


def canonical(card: Card) -> str:
    """The canonical notation of a card, computed from its fields alone."""
    if card.rank is None or card.suit is None:
        return "*"
    return RANK_LETTERS[int(card.rank)] + SUIT_LETTERS[card.suit]


# --- Card values ---------------------------------------------------------------------------


def test_rule_0_1_two_packs_hold_identical_copies() -> None:
    deck = make_deck(decks=2)
    first, second = deck[:52], deck[52:]
    assert first == second
    assert all(a == b and hash(a) == hash(b) for a, b in zip(first, second, strict=True))
    assert len(set(deck)) == 52
    assert Counter(deck) == Counter(dict.fromkeys(first, 2))


def test_card_copies_are_equal_and_hash_alike() -> None:
    built = Card(Rank.SEVEN, Suit.HEARTS)
    assert built == Card(7, "h") == parse_card("7h") == Card.parse("7H")
    assert hash(built) == hash(Card(7, "h")) == hash(parse_card("7h"))
    assert built != Card(7, "d")
    assert built != Card(8, "h")
    assert built != JOKER
    assert {built, Card(7, "h"), parse_card("7h")} == {built}
    assert copy.copy(built) == built
    assert copy.deepcopy(built) == built
    assert pickle.loads(pickle.dumps(built)) == built
    assert pickle.loads(pickle.dumps(JOKER)) == JOKER


def test_card_fields_and_joker() -> None:
    card = Card(Rank.QUEEN, Suit.SPADES)
    assert (card.rank, card.suit, card.is_joker) == (Rank.QUEEN, Suit.SPADES, False)
    assert (JOKER.rank, JOKER.suit, JOKER.is_joker) == (None, None, True)
    assert Card(None, None) == JOKER
    assert parse_card("*") == JOKER


def test_card_accepts_suit_letters_and_symbols() -> None:
    for suit, letter in SUIT_LETTERS.items():
        assert Card(5, letter) == Card(5, letter.upper()) == Card(5, SUIT_SYMBOLS[suit])
        assert Card(5, letter).suit is suit


@pytest.mark.parametrize(
    ("rank", "suit"),
    [
        (0, "h"),
        (14, "h"),
        (-1, "h"),
        (7.0, "h"),
        (True, "h"),
        ("7", "h"),
        ([], "h"),
        (7, "x"),
        (7, "hh"),
        (7, ""),
        (7, 3),
        (7, ["h"]),
        (7, None),
        (None, "h"),
        (Rank.SEVEN, None),
    ],
)
def test_bad_card_arguments_raise_notation_error(rank: object, suit: object) -> None:
    with pytest.raises(NotationError, match="bad card"):
        Card(rank, suit)  # type: ignore[arg-type]


def test_card_index_is_canonical() -> None:
    # index = 13 * suit number + rank - 1, suits in the order c d h s; the joker is 52.
    for suit_number, suit in enumerate(SUITS_IN_ORDER):
        for rank in range(1, 14):
            assert natural(rank, suit).index == 13 * suit_number + rank - 1
    assert JOKER.index == 52


def test_card_from_index_round_trips() -> None:
    assert Card.from_index(0) == parse_card("Ac")
    assert Card.from_index(12) == parse_card("Kc")
    assert Card.from_index(13) == parse_card("Ad")
    assert Card.from_index(51) == parse_card("Ks")
    assert Card.from_index(52) == JOKER
    for index in range(53):
        assert Card.from_index(index).index == index
    for card in make_deck(jokers=1):
        assert Card.from_index(card.index) == card


@pytest.mark.parametrize("index", [-1, 53, 100])
def test_card_from_index_out_of_range(index: int) -> None:
    with pytest.raises(NotationError, match=f"bad card index {index}"):
        Card.from_index(index)


@pytest.mark.parametrize("index", ["3", 1.5, None, True])
def test_card_from_index_not_a_whole_number(index: object) -> None:
    # Core bug: "3", 1.5 and None raise a bare TypeError, and True is read as 1 (2c).
    with pytest.raises(NotationError, match="bad card index"):
        Card.from_index(index)  # type: ignore[arg-type]


# --- notation ------------------------------------------------------------------------------


def test_str_is_canonical() -> None:
    assert str(parse_card("7h")) == "7h"
    assert str(parse_card("10h")) == "Th"
    assert str(JOKER) == "*"
    for card in make_deck(jokers=1):
        assert str(card) == canonical(card)
    assert repr(parse_card("th")) == "Card.parse('Th')"


@pytest.mark.parametrize("text", ["Th", "10h", "th", "TH", "10H", "t♥", "10♥"])
def test_parse_ten_as_t_or_10_any_case(text: str) -> None:
    assert parse_card(text) == Card(Rank.TEN, Suit.HEARTS)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("ah", "Ah"), ("AH", "Ah"), ("aH", "Ah"), ("qS", "Qs"), ("Kd", "Kd"), ("jc", "Jc")],
)
def test_parse_any_case(text: str, expected: str) -> None:
    assert str(parse_card(text)) == expected


@pytest.mark.parametrize(
    ("text", "expected"), [("7♣", "7c"), ("7♦", "7d"), ("7♥", "7h"), ("7♠", "7s"), ("A♠", "As")]
)
def test_parse_unicode_suits(text: str, expected: str) -> None:
    assert str(parse_card(text)) == expected


@pytest.mark.parametrize("text", ["*", "jk", "JK", "Jk", "joker", "JOKER", "Joker"])
def test_parse_joker_spellings(text: str) -> None:
    assert parse_card(text) == JOKER
    assert parse_card(text).is_joker


def test_parse_cards_separators() -> None:
    expected = (natural(1, Suit.HEARTS), natural(2, Suit.HEARTS), JOKER, natural(4, Suit.HEARTS))
    for text in [
        "Ah 2h * 4h",
        "Ah,2h,*,4h",
        "Ah, 2h, *, 4h",
        "  Ah 2h\t*\n4h  ",
        ",Ah,,2h ,joker, 4h,",
    ]:
        assert parse_cards(text) == expected


@pytest.mark.parametrize("text", ["", "   ", ",", " , ,"])
def test_parse_cards_of_nothing_is_empty(text: str) -> None:
    assert parse_cards(text) == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1x", "bad card '1x': unknown rank '1'"),
        ("11h", "bad card '11h': unknown rank '11'"),
        ("8z", "bad card '8z': unknown suit 'z'"),
        ("Zh", "bad card 'Zh': unknown rank 'Z'"),
        ("h", "bad card 'h'"),
        ("7", "bad card '7'"),
        ("", "bad card ''"),
        ("7h 8h", "bad card '7h 8h': expected exactly one card"),
        ("7h,8h", "bad card '7h,8h': expected exactly one card"),
        ("**", "bad card '**'"),
        ("jokers", "bad card 'jokers'"),
    ],
)
def test_parse_card_errors_name_the_token(text: str, message: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_card(text)
    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("text", "token"),
    [("Ah 2h 3x", "3x"), ("Ah, 11h, 3h", "11h"), ("* jk jokr", "jokr"), ("7h 8♥ 9?", "9?")],
)
def test_parse_cards_errors_name_the_bad_token(text: str, token: str) -> None:
    with pytest.raises(NotationError, match=re.escape(f"bad card '{token}'")):
        parse_cards(text)


def test_notation_error_is_a_value_error_and_a_rummy_error() -> None:
    with pytest.raises(NotationError) as caught:
        parse_cards("7h 8z")
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, RummyError)
    assert issubclass(NotationError, ValueError)
    assert issubclass(NotationError, RummyError)


@pytest.mark.parametrize("value", [7, None, b"7h", ["7h"]])
def test_parse_non_text_raises_notation_error(value: object) -> None:
    with pytest.raises(NotationError):
        parse_card(value)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        parse_cards(value)  # type: ignore[arg-type]


def test_format_cards_is_canonical() -> None:
    assert format_cards([]) == ""
    assert format_cards([JOKER, natural(10, Suit.CLUBS), natural(1, Suit.SPADES)]) == "* Tc As"
    assert format_cards(parse_cards("10♥, jk ah")) == "Th * Ah"


@given(hands(size=(0, 20), decks=2, jokers=4))
def test_format_then_parse_round_trips(hand: tuple[Card, ...]) -> None:
    text = format_cards(hand)
    assert parse_cards(text) == hand
    assert text == " ".join(canonical(card) for card in hand)


@given(cards())
def test_str_then_parse_round_trips(card: Card) -> None:
    assert parse_card(str(card)) == card
    assert str(card) == canonical(card)


@st.composite
def spelled(draw: st.DrawFn, card: Card) -> str:
    """One of the many accepted spellings of a card, chosen independently of the parser."""
    if card.rank is None or card.suit is None:
        return draw(st.sampled_from(["*", "jk", "JK", "jK", "joker", "JOKER", "Joker"]))
    letter = RANK_LETTERS[int(card.rank)]
    rank_spellings = [letter, letter.lower()] + (["10"] if card.rank == Rank.TEN else [])
    suit_letter = SUIT_LETTERS[card.suit]
    suit_spellings = [suit_letter, suit_letter.upper(), SUIT_SYMBOLS[card.suit]]
    return draw(st.sampled_from(rank_spellings)) + draw(st.sampled_from(suit_spellings))


@given(st.data(), hands(size=(0, 15), jokers=2))
def test_parse_any_spelling_and_separators(data: st.DataObject, hand: tuple[Card, ...]) -> None:
    separator = st.sampled_from([" ", ",", ", ", " ,", "\t", "\n", "  ", ",,"])
    text = data.draw(st.sampled_from(["", " ", ","]))
    for card in hand:
        text += data.draw(spelled(card)) + data.draw(separator)
    assert parse_cards(text) == hand


# --- decks ---------------------------------------------------------------------------------


def test_make_deck_canonical_order() -> None:
    # For each pack: clubs, diamonds, hearts, spades, each from ace to king; then the jokers.
    pack = [natural(rank, suit) for suit in SUITS_IN_ORDER for rank in range(1, 14)]
    assert make_deck() == tuple(pack)
    assert make_deck(decks=2, jokers=4) == (*pack, *pack, JOKER, JOKER, JOKER, JOKER)
    assert format_cards(make_deck()[:14]) == "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ad"


@pytest.mark.parametrize(("decks", "jokers"), [(1, 0), (1, 1), (1, 2), (2, 2), (2, 4), (3, 0)])
def test_make_deck_sizes(decks: int, jokers: int) -> None:
    deck = make_deck(decks=decks, jokers=jokers)
    assert len(deck) == 52 * decks + jokers
    counts = Counter(deck)
    assert counts[JOKER] == jokers
    assert len(counts) == 52 + (jokers > 0)
    assert all(count == decks for card, count in counts.items() if not card.is_joker)


def test_make_deck_defaults_and_positional_arguments() -> None:
    assert len(make_deck()) == 52
    assert make_deck(2, 4) == make_deck(decks=2, jokers=4)


@pytest.mark.parametrize(
    ("decks", "jokers", "message"),
    [
        (0, 0, "decks must be a whole number of at least 1, not 0"),
        (-1, 0, "decks must be a whole number of at least 1, not -1"),
        (1.5, 0, "decks must be a whole number of at least 1, not 1.5"),
        (True, 0, "decks must be a whole number of at least 1, not True"),
        ("2", 0, "decks must be a whole number of at least 1, not '2'"),
        (1, -1, "jokers must be a whole number of at least 0, not -1"),
        (1, 0.5, "jokers must be a whole number of at least 0, not 0.5"),
        (1, False, "jokers must be a whole number of at least 0, not False"),
        (1, None, "jokers must be a whole number of at least 0, not None"),
    ],
)
def test_make_deck_bad_arguments(decks: object, jokers: object, message: str) -> None:
    with pytest.raises(ConfigurationError) as caught:
        make_deck(decks, jokers)  # type: ignore[arg-type]
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)


# --- sorting -------------------------------------------------------------------------------


def test_sort_by_rank_777() -> None:
    hand = parse_cards("7h * 2c 7c Ks Ad 7s")
    assert format_cards(sort_by_rank(hand)) == "Ad 2c 7c 7h 7s Ks *"


def test_sort_by_suit_789() -> None:
    hand = parse_cards("7h * 2c 8h Ks Ah 9h")
    assert format_cards(sort_by_suit(hand)) == "2c Ah 7h 8h 9h Ks *"


def suit_number(card: Card) -> int:
    assert card.suit is not None
    return SUITS_IN_ORDER.index(card.suit)


@given(hands(size=(0, 20), decks=2, jokers=4))
def test_sorts_are_permutations_in_order(hand: tuple[Card, ...]) -> None:
    by_rank = sort_by_rank(hand)
    by_suit = sort_by_suit(hand)
    assert isinstance(by_rank, tuple)
    assert isinstance(by_suit, tuple)
    assert Counter(by_rank) == Counter(hand) == Counter(by_suit)
    jokers = hand.count(JOKER)
    for ordered in (by_rank, by_suit):
        assert ordered[len(ordered) - jokers :] == (JOKER,) * jokers
    naturals_by_rank = by_rank[: len(hand) - jokers]
    naturals_by_suit = by_suit[: len(hand) - jokers]
    rank_keys = [(int(card.rank or 0), suit_number(card)) for card in naturals_by_rank]
    suit_keys = [(suit_number(card), int(card.rank or 0)) for card in naturals_by_suit]
    assert rank_keys == sorted(rank_keys)
    assert suit_keys == sorted(suit_keys)


@pytest.mark.parametrize(
    ("decks", "jokers", "message"),
    [
        (5, 0, "decks must be at most 4, not 5"),
        (10**20, 0, "decks must be at most 4, not 100000000000000000000"),
        (1, 33, "jokers must be at most 32, not 33"),
        (1, 10**9, "jokers must be at most 32, not 1000000000"),
    ],
)
def test_r9_make_deck_refuses_a_deck_too_large_to_hold(
    decks: int, jokers: int, message: str
) -> None:
    with pytest.raises(ConfigurationError, match=f"^{message}$"):
        make_deck(decks=decks, jokers=jokers)
    assert len(make_deck(decks=4, jokers=32)) == 240


def test_pretty_printers_show_cards_melds_and_states_in_their_short_notation() -> None:
    # Hypothesis's failure reports use the pretty printer: attrs objects would be listed field
    # by field (Card(rank=<Rank.ACE: 1>, suit=Suit.CLUBS)), a GameState over hundreds of lines.
    assert pretty(parse_card("Ac")) == "Card.parse('Ac')"
    assert pretty([parse_meld("7h 8h *", MeldRules())]) == "[Meld(run: 7h 8h *=9h)]"
    state = new_game("rummy101", players=2, seed=5)
    assert pretty(state) == repr(state)
    assert pretty(state).startswith("<GameState rummy101 deal 1 draw")
