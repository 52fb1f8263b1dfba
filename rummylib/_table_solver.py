"""The exact search behind :func:`rummylib.variants.carousel.best_play` (private).

The problem: cards already on a shared table (every one of which must stay in some meld) and a
hand (any of whose cards may join); choose the hand cards that go down so that every card on
the new table is in a legal meld, maximising the value of the hand cards played. Jokers are
wild; this module only sees *free* jokers (whose identity may be chosen) and plain natural
cards: the Carousel rule that a table joker keeps its declared card is handled by the caller,
which passes such a joker as a natural card of that identity (a *pseudo-natural*).

Cards are counts on a grid of suits x positions. A position is a rank in run order: with aces
low only, positions 0…12 are A…K; with aces high only, 2…K, A; with aces low or high, position
0 is the low ace and 13 the high ace, and the two share the aces of each suit.

**The dynamic programme.** Positions are processed in order, and within a position the four
suits one at a time (a "broken profile"). The state is, for each suit, how many runs are open
and how far along they are, the number of jokers used so far, and the group tiles set aside at
the current position (how many suits gave one, two or three tiles). A run is open in one of four
buckets: it holds one card (needs two more), two cards (needs one more), three or more cards
(may stop), or three or more ending in a joker (needs one more — see below). At a suit step the
tiles of that (suit, position) — every table card and some of the hand cards — continue the
open runs, start new runs, or go to the groups of that rank; when a position is done, its group
tiles must form groups with the fewest jokers. A state is packed into one integer, and each
layer maps it to its value with the parent state and choice packed below it, so the best final
state is traced back step by step. Transitions are cached per (run state, tiles, jokers left),
and a group that the later suits of the position could not complete is dropped at once; a
position's groups are closed at its last suit with tiles. (Searching two suits as one layer,
with their transitions composed, was tried and dropped: it sped up a repeated solve of the same
position but slowed a first one, where the composed transitions must be built, by about a
fifth, and greedy Carousel by up to two fifths.)

**Bounds.** A first pass keeps only the best :data:`BEAMS` states of each layer (by value, less
the cards still owed to short runs and the jokers used: :func:`_best_states`): it finds a good
solution quickly but may miss the best. The exact pass then drops every state whose value plus
the hand cards not yet reached cannot beat that solution; when nothing is left, the first
solution was optimal. A hand card three or more positions ahead counts only if a group or a
three-card run around it can be completed with the jokers the state has left, and those that
need a joker add no more than the most valuable rank or suit of them per joker left (a joker is
in one group or one run). A state is dead when the table tiles three or more positions ahead
need more jokers than it has left (summed over tiles that no one meld can hold together).

**Jokers as helpers.** The main search treats every joker, from the table or the hand, as a
helper that may fill a slot only where it is needed, and assumes the jokers it does not need can
be added afterwards to some meld with room (any run shorter than the longest possible, any
group below its largest size). Within that relaxation these choices lose nothing:

* a joker fills a slot of a (suit, position) only when every natural card available there is
  used (otherwise swap it for that card: one more card placed);
* a run never ends with a joker once it has more cards than the minimum (drop the joker), which
  is the fourth bucket; a run starts with a joker only when it has exactly the minimum size and
  ends at the top position (otherwise move the joker to its other end);
* a group takes the fewest jokers that complete it.

The relaxed optimum is an upper bound on the true one. When the jokers left over fit into the
melds found, the relaxed solution is a real one and therefore optimal; otherwise (which needs a
table of full melds) a strict search, with every joker placed slot by slot and none of the
shortcuts above, decides exactly.

It is exact: ``tests/variants/test_carousel.py`` holds it to a brute-force oracle (Carousel's
rules) and ``tests/test_table_solver.py`` to one with aces low only, and the pruned search to the
exhaustive one (``solve(..., exhaustive=True)``) on Rummikub-shaped positions.
"""

from __future__ import annotations

import functools
import itertools
import threading
from collections.abc import Sequence
from typing import Final, NamedTuple

SUITS: Final = 4
#: Bits per suit state id in a packed state.
_SUIT_BITS: Final = 8
_J_SHIFT: Final = 4 * _SUIT_BITS
_G_SHIFT: Final = _J_SHIFT + 4
_G_MASK: Final = (1 << 9) - 1
_ACE_SHIFT: Final = _G_SHIFT + 9
#: Group digits: suits that gave one, two, three tiles (3 bits each).
_G_DELTA: Final = (0, 1, 1 << 3, 1 << 6)
_NEG: Final = -(1 << 62)
#: A threshold no value reaches: the state is dead.
_DEAD: Final = 1 << 62
#: Where the value sits in a layer entry, above the mark (parent state and choice).
_VALUE_SHIFT: Final = 112
_MARK_MASK: Final = (1 << _VALUE_SHIFT) - 1
#: Where a layer entry's mark holds the parent state, and the jokers a position's groups took
#: (above the hand cards used, 4 bits from bit 10, and the step number, 10 bits).
_PARENT_SHIFT: Final = 32
_EXTRA_SHIFT: Final = 14
#: More bits than a packed state has (for the beam order's tie-break).
_KEY_BITS: Final = 80
_KEY_MASK: Final = (1 << _KEY_BITS) - 1
#: The most choices of groups :func:`_solve_empty_table` tries (beyond, the general search).
EMPTY_TABLE_CHOICES: Final = 1 << 12
#: States kept per step by the first, quick searches whose result bounds the exact one (a wider
#: one runs only when the narrower found nothing).
BEAMS: Final = (16, 64)


class Layout(NamedTuple):
    """How positions map to ranks under an ace rule.

    Attributes:
        ranks: the rank (1…13) at each position.
        shared_aces: whether positions 0 and the last both hold the aces (low or high).
    """

    ranks: tuple[int, ...]
    shared_aces: bool


LOW: Final = Layout(tuple(range(1, 14)), shared_aces=False)
HIGH: Final = Layout((*range(2, 14), 1), shared_aces=False)
LOW_OR_HIGH: Final = Layout((*range(1, 14), 1), shared_aces=True)


class Run(NamedTuple):
    """A run in the solution: its suit (0…3), first position, and which slots are jokers."""

    suit: int
    start: int
    jokers: tuple[bool, ...]


class Group(NamedTuple):
    """A group in the solution: its rank (1…13), the suits of its natural cards, its jokers."""

    rank: int
    suits: tuple[int, ...]
    jokers: int


class Solution(NamedTuple):
    """The best play: its value, the hand cards used per (suit, rank), and the melds.

    Attributes:
        value: the summed value of the hand cards played, jokers included.
        used: how many hand cards of each (suit, rank) are played, by ``suit * 13 + rank - 1``.
        hand_jokers: how many of the hand's jokers are played.
        runs: the runs of the new table.
        groups: the groups of the new table.
    """

    value: int
    used: tuple[int, ...]
    hand_jokers: int
    runs: tuple[Run, ...]
    groups: tuple[Group, ...]


# ------------------------------------------------------------------------------------------
# Groups: which per-suit tile counts at one rank can be cut into groups, with how many jokers.


@functools.lru_cache(maxsize=4096)
def _group_partitions(
    counts: tuple[int, ...], jokers: int, min_size: int, max_size: int
) -> tuple[tuple[tuple[int, ...], int], ...] | None:
    """One way to cut ``counts`` (tiles per suit) plus exactly ``jokers`` into groups.

    Returns the groups as (suits, jokers) pairs, or ``None`` when it cannot be done.
    """
    live = [suit for suit in range(len(counts)) if counts[suit]]
    if not live:
        return () if jokers == 0 else None
    first, others = live[0], live[1:]
    for size in range(len(others), -1, -1):
        for combo in itertools.combinations(others, size):
            members = (first, *combo)
            for extra in range(jokers + 1):
                total = len(members) + extra
                if total < min_size or total > max_size or total > SUITS:
                    continue
                rest = list(counts)
                for suit in members:
                    rest[suit] -= 1
                tail = _group_partitions(tuple(rest), jokers - extra, min_size, max_size)
                if tail is not None:
                    return ((members, extra), *tail)
    return None


@functools.lru_cache(maxsize=64)
def _group_table(min_size: int, max_size: int, jokers: int) -> tuple[tuple[int, ...], ...]:
    """For each packed group code, the joker counts (0…``jokers``) that complete its groups."""
    table: list[tuple[int, ...]] = []
    for code in range(1 << 9):
        counts = _counts_of(code)
        if counts is None:
            table.append(())
            continue
        table.append(
            tuple(
                extra
                for extra in range(jokers + 1)
                if _group_partitions(counts, extra, min_size, max_size) is not None
            )
        )
    return tuple(table)


def _counts_of(code: int) -> tuple[int, ...] | None:
    """The per-suit counts (sorted, descending) a packed group code stands for."""
    ones, twos, threes = code & 7, code >> 3 & 7, code >> 6 & 7
    if ones + twos + threes > SUITS:
        return None
    counts = (3,) * threes + (2,) * twos + (1,) * ones
    return counts + (0,) * (SUITS - len(counts))


# ------------------------------------------------------------------------------------------
# Run states of one suit and their transitions.

_STATE_IDS: dict[tuple[int, int, int, int], int] = {}
_STATES: list[tuple[int, int, int, int]] = []
#: For each run state id: cards still owed to its short runs, less its runs that may stop.
_OWED: list[int] = [0] * (1 << _SUIT_BITS)


_STATE_LOCK: Final = threading.Lock()


def _state_id(state: tuple[int, int, int, int]) -> int:
    """The small number that stands for a run state (open runs per bucket) in packed keys.

    A new state is numbered under a lock, and its number is published last, once its entries
    in ``_STATES`` and ``_OWED`` are written: another thread never sees a half-made state.
    """
    found = _STATE_IDS.get(state)
    if found is not None:
        return found
    with _STATE_LOCK:
        found = _STATE_IDS.get(state)
        if found is None:
            found = len(_STATES)
            if found >= 1 << _SUIT_BITS:  # pragma: no cover  (needs absurd card counts)
                msg = "too many open runs in one suit"
                raise OverflowError(msg)
            _STATES.append(state)
            short, two, long, joker_end = state
            _OWED[found] = 2 * short + two + joker_end - long
            _STATE_IDS[state] = found
    return found


def _number_common_states() -> None:
    """Number the run states at import, in a fixed order: no runs open is state 0.

    Every state whose buckets hold at most two runs each is numbered, by tuple order. Packed
    keys, and with them the search's tie-breaks between equally good plays, then never depend
    on what was solved before in the process. Rarer states are numbered as they first appear.
    """
    for short, two, long, joker_end in itertools.product(range(3), repeat=4):
        _state_id((short, two, long, joker_end))


_number_common_states()


class _Step(NamedTuple):
    """One way to use the tiles of a (suit, position): the new run state and the details."""

    new_state: int
    jokers: int
    group: int
    #: Continued runs of each bucket that took a joker, and how many three-plus runs went on.
    joker_to: tuple[int, int, int, int]
    continued: int
    started_jokers: int


#: The step that changes nothing: no tiles, no runs open (always the first of its steps).
_IDLE: Final = _Step(
    new_state=0, jokers=0, group=0, joker_to=(0, 0, 0, 0), continued=0, started_jokers=0
)


@functools.lru_cache(maxsize=1 << 14)
def _steps(  # noqa: PLR0912, PLR0917  (the transition rules in one place)
    state: int,
    naturals: int,
    max_jokers: int,
    jokers_left: int,
    next_tiles: int,
    after_next_tiles: int,
    is_last: bool,
    joker_may_start: bool,
    strict: bool,
) -> tuple[_Step, ...]:
    """Every way to use ``naturals`` natural tiles and up to ``max_jokers`` jokers at a slot."""
    k1, k2, k3, k4 = _STATES[state]
    need = k1 + k2 + k4
    steps: list[_Step] = []
    for jokers in range(max_jokers + 1):
        total = naturals + jokers
        if total < need:
            continue
        left = jokers_left - jokers
        for continued in range(min(k3, total - need) + 1):
            joker_splits = (
                [(0, 0, 0)]
                if strict
                else [
                    (on_three, on_needed, jokers - on_three - on_needed)
                    for on_three in range(min(continued, jokers) + 1)
                    for on_needed in range(min(jokers - on_three, need) + 1)
                ]
            )
            for on_three, on_needed, started in joker_splits:
                if started and not joker_may_start:
                    continue
                if strict:
                    spare = total - need - continued
                    group_limit = min(spare, naturals, 3)
                else:
                    spare = naturals - (need - on_needed) - (continued - on_three)
                    if spare < 0:
                        continue
                    group_limit = min(spare, 3)
                for group in range(group_limit + 1):
                    new_runs = spare - group + (0 if strict else started)
                    if new_runs and continued < k3:
                        continue  # continuing an open run is never worse than a new one
                    splits = (
                        [(0, 0, 0)]
                        if strict
                        else [
                            (on_1, on_needed - on_1 - on_4, on_4)
                            for on_4 in range(max(0, on_needed - k1 - k2), min(on_needed, k4) + 1)
                            for on_1 in [min(on_needed - on_4, k1)]
                        ]
                    )
                    for on_1, on_2, on_4 in splits:
                        n1 = new_runs
                        n2 = k1
                        n3 = k2 + (k4 - on_4) + (continued - on_three)
                        n4 = on_4 + on_three
                        if is_last:
                            if n1 or n2 or n4:
                                continue
                        else:
                            due = n1 + n2 + n4
                            if next_tiles + left < due or after_next_tiles + left < n1:
                                continue
                            n3 = min(n3, next_tiles + left - due)
                        steps.append(
                            _Step(
                                new_state=_state_id((n1, n2, n3, n4)),
                                jokers=jokers,
                                group=group,
                                joker_to=(on_1, on_2, on_three, on_4),
                                continued=continued,
                                started_jokers=started,
                            )
                        )
    return tuple(steps)


# ------------------------------------------------------------------------------------------
# The search.


class _Problem(NamedTuple):
    layout: Layout
    must: tuple[tuple[int, ...], ...]  # [suit][position]
    optional: tuple[tuple[int, ...], ...]
    values: tuple[tuple[int, ...], ...]
    table_jokers: int
    hand_jokers: int
    joker_value: int
    min_size: int
    max_group_size: int
    high_ace_possible: tuple[bool, ...]


def solve(
    layout: Layout,
    must: Sequence[int],
    optional: Sequence[int],
    values: Sequence[int],
    *,
    table_jokers: int,
    hand_jokers: int,
    joker_value: int,
    min_size: int = 3,
    max_group_size: int = 4,
    longest_run: int = 13,
    exhaustive: bool = False,
) -> Solution | None:
    """The best play, or ``None`` when the table cannot be kept in melds at all.

    Args:
        layout: the ace rule's positions.
        must: per card index (``suit * 13 + rank - 1``), the tiles that must be placed (table
            cards and pseudo-naturals).
        optional: per card index, the hand cards that may be placed.
        values: per card index, the value of placing one hand card of it.
        table_jokers: free jokers that must be placed.
        hand_jokers: free jokers from the hand, each worth ``joker_value``.
        joker_value: the value of placing one hand joker.
        min_size: the fewest cards in a meld.
        max_group_size: the most cards in a group.
        longest_run: the most cards in one run (longer runs are cut into pieces).
        exhaustive: search every state, with no beam, bound or dead-state test (slow: for
            tests, which hold the pruned search to it).
    """
    if not exhaustive and _empty_table_applies(
        layout, must, optional, table_jokers, hand_jokers, min_size
    ):
        quick = _solve_empty_table(
            layout, optional, values, max_group_size=max_group_size, longest_run=longest_run
        )
        if quick is not None:
            return quick
    positions = len(layout.ranks)

    def grid(flat: Sequence[int]) -> tuple[tuple[int, ...], ...]:
        return tuple(
            tuple(flat[suit * 13 + rank - 1] for rank in layout.ranks) for suit in range(SUITS)
        )

    must_grid, optional_grid, value_grid = grid(must), grid(optional), grid(values)
    jokers = table_jokers + hand_jokers
    high_possible = []
    for suit in range(SUITS):
        if not layout.shared_aces:
            high_possible.append(False)
            continue
        gaps = sum(
            1
            for position in range(positions - min_size, positions - 1)
            if not must_grid[suit][position] + optional_grid[suit][position]
        )
        high_possible.append(gaps <= jokers)
    problem = _Problem(
        layout=layout,
        must=must_grid,
        optional=optional_grid,
        values=value_grid,
        table_jokers=table_jokers,
        hand_jokers=hand_jokers,
        joker_value=joker_value,
        min_size=min_size,
        max_group_size=max_group_size,
        high_ace_possible=tuple(high_possible),
    )
    # every search reads the same tiles and bounds: worked out once
    available = _available(problem)
    bounds = _future_bounds(problem, available, jokers)
    if exhaustive:
        bounds = _no_bounds(len(bounds.needed), jokers)
    ceiling = bounds.ceiling
    searched = functools.partial(_search, problem, jokers=jokers, bounds=bounds)
    relaxed = _plan(problem, available, strict=False)
    relaxed_tables = _step_tables(relaxed, jokers)
    # a quick beam search finds a good solution; the exact search then only looks for better
    placeable = [value for value, count in zip(values, optional, strict=True) if count]
    unit = max(1, sum(placeable) // len(placeable)) if placeable else 1
    reached = None
    for width in () if exhaustive else BEAMS:
        reached = searched(
            strict=False,
            plan=relaxed,
            tables=relaxed_tables,
            beam=width,
            unit=unit,
        )
        if reached is not None:
            break
    if reached is None or reached.value < ceiling:
        floor = _NEG if reached is None else reached.value + 1
        better = searched(strict=False, plan=relaxed, tables=relaxed_tables, floor=floor)
        if better is not None:
            reached = better
    if reached is not None:
        # only the search whose result is kept traces its melds back
        runs, groups, used, hand_used, value = _trace_back(problem, reached)
        spare = table_jokers + hand_jokers - sum(sum(run.jokers) for run in runs)
        spare -= sum(group.jokers for group in groups)
        placed = _absorb(runs, groups, spare, layout, max_group_size, longest_run)
        if placed is not None:
            runs, groups = placed
            return _finish(
                runs, groups, used, hand_jokers, value + hand_jokers * joker_value, longest_run
            )
    strict_plan = _plan(problem, available, strict=True)
    reached = searched(
        strict=True,
        plan=strict_plan,
        tables=_step_tables(strict_plan, jokers),
    )
    if reached is None:
        return None
    runs, groups, used, hand_used, value = _trace_back(problem, reached)
    return _finish(runs, groups, used, hand_used, value, longest_run)


def _no_bounds(steps: int, jokers: int) -> _Bounds:
    """Bounds that prune nothing: every state may gain more than any value."""
    gains: list[list[int | None]] = [[-_NEG] * (jokers + 1) for _ in range(steps)]
    return _Bounds([0] * steps, -_NEG, gains)


def _step_tables(
    plan: Sequence[tuple[_Context, _Signature]], jokers: int
) -> list[dict[int, tuple[tuple[int, int], ...]] | None]:
    """The :func:`_step_table` of each step without aces of ``plan``."""
    return [
        None
        if context.low_ace or context.high_ace
        else _step_table(signature, context.must, context.optional, context.value, jokers)
        for context, signature in plan
    ]


def _finish(  # noqa: PLR0917
    runs: list[Run],
    groups: list[Group],
    used: list[int],
    hand_jokers: int,
    value: int,
    longest_run: int,
) -> Solution:
    pieces: list[Run] = []
    for run in runs:
        pieces.extend(_cut(run, longest_run))
    return Solution(
        value=value,
        used=tuple(used),
        hand_jokers=hand_jokers,
        runs=tuple(sorted(pieces)),
        groups=tuple(sorted(groups)),
    )


def _cut(run: Run, longest: int) -> list[Run]:
    """Cut a run longer than ``longest`` into nearly equal pieces of at least three."""
    size = len(run.jokers)
    count = -(-size // longest)
    pieces = []
    start = 0
    for number in range(count):
        length = size // count + (1 if number < size % count else 0)
        pieces.append(Run(run.suit, run.start + start, run.jokers[start : start + length]))
        start += length
    return pieces


def _absorb(  # noqa: PLR0917
    runs: list[Run],
    groups: list[Group],
    spare: int,
    layout: Layout,
    max_group_size: int,
    longest_run: int,
) -> tuple[list[Run], list[Group]] | None:
    """Add ``spare`` jokers to melds with room, or ``None`` if they do not fit."""
    runs = list(runs)
    groups = list(groups)
    last = len(layout.ranks) - 1
    most = min(13, max(longest_run, 13))  # runs may be cut later; two aces never
    for index, original in enumerate(runs):
        run = original
        while spare:
            end = run.start + len(run.jokers) - 1
            if len(run.jokers) >= most:
                break
            if end < last:
                run = Run(run.suit, run.start, (*run.jokers, True))
            elif run.start > 0:
                run = Run(run.suit, run.start - 1, (True, *run.jokers))
            else:
                break
            spare -= 1
        runs[index] = run
    for index, group in enumerate(groups):
        room = min(max_group_size, SUITS) - len(group.suits) - group.jokers
        take = min(room, spare)
        if take > 0:
            groups[index] = Group(group.rank, group.suits, group.jokers + take)
            spare -= take
    if spare:
        return None
    return runs, groups


class _Context(NamedTuple):
    """The fixed facts of one suit step of the search."""

    position: int
    suit: int
    must: int
    optional: int
    value: int
    following: int
    after: int
    is_last: bool
    low_ace: bool
    high_ace: bool
    high_possible: bool
    may_start: bool
    #: Whether the position's groups are closed at this step: its last suit with tiles.
    closes: bool


def _splits(context: _Context, key: int) -> list[tuple[int, int, int, int]]:
    """The ways to take this slot's natural tiles: (must here, hand cards here, carried)."""
    if context.low_ace:
        if context.high_possible:
            return [
                (must_low, use, context.must - must_low, context.optional - use)
                for must_low in range(context.must + 1)
                for use in range(context.optional + 1)
            ]
        return [(context.must, use, 0, 0) for use in range(context.optional + 1)]
    if context.high_ace:
        carried = key >> _ACE_SHIFT + 4 * context.suit & 15
        return [(carried & 3, use, 0, 0) for use in range((carried >> 2) + 1)]
    return [(context.must, use, 0, 0) for use in range(context.optional + 1)]


def _joker_room(
    context: _Context, key: int, must_here: int, use: int, left: int, *, strict: bool
) -> int:
    """How many jokers may fill this slot (relaxed: only once its natural tiles are all used)."""
    if strict:
        return left
    if context.high_ace:
        carried = key >> _ACE_SHIFT + 4 * context.suit & 15
        return left if use == carried >> 2 else 0
    if context.low_ace:
        return left if use == context.optional and must_here == context.must else 0
    return left if use == context.optional else 0


def _context_steps(  # noqa: PLR0917
    context: _Context, state: int, naturals: int, max_jokers: int, left: int, strict: bool
) -> tuple[_Step, ...]:
    return _steps(
        state,
        naturals,
        max_jokers,
        left,
        context.following,
        context.after,
        context.is_last,
        context.may_start,
        strict,
    )


def _available(problem: _Problem) -> list[list[int]]:
    """The tiles of each (suit, position), table and hand together, and two empty positions."""
    return [
        [must + optional for must, optional in zip(row, other, strict=True)] + [0, 0]
        for row, other in zip(problem.must, problem.optional, strict=True)
    ]


def _fewest_jokers(masks: Sequence[int], suit: int, position: int, last: int) -> int:
    """The fewest jokers a meld holding a tile of (``suit``, ``position``) needs.

    A group needs two other suits of its rank, a run a window of three positions around the
    tile; each missing tile is a joker. ``masks`` holds, per suit, a bit for each position
    with a tile (table or hand): every tile counts as available, so it is a lower bound.
    """
    bit = 1 << position
    others = 0
    for other in range(SUITS):
        if other != suit and masks[other] & bit:
            others += 1
    if others >= 2:
        return 0
    fewest = 2 - others
    row = masks[suit] & ~bit
    for low in range(max(0, position - 2), min(position, last - 2) + 1):
        missing = 2 - (row & 7 << low).bit_count()
        fewest = min(fewest, missing)
    return fewest


def _needs(
    problem: _Problem, masks: Sequence[int]
) -> tuple[list[list[int]], list[list[int]], list[list[int]]]:
    """The value of each slot's hand cards, the fewest jokers they need, and those of its tiles.

    Returns ``worth[suit][position]``, ``need[suit][position]`` and
    ``must_need[position][suit]`` (0 for aces, and shared aces count at the high position).
    """
    layout = problem.layout
    positions = len(layout.ranks)
    last = positions - 1
    worth = [[0] * positions for _ in range(SUITS)]
    need = [[0] * positions for _ in range(SUITS)]
    must_need = [[0] * SUITS for _ in range(positions)]
    for position in range(positions):
        is_ace = layout.ranks[position] == 1
        for suit in range(SUITS):
            if problem.must[suit][position] and not is_ace:
                must_need[position][suit] = _fewest_jokers(masks, suit, position, last)
            count = problem.optional[suit][position]
            if not count or (layout.shared_aces and position == 0):
                continue
            worth[suit][position] = count * problem.values[suit][position]
            if not is_ace:
                need[suit][position] = _fewest_jokers(masks, suit, position, last)
    return worth, need, must_need


def _jokers_ahead(
    must_need: Sequence[Sequence[int]], masks: Sequence[int], jokers: int
) -> list[int]:
    """Per position, a lower bound on the jokers the table tiles there and beyond need.

    Tiles that need jokers are taken from the last position down, each only if no meld can
    hold it and a tile taken before at a saving: taken tiles are at different positions, and
    two of one suit have at least as many empty positions between them as the jokers both
    need. Every taken tile's meld then holds its own jokers, so their needs add up.
    """
    positions = len(must_need)
    ahead = [0] * (positions + 4)
    taken: list[tuple[int, int, int]] = []  # (suit, position, need)
    total = 0
    for position in range(positions - 1, -1, -1):
        for suit in range(SUITS):
            need = must_need[position][suit]
            if not need or total > jokers:
                continue
            empty = ~masks[suit]
            if all(
                other_suit != suit
                or (empty & ((1 << other_position) - (2 << position))).bit_count()
                >= need + other_need
                for other_suit, other_position, other_need in taken
            ):
                taken.append((suit, position, need))
                total += need
                break  # one tile per position
        ahead[position] = total
    return ahead


class _Bounds(NamedTuple):
    """What the search may still gain, and the jokers it still needs, after each suit step.

    Attributes:
        needed: per step, the fewest jokers that must be left for the table tiles three or more
            positions ahead (a state with fewer cannot place them all).
        ceiling: the bound before the first step.
    """

    needed: list[int]
    ceiling: int
    #: per step, per jokers used: what the hand cards not yet reached could still add with the
    #: jokers left, or ``None`` for a dead state
    gains: list[list[int | None]]


def _future_bounds(problem: _Problem, available: Sequence[Sequence[int]], jokers: int) -> _Bounds:
    """For each number of jokers left, what the hand cards after each suit step could add.

    A hand card three or more positions ahead can only go into a meld of later tiles, so with
    ``left`` jokers it counts only if some group or three-card run around it misses at most
    ``left`` tiles. Nearer cards, and aces (low or high), always count. A table tile three or
    more positions ahead must go into such a meld: a state with fewer jokers left than it needs
    is dead.
    """
    positions = len(problem.layout.ranks)
    last = positions - 1
    masks = [sum(1 << spot for spot, count in enumerate(row) if count) for row in available]
    worth, need, must_need = _needs(problem, masks)
    ahead = _jokers_ahead(must_need, masks, jokers)
    # every[q]: all hand cards at positions q and beyond; reach[left][q]: what ``left`` jokers
    # reach of them. A card that needs a joker is in a meld with one, and each joker is in one
    # meld: a group (one rank) or a run (one suit). So with ``left`` jokers the cards that need
    # one add at most the ``left`` most valuable of the ranks' and the suits' such cards.
    every = [0] * (positions + 4)
    reach = [[0] * (positions + 4) for _ in range(jokers + 1)]
    # (and no more than those that need at most ``left`` jokers each)
    by_need = [0] * (jokers + 2)  # the cards from here on, by the jokers they need
    by_rank: list[int] = []
    by_suit = [0] * SUITS
    for position in range(last, -1, -1):
        rank_total = 0
        for suit in range(SUITS):
            card_worth = worth[suit][position]
            if card_worth:
                fewest = min(need[suit][position], jokers + 1)
                by_need[fewest] += card_worth
                if 0 < fewest <= jokers:
                    rank_total += card_worth
                    by_suit[suit] += card_worth
        every[position] = sum(by_need)
        if rank_total:
            by_rank.append(rank_total)
        clusters = sorted((*by_rank, *by_suit), reverse=True)
        for left in range(jokers + 1):
            reach[left][position] = by_need[0] + min(
                sum(clusters[:left]), sum(by_need[1 : left + 1])
            )
    needed: list[int] = []
    gains: list[list[int | None]] = []
    total = every[0]
    for position in range(positions):
        far = position + 3
        must_left = ahead[far]
        for suit in range(SUITS):
            total -= worth[suit][position]
            near = total - every[far]
            needed.append(must_left)
            gains.append(
                [
                    near + reach[jokers - used][far] if jokers - used >= must_left else None
                    for used in range(jokers + 1)
                ]
            )
    return _Bounds(needed, every[0] - every[3] + reach[jokers][3], gains)


def _best_states(layer: dict[int, int], beam: int, unit: int) -> dict[int, int]:
    """The ``beam`` states of ``layer`` the beam keeps, in a fixed order (larger first).

    Twice the value, less ``unit`` (the value of a typical hand card) for each card still owed
    to a short run and each joker used; then the smaller key. Valuing a state by what it has
    placed alone leads the beam into dead ends: states that took a hand card early in a way
    the table cannot complete.
    """
    owed = _OWED
    scores = [
        (
            (
                (packed >> _VALUE_SHIFT) * 2
                - (
                    owed[key & 0xFF]
                    + owed[key >> 8 & 0xFF]
                    + owed[key >> 16 & 0xFF]
                    + owed[key >> 24 & 0xFF]
                    + (key >> _J_SHIFT & 15)
                )
                * unit
            )
            << _KEY_BITS
        )
        - key
        for key, packed in layer.items()
    ]
    scores.sort(reverse=True)
    return {(-score) & _KEY_MASK: layer[(-score) & _KEY_MASK] for score in scores[:beam]}


#: What a step's transitions depend on besides the state: see :func:`_moves`.
_Signature = tuple[int, int, int, bool, bool, bool, tuple[int, ...], int, int, bool]


def _plan(
    problem: _Problem, available: Sequence[Sequence[int]], *, strict: bool
) -> list[tuple[_Context, _Signature]]:
    """The fixed facts of every suit step of a search, in order: made once per problem."""
    layout = problem.layout
    positions = len(layout.ranks)
    must, optional, values = problem.must, problem.optional, problem.values
    shared = layout.shared_aces
    last = positions - 1
    joker_start = positions - problem.min_size
    plan: list[tuple[_Context, _Signature]] = []
    min_size, max_size = problem.min_size, problem.max_group_size
    for position in range(positions):
        is_last = position == last
        low_ace = shared and position == 0
        high_ace = shared and is_last
        may_start = strict or position == joker_start
        column = [min(available[suit][position], 3) for suit in range(SUITS)]
        closer = max((suit for suit in range(SUITS) if column[suit]), default=SUITS - 1)
        for suit in range(SUITS):
            row = available[suit]
            following, after = row[position + 1], row[position + 2]
            context = _Context(
                position,
                suit,
                must[suit][position],
                optional[suit][position],
                values[suit][position],
                following,
                after,
                is_last,
                low_ace,
                high_ace,
                problem.high_ace_possible[suit],
                may_start,
                suit == closer,
            )
            signature = (
                suit,
                following,
                after,
                is_last,
                may_start,
                strict,
                tuple(column[suit + 1 :]),
                min_size,
                max_size,
                suit == closer,
            )
            plan.append((context, signature))
    return plan


class _Reached(NamedTuple):
    """The best final state of a search, with what it takes to trace its melds back."""

    value: int
    key: int
    contexts: list[_Context]
    layers: list[dict[int, int]]
    jokers: int
    strict: bool


def _trace_back(
    problem: _Problem, reached: _Reached
) -> tuple[list[Run], list[Group], list[int], int, int]:
    """The melds of a search's best final state: runs, groups, hand cards and jokers used, value."""
    choices = _choices(reached, reached.key)
    return _trace(problem, choices, reached.value, strict=reached.strict)


def _search(  # noqa: PLR0912, PLR0915  (the hot loop, kept flat for speed)
    problem: _Problem,
    *,
    strict: bool,
    jokers: int,
    plan: list[tuple[_Context, _Signature]],
    bounds: _Bounds,
    tables: Sequence[dict[int, tuple[tuple[int, int], ...]] | None],
    floor: int = _NEG,
    beam: int = 0,
    unit: int = 1,
) -> _Reached | None:
    """Run the programme with at most ``jokers`` jokers, dropping states below ``floor``.

    ``plan`` is :func:`_plan` of the problem (for ``strict``), ``tables`` its steps'
    :func:`_step_table` (``None`` for a step with aces) and ``bounds`` its
    :func:`_future_bounds`. With ``beam``, only that many of the best states are kept after
    each step (by :func:`_best_states` with ``unit``): a quick search for a good solution, not
    necessarily the best.
    """
    # Each layer maps a packed state to ``value << _VALUE_SHIFT | mark``, where the mark names
    # the parent state and the choice that led here: one dictionary write per improvement, and
    # ties go to the larger mark, so the result is deterministic.
    layer: dict[int, int] = {0: 0}
    layers: list[dict[int, int]] = []
    step_number = 0
    while step_number < len(plan):
        context, signature = plan[step_number]
        suit = context.suit
        shift = suit * _SUIT_BITS
        ace_shift = _ACE_SHIFT + 4 * suit
        value_each = context.value
        # per jokers used: the value a state needs, or more than any value (dead states)
        thresholds = [
            floor - gain if gain is not None else _DEAD for gain in bounds.gains[step_number]
        ]
        moves_cache = tables[step_number]
        step_number += 1
        nxt: dict[int, int] = {}
        put = nxt.setdefault
        if moves_cache is not None:
            # the common case, kept apart for speed: every hand card count ``use`` at once,
            # as (the mark's addition, the change of the packed state), best value first;
            # the constants are inlined (see the asserts below the function)
            cutoffs = [threshold << 112 for threshold in thresholds]
            for key, packed in layer.items():
                sub = key >> shift & 0xFF | key >> 32 << 8
                moves = moves_cache.get(sub)
                if moves is None:
                    moves = _plain_moves(
                        signature, context.must, context.optional, value_each, sub, jokers
                    )
                    moves_cache[sub] = moves
                base = packed >> 112 << 112
                cutoff = cutoffs[sub >> 8 & 15] - base
                base |= key << 32
                for add, delta in moves:
                    if add < cutoff:
                        break
                    new_key = key + delta
                    entry = base + add
                    if put(new_key, entry) < entry:
                        nxt[new_key] = entry
        else:
            ace_moves: dict[int, tuple[tuple[int, int], ...]] = {}
            for key, packed in layer.items():
                value = packed >> _VALUE_SHIFT
                state = key >> shift & 0xFF
                left = jokers - (key >> _J_SHIFT & 15)
                threshold = thresholds[key >> _J_SHIFT & 15]
                code = key >> _G_SHIFT & _G_MASK
                parent = key << _PARENT_SHIFT
                for split, (must_here, use, must_rest, optional_rest) in enumerate(
                    _splits(context, key)
                ):
                    gained = value + use * value_each
                    if gained < threshold:
                        continue
                    room = _joker_room(context, key, must_here, use, left, strict=strict)
                    naturals = must_here + use
                    cache_key = state | naturals << 8 | room << 12 | left << 16 | code << 20
                    moves = ace_moves.get(cache_key)
                    if moves is None:
                        moves = _moves(signature, cache_key, shift, jokers)
                        ace_moves[cache_key] = moves
                    if context.low_ace:
                        base = key + ((must_rest | optional_rest << 2) << ace_shift)
                    else:
                        base = key - ((key >> ace_shift & 15) << ace_shift)
                    mark = gained << _VALUE_SHIFT | parent | split << 10
                    for delta, number in moves:
                        new_key = base + delta
                        entry = mark | number
                        if put(new_key, entry) < entry:
                            nxt[new_key] = entry
        if beam and len(nxt) > beam:
            nxt = _best_states(nxt, beam, unit)
        if not nxt:
            return None  # no state left: no later step can make one
        layer = nxt
        layers.append(nxt)
    best_key = None
    best_value = _NEG
    for key, packed in layer.items():
        value = packed >> _VALUE_SHIFT
        used = key >> _J_SHIFT & 15
        if strict:
            if used < problem.table_jokers:
                continue
            value += (used - problem.table_jokers) * problem.joker_value
        if value > best_value:
            best_key, best_value = key, value
    if best_key is None:
        return None
    contexts = [context for context, _ in plan]
    return _Reached(best_value, best_key, contexts, layers, jokers, strict)


# the constants the hot loop of _search spells out
assert (_VALUE_SHIFT, _PARENT_SHIFT, _J_SHIFT) == (112, 32, 32)


@functools.lru_cache(maxsize=1 << 12)
def _step_table(
    signature: _Signature, must: int, optional: int, value: int, jokers: int
) -> dict[int, tuple[tuple[int, int], ...]]:
    """The transitions of one kind of step without aces, by :func:`_plain_moves`'s ``sub``.

    Filled as the searches meet new states; it holds at most one entry per run state, jokers
    used and group code, and the cache bounds how many such tables are kept.
    """
    return {}


def _plain_moves(  # noqa: PLR0917
    signature: _Signature, must: int, optional: int, value: int, sub: int, jokers: int
) -> tuple[tuple[int, int], ...]:
    """The transitions from one state of a step without aces: (mark addition, state change).

    ``sub`` is the state's run state in the step's suit, with its jokers used, group code and
    ace tiles above. They come most valuable first, so that the search stops at the first one
    below its threshold; the mark addition holds the value gained, the hand cards used and the
    step's number.
    """
    strict = signature[5]
    shift = signature[0] * _SUIT_BITS
    state = sub & 0xFF
    left = jokers - (sub >> 8 & 15)
    partial = state | left << 16 | (sub >> 12 & _G_MASK) << 20
    found: list[tuple[int, int]] = []
    for use in range(optional, -1, -1):
        cache_key = partial | (must + use) << 8
        if strict or use == optional:
            cache_key |= left << 12
        gain = (use * value) << _VALUE_SHIFT | use << 10
        found += [
            (gain | number, delta) for delta, number in _moves(signature, cache_key, shift, jokers)
        ]
    return tuple(found)


@functools.lru_cache(maxsize=1 << 16)
def _moves(
    signature: _Signature,
    cache_key: int,
    shift: int,
    jokers: int,
) -> tuple[tuple[int, int], ...]:
    """The transitions of one step as (change of the packed state, step number) pairs.

    Only the steps whose group tiles can still be completed into groups are kept. At the last
    suit of a position with tiles (no later suit can add to its groups) the groups of the
    position are closed too: the group tiles are cut into groups with the fewest jokers (every
    count that completes them, in the strict search), and that count is in the step number's
    bits from :data:`_EXTRA_SHIFT`.
    """
    _, following, after, is_last, may_start, strict, later, min_size, max_size, closing = signature
    state = cache_key & 0xFF
    naturals = cache_key >> 8 & 15
    max_jokers = cache_key >> 12 & 15
    left = cache_key >> 16 & 15
    code = cache_key >> 20
    steps = _steps(state, naturals, max_jokers, left, following, after, is_last, may_start, strict)
    table = _group_table(min_size, max_size, jokers) if closing else ()
    found: list[tuple[int, int]] = []
    for number, step in enumerate(steps):
        final = code + _G_DELTA[step.group]
        if _group_need(final, later, min_size, max_size) > left - step.jokers:
            continue
        delta = ((step.new_state - state) << shift) + (step.jokers << _J_SHIFT)
        if not closing:
            found.append((delta + (_G_DELTA[step.group] << _G_SHIFT), number))
            continue
        # the position's groups: its code goes, the jokers they take are used
        delta -= code << _G_SHIFT
        if not final:
            found.append((delta, number))
            continue
        for extra in table[final] if strict else table[final][:1]:
            if extra > left - step.jokers:
                break
            found.append((delta + (extra << _J_SHIFT), number | extra << _EXTRA_SHIFT))
    return tuple(found)


@functools.lru_cache(maxsize=4096)
def _group_need(code: int, later: tuple[int, ...], min_size: int, max_size: int) -> int:
    """The fewest jokers that complete the groups of ``code`` with any tiles of later suits."""
    best = 99
    for extra in itertools.product(*(range(cap + 1) for cap in later)):
        total = code
        for count in extra:
            total += _G_DELTA[count]
        if _counts_of(total) is None:
            continue
        options = _group_table(min_size, max_size, 8)[total]
        if options:
            best = min(best, options[0])
    return best


def _path(reached: _Reached, key: int) -> list[tuple[int, int, int]]:
    """(step, the state before it, its 16 mark bits) on the way to ``key``, last step first."""
    path: list[tuple[int, int, int]] = []
    for step in range(len(reached.layers) - 1, -1, -1):
        mark = reached.layers[step][key] & _MARK_MASK
        parent_key = mark >> _PARENT_SHIFT
        path.append((step, parent_key, mark & 0xFFFF))
        key = parent_key
    return path


def _choices(reached: _Reached, key: int) -> list[tuple[int, int, _Step] | int]:
    """The choice made at every step on the way to ``key``, first step first.

    A suit step's choice is (table tiles there, hand cards there, transition); after the last
    suit of a position comes the number of jokers the position's groups took (at the step
    that closed them).
    """
    contexts, jokers, strict = reached.contexts, reached.jokers, reached.strict
    path = _path(reached, key)
    choices: list[tuple[int, int, _Step] | int] = []
    groups_at = 0  # where the jokers of the position's groups go, once known
    for step_number, parent_key, bits in path:
        context = contexts[step_number]
        if context.suit == SUITS - 1:
            groups_at = len(choices)
            choices.append(0)  # the position's groups, after its last suit
        if context.closes:
            choices[groups_at] = bits >> _EXTRA_SHIFT & 3
        split, number = bits >> 10 & 15, bits & 0x3FF
        state = parent_key >> context.suit * _SUIT_BITS & 0xFF
        if not (number or state or context.must or context.optional):
            choices.append((0, 0, _IDLE))  # nothing here and no run open: the first step
            continue
        left = jokers - (parent_key >> _J_SHIFT & 15)
        if context.low_ace or context.high_ace:
            must_here, use, _, _ = _splits(context, parent_key)[split]
            room = _joker_room(context, parent_key, must_here, use, left, strict=strict)
        else:  # what _splits and _joker_room say without aces
            must_here, use = context.must, split
            room = left if strict or use == context.optional else 0
        steps = _context_steps(context, state, must_here + use, room, left, strict)
        choices.append((must_here, use, steps[number]))
    choices.reverse()
    return choices


def _trace(  # noqa: PLR0912, PLR0915
    problem: _Problem, choices: Sequence[tuple[int, int, _Step] | int], value: int, *, strict: bool
) -> tuple[list[Run], list[Group], list[int], int, int]:
    """Rebuild the melds from the choices made at every step."""
    layout = problem.layout
    positions = len(layout.ranks)
    # open[suit] = four buckets of runs; a run is [start position, [is_joker...]]
    buckets: list[list[list[tuple[int, list[bool]]]]] = [[[], [], [], []] for _ in range(SUITS)]
    runs: list[Run] = []
    groups: list[Group] = []
    used = [0] * 52
    jokers_used = 0
    index = 0
    for position in range(positions):
        rank = layout.ranks[position]
        group_tiles = [0] * SUITS
        for suit in range(SUITS):
            choice = choices[index]
            index += 1
            assert isinstance(choice, tuple)
            must_here, use, step = choice
            jokers, group, joker_to = step.jokers, step.group, step.joker_to
            continued, started = step.continued, step.started_jokers
            used[suit * 13 + rank - 1] += use
            jokers_used += jokers
            group_tiles[suit] = group
            k1, k2, k3, k4 = buckets[suit]
            naturals = must_here + use
            tiles = naturals + jokers
            if not tiles and not (k1 or k2 or k3 or k4):
                continue  # nothing here and no run open: nothing changes
            if strict:
                # every slot of the runs may hold a joker: give them out in bucket order
                on_1 = min(jokers, len(k1))
                on_2 = min(jokers - on_1, len(k2))
                on_3 = min(jokers - on_1 - on_2, continued)
                on_4 = 0
                started = jokers - on_1 - on_2 - on_3
            else:
                on_1, on_2, on_3, on_4 = joker_to
            new1: list[tuple[int, list[bool]]] = []
            new2: list[tuple[int, list[bool]]] = []
            new3: list[tuple[int, list[bool]]] = []
            new4: list[tuple[int, list[bool]]] = []

            for number, run in enumerate(k1):
                run[1].append(number < on_1)
                new2.append(run)
            for number, run in enumerate(k2):
                run[1].append(number < on_2)
                new3.append(run)
            for number, run in enumerate(k4):
                is_joker = number < on_4
                run[1].append(is_joker)
                if is_joker and not strict:
                    new4.append(run)
                else:
                    new3.append(run)
            for number, run in enumerate(k3):
                if number < continued:
                    is_joker = number < on_3
                    run[1].append(is_joker)
                    if is_joker and not strict:
                        new4.append(run)
                    else:
                        new3.append(run)
                else:
                    runs.append(Run(suit, run[0], tuple(run[1])))
            fresh = tiles - len(k1) - len(k2) - len(k4) - continued - group
            new1.extend((position, [number < started]) for number in range(fresh))
            buckets[suit] = [new1, new2, new3, new4]
        extra = choices[index]
        index += 1
        assert isinstance(extra, int)
        jokers_used += extra
        if any(group_tiles):
            order_suits = sorted(range(SUITS), key=lambda suit: -group_tiles[suit])
            counts = tuple(group_tiles[suit] for suit in order_suits)
            partition = _group_partitions(counts, extra, problem.min_size, problem.max_group_size)
            assert partition is not None
            for members, joker_count in partition:
                groups.append(
                    Group(rank, tuple(sorted(order_suits[m] for m in members)), joker_count)
                )
    for suit in range(SUITS):
        for bucket in buckets[suit]:
            for start, flags_list in bucket:
                runs.append(Run(suit, start, tuple(flags_list)))
    hand_used = max(0, jokers_used - problem.table_jokers) if strict else problem.hand_jokers
    return runs, groups, used, hand_used, value


# ------------------------------------------------------------------------------------------
# An empty table without jokers: only disjoint melds of hand cards.


def _empty_table_applies(  # noqa: PLR0917
    layout: Layout,
    must: Sequence[int],
    optional: Sequence[int],
    table_jokers: int,
    hand_jokers: int,
    min_size: int,
) -> bool:
    """Whether :func:`_solve_empty_table` answers the problem (else the general search does)."""
    return (
        not (table_jokers or hand_jokers or layout.shared_aces or any(must))
        and min_size == 3
        and max(optional) <= 2
    )


def _solve_empty_table(
    layout: Layout,
    optional: Sequence[int],
    values: Sequence[int],
    *,
    max_group_size: int = 4,
    longest_run: int = 13,
) -> Solution | None:
    """The best play onto an empty table with no jokers: disjoint melds of the hand's cards.

    Needs what :func:`_empty_table_applies` checks. Every choice of groups is tried (ranks in
    order; at a rank, each set of groups its cards allow), and for each the cards left in each
    suit are cut into the best runs by :func:`_suit_runs` (cached per row). The first best
    found is kept (the first with the most groups among equal values): deterministic. The
    choices multiply from rank to rank: when there are more than :data:`EMPTY_TABLE_CHOICES`
    (a large hand, say 30 tiles drawn before an initial meld), it returns ``None`` and the
    general search answers.
    """
    ranks = layout.ranks
    positions = len(ranks)
    counts = [[optional[suit * 13 + rank - 1] for rank in ranks] for suit in range(SUITS)]
    worth = [[values[suit * 13 + rank - 1] for rank in ranks] for suit in range(SUITS)]
    worth_rows = tuple(tuple(row) for row in worth)
    biggest = min(max_group_size, SUITS)
    # the group choices of each position that has three suits or more
    choices: list[tuple[int, list[tuple[tuple[int, ...], ...]]]] = []
    for position in range(positions):
        column = tuple(counts[suit][position] for suit in range(SUITS))
        if sum(1 for count in column if count) >= 3:
            choices.append((position, _group_choices(column, biggest)))
    combinations = 1
    for _, options in choices:
        combinations *= len(options)
    if combinations > EMPTY_TABLE_CHOICES:
        return None
    best_score = (-1, 0)
    best: tuple[list[tuple[int, tuple[int, ...]]], list[tuple[int, int, int]]] = ([], [])
    chosen: list[tuple[int, tuple[int, ...]]] = []

    def leaf() -> None:
        nonlocal best_score, best
        value = 0
        for position, suits in chosen:
            value += sum(worth[suit][position] for suit in suits)
        found: list[tuple[int, int, int]] = []
        for suit in range(SUITS):
            row_value, row_runs = _suit_runs(tuple(counts[suit]), worth_rows[suit])
            value += row_value
            found.extend((suit, start, length) for start, length in row_runs)
        # among equal values, the most groups (as the general search tends to)
        if (value, len(chosen)) > best_score:
            best_score = (value, len(chosen))
            best = (list(chosen), found)

    def visit(index: int) -> None:
        if index == len(choices):
            leaf()
            return
        position, options = choices[index]
        for option in options:
            for suits in option:
                for suit in suits:
                    counts[suit][position] -= 1
                chosen.append((position, suits))
            visit(index + 1)
            for suits in option:
                for suit in suits:
                    counts[suit][position] += 1
                chosen.pop()

    visit(0)
    chosen_groups, found_runs = best
    used = [0] * 52
    groups = []
    for position, suits in chosen_groups:
        rank = ranks[position]
        for suit in suits:
            used[suit * 13 + rank - 1] += 1
        groups.append(Group(rank, suits, 0))
    runs = []
    for suit, start, length in found_runs:
        for position in range(start, start + length):
            used[suit * 13 + ranks[position] - 1] += 1
        runs.append(Run(suit, start, (False,) * length))
    return _finish(runs, groups, used, 0, best_score[0], longest_run)


@functools.lru_cache(maxsize=256)
def _group_choices(column: tuple[int, ...], biggest: int) -> list[tuple[tuple[int, ...], ...]]:
    """Every set of groups (each a tuple of distinct suits) the cards of one rank allow.

    ``column`` holds the cards of each suit (0…2); no groups comes first.
    """
    live = [suit for suit in range(SUITS) if column[suit]]
    shapes = [
        combo for size in range(3, biggest + 1) for combo in itertools.combinations(live, size)
    ]
    found: list[tuple[tuple[int, ...], ...]] = [()]
    for first in range(len(shapes)):
        found.append((shapes[first],))
        for second in range(first, len(shapes)):
            both = shapes[first] + shapes[second]
            if all(both.count(suit) <= column[suit] for suit in both):
                found.append((shapes[first], shapes[second]))
    return found


@functools.lru_cache(maxsize=1 << 14)
def _suit_runs(
    counts: tuple[int, ...], worth: tuple[int, ...]
) -> tuple[int, tuple[tuple[int, int], ...]]:
    """The best runs (of three or more cards, no jokers) of one suit's cards, by position.

    Returns their value and each run's (first position, length). A dynamic programme over the
    positions: the state is how many runs are open with one card, two, and three or more.
    """
    # layer: state -> (value, parent state, runs continued from three-plus, runs started)
    layer: dict[tuple[int, int, int], int] = {(0, 0, 0): 0}
    history: list[dict[tuple[int, int, int], tuple[int, tuple[int, int, int], int, int]]] = []
    for position, count in enumerate(counts):
        nxt: dict[tuple[int, int, int], tuple[int, tuple[int, int, int], int, int]] = {}
        for state, value in layer.items():
            one, two, long = state
            need = one + two
            if count < need:
                continue
            for continued in range(min(long, count - need) + 1):
                most_new = count - need - continued if continued == long else 0
                for new in range(most_new + 1):
                    gained = value + (need + continued + new) * worth[position]
                    target = (new, one, two + continued)
                    held = nxt.get(target)
                    if held is None or gained > held[0]:
                        nxt[target] = (gained, state, continued, new)
        history.append(nxt)
        layer = {state: entry[0] for state, entry in nxt.items()}
    best_state = max(
        (state for state in layer if not (state[0] or state[1])), key=lambda state: layer[state]
    )
    value = layer[best_state]
    # back: the choices, then the runs rebuilt forwards
    picks: list[tuple[int, int]] = []
    state = best_state
    for nxt in reversed(history):
        _, parent, continued, new = nxt[state]
        picks.append((continued, new))
        state = parent
    picks.reverse()
    ones: list[int] = []
    twos: list[int] = []
    longs: list[int] = []
    runs: list[tuple[int, int]] = []
    for position, (continued, new) in enumerate(picks):
        ended = longs[continued:]
        runs.extend((start, position - start) for start in ended)
        longs = twos + longs[:continued]
        twos = ones
        ones = [position] * new
    runs.extend((start, len(counts) - start) for start in longs)
    return value, tuple(sorted(runs))
