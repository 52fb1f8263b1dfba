"""Actions: the moves players make and the events a host reports.

Every action is a frozen, keyword-constructed record with a ``player`` field. A variant uses
the ones its rules need. Actions are values: two equal actions are the same move.

>>> from rummylib import parse_card
>>> from rummylib.actions import Discard, DrawStock
>>> DrawStock(player=0)
DrawStock(player=0)
>>> Discard(player=1, card=parse_card("7h"))
Discard(player=1, card=Card.parse('7h'))
"""

from __future__ import annotations

import enum
import importlib
import re
import typing
from collections.abc import Callable, Mapping, Set
from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeAlias, TypeVar

import attrs

from rummylib.cards import Card
from rummylib.errors import ConfigurationError, IllegalActionError, shorten
from rummylib.melds import Meld, RunEnd, canonical_melds

__all__ = [
    "ACTION_TYPES",
    "Action",
    "ActionSpec",
    "AnswerFrish",
    "Codec",
    "DeclareRummy",
    "DeclineRebuy",
    "Discard",
    "Disconnect",
    "DrawStock",
    "Drop",
    "EnvBlock",
    "GiveUp",
    "Knock",
    "LayDown",
    "LayOff",
    "Pass",
    "PlayerAction",
    "ProposeFrish",
    "Rearrange",
    "Rebuy",
    "Reconnect",
    "Show",
    "ShowMelds",
    "Slot",
    "TakeDiscard",
    "TakeOpenCard",
    "TimeExpired",
    "action_classes",
    "canonical_action",
    "check_card",
    "check_flag",
    "check_whole",
    "is_action",
    "on_register",
    "register_action",
    "spec_of",
    "specs",
    "to_melds",
    "unregister_action",
]


if TYPE_CHECKING:  # moved to the variant that uses them; still importable from here (below)
    from rummylib.variants.indian import Drop, Show
    from rummylib.variants.israeli import (
        AnswerFrish,
        DeclareRummy,
        GiveUp,
        ProposeFrish,
        ShowMelds,
        TakeOpenCard,
    )

_A = TypeVar("_A", bound="PlayerAction")

#: Action classes that live in the one variant module that uses them, by name: importable
#: from here as before (:pep:`562`), the module loaded on first use.
_VARIANT_ACTIONS: Final = {
    **dict.fromkeys(
        ("AnswerFrish", "DeclareRummy", "GiveUp", "ProposeFrish", "ShowMelds", "TakeOpenCard"),
        "rummylib.variants.israeli",
    ),
    **dict.fromkeys(("Drop", "Show"), "rummylib.variants.indian"),
}


def __getattr__(name: str) -> object:
    module = _VARIANT_ACTIONS.get(name)
    if module is None:
        msg = f"module {__name__!r} has no attribute {name!r}"
        raise AttributeError(msg)
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(globals().keys() | _VARIANT_ACTIONS.keys())


def _player(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        msg = f"bad player {shorten(value)}: players are numbered 0, 1, 2, …"
        raise IllegalActionError(msg)


def check_card(instance: object, attribute: attrs.Attribute[Card], value: object) -> None:
    """Attrs validator of an action's card field: a :class:`~rummylib.cards.Card`."""
    if not isinstance(value, Card):
        msg = f"bad {attribute.name} {shorten(value)}: expected a Card"
        raise IllegalActionError(msg)


def check_whole(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    """Attrs validator of a number field: a whole number (``bool`` is not one)."""
    # The type only: whether the number fits (a meld index, a count of cards) is for the rules.
    if isinstance(value, bool) or not isinstance(value, int):
        msg = f"bad {attribute.name} {shorten(value)}: expected a whole number"
        raise IllegalActionError(msg)


def check_flag(instance: object, attribute: attrs.Attribute[bool], value: object) -> None:
    """Attrs validator of a flag field: ``True`` or ``False``."""
    if not isinstance(value, bool):
        msg = f"bad {attribute.name} {shorten(value)}: expected True or False"
        raise IllegalActionError(msg)


def _end(value: object) -> RunEnd | None:
    if value is None or isinstance(value, RunEnd):
        return value
    if isinstance(value, str) and value in {"low", "high"}:
        return RunEnd(value)
    msg = f"bad end {shorten(value)}: expected 'low', 'high' or None"
    raise IllegalActionError(msg)


def to_melds(value: object) -> tuple[Meld, ...]:
    """Attrs converter of a melds field: a sequence of :class:`~rummylib.melds.Meld`, as a tuple."""
    if isinstance(value, Meld) or not isinstance(value, list | tuple):
        msg = f"bad melds {shorten(value)}: expected a sequence of Meld"
        raise IllegalActionError(msg)
    for meld in value:
        if not isinstance(meld, Meld):
            msg = f"bad meld {shorten(meld)}: expected a Meld"
            raise IllegalActionError(msg)
    return tuple(value)


@attrs.frozen(kw_only=True)
class EnvBlock:
    """A run of env action numbers an action class declares (``rummylib.envs.encoding``).

    ``parameter`` says what the offset in the block means: ``""`` (a single number),
    ``"card"`` (the :attr:`Card.index <rummylib.cards.Card.index>` of the card in ``field``,
    53 numbers) or ``"choice"`` (``field`` is a flag: false, true). ``"count"`` is the
    classic-500 block of :class:`TakeDiscard`. Blocks are numbered in ``order``, then in the
    order the classes were registered; the built-in blocks take the orders 10 to 200.

    >>> Discard.env_blocks[0].parameter, Discard.env_blocks[0].field
    ('card', 'card')
    """

    name: str
    meaning: str
    parameter: str = ""
    field: str | None = None
    order: int = 1000

    def __attrs_post_init__(self) -> None:
        if self.parameter not in {"", "card", "choice", "count"}:
            msg = (
                f"bad env block parameter {shorten(self.parameter)}: "
                "expected '', 'card' or 'choice'"
            )
            raise ConfigurationError(msg)


@attrs.frozen(kw_only=True)
class PlayerAction:
    """What every action has: the player who acts (0-based), and how the action is written.

    The class-level data is the action's declaration (:func:`register_action` checks it):

    * ``kind``: its name in saved games (``"discard"``);
    * ``verb``: its words in a game record, each field in braces (``"discard {card}"``; see
      :func:`register_action` for the forms);
    * ``host_event``: a host reports it (``h timeout p2``), not a player;
    * ``shows_drawn``: a record may add the card it took (``p1 draw stock 7h``);
    * ``takes_cards``: it brings cards into the hand (a draw, a take);
    * ``shows_hand``: its melds show cards that stay in the hand;
    * ``face_down``: the card field it sets face down (an Indian show's finishing card), which
      a record written for another player's view gives as ``??``;
    * ``env_blocks``: its numbers in the learning environments' action tables.

    >>> DrawStock(player=-1)
    Traceback (most recent call last):
    ...
    rummylib.errors.IllegalActionError: bad player -1: players are numbered 0, 1, 2, …
    """

    player: int = attrs.field(validator=_player)

    #: The action's name in saved games.
    kind: ClassVar[str] = ""
    #: The action's words in a game record, its fields in braces.
    verb: ClassVar[str] = ""
    #: Whether a host reports it (``h verb pN``) rather than a player.
    host_event: ClassVar[bool] = False
    #: Whether a record line may add the card the action took from the stock.
    shows_drawn: ClassVar[bool] = False
    #: Whether it brings cards into the player's hand (a draw or a take).
    takes_cards: ClassVar[bool] = False
    #: Whether its melds show cards that stay in the player's hand (a loser's arrangement).
    shows_hand: ClassVar[bool] = False
    #: The card field it sets face down, unseen by the other players (``None``: none).
    face_down: ClassVar[str | None] = None
    #: Its numbers in the action tables of ``rummylib.envs`` (none: no number).
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = ()


@attrs.frozen(kw_only=True)
class DrawStock(PlayerAction):
    """Take the top card of the stock.

    >>> DrawStock(player=0).player
    0
    """

    kind: ClassVar[str] = "draw_stock"
    verb: ClassVar[str] = "draw stock"
    takes_cards: ClassVar[bool] = True
    shows_drawn: ClassVar[bool] = True
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = (
        EnvBlock(
            name="draw_stock",
            order=10,
            meaning="take the top card of the stock",
        ),
    )


@attrs.frozen(kw_only=True)
class TakeDiscard(PlayerAction):
    """Take the top discard; with ``count`` > 1 that many cards from the top (classic 500).

    >>> TakeDiscard(player=2, count=3).count
    3
    """

    kind: ClassVar[str] = "take_discard"
    verb: ClassVar[str] = "take discard [count]"
    takes_cards: ClassVar[bool] = True
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = (
        EnvBlock(
            name="take_discard",
            order=20,
            meaning="take the top discard",
        ),
        EnvBlock(
            name="take_discards",
            parameter="count",
            field="count",
            order=200,
            meaning="take the top k discards (k = 2 + offset)",
        ),
    )
    count: int = attrs.field(default=1, validator=check_whole)


@attrs.frozen(kw_only=True)
class Discard(PlayerAction):
    """End the turn by putting a card from hand on the discard pile.

    >>> from rummylib import parse_card
    >>> str(Discard(player=0, card=parse_card("Kd")).card)
    'Kd'
    """

    kind: ClassVar[str] = "discard"
    verb: ClassVar[str] = "discard {card}"
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = (
        EnvBlock(
            name="discard",
            parameter="card",
            field="card",
            order=40,
            meaning="discard card c",
        ),
    )
    card: Card = attrs.field(validator=check_card)


@attrs.frozen(kw_only=True)
class LayDown(PlayerAction):
    """Put new melds from hand on the table.

    >>> from rummylib import MeldRules, parse_meld
    >>> LayDown(player=0, melds=[parse_meld("7h 7d 7s", MeldRules())]).melds[0].rank
    <Rank.SEVEN: 7>
    """

    kind: ClassVar[str] = "lay_down"
    verb: ClassVar[str] = "meld | {melds}"
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = (
        EnvBlock(
            name="lay_down_best",
            order=120,
            meaning="lay down every meld of the best arrangement of the hand; if that is not "
            "legal, the melds of the best arrangement that keeps a card to discard",
        ),
        EnvBlock(
            name="lay_down",
            parameter="card",
            order=130,
            meaning="of the lay-downs the engine lists that use card c, the one worth the most "
            "points (then the most cards, then the first listed)",
        ),
    )
    melds: tuple[Meld, ...] = attrs.field(converter=to_melds)


@attrs.frozen(kw_only=True)
class LayOff(PlayerAction):
    """Add a card from hand to a table meld; a joker names what it stands for.

    ``end`` says which end of a run the card goes to, where both ends would take it (an ace
    beside a 2…K run: low, worth 1 in 500 rummy, or high, worth 15); elsewhere it is ``None``.

    >>> from rummylib import parse_card
    >>> LayOff(player=0, card=parse_card("*"), meld_index=2, stands_for=parse_card("9h"))
    LayOff(player=0, card=Card.parse('*'), meld_index=2, stands_for=Card.parse('9h'), end=None)
    >>> LayOff(player=0, card=parse_card("Ah"), meld_index=0, end="high").end
    <RunEnd.HIGH: 'high'>
    """

    kind: ClassVar[str] = "lay_off"
    verb: ClassVar[str] = "layoff {card=stands_for} {meld_index} [end]"
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = (
        EnvBlock(
            name="lay_off",
            parameter="card",
            field="card",
            order=140,
            meaning="lay off card c where it fits: the first lay-off of c the engine lists "
            "(lowest table meld first)",
        ),
    )
    card: Card = attrs.field(validator=check_card)
    meld_index: int = attrs.field(validator=check_whole)
    stands_for: Card | None = attrs.field(
        default=None, validator=attrs.validators.optional(check_card)
    )
    end: RunEnd | None = attrs.field(default=None, converter=_end)


@attrs.frozen(kw_only=True)
class Rearrange(PlayerAction):
    """A Carousel meld action: the complete new table.

    >>> Rearrange(player=0, table=()).table
    ()
    """

    kind: ClassVar[str] = "rearrange"
    verb: ClassVar[str] = "table | [table]"
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = (
        EnvBlock(
            name="table_best_cards",
            order=150,
            meaning="the meld action that plays the most cards from the hand, rearranging the "
            "table (best_play, objective 'cards')",
        ),
        EnvBlock(
            name="table_best_points",
            order=160,
            meaning="the meld action that plays the most points from the hand, rearranging the "
            "table (best_play, objective 'points')",
        ),
        EnvBlock(
            name="table_play",
            parameter="card",
            order=170,
            meaning="of the meld actions the engine lists that play card c, the one playing the "
            "most points (then the most cards, then the first listed)",
        ),
    )
    table: tuple[Meld, ...] = attrs.field(converter=to_melds)


@attrs.frozen(kw_only=True)
class Knock(PlayerAction):
    """Carousel: end the deal holding few enough points.

    >>> Knock(player=1)
    Knock(player=1)
    """

    kind: ClassVar[str] = "knock"
    verb: ClassVar[str] = "knock"
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = (
        EnvBlock(
            name="knock",
            order=50,
            meaning="knock",
        ),
    )


@attrs.frozen(kw_only=True)
class Pass(PlayerAction):
    """Decline an optional action.

    >>> Pass(player=0)
    Pass(player=0)
    """

    kind: ClassVar[str] = "pass"
    verb: ClassVar[str] = "pass"
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = (
        EnvBlock(
            name="pass",
            order=60,
            meaning="pass",
        ),
    )


@attrs.frozen(kw_only=True)
class Rebuy(PlayerAction):
    """Re-enter the match after an elimination, paying the stake it costs.

    >>> Rebuy(player=3)
    Rebuy(player=3)
    """

    kind: ClassVar[str] = "rebuy"
    verb: ClassVar[str] = "rebuy"
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = (
        EnvBlock(
            name="rebuy",
            order=180,
            meaning="buy back in",
        ),
    )


@attrs.frozen(kw_only=True)
class DeclineRebuy(PlayerAction):
    """Refuse an optional rebuy and watch the rest of the match as a spectator.

    >>> DeclineRebuy(player=3)
    DeclineRebuy(player=3)
    """

    kind: ClassVar[str] = "decline_rebuy"
    verb: ClassVar[str] = "decline rebuy"
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = (
        EnvBlock(
            name="decline_rebuy",
            order=190,
            meaning="decline the rebuy (watch as a spectator)",
        ),
    )


@attrs.frozen(kw_only=True)
class TimeExpired(PlayerAction):
    """Host event: the player's clock (grace included) ran out.

    >>> TimeExpired(player=1)
    TimeExpired(player=1)
    """

    kind: ClassVar[str] = "time_expired"
    verb: ClassVar[str] = "timeout"
    host_event: ClassVar[bool] = True
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = ()


@attrs.frozen(kw_only=True)
class Disconnect(PlayerAction):
    """Host event: the player lost their connection.

    >>> Disconnect(player=1)
    Disconnect(player=1)
    """

    kind: ClassVar[str] = "disconnect"
    verb: ClassVar[str] = "disconnect"
    host_event: ClassVar[bool] = True
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = ()


@attrs.frozen(kw_only=True)
class Reconnect(PlayerAction):
    """Host event: a disconnected player is back.

    >>> Reconnect(player=1)
    Reconnect(player=1)
    """

    kind: ClassVar[str] = "reconnect"
    verb: ClassVar[str] = "reconnect"
    host_event: ClassVar[bool] = True
    env_blocks: ClassVar[tuple[EnvBlock, ...]] = ()


#: Any action: an instance of a registered action class (the vocabulary is open, so this is
#: their base class; narrow with ``isinstance`` to read a kind's fields).
Action: TypeAlias = PlayerAction

#: Every action class by its saved-game name (the built-in ones, then those registered with
#: :func:`register_action`, in that order). Read it; register with the function.
ACTION_TYPES: dict[str, type[Action]] = {}


class Codec(enum.Enum):
    """How a field of an action is written, read from its type."""

    CARD = "card"
    OPTIONAL_CARD = "optional card"
    WHOLE = "whole number"
    FLAG = "flag"
    MELDS = "melds"
    END = "end"


_CODECS: Final[dict[object, Codec]] = {
    Card: Codec.CARD,
    Card | None: Codec.OPTIONAL_CARD,
    int: Codec.WHOLE,
    bool: Codec.FLAG,
    tuple[Meld, ...]: Codec.MELDS,
    RunEnd | None: Codec.END,
}

_WORD: Final = re.compile(r"[a-z][a-z0-9_-]*")
_KIND: Final = re.compile(r"[a-z][a-z0-9_]*")
_SLOT: Final = re.compile(
    r"(?P<open>[{\[])(?P<field>[a-z_][a-z0-9_]*)"
    r"(?:=(?P<declared>[a-z_][a-z0-9_]*)|:(?P<no>[a-z]+)/(?P<yes>[a-z]+))?(?P<close>[}\]])"
)


@attrs.frozen
class Slot:
    """One field in a verb.

    ``{card}``; ``[count]`` (left out at its default); ``{card=stands}`` (a card and, after
    ``=``, the card it declares); ``{accept:refuse/accept}`` (a flag as one of two words).
    """

    field: str
    codec: Codec
    optional: bool = False
    declared: str | None = None
    words: tuple[str, str] | None = None

    @property
    def usage(self) -> str:
        """How the slot reads in an error message (``CARD``, ``[N]``, ``refuse|accept``)."""
        if self.words is not None:
            return "|".join(self.words)
        text = {
            Codec.CARD: "CARD",
            Codec.OPTIONAL_CARD: "CARD",
            Codec.WHOLE: "N",
            Codec.END: "low|high",
            Codec.FLAG: "yes|no",
            Codec.MELDS: "MELDS",
        }[self.codec]
        return f"[{text}]" if self.optional else text


@attrs.frozen
class ActionSpec:
    """A registered action class's declaration, checked and compiled (:func:`spec_of`).

    ``words`` are the verb's tokens before ``|``: a literal word (``str``) or a :class:`Slot`;
    ``melds`` is the field written after ``|`` (one meld between each pair of bars), if any.
    """

    cls: type[PlayerAction]
    words: tuple[str | Slot, ...]
    melds: str | None
    codecs: tuple[tuple[str, Codec], ...]
    melds_optional: bool = False

    @property
    def usage(self) -> str:
        """The verb as an error message shows it (``'discard CARD'``)."""
        text = " ".join(part if isinstance(part, str) else part.usage for part in self.words)
        if self.melds is not None:
            text += " | meld | meld …"
        return text

    @property
    def shape(self) -> tuple[object, ...]:
        """The verb's literal words, slots and bars (two verbs must differ in it)."""
        return (
            self.cls.host_event,
            tuple(
                part if isinstance(part, str) else (part.optional, part.words)
                for part in self.words
            ),
            self.melds is not None,
        )


_SPECS: Final[dict[type[PlayerAction], ActionSpec]] = {}
#: The melds field of each registered kind that carries melds (canonical_action reads it).
_MELDS_FIELDS: Final[dict[type, str]] = {}


def _declaration_error(cls: type, why: str) -> ConfigurationError:
    return ConfigurationError(f"cannot register {getattr(cls, '__name__', shorten(cls))}: {why}")


#: The field types by their written names, for annotations that cannot be evaluated (a class
#: defined in a function, whose names are local there).
_WRITTEN_CODECS: Final = {
    "Card": Codec.CARD,
    "Card|None": Codec.OPTIONAL_CARD,
    "None|Card": Codec.OPTIONAL_CARD,
    "Optional[Card]": Codec.OPTIONAL_CARD,
    "int": Codec.WHOLE,
    "bool": Codec.FLAG,
    "tuple[Meld,...]": Codec.MELDS,
    "RunEnd|None": Codec.END,
    "None|RunEnd": Codec.END,
    "Optional[RunEnd]": Codec.END,
}
_QUALIFIED: Final = re.compile(r"\b(?:[A-Za-z_][A-Za-z0-9_]*\.)+(?=[A-Za-z_])")


def _codec_of(hint: object, written: object) -> Codec | None:
    codec = _CODECS.get(hint) if hint is not None else None
    if codec is None and isinstance(written, str):
        codec = _WRITTEN_CODECS.get(_QUALIFIED.sub("", "".join(written.split())))
    return codec


def _field_codecs(cls: type[PlayerAction]) -> dict[str, Codec]:
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # names local to a function: read as written, below
        hints = {}
    codecs: dict[str, Codec] = {}
    for field in attrs.fields(cls):
        if field.name == "player" or not field.init:
            continue
        codec = _codec_of(hints.get(field.name), field.type)
        if codec is None:
            why = (
                f"field {field.name!r} has type {hints.get(field.name, field.type)!r}; an "
                "action field is a Card, Card | None, int, bool, tuple[Meld, ...] or "
                "RunEnd | None"
            )
            raise _declaration_error(cls, why)
        codecs[field.name] = codec
    return codecs


def _check_class(cls: type[PlayerAction]) -> None:
    if not (isinstance(cls, type) and issubclass(cls, PlayerAction)) or cls is PlayerAction:
        raise _declaration_error(cls, "an action is an attrs class derived from PlayerAction")
    if getattr(cls, "__attrs_attrs__", None) is None or "player" not in attrs.fields_dict(cls):
        raise _declaration_error(cls, "an action is an attrs class derived from PlayerAction")
    if not isinstance(cls.kind, str) or _KIND.fullmatch(cls.kind) is None:
        raise _declaration_error(cls, f"bad kind {shorten(cls.kind)}: lowercase words joined by _")
    if "kind" not in cls.__dict__:
        raise _declaration_error(cls, f"it inherits kind {cls.kind!r}: give it a kind of its own")
    if not isinstance(cls.verb, str):
        raise _declaration_error(cls, f"bad verb {shorten(cls.verb)}: expected a string")


def _slot(cls: type[PlayerAction], token: str, codecs: Mapping[str, Codec]) -> str | Slot:
    """One token of a verb: a literal word, or a field's slot."""
    match = _SLOT.fullmatch(token)
    if match is None:
        if _WORD.fullmatch(token) is None:
            raise _declaration_error(cls, f"bad word {token!r} in verb {cls.verb!r}")
        return token
    if (match["open"] == "{") != (match["close"] == "}"):
        raise _declaration_error(cls, f"bad field {token!r} in verb {cls.verb!r}")
    name, declared = match["field"], match["declared"]
    codec = codecs.get(name)
    if codec is None or codec is Codec.MELDS:
        why = f"verb {cls.verb!r} names {name!r}, not a card, number, flag or end field"
        raise _declaration_error(cls, why)
    flag_words = None if match["no"] is None else (match["no"], match["yes"])
    if declared is not None and (
        codec is not Codec.CARD or codecs.get(declared) is not Codec.OPTIONAL_CARD
    ):
        why = f"{token!r}: only a card field may declare an optional card field"
        raise _declaration_error(cls, why)
    if (flag_words is None) == (codec is Codec.FLAG):
        why = f"{token!r}: a flag field, and only a flag, is written as two words a/b"
        raise _declaration_error(cls, why)
    if flag_words is not None and flag_words[0] == flag_words[1]:
        raise _declaration_error(cls, f"{token!r}: the two words must differ")
    optional = match["open"] == "["
    if optional and attrs.fields_dict(cls)[name].default is attrs.NOTHING:
        raise _declaration_error(cls, f"{token!r} is optional but the field has no default")
    return Slot(name, codec, optional=optional, declared=declared, words=flag_words)


def _melds_slot(cls: type[PlayerAction], text: str, codecs: Mapping[str, Codec]) -> str:
    """The melds field written after ``|``."""
    match = _SLOT.fullmatch(text.strip())
    if match is None or match["declared"] or match["no"]:
        raise _declaration_error(cls, f"bad verb {cls.verb!r}: '|' is followed by one {{field}}")
    name: str = match["field"]
    if codecs.get(name) is not Codec.MELDS:
        raise _declaration_error(cls, f"verb {cls.verb!r}: {name!r} after '|' is not melds")
    return name


def _check_blocks(cls: type[PlayerAction], codecs: Mapping[str, Codec]) -> None:
    for block in cls.env_blocks:
        if not isinstance(block, EnvBlock):
            raise _declaration_error(cls, f"env block {shorten(block)} is not an EnvBlock")
        wanted = _BLOCK_CODECS.get(block.parameter)
        if block.field is not None and (wanted is None or codecs.get(block.field) is not wanted):
            why = f"env block {block.name!r}: {block.field!r} is not a field it can number"
            raise _declaration_error(cls, why)


#: The field type each kind of env block numbers.
_BLOCK_CODECS: Final = {"card": Codec.CARD, "choice": Codec.FLAG, "count": Codec.WHOLE}


def _compile(cls: type[PlayerAction]) -> ActionSpec:
    _check_class(cls)
    codecs = _field_codecs(cls)
    head, bar, tail = cls.verb.partition("|")
    words = [_slot(cls, token, codecs) for token in head.split()]
    if not words:
        raise _declaration_error(cls, f"bad verb {shorten(cls.verb)}: it has no words")
    first = words[0]
    if not isinstance(first, str) and first.words is None:
        raise _declaration_error(cls, f"bad verb {cls.verb!r}: it starts with a word")
    seen = [
        name
        for part in words
        if isinstance(part, Slot)
        for name in (part.field, part.declared)
        if name is not None
    ]
    melds = _melds_slot(cls, tail, codecs) if bar else None
    if melds is not None:
        seen.append(melds)
    if sorted(seen) != sorted(codecs):
        why = f"verb {cls.verb!r} must name each field once ({', '.join(codecs)})"
        raise _declaration_error(cls, why)
    if cls.host_event and codecs:
        raise _declaration_error(cls, "a host event has no field but the player")
    _check_blocks(cls, codecs)
    optional = bool(bar) and tail.strip().startswith("[")
    return ActionSpec(cls, tuple(words), melds, tuple(codecs.items()), optional)


def register_action(cls: type[_A]) -> type[_A]:
    """Make an action class known to the whole library; returns it (a class decorator).

    Saved games, game records, notation, :mod:`rummylib.strategies`, ``rummylib play`` and the
    learning environments' action tables then read and write it. The class declares:

    * ``kind``: its saved-game name, its own (lowercase words joined by ``_``);
    * ``verb``: its record words with its fields: ``{card}`` a card, ``{n}`` a number,
      ``[n]`` a field left out at its default, ``{card=stands_for}`` a card that may declare
      what it stands for (``*=9h``), ``{accept:refuse/accept}`` a flag as one of two words, and
      at the end ``| {melds}`` for one or more melds (``| [melds]``: none allowed too).
      Every field but ``player`` is named once. Field types are ``Card``, ``Card | None``,
      ``int``, ``bool``, ``tuple[Meld, ...]`` and ``RunEnd | None``;
    * optionally ``env_blocks``; without them a class gets one block: a single number when it
      has no field, a card block for one card field, a choice for one flag, else none.

    Registering a class twice changes nothing; another class with a registered ``kind`` or the
    same verb is refused.

    >>> @register_action
    ... @attrs.frozen(kw_only=True)
    ... class Drop(PlayerAction):
    ...     kind = "doc_drop"
    ...     verb = "doc drop"
    >>> ACTION_TYPES["doc_drop"] is Drop, spec_of(Drop).usage
    (True, 'doc drop')
    >>> @attrs.frozen(kw_only=True)
    ... class Other(PlayerAction):
    ...     kind = "doc_drop"
    ...     verb = "doc other"
    >>> register_action(Other)
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: cannot register Other: kind 'doc_drop' is Drop's already
    >>> unregister_action(Drop)

    Raises:
        ConfigurationError: the declaration is incomplete or wrong, or clashes with a
            registered class; the message says which.
    """
    if isinstance(cls, type) and _SPECS.get(cls) is not None:
        return cls
    spec = _compile(cls)
    holder = ACTION_TYPES.get(cls.kind)
    if holder is not None:
        raise _declaration_error(cls, f"kind {cls.kind!r} is {holder.__name__}'s already")
    for other in _SPECS.values():
        if other.shape == spec.shape:
            why = f"verb {cls.verb!r} reads like {other.cls.__name__}'s {other.cls.verb!r}"
            raise _declaration_error(cls, why)
    if not cls.env_blocks:
        blocks = _default_blocks(spec)
        if blocks:
            type.__setattr__(cls, "env_blocks", blocks)
    _SPECS[cls] = spec
    if spec.melds is not None:
        _MELDS_FIELDS[cls] = spec.melds
    ACTION_TYPES[cls.kind] = cls
    _CLASSES.add(cls)
    for listener in _LISTENERS:
        listener(cls)
    return cls


def on_register(listener: Callable[[type[PlayerAction]], None]) -> None:
    """Call ``listener`` with each action class registered from now on.

    The Hypothesis plugin registers a strategy for each. Adding a listener again changes
    nothing.
    """
    if listener not in _LISTENERS:
        _LISTENERS.append(listener)


def unregister_action(cls: type[PlayerAction]) -> None:
    """Forget a class :func:`register_action` registered (tests; the built-in ones stay).

    Raises:
        ConfigurationError: ``cls`` is a built-in action or was never registered.
    """
    if cls in _BUILT_IN:
        raise _declaration_error(cls, "a built-in action cannot be unregistered")
    _MELDS_FIELDS.pop(cls, None)
    if _SPECS.pop(cls, None) is None:
        msg = f"{getattr(cls, '__name__', shorten(cls))} is not a registered action"
        raise ConfigurationError(msg)
    del ACTION_TYPES[cls.kind]
    _CLASSES.discard(cls)


def _default_blocks(spec: ActionSpec) -> tuple[EnvBlock, ...]:
    name, cls = spec.cls.kind, spec.cls
    if cls.host_event:
        return ()
    codecs = dict(spec.codecs)
    if not codecs:
        return (EnvBlock(name=name, meaning=spec.usage),)
    if len(codecs) == 1:
        ((field, codec),) = codecs.items()
        if codec is Codec.CARD:
            return (
                EnvBlock(
                    name=name,
                    parameter="card",
                    field=field,
                    meaning=f"{name.replace('_', ' ')} card c",
                ),
            )
        if codec is Codec.FLAG:
            return (EnvBlock(name=name, parameter="choice", field=field, meaning=spec.usage),)
    return ()


def spec_of(cls: type[PlayerAction]) -> ActionSpec:
    """The compiled declaration of a registered action class.

    >>> spec_of(Discard).usage
    'discard CARD'

    Raises:
        ConfigurationError: ``cls`` is not registered.
    """
    spec = _SPECS.get(cls)
    if spec is None:
        msg = (
            f"{getattr(cls, '__name__', shorten(cls))} is not a registered action (register_action)"
        )
        raise ConfigurationError(msg)
    return spec


def is_action(value: object) -> bool:
    """Whether ``value`` is an action of a registered class (never raises).

    >>> is_action(DrawStock(player=0)), is_action("draw")
    (True, False)
    """
    return value.__class__ in _CLASSES


def action_classes() -> Set[type]:
    """The registered action classes: the registry's own set, live (read it, never change it).

    >>> Discard in action_classes()
    True
    """
    return _CLASSES


def specs() -> tuple[ActionSpec, ...]:
    """Every registered action's declaration, in registration order."""
    return tuple(_SPECS.values())


_CLASSES: Final[set[type]] = set()
_LISTENERS: Final[list[Callable[[type[PlayerAction]], None]]] = []
_BUILT_IN: Final = (
    DrawStock,
    TakeDiscard,
    Discard,
    LayDown,
    LayOff,
    Rearrange,
    Knock,
    Pass,
    Rebuy,
    DeclineRebuy,
    TimeExpired,
    Disconnect,
    Reconnect,
)
for _cls in _BUILT_IN:
    register_action(_cls)


def canonical_action(action: Action) -> Action:
    """The action with every meld it carries in canonical order (R10), as history records it.

    Two ways of writing the same play (cards of a meld in another order) are then the same
    action, so the states they lead to are equal, history included.

    >>> from rummylib import MeldRules, parse_cards, parse_meld
    >>> action = LayDown(player=0, melds=[parse_meld("9h 7h 8h", MeldRules())])
    >>> canonical_action(action).melds[0].cards == parse_cards("7h 8h 9h")
    True
    """
    field = _MELDS_FIELDS.get(action.__class__)
    if field is None:
        return action
    melds = getattr(action, field)
    ordered = canonical_melds(melds)
    if ordered == melds:
        return action
    changes: dict[str, Any] = {field: ordered}
    return attrs.evolve(action, **changes)
    if isinstance(action, DeclareRummy | ShowMelds | LayDown):
        melds = canonical_melds(action.melds)
        return action if melds == action.melds else attrs.evolve(action, melds=melds)
    if isinstance(action, Rearrange):
        table = canonical_melds(action.table)
        return action if table == action.table else attrs.evolve(action, table=table)
    return action
