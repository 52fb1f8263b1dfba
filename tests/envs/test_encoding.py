"""rummylib.envs.encoding: the action numbering, the observation vector, the takes, rewards."""

from __future__ import annotations

import itertools
import subprocess
import sys
from collections import Counter
from typing import Any

import attrs
import pytest

np: Any = pytest.importorskip("numpy", reason="rummylib.envs needs the rl extra (numpy)")

from hypothesis import given, settings  # noqa: E402  (after the importorskip)
from hypothesis import strategies as st  # noqa: E402

from rummylib.actions import (  # noqa: E402
    Action,
    AnswerFrish,
    DeclareRummy,
    Discard,
    DrawStock,
    LayDown,
    LayOff,
    Rearrange,
    Show,
    ShowMelds,
    TakeDiscard,
)
from rummylib.arrangement import arrange  # noqa: E402
from rummylib.cards import CARDS, JOKER_INDEX, Card, parse_card  # noqa: E402
from rummylib.envs.encoding import (  # noqa: E402
    CARD_KINDS,
    ActionTable,
    ObservationEncoder,
    TakenCards,
    describe,
    outcome,
    rewards,
    score_sign,
    variant_kinds,
)
from rummylib.errors import ConfigurationError, IllegalActionError  # noqa: E402
from rummylib.state import GameState, new_game, stack_deck  # noqa: E402
from rummylib.table import JokerReplacementSource, best_play  # noqa: E402
from tests.envs.helpers import VARIANT_NAMES, playout, seat_counts, variant  # noqa: E402

# -- the table --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_blocks_number_every_move_once_from_zero(name: str) -> None:
    table = ActionTable.for_variant(variant(name))
    start = 0
    for block in table.blocks:
        assert block.start == start
        assert block.size > 0
        start = block.stop
    assert table.size == start
    labels = [table.label(number) for number in range(table.size)]
    assert len(set(labels)) == table.size


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_every_kind_the_variant_uses_has_a_block(name: str) -> None:
    game = variant(name)
    table = ActionTable.for_variant(game)
    assert {block.kind for block in table.blocks} == set(variant_kinds(game))


def test_the_numbering_is_fixed_per_variant() -> None:
    gin = ActionTable.for_variant(variant("gin"))
    assert ActionTable.for_variant(variant("gin")) is gin
    assert [(block.name, block.start, block.size) for block in gin.blocks] == [
        ("draw_stock", 0, 1),
        ("take_discard", 1, 1),
        ("discard", 2, 53),
        ("knock", 55, 1),
        ("pass", 56, 1),
        ("lay_down_best", 57, 1),
        ("lay_down", 58, 53),
        ("lay_off", 111, 53),
        ("take_discards", 164, 51),
    ]
    assert gin.label(2 + parse_card("Qs").index) == "discard Qs"
    assert gin.label(164) == "take the top 2 discards"


def test_out_of_range_and_non_integer_numbers_are_refused() -> None:
    state = new_game("gin", players=2, seed=1)
    table = ActionTable.for_variant(state.variant)
    for bad in (-1, table.size, 10**9):
        with pytest.raises(IllegalActionError, match="bad action number"):
            table.decode(state, 0, bad)
    with pytest.raises(IllegalActionError, match="expected a whole number"):
        table.decode(state, 0, True)


def test_a_player_who_may_not_act_has_no_numbers() -> None:
    state = new_game("gin", players=2, seed=1)
    table = ActionTable.for_variant(state.variant)
    assert table.numbers(state, 1) == ()
    assert not table.mask(state, 1).any()
    with pytest.raises(IllegalActionError, match="not legal for p2"):
        table.decode(state, 1, table.numbers(state, 0)[0])


def _points(cards: list[Card], state: GameState) -> tuple[int, int]:
    values = state.variant.card_points.values
    return (sum(values[card.index] for card in cards), len(cards))


def _most(candidates: list[tuple[tuple[int, int], Action]]) -> Action | None:
    best: tuple[tuple[int, int], Action] | None = None
    for key, action in candidates:  # the first of the best, as listed
        if best is None or key > best[0]:
            best = (key, action)
    return None if best is None else best[1]


def _expected(  # noqa: PLR0911, PLR0912  (one branch per block, as the docs define them)
    state: GameState, player: int, name: str, offset: int
) -> Action | None:
    """The docs' definition of each block, written out independently of the table's code."""
    listed = state.legal_actions(player)
    card = CARDS[offset] if offset < CARD_KINDS else None
    game = state.variant
    hand = state.hands[player]
    if name == "discard":
        return next((a for a in listed if isinstance(a, Discard) and a.card == card), None)
    if name == "take_discard":
        return next((a for a in listed if isinstance(a, TakeDiscard) and a.count == 1), None)
    if name == "take_discards":
        count = offset + 2
        return next((a for a in listed if isinstance(a, TakeDiscard) and a.count == count), None)
    if name == "declare":
        return next((a for a in listed if isinstance(a, DeclareRummy) and a.discard == card), None)
    if name == "show":  # Indian rule 6.12: card c goes face down, wrong shows included
        return next((a for a in listed if isinstance(a, Show) and a.discard == card), None)
    if name == "show_melds":
        return next((a for a in listed if isinstance(a, ShowMelds)), None)
    if name == "answer_frish":
        return next((a for a in listed if isinstance(a, AnswerFrish) and a.accept == offset), None)
    if name == "lay_off":
        return next((a for a in listed if isinstance(a, LayOff) and a.card == card), None)
    if name == "lay_down":
        return _most(
            [
                (_points([c for m in a.melds for c in m.cards], state), a)
                for a in listed
                if isinstance(a, LayDown) and card in [c for m in a.melds for c in m.cards]
            ]
        )
    if name == "table_play":
        before = Counter(c for m in state.table for c in m.cards)
        found: list[tuple[tuple[int, int], Action]] = []
        for action in listed:
            if isinstance(action, Rearrange):
                played = Counter(c for m in action.table for c in m.cards) - before
                if card in played:
                    found.append((_points(list(played.elements()), state), action))
        return _most(found)
    if name == "lay_down_best":
        for keep in (False, True):
            melds = arrange(
                hand,
                game.meld_rules,
                game.card_points,
                discard=keep,
                can_discard=game.may_ever_discard,
            ).melds
            if melds and state.is_legal(LayDown(player=player, melds=melds)):
                return LayDown(player=player, melds=melds)
        return None
    if name in {"table_best_cards", "table_best_points"}:
        objective = name.rsplit("_", 1)[1]
        if game.name == "rummikub":  # the initial meld: the variant answers (its own tests)
            return game.best_table_play(state, player, objective)
        replacement = game.settings().get("joker_replacement_source", "hand_or_table")
        play = best_play(
            state.table,
            hand,
            game.meld_rules,
            objective=objective,
            points=game.card_points,
            replacement=JokerReplacementSource(replacement),
        )
        if play is None:
            return None
        action = Rearrange(player=player, table=play.table)
        return action if state.is_legal(action) else None
    singles = [a for a in listed if type(a).__name__.lower() == name.replace("_", "")]
    return singles[0] if singles else None


def _check_state(state: GameState) -> None:
    if state.is_over:
        return
    player = state.to_act[0]
    table = ActionTable.for_variant(state.variant)
    numbers = table.numbers(state, player)
    legal = table.legal(state, player)
    assert tuple(legal) == numbers == tuple(sorted(numbers))
    # Every state where the player may act has a number; every number decodes to a legal move.
    assert state.legal_actions(player)
    assert numbers, (state, state.legal_actions(player))
    assert list(np.flatnonzero(table.mask(state, player))) == list(numbers)
    for number, action in legal.items():
        assert state.is_legal(action), (number, action)
        assert table.decode(state, player, number) == action
        block = table.block_of(number)
        assert isinstance(action, block.kind)
        expected = _expected(state, player, block.name, number - block.start)
        assert action == expected, (block.name, number, action, expected)
    # Every other number is refused.
    for number in set(range(table.size)) - set(numbers):
        with pytest.raises(IllegalActionError, match="not legal"):
            table.decode(state, player, number)
    # Each move without melds that the engine lists has its own number.
    for action in state.legal_actions(player):
        if not isinstance(action, LayDown | LayOff | Rearrange | DeclareRummy | ShowMelds):
            found = table.number_of(state, action)
            assert found is not None, action
            assert table.decode(state, player, found) == action


@pytest.mark.parametrize("name", VARIANT_NAMES)
@settings(max_examples=6)
@given(seed=st.integers(0, 2**32), data=st.data())
def test_legal_numbers_decode_to_legal_moves(name: str, seed: int, data: st.DataObject) -> None:
    players = data.draw(st.sampled_from(seat_counts(name)))
    for state in playout(name, seed=seed, players=players, steps=60):
        _check_state(state)


def test_a_gin_knocker_who_laid_every_card_may_only_pass() -> None:
    # The knocker takes Qh, knocks, discards Kc and lays all ten cards: the empty hand has no
    # best lay-down (it used to ask the solver for a discard from no cards, and fail).
    game = variant("gin")
    knocker, defender = "2s 3s 4s 7c 7d 7h 9h Th Jh Kc", "5s 8h Qc Qd 4d 6d 9c 2c Ac 5c"
    deck = stack_deck(game, [knocker, defender], face_up="Qh")
    state = new_game(game, players=2, seed=0, deck=deck)
    table = ActionTable.for_variant(game)
    for name, offset in (("take_discard", 0), ("knock", 0), ("discard", 12), ("lay_down_best", 0)):
        block = table.block(name)
        assert block is not None
        state = state.apply(table.decode(state, 0, block.start + offset))  # offset 12: Kc
    assert state.hands[0] == ()
    assert [table.label(number) for number in table.numbers(state, 0)] == ["pass"]


def test_an_israeli_declaration_is_numbered_by_its_discard() -> None:
    deck = stack_deck(
        "rummy101",
        ["Ah 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Ks", "Ac 3c 5c 7c 9c Jc Kc 2d 4d 6d 8d Td Qd"],
        face_up="Kd",
        stock="Kh",
    )
    state = new_game("rummy101", players=2, seed=0, deck=deck)
    state = state.apply(DrawStock(player=0))
    table = ActionTable.for_variant(state.variant)
    declare = table.block("declare")
    assert declare is not None
    action = table.decode(state, 0, declare.start + parse_card("Ks").index)
    assert isinstance(action, DeclareRummy)
    assert action.discard == parse_card("Ks")
    rest = [card for card in state.hands[0] if card != parse_card("Ks")]
    rules, points = state.variant.meld_rules, state.variant.card_points
    assert Counter(c for m in action.melds for c in m.cards) == Counter(rest)
    assert action.melds == arrange(rest, rules, points).melds


# -- the observation ------------------------------------------------------------------------


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_the_layout_covers_the_vector(name: str) -> None:
    game = variant(name)
    for players in seat_counts(name):
        encoder = ObservationEncoder(game, players)
        slices = sorted(encoder.layout.values(), key=lambda piece: piece.start)
        assert slices[0].start == 0
        for first, second in itertools.pairwise(slices):
            assert first.stop == second.start
        assert slices[-1].stop == encoder.size == len(encoder.low) == len(encoder.high)
        assert (encoder.low < encoder.high).all()
        assert encoder.layout["taken"].stop - encoder.layout["taken"].start == 53 * (players - 1)


def test_the_vector_holds_the_view() -> None:
    state = new_game("rummy101", players=3, seed=4)
    encoder = ObservationEncoder(state.variant, 3)
    observation = state.observation(1)
    vector = encoder.encode(observation)
    put = encoder.layout
    hand = vector[put["hand"]]
    assert hand.sum() == 13
    for card, count in Counter(observation.hand).items():
        assert hand[card.index] == count
    assert observation.open_card is not None  # rule 1.3: the open card lies face up
    assert vector[put["aside"]][observation.open_card.index] == 1
    assert vector[put["aside"]].sum() == 1
    # The Israeli facts the vector holds: the first deal's multiplier (1.17), the stakes (1.19).
    assert list(vector[put["facts"]]) == [2, 3]
    assert vector[put["stock_size"]][0] == observation.stock_size
    # Seats relative to the viewer: player 1 sees seat 2 next and seat 0 last; seat 0 is to act.
    assert list(vector[put["to_act"]]) == [0, 0, 1]
    assert list(vector[put["current_player"]]) == [0, 0, 1]
    assert list(vector[put["hand_sizes"]]) == [13, 13, 13]
    assert vector[put["phase"]].sum() == 1


def _reference_vector(encoder: ObservationEncoder, observation: Any, taken: TakenCards) -> Any:
    """The vector as the layout table in the encoder's docstring defines it, field by field."""
    put, n, viewer = encoder.layout, encoder.players, observation.player
    seats = [(viewer + offset) % n for offset in range(n)]
    vector = np.zeros(encoder.size, dtype=np.float32)

    def plane(name: str, cards: Any) -> None:
        for card, count in Counter(cards).items():
            vector[put[name].start + card.index] = count

    plane("hand", observation.hand)
    plane("discard_pile", observation.discard_pile)
    plane("discard_top", observation.discard_pile[-1:])
    plane("aside", observation.aside)
    plane("table", [card for meld in observation.table for card in meld.cards])
    vector[put["taken"]] = np.concatenate([taken.counts[seat] for seat in seats[1:]])
    for name, value in (
        ("stock_size", observation.stock_size),
        ("discard_pile_size", len(observation.discard_pile)),
        ("table_melds", len(observation.table)),
        ("deal_number", observation.deal_number),
    ):
        vector[put[name]] = value
    facts = dict(observation.public)
    for offset, name in enumerate(encoder.variant.encoded_facts):
        vector[put["facts"].start + offset] = facts[name]
    for offset, seat in enumerate(seats):
        vector[put["hand_sizes"].start + offset] = observation.hand_sizes[seat]
        vector[put["scores"].start + offset] = observation.scores[seat]
        vector[put["in_match"].start + offset] = seat in observation.players_in
        vector[put["to_act"].start + offset] = seat in observation.to_act
        vector[put["current_player"].start + offset] = seat == observation.current_player
    phases = list(encoder.phases)
    where = phases.index(observation.phase) if observation.phase in phases else len(phases)
    vector[put["phase"].start + where] = 1
    return vector


@pytest.mark.parametrize("name", VARIANT_NAMES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_encode_and_update_give_the_layout_s_vector(name: str, seed: int) -> None:
    # Every player's vector after every move of a match, both encoded afresh and updated from
    # that player's vector of the move before, equals the layout table's vector.
    game = variant(name)
    for players in seat_counts(name):
        encoder = ObservationEncoder(game, players)
        taken = TakenCards(players)
        last: dict[int, tuple[Any, Any]] = {}
        previous: GameState | None = None
        for state in playout(name, seed=seed, players=players, steps=150):
            if previous is not None:
                actor = previous.to_act[0]
                taken.update(previous.observation(actor), state.observation(actor), actor=actor)
            previous = state
            for viewer in range(players):
                observation = state.observation(viewer)
                expected = _reference_vector(encoder, observation, taken)
                assert (encoder.encode(observation, taken) == expected).all()
                if viewer in last:
                    before, vector = last[viewer]
                    kept = vector.copy()
                    updated = encoder.update(vector, before, observation, taken)
                    assert (updated == expected).all()
                    assert (vector == kept).all()  # the earlier vector is left as it was
                    last[viewer] = (observation, updated)
                else:
                    last[viewer] = (observation, encoder.encode(observation, taken))


def _swap_hidden(state: GameState, viewer: int) -> GameState | None:
    """The same state with a card of another hand swapped for a different card of the stock."""
    other = (viewer + 1) % state.player_count
    hand, stock = list(state.hands[other]), list(state.stock)
    for at, card in enumerate(hand):
        for deep in range(len(stock) - 1, -1, -1):
            if stock[deep] != card:
                hand[at], stock[deep] = stock[deep], card
                hands = list(state.hands)
                hands[other] = tuple(hand)
                return state.replace(hands=tuple(hands), stock=tuple(stock))
    return None


@pytest.mark.parametrize("name", VARIANT_NAMES)
@settings(max_examples=5)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 40))
def test_the_encoding_never_depends_on_hidden_cards(name: str, seed: int, steps: int) -> None:
    game = variant(name)
    players = game.min_players
    state = new_game(name, players=players, seed=seed)
    for state in playout(name, seed=seed, players=players, steps=steps + 1):  # noqa: B007
        pass
    if state.is_over:
        return
    encoder = ObservationEncoder(game, players)
    table = ActionTable.for_variant(game)
    for viewer in range(players):
        twin = _swap_hidden(state, viewer)
        if twin is None:
            continue
        assert twin.hands != state.hands
        one = encoder.encode(state.observation(viewer))
        two = encoder.encode(twin.observation(viewer))
        assert (one == two).all()
        assert (table.mask(state, viewer) == table.mask(twin, viewer)).all()


def test_the_encoder_reads_only_the_observation() -> None:
    # The encoder's input is an Observation, which never holds another hand or the stock.
    state = new_game("turkish500", players=3, seed=2)
    observation = state.observation(0)
    assert not hasattr(observation, "hands")
    assert not hasattr(observation, "stock")
    encoder = ObservationEncoder(state.variant, 3)
    with pytest.raises(AttributeError):
        encoder.encode(state)  # type: ignore[arg-type]


# -- what each player was seen to take -------------------------------------------------------


def _reference_takes(counts: Any, before: Any, after: Any, actor: int) -> None:
    """TakenCards.update as first written (before its shortcuts), for the test below."""
    if after.deal_number != before.deal_number:
        counts[:] = 0
        return
    row = counts[actor]
    grew = after.hand_sizes[actor] - before.hand_sizes[actor]
    pile_before, pile_after = before.discard_pile, after.discard_pile
    if (
        grew > 0
        and len(pile_after) < len(pile_before)
        and pile_before[: len(pile_after)] == pile_after
        and len(pile_before) - len(pile_after) <= grew
    ):
        for card in pile_before[len(pile_after) :]:
            row[card.index] += 1
    if (
        grew == 1
        and before.open_card is not None
        and after.open_card is None
        and after.stock_size == before.stock_size
    ):
        row[before.open_card.index] += 1
    shown: Counter[Card] = Counter()
    if len(pile_after) > len(pile_before) and pile_after[: len(pile_before)] == pile_before:
        shown.update(pile_after[len(pile_before) :])
    if after.table != before.table:
        melds = [card for meld in after.table for card in meld.cards]
        earlier = [card for meld in before.table for card in meld.cards]
        shown.update(Counter(melds) - Counter(earlier))
    for card, count in shown.items():
        row[card.index] = max(0, int(row[card.index]) - count)


@pytest.mark.parametrize("name", VARIANT_NAMES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_taken_cards_follow_the_first_written_rule(name: str, seed: int) -> None:
    for players in seat_counts(name):
        taken = TakenCards(players)
        expected = np.zeros((players, CARD_KINDS), dtype=np.int16)
        previous: GameState | None = None
        for state in playout(name, seed=seed, players=players, steps=200):
            if previous is not None:
                actor = previous.to_act[0]
                before, after = previous.observation(actor), state.observation(actor)
                taken.update(before, after, actor=actor)
                _reference_takes(expected, before, after, actor)
                assert (taken.counts == expected).all()
            previous = state


def test_a_taken_discard_is_remembered_until_it_is_discarded_again() -> None:
    state = new_game("gin", players=2, seed=1)
    taken = TakenCards(players=2)
    upcard = state.discard_pile[-1]
    after = state.apply(TakeDiscard(player=0))
    taken.update(state.observation(1), after.observation(1), actor=0)
    assert taken.counts[0][upcard.index] == 1
    assert taken.counts[1].sum() == 0
    # The vector of player 1 shows it in the plane of the next seat (player 0).
    encoder = ObservationEncoder(after.variant, 2)
    vector = encoder.encode(after.observation(1), taken)
    assert vector[encoder.layout["taken"]][upcard.index] == 1
    again = after.apply(Discard(player=0, card=upcard))
    taken.update(after.observation(1), again.observation(1), actor=0)
    assert taken.counts.sum() == 0


def test_a_stock_draw_reveals_nothing() -> None:
    state = new_game("rummy101", players=2, seed=3)
    taken = TakenCards(players=2)
    after = state.apply(DrawStock(player=0))
    taken.update(state.observation(1), after.observation(1), actor=0)
    assert taken.counts.sum() == 0


def test_a_new_deal_forgets_the_takes() -> None:
    taken = TakenCards(players=2)
    taken.counts[0][5] = 1
    first = new_game("gin", players=2, seed=1).observation(0)
    second = attrs.evolve(first, deal_number=2)
    taken.update(first, second, actor=0)
    assert taken.counts.sum() == 0


# -- rewards and text ----------------------------------------------------------------------------


def test_the_score_sign_follows_who_wins() -> None:
    assert score_sign(variant("rummy71")) == -1  # penalty points
    for name in ("gin", "carousel", "turkish500", "rummy500"):
        assert score_sign(variant(name)) == 1


@pytest.mark.parametrize("name", ["gin", "rummy101", "turkish500", "knock7"])
def test_score_rewards_add_up_to_the_signed_final_scores(name: str) -> None:
    states = list(playout(name, seed=5, players=2, steps=20_000, greedy=1.0))
    final = states[-1]
    assert final.is_over
    sign = score_sign(final.variant)
    totals = [0.0, 0.0]
    deal_totals = [0.0, 0.0]
    wins = [0.0, 0.0]
    for before, after in itertools.pairwise(states):
        for seat, value in enumerate(rewards(before, after, "score")):
            totals[seat] += value
        for seat, value in enumerate(rewards(before, after, "deal")):
            deal_totals[seat] += value
        for seat, value in enumerate(rewards(before, after, "win")):
            wins[seat] += value
    assert totals == [sign * score for score in final.scores]
    assert deal_totals == [
        sign * sum(record.points[seat] for record in final.deal_results) for seat in range(2)
    ]
    assert wins == outcome(final)


def test_an_unknown_reward_mode_is_refused() -> None:
    state = new_game("gin", players=2, seed=1)
    with pytest.raises(ConfigurationError, match="bad rewards 'money'"):
        rewards(state, state, "money")


def test_the_text_shows_the_whole_table() -> None:
    state = new_game("rummy101", players=2, seed=3)
    text = describe(state)
    assert "rummy101 deal 1" in text
    assert text.count("\np") == 2  # both hands
    assert str(state.open_card) in text


def test_joker_index_is_the_last_card_kind() -> None:
    assert CARD_KINDS == JOKER_INDEX + 1 == len(CARDS)


def test_import_rummylib_imports_no_environment() -> None:
    code = (
        "import sys, rummylib, rummylib.variants, rummylib.bots, rummylib.simulate\n"
        "loaded = [m for m in sys.modules if m.split('.')[0] in "
        "{'numpy', 'gymnasium', 'pettingzoo', 'pyspiel'} or m.startswith('rummylib.envs')]\n"
        "print(loaded)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


# Blocks the default rules of each built-in variant can make legal (the others: take_discards
# outside classic 500, the top discard in Turkish 500, where the pile is dead by default).
REACHED = {
    "rummy71": {"draw_stock", "take_discard", "take_open_card", "discard", "declare"}
    | {"show_melds", "give_up", "propose_frish", "answer_frish", "rebuy", "decline_rebuy"},
    "carousel": {"draw_stock", "knock", "pass", "table_best_cards", "table_best_points"}
    | {"table_play"},
    "turkish500": {"draw_stock", "discard", "lay_down_best", "lay_down", "lay_off"},
    "rummy500": {"draw_stock", "take_discard", "take_discards", "discard", "lay_down_best"}
    | {"lay_down", "lay_off"},
    "gin": {"draw_stock", "take_discard", "discard", "knock", "pass", "lay_down_best"}
    | {"lay_down", "lay_off"},
}


@pytest.mark.parametrize("name", sorted(REACHED))
def test_whole_matches_reach_every_block(name: str) -> None:
    seen: set[str] = set()
    for seed in range(40):
        players = 3 if name == "rummy71" else variant(name).min_players
        for index, state in enumerate(
            playout(name, seed=seed, players=players, steps=20_000, greedy=0.9)
        ):
            if state.is_over:
                break
            table = ActionTable.for_variant(state.variant)
            blocks = {table.block_of(n).name for n in table.numbers(state, state.to_act[0])}
            if not blocks <= seen or index % 97 == 0:
                _check_state(state)  # every state that shows a block for the first time
            seen |= blocks
        if REACHED[name] <= seen:
            break
    assert seen >= REACHED[name]


@pytest.mark.parametrize("name", VARIANT_NAMES)
def test_a_match_s_updated_vectors_equal_fresh_ones(name: str) -> None:
    # Match.encode updates each seat's vector from its last one (and keeps the taken rows
    # while the record is unchanged): every vector it gives equals a fresh encoding.
    from rummylib.envs._common import Match  # noqa: PLC0415

    game = variant(name)
    match = Match(game, game.min_players)
    rng = np.random.default_rng(11)
    for seed in (1, 2):
        match.start(seed)
        for _ in range(300):
            seat = match.to_act
            if seat is None:
                break
            for viewer in range(match.players):
                fresh = match.encoder.encode(match.observation(viewer), match.taken)
                given = match.encode(viewer)
                assert (given == fresh).all()
                given[:] = -1  # the caller's copy: changing it changes nothing kept
                assert (match.encode(viewer) == fresh).all()
            match.play(seat, int(rng.choice(match.table.numbers(match.state, seat))))


def test_a_card_listed_twice_is_numbered_by_its_first_action() -> None:
    from rummylib.variants.gin import GinRummy  # noqa: PLC0415

    class Twice(GinRummy):  # a variant that lists every discard twice
        def candidates_discard(self, state: GameState, player: int) -> list[Action]:
            listed = list(super().candidates_discard(state, player))
            fresh = [Discard(player=player, card=a.card) for a in listed if isinstance(a, Discard)]
            return [*fresh, *listed]

    game = Twice()
    state = new_game(game, players=2, seed=3)
    state = state.apply(TakeDiscard(player=0))
    first = state.legal_actions(0)[0]
    assert isinstance(first, Discard)
    table = ActionTable(game)
    block = table.block("discard")
    assert block is not None
    number = block.start + first.card.index
    assert table.decode(state, 0, number) is first
    assert len(table.numbers(state, 0)) == len(state.legal_actions(0)) // 2


def test_masks_are_new_arrays_even_when_they_repeat() -> None:
    state = new_game("gin", players=2, seed=1)
    table = ActionTable.for_variant(state.variant)
    first = table.mask(state, 0)
    assert list(np.flatnonzero(first)) == list(table.numbers(state, 0))
    first[:] = 1  # the caller's array: changing it changes no later mask
    again = table.mask(new_game("gin", players=2, seed=1), 0)
    assert again is not first
    assert list(np.flatnonzero(again)) == list(table.numbers(state, 0))
    assert again.flags.writeable
