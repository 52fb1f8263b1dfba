"""Engine properties: immutability, conservation of cards, legality, replay, no leaks."""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections import Counter

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from rummylib import (
    ConfigurationError,
    GameState,
    IllegalActionError,
    RummyError,
    format_cards,
    get_variant,
    make_deck,
    new_game,
    parse_card,
    parse_cards,
    parse_meld,
    stack_deck,
)
from rummylib.actions import (
    Action,
    DeclareRummy,
    Discard,
    DrawStock,
    GiveUp,
    TakeDiscard,
    TakeOpenCard,
)
from rummylib.cards import CARDS, Card
from rummylib.state import ActionLog, Phase
from rummylib.strategies import games
from rummylib.testing import hide_from
from rummylib.variants.gin import GinRummy
from rummylib.views import Observation

ISRAELI = ("rummy71", "rummy101")


def random_play(state: GameState, rng: random.Random, steps: int) -> list[GameState]:
    """Play uniformly random legal actions; return every state passed through."""
    states = [state]
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
        states.append(state)
    return states


def full_deck(state: GameState) -> Counter[object]:
    return Counter(state.variant.deck_for(state.player_count))


@settings(max_examples=15, deadline=None)
@given(
    variant=st.sampled_from(ISRAELI),
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    steps=st.integers(1, 120),
)
def test_random_play_keeps_the_engine_invariants(
    variant: str, players: int, seed: int, steps: int
) -> None:
    rng = random.Random(seed)
    state = new_game(variant, players=players, seed=seed)
    deck = full_deck(state)
    for before in random_play(state, rng, steps):
        # Cards are never created or lost.
        assert before.all_cards() == deck
        # Every listed action is legal, and the list has no duplicates.
        listed = before.legal_actions()
        assert len(set(listed)) == len(listed)
        for action in listed:
            before.verify(action)
        # Whoever may act is a player still in the match, and has a legal move (R9).
        assert set(before.to_act) <= set(before.players_in)
        if not before.is_over:
            assert all(before.legal_actions(player) for player in before.to_act)
    # apply never changes the old state.
    snapshot = before.to_json()
    if not before.is_over:
        before.apply(before.legal_actions()[0])
    assert before.to_json() == snapshot


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), steps=st.integers(0, 80))
def test_is_legal_agrees_with_legal_actions_for_meldless_actions(
    players: int, seed: int, steps: int
) -> None:
    rng = random.Random(seed)
    state = random_play(new_game("rummy101", players=players, seed=seed), rng, steps)[-1]
    listed = set(state.legal_actions())
    candidates: list[object] = []
    for player in range(players):
        candidates += [
            DrawStock(player=player),
            TakeDiscard(player=player),
            TakeDiscard(player=player, count=2),
            TakeOpenCard(player=player),
        ]
        candidates += [Discard(player=player, card=card) for card in CARDS]
    for action in candidates:
        assert state.is_legal(action) == (action in listed), action  # type: ignore[arg-type]


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32), steps=st.integers(0, 100))
def test_json_round_trip_is_exact(players: int, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    state = random_play(new_game("rummy71", players=players, seed=seed), rng, steps)[-1]
    assert GameState.from_json(state.to_json()) == state


def test_same_seed_same_match() -> None:
    first = random_play(new_game("rummy101", players=3, seed=42), random.Random(1), 60)
    second = random_play(new_game("rummy101", players=3, seed=42), random.Random(1), 60)
    assert first == second
    other = new_game("rummy101", players=3, seed=43)
    assert other.hands != first[0].hands


def test_seed_none_draws_a_fresh_seed() -> None:
    # Two unseeded games share a deal only with probability ~1/108!; a failure here is a bug.
    assert new_game("rummy101", players=2).hands != new_game("rummy101", players=2).hands


def test_stacked_deck_deals_round_robin_then_open_card_then_stock() -> None:
    deck = make_deck(decks=2, jokers=4)
    state = new_game("rummy101", players=2, seed=0, deck=deck)
    # One at a time from the front: p1 gets cards 0, 2, 4 …, p2 cards 1, 3, 5 …
    assert state.hands[0] == deck[0:26:2]
    assert state.hands[1] == deck[1:26:2]
    assert state.open_card == deck[26]
    assert state.stock == deck[27:]


def test_stacked_deck_must_be_the_variants_deck() -> None:
    deck = list(make_deck(decks=2, jokers=4))
    deck[0] = deck[1]
    with pytest.raises(ConfigurationError, match=r"extra: 2c; missing: Ac"):
        new_game("rummy101", players=2, seed=0, deck=deck)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 1}, "rummy101 is for 2 to 6 players, not 1"),
        ({"players": "2"}, "players must be a whole number, not '2'"),
        ({"players": 2, "seed": 1.5}, "seed must be a whole number, not 1.5"),
    ],
)
def test_new_game_refuses_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigurationError) as error:
        new_game("rummy101", **kwargs)  # type: ignore[arg-type]
    assert str(error.value) == message


def test_illegal_action_leaves_the_state_unchanged() -> None:
    state = new_game("rummy101", players=2, seed=9)
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="it is p1's turn, not p2's"):
        state.apply(DrawStock(player=1))
    with pytest.raises(IllegalActionError, match="no player p4"):
        state.apply(DrawStock(player=3))
    with pytest.raises(IllegalActionError, match="not an action"):
        state.apply("draw")  # type: ignore[arg-type]
    assert state.to_json() == before


@settings(max_examples=25, deadline=None)
@given(state=games(max_actions=60), data=st.data())
def test_observation_depends_only_on_what_the_player_may_see(
    state: GameState, data: st.DataObject
) -> None:
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for viewer in range(state.player_count):
        twin = hide_from(state, viewer, rng)
        assert twin != state
        assert twin.observation(viewer) == state.observation(viewer)


@settings(max_examples=25, deadline=None)
@given(state=games(max_actions=60))
def test_observation_is_built_as_its_init_would_build_it(state: GameState) -> None:
    # observe() fills the fields without running Observation.__init__: it must give exactly
    # the object __init__ gives from the state's public fields, every field set.
    for viewer in range(state.player_count):
        built = state.observation(viewer)
        expected = Observation(
            player=viewer,
            variant=state.variant,
            hand=state.hands[viewer],
            hand_sizes=tuple(len(hand) for hand in state.hands),
            stock_size=len(state.stock),
            discard_pile=state.discard_pile,
            aside=state.aside,
            hidden_count=len(state.hidden),
            table=state.table,
            meld_rules=state.meld_rules,
            scores=state.scores,
            players_in=state.players_in,
            phase=state.phase,
            current_player=state.current_player,
            to_act=state.to_act,
            deal_number=state.deal_number,
            dealer=state.dealer,
            legal_actions=state.legal_actions(viewer),
            public=state.variant.public_info(state, viewer),
        )
        assert built == expected
        assert vars(built).keys() == vars(expected).keys()
        assert list(vars(built)) == [field.name for field in attrs.fields(Observation)]


def test_observation_has_no_field_for_hidden_information() -> None:
    observation = new_game("rummy101", players=3, seed=5).observation(0)
    names = {field.name for field in attrs.fields(type(observation))}
    assert not names & {"hands", "stock", "seed", "deck", "history"}
    assert "seed" not in repr(observation)


def test_from_json_rejects_tampered_records() -> None:
    state = random_play(new_game("rummy101", players=2, seed=3), random.Random(3), 10)[-1]
    record = json.loads(state.to_json())
    # A duplicated card in a hand: the snapshot no longer matches the replay.
    tampered = json.loads(json.dumps(record))
    hand = tampered["snapshot"]["hands"][0].split()
    hand[0] = hand[1]
    tampered["snapshot"]["hands"][0] = " ".join(hand)
    with pytest.raises(RummyError, match="snapshot's hands does not match"):
        GameState.from_json(json.dumps(tampered))
    # An impossible action in the history.
    tampered = json.loads(json.dumps(record))
    tampered["actions"][0] = {"type": "discard", "player": 0, "card": "Ah"}
    with pytest.raises(RummyError, match="action 1 is illegal"):
        GameState.from_json(json.dumps(tampered))
    # Wrong types and unknown action kinds.
    cases: list[tuple[str, object, str]] = [
        ("players", "2", "players must be a whole number"),
        ("seed", None, "seed must be a whole number"),
        ("actions", {}, "actions must be a list"),
    ]
    for key, value, message in cases:
        tampered = json.loads(json.dumps(record))
        tampered[key] = value
        with pytest.raises(RummyError, match=message):
            GameState.from_json(json.dumps(tampered))
    tampered = json.loads(json.dumps(record))
    tampered["actions"][0] = {"type": "__import__", "player": 0}
    with pytest.raises(RummyError, match="unknown type '__import__'"):
        GameState.from_json(json.dumps(tampered))


@pytest.mark.parametrize("text", ["", "{", "[]", "null", '{"format": "rummylib-game"}'])
def test_from_json_rejects_malformed_text(text: str) -> None:
    with pytest.raises(RummyError, match="bad saved game"):
        GameState.from_json(text)


def test_a_stacked_deck_round_trips_through_json() -> None:
    deck = parse_cards(" ".join(str(card) for card in reversed(make_deck(2, 4))))
    state = new_game("rummy101", players=2, seed=1, deck=deck)
    assert GameState.from_json(state.to_json()) == state


class IsraeliMachine(RuleBasedStateMachine):
    """Interleave legal and illegal actions; check the invariants after every step."""

    def __init__(self) -> None:
        super().__init__()
        self.state = new_game("rummy101", players=3, seed=7)
        self.deck = full_deck(self.state)

    @rule(choice=st.integers(0, 10**6))
    def legal(self, choice: int) -> None:
        if self.state.is_over:
            return
        actions = self.state.legal_actions()
        self.state = self.state.apply(actions[choice % len(actions)])

    @rule(
        player=st.integers(0, 2),
        card=st.sampled_from(CARDS),
        kind=st.sampled_from(["discard", "draw", "take", "open"]),
    )
    def maybe_illegal(self, player: int, card: object, kind: str) -> None:
        actions: dict[str, Action] = {
            "discard": Discard(player=player, card=card),  # type: ignore[arg-type]
            "draw": DrawStock(player=player),
            "take": TakeDiscard(player=player),
            "open": TakeOpenCard(player=player),
        }
        action = actions[kind]
        before = self.state
        text = before.to_json()
        if before.is_legal(action):
            assert action in before.legal_actions()
            self.state = before.apply(action)
            return
        assert action not in before.legal_actions()
        with pytest.raises(IllegalActionError, match=r"\w"):  # a reason is always given
            before.apply(action)
        assert before.to_json() == text

    @invariant()
    def cards_are_conserved(self) -> None:
        assert self.state.all_cards() == self.deck

    @invariant()
    def phase_and_turn_agree(self) -> None:
        state = self.state
        if state.phase in {Phase.DRAW, Phase.PLAY}:
            assert state.to_act == (state.current_player,)
            assert len(state.hands[state.current_player or 0]) == 13 + (state.phase is Phase.PLAY)
        if state.is_over:
            assert state.to_act == ()


IsraeliMachine.TestCase.settings = settings(max_examples=10, stateful_step_count=40, deadline=None)
TestIsraeliMachine = IsraeliMachine.TestCase


@settings(max_examples=25, deadline=None)
@given(state=games(max_actions=40))
def test_every_variant_keeps_the_engine_invariants(state: GameState) -> None:
    assert state.all_cards() == full_deck(state)
    for action in state.legal_actions():
        state.verify(action)
    if state.legal_actions():
        before = state.to_json()
        state.apply(state.legal_actions()[-1])
        assert state.to_json() == before
    assert GameState.from_json(state.to_json()) == state


def test_stack_deck_deals_the_given_hands_then_face_up_then_stock() -> None:
    hands = ["Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh", "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc"]
    state = new_game(
        "rummy101",
        players=2,
        seed=0,
        deck=stack_deck("rummy101", hands, face_up="*", stock="Ks Ks"),
    )
    assert state.hands == (parse_cards(hands[0]), parse_cards(hands[1]))
    assert str(state.open_card) == "*"
    assert state.stock[:2] == parse_cards("Ks Ks")
    # Two packs hold two Ks: a third is refused, naming the card.
    with pytest.raises(ConfigurationError, match=r"that many times: Ks$"):
        stack_deck("rummy101", hands, stock="Ks Ks Ks")
    with pytest.raises(ConfigurationError, match="hand 2 holds 12 cards, not 13"):
        stack_deck("rummy101", [hands[0], hands[1][3:]])


# -- hardening (issue: defects found on review) --------------------------------------------


def test_defect_a_long_history_pickles_and_deep_copies() -> None:
    state = new_game("rummy101", players=2, seed=5)
    # 100,000 actions of history: the recursion of the default pickling stopped at ~400.
    long = state.replace(log=ActionLog.of([DrawStock(player=0)] * 100_000))
    assert len(long.history) == 100_000
    loaded = pickle.loads(pickle.dumps(long))
    assert loaded == long
    assert loaded.history == long.history
    assert copy.deepcopy(long) == long


def test_defect_a_played_state_pickles_equal() -> None:
    rng = random.Random(3)
    state = random_play(new_game("carousel", players=3, seed=3), rng, 500)[-1]
    assert len(state.history) > 400
    assert pickle.loads(pickle.dumps(state)) == state


@pytest.mark.parametrize("player", [0.0, [0], "0", True, None.__class__])
def test_defect_legal_actions_of_a_bad_player_is_an_illegal_action_error(player: object) -> None:
    state = new_game("rummy101", players=2, seed=5)
    with pytest.raises(IllegalActionError, match="bad player"):
        state.legal_actions(player)  # type: ignore[arg-type]


def test_defect_a_player_number_of_thousands_of_digits_is_refused_not_a_crash() -> None:
    # Python will not write an int of over 4,300 digits as text: the refusal names it short.
    state = new_game("rummy71", players=2, seed=5)
    huge = 10**5000
    assert state.is_legal(DrawStock(player=huge)) is False
    with pytest.raises(IllegalActionError, match="there is no player <a number of about 5001"):
        state.apply(DrawStock(player=huge))
    with pytest.raises(IllegalActionError, match="there is no player <a number of about 5001"):
        state.observation(huge)


def test_defect_a_negative_seat_is_named_as_given() -> None:
    state = new_game("rummy71", players=2, seed=5)
    with pytest.raises(
        IllegalActionError,
        match="there is no player -1 at this 2-seat table: players are numbered 0 to 1",
    ):
        state.observation(-1)


def test_a_phase_hashes_as_the_one_object_it_is() -> None:
    # PhaseBase hashes by identity (in C, not by name as Enum does): every phase is still
    # found as a key, and pickling and copying give back the same object, of the same hash.
    for phase in (Phase.DRAW, Phase("frish_vote"), Phase("first_upcard"), Phase.MATCH_OVER):
        assert hash(phase) == object.__hash__(phase)
        assert {phase: "found"}[phase] == "found"
        assert pickle.loads(pickle.dumps(phase)) is phase
        assert copy.deepcopy(phase) is phase


def test_defect_is_legal_never_raises_for_an_action_object() -> None:
    state = new_game("rummy101", players=2, seed=5)
    assert state.is_legal("draw") is False  # type: ignore[arg-type]
    assert state.is_legal(DrawStock(player=5)) is False


# -- settings as keywords, and the final hands of a deal (docs issue, items 6 and 10) ----------


def test_new_game_takes_settings_by_keyword_with_a_name_or_a_variant() -> None:
    carousel = new_game("carousel", players=3, seed=1, target_score=100).variant.settings()
    assert carousel["target_score"] == 100
    base = get_variant("rummy101", stake=5)
    state = new_game(base, players=2, seed=1, max_rebuys=1)
    changed = state.variant.settings()
    assert (changed["stake"], changed["max_rebuys"], base.settings()["max_rebuys"]) == (5, 1, 2)
    assert state.pot == 10  # two stakes of 5: the changed variant is the one that deals


def test_new_game_refuses_unknown_and_bad_settings_like_get_variant() -> None:
    with pytest.raises(ConfigurationError, match="unknown setting 'colour' for carousel"):
        new_game("carousel", players=2, colour="red")
    with pytest.raises(ConfigurationError, match="unknown setting 'colour' for rummy101"):
        new_game(get_variant("rummy101"), players=2, colour="red")
    with pytest.raises(ConfigurationError, match="target_score"):
        new_game(get_variant("carousel"), players=2, target_score=-1)


def test_a_deal_result_keeps_the_hands_and_table_the_deal_ended_with() -> None:
    deck = stack_deck(
        "rummy101",
        ["Ac 2c 3c 4c 5d 6d 7d 8d 9h 9s 9c Kh Kd", "2h 3h 4h 7s 7d 7c As 2d 5c 3s 4d 6h 2s"],
        face_up="Qh",
        stock="Ks",
    )
    state = new_game("rummy101", players=2, seed=3, deck=deck).apply(DrawStock(player=0))
    melds = tuple(
        parse_meld(text, state.variant.meld_rules)
        for text in ("2c 3c 4c", "5d 6d 7d 8d", "9h 9s 9c", "Kh Kd Ks")
    )
    state = state.apply(DeclareRummy(player=0, discard=parse_card("Ac"), melds=melds))
    state = state.apply(GiveUp(player=1))
    record = state.deal_results[0]
    assert state.deal_number == 2  # the next deal is already dealt...
    assert record.hands[0] == ()  # ...but the record shows how this one ended
    assert format_cards(record.hands[1]) == "2h 3h 4h 7s 7d 7c As 2d 5c 3s 4d 6h 2s"
    assert [str(meld) for meld in record.table] == [
        "2c 3c 4c",
        "5d 6d 7d 8d",
        "9c 9h 9s",
        "Kd Kh Ks",
    ]


def test_str_of_a_state_is_its_host_view_with_every_hand() -> None:
    state = new_game("rummy101", players=2, seed=1)
    text = str(state)
    assert text == state.render()
    for hand in state.hands:
        assert format_cards(hand) in text


def test_the_details_copied_on_most_turns_take_the_engines_one_copy_path() -> None:
    # engine.evolve copies a record that keeps its fields in a __dict__ in one step; the
    # Israeli and gin details are copied on most turns, so they must stay dict-backed (a
    # slotted detail is still correct, but every turn pays attrs.evolve instead).
    from rummylib.variants.gin import GinDetail  # noqa: PLC0415
    from rummylib.variants.israeli import IsraeliDetail  # noqa: PLC0415

    for detail in (IsraeliDetail(), GinDetail()):
        assert hasattr(detail, "__dict__"), type(detail).__name__


# -- the names the variants took over (open card, multiplier, pot) -------------------------------


def test_rule_1_4_the_open_card_lies_face_up_beside_the_stock_and_counts_once() -> None:
    state = new_game("rummy101", players=2, seed=5)
    assert state.open_card is not None
    assert state.aside == (state.open_card,)
    assert state.observation(1).aside == (state.open_card,)
    assert state.observation(1).open_card == state.open_card
    assert state.all_cards().total() == 108  # two packs and four jokers (rule 1.2)


def test_a_variant_without_an_open_card_multiplier_or_pot_reads_their_neutral_values() -> None:
    state = new_game("gin", players=2, seed=1)
    seen = state.observation(0)
    assert (state.open_card, state.multiplier, state.pot) == (None, 1, 0)
    assert (seen.open_card, seen.multiplier, seen.pot) == (None, 1, 0)
    assert "pot" not in dict(seen.public)
    with pytest.raises(TypeError, match=r"^GameState has no field 'pot'$"):
        state.replace(pot=5)
    with pytest.raises(AttributeError):
        _ = state.no_such_fact  # type: ignore[attr-defined]


def test_the_israeli_and_500_variants_keep_their_facts_and_set_them_through_replace() -> None:
    israeli = new_game("rummy101", players=3, seed=5)
    assert (israeli.multiplier, israeli.pot) == (2, 3)  # rules 1.17 and 1.19: one stake each
    changed = israeli.replace(pot=10, multiplier=4, open_card=None)
    assert (changed.pot, changed.multiplier, changed.open_card, changed.aside) == (10, 4, None, ())
    assert (israeli.pot, israeli.multiplier) == (3, 2)  # the old state is unchanged
    turkish = new_game("turkish500", players=2, seed=1)
    assert turkish.pot == 30  # rule 3.9: the deal's pool
    assert turkish.replace(pot=60).observation(0).pot == 60
    with pytest.raises(TypeError, match=r"^GameState has no field 'multiplier'$"):
        turkish.replace(multiplier=2)


def test_an_end_turn_without_changes_is_given_the_state_after_the_discard() -> None:
    # The engine hands the discard's hands and pile to an end_turn declared with **changes
    # (one copy a turn); an override declared without it sees them applied already.
    seen: list[tuple[int, Card]] = []

    @attrs.frozen(kw_only=True)
    class Plain(GinRummy):
        def end_turn(self, state: GameState, player: int) -> GameState:  # type: ignore[override]
            seen.append((len(state.hands[player]), state.discard_pile[-1]))
            return super().end_turn(state, player)

    state = new_game(Plain(), players=2, seed=1)
    state = state.apply(state.legal_actions(0)[0])  # take the first upcard (gin 4.2)
    discard = next(action for action in state.legal_actions(0) if isinstance(action, Discard))
    after = state.apply(discard)
    assert seen == [(10, discard.card)]
    twin = new_game("gin", players=2, seed=1)
    twin = twin.apply(twin.legal_actions(0)[0]).apply(discard)
    assert after.hands == twin.hands
    assert after.discard_pile == twin.discard_pile
    assert after.phase is twin.phase
    assert after.to_act == twin.to_act


def test_a_seat_may_be_any_integer_type_and_both_entry_points_say_the_same() -> None:
    class Seat(int):  # as a numpy integer is: an integer, not an int
        pass

    state = new_game("gin", players=2, seed=1)
    assert state.legal_actions(Seat(0)) == state.legal_actions(0)
    seen = state.observation(Seat(1))
    assert seen.player == 1
    assert type(seen.player) is int
    for bad in (2, -1, True, 1.0, "0"):
        with pytest.raises(IllegalActionError) as listed:
            state.legal_actions(bad)  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError) as observed:
            state.observation(bad)  # type: ignore[arg-type]
        assert str(listed.value) == str(observed.value)
