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
from typing import Final, cast

import attrs
import numpy as np
import numpy.typing as npt

from rummylib.actions import (
    ACTION_TYPES,
    Action,
    Discard,
    EnvBlock,
    LayDown,
    Rearrange,
    Slot,
    TakeDiscard,
    canonical_action,
    spec_of,
)
from rummylib.arrangement import arrange
from rummylib.cards import CARDS, JOKER_INDEX, Card
from rummylib.engine import Phase, PhaseBase, Variant
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

#: The kinds whose numbers this module works out itself (macros and counts); every other
#: kind's numbers follow from its declared :attr:`~rummylib.actions.PlayerAction.env_blocks`.
_OWN_NUMBERING: Final[frozenset[type[Action]]] = frozenset((TakeDiscard, LayDown, Rearrange))
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
    field: str | None = None

    @property
    def stop(self) -> int:
        """One past the last number of the block."""
        return self.start + self.size

    def _choice_words(self) -> tuple[str, str]:
        for part in spec_of(self.kind).words:
            if isinstance(part, Slot) and part.field == self.field and part.words is not None:
                return part.words
        return ("no", "yes")

    def label(self, number: int) -> str:
        """The move a number of this block stands for, in words (``"discard 7h"``)."""
        offset = number - self.start
        if self.parameter == "card":
            return f"{self.name.replace('_', ' ')} {CARDS[offset]}"
        if self.parameter == "choice":
            return f"{self.name.replace('_', ' ')}: {self._choice_words()[offset]}"
        if self.parameter == "count":
            return f"take the top {offset + 2} discards"
        return self.meaning


def _declared_blocks() -> list[tuple[EnvBlock, type[Action]]]:
    """Every registered kind's env blocks, in table order: by ``order``, then as registered."""
    found = [
        (block, kind)
        for kind in ACTION_TYPES.values()
        if not kind.host_event
        for block in kind.env_blocks
    ]
    found.sort(key=lambda item: item[0].order)  # stable: registration order within an order
    return found


def _player_kinds() -> tuple[type[Action], ...]:
    return tuple(kind for kind in ACTION_TYPES.values() if not kind.host_event)


def variant_kinds(variant: Variant) -> tuple[type[Action], ...]:
    """The action kinds a variant's players can make (host events excluded).

    Read from the variant's ``phase_actions`` where it declares them; a variant that declares
    none (a plugin that writes its own ``legal_actions``) is taken to use every kind.
    """
    declared: Mapping[object, Iterable[type[Action]]] = getattr(variant, "phase_actions", {})
    kinds = {kind for allowed in declared.values() for kind in allowed if not kind.host_event}
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


#: Markers of ActionTable._phase_kinds: a phase not seen yet, a phase without meld moves.
_UNSEEN: Final = object()
_NO_MELDS: Final = object()


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
        own: dict[type[Action], list[ActionBlock]] = {}
        for declared, kind in _declared_blocks():
            if kind not in kinds:
                continue
            parameter = declared.parameter
            size = {"": 1, "card": CARD_KINDS, "choice": 2, "count": deepest - 1}[parameter]
            if size <= 0:
                continue
            block = ActionBlock(
                name=declared.name,
                kind=kind,
                start=start,
                size=size,
                parameter=parameter,
                meaning=declared.meaning,
                field=declared.field,
            )
            blocks.append(block)
            own.setdefault(kind, []).append(block)
            start += size
        self.blocks: tuple[ActionBlock, ...] = tuple(blocks)
        self.size: int = start
        self._by_name = {block.name: block for block in self.blocks}
        self._cache: _Choices | None = None
        # Where the engine's listed actions go, by exact class: a block start, and how to read
        # the card whose index is the offset in the block (None: a block of one number); a
        # flag's block (choice) by its field. Kinds of one block, declared by their class.
        self._direct: dict[type[Action], tuple[int, Callable[[Action], Card] | None]] = {}
        self._choice: dict[type[Action], tuple[ActionBlock, str]] = {}
        for kind, held in own.items():
            if kind in _OWN_NUMBERING or len(held) != 1:
                continue
            (block,) = held
            if block.parameter == "":
                self._direct[kind] = (block.start, None)
            elif block.parameter == "card" and block.field is not None:
                self._direct[kind] = (block.start, operator.attrgetter(block.field))
            elif block.parameter == "choice" and block.field is not None:
                self._choice[kind] = (block, block.field)
        # The kinds each phase allows (by phase value), or _NO_MELDS for a phase without
        # meld moves.
        self._phase_kinds: dict[object, frozenset[type[Action]] | object | None] = {}
        self._mask_type = np.dtype(np.int8)
        discard, take = self._by_name.get("discard"), self._by_name.get("take_discard")
        self._discard_start = None if discard is None else discard.start
        self._take_start = None if take is None else take.start
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

    def _build(self, state: GameState, player: int) -> _Choices:
        choices = _Choices(state, player)
        if state.is_over or player not in state.to_act:
            return choices
        found = choices.found
        direct = self._direct
        discards, take = self._discard_start, self._take_start
        listed = state.legal_actions(player)
        if discards is not None and set(map(type, listed)) == _ONLY_DISCARDS:
            # Only discards (the commonest listing): numbered in one sweep, in C. A card
            # listed twice (a variant's own listing) keeps its first action, as below.
            numbers = map(discards.__add__, map(_CARD_INDEX, listed))
            found.update(zip(numbers, listed, strict=True))
            if len(found) == len(listed):
                listed = ()
            else:
                found.clear()
        for position, action in enumerate(listed):
            # Most moves map to their number straight away: a single number for the kind,
            # or the kind's block start plus the index of the card the move names (discards,
            # the commonest, first).
            kind = action.__class__
            if kind is Discard and discards is not None:
                # (the exact class is checked: no cast, a call per move, for mypy's sake)
                number = discards + action.card.index  # type: ignore[attr-defined]
            elif kind is TakeDiscard and take is not None and action.count == 1:  # type: ignore[attr-defined]
                number = take
            else:
                place = direct.get(kind)
                if place is None:
                    self._build_rest(choices, listed[position:])
                    break
                start, card = place
                number = start if card is None else start + card(action).index
            if number not in found:
                found[number] = action
        # Phases are keyed by value (unique across phase enums): a str hash is cached, an
        # enum member's is computed in Python on every lookup.
        if self._has_macros and self._phase_kinds.get(state.phase._value_) is not _NO_MELDS:
            self._macros(choices)
        choices.numbers = tuple(sorted({*found, *choices.solve} if choices.solve else found))
        return choices

    def _build_rest(self, choices: _Choices, listed: Sequence[Action]) -> None:
        """Number the actions of :meth:`_build` from the first that is not a direct one."""
        state, found = choices.state, choices.found
        best: dict[int, tuple[tuple[int, int], Action]] = {}
        values = self.variant.card_points.values
        table_cards: Counter[Card] | None = None
        by = self._by_name
        direct = self._direct
        for action in listed:
            place = direct.get(action.__class__)
            if place is not None:
                start, card = place
                found.setdefault(start if card is None else start + card(action).index, action)
            elif isinstance(action, TakeDiscard):
                if action.count == 1:
                    self._put(found, by.get("take_discard"), 0, action)
                else:
                    self._put(found, by.get("take_discards"), action.count - 2, action)
            elif action.__class__ in self._choice:
                block, field = self._choice[action.__class__]
                self._put(found, block, int(getattr(action, field)), action)
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
        phase = state.phase
        allowed = self._phase_kinds.get(phase._value_, _UNSEEN)
        if allowed is _UNSEEN:
            allowed = phase_kinds(self.variant, phase)
            if allowed is not None and not allowed & _MELD_KINDS:
                allowed = _NO_MELDS
            self._phase_kinds[phase._value_] = allowed
        if allowed is _NO_MELDS:  # a phase without meld moves (most of them): no macro
            return
        assert allowed is None or isinstance(allowed, frozenset)
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
        if not hand:  # all laid down already (a gin knocker's): nothing to lay down
            return None
        rules, points = state.meld_rules, variant.card_points
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
                state.meld_rules,
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
        """The legal numbers of ``player`` now as a 0/1 ``int8`` vector of length :attr:`size`.

        A new array every time (the caller may change it).
        """
        flags = bytearray(self.size)
        for number in self._choices(state, player).numbers:
            flags[number] = 1
        return np.frombuffer(flags, self._mask_type)

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

    def decode_or_none(self, state: GameState, player: int, number: object) -> Action | None:
        """The action ``number`` stands for now, or ``None`` if it is not legal (never raises).

        >>> from rummylib import new_game
        >>> state = new_game("gin", players=2, seed=1)
        >>> table = ActionTable.for_variant(state.variant)
        >>> table.decode_or_none(state, 0, 56), table.decode_or_none(state, 1, 56)
        (Pass(player=0), None)
        """
        if isinstance(number, bool) or not isinstance(number, int | np.integer):
            return None
        choices, wanted = self._choices(state, player), int(number)
        if wanted not in choices.found and wanted not in choices.solve:
            return None
        return self._resolve(choices, wanted)

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


class _Choices:
    """The legal numbers of one player in one state, as :class:`ActionTable` works them out."""

    __slots__ = ("found", "listed_plays", "numbers", "player", "solve", "solved", "state")

    def __init__(self, state: GameState, player: int) -> None:
        self.state = state
        self.player = player
        #: Numbers whose action is known.
        self.found: dict[int, Action] = {}
        #: Numbers the table solver decides when they are decoded, by objective.
        self.solve: dict[int, str] = {}
        #: Table-solver results so far, by objective.
        self.solved: dict[str, Action] = {}
        #: The listed meld actions with their (points, cards) played.
        self.listed_plays: list[tuple[tuple[int, int], Action]] = []
        self.numbers: tuple[int, ...] = ()


def best_key(cards: Iterable[Card], values: Sequence[int]) -> tuple[int, int]:
    """(points, number of cards) of the cards a move plays: what the "most points" macros rank."""
    played = list(cards)
    return (sum(values[card.index] for card in played), len(played))


_CARD_INDEX: Final = operator.attrgetter("card.index")
_ONLY_DISCARDS: Final = {Discard}
_BIT: Final = operator.attrgetter("bit")


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
        #: Per seat, per card kind: how many such face-up cards the seat took and still holds.
        #: Change it through :meth:`update` and :meth:`reset` only.
        self.counts: npt.NDArray[np.int16] = np.zeros((players, CARD_KINDS), dtype=np.int16)
        #: Counts the updates and resets that changed :attr:`counts`, so that a vector's
        #: taken rows are rewritten only then.
        self.version = 0
        # Per seat, a bit per card kind whose count is above 0: most shown cards were never
        # taken, and need no look at the counts.
        self._held = [0] * players

    def reset(self) -> None:
        """Forget everything (a new deal)."""
        self.counts[:] = 0
        self._held = [0] * len(self._held)
        self.version += 1

    def copy(self) -> TakenCards:
        """An independent copy."""
        twin = TakenCards(players=self.counts.shape[0])
        twin.counts[:] = self.counts
        twin.version = self.version
        twin._held = self._held[:]
        return twin

    def update(self, before: Observation, after: Observation, *, actor: int) -> None:
        """Account for one move of ``actor`` that led from ``before`` to ``after``."""
        if after.deal_number != before.deal_number:
            self.reset()
            return
        pile_before, pile_after = before.discard_pile, after.discard_pile
        table_changed = after.table is not before.table and after.table != before.table
        if pile_after is pile_before and after.open_card is before.open_card and not table_changed:
            return  # nothing face up moved (a draw from the stock, a pass, a knock…)
        taken: Sequence[Card] = ()
        shown: Sequence[Card] = ()
        size_before, size_after = len(pile_before), len(pile_after)
        if size_after < size_before:  # cards left the pile: taken by the actor, if it grew
            grew = after.hand_sizes[actor] - before.hand_sizes[actor]
            if (
                grew > 0
                and size_before - size_after <= grew
                and pile_before[:size_after] == pile_after
            ):
                taken = pile_before[size_after:]
        elif size_after > size_before and pile_after[:size_before] == pile_before:
            shown = pile_after[size_before:]  # discarded
        if (
            before.open_card is not None
            and after.open_card is None
            and after.stock_size == before.stock_size
            and after.hand_sizes[actor] - before.hand_sizes[actor] == 1
        ):
            taken = (*taken, before.open_card)
        if table_changed:
            melded = Counter(_meld_cards(after.table)) - Counter(_meld_cards(before.table))
            shown = (*shown, *melded.elements())
        if taken or (shown and any(self._held[actor] & card.bit for card in shown)):
            self._count(actor, taken, shown)

    def _count(self, actor: int, taken: Sequence[Card], shown: Sequence[Card]) -> None:
        """Add the cards ``actor`` took, then take one copy off for each card shown."""
        row = self.counts[actor]
        held = self._held[actor]
        for card in taken:
            row[card.index] += 1
            held |= card.bit
        for card in shown:  # one shown copy less of each (never below none)
            if held & card.bit and row[card.index]:
                row[card.index] -= 1
                if not row[card.index]:
                    held &= ~card.bit
        self._held[actor] = held
        self.version += 1


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
        # By phase value (unique across phase enums): a str's hash is kept, a member's is not.
        self._phase_index = {
            getattr(phase, "_value_", phase): number for number, phase in enumerate(self.phases)
        }
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
        # The scalars lie side by side, from the stock size to the last score, and the seat
        # flags follow them (ObservationEncoder._write_seats writes them in one sweep).
        assert scalars == list(range(scalars[0], scalars[-1] + 1))
        assert layout["in_match"].start == layout["scores"].stop
        assert layout["to_act"].start == layout["in_match"].stop
        assert layout["current_player"].start == layout["to_act"].stop
        #: The seats in the vector's order for each viewer: the viewer first, then play order.
        self._orders = tuple(
            tuple((viewer + offset) % n for offset in range(n)) for viewer in range(n)
        )
        self._scalar_span = slice(scalars[0], scalars[-1] + 1)
        self.low: FloatArray = np.array(low, dtype=np.float32)
        self.high: FloatArray = np.array(high, dtype=np.float32)
        #: At most one copy of each card kind in a deck: every card plane holds 0s and 1s.
        self._one_copy = copies == 1

    def encode(self, observation: Observation, taken: TakenCards | None = None) -> FloatArray:
        """The vector of ``observation`` (and of ``taken``, the public record of takes)."""
        out = np.zeros(self.size, dtype=np.float32)
        cells = cast("memoryview[float]", out.data)
        at = self._starts
        self._move_cards(cells, at["hand"], (), observation.hand)
        pile = observation.discard_pile
        self._move_cards(cells, at["discard_pile"], (), pile)
        if pile:
            cells[at["discard_top"] + pile[-1].index] = 1.0
        if observation.open_card is not None:
            cells[at["open_card"] + observation.open_card.index] = 1.0
        if observation.table:
            self._move_cards(cells, at["table"], (), _meld_cards(observation.table))
        cells[at["phase"] + self._phase_place(observation.phase)] = 1.0
        self._write_seats(cells, out, observation, taken)
        return out

    def _phase_place(self, phase: PhaseBase) -> int:
        """The offset of ``phase`` in the phase one-hot (the last place: a phase not listed)."""
        return self._phase_index.get(phase._value_, len(self.phases))

    def _write_seats(
        self,
        cells: memoryview[float],
        out: FloatArray,
        observation: Observation,
        taken: TakenCards | None,
    ) -> None:
        """Write the numbers, the seat flags and (with ``taken``) the taken rows."""
        seats = self._orders[observation.player]
        place = self._scalar_span.start
        pile, table = observation.discard_pile, observation.table
        # From the stock size to the current player's flags, the places follow one another.
        for value in (
            observation.stock_size,
            len(pile),
            len(table),
            observation.deal_number,
            observation.multiplier,
            observation.pot,
        ):
            cells[place] = _clip(value)
            place += 1
        sizes, scores = observation.hand_sizes, observation.scores
        for seat in seats:
            cells[place] = sizes[seat]
            place += 1
        for seat in seats:
            value = scores[seat]
            cells[place] = _clip(value)
            place += 1
        n = self.players
        current = observation.current_player
        _flags(cells, place, seats, observation.players_in)
        _flags(cells, place + n, seats, observation.to_act)
        _flags(cells, place + 2 * n, seats, () if current is None else (current,))
        if taken is not None:
            self._write_taken(out, seats, taken)

    def _write_taken(self, out: FloatArray, seats: Sequence[int], taken: TakenCards) -> None:
        start = self._starts["taken"]
        rows = taken.counts
        for seat in seats[1:]:
            out[start : start + CARD_KINDS] = rows[seat]
            start += CARD_KINDS

    def update(
        self,
        vector: FloatArray,
        before: Observation,
        after: Observation,
        taken: TakenCards | None = None,
    ) -> FloatArray:
        """``encode(after, taken)``, worked out from ``vector``, the vector of ``before``.

        ``before`` is an earlier observation of the same player and ``vector`` its vector
        (as :meth:`encode` or :meth:`update` gave it; it is not changed). Only what differs
        between the two observations is rewritten: the card planes whose cards changed (by
        identity of the tuples, then card by card), the flags, the phase and the numbers.
        That is much cheaper than :meth:`encode` from one move to the next. An observation
        of another player is encoded afresh.

        ``taken`` rewrites the taken rows; ``None`` keeps those of ``vector`` (pass it when
        its :attr:`TakenCards.version` changed since ``vector`` was made).

        >>> from rummylib import new_game
        >>> state = new_game("gin", players=2, seed=1)
        >>> after = state.apply(state.legal_actions()[0])
        >>> encoder = ObservationEncoder(state.variant, players=2)
        >>> vector = encoder.encode(state.observation(1))
        >>> moved = encoder.update(vector, state.observation(1), after.observation(1))
        >>> bool((moved == encoder.encode(after.observation(1))).all())
        True
        """
        out = vector.copy()
        self.update_into(out, before, after, taken)
        return out

    def update_into(
        self,
        vector: FloatArray,
        before: Observation,
        after: Observation,
        taken: TakenCards | None = None,
        *,
        cells: memoryview[float] | None = None,
    ) -> None:
        """:meth:`update` in place: turn ``vector``, the vector of ``before``, into ``after``'s.

        For a caller that keeps one vector per player and hands out copies; ``cells``, if
        given, is ``vector.data`` kept by that caller (it saves making one on every call).
        """
        if before.player != after.player or before.variant is not after.variant:
            vector[:] = self.encode(after, taken)
            return
        out = vector
        if cells is None:
            cells = out.data  # type: ignore[assignment]  # float32 items
            assert cells is not None
        at = self._starts
        if after.hand is not before.hand:
            self._move_cards(cells, at["hand"], before.hand, after.hand)
        old_pile, pile = before.discard_pile, after.discard_pile
        if pile is not old_pile:
            self._move_cards(cells, at["discard_pile"], old_pile, pile)
            top = at["discard_top"]
            if old_pile:
                cells[top + old_pile[-1].index] = 0.0
            if pile:
                cells[top + pile[-1].index] = 1.0
        if after.open_card is not before.open_card:
            start = at["open_card"]
            if before.open_card is not None:
                cells[start + before.open_card.index] = 0.0
            if after.open_card is not None:
                cells[start + after.open_card.index] = 1.0
        if after.table is not before.table:
            self._move_cards(
                cells, at["table"], _meld_cards(before.table), _meld_cards(after.table)
            )
        if after.phase is not before.phase:
            index, unlisted = self._phase_index, len(self.phases)
            cells[at["phase"] + index.get(before.phase._value_, unlisted)] = 0.0
            cells[at["phase"] + index.get(after.phase._value_, unlisted)] = 1.0
        self._write_changes(cells, out, before, after, taken)

    def _write_changes(
        self,
        cells: memoryview[float],
        out: FloatArray,
        before: Observation,
        after: Observation,
        taken: TakenCards | None,
    ) -> None:
        """:meth:`_write_seats` for ``after``, where ``cells`` hold the places of ``before``.

        Each group of places is written only where its fields differ.
        """
        self._write_counts(cells, before, after)
        seats = self._orders[after.player]
        place = self._scalar_span.start + 6  # past the six counts: hand sizes, scores, flags
        n = self.players
        if after.hand_sizes != before.hand_sizes:
            sizes = after.hand_sizes
            for offset, seat in enumerate(seats):
                cells[place + offset] = sizes[seat]
        place += n
        if after.scores != before.scores:
            scores = after.scores
            for offset, seat in enumerate(seats):
                value = scores[seat]
                cells[place + offset] = _clip(value)
        place += n
        if after.players_in != before.players_in:
            _flags(cells, place, seats, after.players_in)
        place += n
        if after.to_act != before.to_act:
            _flags(cells, place, seats, after.to_act)
        place += n
        if after.current_player != before.current_player:
            current = after.current_player
            _flags(cells, place, seats, () if current is None else (current,))
        if taken is not None:
            self._write_taken(out, seats, taken)

    def _write_counts(
        self, cells: memoryview[float], before: Observation, after: Observation
    ) -> None:
        """The six numbers from the stock size to the pot, where they changed."""
        place = self._scalar_span.start
        if after.stock_size != before.stock_size:
            cells[place] = after.stock_size
        if after.discard_pile is not before.discard_pile:
            cells[place + 1] = len(after.discard_pile)
        if after.table is not before.table:
            cells[place + 2] = len(after.table)
        if (
            after.deal_number != before.deal_number
            or after.multiplier != before.multiplier
            or after.pot != before.pot
        ):
            for offset, value in (
                (3, after.deal_number),
                (4, after.multiplier),
                (5, after.pot),
            ):
                cells[place + offset] = _clip(value)

    def _one_removed(
        self, cells: memoryview[float], start: int, old: Sequence[Card], new: Sequence[Card]
    ) -> bool:
        """Count one card less at ``start`` if ``new`` is ``old`` without one card."""
        place = _removed_at(old, new)
        if place is None:
            return False
        cells[start + old[place].index] -= 1.0
        return True

    def _move_cards(
        self, cells: memoryview[float], start: int, old: Sequence[Card], new: Sequence[Card]
    ) -> None:
        """Turn the plane at ``start`` from the counts of ``old`` into those of ``new``."""
        size = len(old)
        if len(new) >= size and new[:size] == old:  # cards added on top (a discard)
            for card in new[size:]:
                cells[start + card.index] += 1.0
        elif len(new) < size and old[: len(new)] == new:  # cards taken off the top
            for card in old[len(new) :]:
                cells[start + card.index] -= 1.0
        elif len(new) == size - 1 and self._one_removed(cells, start, old, new):
            pass  # one card left, the others kept their order (a discard from a hand)
        elif self._one_copy:  # sets of cards, as bit masks: clear what left, set what came
            old_bits, new_bits = sum(map(_BIT, old)), sum(map(_BIT, new))
            _write_bits(cells, start, old_bits & ~new_bits, 0.0)
            _write_bits(cells, start, new_bits & ~old_bits, 1.0)
        else:
            for card in old:
                cells[start + card.index] -= 1.0
            for card in new:
                cells[start + card.index] += 1.0


def _removed_at(old: Sequence[Card], new: Sequence[Card]) -> int | None:
    """Where ``new`` is ``old`` less one card, the place of that card in ``old``; else None."""
    place = 0
    for place, card in enumerate(new):
        if card is not old[place]:
            break
    else:
        place = len(new)
    return place if old[place + 1 :] == new[place:] else None


def _write_bits(cells: memoryview[float], start: int, bits: int, value: float) -> None:
    """Write ``value`` at ``start + index`` for each card index set in ``bits``."""
    while bits:
        lowest = bits & -bits
        cells[start + lowest.bit_length() - 1] = value
        bits ^= lowest


def _clip(value: int) -> int:
    """``value`` within ``±SCALAR_BOUND``, the box of the vector's numbers."""
    return max(-SCALAR_BOUND, min(value, SCALAR_BOUND))


def _flags(
    cells: memoryview[float], start: int, seats: Sequence[int], members: Sequence[int]
) -> None:
    """Write 1 at ``start + offset`` for each seat (in vector order) in ``members``, else 0."""
    for offset, seat in enumerate(seats):
        cells[start + offset] = 1.0 if seat in members else 0.0


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
    seats = after.match.player_count
    if sign is None and mode != "win":
        sign = score_sign(after.variant)
    if mode == "score":
        assert sign is not None
        now, then = after.match.scores, before.match.scores
        if now is then:  # most moves: the totals are not touched
            return [0.0] * seats
        return [float(sign * (a - b)) for a, b in zip(now, then, strict=True)]
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
    later, earlier = after.match, before.match
    return len(later.deal_results) > len(earlier.deal_results) or later.result is not None


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
    if state.aside:
        lines.append(f"set aside face up: {_sorted_text(state.aside, sort=False)}")
    facts = state.variant.public_info(state, state.to_act[0] if state.to_act else 0).lines()
    if facts:
        lines.append("facts: " + "; ".join(facts))
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
