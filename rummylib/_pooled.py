"""Complete arrangements that must hold runs, jokers and wild cards pooled (private).

The search behind ``arrange(..., require=Requirement(complete=True, min_runs=…))`` under rules
with one wild rank or none (:attr:`MeldRules.wild_ranks <rummylib.melds.MeldRules.wild_ranks>`):
the Indian show of rule 6.12. :mod:`rummylib._require` asks it first and keeps its own search
for the rules it does not model (:func:`models`).

**Why jokers can be pooled.** With one wild rank, ``min_naturals`` 1 and jokers allowed beside
an ace, a wild card standing for itself in a meld that holds another natural card may be read
as a joker standing for the same card instead: the meld stays legal and only a run's purity
changes. So a complete arrangement can always be read so that every meld is either

* a **core** meld holding a *true* natural card (one of no wild rank), in which wild cards
  stand for themselves only in a pure run, every other place being taken by a joker or a
  wild card from one pool (which one does not matter: each does what the other does); or
* a **wild run**: a wild card in its own place and jokers around it (any meld of wild cards
  and jokers alone reads as one, and a run counts where a group would not).

Jokers left over join a meld: a run takes up to ``longest_run`` cards, a group up to
``max_group_size`` (a pure run that does so is no longer pure).

**The search.** The lowest true natural card left is in some core meld: each group at its rank
and each run through it is tried (a run by the natural cards it holds, its jokers filling the
gaps and padding it to ``min_size``; a group of one natural card and jokers only when no run
could do as much), the cards it takes are taken, and the search goes on with the next lowest.
When no true natural card is left, the jokers left over must make the wild runs the
requirement still asks for and fit into the melds (:meth:`_Cover.finish`). A quick bound cuts
a state short (:meth:`_Cover.may_cover`: an isolated natural card needs a joker of its own; a
pure run still to make needs three cards in a row), and a failed state is remembered for the
call with what it had (jokers used, runs, room), so a state no better fails at once.

**A discard** is the heaviest allowed card (at its value in hand, a wild card as a joker; the
lowest among equals) whose setting aside leaves such an arrangement: a branch and bound in
which the card being covered may go instead, and only discards better than the best found
are tried after it. With jokers to spare the heaviest card usually goes, so it is tried on
its own first.

The answer is deterministic (it depends on the hand as a multiset); :mod:`rummylib._require`
shows each meld at its strongest reading.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from typing import Final

from rummylib._arrange import wild_points
from rummylib.cards import CARDS, JOKER, JOKER_INDEX, Card
from rummylib.melds import AceRule, Meld, MeldKind, MeldRules
from rummylib.scoring import CardPoints

#: A core meld as the search chose it: ``("run", suit, positions, roles)`` with a role per
#: position (``"n"`` a natural card, ``"w"`` the wild card in its own place, ``"f"`` a joker),
#: or ``("group", rank index, natural suits, jokers)``.
_Spec = tuple[str, int, tuple[int, ...], tuple[str, ...]]

#: A core meld: its spec, its jokers, the natural cards it takes, the suits of the wild cards
#: it takes (in their own places), how many more cards it could take, whether it is pure.
_Entry = tuple[_Spec, int, tuple[int, ...], tuple[int, ...], int, bool]
#: What the core melds depend on in the rules: min_size, longest_run, the most cards in a
#: group, the lowest and highest run positions, an ace's positions, the wild rank's index.
_Shape = tuple[int, int, int, int, int, tuple[int, ...], int]

#: With at least ``_MANY`` jokers and wild cards, the ``_DIRECT`` heaviest cards are tried as
#: the discard one by one before the branch and bound over all of them.
_MANY: Final = 4
_DIRECT: Final = 1

_POSITIONS: Final = {AceRule.LOW: (1, 13), AceRule.HIGH: (2, 14), AceRule.LOW_OR_HIGH: (1, 14)}


def models(rules: MeldRules) -> bool:
    """Whether this search answers for ``rules`` (see the module's reading of wild cards)."""
    return (
        len(rules.wild_ranks) <= 1
        and rules.min_naturals == 1
        and rules.joker_beside_ace
        and rules.group_distinct_suits
        and rules.ace in _POSITIONS
    )


def _offset(position: int) -> int:
    """The rank index (0 = ace) at a run position."""
    return (position - 1) % 13


class _Stop(Exception):  # noqa: N818  (control flow, never seen outside this module)
    """The best discard there can be is found."""


class _Cover:
    """One search: the cards left, the jokers used, the best found, the failed states seen.

    With a discard, the search is a branch and bound on it: ``order`` lists the indexes of the
    cards allowed to go, best first (heaviest, then lowest); ``best`` is the place in it of
    the best discard found so far, and only better ones are tried after it.
    """

    def __init__(  # noqa: PLR0917  (one caller)
        self,
        naturals: list[int],
        wild: list[int],
        printed: int,
        rules: MeldRules,
        runs: int,
        pure: int,
        order: Sequence[int],
    ) -> None:
        self.nat = naturals  # counts of the true natural cards, by index
        self.wild = wild  # counts of the wild cards, by suit, less those in their own place
        self.printed = printed
        self.most = printed + sum(wild)  # more room than jokers is never needed
        (wild_rank,) = rules.wild_ranks or (None,)
        self.wild_rank = -1 if wild_rank is None else wild_rank.value - 1
        self.m = rules.min_size
        self.longest = rules.longest_run
        self.group_most = min(rules.max_group_size, 4)
        self.low, self.high = _POSITIONS[rules.ace]
        self.ace_positions = {AceRule.LOW: (1,), AceRule.HIGH: (14,)}.get(rules.ace, (1, 14))
        self.runs = runs
        self.pure = pure
        self.shape = (
            self.m,
            self.longest,
            self.group_most,
            self.low,
            self.high,
            self.ace_positions,
            self.wild_rank,
        )
        self.order = tuple(order)
        self.place = {index: number for number, index in enumerate(order)}
        self.best = len(order)
        self.masks = [0] * 4  # the rank indexes of the natural cards left, by suit (bits)
        for index, count in enumerate(naturals):
            if count:
                self.masks[index // 13] |= 1 << index % 13
        #: The states that failed: per cards left, (jokers used, runs, room) of each.
        self.failed: dict[tuple[object, ...], list[tuple[int, int, int]]] = {}
        self.path: list[_Spec] = []
        self.found: tuple[list[_Spec], int | None, int] | None = None

    # -- the search ----------------------------------------------------------------------------

    def search(self) -> bool:
        """Whether the cards meld completely as asked (the best discard in :attr:`found`)."""
        try:
            return self.cover(0, 0, 0, (), 0, bool(self.order))
        except _Stop:
            return True

    def improve(self, discard: int) -> None:
        """A complete arrangement with ``discard`` set aside (better than any found before)."""
        self.best = self.place[discard]
        if not self.best:
            raise _Stop

    def may_improve(self) -> bool:
        """Whether a card left may be a better discard than the best found."""
        nat, wild, printed = self.nat, self.wild, self.printed
        for index in self.order[: self.best]:
            if index == JOKER_INDEX:
                if printed:
                    return True
            elif index % 13 == self.wild_rank:
                if wild[index // 13]:
                    return True
            elif nat[index]:
                return True
        return False

    def cover(  # noqa: PLR0912, PLR0917  (the state of the search)
        self,
        start: int,
        jokers: int,
        runs: int,
        pure_room: tuple[int, ...],
        room: int,
        pending: bool,
    ) -> bool:
        """Cover the true natural cards from ``start`` on; ``jokers`` used in the melds so far.

        ``runs`` core runs so far; ``pure_room``: how many more cards each pure run could take;
        ``room``: how many more the other melds could take; ``pending``: whether the discard
        is still to set aside. True when an arrangement is found (with a discard still to make:
        one with a better discard than any before, and the search then goes on for a better).
        """
        nat, masks, wild = self.nat, self.masks, self.wild
        index = start
        while index < JOKER_INDEX and not nat[index]:
            index += 1
        if index == JOKER_INDEX:
            return self.finish(jokers, runs, pure_room, room, pending)
        key = (bytes(nat), bytes(wild), pure_room, pending)
        runs = min(runs, self.runs)
        room = min(room, self.most)
        failures = self.failed.get(key)
        if failures is None:
            failures = self.failed[key] = []
        else:
            for used, made, more in failures:  # as many jokers or fewer, as many runs...
                if used <= jokers and made >= runs and more >= room:
                    return False  # ...and as much room found nothing (better): nor does this
        budget = self.printed + sum(wild) - jokers
        if (pending and not self.may_improve()) or not self.may_cover(
            budget, pending, len(pure_room) < self.pure
        ):
            failures.append((jokers, runs, room))
            return False
        found = (
            pending
            and self.place.get(index, self.best) < self.best
            and self.discarding(index, jokers, runs, pure_room, room)
        )
        for spec, cost, taken, wilds, capacity, is_pure in self.melds(index, budget):
            if pending and not self.may_improve():
                break
            for place in taken:
                nat[place] -= 1
                if not nat[place]:
                    masks[place // 13] ^= 1 << place % 13
            for suit in wilds:
                wild[suit] -= 1
            self.path.append(spec)
            if is_pure:
                done = self.cover(
                    index, jokers, runs + 1, tuple(sorted((*pure_room, capacity))), room, pending
                )
            else:
                is_run = spec[0] == "run"
                done = self.cover(
                    index, jokers + cost, runs + is_run, pure_room, room + capacity, pending
                )
            self.path.pop()
            for place in taken:
                if not nat[place]:
                    masks[place // 13] |= 1 << place % 13
                nat[place] += 1
            for suit in wilds:
                wild[suit] += 1
            if done:
                if not pending:
                    return True
                found = True
        # With the discard pending, nothing here beats the best found now: a failure too.
        failures.append((jokers, runs, room))
        return found

    def may_cover(self, budget: int, free: bool, pure: bool) -> bool:
        """A quick bound: whether ``budget`` jokers may cover the natural cards left.

        A natural card with no other natural card of its suit within two places and none of
        its rank in another suit is **isolated**: its meld holds a joker beside it that no other
        natural card's meld holds, so each copy of it needs a joker of its own (``free``: but
        one, the discard). With ``pure`` (a pure run still to make), some suit must hold three
        natural cards in a row (a wild card in its own place counts).
        """
        nat, wild, wild_rank, masks = self.nat, self.wild, self.wild_rank, self.masks
        m0, m1, m2, m3 = masks
        seen = m0 | m1
        shared = m0 & m1 | seen & m2 | (seen | m2) & m3  # ranks held in two suits or more
        isolated = -1 if free else 0
        rows = False
        ace_high = self.high == 14
        for suit, mask in enumerate(masks):
            if not mask:
                continue
            near = mask | (1 << wild_rank if wild[suit] else 0)
            positions = near << 1
            if ace_high and near & 1:
                positions |= 1 << 14
            if pure and positions & positions >> 1 & positions >> 2:
                rows = True
            reach = positions << 1 | positions >> 1 | positions << 2 | positions >> 2
            reach = reach >> 1 | (reach >> 14 & 1)  # back to rank indexes, a high ace's too
            if ace_high and mask & 1:
                reach |= 0b11 << 11  # a queen and a king lie within two places of the ace
            alone = mask & ~reach & ~shared
            base = 13 * suit
            while alone:
                low = alone & -alone
                alone ^= low
                isolated += nat[base + low.bit_length() - 1]
        if pure and not rows:
            return False
        return isolated <= budget

    def discarding(
        self, index: int, jokers: int, runs: int, pure_room: tuple[int, ...], room: int
    ) -> bool:
        """Whether the natural card ``index`` may go, the rest covered (a better discard)."""
        nat, masks = self.nat, self.masks
        nat[index] -= 1
        if not nat[index]:
            masks[index // 13] ^= 1 << index % 13
        self.path.append(("discard", index, (), ()))
        found = self.cover(index, jokers, runs, pure_room, room, False)
        if found:
            self.improve(index)
        self.path.pop()
        if not nat[index]:
            masks[index // 13] |= 1 << index % 13
        nat[index] += 1
        return found

    def melds(self, index: int, budget: int) -> tuple[_Entry, ...]:
        """The core melds through the card ``index`` that ``budget`` jokers allow (cached)."""
        masks = self.masks
        suit, rank = divmod(index, 13)
        column = 0
        for other in range(suit + 1, 4):
            if masks[other] >> rank & 1:
                column |= 1 << other
        return _core_melds(self.shape, index, masks[suit], column, self.wild[suit] > 0, budget)

    def finish(
        self, jokers: int, runs: int, pure_room: tuple[int, ...], room: int, pending: bool
    ) -> bool:
        """Whether the jokers left make the wild runs still asked for and fit into the melds.

        With the discard still to make, a joker or a wild card left over goes, if it is a
        better discard than the best found.
        """
        wild = sum(self.wild)
        options: list[tuple[int, int, int | None]] = []  # (printed, wild, discard) left over
        if not pending:
            options.append((self.printed, wild, None))
        else:
            for index in self.order[: self.best]:
                if index == JOKER_INDEX:
                    if self.printed:
                        options.append((self.printed - 1, wild, index))
                elif index % 13 == self.wild_rank and self.wild[index // 13]:
                    options.append((self.printed, wild - 1, index))
        for printed, wilds, discard in options:
            extra = self._fits(jokers, runs, pure_room, room, printed, wilds)
            if extra is not None:
                self.found = (list(self.path), discard, extra)
                if discard is not None:
                    self.improve(discard)
                return True
        return False

    def _fits(  # noqa: PLR0917  (the state at a leaf)
        self,
        jokers: int,
        runs: int,
        pure_room: tuple[int, ...],
        room: int,
        printed: int,
        wilds: int,
    ) -> int | None:
        """The wild runs to make, if the jokers left fit; ``None`` if they cannot."""
        left = printed + wilds - jokers
        if left < 0 or len(pure_room) < self.pure:
            return None
        wild_left = wilds - max(0, jokers - printed)  # jokers come from the printed ones first
        spare = sum(pure_room[self.pure :])  # pure runs beyond those asked: the roomiest
        room += spare
        made = max(0, self.runs - runs)
        while True:
            if wild_left < made or left < self.m * made:
                return None
            if left - self.m * made <= room + made * (self.longest - self.m):
                return made
            made += 1  # one more wild run takes the jokers that do not fit


class _Built:
    """A meld being built: its cards and what they stand for, and where it may grow."""

    __slots__ = ("cards", "first", "kind", "last", "line", "room", "stands")

    def __init__(  # noqa: PLR0917  (the fields)
        self,
        kind: MeldKind,
        cards: list[Card],
        stands: list[Card],
        room: int,
        line: int,
        first: int = 0,
        last: int = 0,
    ) -> None:
        self.kind = kind
        self.cards = cards
        self.stands = stands
        self.room = room
        self.line = line  # a run's suit, a group's rank index
        self.first = first  # a run's end positions
        self.last = last

    @property
    def pure(self) -> bool:
        return self.kind is MeldKind.RUN and self.cards == self.stands

    def grow(self, joker: Card, high: int) -> None:
        """Take one more joker: at a run's top (else its bottom), a group's missing suit."""
        self.room -= 1
        if self.kind is MeldKind.GROUP:
            held = {stand.index // 13 for stand in self.stands}
            suit = next(suit for suit in range(4) if suit not in held)
            place = sum(1 for stand in self.stands if stand.index // 13 < suit)
            self.cards.insert(place, joker)
            self.stands.insert(place, CARDS[13 * suit + self.line])
        elif self.last < high:
            self.last += 1
            self.cards.append(joker)
            self.stands.append(CARDS[13 * self.line + _offset(self.last)])
        else:
            self.first -= 1
            self.cards.insert(0, joker)
            self.stands.insert(0, CARDS[13 * self.line + _offset(self.first)])


def _run(suit: int, roles: dict[int, str], first: int, last: int, pool: list[Card]) -> _Built:
    """A run of ``suit`` from ``first`` to ``last``: its natural cards by role, jokers elsewhere.

    ``roles`` maps a position to ``"n"`` (the natural card), ``"w"`` (the wild card in its own
    place) or a card of its own; other positions take the next joker of ``pool``.
    """
    cards: list[Card] = []
    stands: list[Card] = []
    for position in range(first, last + 1):
        natural = CARDS[13 * suit + _offset(position)]
        cards.append(natural if position in roles else pool.pop(0))
        stands.append(natural)
    return _Built(MeldKind.RUN, cards, stands, 0, suit, first, last)


def _build(
    found: tuple[list[_Spec], int | None, int],
    printed: int,
    wild_cards: Sequence[Card],
    rules: MeldRules,
    pure: int,
) -> tuple[list[Meld], Card | None]:
    """The melds the search chose, with the jokers handed out, and the discard."""
    path, leaf_discard, wild_runs = found
    discard: Card | None = None
    wild_pool = sorted(wild_cards, key=_index)
    printed_pool = [JOKER] * printed
    for spec in path:  # the wild cards in their own places, and a natural discard
        if spec[0] == "run":
            for position, role in zip(spec[2], spec[3], strict=True):
                if role == "w":
                    wild_pool.remove(CARDS[13 * spec[1] + _offset(position)])
        elif spec[0] == "discard":
            discard = CARDS[spec[1]]
    if leaf_discard is not None:
        discard = CARDS[leaf_discard]
        (printed_pool if leaf_discard == JOKER_INDEX else wild_pool).remove(discard)
    pool = printed_pool + wild_pool  # the jokers of the core melds: printed ones first
    built = [_core(spec, pool, rules) for spec in path if spec[0] != "discard"]
    built += [_wild_run(pool, rules) for _ in range(wild_runs)]
    # The jokers left over: into melds other than pure runs, then pure runs beyond ``pure``.
    pure_runs = sorted((meld for meld in built if meld.pure), key=lambda meld: meld.room)
    kept = {id(meld) for meld in pure_runs[:pure]}
    high = _POSITIONS[rules.ace][1]
    for meld in [meld for meld in built if id(meld) not in kept]:
        while pool and meld.room > 0:
            meld.grow(pool.pop(0), high)
    if pool:  # pragma: no cover  (the search counted the room)
        msg = "a joker left over found no meld"
        raise AssertionError(msg)
    melds = [Meld(meld.kind, meld.cards, meld.stands) for meld in built]
    return melds, discard


def _core(spec: _Spec, pool: list[Card], rules: MeldRules) -> _Built:
    """A core meld of the search, its jokers from the front of ``pool``."""
    kind, line, places, roles = spec
    if kind == "run":
        first, last = places[0], places[-1]
        high = _POSITIONS[rules.ace][1]
        while last - first + 1 < rules.min_size:  # padded with jokers, upwards where it can
            if last < high:
                last += 1
            else:
                first -= 1
        naturals = {p: r for p, r in zip(places, roles, strict=True) if r != "f"}
        meld = _run(line, naturals, first, last, pool)
        meld.room = rules.longest_run - len(meld.cards)
        return meld
    missing = [suit for suit in range(4) if suit not in places][: len(roles)]
    cards: list[Card] = []
    stands: list[Card] = []
    for suit in sorted((*places, *missing)):
        natural = CARDS[13 * suit + line]
        cards.append(natural if suit in places else pool.pop(0))
        stands.append(natural)
    room = min(rules.max_group_size, 4) - len(cards)
    return _Built(MeldKind.GROUP, cards, stands, room, line)


def _wild_run(pool: list[Card], rules: MeldRules) -> _Built:
    """A wild run: the last wild card of ``pool`` in its own place, jokers from the front."""
    card = next(card for card in reversed(pool) if card.index != JOKER_INDEX)
    pool.remove(card)
    low, high = _POSITIONS[rules.ace]
    rank = card.index % 13
    anchor = rank + 1 if rank or low == 1 else 14
    first = min(anchor, high - rules.min_size + 1)
    meld = _run(card.index // 13, {anchor: "w"}, first, first + rules.min_size - 1, pool)
    meld.room = rules.longest_run - rules.min_size
    return meld


def _index(card: Card) -> int:
    return card.index


def complete_with_runs(  # noqa: PLR0917  (arrange's arguments)
    cards: Sequence[Card],
    rules: MeldRules,
    points: CardPoints,
    runs: int,
    pure: int,
    discard: bool,
    can_discard: Callable[[Card], bool] | None,
) -> tuple[list[Meld], Card | None] | None:
    """A complete arrangement of ``cards`` with ``runs`` runs, ``pure`` of them pure, or None.

    The melds (each at the reading the search built) and the discard (with ``discard``: the
    heaviest allowed card, the lowest among equals, that leaves such an arrangement). For
    rules that :func:`models` accepts; ``cards`` are cards.
    """
    wild_ranks = rules.wild_ranks
    naturals = [0] * JOKER_INDEX
    wild = [0] * 4
    wild_cards: list[Card] = []
    printed = 0
    for card in cards:
        index = card.index
        if index == JOKER_INDEX:
            printed += 1
        elif card.rank in wild_ranks:
            wild[index // 13] += 1
            wild_cards.append(card)
        else:
            naturals[index] += 1
    runs = max(runs, pure)
    order: list[int] = []
    if discard:
        values = wild_points(points, wild_ranks).values
        allowed = sorted(
            (card for card in set(cards) if can_discard is None or can_discard(card)),
            key=lambda card: (-values[card.index], card.index),
        )
        if not allowed:
            return None
        order = [card.index for card in allowed]
        tries = _DIRECT if printed + len(wild_cards) >= _MANY else 0
        for card in allowed[:tries]:  # with jokers to spare the heaviest card often goes
            index = card.index
            rest_naturals, rest_wild, rest_cards = list(naturals), list(wild), list(wild_cards)
            rest_printed = printed - (index == JOKER_INDEX)
            if card.rank in wild_ranks:
                rest_wild[index // 13] -= 1
                rest_cards.remove(card)
            elif index != JOKER_INDEX:
                rest_naturals[index] -= 1
            cover = _Cover(rest_naturals, rest_wild, rest_printed, rules, runs, pure, ())
            if cover.search() and cover.found is not None:
                return _build(cover.found, rest_printed, rest_cards, rules, pure)[0], card
        order = order[tries:]
    cover = _Cover(naturals, wild, printed, rules, max(runs, pure), pure, order)
    if not cover.search() or cover.found is None:
        return None
    return _build(cover.found, printed, wild_cards, rules, pure)


@functools.lru_cache(maxsize=1 << 14)
def _core_melds(  # noqa: PLR0917  (one enumeration)
    shape: _Shape, index: int, held: int, column: int, has_wild: bool, budget: int
) -> tuple[_Entry, ...]:
    """The core melds through the card ``index`` that ``budget`` jokers allow.

    ``held``: the rank indexes of its suit with natural cards left (bits), ``column``: the
    higher suits with a natural card of its rank left, ``has_wild``: whether a wild card of
    its suit is left. Those with the fewest jokers first, then the most cards. Cached
    (bounded): the answer depends on these alone.
    """
    found: list[tuple[int, int, int, _Entry]] = []
    _groups(shape, index, column, budget, found)
    _runs(shape, index, held, has_wild, budget, found)
    found.sort(key=lambda item: item[:3])
    return tuple(item[3] for item in found)


def _groups(
    shape: _Shape, index: int, column: int, budget: int, found: list[tuple[int, int, int, _Entry]]
) -> None:
    """The groups through the card ``index`` (see :func:`_core_melds`), added to ``found``."""
    m, longest, group_most = shape[:3]
    suit, rank = divmod(index, 13)
    # The card, natural cards of the same rank in higher suits, jokers.
    others = [other for other in range(suit + 1, 4) if column >> other & 1]
    lone_group = longest < group_most  # else a run does all that a group of one card does
    for size in range(len(others) + 1):
        if not size and not lone_group:
            continue
        for chosen in itertools.combinations(others, size):
            for jokers in range(max(0, m - 1 - size), group_most - size):
                if jokers > budget:
                    break
                cards = 1 + size + jokers
                spec = ("group", rank, (suit, *chosen), ("f",) * jokers)
                taken = (index, *(13 * other + rank for other in chosen))
                entry = (spec, jokers, taken, (), group_most - cards, False)
                found.append((jokers, -cards, len(found), entry))


def _runs(  # noqa: PLR0912, PLR0917  (one enumeration; the key of the cache, and the list)
    shape: _Shape,
    index: int,
    held: int,
    has_wild: bool,
    budget: int,
    found: list[tuple[int, int, int, _Entry]],
) -> None:
    """The runs through the card ``index`` (see :func:`_core_melds`), added to ``found``."""
    m, longest, _, low_limit, high_limit, ace_positions, wild_rank = shape
    suit, rank = divmod(index, 13)
    base = 13 * suit
    # The natural cards held, from a lowest to a highest position around the card.
    for anchor in ace_positions if rank == 0 else (rank + 1,):
        bottom = max(low_limit, anchor - longest + 1)
        top = min(high_limit, anchor + longest - 1)
        kinds: dict[int, str] = {}  # the positions with a card to take: "n" or "w"
        lows, highs = [anchor], [anchor]
        for ends, step, limit in ((lows, -1, bottom), (highs, 1, top)):
            gaps = 0  # a card past more gaps than ``budget`` jokers fill is out of reach
            for position in range(anchor + step, limit + step, step):
                offset = (position - 1) % 13
                if held >> offset & 1:
                    kinds[position] = "n"
                elif offset == wild_rank and has_wild:
                    kinds[position] = "w"
                else:
                    gaps += 1
                    if gaps > budget:
                        break
                    continue
                ends.append(position)
        kinds = dict(sorted(kinds.items()))
        for lowest in lows:
            for highest in highs:
                span = highest - lowest + 1
                if span > longest:
                    break
                inner = [p for p in kinds if lowest < p < highest]
                ends = [p for p in (lowest, highest) if p != anchor]
                length = span if span > m else m
                held_least = len(ends) + 1
                for count in range(len(inner), -1, -1):
                    jokers = length - held_least - count
                    if jokers > budget:
                        break
                    for picked in itertools.combinations(inner, count):
                        roles_at = {anchor: "n"}
                        for position in (*ends, *picked):
                            roles_at[position] = kinds[position]
                        wilds = tuple(suit for role in roles_at.values() if role == "w")
                        if jokers and wilds:
                            continue  # a wild card in its own place only in a pure run
                        positions = tuple(range(lowest, highest + 1))
                        roles = tuple(roles_at.get(position, "f") for position in positions)
                        taken = tuple(
                            base + (position - 1) % 13
                            for position, role in roles_at.items()
                            if role == "n"
                        )
                        spec = ("run", suit, positions, roles)
                        entry = (spec, jokers, taken, wilds, longest - length, not jokers)
                        found.append((jokers, -length, len(found), entry))
