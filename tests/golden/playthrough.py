"""Golden playthroughs: one seeded whole match per variant and deck, every step pinned.

Each file ``tests/golden/<variant>-<n>p.txt`` is one match, ``new_game(variant, players=n,
seed=seed)`` with the default settings, played to its end by a seeded policy, with every
step's players to act, listed legal actions, action taken and a digest of every seat's
observation (the format: :mod:`tests.golden.steps`). ``tests/test_golden.py`` replays each
file through the rules as they are now (:mod:`tests.golden.replay`) and fails at the first
step where anything differs, so **a changed file is a changed rule**: review its diff as one.

:data:`GOLDENS` says which matches are pinned: one per built-in variant and per player count
that changes its deck, at the fewest players and at the smallest count that switches the
deck (Carousel: one pack and a joker for two players, two packs for three; 500 Rum: one
pack for two, two packs for five). The Israeli and Turkish decks never change with the
count: Rummy 71 is pinned with two players (ending with a removal, rule 1.26), Rummy 101
with three, where rebuys, a declined rebuy and votes of two players happen (with two, the
match ends at the first elimination, rule 1.21). Each seed was chosen, among a few hundred,
for a match of reasonable length that reaches the variant's distinctive moves (the comment
beside it says which).

**The policy** (:func:`play`): a :class:`random.Random` seeded with the file's name chooses,
at every step, among the players to act, then :class:`~rummylib.bots.GreedyBot`'s move most
of the time, a uniformly random legal action (``random_share``) or the engine's
:meth:`~rummylib.state.GameState.auto_action` (``auto_share``) otherwise. A player the host
reported disconnected is always played by ``auto_action`` (rule 1.26). Host events
(:class:`HostEvent`) are reported at fixed steps where the variant accepts them (Rummy 71/101:
disconnections, reconnections and clocks running out), each at the first step from its ``at``
(and in its phase, if it names one) where it is legal.

**Regenerate** after a reviewed rules change (the files are written from the code as it is)::

    python -m tests.golden.regenerate            # every file
    python -m tests.golden.regenerate gin-2p     # some
    python -m tests.golden.regenerate --check    # exit 1 if a file differs from a new playthrough

A new built-in variant needs a line in :data:`GOLDENS`; ``tests/test_golden.py`` fails until
it has a file.

>>> golden = find_golden("gin-2p")
>>> golden.variant, golden.players, golden.path.name
('gin', 2, 'gin-2p.txt')
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Final, TypeAlias

import attrs

from rummylib import GameState, new_game
from rummylib.actions import Action, Disconnect, Reconnect, TimeExpired
from rummylib.bots import GreedyBot
from tests.golden import steps

__all__ = [
    "GOLDENS",
    "GOLDEN_DIR",
    "REGENERATE",
    "Golden",
    "HostEvent",
    "find_golden",
    "lines",
    "play",
]

#: Where the golden files live.
GOLDEN_DIR: Final = Path(__file__).parent
#: The command that writes the files again.
REGENERATE: Final = "python -m tests.golden.regenerate"
#: No match is played longer than this; a policy that cannot finish is a bug to look at.
MAX_STEPS: Final = 5000

HostKind: TypeAlias = type[TimeExpired] | type[Disconnect] | type[Reconnect]
_VERBS: Final[dict[HostKind, str]] = {
    TimeExpired: "timeout",
    Disconnect: "disconnect",
    Reconnect: "reconnect",
}


@attrs.frozen(kw_only=True)
class HostEvent:
    """A host event reported at the first step from ``at`` where it is legal.

    ``seat`` is the player it concerns (``None``: the first player to act then); ``phase``,
    if given, is the name (lower case) of the only phase it is reported in.

    >>> print(HostEvent(kind=TimeExpired, at=0, phase="show_melds"))
    h timeout (first to act) from step 0 in show_melds
    """

    kind: HostKind
    at: int
    seat: int | None = None
    phase: str | None = None

    def event(self, state: GameState) -> Action | None:
        """The event to report in ``state``, or ``None`` if it is not due and legal there."""
        if state.is_over or (self.phase is not None and state.phase.name.lower() != self.phase):
            return None
        seat = state.to_act[0] if self.seat is None else self.seat
        event = self.kind(player=seat)
        return event if state.is_legal(event) else None

    def __str__(self) -> str:
        seat = "(first to act)" if self.seat is None else f"p{self.seat + 1}"
        where = "" if self.phase is None else f" in {self.phase}"
        return f"h {_VERBS[self.kind]} {seat} from step {self.at}{where}"


@attrs.frozen(kw_only=True)
class Golden:
    """One pinned match: the game, the seed, and how the policy plays it."""

    variant: str
    players: int
    seed: int
    random_share: float = 0.15
    auto_share: float = 0.05
    events: tuple[HostEvent, ...] = ()

    @property
    def name(self) -> str:
        """The file's name without ``.txt``: ``gin-2p``."""
        return f"{self.variant}-{self.players}p"

    @property
    def path(self) -> Path:
        """The golden file."""
        return GOLDEN_DIR / f"{self.name}.txt"

    @property
    def policy(self) -> str:
        """The policy in words, for the file's header."""
        greedy = 1 - self.random_share - self.auto_share
        return (
            f"random.Random({self._rng_seed!r}) picks the actor among to_act, then "
            f"GreedyBot {greedy:.0%}, a random legal action {self.random_share:.0%}, "
            f"auto_action() {self.auto_share:.0%}; disconnected players: auto_action()"
        )

    @property
    def _rng_seed(self) -> str:
        return f"golden:{self.name}:{self.seed}"

    def new_game(self) -> GameState:
        """The match as dealt, default settings."""
        return new_game(self.variant, players=self.players, seed=self.seed)


_DISCONNECTS: Final = (
    HostEvent(kind=Disconnect, at=12, seat=1),
    HostEvent(kind=Reconnect, at=24, seat=1),
    HostEvent(kind=TimeExpired, at=0, phase="show_melds"),
    HostEvent(kind=TimeExpired, at=0, phase="frish_vote"),
)

#: A clock run out early in an Indian match: a first or a middle drop (rule 6.13).
_INDIAN_CLOCK: Final = (HostEvent(kind=TimeExpired, at=9),)

#: The pinned matches, one file each.
GOLDENS: Final = (
    # A real rearrangement of the table, final meld turns (2.13), knocks and going out.
    Golden(variant="carousel", players=2, seed=101),
    # Two packs; knocks tied and undercut (2.17), a deal won against two.
    Golden(variant="carousel", players=3, seed=46),
    # Gin, an undercut, the wall, both players throwing back the upcard, the game bonus.
    Golden(variant="gin", players=2, seed=826),
    # The open card, Frish refused by the clock and accepted, a disconnection with auto-played
    # turns and a reconnection, a window given up by the clock, then a removal.
    Golden(
        variant="rummy71",
        players=2,
        seed=241,
        events=(
            *_DISCONNECTS,
            HostEvent(kind=Disconnect, at=200, seat=0),  # never back: removed (rule 1.26)
        ),
    ),
    # Votes of two players, windows of two, mandatory rebuys, a rebuy and a declined one.
    Golden(variant="rummy101", players=3, seed=669, events=_DISCONNECTS),
    # Taking several discards (3.3), joker lay-offs, a deal ended by the stock.
    Golden(variant="rummy500", players=2, seed=283),
    # Two packs and seven cards each; a joker laid off at a chosen end of a run (R1).
    Golden(variant="rummy500", players=5, seed=128),
    Golden(variant="turkish300", players=2, seed=16),
    Golden(variant="turkish500", players=2, seed=18),
    # Ten deals (the deal limit, 3.13); a joker laid off at a chosen end of an A-high run.
    Golden(variant="turkish500_cutthroat", players=2, seed=92),
    # Indian rummy (section 6): the greedy policy shows and drops hopeless first hands; the
    # random share is small, as a random move after a take is a wrong show half the time.
    # One pack and a printed joker for two (6.1); a show counts the other hand (6.15).
    Golden(variant="indian_points", players=2, seed=2, random_share=0.04),
    # Two packs: drops, then a valid show counting the rest.
    Golden(variant="indian_points", players=5, seed=20, random_share=0.04, events=_INDIAN_CLOCK),
    # Five deals of shows and drops, and an elimination at 101 (6.17).
    Golden(variant="indian_pool101", players=2, seed=3, random_share=0.04, events=_INDIAN_CLOCK),
    # Four players: eliminations one after another, the first seat moving on (6.4).
    Golden(variant="indian_pool101", players=4, seed=2, random_share=0.04, events=_INDIAN_CLOCK),
    Golden(variant="indian_pool201", players=2, seed=2, random_share=0.04, events=_INDIAN_CLOCK),
    # A clock run out as a drop (6.13) among drops of 25 and 50.
    Golden(variant="indian_pool201", players=3, seed=1, random_share=0.04, events=_INDIAN_CLOCK),
    # Chips (6.18): two deals, each won by the last player in it.
    Golden(variant="indian_deals", players=2, seed=1, random_share=0.04, events=_INDIAN_CLOCK),
    Golden(variant="indian_deals", players=6, seed=3, random_share=0.04, events=_INDIAN_CLOCK),
    # Rummikub (section 7): initial melds of 30, plays that rearrange the table, a clock run
    # out as three tiles drawn (7.9), table jokers freed by the tiles they stood for (7.7).
    Golden(variant="rummikub", players=2, seed=4, events=(HostEvent(kind=TimeExpired, at=3),)),
)


def find_golden(name: str) -> Golden:
    """The golden match of that file name (``gin-2p``).

    Raises:
        KeyError: no golden match has that name.
    """
    for golden in GOLDENS:
        if golden.name == name:
            return golden
    known = ", ".join(golden.name for golden in GOLDENS)
    msg = f"no golden match {name!r}; known: {known}"
    raise KeyError(msg)


def _disconnected(state: GameState, player: int) -> bool:
    public = dict(state.observation(player).public)
    gone = public.get("disconnected", ())
    return isinstance(gone, tuple) and player in gone


def play(golden: Golden) -> Iterator[tuple[GameState, Action | None]]:
    """Each state of the match with the action the policy takes in it (``None`` at the end).

    Raises:
        RuntimeError: the match does not end within :data:`MAX_STEPS` steps.
    """
    rng = random.Random(golden._rng_seed)
    guide = GreedyBot()
    pending = list(golden.events)
    state = golden.new_game()
    for step in range(MAX_STEPS):
        if state.is_over:
            yield state, None
            return
        action: Action | None = None
        for planned in pending:
            if step >= planned.at:
                action = planned.event(state)
                if action is not None:
                    pending.remove(planned)
                    break
        if action is None:
            actor = rng.choice(state.to_act)
            draw = rng.random()
            if any(_disconnected(state, player) for player in state.to_act):
                action = state.auto_action()
            elif draw < golden.random_share:
                action = rng.choice(state.legal_actions(actor))
            elif draw < golden.random_share + golden.auto_share:
                action = state.auto_action()
            else:
                action = guide.choose(state.observation(actor))
        yield state, action
        state = state.apply(action)
    msg = f"{golden.name}: the match did not end within {MAX_STEPS} steps"
    raise RuntimeError(msg)


def header(golden: Golden) -> list[str]:
    """The file's header: what the match is and how to write it again."""
    events = "; ".join(map(str, golden.events)) or "none"
    return [
        "# rummylib golden playthrough: one seeded whole match, every step pinned.",
        "# A changed line is a changed rule; review it as one. Format and digests: steps.py;",
        "# policy: playthrough.py (both in tests/golden/); replayed by tests/test_golden.py.",
        "# Each step N: 'N phase … | current | to act | clock | auto', 'N legal ACTION' for each",
        "# listed action of every player to act, 'N seen' with a digest per seat (p1 first),",
        "# 'N move ACTION' (the action taken). Then the match result and every deal's score.",
        f"variant: {golden.variant}",
        f"players: {golden.players}",
        f"seed: {golden.seed}",
        "settings: defaults",
        f"policy: {golden.policy}",
        f"host events: {events}",
        f"regenerate: {REGENERATE} {golden.name}",
    ]


def lines(golden: Golden) -> list[str]:
    """Every line of the golden file of ``golden``, as the code plays it now."""
    played = list(play(golden))
    width = len(str(len(played) - 1))
    text = header(golden)
    previous: int | None = None
    for step, (state, action) in enumerate(played):
        number = f"{step:0{width}d}"
        text.append(f"{number} {steps.turn_line(state, previous)}")
        text += [f"{number} legal {line}" for line in steps.legal_lines(state)]
        text.append(f"{number} seen {steps.seen_line(state)}")
        if action is not None:
            text.append(f"{number} move {steps.action_text(state, action)}")
        previous = steps.clock_number(state)
    final = played[-1][0]
    return [*text, *steps.result_lines(final)]
