"""Pictures (issue 14): rummylib.svg, the reprs, and what a screen reader or a test can read.

Every picture is parsed here with :mod:`xml.etree.ElementTree` directly, so these tests do not
trust :func:`rummylib.svg.read_cards`; expected titles are written out by hand.
"""

from __future__ import annotations

from collections import Counter
from xml.etree import ElementTree
from xml.etree.ElementTree import Element

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rummylib import (
    JOKER,
    CardPoints,
    MeldRules,
    NotationError,
    Rank,
    arrange,
    new_game,
    parse_card,
    parse_cards,
    parse_meld,
    stack_deck,
    svg,
)
from rummylib.actions import Discard, DrawStock, Rearrange
from rummylib.cards import Card
from rummylib.errors import InvalidMeldError
from rummylib.melds import Meld
from rummylib.state import GameState
from rummylib.strategies import games, hands, meld_rules, melds
from rummylib.tiles import TILE_NOTATION
from rummylib.variants.carousel import carousel_deck

NS = "{http://www.w3.org/2000/svg}"
RED = "#c62828"
BLACK = "#1b1b1b"


def parse(picture: str) -> Element:
    root = ElementTree.fromstring(picture)
    assert root.tag == f"{NS}svg"
    return root


def card_elements(root: Element) -> list[Element]:
    """Card faces, and Rummikub's tile faces (``class="tile"``)."""
    return [g for g in root.iter(f"{NS}g") if {"card", "tile"} & set(g.get("class", "").split())]


def titles(picture: str) -> list[str]:
    return [g.findtext(f"{NS}title") or "" for g in card_elements(parse(picture))]


def labels(picture: str) -> list[str]:
    return [g.get("aria-label", "") for g in card_elements(parse(picture))]


def texts(element: Element) -> list[str]:
    return [text.text or "" for text in element.iter(f"{NS}text")]


def assert_well_formed(picture: str) -> Element:
    """A picture: SVG with a viewBox, sizes that match it, a title and an aria-label."""
    root = parse(picture)
    left, top, width, height = (float(part) for part in root.get("viewBox", "").split())
    assert (left, top) == (0, 0)
    assert width > 0
    assert height > 0
    assert float(root.get("width", "0")) == width
    assert float(root.get("height", "0")) == height
    assert root.get("role") == "img"
    assert root.get("aria-label")
    assert root[0].tag == f"{NS}title"
    assert root[0].text
    for element in card_elements(root):
        assert element[0].tag == f"{NS}title"  # the title is the first child, so it names it
        assert element.get("aria-label")
    return root


# -- one card ------------------------------------------------------------------------------------


def test_card_is_an_svg_with_viewbox_title_and_words() -> None:
    picture = svg.card(parse_card("Th"))
    root = assert_well_formed(picture)
    assert root.get("viewBox") == "0 0 72 96"  # a 60 x 84 card in a 6-unit margin
    assert titles(picture) == ["Th"]
    assert labels(picture) == ["ten of hearts"]
    assert root[0].text == "Th"
    assert root.get("aria-label") == "ten of hearts"


@pytest.mark.parametrize(
    ("text", "label", "ink"),
    [
        ("Ah", "ace of hearts", RED),
        ("7d", "seven of diamonds", RED),
        ("Qc", "queen of clubs", BLACK),
        ("2s", "two of spades", BLACK),
    ],
)
def test_red_hearts_and_diamonds_black_clubs_and_spades(text: str, label: str, ink: str) -> None:
    (element,) = card_elements(parse(svg.card(parse_card(text))))
    assert element.get("aria-label") == label
    fills = {g.get("fill") for g in element.iter(f"{NS}g") if g.get("fill")}
    assert fills == {ink}


@pytest.mark.parametrize(
    ("text", "corner", "pips"),
    [
        ("Ac", "A", 1),
        ("2c", "2", 2),
        ("5d", "5", 5),
        ("7h", "7", 7),
        ("9s", "9", 9),
        ("Th", "10", 10),
        ("Js", "J", 2),  # a court card: a framed letter between two pips
        ("Kd", "K", 2),
    ],
)
def test_corners_show_rank_and_suit_and_the_middle_shows_the_pips(
    text: str, corner: str, pips: int
) -> None:
    (element,) = card_elements(parse(svg.card(parse_card(text))))
    # Rank in the top left and (turned round) bottom right corner, plus a court card's letter.
    assert texts(element)[:2] == [corner, corner]
    # Suit shapes are paths: one under each corner index, then the pips of the middle.
    assert len(list(element.iter(f"{NS}path"))) == 2 + pips


def test_the_joker_is_distinct() -> None:
    (element,) = card_elements(parse(svg.card(JOKER)))
    assert element.findtext(f"{NS}title") == "*"
    assert element.get("aria-label") == "joker"
    assert "JOKER" in texts(element)
    assert RED not in ElementTree.tostring(element, encoding="unicode")


def test_a_joker_is_drawn_with_the_card_it_stands_for() -> None:
    # as a meld on the table shows it: the same picture as the joker's slot in svg.meld
    picture = svg.card(JOKER, stands_for=parse_card("8h"))
    assert svg.read_cards(picture) == ("*=8h",)
    (element,) = card_elements(parse(picture))
    assert element.get("aria-label") == "joker as eight of hearts"
    tile = svg.card(JOKER, stands_for=parse_card("7c"), notation=TILE_NOTATION)
    assert svg.read_cards(tile) == ("*=o7",)
    wild = svg.card(parse_card("2d"), stands_for=parse_card("9s"))  # a wild card standing in
    assert svg.read_cards(wild) == ("2d=9s",)
    with pytest.raises(NotationError, match="a joker stands for a natural card"):
        svg.card(JOKER, stands_for=JOKER)
    with pytest.raises(NotationError, match="only a joker stands for another tile"):
        svg.card(parse_card("7s"), stands_for=parse_card("7c"), notation=TILE_NOTATION)
    with pytest.raises(NotationError, match="expected a Card"):
        svg.card(JOKER, stands_for="8h")  # type: ignore[arg-type]


def test_card_refuses_what_is_not_a_card() -> None:
    with pytest.raises(NotationError, match="bad card '7h': expected a Card"):
        svg.card("7h")  # type: ignore[arg-type]


def test_repr_svg_of_a_card_is_its_picture() -> None:
    card = parse_card("Qs")
    assert card._repr_svg_() == svg.card(card)


# -- several cards -------------------------------------------------------------------------------


def test_cards_one_element_per_card_in_order() -> None:
    picture = svg.cards(parse_cards("7h 7h * Ks 2c"))
    assert_well_formed(picture)
    assert titles(picture) == ["7h", "7h", "*", "Ks", "2c"]
    assert parse(picture)[0].text == "7h 7h * Ks 2c"


def test_cards_highlight_by_card_and_by_position() -> None:
    picture = svg.cards(parse_cards("7h 8h 7h Ks"), highlight=[parse_card("7h"), 3])
    marked = ["highlight" in g.get("class", "").split() for g in card_elements(parse(picture))]
    assert marked == [True, False, True, True]
    assert labels(picture)[1] == "eight of hearts"
    assert labels(picture)[0] == "seven of hearts, highlighted"


@pytest.mark.parametrize("mark", [4, -1, True, "7h"])
def test_cards_highlight_must_name_a_card_or_a_position(mark: object) -> None:
    with pytest.raises(NotationError, match="bad highlight"):
        svg.cards(parse_cards("7h 8h 9h Th"), highlight=[mark])  # type: ignore[list-item]


def test_no_cards_is_still_a_picture() -> None:
    picture = svg.cards([])
    assert_well_formed(picture)
    assert titles(picture) == []
    assert "no cards" in texts(parse(picture))


def test_long_rows_wrap_after_fourteen_cards() -> None:
    one_line = parse(svg.cards(parse_cards("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ad")))
    two_lines = parse(svg.cards(parse_cards("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ad 2d")))
    one_height = float(one_line.get("height", "0"))
    two_height = float(two_lines.get("height", "0"))
    assert one_height == 96
    assert two_height > one_height + 84  # a second line of cards
    assert float(two_lines.get("width", "0")) == float(one_line.get("width", "0"))


# -- melds, arrangements, tables -----------------------------------------------------------------


def test_meld_draws_a_joker_with_the_card_it_stands_for() -> None:
    picture = svg.meld(parse_meld("Ah 2h *=3h 4h", MeldRules()))
    assert_well_formed(picture)
    assert titles(picture) == ["Ah", "2h", "*=3h", "4h"]
    assert labels(picture)[2] == "joker as three of hearts"
    joker = card_elements(parse(picture))[2]
    assert "JOKER" in texts(joker)
    assert "3" in texts(joker)  # the card it stands for, drawn in its colour
    assert any(g.get("fill") == RED for g in joker.iter(f"{NS}g"))
    assert parse(picture)[0].text == "Ah 2h *=3h 4h"


def test_meld_draws_a_wild_card_standing_in_as_itself_and_names_its_part() -> None:
    picture = svg.meld(parse_meld("5s 7d=6s 7s", MeldRules(wild_ranks={Rank.SEVEN})))
    assert_well_formed(picture)
    assert titles(picture) == ["5s", "7d=6s", "7s"]
    assert labels(picture)[1:] == ["seven of diamonds as six of spades", "seven of spades"]
    wild = card_elements(parse(picture))[1]
    assert "JOKER" not in texts(wild)
    assert "7" in texts(wild)
    assert svg.read_cards(picture) == ("5s", "7d=6s", "7s")


def test_meld_repr_and_refusal() -> None:
    meld = parse_meld("9c *=Tc Jc *=Qc", MeldRules())
    assert meld._repr_svg_() == svg.meld(meld)
    assert titles(meld._repr_svg_()) == ["9c", "*=Tc", "Jc", "*=Qc"]
    with pytest.raises(InvalidMeldError, match="expected a Meld"):
        svg.meld(parse_cards("7h 8h 9h"))  # type: ignore[arg-type]


def groups(picture: str) -> dict[str, list[str]]:
    """The labelled groups of a picture and the card titles inside each."""
    found = {}
    for g in parse(picture).iter(f"{NS}g"):
        if g.get("class") == "group":
            found[g.get("aria-label", "")] = [
                card.findtext(f"{NS}title") or "" for card in card_elements(g)
            ]
    return found


def test_arrangement_groups_the_melds_and_sets_the_deadwood_apart() -> None:
    best = arrange(parse_cards("7c 7d 7h 8h 9h Ks"), MeldRules(), CardPoints())
    picture = svg.arrangement(best)
    assert_well_formed(picture)
    assert groups(picture) == {"meld 7h 8h 9h": ["7h", "8h", "9h"], "deadwood": ["7c", "7d", "Ks"]}
    assert "deadwood, 24 points" in texts(parse(picture))
    assert parse(picture)[0].text == "melds 7h 8h 9h; deadwood 7c 7d Ks (24 points)"
    assert best._repr_svg_() == picture


def test_arrangement_with_a_discard_and_no_deadwood() -> None:
    israeli = MeldRules(joker_beside_ace=False)
    hand = parse_cards("7c 7d 7s 6h 7h 8h 9h Ks 2d 3d * 5d")
    picture = svg.arrangement(arrange(hand, israeli, CardPoints(), discard=True))
    assert groups(picture) == {
        "meld 7c 7d 7s": ["7c", "7d", "7s"],
        "meld 2d 3d *=4d 5d": ["2d", "3d", "*=4d", "5d"],
        "meld 6h 7h 8h 9h": ["6h", "7h", "8h", "9h"],
        "discard": ["Ks"],
    }
    assert "melds, no deadwood" in texts(parse(picture))
    assert parse(picture)[0].text == (
        "melds 7c 7d 7s; 2d 3d *=4d 5d; 6h 7h 8h 9h; no deadwood; discard Ks"
    )
    # All 12 cards on one line: 84 high, a caption line of 16 and two margins of 6.
    assert parse(picture).get("height") == "112"
    assert Counter(titles(picture)) == Counter(
        ["7c", "7d", "7s", "6h", "7h", "8h", "9h", "Ks", "2d", "3d", "*=4d", "5d"]
    )


def test_a_whole_israeli_declaration_fits_on_one_line() -> None:
    israeli = MeldRules(joker_beside_ace=False)
    hand = parse_cards("7c 7d 7s 6h 7h 8h 9h 2d 3d * Kc Kd Ks Qh")
    picture = svg.arrangement(arrange(hand, israeli, CardPoints(), discard=True))
    assert len(titles(picture)) == 14
    assert parse(picture).get("height") == "112"


def test_arrangement_of_no_cards() -> None:
    picture = svg.arrangement(arrange([], MeldRules(), CardPoints()))
    assert titles(picture) == []
    assert [g.get("aria-label") for g in parse(picture).iter(f"{NS}g")] == [
        "no melds",
        "no deadwood",
    ]


def test_table_shows_every_meld_and_an_empty_table() -> None:
    rules = MeldRules()
    table = [parse_meld("7s 8s *=9s", rules), parse_meld("Tc Jc *=Qc", rules)]
    picture = svg.table(table)
    assert_well_formed(picture)
    assert groups(picture) == {
        "meld 7s 8s *=9s": ["7s", "8s", "*=9s"],
        "meld Tc Jc *=Qc": ["Tc", "Jc", "*=Qc"],
    }
    empty = svg.table([])
    assert_well_formed(empty)
    assert titles(empty) == []
    assert "empty table" in texts(parse(empty))
    with pytest.raises(InvalidMeldError):
        svg.table([parse_card("7s")])  # type: ignore[list-item]


def test_a_big_table_wraps_onto_new_lines() -> None:
    rules = MeldRules()
    one = parse(svg.table([parse_meld("7s 8s 9s", rules)]))
    many = parse(svg.table([parse_meld(f"{rank}c {rank}d {rank}h", rules) for rank in "A23456"]))
    assert float(one.get("height", "0")) == 96  # 84 and two margins of 6
    assert float(many.get("height", "0")) == 192  # two lines of 84, 12 between, two margins
    assert float(many.get("width", "0")) <= 1012  # 1000 units of cards and two margins


# -- a player's view and the host's view ---------------------------------------------------------

HANDS = [
    "Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh",
    "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc",
    "Ad 2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd",
]


def stacked_game() -> GameState:
    """Rummy 101 for three: hearts, clubs, diamonds dealt; the joker open; Ks on the stock."""
    deck = stack_deck("rummy101", HANDS, face_up="*", stock="Ks")
    return new_game("rummy101", players=3, seed=0, deck=deck)


def test_observation_shows_own_hand_piles_and_sizes_never_other_hands() -> None:
    state = stacked_game()
    picture = svg.observation(state.observation(1))
    root = assert_well_formed(picture)
    # The open card, then the player's own hand; never a heart or a diamond from the others.
    assert titles(picture) == ["*", *HANDS[1].split()]
    backs = [g for g in root.iter(f"{NS}g") if g.get("class") == "back"]
    assert [texts(back) for back in backs] == [["13"], ["13"], ["68"]]
    assert [back.get("aria-label") for back in backs] == [
        "p1 holds 13 cards",
        "p3 holds 13 cards",
        "stock, 68 cards",
    ]
    words = texts(root)
    assert "p1, score 0, to act" in words
    assert "p3, score 0" in words
    assert "open card" in words
    assert root[0].text is not None
    assert root[0].text.startswith("p2's view: hand Ac 2c 3c")
    assert state.observation(1)._repr_svg_() == picture


def test_observation_shows_the_top_of_the_discard_pile_and_the_table() -> None:
    state = stacked_game()
    state = state.apply(DrawStock(player=0)).apply(Discard(player=0, card=parse_card("Ks")))
    picture = svg.observation(state.observation(1))
    assert titles(picture)[:2] == ["Ks", "*"]  # the discard pile's top, then the open card
    assert "discard pile 1" in texts(parse(picture))


def test_carousel_observation_draws_the_table_melds() -> None:
    deck = carousel_deck(["7s 8s * 9h 9d 9c 2c 3c Kd Kc", "Ts 9s Qs Tc Jc Js 5h 6h 4c 4d"])
    state = new_game("carousel", players=2, seed=0, deck=deck).apply(DrawStock(player=0))
    rules = state.variant.meld_rules
    state = state.apply(Rearrange(player=0, table=[parse_meld("7s 8s *=9s", rules)]))
    picture = svg.observation(state.observation(1))
    assert groups(picture)["meld 7s 8s *=9s"] == ["7s", "8s", "*=9s"]
    hand = ["Ts", "9s", "Qs", "Tc", "Jc", "Js", "5h", "6h", "4c", "4d"]
    assert groups(picture)["hand"] == hand


def test_host_view_shows_every_hand_and_says_it_is_the_host_view() -> None:
    state = stacked_game()
    picture = svg.host_view(state)
    root = assert_well_formed(picture)
    assert titles(picture) == [*" ".join(HANDS).split(), "*"]
    assert root.get("aria-label", "").startswith("Host view of the whole game")
    html = state._repr_html_()
    assert html.startswith('<figure class="rummylib host-view"')
    assert "<strong>Host view</strong>" in html
    assert picture in html
    figure = ElementTree.fromstring(html)  # the HTML is well-formed XML too
    assert figure.findtext("figcaption/strong") == "Host view"


# -- properties ----------------------------------------------------------------------------------


@given(hands(size=(0, 30), decks=2, jokers=4), st.sets(st.integers(0, 29)))
def test_any_hand_one_titled_card_element_per_card(hand: tuple[Card, ...], marks: set[int]) -> None:
    marks = {mark for mark in marks if mark < len(hand)}
    picture = svg.cards(hand, highlight=marks)
    assert_well_formed(picture)
    assert titles(picture) == [str(card) for card in hand]
    marked = [
        number
        for number, g in enumerate(card_elements(parse(picture)))
        if "highlight" in g.get("class", "").split()
    ]
    assert marked == sorted(marks)


@given(st.data())
def test_any_meld_draws_each_joker_as_declared(data: st.DataObject) -> None:
    rules = data.draw(meld_rules())
    meld: Meld = data.draw(melds(rules))
    picture = svg.meld(meld)
    assert_well_formed(picture)
    expected = [
        f"*={stands}" if card.is_joker else str(card)
        for card, stands in zip(meld.cards, meld.stands_for, strict=True)
    ]
    assert titles(picture) == expected
    for label, card in zip(labels(picture), meld.cards, strict=True):
        assert label.startswith("joker as ") == card.is_joker


@given(games(max_actions=40))
def test_any_observation_shows_exactly_what_the_player_may_see(state: GameState) -> None:
    notation = state.variant.notation  # Rummikub's pictures are titled in tiles
    name = notation.card
    for player in range(state.player_count):
        seen = state.observation(player)
        visible = [name(card) for card in seen.hand]
        for meld in seen.table:
            visible += notation.meld_tokens(meld)
        if seen.discard_pile:
            visible.append(name(seen.discard_pile[-1]))
        visible += [name(card) for card in seen.aside]  # the open card, the wild card
        picture = svg.observation(seen)
        assert_well_formed(picture)
        assert Counter(titles(picture)) == Counter(visible)
    assert Counter(titles(svg.host_view(state))) == Counter(
        [name(card) for hand in state.hands for card in hand]
        + [token for meld in state.table for token in notation.meld_tokens(meld)]
        + ([name(state.discard_pile[-1])] if state.discard_pile else [])
        + [name(card) for card in state.aside]
    )


def test_a_rummikub_observation_draws_tiles_titled_in_tiles() -> None:
    state = new_game("rummikub", players=2, seed=4)
    picture = svg.observation(state.observation(0))
    assert_well_formed(picture)
    tiles = [g for g in parse(picture).iter(f"{NS}g") if "tile" in g.get("class", "").split()]
    assert len(tiles) == 14  # the rack; nothing of p2's rack, nothing of the pool
    assert titles(picture) == [TILE_NOTATION.card(card) for card in state.hands[0]]
    assert "14 tiles in rack" in picture
    assert "pool 78" in picture
