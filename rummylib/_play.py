"""``rummylib play`` and ``rummylib replay``: a person against bots, and records, in a terminal.

``play`` seats the person at p1 and bots at the other seats. Each command is a record line
without its actor (``draw stock``, ``discard 7h``, ``meld | 7h 8h 9h``, ``layoff Kh 0``, …,
the grammar of :mod:`rummylib.records`), or one of the commands listed by ``help``. Prompts,
refusals and help come in the variant's own words (:mod:`rummylib._words`). When standard
input is not a terminal, commands are read one per line, so a script can play; ``--json``
(:class:`JsonSession`) is the machine mode. A bad command gets a one-line reason and changes
nothing.

``replay`` checks a record (:func:`rummylib.records.load`) and prints its score sheet deal by
deal, the actions of one deal (``--deal N``), or steps through it (``--step``).

Output goes through :mod:`rich` (the ``cli`` extra); without a terminal it is plain text.
"""

from __future__ import annotations

import io
import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, Final

try:  # the cli extra; without it, play and replay say so when they are called
    import rich.console
    import rich.markup
    import rich.table
except ImportError:
    HAVE_RICH = False
else:
    HAVE_RICH = True

from rummylib import _words, records
from rummylib._notation import format_action
from rummylib.actions import Action, DrawStock
from rummylib.bots import Bot, GreedyBot, RandomBot
from rummylib.cards import Card, sort_by_rank, sort_by_suit
from rummylib.engine import Variant
from rummylib.errors import ConfigurationError, NotationError, RummyError
from rummylib.melds import Meld
from rummylib.state import GameState, new_game
from rummylib.tiles import CARD_NOTATION, Notation
from rummylib.views import Observation

__all__ = ["BOTS", "Session", "play", "replay"]

#: The bots ``--bots`` names.
BOTS: Final[dict[str, Callable[[int], Bot]]] = {
    "greedy": lambda seed: GreedyBot(),
    "random": RandomBot,
}
#: The person's seat.
PERSON: Final = 0

#: The terminal style of each colour a notation gives a card (black: the terminal's own).
_COLOUR_STYLE: Final = {"red": "red", "black": "", "blue": "blue", "orange": "dark_orange"}


def _card(card: Card, notation: Notation = CARD_NOTATION) -> str:
    style = "magenta" if card.is_joker else _COLOUR_STYLE.get(notation.colour(card), "")
    text = rich.markup.escape(notation.card(card))
    return f"[{style}]{text}[/]" if style else text


def _cards(cards: Sequence[Card], notation: Notation = CARD_NOTATION) -> str:
    return " ".join(_card(card, notation) for card in cards) or "-"


def _meld(meld: Meld, notation: Notation = CARD_NOTATION) -> str:
    name = notation.card
    return " ".join(
        _card(card, notation)
        if card is stands
        else f"[magenta]{rich.markup.escape(f'{name(card)}={name(stands)}')}[/]"
        for card, stands in zip(meld.cards, meld.stands_for, strict=True)
    )


class Session:
    """A game in progress between the person (p1) and bots; :meth:`run` reads commands."""

    def __init__(
        self,
        state: GameState,
        bots: Sequence[Bot | None],
        console: rich.console.Console,
        *,
        tty: bool,
    ) -> None:
        self.state = state
        self.bots = bots
        self.console = console
        self.tty = tty
        #: How this variant's cards are written (Rummikub: tiles).
        self.notation: Notation = state.variant.notation
        self.sort: Callable[[Sequence[Card]], tuple[Card, ...]] = sort_by_rank

    # -- showing ------------------------------------------------------------------------------

    def say(self, text: str, style: str = "") -> None:
        line = rich.markup.escape(_words.clean(text))
        self.console.print(f"[{style}]{line}[/]" if style else line, soft_wrap=True)

    def show(self) -> None:
        """The table as the person sees it."""
        view = self.state.observation(PERSON)
        notation = view.variant.notation
        print_ = self.console.print
        scores = "  ".join(f"p{seat + 1} {score}" for seat, score in enumerate(view.scores))
        print_(
            f"[bold]{rich.markup.escape(view.variant.name)}[/] deal {view.deal_number}"
            f"  scores: {scores}",
            soft_wrap=True,
        )
        for index, meld in enumerate(view.table):
            print_(f"  table {index}: {_meld(meld, notation)}", soft_wrap=True)
        pile = view.discard_pile[-5:]
        parts = [f"{notation.stock} {view.stock_size}"]
        if pile:  # left out when empty, as in render(): Carousel and Rummikub have none
            parts.append(f"discard pile {_cards(pile, notation)}")
        if view.aside:  # the cards turned face up: the Israeli open card, the Indian wild card
            parts.append(f"{view.variant.aside_label} {_cards(view.aside, notation)}")
        sizes = " ".join(f"p{seat + 1}:{size}" for seat, size in enumerate(view.hand_sizes))
        parts.append(f"{notation.hand}s {sizes}")
        print_("  " + "  ".join(parts), soft_wrap=True)
        if view.hidden_count:
            print_(f"  face down: {view.hidden_count} cards", soft_wrap=True)
        for fact in view.public.lines():  # the variant's own facts (an Indian wild card, ...)
            print_(f"  {rich.markup.escape(fact)}", soft_wrap=True)
        order = "777" if self.sort is sort_by_rank else "789"
        print_(f"  your {notation.hand} ({order}): {self._hand(view)}", soft_wrap=True)
        if PERSON in view.to_act:
            self.say(f"  your move: {_words.prompt(self.state, PERSON)}", "bold")
        elif view.to_act:
            who = ", ".join(f"p{seat + 1}" for seat in view.to_act)
            self.say(f"  {who} to act")

    def _melds_shown(self, action: Action) -> None:
        """The melds of a move just played, in green, each with its kind."""
        for meld in getattr(action, "melds", None) or getattr(action, "table", None) or ():
            if isinstance(meld, Meld):
                self.console.print(
                    f"  [green]{rich.markup.escape(self.notation.meld(meld))}: a "
                    f"{meld.kind.value}[/]",
                    soft_wrap=True,
                )

    # -- playing ------------------------------------------------------------------------------

    def bots_act(self) -> None:
        """Let the bots move until the person must act or the match ends."""
        while not self.state.is_over:
            movers = [seat for seat in self.state.to_act if self.bots[seat] is not None]
            if not movers:
                return
            seat = movers[0]
            bot = self.bots[seat]
            assert bot is not None
            action = bot.choose(self.state.observation(seat))
            self._apply(action)

    def _apply(self, action: Action) -> None:
        before = self.state
        self.state = before.apply(action)
        shown = format_action(action, notation=self.notation)
        if action.player == PERSON and isinstance(action, DrawStock) and before.stock:
            shown += f" {self.notation.card(before.stock[0])}"
        self.say(shown, "cyan" if action.player != PERSON else "")
        for result in self.state.deal_results[len(before.deal_results) :]:
            self.say(str(result), "bold")
        if self.state.result is not None and before.result is None:
            winners = ", ".join(f"p{seat + 1}" for seat in self.state.result.winners)
            self.say(f"match over: won by {winners or 'nobody'}", "bold")

    def command(self, text: str) -> bool:
        """Carry out one command; ``False`` once the person quits."""
        text = text.strip()
        word = text.split(maxsplit=1)[0].lower() if text else ""
        if not word or word.startswith("#"):
            return True
        if word in {"quit", "exit"}:
            return False
        handlers: dict[str, Callable[[str], None]] = {
            "help": lambda rest: self.say(_words.help_text(self.state, PERSON)),
            "moves": self._moves,
            "check": self._check,
            "save": self._save,
            "777": lambda rest: self._sort(sort_by_rank),
            "789": lambda rest: self._sort(sort_by_suit),
        }
        handler = handlers.get(word)
        if handler is not None:
            handler(text[len(word) :].strip())
            return True
        self._move(text)
        return True

    def _sort(self, order: Callable[[Sequence[Card]], tuple[Card, ...]]) -> None:
        self.sort = order
        view = self.state.observation(PERSON)
        self.console.print(f"  your {self.notation.hand}: {self._hand(view)}", soft_wrap=True)

    def _hand(self, view: Observation) -> str:
        """The hand in the chosen order, and the cards whose rank is wild (Indian rummy)."""
        hand = self.sort(view.hand)
        text = _cards(hand, self.notation)
        wild = _words.wild_cards(hand, view.meld_rules)
        if wild:  # named, so that no one has to compare each rank with the wild card's
            text += f"  (wild: {_cards(wild, self.notation)})"
        return text

    def _moves(self, rest: str) -> None:
        moves = self.state.legal_actions(PERSON)
        if not moves:
            self.say("no moves now: it is not your turn")
        for action in moves:
            self.say("  " + format_action(action, notation=self.notation).removeprefix("p1 "))

    def _check(self, rest: str) -> None:
        if not rest.replace(",", " ").strip():
            noun = self.notation.noun
            self.say(f"check needs {noun}s: check {noun.upper()}S", "red")
            return
        try:
            meld = _words.checked_meld(rest, self.state.meld_rules, self.notation)
        except RummyError as error:
            self.say(str(error), "red")
            return
        text = rich.markup.escape(_words.describe_meld(meld, self.notation))
        self.console.print(f"[green]{text}[/]")

    def _save(self, rest: str) -> None:
        if not rest:
            self.say("save needs a file name: save FILE", "red")
            return
        try:
            records.dump(self.state, rest)
        except OSError as error:
            self.say(f"cannot write {rest}: {error.strerror or error}", "red")
            return
        self.say(f"saved the record to {rest}")

    def _move(self, text: str) -> None:
        if self.state.is_over:
            self.say("the match is over: save FILE or quit", "red")
            return
        try:
            action = _words.read_move(self.state, text, PERSON)
        except RummyError as error:  # once, in the player's words
            self.say(str(error), "red")
            return
        self._melds_shown(action)
        self._apply(action)
        self.bots_act()
        if self.state.is_over:
            self.say("the match is over: save FILE keeps its record, quit ends", "bold")
        else:
            self.show()

    def run(self, lines: Iterator[str]) -> None:
        """Play: the bots move, the table is shown, and commands are read until the end.

        Without a terminal each command is echoed after ``>`` (control characters escaped),
        and the line ``>`` is printed, flushed, when the next command is awaited.
        """
        self.bots_act()
        self.show()
        while True:
            if not self.tty:  # a driver sees the prompt before the line is read
                self.console.print("> ", end="")
                self.console.file.flush()
            line = next(lines, None)
            if line is None:
                return
            if not self.tty:
                self.say(line.rstrip("\r\n"))
            if not self.command(line):
                return


class JsonSession(Session):
    """``rummylib play --json``: one move a line in, one JSON object a line out.

    Every object has a ``type``: ``observation`` (what p1 sees), ``event`` (an action played,
    a deal's result, the match's end), ``prompt`` (p1 is to act; ``legal`` lists every legal
    move in record notation, each of which may be sent back as it is) or ``error`` (the line
    was refused, with the reason; a new prompt follows). Output is flushed after each object;
    the session ends when the match does.
    """

    def __init__(self, state: GameState, bots: Sequence[Bot | None], out: IO[str]) -> None:
        super().__init__(state, bots, rich.console.Console(file=io.StringIO()), tty=False)
        self.out = out

    def emit(self, kind: str, **fields: object) -> None:
        self.out.write(json.dumps({"type": kind, **fields}, ensure_ascii=False) + "\n")
        self.out.flush()

    def say(self, text: str, style: str = "") -> None:  # text is for people: not sent
        return

    def show(self) -> None:
        view = self.state.observation(PERSON)
        notation = self.notation
        name = notation.card
        self.emit(
            "observation",
            player=f"p{PERSON + 1}",
            variant=view.variant.name,
            deal=view.deal_number,
            phase=view.phase.value,
            hand=[name(card) for card in view.hand],
            hand_sizes=list(view.hand_sizes),
            stock_size=view.stock_size,
            discard_pile=[name(card) for card in view.discard_pile],
            face_up=[name(card) for card in view.aside],
            table=[notation.meld(meld) for meld in view.table],
            scores=list(view.scores),
            to_act=[f"p{seat + 1}" for seat in view.to_act],
            facts=view.public.lines(),
            wild=[name(card) for card in _words.wild_cards(view.hand, view.meld_rules)],
        )
        if PERSON in view.to_act and not self.state.is_over:
            self.emit(
                "prompt",
                text=_words.prompt(self.state, PERSON),
                legal=[
                    format_action(action, notation=notation)
                    for action in self.state.legal_actions(PERSON)
                ],
            )

    def _apply(self, action: Action) -> None:
        before = self.state
        self.state = before.apply(action)
        drawn = None
        if action.player == PERSON and isinstance(action, DrawStock) and before.stock:
            drawn = self.notation.card(before.stock[0])
        self.emit("event", action=format_action(action, notation=self.notation), drawn=drawn)
        for result in self.state.deal_results[len(before.deal_results) :]:
            self.emit("event", deal=result.deal_number, result=str(result))
        if self.state.result is not None and before.result is None:
            winners = [f"p{seat + 1}" for seat in self.state.result.winners]
            self.emit("event", match_over=True, winners=winners, scores=list(self.state.scores))

    def _move(self, text: str) -> None:
        try:
            action = _words.read_move(self.state, text, PERSON)
        except RummyError as error:
            self.emit("error", line=_words.clean(text.rstrip("\n")), message=str(error))
            self.show()
            return
        self._apply(action)
        self.bots_act()
        if not self.state.is_over:
            self.show()

    def run(self, lines: Iterator[str]) -> None:
        """Play until the match ends (or the input does, or ``quit``)."""
        self.bots_act()
        if self.state.is_over:
            return
        self.show()
        for line in lines:
            text = line.strip()
            if text.lower() in {"quit", "exit"}:
                return
            if text:
                self._move(text)
            if self.state.is_over:
                return


def _lines(stream: IO[str], console: rich.console.Console, *, tty: bool) -> Iterator[str]:
    while True:
        if tty:
            try:
                yield console.input("[bold]> [/]")
            except EOFError:
                return
        else:
            line = stream.readline()
            if not line:
                return
            yield line


def _bots(names: Sequence[str], players: int, seed: int) -> list[Bot | None]:
    if len(names) not in {1, players - 1}:
        msg = f"--bots names {len(names)} bots for the {players - 1} other players"
        raise ConfigurationError(msg)
    chosen = list(names) * (players - 1) if len(names) == 1 else list(names)
    bots: list[Bot | None] = [None]
    for seat, name in enumerate(chosen, 1):
        if name not in BOTS:
            msg = f"unknown bot {name!r}: use {' or '.join(BOTS)}"
            raise ConfigurationError(msg)
        bots.append(BOTS[name](seed + seat))
    return bots


def play(
    variant: Variant,
    *,
    players: int,
    seed: int | None,
    bots: Sequence[str],
    resume: str | None = None,
    stdin: IO[str] | None = None,
    console: rich.console.Console | None = None,
    machine: bool = False,
    stdout: IO[str] | None = None,
) -> int:
    """``rummylib play``: the person at p1 against bots; returns the exit code.

    With ``machine`` (``--json``) a program plays: see :class:`JsonSession`.

    Raises:
        RummyError: a bad variant, player count, seed, bot name or record to resume.
    """
    stream = sys.stdin if stdin is None else stdin
    console = console or rich.console.Console(highlight=False)
    if resume is not None:
        record = records.load(resume)
        if record.view is not None:
            msg = f"{resume} is one player's view: only a host's record can be resumed"
            raise NotationError(msg)
        state = record.final_state
        players = state.player_count
    else:
        state = new_game(variant, players=players, seed=seed)
    table = _bots(bots, state.player_count, 0 if seed is None else seed)
    if machine:
        JsonSession(state, table, sys.stdout if stdout is None else stdout).run(
            _lines(stream, console, tty=False)
        )
        return 0
    tty = stream.isatty()
    console.print(
        f"[bold]{rich.markup.escape(state.variant.title or state.variant.name)}[/]: you are p1; "
        "'help' lists the commands",
        soft_wrap=True,
    )
    session = Session(state, table, console, tty=tty)
    session.run(_lines(stream, console, tty=tty))
    return 0


# -- replay ---------------------------------------------------------------------------------------


def _count(number: int, noun: str) -> str:
    """``1 deal``, ``2 deals``: a count and its noun, singular or plural."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _winner_line(state: GameState, names: Sequence[str]) -> str:
    """``match over: won by p3`` (or by the players' names), or that the match goes on."""
    if state.result is None:
        return "the match is not over"
    winners = " and ".join(names[seat] for seat in state.result.winners)
    return f"match over: won by {winners or 'nobody'}"


def _score_sheet(record: records.Record, console: rich.console.Console) -> None:
    title = f"{record.variant.name}: {_count(len(record.deals), 'deal')}"
    table = rich.table.Table(title=rich.markup.escape(title))
    table.add_column("deal")
    table.add_column("lines")
    table.add_column("ended by")
    names = record.names or tuple(f"p{seat + 1}" for seat in range(record.players))
    for name in names:
        table.add_column(name, justify="right")
    for deal in record.deals:
        result = deal.result
        points = result.points if result is not None else (0,) * record.players
        cells = [
            f"{points[seat]:+d} = {deal.scores[seat]}" if result is not None else str(score)
            for seat, score in enumerate(deal.scores)
        ]
        ended = "(unfinished)" if result is None else result.ended_by
        table.add_row(
            str(deal.number),
            f"{deal.first_line}-{deal.last_line}",
            rich.markup.escape(ended),
            *cells,
        )
    console.print(table)
    console.print(rich.markup.escape(_winner_line(record.final_state, names)), soft_wrap=True)


def _deal_actions(record: records.Record, number: int, console: rich.console.Console) -> None:
    if not 1 <= number <= len(record.deals):
        msg = f"--deal {number}: the record has deals 1 to {len(record.deals)}"
        raise ConfigurationError(msg)
    deal = record.deals[number - 1]
    console.print(f"deal {deal.number} (lines {deal.first_line}-{deal.last_line})")
    for action in deal.actions:
        line = format_action(action, notation=record.variant.notation)
        console.print("  " + rich.markup.escape(line), soft_wrap=True)
    if deal.result is not None:
        console.print(rich.markup.escape(str(deal.result)), soft_wrap=True)


def _step(record: records.Record, console: rich.console.Console, stream: IO[str]) -> None:
    tty = stream.isatty()
    steps: Iterator[Any]
    if record.view is None:
        steps = record.states()
        seat: int | None = None
    else:
        steps = record.observations()
        seat = record.view
    before = next(steps)
    actions = record.actions
    _print_moment(before, seat, console)
    for action, moment in zip(actions, steps, strict=True):
        if tty:
            answer = console.input("[dim](Enter: next action, q: stop)[/] ")
        else:
            answer = stream.readline()
            if not answer:
                return
        if answer.strip().lower() in {"q", "quit"}:
            return
        drawn = _drawn(action, before, moment, seat)
        notation = record.variant.notation
        line = format_action(action, notation=notation)
        line += "" if drawn is None else f" {notation.card(drawn)}"
        console.print("[bold]" + rich.markup.escape(line) + "[/]", soft_wrap=True)
        _print_moment(moment, seat, console)
        before = moment


def _drawn(action: Action, before: Any, after: Any, seat: int | None) -> Card | None:
    """The card a ``draw stock`` took, to a viewer who may see it (the host, or the drawer)."""
    if not isinstance(action, DrawStock):
        return None
    if seat is None:
        new = Counter(after.hands[action.player]) - Counter(before.hands[action.player])
    elif action.player == seat:
        new = Counter(after.hand) - Counter(before.hand)
    else:
        return None
    return next(iter(new), None) if sum(new.values()) == 1 else None


def _print_moment(moment: Any, seat: int | None, console: rich.console.Console) -> None:
    notation: Notation = moment.variant.notation
    if seat is None:
        state: GameState = moment
        hands = "  ".join(
            f"p{index + 1}: {_cards(sort_by_rank(hand), notation)}"
            for index, hand in enumerate(state.hands)
            if hand
        )
        console.print(f"  {hands}", soft_wrap=True)
        pile, table, aside = state.discard_pile, state.table, state.aside
        facts = state.variant.public_info(state, state.to_act[0] if state.to_act else 0).lines()
    else:
        hand = _cards(sort_by_rank(moment.hand), notation)
        console.print(f"  your {notation.hand}: {hand}", soft_wrap=True)
        pile, table, aside = moment.discard_pile, moment.table, moment.aside
        facts = moment.public.lines()
    for index, meld in enumerate(table):
        console.print(f"  table {index}: {_meld(meld, notation)}", soft_wrap=True)
    if _words.has_discard_pile(type(moment.variant)):  # Carousel and Rummikub have none
        console.print(f"  discard pile: {_cards(pile[-5:], notation)}", soft_wrap=True)
    if aside:  # the Israeli open card, the Indian wild card
        label = moment.variant.aside_label
        console.print(f"  {label}: {_cards(aside, notation)}", soft_wrap=True)
    for fact in facts:  # the variant's own facts, as play prints them
        console.print(f"  {rich.markup.escape(fact)}", soft_wrap=True)


def replay(
    path: str,
    *,
    deal: int | None = None,
    step: bool = False,
    stdin: IO[str] | None = None,
    console: rich.console.Console | None = None,
) -> int:
    """``rummylib replay``: check a record, print its score sheet, a deal, or step through it.

    Raises:
        RummyError: the record cannot be read or is not valid (the message names the line),
            or ``deal`` is not one of its deals.
    """
    console = console or rich.console.Console(highlight=False)
    if not Path(path).is_file():
        msg = f"no record at {path}"
        raise NotationError(msg)
    record = records.load(path)
    whose = "host's record" if record.view is None else f"p{record.view + 1}'s view"
    count = len(record.actions)
    actions = "1 action" if count == 1 else f"{count} actions"
    console.print(f"{rich.markup.escape(path)}: a valid {whose} of {actions}", soft_wrap=True)
    if step:
        _step(record, console, sys.stdin if stdin is None else stdin)
    elif deal is not None:
        _deal_actions(record, deal, console)
    else:
        _score_sheet(record, console)
    return 0
