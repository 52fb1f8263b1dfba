"""Numbers for moves and arrays for views: what a learning agent reads and writes.

Three pieces, shared by the PettingZoo, Gymnasium and OpenSpiel adapters, and usable alone:

* :class:`ActionTable`: a fixed numbering of a variant's moves, the same in every state. Moves
  that carry melds would have huge spaces, so they are numbered as **macro actions** built on
  the exact solvers (:func:`~rummylib.arrangement.arrange`, :func:`~rummylib.table.best_play`):
  "declare, discarding card c, with the best arrangement", "lay off card c where it fits", and
  so on. :meth:`ActionTable.legal` maps each number that is legal now to the action it stands
  for; :meth:`ActionTable.decode` refuses any other number.
* :class:`ObservationEncoder`: one player's :class:`~rummylib.views.Observation` as a flat
  ``float32`` vector (card-count planes, then numbers) with a documented layout. It reads the
  observation only, so nothing hidden can reach an agent.
* :class:`TakenCards`: the face-up cards each player was seen to take and still holds, kept
  from public facts (the discard pile, the open card, the table and the hand sizes).

The rewards of the adapters are here too (:func:`rewards`), so that all three agree.

>>> from rummylib import new_game
>>> from rummylib.envs.encoding import ActionTable, ObservationEncoder
>>> state = new_game("gin", players=2, seed=1)
>>> table = ActionTable.for_variant(state.variant)
>>> legal = table.legal(state, 0)
>>> [(number, table.label(number)) for number in legal]
[(1, 'take the top discard'), (56, 'pass')]
>>> table.decode(state, 0, 56)
Pass(player=0)
>>> encoder = ObservationEncoder(state.variant, players=2)
>>> vector = encoder.encode(state.observation(0))
>>> vector.shape, int(vector[encoder.layout["hand"]].sum())
((344,), 10)
"""

from __future__ import annotations

import functools
import operator
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Final

import attrs
import numpy as np
import numpy.typing as npt

from rummylib.actions import (
    ACTION_TYPES,
    Action,
    AnswerFrish,
    DeclareRummy,
    DeclineRebuy,
    Discard,
    Disconnect,
    DrawStock,
    GiveUp,
    Knock,
    LayDown,
    LayOff,
    Pass,
    ProposeFrish,
    Rearrange,
    Rebuy,
    Reconnect,
    ShowMelds,
    TakeDiscard,
    TakeOpenCard,
    TimeExpired,
    canonical_action,
)
from rummylib.arrangement import arrange
from rummylib.cards import CARDS, JOKER_INDEX, Card
from rummylib.engine import Phase, Variant
from rummylib.errors import ConfigurationError, IllegalActionError, RummyError, shorten
from rummylib.melds import Meld
from rummylib.scoring import DealResult
from rummylib.state import GameState
from rummylib.table import JokerReplacementSource, best_play
from rummylib.views import Observation

__all__ = [
    "CARD_KINDS",
    "REWARD_MODES",
    "SCALAR_BOUND",
    "ActionBlock",
    "ActionTable",
    "ObservationEncoder",
    "TakenCards",
    "describe",
    "outcome",
    "rewards",
    "score_sign",
]

#: Distinct cards: 52 naturals and the joker, by :attr:`Card.index <rummylib.cards.Card.index>`.
CARD_KINDS: Final = JOKER_INDEX + 1

#: Scores, the pot, the multiplier and the deal number are clipped to ``±SCALAR_BOUND`` in
#: the observation vector, so that every value lies inside its declared box.
SCALAR_BOUND: Final = 1_000_000

#: The reward modes of the adapters (see :func:`rewards`).
REWARD_MODES: Final = ("score", "deal", "win")

_HOST_EVENTS: Final = (TimeExpired, Disconnect, Reconnect)
_MELD_KIND_LIST: tuple[type[Action], ...] = (LayDown, Rearrange)
_MELD_KINDS: Final = frozenset(_MELD_KIND_LIST)

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


# -- the action table --------------------------------------------------------------------------


@attrs.frozen(kw_only=True)
class ActionBlock:
    """A run of consecutive action numbers that stand for one kind of move.

    Attributes:
        name: the block's name (``"discard"``).
        kind: the action class its numbers decode to.
        start: the first number of the block.
        size: how many numbers it holds.
        parameter: what the offset in the block means: ``""`` (a single number), ``"card"``
            (the :attr:`Card.index <rummylib.cards.Card.index>` of a card, 53 numbers),
            ``"choice"`` (refuse, accept) or ``"count"`` (cards taken, from 2).
        meaning: what a number of the block does, in words (the docs' action table).
    """

    name: str
    kind: type[Action]
    start: int
    size: int
    parameter: str
    meaning: str

    @property
    def stop(self) -> int:
        """One past the last number of the block."""
        return self.start + self.size

    def label(self, number: int) -> str:
        """The move a number of this block stands for, in words (``"discard 7h"``)."""
        offset = number - self.start
        if self.parameter == "card":
            return f"{self.name.replace('_', ' ')} {CARDS[offset]}"
        if self.parameter == "choice":
            return f"{self.name.replace('_', ' ')}: {('refuse', 'accept')[offset]}"
        if self.parameter == "count":
            return f"take the top {offset + 2} discards"
        return self.meaning


# (name, kind, parameter, meaning): the blocks in table order; a variant's table holds the
# blocks of the action kinds it uses. The meanings are the docs' table, word for word.
_BLOCKS: Final[tuple[tuple[str, type[Action], str, str], ...]] = (
    ("draw_stock", DrawStock, "", "take the top card of the stock"),
    ("take_discard", TakeDiscard, "", "take the top discard"),
    ("take_open_card", TakeOpenCard, "", "take the open card"),
    ("discard", Discard, "card", "discard card c"),
    ("knock", Knock, "", "knock"),
    ("pass", Pass, "", "pass"),
    (
        "declare",
        DeclareRummy,
        "card",
        "declare, discarding card c, with the best arrangement of the other cards "
        "(the declaration the engine lists for that discard)",
    ),
    (
        "show_melds",
        ShowMelds,
        "",
        "show the best melds of the hand (the arrangement the engine lists)",
    ),
    ("give_up", GiveUp, "", "give up (show nothing)"),
    ("propose_frish", ProposeFrish, "", "propose a Frish"),
    ("answer_frish", AnswerFrish, "choice", "answer a Frish: refuse (+0), accept (+1)"),
    (
        "lay_down_best",
        LayDown,
        "",
        "lay down every meld of the best arrangement of the hand; if that is not legal, "
        "the melds of the best arrangement that keeps a card to discard",
    ),
    (
        "lay_down",
        LayDown,
        "card",
        "of the lay-downs the engine lists that use card c, the one worth the most points "
        "(then the most cards, then the first listed)",
    ),
    (
        "lay_off",
        LayOff,
        "card",
        "lay off card c where it fits: the first lay-off of c the engine lists "
        "(lowest table meld first)",
    ),
    (
        "table_best_cards",
        Rearrange,
        "",
        "the meld action that plays the most cards from the hand, rearranging the table "
        "(best_play, objective 'cards')",
    ),
    (
        "table_best_points",
        Rearrange,
        "",
        "the meld action that plays the most points from the hand, rearranging the table "
        "(best_play, objective 'points')",
    ),
    (
        "table_play",
        Rearrange,
        "card",
        "of the meld actions the engine lists that play card c, the one playing the most "
        "points (then the most cards, then the first listed)",
    ),
    ("rebuy", Rebuy, "", "buy back in"),
    ("decline_rebuy", DeclineRebuy, "", "decline the rebuy (watch as a spectator)"),
    ("take_discards", TakeDiscard, "count", "take the top k discards (k = 2 + offset)"),
)


def _player_kinds() -> tuple[type[Action], ...]:
    return tuple(kind for kind in ACTION_TYPES.values() if kind not in _HOST_EVENTS)


def variant_kinds(variant: Variant) -> tuple[type[Action], ...]:
    """The action kinds a variant's players can make (host events excluded).

    Read from the variant's ``phase_actions`` where it declares them; a variant that declares
    none (a plugin that writes its own ``legal_actions``) is taken to use every kind.
    """
    declared: Mapping[object, Iterable[type[Action]]] = getattr(variant, "phase_actions", {})
    kinds = {kind for allowed in declared.values() for kind in allowed}
    kinds.difference_update(_HOST_EVENTS)
    if not kinds:
        return _player_kinds()
    return tuple(kind for kind in _player_kinds() if kind in kinds)


def phase_kinds(variant: Variant, phase: object) -> frozenset[type[Action]] | None:
    """The action kinds the variant allows in ``phase``; ``None`` if it declares no phases."""
    declared: Mapping[object, Iterable[type[Action]]] = getattr(variant, "phase_actions", {})
    if not declared:
        return None
    return frozenset(declared.get(phase, ()))


def _largest_deck(variant: Variant) -> int:
    sizes = []
    for players in range(variant.min_players, variant.max_players + 1):
        try:
            sizes.append(len(variant.deck_for(players)))
        except RummyError:
            continue
    return max(sizes, default=CARD_KINDS)


def _replacement(variant: Variant) -> JokerReplacementSource:
    value = variant.settings().get("joker_replacement_source")
    try:
        return JokerReplacementSource(value)
    except ValueError:
        return JokerReplacementSource.HAND_OR_TABLE


def _better(key: tuple[int, int], found: tuple[tuple[int, int], Action] | None) -> bool:
    return found is None or key > found[0]


class ActionTable:
    """The fixed numbering of one variant's moves.

    The table is a sequence of :class:`ActionBlock`; the blocks and their order are listed in
    the docs ("learn to play rummy"). A variant's table holds the blocks of the action kinds
    it uses (its ``phase_actions``), in that order, numbered from 0. The numbering depends
    only on the variant, never on the state: number ``i`` always means the same move.

    >>> from rummylib import get_variant, parse_card

    >>> table = ActionTable.for_variant(get_variant("rummy101"))
    >>> table.size, [block.name for block in table.blocks][:4]
    (223, ['draw_stock', 'take_discard', 'take_open_card', 'discard'])
    >>> table.label(3 + parse_card("7h").index)
    'discard 7h'
    """

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        kinds = set(variant_kinds(variant))
        blocks: list[ActionBlock] = []
        start = 0
        deepest = _largest_deck(variant)
        for name, kind, parameter, meaning in _BLOCKS:
            if kind not in kinds:
                continue
            size = {"": 1, "card": CARD_KINDS, "choice": 2, "count": deepest - 1}[parameter]
            if size <= 0:
                continue
            block = ActionBlock(
                name=name, kind=kind, start=start, size=size, parameter=parameter, meaning=meaning
            )
            blocks.append(block)
            start += size
        self.blocks: tuple[ActionBlock, ...] = tuple(blocks)
        self.size: int = start
        self._by_name = {block.name: block for block in self.blocks}
        self._cache: _Choices | None = None
        # Where the engine's listed actions go, by class: one number, or a card's offset.
        self._single: dict[type[Action], int] = {
            kind: self._by_name[name].start
            for kind, name in _SINGLE_BLOCK.items()
            if name in self._by_name
        }
        self._by_card: dict[type[Action], int] = {
            kind: self._by_name[name].start
            for kind, name in ((Discard, "discard"), (DeclareRummy, "declare"), (LayOff, "lay_off"))
            if name in self._by_name
        }
        self._phase_kinds: dict[object, frozenset[type[Action]] | None] = {}
        self._has_macros = any(
            name in self._by_name
            for name in ("lay_down_best", "table_best_cards", "table_best_points")
        )

    @classmethod
    @functools.lru_cache(maxsize=64)
    def for_variant(cls, variant: Variant) -> ActionTable:
        """The table of a variant (one per variant and settings, built once)."""
        return cls(variant)

    def block(self, name: str) -> ActionBlock | None:
        """The block called ``name``, or ``None`` if this variant's table has none."""
        return self._by_name.get(name)

    def block_of(self, number: int) -> ActionBlock:
        """The block that holds ``number``.

        Raises:
            IllegalActionError: ``number`` is not in ``range(size)``.
        """
        self._check_number(number)
        for block in self.blocks:
            if number < block.stop:
                return block
        raise AssertionError(number)  # pragma: no cover  (the blocks cover range(size))

    def label(self, number: int) -> str:
        """The move ``number`` stands for, in words."""
        return self.block_of(number).label(number)

    def _check_number(self, number: object) -> None:
        if isinstance(number, bool) or not isinstance(number, int | np.integer):
            msg = f"bad action number {shorten(number)}: expected a whole number"
            raise IllegalActionError(msg)
        if not 0 <= int(number) < self.size:
            msg = (
                f"bad action number {number}: {self.variant.name} numbers its moves "
                f"0 to {self.size - 1}"
            )
            raise IllegalActionError(msg)

    # -- legal numbers ----------------------------------------------------------------------

    def _choices(self, state: GameState, player: int) -> _Choices:
        cached = self._cache
        if cached is not None and cached.state is state and cached.player == player:
            return cached
        choices = self._build(state, player)
        self._cache = choices
        return choices

    def numbers(self, state: GameState, player: int) -> tuple[int, ...]:
        """The numbers that are legal for ``player`` now, in increasing order.

        Cheaper than :meth:`legal`: the table-solver macros are only solved when decoded.
        """
        return self._choices(state, player).numbers

    def legal(self, state: GameState, player: int) -> dict[int, Action]:
        """Every number that is legal for ``player`` now, in increasing order, with its action.

        Each action is legal in ``state``. A state where the player may act has at least one
        legal number whenever the variant's moves are in the table.
        """
        choices = self._choices(state, player)
        return {number: self._resolve(choices, number) for number in choices.numbers}

    def _build(self, state: GameState, player: int) -> _Choices:  # noqa: PLR0912
        choices = _Choices(state=state, player=player)
        if state.is_over or player not in state.to_act:
            return choices
        found = choices.found
        best: dict[int, tuple[tuple[int, int], Action]] = {}
        values = self.variant.card_points.values
        table_cards: Counter[Card] | None = None
        by = self._by_name
        single, by_card = self._single, self._by_card
        for action in state.legal_actions(player):
            kind = type(action)
            number = single.get(kind)
            if number is not None:
                found.setdefault(number, action)
                continue
            start = by_card.get(kind)
            if start is not None:
                if isinstance(action, DeclareRummy):
                    found.setdefault(start + action.discard.index, action)
                elif isinstance(action, Discard | LayOff):
                    found.setdefault(start + action.card.index, action)
            elif isinstance(action, TakeDiscard):
                if action.count == 1:
                    self._put(found, by.get("take_discard"), 0, action)
                else:
                    self._put(found, by.get("take_discards"), action.count - 2, action)
            elif isinstance(action, AnswerFrish):
                self._put(found, by.get("answer_frish"), int(action.accept), action)
            elif isinstance(action, LayDown):
                self._offer(best, by.get("lay_down"), _meld_cards(action.melds), values, action)
            elif isinstance(action, Rearrange):
                if table_cards is None:
                    table_cards = Counter(_meld_cards(state.table))
                played = Counter(_meld_cards(action.table)) - table_cards
                self._offer(best, by.get("table_play"), played.elements(), values, action)
                choices.listed_plays.append((best_key(played.elements(), values), action))
        for number, (_, action) in best.items():
            found.setdefault(number, action)
        if self._has_macros:
            self._macros(choices)
        choices.numbers = tuple(sorted({*found, *choices.solve}))
        return choices

    @staticmethod
    def _put(
        found: dict[int, Action], block: ActionBlock | None, offset: int, action: Action
    ) -> None:
        if block is not None and 0 <= offset < block.size:
            found.setdefault(block.start + offset, action)

    @staticmethod
    def _offer(
        best: dict[int, tuple[tuple[int, int], Action]],
        block: ActionBlock | None,
        cards: Iterable[Card],
        values: Sequence[int],
        action: Action,
    ) -> None:
        if block is None:
            return
        played = list(cards)
        key = best_key(played, values)
        for index in {card.index for card in played}:
            number = block.start + index
            if _better(key, best.get(number)):
                best[number] = (key, action)

    def _macros(self, choices: _Choices) -> None:
        state, player, found = choices.state, choices.player, choices.found
        by = self._by_name
        if state.phase in self._phase_kinds:
            allowed = self._phase_kinds[state.phase]
        else:
            allowed = self._phase_kinds[state.phase] = phase_kinds(self.variant, state.phase)
        if allowed is not None and not allowed & _MELD_KINDS:
            return
        listed = {type(action) for action in found.values()}
        if choices.listed_plays:
            listed.add(Rearrange)
        lay_down = by.get("lay_down_best")
        if lay_down is not None and LayDown in (listed if allowed is None else allowed):
            action = self._best_lay_down(state, player)
            if action is not None:
                found[lay_down.start] = action
        blocks = [
            (block, objective)
            for block, objective in (
                (by.get("table_best_cards"), "cards"),
                (by.get("table_best_points"), "points"),
            )
            if block is not None
        ]
        if not blocks or Rearrange not in (listed if allowed is None else allowed):
            return
        if not choices.listed_plays:
            # Nothing simple is listed: a play may still exist by rearranging the table. The
            # solver decides; a play for one objective exists exactly when one for the other
            # does, so solving once settles both numbers.
            action = self._solve(state, player, "cards")
            if action is None:
                return
            choices.solved["cards"] = action
        for block, objective in blocks:
            choices.solve[block.start] = objective

    def _resolve(self, choices: _Choices, number: int) -> Action:
        action = choices.found.get(number)
        if action is not None:
            return action
        objective = choices.solve[number]
        solved = choices.solved.get(objective)
        if solved is None:
            solved = self._solve(choices.state, choices.player, objective)
            if solved is None:
                # The solver cannot handle this table (rules outside its range): the listed
                # meld action that plays the most points, or the most cards, stands in.
                keyed = choices.listed_plays
                if objective == "cards":
                    keyed = [((key[1], key[0]), action) for key, action in keyed]
                solved = max(keyed, key=lambda item: item[0])[1]
            choices.solved[objective] = solved
        return solved

    def _best_lay_down(self, state: GameState, player: int) -> Action | None:
        variant, hand = self.variant, state.hands[player]
        rules, points = variant.meld_rules, variant.card_points
        tried: list[tuple[Meld, ...]] = []
        for keep in (False, True):
            melds = arrange(
                hand, rules, points, discard=keep, can_discard=variant.may_ever_discard
            ).melds
            if not melds or melds in tried:
                continue
            tried.append(melds)
            action = LayDown(player=player, melds=melds)
            if state.is_legal(action):
                return action
        return None

    def _solve(self, state: GameState, player: int, objective: str) -> Action | None:
        variant = self.variant
        try:
            play = best_play(
                state.table,
                state.hands[player],
                variant.meld_rules,
                objective=objective,
                points=variant.card_points,
                replacement=_replacement(variant),
            )
        except ConfigurationError:  # rules the table solver does not handle
            return None
        if play is None:
            return None
        action = Rearrange(player=player, table=play.table)
        return action if state.is_legal(action) else None

    # -- using numbers ----------------------------------------------------------------------

    def mask(self, state: GameState, player: int) -> MaskArray:
        """The legal numbers of ``player`` now as a 0/1 ``int8`` vector of length :attr:`size`."""
        mask = np.zeros(self.size, dtype=np.int8)
        numbers = self.numbers(state, player)
        if numbers:
            mask[list(numbers)] = 1
        return mask

    def is_legal(self, state: GameState, player: int, number: object) -> bool:
        """Whether ``number`` is one of ``player``'s legal numbers now (never raises).

        >>> from rummylib import new_game
        >>> state = new_game("gin", players=2, seed=1)
        >>> table = ActionTable.for_variant(state.variant)
        >>> table.is_legal(state, 0, 56), table.is_legal(state, 1, 56), table.is_legal(state, 0, -1)
        (True, False, False)
        """
        if isinstance(number, bool) or not isinstance(number, int | np.integer):
            return False
        choices = self._choices(state, player)
        return int(number) in choices.found or int(number) in choices.solve

    def decode(self, state: GameState, player: int, number: int) -> Action:
        """The action that ``number`` stands for now.

        >>> from rummylib import new_game

        >>> state = new_game("gin", players=2, seed=1)
        >>> ActionTable.for_variant(state.variant).decode(state, 1, 56)
        Traceback (most recent call last):
        ...
        rummylib.errors.IllegalActionError: action 56 (pass) is not legal for p2 now

        Raises:
            IllegalActionError: ``number`` is out of range or not legal for ``player`` now.
        """
        self._check_number(number)
        choices = self._choices(state, player)
        if int(number) not in choices.found and int(number) not in choices.solve:
            msg = f"action {number} ({self.label(int(number))}) is not legal for p{player + 1} now"
            raise IllegalActionError(msg)
        return self._resolve(choices, int(number))

    def number_of(self, state: GameState, action: Action) -> int | None:
        """The smallest legal number that stands for ``action`` now, or ``None`` if none does.

        For recording the moves of other players (bots, people) as numbers; an action no
        macro chooses (a lay-down of other melds, say) has no number.
        """
        wanted = canonical_action(action)
        for number, candidate in self.legal(state, action.player).items():
            if canonical_action(candidate) == wanted:
                return number
        return None

    def rows(self) -> list[tuple[str, str, str]]:
        """The table as (numbers, block, meaning) rows, as the docs print it."""
        rows = []
        for block in self.blocks:
            span = str(block.start) if block.size == 1 else f"{block.start}–{block.stop - 1}"
            rows.append((span, block.name, block.meaning))
        return rows


@attrs.define
class _Choices:
    """The legal numbers of one player in one state, as :class:`ActionTable` works them out."""

    state: GameState
    player: int
    #: Numbers whose action is known.
    found: dict[int, Action] = attrs.Factory(dict)
    #: Numbers the table solver decides when they are decoded, by objective.
    solve: dict[int, str] = attrs.Factory(dict)
    #: Table-solver results so far, by objective.
    solved: dict[str, Action] = attrs.Factory(dict)
    #: The listed meld actions with their (points, cards) played.
    listed_plays: list[tuple[tuple[int, int], Action]] = attrs.Factory(list)
    numbers: tuple[int, ...] = ()


def best_key(cards: Iterable[Card], values: Sequence[int]) -> tuple[int, int]:
    """(points, number of cards) of the cards a move plays: what the "most points" macros rank."""
    played = list(cards)
    return (sum(values[card.index] for card in played), len(played))


_SINGLE_BLOCK: Final[Mapping[type[Action], str]] = {
    DrawStock: "draw_stock",
    TakeOpenCard: "take_open_card",
    Knock: "knock",
    Pass: "pass",
    ShowMelds: "show_melds",
    GiveUp: "give_up",
    ProposeFrish: "propose_frish",
    Rebuy: "rebuy",
    DeclineRebuy: "decline_rebuy",
}


_INDEX: Final = operator.attrgetter("index")


def _meld_cards(melds: Iterable[Meld]) -> list[Card]:
    return [card for meld in melds for card in meld.cards]


# -- what each player was seen to take ---------------------------------------------------------


class TakenCards:
    """The face-up cards each player was seen to take and has not shown since.

    Every player at a table sees a card taken from the discard pile or the open card, and
    sees it leave again when it is discarded or melded. :meth:`update` follows that from the
    public fields of two consecutive observations (discard pile, open card, table, hand
    sizes, deal number), never from a hand, so the record holds nothing hidden.

    >>> from rummylib import new_game

    >>> from rummylib.actions import TakeDiscard
    >>> state = new_game("gin", players=2, seed=1)
    >>> after = state.apply(TakeDiscard(player=0))
    >>> taken = TakenCards(players=2)
    >>> taken.update(state.observation(1), after.observation(1), actor=0)
    >>> [str(CARDS[index]) for index in np.flatnonzero(taken.counts[0])]
    ['4c']
    """

    def __init__(self, players: int) -> None:
        self.counts: npt.NDArray[np.int16] = np.zeros((players, CARD_KINDS), dtype=np.int16)

    def reset(self) -> None:
        """Forget everything (a new deal)."""
        self.counts[:] = 0

    def copy(self) -> TakenCards:
        """An independent copy."""
        twin = TakenCards(players=self.counts.shape[0])
        twin.counts[:] = self.counts
        return twin

    def update(self, before: Observation, after: Observation, *, actor: int) -> None:
        """Account for one move of ``actor`` that led from ``before`` to ``after``."""
        if after.deal_number != before.deal_number:
            self.reset()
            return
        row = self.counts[actor]
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
            shown.update(Counter(_meld_cards(after.table)) - Counter(_meld_cards(before.table)))
        for card, count in shown.items():
            row[card.index] = max(0, int(row[card.index]) - count)


# -- the observation vector -------------------------------------------------------------------


def _phases(variant: Variant) -> tuple[object, ...]:
    phases: list[object] = list(Phase)
    declared: Mapping[object, object] = getattr(variant, "phase_actions", {})
    phases.extend(phase for phase in declared if phase not in phases)
    return tuple(phases)


class ObservationEncoder:
    """One player's observation as a flat ``float32`` vector.

    The layout (:attr:`layout`, name → slice) depends on the variant and the number of
    players only. Seats are relative to the viewer: offset 0 is the viewer, offset 1 the next
    player in playing order, and so on. Card planes hold a count per card kind, by
    :attr:`Card.index <rummylib.cards.Card.index>` (0 = Ac … 51 = Ks, 52 = joker).

    ======================  ===============  ===================================================
    name                    size             value
    ======================  ===============  ===================================================
    ``hand``                53               the viewer's cards
    ``discard_pile``        53               the cards of the discard pile
    ``discard_top``         53               the top discard (one-hot; zeros if the pile is empty)
    ``open_card``           53               the open card while it lies face up (one-hot)
    ``table``               53               the cards on the table, in all melds
    ``taken``               (n − 1) * 53     per other seat: face-up cards it was seen to take and
                                             still holds (:class:`TakenCards`)
    ``stock_size``          1                cards in the stock
    ``discard_pile_size``   1                cards in the discard pile
    ``table_melds``         1                melds on the table
    ``deal_number``         1                1 for the first deal
    ``multiplier``          1                the deal multiplier
    ``pot``                 1                the money in the pot
    ``hand_sizes``          n                cards held, per seat
    ``scores``              n                match totals, per seat
    ``in_match``            n                1 if the seat is still in the match
    ``to_act``              n                1 if the seat may act now
    ``current_player``      n                1 for the seat whose turn it is
    ``phase``               phases + 1       one-hot phase; the last entry: a phase not listed
    ======================  ===============  ===================================================

    >>> from rummylib import get_variant

    >>> encoder = ObservationEncoder(get_variant("rummy101"), players=3)
    >>> encoder.size, encoder.layout["taken"]
    (399, slice(265, 371, None))
    """

    def __init__(self, variant: Variant, players: int) -> None:
        self.variant = variant
        self.players = variant.check_players(players)
        self.phases = _phases(variant)
        self._phase_index = {phase: number for number, phase in enumerate(self.phases)}
        deck = _largest_deck(variant)
        copies = 1
        for count in range(variant.min_players, variant.max_players + 1):
            try:
                cards = variant.deck_for(count)
            except RummyError:
                continue
            copies = max(copies, *Counter(cards).values())
        n = self.players
        pieces: list[tuple[str, int, float, float]] = [
            ("hand", CARD_KINDS, 0, copies),
            ("discard_pile", CARD_KINDS, 0, copies),
            ("discard_top", CARD_KINDS, 0, 1),
            ("open_card", CARD_KINDS, 0, 1),
            ("table", CARD_KINDS, 0, copies),
            ("taken", (n - 1) * CARD_KINDS, 0, copies),
            ("stock_size", 1, 0, deck),
            ("discard_pile_size", 1, 0, deck),
            ("table_melds", 1, 0, deck),
            ("deal_number", 1, 0, SCALAR_BOUND),
            ("multiplier", 1, 0, SCALAR_BOUND),
            ("pot", 1, -SCALAR_BOUND, SCALAR_BOUND),
            ("hand_sizes", n, 0, deck),
            ("scores", n, -SCALAR_BOUND, SCALAR_BOUND),
            ("in_match", n, 0, 1),
            ("to_act", n, 0, 1),
            ("current_player", n, 0, 1),
            ("phase", len(self.phases) + 1, 0, 1),
        ]
        layout: dict[str, slice] = {}
        low: list[float] = []
        high: list[float] = []
        start = 0
        for name, size, lowest, highest in pieces:
            layout[name] = slice(start, start + size)
            low += [lowest] * size
            high += [highest] * size
            start += size
        self.layout: Mapping[str, slice] = layout
        self.size: int = start
        self._starts = {name: piece.start for name, piece in layout.items()}
        scalars = [
            layout[name].start
            for name in (
                "stock_size",
                "discard_pile_size",
                "table_melds",
                "deal_number",
                "multiplier",
                "pot",
            )
        ]
        scalars += range(layout["hand_sizes"].start, layout["scores"].stop)
        self._scalars = np.array(scalars, dtype=np.intp)
        # The scalars lie side by side, from the stock size to the last score.
        assert scalars == list(range(scalars[0], scalars[-1] + 1))
        self._scalar_span = slice(scalars[0], scalars[-1] + 1)
        self.low: FloatArray = np.array(low, dtype=np.float32)
        self.high: FloatArray = np.array(high, dtype=np.float32)

    def encode(self, observation: Observation, taken: TakenCards | None = None) -> FloatArray:
        """The vector of ``observation`` (and of ``taken``, the public record of takes)."""
        n = self.players
        viewer = observation.player
        seats = [(viewer + offset) % n for offset in range(n)]
        at = self._starts
        # Every count and flag is one place of the vector, counted in a bytearray (no count
        # comes near 256) and read as numbers once: cheaper than numpy per element.
        counts = bytearray(self.size)
        start = at["hand"]
        for index in map(_INDEX, observation.hand):
            counts[start + index] += 1
        pile = observation.discard_pile
        start = at["discard_pile"]
        for index in map(_INDEX, pile):
            counts[start + index] += 1
        if pile:
            counts[at["discard_top"] + pile[-1].index] = 1
        if observation.open_card is not None:
            counts[at["open_card"] + observation.open_card.index] = 1
        start = at["table"]
        for meld in observation.table:
            for index in map(_INDEX, meld.cards):
                counts[start + index] += 1
        players_in, to_act = observation.players_in, observation.to_act
        for offset, seat in enumerate(seats):
            if seat in players_in:
                counts[at["in_match"] + offset] = 1
            if seat in to_act:
                counts[at["to_act"] + offset] = 1
            if seat == observation.current_player:
                counts[at["current_player"] + offset] = 1
        counts[at["phase"] + self._phase_index.get(observation.phase, len(self.phases))] = 1
        vector = np.frombuffer(counts, dtype=np.uint8).astype(np.float32)
        bound = SCALAR_BOUND
        sizes, scores = observation.hand_sizes, observation.scores
        vector[self._scalar_span] = (
            observation.stock_size,
            len(pile),
            len(observation.table),
            min(observation.deal_number, bound),
            min(observation.multiplier, bound),
            max(-bound, min(observation.pot, bound)),
            *(sizes[seat] for seat in seats),
            *(max(-bound, min(scores[seat], bound)) for seat in seats),
        )
        if taken is not None:
            start = at["taken"]
            rows = taken.counts
            for seat in seats[1:]:
                vector[start : start + CARD_KINDS] = rows[seat]
                start += CARD_KINDS
        return vector


# -- rewards ----------------------------------------------------------------------------------


def score_sign(variant: Variant) -> int:
    """+1 where a higher match total is better, −1 where totals are penalty points.

    Read from :attr:`Variant.lower_score_wins <rummylib.engine.Variant.lower_score_wins>`.

    >>> from rummylib import get_variant
    >>> score_sign(get_variant("rummy101")), score_sign(get_variant("gin"))
    (-1, 1)
    """
    return -1 if variant.lower_score_wins else 1


def outcome(state: GameState, *, one_deal: bool = False) -> list[float]:
    """+1 for each winner and −1 for everyone else once the match is over; else all 0.

    A match with no winner (a drawn deal of seven-card knock, say) is 0 for everyone. With
    ``one_deal``, a match that is not over is judged by its first deal: the players with the
    best points of that deal (signed by :func:`score_sign`) win, unless all tie.
    """
    seats = state.player_count
    result = state.result
    if result is not None:
        if not result.winners:
            return [0.0] * seats
        return [1.0 if seat in result.winners else -1.0 for seat in range(seats)]
    if not one_deal or not state.deal_results:
        return [0.0] * seats
    sign = score_sign(state.variant)
    points = [sign * value for value in state.deal_results[0].points]
    best = max(points)
    if min(points) == best:
        return [0.0] * seats
    return [1.0 if value == best else -1.0 for value in points]


def rewards(
    before: GameState,
    after: GameState,
    mode: str,
    *,
    sign: int | None = None,
    one_deal: bool = False,
) -> list[float]:
    """What each seat gets for the move that led from ``before`` to ``after``.

    ``mode``:

    * ``"score"``: the change of each match total, signed by :func:`score_sign` so that more
      is better (a penalty of 34 points is −34). Totals change when a deal is scored, and with
      the match's own events (a pool awarded, a rebuy); over a match the rewards add up to
      the signed final totals.
    * ``"deal"``: when a deal is scored, its points (:attr:`DealResult.points
      <rummylib.scoring.DealResult.points>`), signed the same way; match-level events do not
      count.
    * ``"win"``: :func:`outcome` when the match ends (with ``one_deal``: when the first deal
      is scored), 0 before.

    ``sign`` is :func:`score_sign` of the variant, if the caller has it at hand.

    Raises:
        ConfigurationError: an unknown mode.
    """
    seats = after.player_count
    if sign is None and mode != "win":
        sign = score_sign(after.variant)
    if mode == "score":
        assert sign is not None
        return [float(sign * (a - b)) for a, b in zip(after.scores, before.scores, strict=True)]
    if mode == "deal":
        assert sign is not None
        totals = [0.0] * seats
        for record in _new_deals(before, after):
            for seat, points in enumerate(record.points):
                totals[seat] += sign * points
        return totals
    if mode == "win":
        ended = after.is_over and not before.is_over
        if one_deal and not ended:
            ended = not before.deal_results and bool(after.deal_results)
        return outcome(after, one_deal=one_deal) if ended else [0.0] * seats
    msg = f"bad rewards {shorten(mode)}: expected one of {', '.join(REWARD_MODES)}"
    raise ConfigurationError(msg)


def _new_deals(before: GameState, after: GameState) -> tuple[DealResult, ...]:
    return after.deal_results[len(before.deal_results) :]


def deal_ended(before: GameState, after: GameState) -> bool:
    """Whether the move from ``before`` to ``after`` scored a deal (or ended the match)."""
    return len(after.deal_results) > len(before.deal_results) or after.is_over


def check_mode(mode: object) -> str:
    """Return ``mode`` if it is a reward mode, else raise :class:`ConfigurationError`."""
    if not isinstance(mode, str) or mode not in REWARD_MODES:
        msg = f"bad rewards {shorten(mode)}: expected one of {', '.join(REWARD_MODES)}"
        raise ConfigurationError(msg)
    return mode


# -- text -------------------------------------------------------------------------------------


def describe(state: GameState, labels: Callable[[int], Sequence[str]] | None = None) -> str:
    """The whole table as text, every hand included (the adapters' ``"ansi"`` rendering).

    ``labels(player)``, if given, lists the legal moves shown under the hand of the player
    to act.
    """
    lines = [
        f"{state.variant.name} deal {state.deal_number} · {state.phase.value} · "
        f"to act: {' '.join(f'p{seat + 1}' for seat in state.to_act) or '-'}",
        f"scores: {' '.join(f'p{seat + 1}={score}' for seat, score in enumerate(state.scores))}",
        f"stock: {len(state.stock)} cards · "
        f"discard pile: {_sorted_text(state.discard_pile, sort=False)}",
    ]
    if state.open_card is not None:
        lines.append(f"open card: {state.open_card}")
    if state.table:
        lines.append("table: " + " | ".join(str(meld) for meld in state.table))
    for seat, hand in enumerate(state.hands):
        lines.append(f"p{seat + 1}: {_sorted_text(hand)}")
    if labels is not None:
        for seat in state.to_act[:1]:
            lines.extend(f"  {label}" for label in labels(seat))
    if state.result is not None:
        winners = " ".join(f"p{seat + 1}" for seat in state.result.winners) or "nobody"
        lines.append(f"match over: {winners} won")
    return "\n".join(lines)


def _sorted_text(cards: Sequence[Card], *, sort: bool = True) -> str:
    shown = sorted(cards, key=lambda card: card.index) if sort else list(cards)
    return " ".join(str(card) for card in shown) or "-"
