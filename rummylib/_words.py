"""The terminal game's words: moves, prompts, refusals and help as a player would say them.

``rummylib play`` reads a move as a record line without its player (``discard 7h``); this
module turns the engine's facts into a player's words. Each action kind has a phrase
(``draw from the stock``, ``take the 7h``), a phase may have a lead saying what it is for (gin's
lay-off step), and a prompt joins the phrases of the kinds a player may play now:

>>> from rummylib import new_game
>>> state = new_game("gin", players=2, seed=1)
>>> prompt(state, 0)
'the first upcard: take the 4c or pass'
>>> read_move(state, "dicsard 4c", 0)
Traceback (most recent call last):
...
rummylib.errors.IllegalActionError: there is no move 'dicsard' in Gin Rummy; did you mean ...

A plugin's own kinds are named by their record verb (``fold``).

The words that ``play``, ``rummylib check``, ``rummylib variants`` and the web lobby share live
here too, so that they say one thing: how ``check`` reads a meld and answers
(:func:`checked_meld`, :func:`describe_meld`) and what a setting may be
(:func:`setting_values`).
"""

from __future__ import annotations

import difflib
import enum
import json
import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import Final

import attrs

from rummylib._notation import ActionLine, format_action, parse_line
from rummylib._settings import WholeRange
from rummylib.actions import (
    Action,
    DeclineRebuy,
    Discard,
    DrawStock,
    Knock,
    LayDown,
    LayOff,
    Pass,
    Rearrange,
    Rebuy,
    TakeDiscard,
    specs,
)
from rummylib.cards import Card
from rummylib.engine import Variant
from rummylib.errors import IllegalActionError, InvalidMeldError, RummyError
from rummylib.melds import Meld, MeldRules, parse_meld
from rummylib.state import GameState
from rummylib.tiles import CARD_NOTATION, Notation, read_meld

__all__ = [
    "COMMANDS",
    "checked_meld",
    "clean",
    "commands",
    "describe_meld",
    "help_text",
    "moves_of",
    "phrase",
    "prompt",
    "read_move",
    "setting_text",
    "setting_values",
    "suggest",
]


def commands(notation: Notation = CARD_NOTATION) -> dict[str, str]:
    """The commands of ``rummylib play`` that are not moves, in the words of ``notation``.

    Each command maps to what it does; a tile variant's say tiles, sets, a rack, numbers and
    colours where a card variant's say cards, melds, a hand, ranks and suits:

    >>> from rummylib.tiles import TILE_NOTATION
    >>> commands(TILE_NOTATION)["777 | 789"]
    'sort your rack by number / by colour'
    >>> commands()["check CARDS"]
    'is this a meld at this table?'
    """
    return {
        "help": "this list",
        "moves": "every legal move, as you may type it",
        f"check {notation.noun.upper()}S": f"is this a {notation.meld_noun} at this table?",
        "777 | 789": f"sort your {notation.hand} by {notation.rank} / by {notation.suit}",
        "save FILE": "write the game record",
        "quit": "stop",
    }


#: The commands of ``rummylib play`` that are not moves, in the card notation's words
#: (:func:`commands` gives them in a variant's).
COMMANDS: Final = commands(CARD_NOTATION)


#: The card of the help's example of a declared joker (``*=Ks``, ``*=k13``).
_KING_OF_SPADES: Final = Card.parse("Ks")

_CONTROL: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean(text: str) -> str:
    r"""``text`` with every control character written as an escape (``\\x1b``), never raw.

    Input echoed back must not carry terminal escape sequences (issue 30, item 4).

    >>> print(clean("draw stock\x1b[2J"))
    draw stock\x1b[2J
    """
    text = _CONTROL.sub(lambda match: f"\\x{ord(match.group()):02x}", text)
    return "".join(
        char if unicodedata.category(char) not in {"Cf", "Cs", "Co"} else f"\\u{ord(char):04x}"
        for char in text
    )


def _top(state: GameState) -> str:
    return state.variant.notation.card(state.discard_pile[-1]) if state.discard_pile else "discard"


def _take(state: GameState, actions: Sequence[Action]) -> str:
    counts = sorted({action.count for action in actions if isinstance(action, TakeDiscard)})
    if counts and counts[-1] > 1:
        return f"take the {_top(state)} (or more of the discard pile: take discard N)"
    return f"take the {_top(state)}"


#: A phrase per action kind of :mod:`rummylib.actions`: what playing it means, in a player's
#: words. A variant says its own kinds, and any it says differently, through
#: :meth:`~rummylib.engine.Variant.move_words`.
_PHRASES: Final[dict[type[Action], Callable[[GameState, Sequence[Action]], str]]] = {
    DrawStock: lambda state, actions: "draw from the stock",
    TakeDiscard: _take,
    Discard: lambda state, actions: "discard a card",
    LayDown: lambda state, actions: "lay down melds",
    LayOff: lambda state, actions: "lay off a card on a table meld",
    Rearrange: lambda state, actions: "play to the table (write the whole new table)",
    Knock: lambda state, actions: "knock",
    Pass: lambda state, actions: "pass",
    Rebuy: lambda state, actions: "buy back into the match",
    DeclineRebuy: lambda state, actions: "leave the match",
}


def _usage(kind: type[Action]) -> str:
    """The kind's record form, ``discard CARD``."""
    for spec in specs():
        if spec.cls is kind:
            return spec.usage
    return kind.verb


def phrase(state: GameState, kind: type[Action], actions: Sequence[Action] = ()) -> str:
    """What playing ``kind`` now means, in a player's words: the variant's, else the front end's.

    A kind neither knows is named by its record verb.
    """
    said = state.variant.move_words(state, kind, actions)
    if said is not None:
        return said
    words = _PHRASES.get(kind)
    if words is None:
        return _words_of(kind)
    if not actions and kind in {LayOff, TakeDiscard, Rebuy}:
        return {LayOff: "lay off", TakeDiscard: "take a discard", Rebuy: "buy back in"}[kind]
    return words(state, actions)


def moves_of(state: GameState, player: int) -> dict[type[Action], list[Action]]:
    """The player's legal moves now, by kind, in the engine's order."""
    kinds: dict[type[Action], list[Action]] = {}
    for action in state.legal_actions(player):
        kinds.setdefault(type(action), []).append(action)
    return kinds


def _join(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def prompt(state: GameState, player: int) -> str:
    """What the player may do now: ``take the 7h or draw from the stock``."""
    lead, words = _prompt_parts(state, player)
    return words if lead is None else f"{lead}: {words}"


def choices(state: GameState, player: int) -> str:
    """The prompt's moves without the phase's words: ``take the 7h or draw from the stock``.

    The web table shows the phase's words among the facts and these after "your move".
    """
    return _prompt_parts(state, player)[1]


def _prompt_parts(state: GameState, player: int) -> tuple[str | None, str]:
    kinds = moves_of(state, player)
    if not kinds:
        return None, "no moves now: it is not your turn"
    words = _join([phrase(state, kind, actions) for kind, actions in kinds.items()])
    return state.variant.phase_words(state), words


def _refusal(state: GameState, player: int, reason: str) -> IllegalActionError:
    lead, words = _prompt_parts(state, player)
    where = "" if lead is None else f" ({lead})"
    return IllegalActionError(f"{reason}{where}; {words}")


def _example(action: Action, state: GameState | None = None) -> str:
    notation = state.variant.notation if state is not None else CARD_NOTATION
    return format_action(action, notation=notation).removeprefix(f"p{action.player + 1} ")


def help_text(state: GameState, player: int) -> str:
    """This variant's moves in the phase at hand, an example of each, then the commands."""
    title = state.variant.title or state.variant.name
    kinds = moves_of(state, player)
    lines = []
    if kinds:
        lines.append(f"{title}, now: {prompt(state, player)}")
        lines.append("Moves (a record line without 'p1'):")
        for kind, actions in kinds.items():
            form = _usage(kind)
            lines.append(f"  {form:<28} {phrase(state, kind, actions)}")
            example = _example(actions[0], state)
            short = example.split()[0]
            if short != example and complete_move(state, short, player) == actions[0]:
                example += f" (or only: {short})"  # the one move the word can mean now
            lines.append(f"  {'':<28} for example: {example}")
    else:
        lines.append(f"{title}: no moves now")
    notation = state.variant.notation
    if any("| meld" in _usage(kind) for kind in kinds):  # a move that writes melds
        king = notation.card(_KING_OF_SPADES)
        lines.append(
            f"  {notation.meld_noun}s are separated by '|'; '*={king}' says a joker stands for"
            f" {king}"
        )
    lines.append("Other commands:")
    lines.extend(f"  {command:<28} {what}" for command, what in commands(notation).items())
    return "\n".join(lines)


def _words_of(kind: type[Action]) -> str:
    head = kind.verb.split("|")[0]
    return " ".join(word for word in head.split() if not word.startswith(("{", "[")))


def _verbs(kinds: Sequence[type[Action]]) -> list[str]:
    """The first words of the kinds' record forms (``discard``, ``accept``, ``refuse``)."""
    return sorted({word for kind in kinds for word in _usage(kind).split()[0].split("|")})


def has_discard_pile(variant: type[Variant]) -> bool:
    """Whether some phase of the variant lists a discard (Carousel and Rummikub have none).

    >>> from rummylib.variants import get_variant
    >>> has_discard_pile(type(get_variant("gin"))), has_discard_pile(type(get_variant("rummikub")))
    (True, False)
    """
    return any(Discard in kinds for kinds in variant.phase_actions.values())


def wild_cards(cards: Sequence[Card], rules: MeldRules) -> list[Card]:
    """The natural cards of ``cards`` whose rank is wild for the deal (the Indian wild card).

    Jokers are left out: their face says what they are. ``play`` and the web table name these
    cards beside the hand, where a player would otherwise have to compare every rank with the
    facts line ("wild card: Qh (every Q is wild)").

    >>> from rummylib import parse_cards
    >>> from rummylib.cards import Rank
    >>> wild_cards(parse_cards("Qh 2d * Qs"), MeldRules(wild_ranks={Rank.QUEEN}))
    [Card.parse('Qh'), Card.parse('Qs')]
    """
    wild = rules.wild_ranks
    return [card for card in cards if not card.is_joker and card.rank in wild] if wild else []


def _alternatives(moves: Sequence[str]) -> str:
    return " or ".join(repr(move) for move in moves)


def suggest(state: GameState, text: str, player: int) -> list[str]:
    """The moves nearest to a line that is none: legal moves it begins, then a mended verb.

    >>> from rummylib import new_game
    >>> state = new_game("rummy101", players=2, seed=3)
    >>> suggest(state, "take", 0), suggest(state, "drwa stock", 0)
    (['take open'], ['draw stock'])
    """
    typed = text.split()
    if not typed:
        return []
    legal = [_example(action, state) for action in state.legal_actions(player)]
    begun = [move for move in legal if move.lower().startswith(" ".join(typed).lower())]
    if begun:
        return begun[:3]
    verbs = _verbs(sorted(_variant_kinds(state), key=lambda kind: kind.kind))
    near = difflib.get_close_matches(typed[0].lower(), verbs, n=2, cutoff=0.6)
    mended = [" ".join([verb, *typed[1:]]) for verb in near]
    lowered = {move.lower(): move for move in legal}
    found = [lowered[line.lower()] for line in mended if line.lower() in lowered]
    return found or mended


def _variant_kinds(state: GameState) -> set[type[Action]]:
    return {kind for kinds in type(state.variant).phase_actions.values() for kind in kinds}


def read_move(state: GameState, text: str, player: int) -> Action:
    """Read a move (a record line, with or without ``pN``) and check it is legal now.

    Raises:
        IllegalActionError: the line is no move, or not a legal one now; the message says
            why in a player's words, with the nearest moves when the line looks mistyped.
    """
    own = f"p{player + 1} "
    line = text.strip().removeprefix(own)
    title = state.variant.title or state.variant.name
    completed = complete_move(state, line, player)
    if completed is not None:
        return completed
    try:
        item = parse_line(
            own + line,
            rules=state.meld_rules,
            players=state.player_count,
            notation=state.variant.notation,
        )
    except RummyError as error:
        typed = line.split()
        first = typed[0].lower() if typed else ""
        hints = suggest(state, line, player)
        hint = f"; did you mean {_alternatives(hints)}?" if hints else ""
        legal = [_example(action, state).lower() for action in state.legal_actions(player)]
        if typed and any(move.startswith(" ".join(typed).lower()) for move in legal):
            reason = f"{clean(repr(line))} is only the start of a move{hint}"
        elif first not in _verbs(_all_kinds()):
            reason = f"there is no move {clean(repr(first))} in {title}{hint}"
        else:
            reason = clean(str(error).replace(f"'{own}", "'"))
        raise _refusal(state, player, reason) from None
    if not isinstance(item, ActionLine) or item.action.player != player:
        raise _refusal(state, player, "that is not a move of yours")
    action = item.action
    kind = type(action)
    if kind not in _variant_kinds(state):
        raise _refusal(state, player, f"there is no {_words_of(kind)!r} in {title}")
    if kind not in type(state.variant).phase_actions.get(state.phase, ()):
        raise _refusal(state, player, f"you cannot {phrase(state, kind)} now")
    try:
        state.verify(action)
    except RummyError as error:
        reason = str(error)
        if player == 0:
            reason = re.sub(r"\bp1 (must|may|cannot|has|holds|is)\b", _you, reason)
        raise IllegalActionError(clean(reason)) from None
    return action


def complete_move(state: GameState, line: str, player: int) -> Action | None:
    """The one legal move a short line can only mean, else ``None``.

    ``draw`` when ``draw stock`` is the only legal move that begins so (and ``draw pool``,
    the stock by the variant's own word); ``take`` when only ``take open`` (or ``take
    discard`` of one card) does. Only a move that names nothing but its kind (its other
    fields at their defaults) is completed: a line that leaves a card, a count or a meld to
    choose is still refused with the moves it begins. ``rummylib play`` and the web
    table's typed moves read a line through it first.
    """
    typed = " ".join(line.lower().split())
    if not typed:
        return None
    stock = state.variant.notation.stock.lower()
    if stock != "stock" and typed == f"draw {stock}":
        typed = "draw"
    begun = [
        action
        for action in state.legal_actions(player)
        for example in (_example(action, state).lower(),)
        if example == typed or example.startswith(f"{typed} ")
    ]
    if len(begun) != 1:
        return None
    (action,) = begun
    if type(action) in type(state.variant).host_events:  # never listed; never typed either
        return None
    left_out = [  # what the line leaves out: anything but the player and the defaults
        field.name
        for field in attrs.fields(type(action))
        if field.init and field.name != "player" and not _at_default(action, field)
    ]
    return None if left_out else action


def _at_default(action: Action, field: attrs.Attribute[object]) -> bool:
    # A field without a default, or with a factory (never equal to a value), is a choice.
    default = field.default
    return default is not attrs.NOTHING and bool(getattr(action, field.name) == default)


def _you(match: re.Match[str]) -> str:
    verb = {"has": "have", "holds": "hold", "is": "are"}.get(match.group(1), match.group(1))
    return f"you {verb}"


def _all_kinds() -> list[type[Action]]:
    return [spec.cls for spec in specs()]


def checked_meld(text: str, rules: MeldRules, notation: Notation = CARD_NOTATION) -> Meld:
    """The meld that ``check`` reads (``rummylib check`` and ``play``'s ``check`` command).

    Cards are separated by spaces or commas. A joker written ``*=x`` stands for ``x``; without
    any such joker every reading of the cards is tried, as :meth:`Meld.from_cards
    <rummylib.melds.Meld.from_cards>` tries them. A refusal is in ``notation``'s words:

    >>> from rummylib.tiles import TILE_NOTATION
    >>> checked_meld("7h *=8h 9h", MeldRules())
    Meld(run: 7h *=8h 9h)
    >>> checked_meld("k7, k7 k7", MeldRules(), TILE_NOTATION)
    Traceback (most recent call last):
    ...
    rummylib.errors.InvalidMeldError: k7 k7 k7: not a valid set: duplicate tile in a group: k7

    Raises:
        NotationError: a token is not a card of ``notation``.
        InvalidMeldError: the cards are not a meld under ``rules``.
    """
    tokens = text.replace(",", " ").split()
    written = " ".join(tokens)
    cards = notation.parse_cards(" ".join(token.partition("=")[0] for token in tokens))
    try:
        if notation is not CARD_NOTATION:
            return read_meld(written, rules, notation).canonical()
        if any("=" in token for token in tokens):
            return parse_meld(written, rules).canonical()
        return Meld.from_cards(cards, rules)
    except InvalidMeldError as error:
        if notation is CARD_NOTATION:
            raise
        # the melds' own words name cards: a variant with its own notation names its tiles
        reason = notation.reason(error.reason)
        msg = f"{notation.cards(cards)}: not a valid {notation.meld_noun}: {reason}"
        raise InvalidMeldError(msg) from None


def describe_meld(meld: Meld, notation: Notation = CARD_NOTATION) -> str:
    """What ``check`` says of a meld: its kind, and what its jokers stand for.

    >>> describe_meld(checked_meld("7h * 9h", MeldRules()))
    '7h *=8h 9h is a run; the joker stands for 8h'
    """
    name = notation.card
    jokers = [
        name(stands) if card.is_joker else f"{name(stands)} ({name(card)})"
        for card, stands in zip(meld.cards, meld.stands_for, strict=True)
        if card is not stands
    ]
    text = f"{notation.meld(meld)} is a {meld.kind.value}"
    if len(jokers) == 1:
        text += f"; the joker stands for {jokers[0]}"
    elif jokers:
        text += f"; the jokers stand for {' '.join(jokers)}"
    return text


class _Literal(str):
    """Words shown as they are among a setting's values (``0 to 10``), never quoted."""


def setting_text(value: object) -> str:
    """A setting's value as ``--set KEY=VALUE`` reads it: text as it is, the rest as JSON.

    >>> setting_text(None), setting_text(True), setting_text((1, 2)), setting_text("free")
    ('null', 'true', '[1, 2]', 'free')
    """
    if isinstance(value, _Literal):
        return str(value)
    if isinstance(value, enum.Enum):
        value = value.value
    if isinstance(value, str):
        return value
    return json.dumps(list(value) if isinstance(value, tuple) else value)


def setting_values(variant: Variant) -> dict[str, str]:
    """What each setting of ``variant`` may be besides its value, as ``rummylib variants`` says.

    A choice lists its other values, a flag the other one, a whole number its range (when
    its validator is :func:`~rummylib.engine.whole`); a setting of any other kind gets ``""``.

    >>> from rummylib import get_variant
    >>> values = setting_values(get_variant("rummikub"))
    >>> values["joker_rule"], values["target_score"]
    ('free', '1 to 1000000, null')
    """
    fields = attrs.fields_dict(type(variant))
    found: dict[str, str] = {}
    for name in variant.settings():
        current = getattr(variant, name)
        others: list[object]
        if isinstance(current, enum.Enum):
            others = [member.value for member in type(current) if member is not current]
        elif isinstance(current, bool):
            others = [not current]
        else:
            others = []
        bounds = fields[name].validator if name in fields else None
        if isinstance(bounds, WholeRange):
            others = [_Literal(bounds.describe())]
        found[name] = ", ".join(map(setting_text, others))
    return found
