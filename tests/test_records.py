"""Game records (rummylib.records): the token grammar, round trips, views, errors, hostile text."""

from __future__ import annotations

import functools
import itertools
import random
import re
import tomllib
from collections import Counter
from pathlib import Path

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummylib import Card, GameState, NotationError, Rank, new_game, parse_card, parse_cards
from rummylib._notation import ActionLine, DealerLine, format_action, parse_line
from rummylib._record import _meld_json, _read_meld
from rummylib.actions import (
    ACTION_TYPES,
    Action,
    AnswerFrish,
    DeclareRummy,
    DeclineRebuy,
    Discard,
    Disconnect,
    DrawStock,
    Drop,
    GiveUp,
    Knock,
    LayDown,
    LayOff,
    Pass,
    ProposeFrish,
    Rearrange,
    Rebuy,
    Reconnect,
    Show,
    ShowMelds,
    TakeDiscard,
    TakeOpenCard,
    TimeExpired,
)
from rummylib.bots import GreedyBot, RandomBot
from rummylib.melds import MeldRules, parse_meld
from rummylib.records import FORMAT, dump, dumps, load, loads
from rummylib.strategies import games
from rummylib.variants import VARIANTS, get_variant

RULES = MeldRules()
HOST_EVENTS = (TimeExpired, Disconnect, Reconnect)


def meld(text: str) -> object:
    return parse_meld(text, RULES)


# -- the token grammar --------------------------------------------------------------------------

#: One line of every action kind, as the spec page writes it, and the action it stands for.
LINES: tuple[tuple[str, Action], ...] = (
    ("p1 draw stock", DrawStock(player=0)),
    ("p2 take discard", TakeDiscard(player=1)),
    ("p2 take discard 3", TakeDiscard(player=1, count=3)),
    ("p1 take open", TakeOpenCard(player=0)),
    ("p3 discard 7h", Discard(player=2, card=parse_card("7h"))),
    (
        "p1 declare 5d | 7c 7d 7s | 2d 3d *=4d 5d",
        DeclareRummy(
            player=0,
            discard=parse_card("5d"),
            melds=[meld("7c 7d 7s"), meld("2d 3d *=4d 5d")],
        ),
    ),
    ("p2 show | Kc Kd Ks", ShowMelds(player=1, melds=[meld("Kc Kd Ks")])),
    ("p2 show", ShowMelds(player=1, melds=[])),
    ("p2 show Kd", Show(player=1, discard=parse_card("Kd"))),
    ("p3 drop", Drop(player=2)),
    ("p2 give up", GiveUp(player=1)),
    ("p1 propose frish", ProposeFrish(player=0)),
    ("p2 accept frish", AnswerFrish(player=1, accept=True)),
    ("p2 refuse frish", AnswerFrish(player=1, accept=False)),
    (
        "p1 meld | 5h 6h 7h | 9s 9d *=9c",
        LayDown(player=0, melds=[meld("5h 6h 7h"), meld("9s 9d *=9c")]),
    ),
    ("p2 layoff Kh 0", LayOff(player=1, card=parse_card("Kh"), meld_index=0)),
    (
        "p2 layoff *=9h 2",
        LayOff(player=1, card=parse_card("*"), meld_index=2, stands_for=parse_card("9h")),
    ),
    ("p1 layoff Ah 1 high", LayOff(player=0, card=parse_card("Ah"), meld_index=1, end="high")),
    (
        "p1 table | 5h 6h 7h | 9s 9d *=9c",
        Rearrange(player=0, table=[meld("5h 6h 7h"), meld("9s 9d *=9c")]),
    ),
    ("p3 knock", Knock(player=2)),
    ("p1 pass", Pass(player=0)),
    ("p4 rebuy", Rebuy(player=3)),
    ("p4 decline rebuy", DeclineRebuy(player=3)),
    ("h timeout p2", TimeExpired(player=1)),
    ("h disconnect p4", Disconnect(player=3)),
    ("h reconnect p4", Reconnect(player=3)),
)


def test_the_lines_cover_every_built_in_action_kind() -> None:
    # Plugins' kinds (the example plugin's Fold) have their lines in tests/test_plugin_action.py.
    built_in = {cls for cls in ACTION_TYPES.values() if cls.__module__.startswith("rummylib.")}
    assert {type(action) for _, action in LINES} == built_in


@pytest.mark.parametrize(("text", "action"), LINES, ids=[text for text, _ in LINES])
def test_a_line_reads_as_its_action_and_is_written_back_the_same(text: str, action: Action) -> None:
    item = parse_line(text, rules=RULES, players=4)
    assert item == ActionLine(action)
    assert format_action(action) == text


def test_a_draw_names_the_card_drawn() -> None:
    item = parse_line("p1 draw stock 7h", rules=RULES, players=2)
    assert item == ActionLine(DrawStock(player=0), drawn=parse_card("7h"))
    assert format_action(DrawStock(player=0), drawn=parse_card("7h")) == "p1 draw stock 7h"


def test_a_joker_without_what_it_stands_for_is_read_by_the_table_rules() -> None:
    item = parse_line("p1 meld | 7h * 9h", rules=RULES, players=2)
    assert isinstance(item, ActionLine)
    assert isinstance(item.action, LayDown)
    assert str(item.action.melds[0]) == "7h *=8h 9h"


def test_a_wild_card_standing_in_is_read_as_written_and_written_back() -> None:
    # DESIGN.md section 11: 7d=5s is a wild 7d standing for 5s. A record is read as written;
    # whether 7 is wild in the deal is for the engine to judge (meld.check), as for jokers.
    wild = MeldRules(wild_ranks={Rank.SEVEN})
    meld = parse_meld("5s 7d=6s 7s 7c=8s", wild)
    action = LayDown(player=0, melds=(meld,))
    assert format_action(action) == "p1 meld | 5s 7d=6s 7s 7c=8s"
    for rules in (RULES, wild):
        assert parse_line(format_action(action), rules=rules, players=2) == ActionLine(action)
    # An undeclared wild card is read by the deal's rules, as an undeclared joker is.
    item = parse_line("p1 meld | 9c 9d 7h", rules=wild, players=2)
    assert isinstance(item, ActionLine)
    assert isinstance(item.action, LayDown)
    assert str(item.action.melds[0]) == "9c 9d 7h=9h"
    # A JSON save holds each meld's cards and what they stand for.
    assert _read_meld(_meld_json(meld), "meld") == meld


def test_dealer_lines_read_hidden_cards_as_none() -> None:
    assert parse_line("d hand p2 7h ??x3 ??", rules=RULES, players=2) == DealerLine(
        "hand", player=1, cards=(parse_card("7h"), None, None, None, None)
    )
    assert parse_line("d deal 3", rules=RULES, players=2) == DealerLine("deal", number=3)
    assert parse_line("d stock", rules=RULES, players=2) == DealerLine("stock")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "bad line '': it is empty"),
        ("p1 draw", "bad action 'p1 draw': expected 'draw stock'"),
        ("p1 fly", "bad action 'p1 fly': unknown verb 'fly'; see the record format"),
        ("p3 knock", "there is no player p3 at this 2-seat table"),
        ("p0 knock", "bad player 'p0': players are written p1, p2, …"),
        ("q1 knock", "bad player 'q1': players are written p1, p2, …"),
        ("p1 discard 1x", "bad card '1x': unknown rank '1'"),
        ("p1 discard", "bad action 'p1 discard': expected 'discard CARD'"),
        ("p1 discard ??", "bad card '??'"),
        ("p1 meld", "bad action 'p1 meld': 'meld' needs at least one meld after '|'"),
        ("p1 meld | 7h 8h |", "bad action 'p1 meld | 7h 8h |': a meld between '|' has no cards"),
        ("p1 meld | 7h=* 9h 10h", "bad meld token '7h=*': a joker must stand for a natural card"),
        ("p1 knock | 7h 8h 9h", "bad action 'p1 knock | 7h 8h 9h': '|' has no place after 'knock'"),
        ("p1 layoff Kh x", "bad action 'p1 layoff Kh x': the meld's index must be a whole number"),
        ("p1 layoff Kh 0 middle", "expected 'layoff CARD N [low|high]': an end is 'low' or 'high'"),
        ("p1 take discard 99999999", "the count must be a whole number"),
        ("h timeout", "bad host event 'h timeout'"),
        ("h sneeze p1", "bad host event 'h sneeze p1'"),
        ("d shuffle", "bad dealer line 'd shuffle'"),
        ("d deal 0", "deals are numbered from 1"),
        ("d open 7h 8h", "expected 'd open' and one card"),
        ("d hand p1 ??x99999", "bad hidden cards '??x99999': at most 240, more than any deck"),
        ("d stock " + "??x200 " * 2, "it names more than 240 cards, more than any deck"),
        ("p1 discard " + "7h" * 3000, "a line has at most"),
    ],
)
def test_bad_lines_get_one_line_reasons(text: str, message: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_line(text, rules=RULES, players=2)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


# -- matches to record ----------------------------------------------------------------------------


def bot_match(name: str, players: int, seed: int, steps: int, *, host_events: bool) -> GameState:
    """A match of greedy and random bots, with host events now and then."""
    rng = random.Random(seed)
    state = new_game(name, players=players, seed=seed)
    bots = [
        GreedyBot() if rng.random() < 0.5 else RandomBot(seed + seat) for seat in range(players)
    ]
    for _ in range(steps):
        if state.is_over:
            break
        if host_events and rng.random() < 0.03:
            event = rng.choice(HOST_EVENTS)(player=rng.randrange(players))
            if state.is_legal(event):
                state = state.apply(event)
                continue
        seat = state.to_act[0]
        state = state.apply(bots[seat].choose(state.observation(seat)))
    return state


@functools.cache
def matches(name: str) -> tuple[GameState, ...]:
    """Two bot matches of ``name``, long enough to end deals, one with host events."""
    cls = VARIANTS[name]
    players = (cls.min_players, min(cls.max_players, cls.min_players + 1))
    return tuple(
        bot_match(name, count, seed, 250, host_events=seed == 2)
        for seed, count in zip((1, 2), players, strict=True)
    )


VARIANT_NAMES = sorted(VARIANTS)


# -- round trips ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_bot_matches_round_trip_with_every_state(name: str) -> None:
    for state in matches(name):
        record = loads(dumps(state))
        assert record.final_state == state
        assert record.actions == state.history
        states = list(record.states())
        assert len(states) == len(state.history) + 1
        assert states[-1] == state
        assert [len(s.history) for s in states] == list(range(len(state.history) + 1))


@settings(max_examples=30, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_property_random_matches_of_every_variant_round_trip(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(VARIANT_NAMES), label="variant")
    state = data.draw(games(name, max_actions=40), label="state")
    assert loads(dumps(state)).final_state == state


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_a_record_without_its_seed_replays_from_its_dealer_lines(name: str) -> None:
    for state in matches(name):
        text = re.sub(r"^seed = \d+\n", "", dumps(state), flags=re.MULTILINE)
        final = loads(text).final_state
        assert final.seed == 0  # the seed a record without one replays with
        assert final.history == state.history
        assert (final.hands, final.stock, final.discard_pile, final.open_card, final.table) == (
            state.hands,
            state.stock,
            state.discard_pile,
            state.open_card,
            state.table,
        )
        assert (final.scores, final.phase, final.deal_results) == (
            state.scores,
            state.phase,
            state.deal_results,
        )


def test_a_stacked_first_deal_is_kept() -> None:
    deck = tuple(reversed(VARIANTS["rummy101"]().deck_for(2)))
    state = new_game("rummy101", players=2, seed=3, deck=deck)
    state = state.apply(state.legal_actions()[0])
    record = loads(dumps(state))
    assert record.deck == deck
    assert record.final_state == state


def test_a_new_stock_is_recorded_and_replayed_without_the_seed() -> None:
    """Rule 1.23 of Rummy 71/101: an empty stock is made again from the discard pile."""
    state = new_game("rummy71", players=2, seed=1)
    bots = [RandomBot(1), RandomBot(2)]
    while state.shuffle_count < 2:  # play until the stock is shuffled again
        seat = state.to_act[0]
        state = state.apply(bots[seat].choose(state.observation(seat)))
    text = dumps(state)
    assert "d restock " in text
    seedless = loads(re.sub(r"^seed = \d+\n", "", text, flags=re.MULTILINE)).final_state
    assert (seedless.stock, seedless.hands) == (state.stock, state.hands)


def test_settings_names_and_metadata_round_trip() -> None:
    variant = get_variant("turkish500", max_deals=None, deal_pool=50)
    state = new_game(variant, players=3, seed=4)
    metadata = {"event": "club night", "date": "2026-12-01", "_mine": {"round": 2}}
    text = dumps(state, names=["Ann", "Ben", "Cy"], metadata=metadata)
    data = tomllib.loads(text)
    assert data["settings"] == {"max_deals": "none", "deal_pool": 50}
    record = loads(text)
    assert record.variant == variant
    assert record.names == ("Ann", "Ben", "Cy")
    assert dict(record.metadata) == metadata


def test_dump_and_load_use_files(tmp_path: Path) -> None:
    state = matches("carousel")[0]
    path = tmp_path / "game.toml"
    dump(state, path)
    assert load(path).final_state == state
    with path.open("rb") as file:
        assert load(file).final_state == state


def test_a_state_the_history_does_not_reach_is_refused() -> None:
    state = new_game("rummy101", players=2, seed=1)
    with pytest.raises(Exception, match="does not reach"):
        dumps(state.replace(scores=(99, 0)))


def test_deals_split_the_record_and_carry_their_results() -> None:
    for name in VARIANT_NAMES:
        for state in matches(name):
            deals = loads(dumps(state)).deals
            assert sum(len(deal.actions) for deal in deals) == len(state.history)
            results = [deal.result for deal in deals if deal.result is not None]
            assert len(results) <= len(state.deal_results)
            if results:
                assert deals[-1].scores == state.scores or deals[-1].result is None


# -- one player's view ---------------------------------------------------------------------------


def redacted(host: list[str], view: int) -> list[str]:
    """The host's lines as ``view`` may see them, by the spec page's rules (no 'd show')."""
    own = f"p{view + 1}"
    lines = []
    for line in host:
        words = line.split()
        if line.startswith("d hand ") and words[2] != own:
            hidden = len(words) - 3
            lines.append(f"d hand {words[2]} " + ("??" if hidden == 1 else f"??x{hidden}"))
        elif line.startswith(("d stock ", "d restock ")):
            hidden = len(words) - 2
            lines.append(f"{words[0]} {words[1]} " + ("??" if hidden == 1 else f"??x{hidden}"))
        elif len(words) == 4 and words[1:3] == ["draw", "stock"] and words[0] != own:
            lines.append(" ".join(words[:3]))
        elif len(words) == 3 and words[1] == "show" and words[0] != own:
            lines.append(f"{words[0]} show ??")  # an Indian show's finishing card: face down
        else:
            lines.append(line)
    return lines


def _at_the_count(
    hand: tuple[Card, ...], seat: int, action: Action, before: GameState, ended: object
) -> list[str]:
    """The spec page: a hand the deal's result holds is shown whole; of any other, the cards
    that went to the table and those the action names, the rest (set face down) as ??."""
    results = list(ended)  # type: ignore[call-overload]
    name = before.variant.notation.card  # Rummikub's records write tiles
    if not results or results[0].hands[seat]:
        return [name(card) for card in hand]
    seen = Counter(card for meld in results[0].table for card in meld.cards)
    seen -= Counter(card for meld in before.table for card in meld.cards)
    if seat == action.player and not isinstance(action, Show):  # a show's card lies face down
        seen.update(
            value
            for field in attrs.fields(type(action))
            if isinstance(value := getattr(action, field.name), Card)
        )
    shown = []
    for card in hand:
        shown.append(name(card) if seen[card] else "??")
        seen[card] -= 1 if seen[card] else 0
    return shown


def _notation_cards(cards: list[str]) -> str:
    words: list[str] = []
    for card in cards:
        if card == "??" and words and words[-1].startswith("??"):
            count = int(words[-1][3:] or 1) + 1
            words[-1] = f"??x{count}"
        else:
            words.append(card)
    return " ".join(words)


def actions_of(text: str) -> list[str]:
    entries: list[str] = tomllib.loads(text)["actions"]
    return entries


def check_view(state: GameState, view: int) -> None:
    """The view record hides what ``view`` cannot see and replays to its observations."""
    text = dumps(state, view=view)
    data = tomllib.loads(text)
    assert "seed" not in data
    assert "deck" not in data
    assert data["view"] == f"p{view + 1}"
    lines = actions_of(text)
    shown = [line for line in lines if line.startswith("d show ")]
    assert [line for line in lines if not line.startswith("d show ")] == redacted(
        actions_of(dumps(state)), view
    )
    # 'd show' lines are the cards held at the count, just before a deal's last action.
    host_states = list(loads(dumps(state)).states())
    counted: list[str] = []
    for before, after in itertools.pairwise(host_states):
        if len(after.deal_results) > len(before.deal_results) or (
            after.is_over and not before.is_over
        ):
            ended = after.deal_results[len(before.deal_results) :]
            for seat, hand in enumerate(before.hands):
                if hand and seat != view:
                    cards = _at_the_count(hand, seat, after.history[-1], before, ended)
                    if any(card != "??" for card in cards):
                        counted.append(f"d show p{seat + 1} " + _notation_cards(cards))
    assert shown == counted
    observations = list(loads(text).observations())
    assert observations == [each.observation(view) for each in host_states]


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_views_of_bot_matches_hide_every_hidden_card_and_replay_to_observations(name: str) -> None:
    for state in matches(name):
        for view in range(state.player_count):
            check_view(state, view)


@settings(max_examples=30, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_property_a_view_of_any_variant_never_holds_a_hidden_card(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(VARIANT_NAMES), label="variant")
    state = data.draw(games(name, max_actions=40), label="state")
    view = data.draw(st.integers(0, state.player_count - 1), label="view")
    check_view(state, view)


def test_a_view_record_yields_observations_not_states() -> None:
    state = matches("rummy101")[0]
    record = loads(dumps(state, view=1))
    with pytest.raises(NotationError, match="p2's view: it replays to observations"):
        next(record.states())
    with pytest.raises(NotationError, match="final observation"):
        record.final_state  # noqa: B018
    assert record.final_observation == state.observation(1)
    with pytest.raises(NotationError, match="not p1's"):
        next(record.observations(0))
    with pytest.raises(NotationError, match="name the player"):
        next(loads(dumps(state)).observations())


def test_a_view_that_shows_a_card_twice_more_than_the_deck_is_refused() -> None:
    state = new_game("rummy101", players=2, seed=5)
    text = dumps(state, view=0)
    stock = next(line for line in actions_of(text) if line.startswith("d stock"))
    bad = text.replace(stock, "d stock * * * * * ??x76")
    with pytest.raises(NotationError, match="not in the deck"):
        loads(bad)


# -- errors: strict and not ------------------------------------------------------------------------


def line_of(text: str, entry: str) -> int:
    return text.splitlines().index(f'    "{entry}",') + 1


def test_an_illegal_action_names_its_line_and_the_rest_is_kept_without_strict() -> None:
    state = matches("turkish500")[0]
    text = dumps(state)
    lines = actions_of(text)
    target = next(index for index, line in enumerate(lines) if " discard " in line and index > 20)
    bad_line = lines[target].rsplit(" ", 1)[0] + " Qz"  # not a card
    broken = text.replace(f'"{lines[target]}",', f'"{bad_line}",', 1)
    number = line_of(broken, bad_line)
    with pytest.raises(NotationError, match=rf"^line {number}: bad card 'Qz'"):
        loads(broken)
    record = loads(broken, strict=False)
    assert [error.line for error in record.errors] == [number]
    kept = sum(1 for line in lines[:target] if not line.startswith("d "))
    assert record.actions == state.history[:kept]
    assert record.final_state.history == state.history[:kept]


def test_a_refused_action_keeps_the_prefix_and_reports_the_rules_reason() -> None:
    state = new_game("rummy101", players=2, seed=5)
    state = state.apply(DrawStock(player=0))
    text = dumps(state)
    extra = "p2 discard 7h"
    broken = text.replace('    "p1 draw stock', f'    "{extra}",\n    "p1 draw stock', 1)
    number = line_of(broken, extra)
    record = loads(broken, strict=False)
    assert len(record.errors) == 1
    assert record.errors[0].line == number
    assert "p1" in record.errors[0].message
    assert record.actions == ()
    with pytest.raises(NotationError, match=rf"^line {number}: "):
        loads(broken)


def test_every_unreadable_line_is_listed_without_strict() -> None:
    state = matches("rummy71")[0]
    text = dumps(state)
    lines = actions_of(text)
    first, second = lines[20], lines[30]
    broken = text.replace(f'"{first}"', '"p1 jump"', 1).replace(f'"{second}"', '"p9 knock"', 1)
    record = loads(broken, strict=False)
    numbers = [error.line for error in record.errors]
    assert numbers[:2] == [line_of(broken, "p1 jump"), line_of(broken, "p9 knock")]


def test_a_dealt_hand_that_the_seed_does_not_deal_is_refused() -> None:
    state = new_game("carousel", players=2, seed=8)
    text = dumps(state)
    hand = next(line for line in actions_of(text) if line.startswith("d hand p2"))
    cards = hand.split()[3:]
    swapped = " ".join(["d hand p2", cards[1], cards[0], *cards[2:]])
    broken = text.replace(hand, swapped)
    with pytest.raises(NotationError, match=rf"^line {line_of(broken, swapped)}: p2's hand"):
        loads(broken)


def test_a_drawn_card_must_be_the_top_of_the_stock() -> None:
    state = new_game("carousel", players=2, seed=8).apply(DrawStock(player=0))
    text = dumps(state)
    draw = next(line for line in actions_of(text) if line.startswith("p1 draw stock"))
    top = draw.split()[-1]
    other = "Kc" if top != "Kc" else "Qc"
    broken = text.replace(draw, f"p1 draw stock {other}")
    with pytest.raises(NotationError, match=f"p1 draws {top} from the stock, not {other}"):
        loads(broken)


# -- hostile and malformed records ----------------------------------------------------------------

GOOD = dumps(new_game("rummy101", players=2, seed=5))


def header(**entries: str) -> str:
    body = {"format": '"rummylib-record"', "version": "1", "variant": '"rummy101"', "players": "2"}
    body.update(entries)
    return "".join(f"{key} = {value}\n" for key, value in body.items() if value) + "actions = []\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("this is not toml", "line 1: not TOML"),
        ("format = 'chess'\n", "line 1: format must be 'rummylib-record', not 'chess'"),
        (f'format = "{FORMAT}"\nversion = 2\n', "line 2: version must be 1, not 2"),
        (f'format = "{FORMAT}"\nversion = true\n', "version must be 1, not True"),
        (f'format = "{FORMAT}"\nversion = 1\n', "a record needs 'variant'"),
        (header(variant='"chess"'), "line 3: unknown variant 'chess'"),
        (header(variant="[1]"), "variant must be a variant's name"),
        (header(players="99"), "line 4: rummy101 is for 2 to 6 players, not 99"),
        (header(players='"two"'), "players must be a whole number"),
        (header(seed='"x"'), "seed must be a whole number"),
        (header(view='"p7"'), "view must name a player, p1 to p2"),
        (header(view='"p1"', seed="3"), "a player's view has no seed"),
        (header(names='["a"]'), "names must be a list of 2 names"),
        (header(names='["a", 3]'), "bad name 3"),
        (header(names=f'["a", "{"x" * 300}"]'), "a name is text of at most 200 characters"),
        (header(colour='"red"'), "unknown metadata entry 'colour'"),
        (header(event="[1, 2]"), "event must be text"),
        (header(deck='"7h 8h"'), "the stacked deck must be the rummy101 deck"),
        (header(deck='"zz"'), "bad card 'zz'"),
        (header(actions="3").replace("actions = []\n", ""), "actions must be a list"),
        (
            header() + "[settings]\ndecks = 100\n",
            "decks must be a whole number from 1 to 4, not 100",
        ),
        (header() + "[settings]\ncolour = 1\n", "unknown setting 'colour' for rummy101"),
        (header() + "[settings]\nstake = { a = 1 }\n", "bad setting stake"),
        (header() + "[settings]\nrebuy_stakes = [[1]]\n", "bad setting rebuy_stakes"),
        ("x = " + "[" * 5000 + "]" * 5000, "not TOML"),
        (b"format = '\xff'", "a record is UTF-8 text"),
    ],
)
def test_hostile_headers_are_refused_in_one_line_before_any_deal(
    text: str | bytes, message: str
) -> None:
    for strict in (True, False):
        with pytest.raises(NotationError) as caught:
            loads(text, strict=strict)
        assert message in str(caught.value)
        assert "\n" not in str(caught.value)
        assert str(caught.value).startswith("line ")


def test_a_setting_line_is_named() -> None:
    text = header() + "[settings]\nstake = 5\ndecks = 100\n"
    with pytest.raises(NotationError, match=r"^line 8: decks must be"):
        loads(text)


def test_not_text_is_refused() -> None:
    with pytest.raises(NotationError, match="expected the text of a record, not int"):
        loads(3)  # type: ignore[arg-type]


def test_hostile_action_lines() -> None:
    base = GOOD.split("actions = [")[0]
    cases = {
        "    3,\n": "an action is a line of text, not 3",
        '    "d hand p2 ??x13",\n': "'??' belongs in a player's view",
        '    "d hand p1 7h",\n': "belongs after 'd deal N'",
        '    "d deal 1",\n    "d deal 1",\n': "'d deal' must follow an action",
        '    "d restock 7h",\n': "'d restock' must follow an action",
        '    "d show p2 7h",\n': "'d show' lines go just before an action",
    }
    for body, message in cases.items():
        text = base + "actions = [\n" + body + "]\n"
        record = loads(text, strict=False)
        assert any(message in error.message for error in record.errors), (body, record.errors)
        with pytest.raises(NotationError, match=re.escape(message)):
            loads(text)


def test_a_record_without_a_seed_must_deal_every_card() -> None:
    text = re.sub(r"^seed = \d+\n", "", GOOD, flags=re.MULTILINE)
    stock = next(line for line in actions_of(text) if line.startswith("d stock"))
    short = " ".join(stock.split()[:-1])
    with pytest.raises(NotationError, match="the first deal's cards are not the deck"):
        loads(text.replace(stock, short))
    nothing = text.split("actions = [")[0] + "actions = []\n"
    with pytest.raises(NotationError, match=r"^line 1: a record without a seed starts with"):
        loads(nothing)


def test_a_record_without_a_seed_must_say_how_a_new_deal_lies() -> None:
    state = next(s for name in VARIANT_NAMES for s in matches(name) if len(s.deal_results) >= 1)
    text = re.sub(r"^seed = \d+\n", "", dumps(state), flags=re.MULTILINE)
    lines = actions_of(text)
    start = next(index for index, line in enumerate(lines) if index and line.startswith("d deal"))
    end = start + 1
    while end < len(lines) and lines[end].startswith("d "):
        end += 1
    cut = text
    for line in lines[start:end]:
        cut = cut.replace(f'    "{line}",\n', "", 1)
    with pytest.raises(NotationError, match="a record without a seed must say how the cards lie"):
        loads(cut)


def test_nothing_in_a_record_is_executed() -> None:
    text = GOOD.replace("seed = 5\n", "seed = 5\n_payload = \"__import__('os').system('false')\"\n")
    record = loads(text)
    assert record.metadata["_payload"] == "__import__('os').system('false')"
    assert record.final_state == new_game("rummy101", players=2, seed=5)


def test_cards_of_a_hand_shown_at_the_count_must_be_the_hand() -> None:
    state = next(s for s in matches("rummy101") if s.deal_results)
    text = dumps(state, view=0)
    show = next(line for line in actions_of(text) if line.startswith("d show"))
    short = " ".join(show.split()[:-1])
    forged = text.replace(show, short)
    with pytest.raises(NotationError, match=rf"^line {line_of(forged, short)}: p2 holds 13 cards"):
        loads(forged)
    # A shown card that another line puts elsewhere is found where the record contradicts it.
    record = loads(text.replace(show, show.replace(show.split()[3], "Kc", 1)), strict=False)
    assert record.errors or record.final_observation == state.observation(0)


def test_hidden_card_counts_are_checked() -> None:
    text = dumps(new_game("gin", players=2, seed=2), view=0)
    hand = next(line for line in actions_of(text) if line.startswith("d hand p2"))
    with pytest.raises(NotationError, match=r"^line 7: the deal's lines do not account for every"):
        loads(text.replace(hand, "d hand p2 ??x9"))


def test_parse_cards_of_a_deck_line() -> None:
    # The header's deck is the stacked deck of the first deal, as parse_cards reads it.
    state = new_game(
        "knock7",
        players=2,
        seed=1,
        deck=parse_cards(" ".join(map(str, VARIANTS["knock7"]().deck_for(2)))),
    )
    assert Counter(loads(dumps(state)).deck or ()) == Counter(VARIANTS["knock7"]().deck_for(2))


# -- golden records: one per registered variant, the expected values worked out from the rules ---

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_every_registered_variant_has_a_golden_record(name: str) -> None:
    assert (DATA / f"{name}.toml").is_file()


#: name: (deal 1's points, how it ended, the scores after it, who plays first in deal 2).
GOLDEN = {
    # Rule 1.11: p1 melds 13 and discards 5d. Rules 1.15-1.17: p2's best arrangement leaves
    # 6c 8d Ah 5s = 6 + 8 + 1 + 5 = 20 points, times the first deal's multiplier 2. Rule 1.3:
    # the deal passes one seat, so p2 plays first in deal 2.
    "rummy101": ((0, 40), "p1 declared rummy", (0, 40), 1),
    # The same deal; giving up counts the best arrangement all the same (loser_melds="best").
    "rummy71": ((0, 40), "p1 declared rummy", (0, 40), 1),
    # Rules 2.12, 2.14-2.16: p2 holds 2+3+4+5+6+8+9+10+10+10 = 67; p1 went out: 67 + 25.
    "carousel": ((92, 0), "p1 went out", (92, 0), 1),
    # Rules 3.9-3.11: p1 lays down 30 + 26 + 29 + 14 = 99 and takes the pool of 30; p2 holds
    # Ac (15) + 2+3+4+6+8+10+10+10+9+7+5+2 = 91.
    "turkish500": ((129, -91), "p1 went out", (129, -91), 1),
    # Rule 3.4: the lay-offs 8s and 5h are credited (13) on top of 86 laid down, + the pool.
    "turkish300": ((129, -91), "p1 went out", (129, -91), 1),
    # Cutthroat: no pool, only the deal's winner scores.
    "turkish500_cutthroat": ((99, 0), "p1 went out", (99, 0), 1),
    # Rule 3.3: p1 takes the up-card 5h and melds it at once; classic 500 has no pool.
    "rummy500": ((99, -91), "p1 went out", (99, -91), 1),
    # Gin: p1 goes gin, p2 lays nothing: 67 deadwood + the gin bonus 25. The loser of a deal
    # deals the next, so p1 (the winner) is the non-dealer and acts first again.
    "gin": ((92, 0), "p1 went gin", (92, 0), 0),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_record_scores_its_first_deal_by_the_rules(name: str) -> None:
    points, ended_by, scores, first = GOLDEN[name]
    record = load(DATA / f"{name}.toml")
    assert record.errors == ()
    final = record.final_state
    assert [(deal.points, deal.ended_by) for deal in final.deal_results] == [(points, ended_by)]
    assert final.scores == scores
    assert (final.deal_number, final.current_player, final.is_over) == (2, first, False)
    assert record.deals[0].result is not None
    assert record.deals[0].scores == scores
    # A host's record of the match is the same match, and so is its view from either seat.
    assert loads(dumps(final)).final_state == final
    for view in (0, 1):
        assert loads(dumps(final, view=view)).final_observation == final.observation(view)


def test_golden_knock7_record_without_a_seed() -> None:
    """The example plugin: p1 knocks with no deadwood; p2's 2+3+4+5+9+10+10 = 43 is p1's."""
    record = load(DATA / "knock7.toml")
    assert record.seed is None
    final = record.final_state
    assert final.is_over
    assert final.result is not None
    assert final.result.winners == (0,)
    assert final.scores == (43, 0)
    assert final.discard_pile == parse_cards("Qs Kd")
    assert str(record.metadata["date"]) == "2026-12-01"


def test_golden_records_name_their_players() -> None:
    record = load(DATA / "rummy101.toml")
    assert record.names == ("Dana", "Eli")
    assert record.metadata["event"] == "golden record: rule 1.11 declaration on the first turn"


@pytest.mark.parametrize(("seed", "view"), [(21, 0), (135, 3), (229, 0)])
def test_a_view_ending_before_a_take_is_melded_still_replays(seed: int, view: int) -> None:
    # Rummy 500: the deepest card taken must be melded this turn (rule 3.3): the record ends
    # before the taker melds it, so the hidden hand is filled with cards that can.
    rng = random.Random(seed)
    state = new_game("rummy500", players=4, seed=seed)
    for _ in range(rng.randint(5, 40)):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    record = loads(dumps(state, view=view))
    assert record.final_observation == state.observation(view)
