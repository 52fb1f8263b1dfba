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

from typing import ClassVar, Final, TypeAlias

import attrs

from rummylib.cards import Card
from rummylib.errors import IllegalActionError, shorten
from rummylib.melds import Meld, RunEnd, canonical_melds

__all__ = [
    "ACTION_TYPES",
    "Action",
    "AnswerFrish",
    "DeclareRummy",
    "DeclineRebuy",
    "Discard",
    "Disconnect",
    "DrawStock",
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
    "ShowMelds",
    "TakeDiscard",
    "TakeOpenCard",
    "TimeExpired",
    "canonical_action",
]


def _player(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        msg = f"bad player {shorten(value)}: players are numbered 0, 1, 2, …"
        raise IllegalActionError(msg)


def _card(instance: object, attribute: attrs.Attribute[Card], value: object) -> None:
    if not isinstance(value, Card):
        msg = f"bad {attribute.name} {shorten(value)}: expected a Card"
        raise IllegalActionError(msg)


def _whole(instance: object, attribute: attrs.Attribute[int], value: object) -> None:
    # The type only: whether the number fits (a meld index, a count of cards) is for the rules.
    if isinstance(value, bool) or not isinstance(value, int):
        msg = f"bad {attribute.name} {shorten(value)}: expected a whole number"
        raise IllegalActionError(msg)


def _flag(instance: object, attribute: attrs.Attribute[bool], value: object) -> None:
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


def _melds(value: object) -> tuple[Meld, ...]:
    if isinstance(value, Meld) or not isinstance(value, list | tuple):
        msg = f"bad melds {shorten(value)}: expected a sequence of Meld"
        raise IllegalActionError(msg)
    for meld in value:
        if not isinstance(meld, Meld):
            msg = f"bad meld {shorten(meld)}: expected a Meld"
            raise IllegalActionError(msg)
    return tuple(value)


@attrs.frozen(kw_only=True)
class PlayerAction:
    """What every action has: the player who acts (0-based).

    >>> DrawStock(player=-1)
    Traceback (most recent call last):
    ...
    rummylib.errors.IllegalActionError: bad player -1: players are numbered 0, 1, 2, …
    """

    player: int = attrs.field(validator=_player)

    #: The action's name in saved games.
    kind: ClassVar[str] = ""


@attrs.frozen(kw_only=True)
class DrawStock(PlayerAction):
    """Take the top card of the stock.

    >>> DrawStock(player=0).player
    0
    """

    kind: ClassVar[str] = "draw_stock"


@attrs.frozen(kw_only=True)
class TakeDiscard(PlayerAction):
    """Take the top discard; with ``count`` > 1 that many cards from the top (classic 500).

    >>> TakeDiscard(player=2, count=3).count
    3
    """

    kind: ClassVar[str] = "take_discard"
    count: int = attrs.field(default=1, validator=_whole)


@attrs.frozen(kw_only=True)
class TakeOpenCard(PlayerAction):
    """Take the Israeli open card, during the first go-around of a deal.

    >>> TakeOpenCard(player=1)
    TakeOpenCard(player=1)
    """

    kind: ClassVar[str] = "take_open_card"


@attrs.frozen(kw_only=True)
class Discard(PlayerAction):
    """End the turn by putting a card from hand on the discard pile.

    >>> from rummylib import parse_card
    >>> str(Discard(player=0, card=parse_card("Kd")).card)
    'Kd'
    """

    kind: ClassVar[str] = "discard"
    card: Card = attrs.field(validator=_card)


@attrs.frozen(kw_only=True)
class DeclareRummy(PlayerAction):
    """Declare Rummy: discard the finishing card and show the rest of the hand as melds.

    >>> from rummylib import MeldRules, parse_card, parse_meld
    >>> rules = MeldRules()
    >>> action = DeclareRummy(
    ...     player=0, discard=parse_card("Kd"), melds=[parse_meld("7h 8h 9h", rules)]
    ... )
    >>> len(action.melds)
    1
    """

    kind: ClassVar[str] = "declare_rummy"
    discard: Card = attrs.field(validator=_card)
    melds: tuple[Meld, ...] = attrs.field(converter=_melds)


@attrs.frozen(kw_only=True)
class ShowMelds(PlayerAction):
    """After a declaration, show how one's own hand splits into melds.

    >>> ShowMelds(player=1, melds=()).melds
    ()
    """

    kind: ClassVar[str] = "show_melds"
    melds: tuple[Meld, ...] = attrs.field(converter=_melds)


@attrs.frozen(kw_only=True)
class GiveUp(PlayerAction):
    """End one's post-declaration window without showing melds.

    >>> GiveUp(player=1)
    GiveUp(player=1)
    """

    kind: ClassVar[str] = "give_up"


@attrs.frozen(kw_only=True)
class ProposeFrish(PlayerAction):
    """Propose doubling the deal multiplier (Israeli Frish).

    >>> ProposeFrish(player=0)
    ProposeFrish(player=0)
    """

    kind: ClassVar[str] = "propose_frish"


@attrs.frozen(kw_only=True)
class AnswerFrish(PlayerAction):
    """Accept or refuse a Frish proposal.

    >>> AnswerFrish(player=2, accept=False).accept
    False
    """

    kind: ClassVar[str] = "answer_frish"
    accept: bool = attrs.field(validator=_flag)


@attrs.frozen(kw_only=True)
class LayDown(PlayerAction):
    """Put new melds from hand on the table.

    >>> from rummylib import MeldRules, parse_meld
    >>> LayDown(player=0, melds=[parse_meld("7h 7d 7s", MeldRules())]).melds[0].rank
    <Rank.SEVEN: 7>
    """

    kind: ClassVar[str] = "lay_down"
    melds: tuple[Meld, ...] = attrs.field(converter=_melds)


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
    card: Card = attrs.field(validator=_card)
    meld_index: int = attrs.field(validator=_whole)
    stands_for: Card | None = attrs.field(default=None, validator=attrs.validators.optional(_card))
    end: RunEnd | None = attrs.field(default=None, converter=_end)


@attrs.frozen(kw_only=True)
class Rearrange(PlayerAction):
    """A Carousel meld action: the complete new table.

    >>> Rearrange(player=0, table=()).table
    ()
    """

    kind: ClassVar[str] = "rearrange"
    table: tuple[Meld, ...] = attrs.field(converter=_melds)


@attrs.frozen(kw_only=True)
class Knock(PlayerAction):
    """Carousel: end the deal holding few enough points.

    >>> Knock(player=1)
    Knock(player=1)
    """

    kind: ClassVar[str] = "knock"


@attrs.frozen(kw_only=True)
class Pass(PlayerAction):
    """Decline an optional action.

    >>> Pass(player=0)
    Pass(player=0)
    """

    kind: ClassVar[str] = "pass"


@attrs.frozen(kw_only=True)
class Rebuy(PlayerAction):
    """Re-enter the match after an elimination, paying the stake it costs.

    >>> Rebuy(player=3)
    Rebuy(player=3)
    """

    kind: ClassVar[str] = "rebuy"


@attrs.frozen(kw_only=True)
class DeclineRebuy(PlayerAction):
    """Refuse an optional rebuy and watch the rest of the match as a spectator.

    >>> DeclineRebuy(player=3)
    DeclineRebuy(player=3)
    """

    kind: ClassVar[str] = "decline_rebuy"


@attrs.frozen(kw_only=True)
class TimeExpired(PlayerAction):
    """Host event: the player's clock (grace included) ran out.

    >>> TimeExpired(player=1)
    TimeExpired(player=1)
    """

    kind: ClassVar[str] = "time_expired"


@attrs.frozen(kw_only=True)
class Disconnect(PlayerAction):
    """Host event: the player lost their connection.

    >>> Disconnect(player=1)
    Disconnect(player=1)
    """

    kind: ClassVar[str] = "disconnect"


@attrs.frozen(kw_only=True)
class Reconnect(PlayerAction):
    """Host event: a disconnected player is back.

    >>> Reconnect(player=1)
    Reconnect(player=1)
    """

    kind: ClassVar[str] = "reconnect"


#: Any action (the union of the action classes above).
Action: TypeAlias = (
    DrawStock
    | TakeDiscard
    | TakeOpenCard
    | Discard
    | DeclareRummy
    | ShowMelds
    | GiveUp
    | ProposeFrish
    | AnswerFrish
    | LayDown
    | LayOff
    | Rearrange
    | Knock
    | Pass
    | Rebuy
    | DeclineRebuy
    | TimeExpired
    | Disconnect
    | Reconnect
)

#: Every action class, by its saved-game name.
ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        DrawStock,
        TakeDiscard,
        TakeOpenCard,
        Discard,
        DeclareRummy,
        ShowMelds,
        GiveUp,
        ProposeFrish,
        AnswerFrish,
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
}


_CARRY_MELDS: Final = (DeclareRummy, ShowMelds, LayDown, Rearrange)


def canonical_action(action: Action) -> Action:
    """The action with every meld it carries in canonical order (R10), as history records it.

    Two ways of writing the same play (cards of a meld in another order) are then the same
    action, so the states they lead to are equal, history included.

    >>> from rummylib import MeldRules, parse_cards, parse_meld
    >>> action = LayDown(player=0, melds=[parse_meld("9h 7h 8h", MeldRules())])
    >>> canonical_action(action).melds[0].cards == parse_cards("7h 8h 9h")
    True
    """
    if not isinstance(action, _CARRY_MELDS):
        return action
    if isinstance(action, DeclareRummy | ShowMelds | LayDown):
        melds = canonical_melds(action.melds)
        return action if melds == action.melds else attrs.evolve(action, melds=melds)
    if isinstance(action, Rearrange):
        table = canonical_melds(action.table)
        return action if table == action.table else attrs.evolve(action, table=table)
    return action
