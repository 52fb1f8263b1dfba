"""A record read: :class:`Record` replays its lines, and completes a player's view."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

import attrs

from rummylib import _notation
from rummylib.actions import (
    Action,
    Codec,
    DrawStock,
    Rearrange,
    TakeDiscard,
    spec_of,
)
from rummylib.cards import Card
from rummylib.engine import Variant, next_player
from rummylib.errors import NotationError, RummyError
from rummylib.melds import Meld
from rummylib.records._model import (
    _LOOKAHEAD,
    _SEEDLESS,
    Deal,
    RecordError,
    _Block,
    _is_new_deal,
    _Setup,
    _Step,
    _Stop,
)
from rummylib.scoring import DealResult
from rummylib.state import GameState, new_game
from rummylib.tiles import CARD_NOTATION, Notation
from rummylib.views import Observation


@attrs.frozen(kw_only=True, eq=False)
class Record:
    """A game record, read and replayed.

    >>> from rummylib.records import dumps, loads
    >>> from rummylib import new_game
    >>> record = loads(dumps(new_game("rummy71", players=3, seed=2), names=["Ann", "Ben", "Cy"]))
    >>> record.variant.name, record.players, record.names, record.seed, record.view
    ('rummy71', 3, ('Ann', 'Ben', 'Cy'), 2, None)

    Attributes:
        variant: the variant and its settings.
        players: the number of seats.
        names: the players' names, if the record gives them (``p1`` first).
        seed: the match seed, in a host's record.
        deck: the stacked deck of the first deal, where the match was stacked.
        view: the player whose view the record is (0 for ``p1``), or ``None`` for a host's
            record of every card.
        metadata: the optional entries: ``event``, ``site``, ``date``, ``table``,
            ``time_control``, and the user's own entries whose names start with ``_``.
        errors: the problems found (``loads(..., strict=False)``); the record keeps every
            action before the first of them.
        deals: the deals, in order.
    """

    variant: Variant
    players: int
    names: tuple[str, ...] | None
    seed: int | None
    deck: tuple[Card, ...] | None
    view: int | None
    metadata: Mapping[str, object]
    errors: tuple[RecordError, ...]
    deals: tuple[Deal, ...] = attrs.field(repr=False)
    _setup: _Setup = attrs.field(repr=False)
    _opening: _Block | None = attrs.field(repr=False)
    _steps: tuple[_Step, ...] = attrs.field(repr=False)
    _final: GameState = attrs.field(repr=False)

    @property
    def actions(self) -> tuple[Action, ...]:
        """Every action kept, in order.

        >>> from rummylib.records import dumps, loads
        >>> from rummylib import new_game
        >>> loads(dumps(new_game("carousel", players=2, seed=1))).actions
        ()
        """
        return tuple(step.action for step in self._steps)

    def states(self) -> Iterator[GameState]:
        """Every state of the match: the start, then one after each action.

        >>> from rummylib.records import dumps, loads
        >>> from rummylib import new_game
        >>> state = new_game("carousel", players=2, seed=1)
        >>> [s.phase.value for s in loads(dumps(state.apply(state.legal_actions()[0]))).states()]
        ['draw', 'play']

        Raises:
            NotationError: the record is one player's view, which replays to observations
                (:meth:`observations`), not states.
        """
        if self.view is not None:
            msg = (
                f"this record is p{self.view + 1}'s view: it replays to observations "
                "(Record.observations()), not states"
            )
            raise NotationError(msg)
        yield from self._states()

    def _states(self) -> Iterator[GameState]:
        """The replayed states, from the start.

        A record kept without its first deal (``strict=False``) has only its final state, the
        one :func:`loads` built when the first deal was refused.
        """
        replay = _replay(self._setup, self._opening, self._steps)
        try:
            _, start = next(replay)
        except _Stop:  # the steps kept are those that replayed: only the start can stop
            yield self._final
            return
        yield start
        yield from (state for _, state in replay)

    @property
    def final_state(self) -> GameState:
        """The state after the last action kept.

        >>> from rummylib.records import dumps, loads
        >>> from rummylib import new_game
        >>> state = new_game("gin", players=2, seed=4)
        >>> loads(dumps(state)).final_state == state
        True

        Raises:
            NotationError: the record is one player's view (see :attr:`final_observation`).
        """
        if self.view is not None:
            msg = (
                f"this record is p{self.view + 1}'s view: it has a final observation "
                "(Record.final_observation), not a final state"
            )
            raise NotationError(msg)
        return self._final

    def observations(self, player: int | None = None) -> Iterator[Observation]:
        """What ``player`` saw: one observation at the start and one after each action.

        A view record replays to its player's observations (``player`` is then that player,
        or ``None``): its hidden cards are filled in with cards consistent with everything
        the record shows (see the spec page), and the observations are exactly the ones
        the player had.

        >>> from rummylib.records import dumps, loads
        >>> from rummylib import new_game
        >>> state = new_game("turkish500", players=2, seed=3)
        >>> view = loads(dumps(state, view=1))
        >>> next(view.observations()) == state.observation(1)
        True

        Raises:
            NotationError: ``player`` is not the view's player, or is missing for a host's
                record.
        """
        if self.view is not None:
            if player not in {None, self.view}:
                msg = f"this record is p{self.view + 1}'s view, not p{player + 1}'s"
                raise NotationError(msg)
            seat = self.view
        elif player is None:
            msg = "name the player whose observations to replay: observations(player)"
            raise NotationError(msg)
        else:
            seat = player
        for state in self._states():
            yield state.observation(seat)

    @property
    def final_observation(self) -> Observation:
        """The view's player's observation after the last action kept (view records).

        >>> from rummylib.records import dumps, loads
        >>> from rummylib import new_game
        >>> state = new_game("carousel", players=3, seed=4)
        >>> loads(dumps(state, view=2)).final_observation == state.observation(2)
        True

        Raises:
            NotationError: the record is a host's record (use :attr:`final_state`).
        """
        if self.view is None:
            msg = "a host's record has a final state (Record.final_state), not one view"
            raise NotationError(msg)
        return self._final.observation(self.view)


# -- replaying ----------------------------------------------------------------------------------


@attrs.define
class _DealSoFar:
    number: int
    first_line: int
    last_line: int
    actions: list[Action] = attrs.Factory(list)
    result: DealResult | None = None

    def close(self, scores: tuple[int, ...]) -> Deal:
        return Deal(
            number=self.number,
            first_line=self.first_line,
            last_line=self.last_line,
            actions=tuple(self.actions),
            result=self.result,
            scores=scores,
        )


def _run(
    setup: _Setup, opening: _Block | None, steps: Sequence[_Step]
) -> tuple[list[_Step], GameState, tuple[Deal, ...], _Stop | None]:
    """Replay every step; return the steps kept, the last state, the deals, and the stop."""
    kept: list[_Step] = []
    deals: list[Deal] = []
    replay = _replay(setup, opening, steps)
    try:
        _, state = next(replay)
    except _Stop as stop:
        return [], new_game(setup.variant, players=setup.players, seed=_SEEDLESS), (), stop
    first = opening.line if opening is not None else (steps[0].line if steps else 1)
    deal = _DealSoFar(state.deal_number, first, first)
    halt: _Stop | None = None
    while True:
        try:
            step, after = next(replay)
        except StopIteration:
            break
        except _Stop as error:
            halt = error
            break
        assert step is not None
        kept.append(step)
        deal.actions.append(step.action)
        deal.last_line = step.line
        if len(after.deal_results) > len(state.deal_results) and deal.result is None:
            deal.result = after.deal_results[len(state.deal_results)]
        if _starts_deal(state, after, step):
            deals.append(deal.close(after.scores))
            line = step.block.line if step.block is not None else step.line
            deal = _DealSoFar(after.deal_number, line, line)
        state = after
    if deal.actions or deal.result is not None or not deals or not state.is_over:
        deals.append(deal.close(state.scores))
    return kept, state, tuple(deals), halt


def _starts_deal(before: GameState, after: GameState, step: _Step) -> bool:
    if step.block is not None:
        return step.block.kind == "deal"
    return after.shuffle_count > before.shuffle_count and _is_new_deal(before, after, step.action)


def _replay(
    setup: _Setup, opening: _Block | None, steps: Sequence[_Step]
) -> Iterator[tuple[_Step | None, GameState]]:
    """The states of a record: ``(None, start)``, then ``(step, state after it)``.

    Raises:
        _Stop: a line the rules refuse, or that does not agree with the replay.
    """
    if setup.view is not None:
        yield from _Completion(setup, opening, steps).run()
        return
    state = _start(setup, opening)
    yield None, state
    for step in steps:
        for line, seat, cards in step.shows:
            if Counter(state.hands[seat]) != Counter(card for card in cards if card is not None):
                raise _Stop(line, f"p{seat + 1} does not hold these cards")
        state = _apply(state, step, seedless=setup.seed is None)
        yield step, state


def _start(setup: _Setup, opening: _Block | None) -> GameState:
    line = opening.line if opening is not None else 1
    if setup.seed is not None or setup.deck is not None:
        seed = _SEEDLESS if setup.seed is None else setup.seed
        state = new_game(setup.variant, players=setup.players, seed=seed, deck=setup.deck)
    else:
        if opening is None:
            raise _Stop(1, "a record without a seed starts with the lines of the first deal")
        trial = new_game(setup.variant, players=setup.players, seed=_SEEDLESS)
        deck = _stacked_deck(trial, opening)
        try:
            state = new_game(setup.variant, players=setup.players, seed=_SEEDLESS, deck=deck)
        except RummyError as error:
            raise _Stop(line, f"the first deal's cards are not the deck: {error}") from None
    if opening is not None:
        _check_block(state, opening)
    return state


def _apply(state: GameState, step: _Step, *, seedless: bool) -> GameState:
    """The state after ``step``; with ``seedless`` its dealer lines say how the cards lie."""
    action = step.action
    try:
        state.verify(action)
    except RummyError as error:
        raise _Stop(step.line, str(error)) from None
    if step.drawn is not None and (not state.stock or state.stock[0] != step.drawn):
        top = state.stock[0] if state.stock else "nothing"
        message = f"p{action.player + 1} draws {top} from the stock, not {step.drawn}"
        raise _Stop(step.line, message)
    block = step.block
    if block is not None and block.kind == "deal" and seedless:
        trial = state.apply(action)
        if trial.shuffle_count == state.shuffle_count:
            raise _Stop(block.line, "the record deals here, but the rules deal no new cards")
        after = _apply_stacked(state, action, _stacked_deck(trial, block), block)
    else:
        after = state.apply(action)
    shuffled = after.shuffle_count > state.shuffle_count
    if block is None:
        if shuffled and seedless:
            message = (
                "the rules shuffle after this action, and a record without a seed must say how "
                "the cards lie: add the 'd deal' or 'd restock' lines"
            )
            raise _Stop(step.line, message)
        return after
    if not shuffled:
        raise _Stop(block.line, "the record shuffles here, but the rules do not")
    if _is_new_deal(state, after, action) != (block.kind == "deal"):
        what = "a new deal" if block.kind == "deal" else "a new stock"
        raise _Stop(block.line, f"the record has {what} here, but the rules do otherwise")
    if block.kind == "restock" and seedless and not block.has_hidden():
        after = _restock(after, block)
    _check_block(after, block)
    return after


def _stacked_deck(after: GameState, block: _Block) -> tuple[Card, ...]:
    """The deck that deals ``block``: hands round-robin from the first player, then the rest.

    ``after`` is any state just after the deal (it says who deals and who is in). The deck
    is checked by dealing it: the engine deals one card at a time from the player after the
    dealer, then turns up the face-up cards, and the rest is the stock, top first.
    """
    hands = {seat: cards for _, seat, cards in block.hands}
    first = next_player(after.players_in, after.dealer)
    at = after.players_in.index(first)
    seats = [seat for seat in after.players_in[at:] + after.players_in[:at] if seat in hands]
    extra = sorted(set(hands) - set(seats))
    if extra:
        raise _Stop(block.line, f"p{extra[0] + 1} is not dealt in")
    sizes = {len(hands[seat]) for seat in seats}
    if len(sizes) > 1:
        raise _Stop(block.line, "every hand of a deal holds the same number of cards")
    size = sizes.pop() if sizes else 0
    if block.stock is None:
        raise _Stop(block.line, "a deal without a seed needs its 'd stock' line")
    cards: list[Card | None] = [hands[seat][index] for index in range(size) for seat in seats]
    if block.aside is not None:
        cards.extend(block.aside[1])
    if block.pile is not None:
        cards.extend(block.pile[1])
    cards.extend(block.stock[1])
    if None in cards:
        raise _Stop(block.line, "a deal without a seed shows every card")
    return tuple(card for card in cards if card is not None)


def _apply_stacked(
    state: GameState, action: Action, deck: tuple[Card, ...], block: _Block
) -> GameState:
    """``state.apply(action)`` with the new deal dealt from ``deck``.

    The engine deals a stacked deck for the first shuffle of a match only, so the state is
    given the deck as if no shuffle had happened yet, and the match's own deck and count of
    shuffles are put back after. The caller checks the deal against the record.
    """
    if Counter(deck) != Counter(state.variant.deck_for(state.player_count)):
        raise _Stop(block.line, f"the cards of deal {block.number} are not the deck")
    staged = state.replace(deck=deck, shuffle_count=0)
    after = staged.apply(action)
    return after.replace(deck=state.deck, shuffle_count=state.shuffle_count + after.shuffle_count)


def _restock(state: GameState, block: _Block) -> GameState:
    assert block.stock is not None
    cards = tuple(card for card in block.stock[1] if card is not None)
    if Counter(cards) != Counter(state.stock):
        raise _Stop(block.line, "the new stock is not the cards that were shuffled")
    return state.replace(stock=cards)


def _index(card: Card) -> int:
    return card.index


def _differs(
    line: int,
    what: str,
    found: Sequence[Card],
    written: Sequence[Card | None],
    notation: Notation = CARD_NOTATION,
) -> None:
    if len(found) != len(written) or any(
        card is not None and card != seen for card, seen in zip(written, found, strict=True)
    ):
        shown = _notation.format_cards(found[:13], notation) + (" …" if len(found) > 13 else "")
        raise _Stop(line, f"{what} is not the one dealt: the rules deal {shown or 'none'}")


def _check_block(state: GameState, block: _Block) -> None:
    """Raise unless the dealer lines describe ``state`` (hidden cards match anything)."""
    notation = state.variant.notation
    if block.kind == "deal" and block.number != state.deal_number:
        raise _Stop(block.line, f"this is deal {state.deal_number}, not deal {block.number}")
    for line, seat, cards in block.hands:
        _differs(line, f"p{seat + 1}'s hand", state.hands[seat], cards, notation)
    if block.aside is not None:
        _differs(block.aside[0], "the cards turned face up", state.aside, block.aside[1], notation)
    elif block.kind == "deal" and state.aside:
        word = state.variant.aside_word
        raise _Stop(block.line, f"the deal turns cards face up: add its 'd {word}' line")
    if block.pile is not None:
        _differs(block.pile[0], "the discard pile", state.discard_pile, block.pile[1], notation)
    elif block.kind == "deal" and state.discard_pile:
        raise _Stop(block.line, "the deal starts a discard pile: add its 'd pile' line")
    if block.stock is not None:
        _differs(block.stock[0], "the stock", state.stock, block.stock[1], notation)


# -- a player's view: completing the hidden cards -----------------------------------------------


def _played(action: Action, table: Sequence[Meld]) -> Counter[Card]:
    """The cards ``action`` needs from its player's hand: the cards it names.

    Each card field of its declaration (not a card it declares a joker to stand for) and each
    card of its melds; a :class:`~rummylib.actions.Rearrange` needs the cards its new table
    adds.
    """
    if isinstance(action, Rearrange):
        new = Counter(card for meld in action.table for card in meld.cards)
        return new - Counter(card for meld in table for card in meld.cards)
    needed: Counter[Card] = Counter()
    for field, codec in spec_of(type(action)).codecs:
        value = getattr(action, field)
        if codec is Codec.CARD:
            needed[value] += 1
        elif codec is Codec.MELDS:
            needed.update(card for meld in value for card in meld.cards)
    return needed


class _Completion:
    """Replays a view record with its hidden cards filled in.

    Each deal starts from cards consistent with the view (the viewer's hand and the face-up
    cards as written; the hidden places filled with the rest of the deck in canonical order).
    Whenever a line needs a card that the completion put in another hidden place (another
    player plays it, the viewer draws it, a hand is shown at the count), the two hidden cards
    change places. Hidden places are the stock and the cards of the other hands the viewer
    has not seen; the viewer's observations never show them, so swapping them changes
    nothing the viewer saw.
    """

    def __init__(self, setup: _Setup, opening: _Block | None, steps: Sequence[_Step]) -> None:
        self.setup = setup
        self.opening = opening
        self.steps = list(steps)  # a face-down card written ?? is settled in place (_settle)
        assert setup.view is not None
        self.view: int = setup.view
        #: The cards of each hand the viewer knows of (taken face up, shown).
        self.known: list[Counter[Card]] = [Counter() for _ in range(setup.players)]

    def run(self) -> Iterator[tuple[_Step | None, GameState]]:
        record = self.setup
        if self.opening is None:
            raise _Stop(1, "a player's view starts with the lines of the first deal")
        trial = new_game(record.variant, players=record.players, seed=_SEEDLESS)
        block = self._complete(trial, self.opening)
        try:
            state = new_game(
                record.variant,
                players=record.players,
                seed=_SEEDLESS,
                deck=_stacked_deck(trial, block),
            )
        except RummyError as error:
            raise _Stop(block.line, f"the first deal's cards are not the deck: {error}") from None
        _check_block(state, self.opening)
        yield None, state
        for index, step in enumerate(self.steps):
            state = self._step(state, index)
            yield step, state

    def _complete(self, after: GameState, block: _Block) -> _Block:
        """``block`` with its hidden cards filled from the rest of the deck."""
        deck = Counter(after.variant.deck_for(after.player_count))
        shown: list[Card] = [card for _, _, hand in block.hands for card in hand if card]
        for zone in (block.aside, block.pile, block.stock):
            if zone is not None:
                shown.extend(card for card in zone[1] if card is not None)
        if Counter(shown) - deck:
            raise _Stop(block.line, "the deal shows cards that are not in the deck")
        points = after.variant.card_points
        unseen = (deck - Counter(shown)).elements()
        # High cards first: the other hands are then unlikely to qualify by chance for a
        # rule that looks at their points (a knock); the viewer's draws are swapped in anyway.
        rest = iter(sorted(unseen, key=lambda card: (-points.of(card), card.index)))

        def fill(cards: tuple[Card | None, ...]) -> tuple[Card | None, ...]:
            return tuple(next(rest, None) if card is None else card for card in cards)

        hands = tuple((line, seat, fill(cards)) for line, seat, cards in block.hands)
        stock = None if block.stock is None else (block.stock[0], fill(block.stock[1]))
        pile = None if block.pile is None else (block.pile[0], fill(block.pile[1]))
        aside = None if block.aside is None else (block.aside[0], fill(block.aside[1]))
        completed = attrs.evolve(block, hands=hands, stock=stock, pile=pile, aside=aside)
        if next(rest, None) is not None or completed.has_hidden():
            raise _Stop(block.line, "the deal's lines do not account for every card of the deck")
        return completed

    # -- swapping hidden cards ----------------------------------------------------------------

    def _hidden(self, state: GameState, seat: int) -> Counter[Card]:
        return Counter(state.hands[seat]) - self.known[seat]

    def _take(
        self, state: GameState, card: Card, *, avoid: int, stock_from: int = 0
    ) -> tuple[str, int, int] | None:
        """A hidden place holding ``card``.

        ("stock", index, 0), ("hand", seat, index) or ("hidden", index, 0): a card set aside
        face down (a dropped hand), which no observation shows.
        """
        for index in range(stock_from, len(state.stock)):
            if state.stock[index] == card:
                return ("stock", index, 0)
        for seat in range(state.player_count):
            if seat in {avoid, self.view} or not self._hidden(state, seat)[card]:
                continue
            return ("hand", seat, state.hands[seat].index(card))
        if card in state.hidden:
            return ("hidden", state.hidden.index(card), 0)
        return None

    @staticmethod
    def _swap(
        state: GameState, first: tuple[str, int, int], second: tuple[str, int, int]
    ) -> GameState:
        hands = [list(hand) for hand in state.hands]
        zones = {"stock": list(state.stock), "hidden": list(state.hidden)}

        def get(place: tuple[str, int, int]) -> Card:
            zone = zones.get(place[0])
            return hands[place[1]][place[2]] if zone is None else zone[place[1]]

        def put(place: tuple[str, int, int], card: Card) -> None:
            zone = zones.get(place[0])
            if zone is None:
                hands[place[1]][place[2]] = card
            else:
                zone[place[1]] = card

        one, two = get(first), get(second)
        put(first, two)
        put(second, one)
        return state.replace(
            hands=tuple(map(tuple, hands)),
            stock=tuple(zones["stock"]),
            hidden=tuple(zones["hidden"]),
        )

    def _give(
        self,
        state: GameState,
        seat: int,
        wanted: Counter[Card],
        line: int,
        *,
        keep: Counter[Card],
        strict: bool = True,
    ) -> GameState:
        """Make ``seat`` hold ``wanted`` by swapping hidden cards in; raise if it cannot.

        The cards given away are those beyond ``wanted``, ``keep`` and what the viewer knows
        the player holds.
        """
        missing = wanted - Counter(state.hands[seat])
        for card in missing.elements():
            spare = Counter(state.hands[seat]) - (wanted | keep | self.known[seat])
            place = self._take(state, card, avoid=seat)
            if not strict and (not spare or place is None):
                continue
            if not spare:
                raise _Stop(line, f"p{seat + 1} cannot hold {card} here")
            if place is None:
                raise _Stop(line, f"no hidden {card} is left for p{seat + 1} to hold")
            giving = min(spare, key=lambda each: each.index)
            mine = ("hand", seat, state.hands[seat].index(giving))
            state = self._swap(state, mine, place)
        return state

    def _turn(self, index: int) -> Iterator[Counter[Card]]:
        """The cards the player of step ``index`` plays or shows before drawing again.

        Yields the cards needed so far after each later line of that player, up to their next
        draw (or the next deal): the rules may look ahead (a discard taken must be melded
        at once; a knock counts the cards still to be laid), and a player cannot play a card
        before getting it.
        """
        seat = self.steps[index].action.player
        needed: Counter[Card] = Counter()
        for position in range(index + 1, min(len(self.steps), index + 1 + _LOOKAHEAD)):
            later = self.steps[position]
            for _, shower, cards in later.shows:
                if shower == seat:
                    needed += Counter(card for card in cards if card is not None)
                    yield needed
            action = later.action
            if action.player == seat:
                if action.takes_cards:
                    return
                if not isinstance(action, Rearrange) and not later.face_down:
                    needed += _played(action, ())
                    yield needed
            if later.block is not None and later.block.kind == "deal":
                return

    def _step(self, state: GameState, index: int) -> GameState:
        step = self.steps[index]
        for line, seat, cards in step.shows:
            # A card the action sets face down is shown as ?? (an Indian show's finishing card).
            shown = Counter(card for card in cards if card is not None)
            if len(cards) != len(state.hands[seat]):
                raise _Stop(line, f"p{seat + 1} holds {len(state.hands[seat])} cards, not these")
            unseen = self.known[seat] - shown  # known cards may be the ones set face down
            if sum(unseen.values()) > cards.count(None):
                raise _Stop(line, f"p{seat + 1} is known to hold other cards")
            state = self._give(state, seat, shown, line, keep=unseen)
            self.known[seat] = shown + unseen
        if step.face_down:
            state, step = self._settle(state, index)
        action = step.action
        if action.player != self.view:
            state = self._prepare_other(state, index)
        elif isinstance(action, DrawStock) and step.drawn is not None:
            state = self._prepare_draw(state, step.drawn, step.line)
        block = step.block
        if block is None or block.kind != "deal":
            after = _apply(state, attrs.evolve(step, shows=()), seedless=False)
            self._follow(state, after, action)
            return after
        try:
            state.verify(action)
        except RummyError as error:
            raise _Stop(step.line, str(error)) from None
        trial = state.apply(action)
        if trial.shuffle_count == state.shuffle_count:
            raise _Stop(block.line, "the record deals here, but the rules deal no new cards")
        completed = self._complete(trial, block)
        after = _apply_stacked(state, action, _stacked_deck(trial, completed), block)
        _check_block(after, block)
        self.known = [Counter() for _ in range(self.setup.players)]
        return after

    def _settle(self, state: GameState, index: int) -> tuple[GameState, _Step]:
        """Choose the card written ``??`` of another player's face-down action, in place.

        If the lines before it showed every other card of the hand (a valid Indian show), it
        is the one card left. If they showed none, the action set the whole hand face down (a
        wrong show), and the record says nothing more of the hand: the card is the first
        hidden one (in card order) with which it does so, hidden cards of the stock being
        swapped into the hand, one at a time, until there is one.
        """
        step = self.steps[index]
        action = step.action
        seat = action.player
        field = type(action).face_down
        assert field is not None
        chosen: Card | None = None
        hand = state.hands[seat]
        shown = Counter(
            card for _, shower, cards in step.shows if shower == seat for card in cards if card
        )
        rest = Counter(hand) - shown
        if sum(shown.values()) == len(hand) - 1 and sum(rest.values()) == 1:
            chosen = next(iter(rest))
        for swapped in range(len(state.stock) + 1) if chosen is None else ():
            chosen = self._sets_all_down(state, action, field)
            if chosen is not None or swapped >= len(state.stock):
                break
            # Swap the stock's card ``swapped`` for the hand's first hidden card of another kind.
            card = state.stock[swapped]
            hidden = self._hidden(state, seat)
            mine = next((c for c in sorted(hidden, key=_index) if c != card), None)
            if mine is None:
                break
            state = self._swap(state, ("stock", swapped, 0), ("hand", seat, hand.index(mine)))
            hand = state.hands[seat]
        if chosen is None:
            raise _Stop(step.line, f"the card p{seat + 1} set face down cannot be settled")
        action = attrs.evolve(action, **{field: chosen})  # type: ignore[arg-type]
        settled = attrs.evolve(step, action=action, face_down=False)
        self.steps[index] = settled
        return state, settled

    def _sets_all_down(self, state: GameState, action: Action, field: str) -> Card | None:
        """The first hidden card with which ``action`` sets its player's whole hand face down.

        That is: the hand is gone, and neither the table nor (if the deal ends) the deal's
        result shows any of it.
        """
        seat = action.player
        for card in sorted(self._hidden(state, seat), key=_index):
            trial = attrs.evolve(action, **{field: card})  # type: ignore[arg-type]
            if not state.is_legal(trial):
                continue
            after = state.apply(trial)
            ended = after.deal_results[len(state.deal_results) :]
            hands, table = (ended[0].hands, ended[0].table) if ended else (after.hands, after.table)
            if not hands[seat] and table == state.table:  # nothing shown: all face down
                return card
        return None

    def _prepare_other(self, state: GameState, index: int) -> GameState:
        """Give another player the cards their action, and the rest of their turn, need."""
        step = self.steps[index]
        action = step.action
        seat = action.player
        needs = _played(action, state.table)
        state = self._give(state, seat, needs, step.line, keep=Counter())
        taken: Counter[Card] = Counter()
        if isinstance(action, TakeDiscard):
            taken = Counter(state.discard_pile[-action.count :])
        elif action.takes_cards and not isinstance(action, DrawStock):
            card = state.variant.card_taken(state.observation(seat), action)
            taken = Counter() if card is None else Counter([card])
        turn: Counter[Card] = Counter()
        for later in self._turn(index):  # the rules may look ahead: "can it be melded?"
            state = self._give(state, seat, later - taken, step.line, keep=needs, strict=False)
            turn = later
        if taken and not self._plays_on(state, index):
            state = self._to_take(state, index, needs | taken | turn)
        return state

    def _plays_on(self, state: GameState, index: int) -> bool:
        """Whether step ``index`` and the rest of its player's turn as written are legal."""
        seat = self.steps[index].action.player
        for later in self.steps[index:]:
            if later.action.player != seat or later.block is not None:
                break
            if not state.is_legal(later.action):
                return False
            state = state.apply(later.action)
        return True

    def _to_take(self, state: GameState, index: int, keep: Counter[Card]) -> GameState:
        """Give the taker one or two hidden cards so that the take and its turn are legal.

        For a record that does not show what the rules ask of the taker (it ends before the
        taker melds the card taken, say). Searched in card order, single cards first: any
        answer will do, for no line of the record says more about the hidden hand.
        """
        step = self.steps[index]
        seat = step.action.player
        others = [s for s in range(state.player_count) if s not in {seat, self.view}]
        hidden = (card for other in others for card in self._hidden(state, other).elements())
        pool = sorted({*state.stock, *hidden}, key=lambda card: card.index)
        for size in (1, 2):
            for cards in itertools.combinations(pool, size):
                trial = self._give(state, seat, Counter(cards), step.line, keep=keep, strict=False)
                if self._plays_on(trial, index):
                    return trial
        return state

    def _prepare_draw(self, state: GameState, drawn: Card, line: int) -> GameState:
        """Put the card the viewer draws on top of the stock."""
        if not state.stock or state.stock[0] == drawn:
            return state
        place = self._take(state, drawn, avoid=self.view, stock_from=1)
        if place is None:
            raise _Stop(line, f"no hidden {drawn} is left for p{self.view + 1} to draw")
        return self._swap(state, ("stock", 0, 0), place)

    def _follow(self, before: GameState, after: GameState, action: Action) -> None:
        """Keep :attr:`known` up to date: cards taken face up are known, cards played are not."""
        for seat in range(after.player_count):
            if seat == self.view:
                continue
            gone = Counter(before.hands[seat]) - Counter(after.hands[seat])
            came = Counter(after.hands[seat]) - Counter(before.hands[seat])
            self.known[seat] -= gone
            if seat == action.player and not isinstance(action, DrawStock):
                self.known[seat] += came
            if seat == action.player and action.shows_hand:
                field = spec_of(type(action)).melds
                melds: tuple[Meld, ...] = () if field is None else getattr(action, field)
                shown: Counter[Card] = Counter(card for meld in melds for card in meld.cards)
                self.known[seat] = (self.known[seat] | shown) & Counter(after.hands[seat])
