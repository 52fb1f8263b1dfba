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
>>> from rummylib.variants import israeli  # its module registers the Israeli moves
>>> parse_line("p2 declare 5d | 7c 7d 7s | 2d 3d *=4d", rules=MeldRules(), players=3)
ActionLine(action=DeclareRummy(player=1, ...), drawn=None, face_down=False)
>>> parse_line("p1 draw", rules=MeldRules(), players=3)
Traceback (most recent call last):
...
rummylib.errors.NotationError: bad action 'p1 draw': expected 'draw stock'
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from typing import Final, TypeAlias

import attrs

from rummylib._settings import MAX_DECKS, MAX_JOKERS
from rummylib.actions import Action, ActionSpec, Codec, Slot, spec_of, specs
from rummylib.cards import JOKER, Card, parse_card
from rummylib.errors import NotationError, RummyError, shorten
from rummylib.melds import Meld, MeldKind, MeldRules, RunEnd
from rummylib.tiles import CARD_NOTATION, Notation, read_meld

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
DEALER_KINDS: Final = ("deal", "hand", "open", "aside", "pile", "stock", "restock", "show")

_PLAYER: Final = re.compile(r"p([1-9][0-9]{0,2})")
_NUMBER: Final = re.compile(r"0|[1-9][0-9]{0,5}")
_HIDDEN_RUN: Final = re.compile(r"\?\?(?:x([1-9][0-9]*))?")


@attrs.frozen
class ActionLine:
    """A line naming an action; ``drawn`` is the card a ``draw stock`` line says was taken.

    >>> from rummylib.actions import DrawStock
    >>> print(format_action(DrawStock(player=0), drawn=parse_card("7h")))
    p1 draw stock 7h
    """

    action: Action
    drawn: Card | None = None
    #: Whether the action's face-down card (:attr:`~rummylib.actions.PlayerAction.face_down`)
    #: is written ``??``: the action holds a joker in its place, for the replay to settle.
    face_down: bool = False


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


def _card(token: str, line: str, notation: Notation = CARD_NOTATION) -> Card:
    if len(token) > 16:
        example = notation.card(parse_card("7h"))
        raise _bad(notation.noun, token, f"expected one {notation.noun} such as {example!r}")
    return notation.parse(token)


def _cards(
    tokens: Sequence[str], line: str, *, hidden: bool, notation: Notation = CARD_NOTATION
) -> tuple[Card | None, ...]:
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
            cards.append(_card(token, line, notation))
        if len(cards) > MAX_CARDS:
            raise _bad("line", line, f"it names more than {MAX_CARDS} cards, more than any deck")
    return tuple(cards)


def _meld(text: str, rules: MeldRules, line: str, notation: Notation = CARD_NOTATION) -> Meld:
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
        card = _card(left, line, notation)
        if equals:
            natural = _card(right, line, notation)
            if natural.is_joker:
                raise _bad("meld token", token, "a joker must stand for a natural card")
        elif card.is_joker or card.rank in rules.wild_ranks:
            return read_meld(text, rules, notation)  # a joker, or a wild card: its reading
        else:
            natural = card
        cards.append(card)
        stands.append(natural)
    kind = MeldKind.GROUP if len({card.rank for card in stands}) == 1 else MeldKind.RUN
    return Meld(kind, cards, stands)


def _melds(
    parts: Sequence[str], rules: MeldRules, line: str, notation: Notation
) -> tuple[Meld, ...]:
    return tuple(_meld(part, rules, line, notation) for part in parts)


def parse_line(
    text: str, *, rules: MeldRules, players: int, notation: Notation = CARD_NOTATION
) -> Item:
    """Read one record line (without its quotes): an action, a host event or a dealer line.

    ``rules`` reads melds whose jokers do not say what they stand for; ``players`` is the
    number of seats, so ``p7`` at a four-seat table is refused here; ``notation`` reads the
    cards (a variant's :attr:`~rummylib.engine.Variant.notation`, tiles for Rummikub).

    >>> parse_line("h timeout p2", rules=MeldRules(), players=2)
    ActionLine(action=TimeExpired(player=1), drawn=None, face_down=False)
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
            return _dealer(words, text, players, notation)
        if actor == "h":
            return _host_event(words, melds, text, players)
        player = _player(actor, players, text)
        return _action(player, words, melds, text, rules, notation)
    except NotationError:
        raise
    except RummyError as error:  # a meld that cannot be read, a bad field
        raise _bad("action", text, str(error)) from None


def _dealer(words: Sequence[str], text: str, players: int, notation: Notation) -> DealerLine:
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
    cards = _cards(rest, text, hidden=True, notation=notation)
    if kind == "open" and len(cards) != 1:
        raise _bad("dealer line", text, "expected 'd open' and one card")
    return DealerLine(kind, player=player, cards=cards)


def _host_event(words: Sequence[str], melds: Sequence[str], text: str, players: int) -> ActionLine:
    events = [spec for spec in specs() if spec.cls.host_event]
    for spec in events:
        if not melds and len(words) == 2 and words[0] == spec.words[0]:
            return ActionLine(spec.cls(player=_player(words[1], players, text)))
    usage = ", ".join(f"'h {spec.usage} pN'" for spec in events)
    raise _bad("host event", text, f"expected one of {usage}")


#: How a number field is named in a refusal (otherwise "the" and its name in words).
_FIELD_WORDS: Final = {"meld_index": "the meld's index"}


class _NoMatch(Exception):  # noqa: N818  (a control-flow signal: this verb does not fit)
    """The words do not fit a verb; ``why`` says how, where the verb's first word fitted."""

    def __init__(self, why: str | None = None) -> None:
        super().__init__(why)
        self.why = why


def _first_words(spec: ActionSpec) -> tuple[str, ...]:
    first = spec.words[0]
    if isinstance(first, str):
        return (first,)
    assert first.words is not None  # a verb starts with a word or a flag's words
    return first.words


def _read_slot(  # noqa: PLR0917  (a private reader with one caller)
    slot: Slot,
    tokens: list[str],
    values: dict[str, object],
    spec: ActionSpec,
    text: str,
    notation: Notation,
) -> None:
    """Read ``slot`` from the front of ``tokens`` into ``values`` (raises _NoMatch)."""
    if not tokens:
        if slot.optional:
            return
        raise _NoMatch(f"expected '{spec.usage}'")
    token = tokens[0]
    codec = slot.codec
    if slot.words is not None:
        if token not in slot.words:
            raise _NoMatch(f"expected '{spec.usage}'")
        values[slot.field] = token == slot.words[1]
    elif codec is Codec.WHOLE:
        if _NUMBER.fullmatch(token) is None:
            words = _FIELD_WORDS.get(slot.field, "the " + slot.field.replace("_", " "))
            raise _NoMatch(f"{words} must be a whole number such as 0 or 3")
        values[slot.field] = int(token)
    elif codec is Codec.END:
        if token not in {"low", "high"}:
            raise _NoMatch(f"expected '{spec.usage}': an end is 'low' or 'high'")
        values[slot.field] = RunEnd(token)
    elif token == HIDDEN and slot.field == spec.cls.face_down:
        values[slot.field] = JOKER  # a stand-in: the card lies face down (see ActionLine)
        values[_FACE_DOWN] = True
    else:  # a card, perhaps declaring another after '='
        left, equals, right = token.partition("=")
        if equals and slot.declared is None:
            raise _NoMatch(f"{token!r}: only a meld or a lay-off declares a card")
        values[slot.field] = _card(left, text, notation)
        if equals:
            assert slot.declared is not None
            values[slot.declared] = _card(right, text, notation)
    del tokens[0]


def _match(  # noqa: PLR0917  (a private reader with one caller)
    spec: ActionSpec,
    player: int,
    words: Sequence[str],
    melds: Sequence[str],
    text: str,
    rules: MeldRules,
    notation: Notation,
) -> ActionLine:
    """Read the line as ``spec``'s verb, or raise _NoMatch."""
    tokens = list(words)
    values: dict[str, object] = {}
    for part in spec.words:
        if isinstance(part, str):
            if not tokens or tokens[0] != part:
                raise _NoMatch(f"expected '{spec.usage}'")
            del tokens[0]
        else:
            _read_slot(part, tokens, values, spec, text, notation)
    drawn = None
    if spec.cls.shows_drawn and len(tokens) == 1:
        drawn = _card(tokens.pop(), text, notation)
    if tokens:
        raise _NoMatch(f"expected '{spec.usage}'")
    if spec.melds is None:
        if melds:
            raise _NoMatch(f"'|' has no place after {spec.usage!r}")
    else:
        if not melds and not spec.melds_optional:
            raise _NoMatch(f"{spec.words[0]!r} needs at least one meld after '|'")
        values[spec.melds] = _melds(melds, rules, text, notation)
    face_down = bool(values.pop(_FACE_DOWN, False))
    return ActionLine(spec.cls(player=player, **values), drawn=drawn, face_down=face_down)


def _action(  # noqa: PLR0917  (a private reader with one caller)
    player: int,
    words: Sequence[str],
    melds: Sequence[str],
    text: str,
    rules: MeldRules,
    notation: Notation,
) -> ActionLine:
    if not words:
        raise _bad("action", text, "a player's line needs a verb, such as 'discard 7h'")
    reasons: list[str] = []
    for spec in specs():
        if spec.cls.host_event or words[0] not in _first_words(spec):
            continue
        try:
            return _match(spec, player, words, melds, text, rules, notation)
        except _NoMatch as refusal:
            if refusal.why is not None and refusal.why not in reasons:
                reasons.append(refusal.why)
    if not reasons:
        raise _bad("action", text, f"unknown verb {' '.join(words[:2])!r}; see the record format")
    raise _bad("action", text, " or ".join(reasons))


def _melds_text(melds: Sequence[Meld], notation: Notation = CARD_NOTATION) -> str:
    return "".join(f" | {notation.meld(meld)}" for meld in melds)


#: The key under which a read slot notes a face-down card written ``??``.
_FACE_DOWN: Final = "\0face_down"


def format_action(  # noqa: PLR0912  (one branch per kind of slot)
    action: Action,
    *,
    drawn: Card | None = None,
    face_down: bool = False,
    notation: Notation = CARD_NOTATION,
) -> str:
    """The record line of ``action``; ``drawn`` adds the card a stock draw took.

    With ``face_down``, the card the action sets face down is written ``??`` (a record of
    another player's view). ``notation`` writes the cards (tiles for Rummikub).

    Written from the action's declared ``verb`` (:func:`~rummylib.actions.register_action`).

    >>> from rummylib.actions import LayDown, LayOff
    >>> from rummylib.melds import MeldRules, parse_meld
    >>> rules = MeldRules()
    >>> print(format_action(LayDown(player=0, melds=[parse_meld("9s 9d *", rules)])))
    p1 meld | 9s 9d *=9c
    >>> print(format_action(LayOff(player=1, card=parse_card("Kh"), meld_index=0)))
    p2 layoff Kh 0
    """
    spec = spec_of(type(action))
    name = f"p{action.player + 1}"
    if spec.cls.host_event:
        return f"h {spec.words[0]} {name}"
    words = [name]
    for part in spec.words:
        if isinstance(part, str):
            words.append(part)
            continue
        value = getattr(action, part.field)
        if face_down and part.field == spec.cls.face_down:
            words.append(HIDDEN)
            continue
        if part.words is not None:
            words.append(part.words[1] if value else part.words[0])
            continue
        if part.optional and value == attrs.fields_dict(spec.cls)[part.field].default:
            continue
        if isinstance(value, Card):
            text = notation.card(value)
        elif isinstance(value, enum.Enum):
            text = str(value.value)
        else:
            text = str(value)
        if part.declared is not None:
            declared = getattr(action, part.declared)
            if declared is not None:
                text += f"={notation.card(declared)}"
        words.append(text)
    if drawn is not None and spec.cls.shows_drawn:
        words.append(notation.card(drawn))
    line = " ".join(words)
    if spec.melds is not None:
        line += _melds_text(getattr(action, spec.melds), notation)
    return line


def format_cards(cards: Sequence[Card | None], notation: Notation = CARD_NOTATION) -> str:
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
        words.append(notation.card(card))
    if hidden:
        words.append(HIDDEN if hidden == 1 else f"{HIDDEN}x{hidden}")
    return " ".join(words)


def format_dealer(line: DealerLine, notation: Notation = CARD_NOTATION) -> str:
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
        words.append(format_cards(line.cards, notation))
    return " ".join(words)
