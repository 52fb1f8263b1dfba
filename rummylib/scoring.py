"""Card points and hand values.

Each variant has its own card values; :class:`CardPoints` holds them. Two to ten always count
their pip value.

>>> from rummylib import CardPoints, hand_points, parse_card, parse_cards
>>> hand_points(parse_cards("Ah Kd 7c *"), CardPoints(joker=25))
43
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import attrs

from rummylib._settings import flag, whole
from rummylib.cards import CARDS, JOKER_INDEX, Card, Rank

if TYPE_CHECKING:
    from rummylib.melds import Meld

__all__ = ["CardPoints", "DealResult", "MatchResult", "ScoreLine", "hand_points"]


_POINTS = whole(0, unit="points")


def _optional_points(instance: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if value is not None:
        _POINTS(instance, attribute, value)


@attrs.frozen(kw_only=True)
class CardPoints:
    """What each card is worth when counted in a hand or a meld.

    Attributes:
        ace: an ace.
        face: a jack, queen or king.
        joker: a joker.
        ace_low_run: an ace melded as the low end of a run (A-2-3), where a variant makes it
            differ from ``ace`` (500 rummy: 15 in hand, 1 in A-2-3); ``None`` means ``ace``.
        numbered_faces: a jack, queen and king count 11, 12 and 13 instead of ``face``
            (Rummikub's tiles 11–13).

    >>> from rummylib import parse_card
    >>> points = CardPoints(ace=15, joker=15, ace_low_run=1)
    >>> points.of(parse_card("Ah")), points.of(parse_card("Qs")), points.of(parse_card("7d"))
    (15, 10, 7)
    >>> CardPoints(face=-1)
    Traceback (most recent call last):
    ...
    rummylib.errors.ConfigurationError: face must be a whole number of points of at least 0, not -1
    """

    ace: int = attrs.field(default=1, validator=_POINTS)
    face: int = attrs.field(default=10, validator=_POINTS)
    joker: int = attrs.field(default=0, validator=_POINTS)
    ace_low_run: int | None = attrs.field(default=None, validator=_optional_points)
    numbered_faces: bool = attrs.field(default=False, validator=flag)
    #: Points of every distinct card, indexed by :attr:`~rummylib.cards.Card.index`.
    values: tuple[int, ...] = attrs.field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        values = []
        for card in CARDS:
            if card.index == JOKER_INDEX:
                values.append(self.joker)
            elif card.rank == Rank.ACE:
                values.append(self.ace)
            elif card.rank is not None and card.rank >= Rank.JACK:
                values.append(int(card.rank) if self.numbered_faces else self.face)
            else:
                values.append(int(card.rank or 0))
        object.__setattr__(self, "values", tuple(values))

    @property
    def ace_in_low_run(self) -> int:
        """The value of an ace melded as the low end of a run.

        >>> CardPoints(ace=15, ace_low_run=1).ace_in_low_run, CardPoints().ace_in_low_run
        (1, 1)
        """
        return self.ace if self.ace_low_run is None else self.ace_low_run

    def of(self, card: Card) -> int:
        """The points of one card (in hand; see :attr:`ace_low_run` for melds).

        >>> from rummylib import parse_card
        >>> CardPoints().of(parse_card("Td"))
        10
        """
        return self.values[card.index]


def hand_points(
    cards: Iterable[Card], points: CardPoints, *, wild_ranks: Iterable[Rank] = ()
) -> int:
    """The plain sum of the cards' points.

    A card of one of ``wild_ranks`` (the deal's wild cards, as in
    :attr:`MeldRules.wild_ranks <rummylib.melds.MeldRules.wild_ranks>`) counts as a joker,
    as :func:`~rummylib.arrangement.arrange` counts it in the deadwood (Indian rule 6.5).

    >>> from rummylib import parse_cards
    >>> hand_points(parse_cards("Ah 2h 3h Kc"), CardPoints())
    16
    >>> hand_points(parse_cards("Ah 2h 3h Kc"), CardPoints(joker=25), wild_ranks={Rank.TWO})
    39
    """
    values = points.values
    if wild_ranks:
        wild = frozenset(wild_ranks)
        joker = values[JOKER_INDEX]
        return sum(joker if card.rank in wild else values[card.index] for card in cards)
    return sum(values[card.index] for card in cards)


@attrs.frozen(kw_only=True)
class ScoreLine:
    """One line of a score record: who gets how many points, and why.

    >>> print(ScoreLine(player=1, points=34, reason="17 points left in hand x2"))
    p2: +34 (17 points left in hand x2)
    """

    player: int
    points: int
    reason: str

    def __str__(self) -> str:
        return f"p{self.player + 1}: {self.points:+d} ({self.reason})"


@attrs.frozen(kw_only=True)
class DealResult:
    """The score record of one deal.

    Attributes:
        deal_number: 1 for the first deal of the match.
        points: what each player scored in the deal (penalty points in Israeli rummy).
        lines: every contribution to ``points``, with its reason.
        ended_by: how the deal ended, in words (``"p1 declared rummy"``).
        ending: how the deal ended, as a short machine-readable kind for programs to count
            (``"declared"``, ``"went_out"``, ``"knock"``, ``"gin"``, ``"undercut"``,
            ``"void"``, …; each variant's rules page lists its kinds); ``""`` where a variant
            does not say.
        hands: each player's hand when the deal ended (empty for a player who went out), so
            the deal can be shown after the next one is dealt.
        table: the melds on the table when the deal ended.

    >>> record = DealResult(
    ...     deal_number=1,
    ...     points=(0, 34),
    ...     ended_by="p1 declared rummy",
    ...     lines=(ScoreLine(player=1, points=34, reason="17 x2"),),
    ... )
    >>> print(record)
    deal 1: p1 declared rummy
      p2: +34 (17 x2)
    """

    deal_number: int
    points: tuple[int, ...]
    lines: tuple[ScoreLine, ...] = ()
    ended_by: str = ""
    ending: str = ""
    # What the deal ended with, for showing it; the score record alone decides equality.
    hands: tuple[tuple[Card, ...], ...] = attrs.field(default=(), eq=False, repr=False)
    table: tuple[Meld, ...] = attrs.field(default=(), eq=False, repr=False)

    def __str__(self) -> str:
        return "\n".join(
            [f"deal {self.deal_number}: {self.ended_by}"] + [f"  {line}" for line in self.lines]
        )


@attrs.frozen(kw_only=True)
class MatchResult:
    """How a match ended.

    Attributes:
        winners: the winning players (more than one only for a shared win).
        scores: the final totals.
        deals: the score record of every deal.
        payouts: what each player takes from the pot (all zero where there is no pot).
        lines: match-level bonuses and events, with their reasons.

    >>> MatchResult(winners=(0,), scores=(12, 101), deals=(), payouts=(4, 0)).winners
    (0,)
    """

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    deals: tuple[DealResult, ...]
    payouts: tuple[int, ...] = ()
    lines: tuple[ScoreLine, ...] = ()
