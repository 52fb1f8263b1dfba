"""What a step pays each seat, and the table as text: the adapters' shared rules."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rummylib.cards import Card
from rummylib.engine import Variant
from rummylib.envs._action_table import REWARD_MODES
from rummylib.errors import ConfigurationError, shorten
from rummylib.scoring import DealResult
from rummylib.state import GameState

# -- rewards ----------------------------------------------------------------------------------


def score_sign(variant: Variant) -> int:
    """+1 where a higher match total is better, −1 where totals are penalty points.

    Read from :attr:`Variant.lower_score_wins <rummylib.engine.Variant.lower_score_wins>`.

    >>> from rummylib import get_variant
    >>> score_sign(get_variant("rummy101")), score_sign(get_variant("gin"))
    (-1, 1)
    """
    return -1 if variant.lower_score_wins else 1


def outcome(state: GameState, *, one_deal: bool = False) -> list[float]:
    """+1 for each winner and −1 for everyone else once the match is over; else all 0.

    A match with no winner (a drawn deal of seven-card knock, say) is 0 for everyone. With
    ``one_deal``, a match that is not over is judged by its first deal: the players with the
    best points of that deal (signed by :func:`score_sign`) win, unless all tie.
    """
    seats = state.player_count
    result = state.result
    if result is not None:
        if not result.winners:
            return [0.0] * seats
        return [1.0 if seat in result.winners else -1.0 for seat in range(seats)]
    if not one_deal or not state.deal_results:
        return [0.0] * seats
    sign = score_sign(state.variant)
    points = [sign * value for value in state.deal_results[0].points]
    best = max(points)
    if min(points) == best:
        return [0.0] * seats
    return [1.0 if value == best else -1.0 for value in points]


def rewards(
    before: GameState,
    after: GameState,
    mode: str,
    *,
    sign: int | None = None,
    one_deal: bool = False,
) -> list[float]:
    """What each seat gets for the move that led from ``before`` to ``after``.

    ``mode``:

    * ``"score"``: the change of each match total, signed by :func:`score_sign` so that more
      is better (a penalty of 34 points is −34). Totals change when a deal is scored, and with
      the match's own events (a pool awarded, a rebuy); over a match the rewards add up to
      the signed final totals.
    * ``"deal"``: when a deal is scored, its points (:attr:`DealResult.points
      <rummylib.scoring.DealResult.points>`), signed the same way; match-level events do not
      count.
    * ``"win"``: :func:`outcome` when the match ends (with ``one_deal``: when the first deal
      is scored), 0 before.

    ``sign`` is :func:`score_sign` of the variant, if the caller has it at hand.

    Raises:
        ConfigurationError: an unknown mode.
    """
    seats = after.match.player_count
    if sign is None and mode != "win":
        sign = score_sign(after.variant)
    if mode == "score":
        assert sign is not None
        now, then = after.match.scores, before.match.scores
        if now is then:  # most moves: the totals are not touched
            return [0.0] * seats
        return [float(sign * (a - b)) for a, b in zip(now, then, strict=True)]
    if mode == "deal":
        assert sign is not None
        totals = [0.0] * seats
        for record in _new_deals(before, after):
            for seat, points in enumerate(record.points):
                totals[seat] += sign * points
        return totals
    if mode == "win":
        ended = after.is_over and not before.is_over
        if one_deal and not ended:
            ended = not before.deal_results and bool(after.deal_results)
        return outcome(after, one_deal=one_deal) if ended else [0.0] * seats
    msg = f"bad rewards {shorten(mode)}: expected one of {', '.join(REWARD_MODES)}"
    raise ConfigurationError(msg)


def _new_deals(before: GameState, after: GameState) -> tuple[DealResult, ...]:
    return after.deal_results[len(before.deal_results) :]


def deal_ended(before: GameState, after: GameState) -> bool:
    """Whether the move from ``before`` to ``after`` scored a deal (or ended the match)."""
    later, earlier = after.match, before.match
    return len(later.deal_results) > len(earlier.deal_results) or later.result is not None


def check_mode(mode: object) -> str:
    """Return ``mode`` if it is a reward mode, else raise :class:`ConfigurationError`."""
    if not isinstance(mode, str) or mode not in REWARD_MODES:
        msg = f"bad rewards {shorten(mode)}: expected one of {', '.join(REWARD_MODES)}"
        raise ConfigurationError(msg)
    return mode


# -- text -------------------------------------------------------------------------------------


def describe(state: GameState, labels: Callable[[int], Sequence[str]] | None = None) -> str:
    """The whole table as text, every hand included (the adapters' ``"ansi"`` rendering).

    ``labels(player)``, if given, lists the legal moves shown under the hand of the player
    to act.
    """
    lines = [
        f"{state.variant.name} deal {state.deal_number} · {state.phase.value} · "
        f"to act: {' '.join(f'p{seat + 1}' for seat in state.to_act) or '-'}",
        f"scores: {' '.join(f'p{seat + 1}={score}' for seat, score in enumerate(state.scores))}",
        f"stock: {len(state.stock)} cards · "
        f"discard pile: {_sorted_text(state.discard_pile, sort=False)}",
    ]
    if state.aside:
        lines.append(f"{state.variant.aside_label}: {_sorted_text(state.aside, sort=False)}")
    facts = state.variant.public_info(state, state.to_act[0] if state.to_act else 0).lines()
    if facts:
        lines.append("facts: " + "; ".join(facts))
    if state.table:
        lines.append("table: " + " | ".join(str(meld) for meld in state.table))
    for seat, hand in enumerate(state.hands):
        lines.append(f"p{seat + 1}: {_sorted_text(hand)}")
    if labels is not None:
        for seat in state.to_act[:1]:
            lines.extend(f"  {label}" for label in labels(seat))
    if state.result is not None:
        winners = " ".join(f"p{seat + 1}" for seat in state.result.winners) or "nobody"
        lines.append(f"match over: {winners} won")
    return "\n".join(lines)


def _sorted_text(cards: Sequence[Card], *, sort: bool = True) -> str:
    shown = sorted(cards, key=lambda card: card.index) if sort else list(cards)
    return " ".join(str(card) for card in shown) or "-"
