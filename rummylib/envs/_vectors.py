"""One player's view as numbers: the cards each was seen to take, and the vector."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import cast

import numpy as np
import numpy.typing as npt

from rummylib.cards import Card
from rummylib.engine import Phase, PhaseBase, Variant
from rummylib.envs._action_table import (
    _BIT,
    CARD_KINDS,
    SCALAR_BOUND,
    FloatArray,
    _largest_deck,
    _meld_cards,
)
from rummylib.errors import RummyError
from rummylib.views import Observation

# -- what each player was seen to take ---------------------------------------------------------


class TakenCards:
    """The face-up cards each player was seen to take and has not shown since.

    Every player at a table sees a card taken from the discard pile or from the cards turned
    face up (the Israeli open card), and sees it leave again when it is discarded or melded.
    :meth:`update` follows that from the public fields of two consecutive observations
    (discard pile, cards face up, table, hand sizes, deal number), never from a hand, so the
    record holds nothing hidden.

    >>> from rummylib.cards import CARDS
    >>> from rummylib import new_game

    >>> from rummylib.actions import TakeDiscard
    >>> state = new_game("gin", players=2, seed=1)
    >>> after = state.apply(TakeDiscard(player=0))
    >>> taken = TakenCards(players=2)
    >>> taken.update(state.observation(1), after.observation(1), actor=0)
    >>> [str(CARDS[index]) for index in np.flatnonzero(taken.counts[0])]
    ['4c']
    """

    def __init__(self, players: int) -> None:
        #: Per seat, per card kind: how many such face-up cards the seat took and still holds.
        #: Change it through :meth:`update` and :meth:`reset` only.
        self.counts: npt.NDArray[np.int16] = np.zeros((players, CARD_KINDS), dtype=np.int16)
        #: Counts the updates and resets that changed :attr:`counts`, so that a vector's
        #: taken rows are rewritten only then.
        self.version = 0
        # Per seat, a bit per card kind whose count is above 0: most shown cards were never
        # taken, and need no look at the counts.
        self._held = [0] * players

    def reset(self) -> None:
        """Forget everything (a new deal)."""
        self.counts[:] = 0
        self._held = [0] * len(self._held)
        self.version += 1

    def copy(self) -> TakenCards:
        """An independent copy."""
        twin = TakenCards(players=self.counts.shape[0])
        twin.counts[:] = self.counts
        twin.version = self.version
        twin._held = self._held[:]
        return twin

    def update(self, before: Observation, after: Observation, *, actor: int) -> None:
        """Account for one move of ``actor`` that led from ``before`` to ``after``."""
        if after.deal_number != before.deal_number:
            self.reset()
            return
        pile_before, pile_after = before.discard_pile, after.discard_pile
        table_changed = after.table is not before.table and after.table != before.table
        if pile_after is pile_before and after.aside is before.aside and not table_changed:
            return  # nothing face up moved (a draw from the stock, a pass, a knock…)
        taken: Sequence[Card] = ()
        shown: Sequence[Card] = ()
        size_before, size_after = len(pile_before), len(pile_after)
        if size_after < size_before:  # cards left the pile: taken by the actor, if it grew
            grew = after.hand_sizes[actor] - before.hand_sizes[actor]
            if (
                grew > 0
                and size_before - size_after <= grew
                and pile_before[:size_after] == pile_after
            ):
                taken = pile_before[size_after:]
        elif size_after > size_before and pile_after[:size_before] == pile_before:
            shown = pile_after[size_before:]  # discarded
        if (
            len(after.aside) < len(before.aside)
            and after.stock_size == before.stock_size
            and after.hand_sizes[actor] - before.hand_sizes[actor] == 1
        ):  # a card face up beside the stock went into the actor's hand
            taken = (*taken, *(Counter(before.aside) - Counter(after.aside)).elements())
        if table_changed:
            melded = Counter(_meld_cards(after.table)) - Counter(_meld_cards(before.table))
            shown = (*shown, *melded.elements())
        if taken or (shown and any(self._held[actor] & card.bit for card in shown)):
            self._count(actor, taken, shown)

    def _count(self, actor: int, taken: Sequence[Card], shown: Sequence[Card]) -> None:
        """Add the cards ``actor`` took, then take one copy off for each card shown."""
        row = self.counts[actor]
        held = self._held[actor]
        for card in taken:
            row[card.index] += 1
            held |= card.bit
        for card in shown:  # one shown copy less of each (never below none)
            if held & card.bit and row[card.index]:
                row[card.index] -= 1
                if not row[card.index]:
                    held &= ~card.bit
        self._held[actor] = held
        self.version += 1


# -- the observation vector -------------------------------------------------------------------


def _phases(variant: Variant) -> tuple[object, ...]:
    phases: list[object] = list(Phase)
    declared: Mapping[object, object] = getattr(variant, "phase_actions", {})
    phases.extend(phase for phase in declared if phase not in phases)
    return tuple(phases)


class ObservationEncoder:
    """One player's observation as a flat ``float32`` vector.

    The layout (:attr:`layout`, name → slice) depends on the variant and the number of
    players only. Seats are relative to the viewer: offset 0 is the viewer, offset 1 the next
    player in playing order, and so on. Card planes hold a count per card kind, by
    :attr:`Card.index <rummylib.cards.Card.index>` (0 = Ac … 51 = Ks, 52 = joker).

    ======================  ===============  ===================================================
    name                    size             value
    ======================  ===============  ===================================================
    ``hand``                53               the viewer's cards
    ``discard_pile``        53               the cards of the discard pile
    ``discard_top``         53               the top discard (one-hot; zeros if the pile is empty)
    ``aside``               53               the cards turned face up beside the stock (the
                                             Indian wild card, the Israeli open card)
    ``table``               53               the cards on the table, in all melds
    ``taken``               (n − 1) * 53     per other seat: face-up cards it was seen to take and
                                             still holds (:class:`TakenCards`)
    ``stock_size``          1                cards in the stock
    ``discard_pile_size``   1                cards in the discard pile
    ``table_melds``         1                melds on the table
    ``deal_number``         1                1 for the first deal
    ``facts``               facts            the variant's numeric public facts, one each, in
                                             the order of its
                                             :attr:`~rummylib.engine.Variant.encoded_facts`
                                             (the Israeli multiplier and pot)
    ``hand_sizes``          n                cards held, per seat
    ``scores``              n                match totals, per seat
    ``in_match``            n                1 if the seat is still in the match
    ``to_act``              n                1 if the seat may act now
    ``current_player``      n                1 for the seat whose turn it is
    ``phase``               phases + 1       one-hot phase; the last entry: a phase not listed
    ======================  ===============  ===================================================

    >>> from rummylib import get_variant

    >>> encoder = ObservationEncoder(get_variant("rummy101"), players=3)
    >>> encoder.size, encoder.layout["taken"]
    (399, slice(265, 371, None))
    """

    def __init__(self, variant: Variant, players: int) -> None:
        self.variant = variant
        self.players = variant.check_players(players)
        self.phases = _phases(variant)
        # By phase value (unique across phase enums): a str's hash is kept, a member's is not.
        self._phase_index = {
            getattr(phase, "_value_", phase): number for number, phase in enumerate(self.phases)
        }
        #: The names of the public facts encoded as numbers (the ``facts`` places).
        self._facts = tuple(variant.encoded_facts)
        deck = _largest_deck(variant)
        copies = 1
        for count in range(variant.min_players, variant.max_players + 1):
            try:
                cards = variant.deck_for(count)
            except RummyError:
                continue
            copies = max(copies, *Counter(cards).values())
        n = self.players
        pieces: list[tuple[str, int, float, float]] = [
            ("hand", CARD_KINDS, 0, copies),
            ("discard_pile", CARD_KINDS, 0, copies),
            ("discard_top", CARD_KINDS, 0, 1),
            ("aside", CARD_KINDS, 0, copies),
            ("table", CARD_KINDS, 0, copies),
            ("taken", (n - 1) * CARD_KINDS, 0, copies),
            ("stock_size", 1, 0, deck),
            ("discard_pile_size", 1, 0, deck),
            ("table_melds", 1, 0, deck),
            ("deal_number", 1, 0, SCALAR_BOUND),
            ("facts", len(self._facts), -SCALAR_BOUND, SCALAR_BOUND),
            ("hand_sizes", n, 0, deck),
            ("scores", n, -SCALAR_BOUND, SCALAR_BOUND),
            ("in_match", n, 0, 1),
            ("to_act", n, 0, 1),
            ("current_player", n, 0, 1),
            ("phase", len(self.phases) + 1, 0, 1),
        ]
        layout: dict[str, slice] = {}
        low: list[float] = []
        high: list[float] = []
        start = 0
        for name, size, lowest, highest in pieces:
            layout[name] = slice(start, start + size)
            low += [lowest] * size
            high += [highest] * size
            start += size
        self.layout: Mapping[str, slice] = layout
        self.size: int = start
        self._starts = {name: piece.start for name, piece in layout.items()}
        scalars = [
            layout[name].start
            for name in ("stock_size", "discard_pile_size", "table_melds", "deal_number")
        ]
        scalars += range(layout["facts"].start, layout["facts"].stop)
        scalars += range(layout["hand_sizes"].start, layout["scores"].stop)
        self._scalars = np.array(scalars, dtype=np.intp)
        # The scalars lie side by side, from the stock size to the last score, and the seat
        # flags follow them (ObservationEncoder._write_seats writes them in one sweep).
        assert scalars == list(range(scalars[0], scalars[-1] + 1))
        assert layout["in_match"].start == layout["scores"].stop
        assert layout["to_act"].start == layout["in_match"].stop
        assert layout["current_player"].start == layout["to_act"].stop
        #: The seats in the vector's order for each viewer: the viewer first, then play order.
        self._orders = tuple(
            tuple((viewer + offset) % n for offset in range(n)) for viewer in range(n)
        )
        self._scalar_span = slice(scalars[0], scalars[-1] + 1)
        self.low: FloatArray = np.array(low, dtype=np.float32)
        self.high: FloatArray = np.array(high, dtype=np.float32)
        #: At most one copy of each card kind in a deck: every card plane holds 0s and 1s.
        self._one_copy = copies == 1

    def encode(self, observation: Observation, taken: TakenCards | None = None) -> FloatArray:
        """The vector of ``observation`` (and of ``taken``, the public record of takes)."""
        out = np.zeros(self.size, dtype=np.float32)
        cells = cast("memoryview[float]", out.data)
        at = self._starts
        self._move_cards(cells, at["hand"], (), observation.hand)
        pile = observation.discard_pile
        self._move_cards(cells, at["discard_pile"], (), pile)
        if pile:
            cells[at["discard_top"] + pile[-1].index] = 1.0
        if observation.aside:
            self._move_cards(cells, at["aside"], (), observation.aside)
        if observation.table:
            self._move_cards(cells, at["table"], (), _meld_cards(observation.table))
        cells[at["phase"] + self._phase_place(observation.phase)] = 1.0
        self._write_seats(cells, out, observation, taken)
        return out

    def _phase_place(self, phase: PhaseBase) -> int:
        """The offset of ``phase`` in the phase one-hot (the last place: a phase not listed)."""
        return self._phase_index.get(phase._value_, len(self.phases))

    def _write_seats(
        self,
        cells: memoryview[float],
        out: FloatArray,
        observation: Observation,
        taken: TakenCards | None,
    ) -> None:
        """Write the numbers, the seat flags and (with ``taken``) the taken rows."""
        seats = self._orders[observation.player]
        place = self._scalar_span.start
        pile, table = observation.discard_pile, observation.table
        # From the stock size to the current player's flags, the places follow one another.
        for value in (
            observation.stock_size,
            len(pile),
            len(table),
            observation.deal_number,
            *self._fact_values(observation),
        ):
            cells[place] = _clip(value)
            place += 1
        sizes, scores = observation.hand_sizes, observation.scores
        for seat in seats:
            cells[place] = sizes[seat]
            place += 1
        for seat in seats:
            value = scores[seat]
            cells[place] = _clip(value)
            place += 1
        n = self.players
        current = observation.current_player
        _flags(cells, place, seats, observation.players_in)
        _flags(cells, place + n, seats, observation.to_act)
        _flags(cells, place + 2 * n, seats, () if current is None else (current,))
        if taken is not None:
            self._write_taken(out, seats, taken)

    def _write_taken(self, out: FloatArray, seats: Sequence[int], taken: TakenCards) -> None:
        start = self._starts["taken"]
        rows = taken.counts
        for seat in seats[1:]:
            out[start : start + CARD_KINDS] = rows[seat]
            start += CARD_KINDS

    def update(
        self,
        vector: FloatArray,
        before: Observation,
        after: Observation,
        taken: TakenCards | None = None,
    ) -> FloatArray:
        """``encode(after, taken)``, worked out from ``vector``, the vector of ``before``.

        ``before`` is an earlier observation of the same player and ``vector`` its vector
        (as :meth:`encode` or :meth:`update` gave it; it is not changed). Only what differs
        between the two observations is rewritten: the card planes whose cards changed (by
        identity of the tuples, then card by card), the flags, the phase and the numbers.
        That is much cheaper than :meth:`encode` from one move to the next. An observation
        of another player is encoded afresh.

        ``taken`` rewrites the taken rows; ``None`` keeps those of ``vector`` (pass it when
        its :attr:`TakenCards.version` changed since ``vector`` was made).

        >>> from rummylib import new_game
        >>> state = new_game("gin", players=2, seed=1)
        >>> after = state.apply(state.legal_actions()[0])
        >>> encoder = ObservationEncoder(state.variant, players=2)
        >>> vector = encoder.encode(state.observation(1))
        >>> moved = encoder.update(vector, state.observation(1), after.observation(1))
        >>> bool((moved == encoder.encode(after.observation(1))).all())
        True
        """
        out = vector.copy()
        self.update_into(out, before, after, taken)
        return out

    def update_into(
        self,
        vector: FloatArray,
        before: Observation,
        after: Observation,
        taken: TakenCards | None = None,
        *,
        cells: memoryview[float] | None = None,
    ) -> None:
        """:meth:`update` in place: turn ``vector``, the vector of ``before``, into ``after``'s.

        For a caller that keeps one vector per player and hands out copies; ``cells``, if
        given, is ``vector.data`` kept by that caller (it saves making one on every call).
        """
        if before.player != after.player or before.variant is not after.variant:
            vector[:] = self.encode(after, taken)
            return
        out = vector
        if cells is None:
            cells = out.data  # type: ignore[assignment]  # float32 items
            assert cells is not None
        at = self._starts
        if after.hand is not before.hand:
            self._move_cards(cells, at["hand"], before.hand, after.hand)
        old_pile, pile = before.discard_pile, after.discard_pile
        if pile is not old_pile:
            self._move_cards(cells, at["discard_pile"], old_pile, pile)
            top = at["discard_top"]
            if old_pile:
                cells[top + old_pile[-1].index] = 0.0
            if pile:
                cells[top + pile[-1].index] = 1.0
        if after.aside is not before.aside:
            self._move_cards(cells, at["aside"], before.aside, after.aside)
        if after.table is not before.table:
            self._move_cards(
                cells, at["table"], _meld_cards(before.table), _meld_cards(after.table)
            )
        if after.phase is not before.phase:
            index, unlisted = self._phase_index, len(self.phases)
            cells[at["phase"] + index.get(before.phase._value_, unlisted)] = 0.0
            cells[at["phase"] + index.get(after.phase._value_, unlisted)] = 1.0
        self._write_changes(cells, out, before, after, taken)

    def _write_changes(
        self,
        cells: memoryview[float],
        out: FloatArray,
        before: Observation,
        after: Observation,
        taken: TakenCards | None,
    ) -> None:
        """:meth:`_write_seats` for ``after``, where ``cells`` hold the places of ``before``.

        Each group of places is written only where its fields differ.
        """
        self._write_counts(cells, before, after)
        seats = self._orders[after.player]
        # Past the counts and facts (_write_counts): hand sizes, scores, flags.
        place = self._scalar_span.start + 4 + len(self._facts)
        n = self.players
        if after.hand_sizes != before.hand_sizes:
            sizes = after.hand_sizes
            for offset, seat in enumerate(seats):
                cells[place + offset] = sizes[seat]
        place += n
        if after.scores != before.scores:
            scores = after.scores
            for offset, seat in enumerate(seats):
                value = scores[seat]
                cells[place + offset] = _clip(value)
        place += n
        if after.players_in != before.players_in:
            _flags(cells, place, seats, after.players_in)
        place += n
        if after.to_act != before.to_act:
            _flags(cells, place, seats, after.to_act)
        place += n
        if after.current_player != before.current_player:
            current = after.current_player
            _flags(cells, place, seats, () if current is None else (current,))
        if taken is not None:
            self._write_taken(out, seats, taken)

    def _write_counts(
        self, cells: memoryview[float], before: Observation, after: Observation
    ) -> None:
        """The numbers from the stock size to the last fact, where they changed."""
        place = self._scalar_span.start
        if after.stock_size != before.stock_size:
            cells[place] = after.stock_size
        if after.discard_pile is not before.discard_pile:
            cells[place + 1] = len(after.discard_pile)
        if after.table is not before.table:
            cells[place + 2] = len(after.table)
        if after.deal_number != before.deal_number:
            cells[place + 3] = _clip(after.deal_number)
        if self._facts and after.public is not before.public:
            for offset, value in enumerate(self._fact_values(after), 4):
                cells[place + offset] = _clip(value)

    def _fact_values(self, observation: Observation) -> list[int]:
        """The numeric public facts the vector holds, in :attr:`_facts` order."""
        public = observation.public
        return [getattr(public, name) for name in self._facts]

    def _one_removed(
        self, cells: memoryview[float], start: int, old: Sequence[Card], new: Sequence[Card]
    ) -> bool:
        """Count one card less at ``start`` if ``new`` is ``old`` without one card."""
        place = _removed_at(old, new)
        if place is None:
            return False
        cells[start + old[place].index] -= 1.0
        return True

    def _move_cards(
        self, cells: memoryview[float], start: int, old: Sequence[Card], new: Sequence[Card]
    ) -> None:
        """Turn the plane at ``start`` from the counts of ``old`` into those of ``new``."""
        size = len(old)
        if len(new) >= size and new[:size] == old:  # cards added on top (a discard)
            for card in new[size:]:
                cells[start + card.index] += 1.0
        elif len(new) < size and old[: len(new)] == new:  # cards taken off the top
            for card in old[len(new) :]:
                cells[start + card.index] -= 1.0
        elif len(new) == size - 1 and self._one_removed(cells, start, old, new):
            pass  # one card left, the others kept their order (a discard from a hand)
        elif self._one_copy:  # sets of cards, as bit masks: clear what left, set what came
            old_bits, new_bits = sum(map(_BIT, old)), sum(map(_BIT, new))
            _write_bits(cells, start, old_bits & ~new_bits, 0.0)
            _write_bits(cells, start, new_bits & ~old_bits, 1.0)
        else:
            for card in old:
                cells[start + card.index] -= 1.0
            for card in new:
                cells[start + card.index] += 1.0


def _removed_at(old: Sequence[Card], new: Sequence[Card]) -> int | None:
    """Where ``new`` is ``old`` less one card, the place of that card in ``old``; else None."""
    place = 0
    for place, card in enumerate(new):
        if card is not old[place]:
            break
    else:
        place = len(new)
    return place if old[place + 1 :] == new[place:] else None


def _write_bits(cells: memoryview[float], start: int, bits: int, value: float) -> None:
    """Write ``value`` at ``start + index`` for each card index set in ``bits``."""
    while bits:
        lowest = bits & -bits
        cells[start + lowest.bit_length() - 1] = value
        bits ^= lowest


def _clip(value: int) -> int:
    """``value`` within ``±SCALAR_BOUND``, the box of the vector's numbers."""
    return max(-SCALAR_BOUND, min(value, SCALAR_BOUND))


def _flags(
    cells: memoryview[float], start: int, seats: Sequence[int], members: Sequence[int]
) -> None:
    """Write 1 at ``start + offset`` for each seat (in vector order) in ``members``, else 0."""
    for offset, seat in enumerate(seats):
        cells[start + offset] = 1.0 if seat in members else 0.0
