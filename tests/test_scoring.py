"""Card points and hand values (DESIGN.md section 4, RULES.md 0.6, 0.7, 1.16, 2.3, 3.9)."""

from __future__ import annotations

import re

import attrs
import pytest
from hypothesis import given

from rummylib import (
    JOKER,
    Card,
    CardPoints,
    ConfigurationError,
    Rank,
    RummyError,
    hand_points,
    make_deck,
    parse_card,
    parse_cards,
)
from rummylib.strategies import hands


def expected_points(card: Card, *, ace: int, face: int, joker: int) -> int:
    """Card points written out from the rules text: 2–10 at pip value."""
    if card.is_joker:
        return joker
    assert card.rank is not None
    if card.rank == Rank.ACE:
        return ace
    if card.rank in (Rank.JACK, Rank.QUEEN, Rank.KING):
        return face
    return int(card.rank)


def test_card_points_defaults() -> None:
    points = CardPoints()
    assert (points.ace, points.face, points.joker, points.ace_low_run) == (1, 10, 0, None)
    assert points == CardPoints(ace=1, face=10, joker=0, ace_low_run=None)


def test_card_points_is_frozen_and_keyword_only() -> None:
    points = CardPoints()
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        points.ace = 15  # type: ignore[misc]
    with pytest.raises(TypeError):
        CardPoints(15)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"ace": -1}, "ace must be a whole number of points of at least 0, not -1"),
        ({"face": -1}, "face must be a whole number of points of at least 0, not -1"),
        ({"joker": 2.5}, "joker must be a whole number of points of at least 0, not 2.5"),
        ({"joker": True}, "joker must be a whole number of points of at least 0, not True"),
        ({"ace": "15"}, "ace must be a whole number of points of at least 0, not '15'"),
        ({"ace_low_run": -5}, "ace_low_run must be a whole number of points of at least 0, not -5"),
        (
            {"ace_low_run": 1.0},
            "ace_low_run must be a whole number of points of at least 0, not 1.0",
        ),
    ],
)
def test_card_points_bad_settings(settings: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigurationError) as caught:
        CardPoints(**settings)  # type: ignore[arg-type]
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, RummyError)


def test_points_of_every_card_with_defaults() -> None:
    points = CardPoints()
    for card in make_deck(jokers=1):
        assert points.of(card) == expected_points(card, ace=1, face=10, joker=0)
    assert points.of(parse_card("7d")) == 7
    assert points.of(parse_card("Td")) == 10
    assert points.of(parse_card("2s")) == 2


@pytest.mark.parametrize(
    ("ace", "face", "joker"), [(1, 10, 0), (15, 10, 15), (1, 10, 25), (11, 5, 50), (0, 0, 0)]
)
def test_points_of_every_card(ace: int, face: int, joker: int) -> None:
    points = CardPoints(ace=ace, face=face, joker=joker)
    for card in make_deck(jokers=1):
        assert points.of(card) == expected_points(card, ace=ace, face=face, joker=joker)


def test_rule_1_16_israeli_card_points() -> None:
    # 2–10 at pip value; J, Q, K = 10; ace = 1; joker = 0.
    israeli = CardPoints(ace=1, joker=0)
    assert hand_points(parse_cards("Ah 2h 9c Tc Jd Qs Kh *"), israeli) == 1 + 2 + 9 + 10 + 30 + 0


def test_rule_2_3_carousel_card_points() -> None:
    # Joker 25; J, Q, K 10; 2–10 pip value; ace 1.
    carousel = CardPoints(joker=25)
    assert hand_points(parse_cards("* Ks 5d Ac"), carousel) == 25 + 10 + 5 + 1


def test_rule_3_9_and_0_6_turkish_ace_differs_in_hand_and_low_run() -> None:
    # Ace 15 in hand, 1 as the low end of a run (A-2-3); joker 15.
    turkish = CardPoints(ace=15, joker=15, ace_low_run=1)
    assert turkish.of(parse_card("Ah")) == 15
    assert turkish.ace_in_low_run == 1
    assert hand_points(parse_cards("Ah * 7c"), turkish) == 15 + 15 + 7


def test_ace_in_low_run_defaults_to_the_ace() -> None:
    assert CardPoints().ace_in_low_run == 1
    assert CardPoints(ace=15).ace_in_low_run == 15
    assert CardPoints(ace=15, ace_low_run=5).ace_in_low_run == 5
    assert CardPoints(ace=15, ace_low_run=0).ace_in_low_run == 0


def test_rule_0_7_hand_points_is_the_plain_sum() -> None:
    assert hand_points([], CardPoints()) == 0
    assert hand_points(parse_cards("Ah 2h 3h Kc"), CardPoints()) == 1 + 2 + 3 + 10
    assert hand_points(parse_cards("Ah Kd 7c *"), CardPoints(joker=25)) == 1 + 10 + 7 + 25
    # Two copies of a card both count.
    assert hand_points(parse_cards("9h 9h"), CardPoints()) == 18
    # Any iterable of cards.
    assert hand_points(iter([JOKER, JOKER]), CardPoints(joker=20)) == 40


@given(hands(size=(0, 20), decks=2, jokers=4))
def test_hand_points_adds_the_points_of_each_card(hand: tuple[Card, ...]) -> None:
    points = CardPoints(ace=15, face=10, joker=25, ace_low_run=1)
    expected = sum(expected_points(card, ace=15, face=10, joker=25) for card in hand)
    assert hand_points(hand, points) == expected
    assert hand_points(hand, points) == sum(points.of(card) for card in hand)


@given(hands(size=(0, 10)), hands(size=(0, 10)))
def test_hand_points_is_additive(first: tuple[Card, ...], second: tuple[Card, ...]) -> None:
    points = CardPoints(joker=25)
    assert hand_points(first + second, points) == hand_points(first, points) + hand_points(
        second, points
    )


# The kinds of DealResult.ending each variant's rules page lists, written out here by hand.
ENDINGS = {
    "rummy71": {"declared", "void"},
    "rummy101": {"declared", "void"},
    "carousel": {"went_out", "knock", "stock_out"},
    "gin": {"gin", "knock", "undercut", "tie", "void"},
    "turkish500": {"went_out", "went_out_dealt_hand", "round_limit", "stock_out", "redeal"},
    "turkish300": {"went_out", "went_out_dealt_hand", "round_limit", "stock_out", "redeal"},
    "turkish500_cutthroat": {
        "went_out",
        "went_out_dealt_hand",
        "round_limit",
        "stock_out",
        "redeal",
    },
    "rummy500": {"went_out", "went_out_dealt_hand", "round_limit", "stock_out", "redeal"},
    "knock7": {"knock", "fold", "stock_out"},
}
# The words of ended_by each kind goes with (a deal's words and kind never disagree).
ENDING_WORDS = {
    "declared": " declared rummy",
    "void": "a draw|void",
    "went_out": " went out",
    "went_out_dealt_hand": " went out with the dealt hand",
    "knock": " knocked",
    "gin": " went gin",
    "undercut": " was undercut",
    "tie": ": a tie",
    "stock_out": "stock ran out",
    "round_limit": " played",
    "redeal": "dealt again",
    "fold": " folded",
}


@pytest.mark.parametrize("name", sorted(ENDINGS))
def test_every_deal_says_how_it_ended_as_a_kind_its_rules_page_lists(name: str) -> None:
    from rummylib import new_game  # noqa: PLC0415
    from rummylib.bots import GreedyBot, RandomBot, play  # noqa: PLC0415
    from rummylib.variants import VARIANTS  # noqa: PLC0415

    variant = VARIANTS[name]()
    players = variant.min_players
    seen: set[str] = set()
    for seed in range(6):
        bots = [GreedyBot() if seed % 2 else RandomBot(seed + seat) for seat in range(players)]
        final = play(new_game(name, players=players, seed=seed), bots)
        for deal in final.deal_results:
            assert deal.ending in ENDINGS[name], deal
            assert re.search(ENDING_WORDS[deal.ending], deal.ended_by), deal
            seen.add(deal.ending)
    assert seen  # at least one deal ended


def test_rule_6_5_wild_cards_count_as_jokers_in_a_hand() -> None:
    # Indian points: A, K, Q, J 10; printed and wild jokers 0. With the sevens wild,
    # 7d 7s * Kh Ah 5c is 0 + 0 + 0 + 10 + 10 + 5.
    indian = CardPoints(ace=10, face=10, joker=0)
    hand = parse_cards("7d 7s * Kh Ah 5c")
    assert hand_points(hand, indian, wild_ranks={Rank.SEVEN}) == 25
    assert hand_points(hand, indian) == 7 + 7 + 25
    # Aces wild (the cut card was a printed joker, rule 6.3), with jokers worth 25.
    assert hand_points(parse_cards("Ah Ac 2d"), CardPoints(joker=25), wild_ranks=[Rank.ACE]) == 52
