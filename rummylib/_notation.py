"""The token lines of a game record (:mod:`rummylib.records`): one parser, one writer.

Every line of a record's ``actions`` is one of three kinds, its actor first:

* a player's action, ``p1 draw stock 7h``, ``p3 discard 7h``, ``p2 layoff *=9h 0``;
* a host event, ``h timeout p2``, ``h disconnect p4``, ``h reconnect p4``;
* a dealer line saying how the cards lie after a shuffle, ``d deal 2``, ``d hand p1 Ah 2h …``,
  ``d open 5c``, ``d pile Kd``, ``d stock …``, ``d restock …``, or showing a hand at the count
  of a player's view (``d show p2 Kh 5d``).

Hidden cards (in a record of one player's view) are ``??``; ``??x13`` is thirteen of them.
The grammar, in EBNF, is on the spec page ``docs/reference/record-format.rst``; this module
is its only reader and writer. Parsing never builds more than a line's worth of cards.

>>> from rummylib.melds import MeldRules
>>> parse_line("p2 declare 5d | 7c 7d 7s | 2d 3d *=4d", rules=MeldRules(), players=3)
ActionLine(action=DeclareRummy(player=1, ...), drawn=None)
>>> parse_line("p1 draw", rules=MeldRules(), players=3)
Traceback (most recent call last):
...
rummylib.errors.NotationError: bad action 'p1 draw': expected 'draw stock'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final, TypeAlias

import attrs

from rummylib._settings import MAX_DECKS, MAX_JOKERS
from rummylib.actions import (
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
)
from rummylib.cards import Card, parse_card
from rummylib.errors import NotationError, RummyError, shorten
from rummylib.melds import Meld, MeldKind, MeldRules, RunEnd, parse_meld

__all__ = [
    "DEALER_KINDS",
    "HIDDEN",
    "MAX_CARDS",
    "MAX_LINE",
    "ActionLine",
    "DealerLine",
    "Item",
    "format_action",
    "format_cards",
    "format_dealer",
    "parse_line",
]

#: The most cards of any deck (four packs and 32 jokers): no line names more.
MAX_CARDS: Final = 52 * MAX_DECKS + MAX_JOKERS
#: The longest line read: every card of the largest deck written long (``*=10♥``), and room.
MAX_LINE: Final = MAX_CARDS * 8 + 200
#: The text of a hidden card.
HIDDEN: Final = "??"
#: The dealer lines, by their verb.
DEALER_KINDS: Final = ("deal", "hand", "open", "pile", "stock", "restock", "show")

_PLAYER: Final = re.compile(r"p([1-9][0-9]{0,2})")
_NUMBER: Final = re.compile(r"0|[1-9][0-9]{0,5}")
_HIDDEN_RUN: Final = re.compile(r"\?\?(?:x([1-9][0-9]*))?")

_HOST_EVENTS: Final[dict[str, type[TimeExpired | Disconnect | Reconnect]]] = {
    "timeout": TimeExpired,
    "disconnect": Disconnect,
    "reconnect": Reconnect,
}
_HOST_VERBS: Final = {cls: verb for verb, cls in _HOST_EVENTS.items()}
_Plain: TypeAlias = TakeOpenCard | GiveUp | ProposeFrish | Knock | Pass | Rebuy | DeclineRebuy
_PLAIN: Final[dict[str, type[_Plain]]] = {
    "take open": TakeOpenCard,
    "give up": GiveUp,
    "propose frish": ProposeFrish,
    "knock": Knock,
    "pass": Pass,
    "rebuy": Rebuy,
    "decline rebuy": DeclineRebuy,
}
_PLAIN_VERBS: Final = {cls: verb for verb, cls in _PLAIN.items()}


@attrs.frozen
class ActionLine:
    """A line naming an action; ``drawn`` is the card a ``draw stock`` line says was taken.

    >>> print(format_action(DrawStock(player=0), drawn=parse_card("7h")))
    p1 draw stock 7h
    """

    action: Action
    drawn: Card | None = None


@attrs.frozen
class DealerLine:
    """A dealer line: ``kind`` is its verb; ``cards`` holds ``None`` for each hidden card.

    >>> print(format_dealer(DealerLine("hand", player=1, cards=(None,) * 13)))
    d hand p2 ??x13
    """

    kind: str
    player: int | None = None
    number: int | None = None
    cards: tuple[Card | None, ...] = ()


#: One parsed line.
Item: TypeAlias = ActionLine | DealerLine


def _bad(what: str, line: str, why: str) -> NotationError:
    return NotationError(f"bad {what} {shorten(line, limit=60)}: {why}")


def _player(token: str, players: int, line: str) -> int:
    match = _PLAYER.fullmatch(token)
    if match is None:
        raise _bad("player", token, "players are written p1, p2, …")
    number = int(match.group(1))
    if number > players:
        msg = f"there is no player {token} at this {players}-seat table"
        raise NotationError(msg)
    return number - 1


def _number(token: str, what: str, line: str) -> int:
    if _NUMBER.fullmatch(token) is None:
        raise _bad("action", line, f"{what} must be a whole number such as 0 or 3")
    return int(token)


def _card(token: str, line: str) -> Card:
    if len(token) > 16:
        raise _bad("card", token, "expected one card such as '7h'")
    return parse_card(token)


def _cards(tokens: Sequence[str], line: str, *, hidden: bool) -> tuple[Card | None, ...]:
    cards: list[Card | None] = []
    for token in tokens:
        match = _HIDDEN_RUN.fullmatch(token)
        if match is not None:
            if not hidden:
                raise _bad("line", line, "a hidden card '??' cannot stand here")
            digits = match.group(1) or "1"
            if len(digits) > 3 or int(digits) > MAX_CARDS:
                raise _bad("hidden cards", token, f"at most {MAX_CARDS}, more than any deck")
            cards.extend([None] * int(digits))
        else:
            cards.append(_card(token, line))
        if len(cards) > MAX_CARDS:
            raise _bad("line", line, f"it names more than {MAX_CARDS} cards, more than any deck")
    return tuple(cards)


def _meld(text: str, rules: MeldRules, line: str) -> Meld:
    """A meld written ``Ah 2h *=3h``: read as written when every joker says what it stands for.

    The engine decides whether the meld is allowed where it is played; only a meld with an
    undeclared joker needs the table's rules to be read. A natural card may declare a card too
    (``7d=5s``, a wild card standing in): whether its rank is wild is the rules' question.
    """
    tokens = text.split()
    if not tokens:
        raise _bad("action", line, "a meld between '|' has no cards")
    if len(tokens) > MAX_CARDS:
        raise _bad("action", line, f"a meld of more than {MAX_CARDS} cards")
    cards: list[Card] = []
    stands: list[Card] = []
    for token in tokens:
        left, equals, right = token.partition("=")
        card = _card(left, line)
        if equals:
            natural = _card(right, line)
            if natural.is_joker:
                raise _bad("meld token", token, "a joker must stand for a natural card")
        elif card.is_joker or card.rank in rules.wild_ranks:
            return parse_meld(text, rules)  # a joker, or a wild card, left to the reading
        else:
            natural = card
        cards.append(card)
        stands.append(natural)
    kind = MeldKind.GROUP if len({card.rank for card in stands}) == 1 else MeldKind.RUN
    return Meld(kind, cards, stands)


def _melds(parts: Sequence[str], rules: MeldRules, line: str) -> tuple[Meld, ...]:
    return tuple(_meld(part, rules, line) for part in parts)


def parse_line(text: str, *, rules: MeldRules, players: int) -> Item:
    """Read one record line (without its quotes): an action, a host event or a dealer line.

    ``rules`` reads melds whose jokers do not say what they stand for; ``players`` is the
    number of seats, so ``p7`` at a four-seat table is refused here.

    >>> parse_line("h timeout p2", rules=MeldRules(), players=2)
    ActionLine(action=TimeExpired(player=1), drawn=None)
    >>> parse_line("d stock ??x3 7h", rules=MeldRules(), players=2).cards[-2:]
    (None, Card.parse('7h'))

    Raises:
        NotationError: the line does not follow the grammar; the message names it.
    """
    if len(text) > MAX_LINE:
        msg = f"bad line of {len(text)} characters: a line has at most {MAX_LINE}"
        raise NotationError(msg)
    head, *melds = text.split("|")
    tokens = head.split()
    if not tokens:
        raise _bad("line", text, "it is empty")
    actor, words = tokens[0], tokens[1:]
    try:
        if actor == "d":
            if melds:
                raise _bad("dealer line", text, "'|' has no place in a dealer line")
            return _dealer(words, text, players)
        if actor == "h":
            if melds or len(words) != 2 or words[0] not in _HOST_EVENTS:
                raise _bad(
                    "host event",
                    text,
                    "expected 'h timeout pN', 'h disconnect pN' or 'h reconnect pN'",
                )
            return ActionLine(_HOST_EVENTS[words[0]](player=_player(words[1], players, text)))
        player = _player(actor, players, text)
        return _action(player, words, melds, text, rules)
    except NotationError:
        raise
    except RummyError as error:  # a meld that cannot be read, a bad field
        raise _bad("action", text, str(error)) from None


def _dealer(words: Sequence[str], text: str, players: int) -> DealerLine:
    if not words or words[0] not in DEALER_KINDS:
        raise _bad("dealer line", text, f"expected d followed by one of {', '.join(DEALER_KINDS)}")
    kind, rest = words[0], words[1:]
    if kind == "deal":
        if len(rest) != 1:
            raise _bad("dealer line", text, "expected 'd deal N'")
        number = _number(rest[0], "a deal number", text)
        if number < 1:
            raise _bad("dealer line", text, "deals are numbered from 1")
        return DealerLine(kind, number=number)
    player = None
    if kind in {"hand", "show"}:
        if not rest:
            raise _bad("dealer line", text, f"expected 'd {kind} pN' and cards")
        player = _player(rest[0], players, text)
        rest = rest[1:]
    cards = _cards(rest, text, hidden=True)
    if kind == "open" and len(cards) != 1:
        raise _bad("dealer line", text, "expected 'd open' and one card")
    return DealerLine(kind, player=player, cards=cards)


def _action(  # noqa: PLR0911, PLR0912  (one branch per verb of the grammar)
    player: int, words: Sequence[str], melds: Sequence[str], text: str, rules: MeldRules
) -> ActionLine:
    verb = " ".join(words[:2])
    if not words:
        raise _bad("action", text, "a player's line needs a verb, such as 'discard 7h'")
    first = words[0]
    if first in {"declare", "show", "meld", "table"}:
        parsed = _melds(melds, rules, text)
        if first == "declare":
            if len(words) != 2:
                raise _bad("action", text, "expected 'declare CARD | meld | meld …'")
            return ActionLine(
                DeclareRummy(player=player, discard=_card(words[1], text), melds=parsed)
            )
        if len(words) != 1:
            raise _bad("action", text, f"expected '{first} | meld | meld …'")
        if first == "show":
            return ActionLine(ShowMelds(player=player, melds=parsed))
        if first == "meld":
            if not parsed:
                raise _bad("action", text, "'meld' needs at least one meld after '|'")
            return ActionLine(LayDown(player=player, melds=parsed))
        return ActionLine(Rearrange(player=player, table=parsed))
    if melds:
        raise _bad("action", text, f"'|' has no place after {first!r}")
    if first == "draw":
        if words[1:2] != ["stock"] or len(words) > 3:
            raise _bad("action", text, "expected 'draw stock'")
        drawn = None if len(words) == 2 else _card(words[2], text)
        return ActionLine(DrawStock(player=player), drawn=drawn)
    if verb == "take discard":
        if len(words) > 3:
            raise _bad("action", text, "expected 'take discard' or 'take discard N'")
        count = 1 if len(words) == 2 else _number(words[2], "the count", text)
        return ActionLine(TakeDiscard(player=player, count=count))
    if first == "discard":
        if len(words) != 2:
            raise _bad("action", text, "expected 'discard CARD'")
        return ActionLine(Discard(player=player, card=_card(words[1], text)))
    if first == "layoff":
        return ActionLine(_layoff(player, words, text))
    if first in {"accept", "refuse"} and words[1:] == ["frish"]:
        return ActionLine(AnswerFrish(player=player, accept=first == "accept"))
    cls = _PLAIN.get(" ".join(words))
    if cls is None:
        raise _bad("action", text, f"unknown verb {' '.join(words[:2])!r}; see the record format")
    return ActionLine(cls(player=player))


def _layoff(player: int, words: Sequence[str], text: str) -> LayOff:
    if len(words) not in {3, 4}:
        raise _bad("action", text, "expected 'layoff CARD INDEX' and maybe 'low' or 'high'")
    left, equals, right = words[1].partition("=")
    card = _card(left, text)
    stands = None
    if equals:
        if not card.is_joker:
            raise _bad("action", text, "only a joker may declare a card")
        stands = _card(right, text)
    index = _number(words[2], "the meld's index", text)
    end = None
    if len(words) == 4:
        if words[3] not in {"low", "high"}:
            raise _bad("action", text, "a lay-off ends with 'low' or 'high' if anything")
        end = RunEnd(words[3])
    return LayOff(player=player, card=card, meld_index=index, stands_for=stands, end=end)


def _melds_text(melds: Sequence[Meld]) -> str:
    return "".join(f" | {meld}" for meld in melds)


def format_action(  # noqa: PLR0911  (one branch per verb of the grammar)
    action: Action, *, drawn: Card | None = None
) -> str:
    """The record line of ``action``; ``drawn`` adds the card a stock draw took.

    >>> from rummylib.melds import MeldRules, parse_meld
    >>> rules = MeldRules()
    >>> print(format_action(LayDown(player=0, melds=[parse_meld("9s 9d *", rules)])))
    p1 meld | 9s 9d *=9c
    >>> print(format_action(LayOff(player=1, card=parse_card("Kh"), meld_index=0)))
    p2 layoff Kh 0
    """
    name = f"p{action.player + 1}"
    if isinstance(action, TimeExpired | Disconnect | Reconnect):
        return f"h {_HOST_VERBS[type(action)]} {name}"
    if isinstance(action, DrawStock):
        return f"{name} draw stock" + ("" if drawn is None else f" {drawn}")
    if isinstance(action, TakeDiscard):
        return f"{name} take discard" + ("" if action.count == 1 else f" {action.count}")
    if isinstance(action, Discard):
        return f"{name} discard {action.card}"
    if isinstance(action, DeclareRummy):
        return f"{name} declare {action.discard}{_melds_text(action.melds)}"
    if isinstance(action, ShowMelds):
        return f"{name} show{_melds_text(action.melds)}"
    if isinstance(action, LayDown):
        return f"{name} meld{_melds_text(action.melds)}"
    if isinstance(action, Rearrange):
        return f"{name} table{_melds_text(action.table)}"
    if isinstance(action, LayOff):
        card = str(action.card)
        if action.stands_for is not None:
            card += f"={action.stands_for}"
        end = "" if action.end is None else f" {action.end.value}"
        return f"{name} layoff {card} {action.meld_index}{end}"
    if isinstance(action, AnswerFrish):
        return f"{name} {'accept' if action.accept else 'refuse'} frish"
    return f"{name} {_PLAIN_VERBS[type(action)]}"


def format_cards(cards: Sequence[Card | None]) -> str:
    """Cards as a dealer line writes them, each run of hidden cards as ``??`` or ``??xN``.

    >>> format_cards([parse_card("7h"), None, None, parse_card("*")])
    '7h ??x2 *'
    """
    words: list[str] = []
    hidden = 0
    for card in cards:
        if card is None:
            hidden += 1
            continue
        if hidden:
            words.append(HIDDEN if hidden == 1 else f"{HIDDEN}x{hidden}")
            hidden = 0
        words.append(str(card))
    if hidden:
        words.append(HIDDEN if hidden == 1 else f"{HIDDEN}x{hidden}")
    return " ".join(words)


def format_dealer(line: DealerLine) -> str:
    """The text of a dealer line.

    >>> print(format_dealer(DealerLine("deal", number=2)))
    d deal 2
    """
    if line.kind == "deal":
        return f"d deal {line.number}"
    words = ["d", line.kind]
    if line.player is not None:
        words.append(f"p{line.player + 1}")
    if line.cards:
        words.append(format_cards(line.cards))
    return " ".join(words)
