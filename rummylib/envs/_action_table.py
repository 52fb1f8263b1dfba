"""The fixed numbering of a variant's moves (:class:`ActionTable`), and the shared constants."""

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
from rummylib.engine import Variant
from rummylib.errors import IllegalActionError, RummyError, shorten
from rummylib.melds import Meld
from rummylib.state import GameState

#: Distinct cards: 52 naturals and the joker, by :attr:`Card.index <rummylib.cards.Card.index>`.
CARD_KINDS: Final = JOKER_INDEX + 1

#: Scores, the deal number and the variant's numeric facts are clipped to ``±SCALAR_BOUND`` in
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
        return self.variant.best_table_play(state, player, objective)

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
