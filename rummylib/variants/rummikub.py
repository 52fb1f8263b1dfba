"""Rummikub: the tile game on the shared table (section 7 of the rules).

106 tiles (1–13 in black, blue, orange and red, two of each, and two jokers), 14 to each of
2–4 players. A turn is one action: a play, a :class:`~rummylib.actions.Rearrange` carrying the
whole new table, or a draw from the pool; with the pool empty a player who does not play
passes. A player's first play (the initial meld) is new sets of their own tiles worth at least
30; after it a play may rearrange the whole table. Tiles are written ``k7 b13 o1 r10 *``
(:mod:`rummylib.tiles`), in records and in ``rummylib play`` too.

>>> from rummylib import new_game
>>> from rummylib.actions import Rearrange
>>> from rummylib.tiles import TILE_NOTATION, parse_tiles
>>> deck = rummikub_deck(
...     [
...         "k10 k11 k12 r1 r2 r3 b5 b6 b8 o9 o9 k4 b4 r4",
...         "k1 k2 o7 o8 b1 b2 b3 r6 r7 r9 k6 b11 o12 *",
...     ]
... )
>>> state = new_game("rummikub", players=2, seed=0, deck=deck)
>>> run = read_set("k10 k11 k12")
>>> state = state.apply(Rearrange(player=0, table=[run]))
>>> TILE_NOTATION.melds(state.table), state.current_player
('k10 k11 k12', 1)

A play that does not reach 30 is refused, in tiles:

>>> state = new_game("rummikub", players=2, seed=0, deck=deck)
>>> state.apply(Rearrange(player=0, table=[read_set("r1 r2 r3")]))
Traceback (most recent call last):
...
rummylib.errors.IllegalActionError: p1's initial meld is worth 6: it needs at least 30, ...

The plays listed by :meth:`~rummylib.state.GameState.legal_actions` are those the bots and the
learning environments need (see :meth:`Rummikub.candidates_rearrange`); any other legal new
table is accepted as well.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Final, TypeAlias

import attrs

from rummylib._settings import MAX_POINTS, Choice, whole
from rummylib.actions import Action, DrawStock, Pass, Rearrange, TimeExpired
from rummylib.cards import Card, make_deck
from rummylib.engine import (
    Phase,
    PhaseBase,
    PublicInfo,
    Variant,
    evolve,
    next_player,
    player_name,
    remove_cards,
)
from rummylib.melds import (
    Meld,
    MeldRules,
    canonical_melds,
    extension_cards,
    extensions,
    find_melds,
)
from rummylib.scoring import CardPoints, ScoreLine, hand_points
from rummylib.state import GameState, stack_deck
from rummylib.table import JokerReplacementSource, Play, best_play, cards_of, rearrangement_refusal
from rummylib.tiles import TILE_NOTATION, Notation, parse_tiles, read_meld
from rummylib.views import Observation

__all__ = [
    "JokerRule",
    "Rummikub",
    "RummikubDetail",
    "RummikubPublic",
    "rack_total",
    "read_set",
    "rummikub_deck",
    "set_value",
]

#: Tiles each player is dealt (rule 7.2).
RACK_SIZE: Final = 14
#: What a joker left on a rack costs at the end (rule 7.8).
JOKER_PENALTY: Final = 30
#: The meld rules of every table: groups of 3–4 colours, runs of 3+ with 1 low only (7.3).
RULES: Final = MeldRules(ace="low")
#: Tile values: the number, a joker 30 on a rack (rule 7.8).
POINTS: Final = CardPoints(ace=1, numbered_faces=True, joker=JOKER_PENALTY)
#: Tile values while searching for an initial meld: a joker's value is what it stands for,
#: which the search cannot know, so it counts nothing there and the value is counted after.
_SEARCH_POINTS: Final = CardPoints(ace=1, numbered_faces=True, joker=0)
_STARTS: Final = 256


class JokerRule(Choice):
    """How a joker on the table may change (rule 7.7)."""

    #: It keeps standing for the same tile until that tile, played from the rack, takes its
    #: place; then it must be played again in the same turn.
    REPLACE = "replace"
    #: Any table joker may take any identity in a valid new table (it stays on the table).
    FREE = "free"


@attrs.frozen(kw_only=True)
class RummikubPublic(PublicInfo):
    """What every Rummikub player sees beyond the tiles.

    Attributes:
        melded: per player, whether they have made their initial meld (rule 7.5).
        passes: with the pool empty, the passes in a row so far (rule 7.8).
        games_won: per player, the games won so far in the match (rule 7.9).
    """

    melded: tuple[bool, ...] = ()
    passes: int = 0
    games_won: tuple[int, ...] = ()

    def lines(self, *, every: bool = False) -> list[str]:
        """The facts as lines; who has made the initial meld is said by seat (rule 7.5).

        >>> RummikubPublic(melded=(True, False, True), passes=1).lines()
        ['initial meld made: p1, p3', 'passes: 1']
        >>> RummikubPublic(melded=(False, False)).lines()  # nobody yet: nothing to say
        []
        >>> RummikubPublic(melded=(False, False)).lines(every=True)[0]
        'initial meld made: none'
        """
        told = f"melded: {', '.join('yes' if done else 'no' for done in self.melded)}"
        seats = ", ".join(f"p{seat + 1}" for seat, done in enumerate(self.melded) if done)
        said = f"initial meld made: {seats or 'none'}"
        return [said if line == told else line for line in super().lines(every=every)]


@attrs.frozen(kw_only=True)
class RummikubDetail:
    """Rummikub's own bookkeeping inside a :class:`~rummylib.state.GameState`.

    Attributes:
        melded: per player, whether they have made their initial meld (rule 7.5).
        passes: the turns in a row, since a turn began with the pool empty, that ended
            without a play (rule 7.8).
        games_won: per player, the games won so far in the match.
    """

    melded: tuple[bool, ...] = ()
    passes: int = 0
    games_won: tuple[int, ...] = ()


#: A state of a Rummikub match.
State: TypeAlias = "GameState[RummikubDetail]"


def read_set(text: str) -> Meld:
    """A set written in tiles (rule 7.3): a joker stands where it fits, or as declared.

    >>> print(TILE_NOTATION.meld(read_set("k7 * k9")))
    k7 *=k8 k9
    >>> print(TILE_NOTATION.meld(read_set("r5 b5 *=o5")))  # a group in colour order: o b r k
    *=o5 b5 r5

    Raises:
        NotationError: a token is not a tile.
        InvalidMeldError: the tiles are not a set.
    """
    return read_meld(text, RULES, TILE_NOTATION).canonical()


def set_value(meld: Meld) -> int:
    """A set's value for the initial meld: its numbers, a joker as the tile it stands for (7.5).

    >>> set_value(read_set("k11 k12 *=k13")), set_value(read_set("b1 r1 o1"))
    (36, 3)
    """
    return sum(int(stands.rank or 0) for stands in meld.stands_for)


def rack_total(rack: Iterable[Card]) -> int:
    """The tiles' total at the end of a game: their numbers, a joker 30 (rule 7.8).

    >>> rack_total(parse_tiles("k13 r1 *"))
    44
    """
    return hand_points(rack, POINTS)


def rummikub_deck(racks: Sequence[str], *, pool: str = "") -> tuple[Card, ...]:
    """A stacked deck: one rack per player written in tiles (14 each), then the pool's top.

    The rest of the 106 tiles follow in a fixed order (:func:`~rummylib.state.stack_deck`).

    >>> from rummylib.tiles import format_tiles
    >>> deck = rummikub_deck(
    ...     [
    ...         "k1 k2 k3 k4 k5 k6 k7 k8 k9 k10 k11 k12 k13 *",
    ...         "r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 *",
    ...     ],
    ...     pool="b13",
    ... )
    >>> len(deck), format_tiles(deck[:3]), format_tiles(deck[28:29])
    (106, 'k1 r1 k2', 'b13')

    Raises:
        ConfigurationError: a rack does not hold 14 tiles, or names a tile more often than
            the 106 hold it.
    """
    hands = [parse_tiles(rack) for rack in racks]
    return stack_deck(Rummikub(), hands, stock=parse_tiles(pool))


@functools.lru_cache(maxsize=_STARTS)
def _best(
    table: tuple[Meld, ...], rack: tuple[Card, ...], objective: str, joker_rule: JokerRule
) -> Play | None:
    """``best_play`` for one position, remembered: the listing and the greedy bot ask alike."""
    if not table:  # the initial meld, or a play on an empty table: rack tiles only
        points = _SEARCH_POINTS if objective == "points" else POINTS
        return best_play((), rack, RULES, objective=objective, points=points)
    if joker_rule is JokerRule.FREE:
        return best_play(table, rack, RULES, objective=objective, jokers="free", points=POINTS)
    return best_play(
        table,
        rack,
        RULES,
        objective=objective,
        points=POINTS,
        replacement=JokerReplacementSource.HAND_ONLY,
    )


def _sorted_rack(rack: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(rack, key=lambda card: card.index))


@attrs.frozen(kw_only=True)
class Rummikub(Variant[RummikubDetail]):
    """Rummikub for 2–4 players (section 7 of the rules).

    Every setting of section 7 is a field with the default the rules give.

    >>> variant = Rummikub()
    >>> variant.initial_meld, variant.joker_rule.value, variant.target_score
    (30, 'replace', None)
    """

    name: ClassVar[str] = "rummikub"
    title: ClassVar[str] = "Rummikub"
    aliases: ClassVar[tuple[str, ...]] = ("rummy_tiles",)
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    notation: ClassVar[Notation] = TILE_NOTATION
    first_phase: ClassVar[PhaseBase] = Phase.PLAY
    phase_actions: ClassVar[Mapping[PhaseBase, tuple[type[Action], ...]]] = {
        Phase.PLAY: (DrawStock, Pass, Rearrange),
    }
    host_events: ClassVar[tuple[type[Action], ...]] = (TimeExpired,)
    aside_label: ClassVar[str] = "tiles set aside"
    setting_rules: ClassVar[str] = (
        "7.5 initial_meld, 7.7 joker_rule, 7.9 target_score timeout_draws"
    )

    initial_meld: int = attrs.field(default=30, validator=whole(0, maximum=MAX_POINTS))
    joker_rule: JokerRule = attrs.field(default=JokerRule.REPLACE, converter=JokerRule)
    target_score: int | None = attrs.field(
        default=None, validator=whole(1, maximum=MAX_POINTS, optional=True)
    )
    timeout_draws: int = attrs.field(default=3, validator=whole(0, maximum=RACK_SIZE))

    # -- what the game is ---------------------------------------------------------------------

    def make_meld_rules(self) -> MeldRules:
        """Groups of 3–4 colours, runs of 3+ of one colour with 1 low only (rule 7.3)."""
        return RULES

    def make_card_points(self) -> CardPoints:
        """Each tile its number, a joker 30 (rule 7.8)."""
        return POINTS

    def deck_for(self, players: int) -> tuple[Card, ...]:
        """Rule 7.1: 1–13 in four colours, two of each, and two jokers (106 tiles)."""
        return make_deck(decks=2, jokers=2)

    def hand_size_for(self, players: int) -> int:
        """Rule 7.2: 14 tiles each."""
        return RACK_SIZE

    # -- the match ----------------------------------------------------------------------------

    def new_detail(self, players: int) -> RummikubDetail:
        """Nobody has melded; no game won yet."""
        return RummikubDetail(melded=(False,) * players, games_won=(0,) * players)

    def after_deal(self, state: State) -> State:
        """A new game: nobody has melded, no pass counted."""
        detail = evolve(state.detail, melded=(False,) * state.player_count, passes=0)
        return state.replace(detail=detail)

    def next_turn(self, state: State, after: int, **changes: Any) -> State:
        """The next player's turn: one action, a play, a draw or (pool empty) a pass (7.4)."""
        upcoming = next_player(state.players_in, after)
        return state.replace(
            phase=Phase.PLAY, current_player=upcoming, to_act=(upcoming,), **changes
        )

    # -- legality -----------------------------------------------------------------------------

    def refuse_pass(self, state: State, action: Pass) -> str | None:
        """Rule 7.4: no passing while the pool has tiles."""
        if state.stock:
            return (
                f"{player_name(action.player)} cannot pass while the pool has tiles: draw or play"
            )
        return None

    def refuse_draw_stock(self, state: State, action: DrawStock) -> str | None:
        """The pool must hold a tile."""
        return None if state.stock else "the pool is empty: play or pass"

    def refuse_rearrange(self, state: State, action: Rearrange) -> str | None:
        """Rules 7.5–7.7: the initial meld from the rack alone, then any valid new table."""
        player = action.player
        refusal = rearrangement_refusal(
            state.table,
            state.hands[player],
            action.table,
            RULES,
            JokerReplacementSource.HAND_ONLY,
            jokers="free" if self.joker_rule is JokerRule.FREE else "locked",
            notation=TILE_NOTATION,
        )
        if refusal is not None or state.detail.melded[player]:
            return refusal
        new = Counter(canonical_melds(action.table))
        new.subtract(Counter(state.table))
        if any(count < 0 for count in new.values()):
            name = player_name(player)
            return f"{name} may not touch the table before their initial meld (rule 7.5)"
        value = sum(set_value(meld) * count for meld, count in new.items())
        if value < self.initial_meld:
            name = player_name(player)
            return (
                f"{name}'s initial meld is worth {value}: it needs at least "
                f"{self.initial_meld}, from the rack alone (rule 7.5)"
            )
        return None

    def refuse_time_expired(self, state: State, action: TimeExpired) -> str | None:
        """Rule 7.9: the host reports the clock of the player to act."""
        if action.player not in state.to_act:
            return f"{player_name(action.player)} has no move to make now"
        return None

    def candidates_rearrange(self, state: State, player: int) -> Iterable[Action]:
        """The plays listed: the best by tiles and by points, and the simple ones.

        Listed, each once: the play placing the most tiles and the one placing the most points
        (:func:`~rummylib.table.best_play`, the whole table rearranged), and the plays that
        keep the table and add one set from the rack or one tile to a set. Before the initial
        meld: the best rack-only plays by tiles and by points and each single set from the
        rack, those worth at least ``initial_meld``. Any other legal new table is legal too
        (:meth:`refuse_rearrange` decides), only not listed.
        """
        rack = state.hands[player]
        table = state.table
        melded = state.detail.melded[player]
        sorted_rack = _sorted_rack(rack)
        tables: dict[tuple[Meld, ...], None] = {}
        searched = table if melded else ()
        for objective in ("cards", "points"):
            play = _best(searched, sorted_rack, objective, self.joker_rule)
            if play is not None:
                tables[(*table, *play.table) if not melded else play.table] = None
        for meld in find_melds(rack, RULES):
            tables[(*table, meld)] = None
        if melded:
            for number, meld in enumerate(table):
                for card in extension_cards(meld, RULES):
                    if card in rack:
                        for extension in extensions(meld, card, RULES):
                            new = (*table[:number], extension.meld, *table[number + 1 :])
                            tables[new] = None
        return [Rearrange(player=player, table=new) for new in tables]

    # -- applying -----------------------------------------------------------------------------

    def apply_rearrange(self, state: State, action: Rearrange) -> State:
        """The new table; an empty rack wins the game (7.8), else the turn passes."""
        player = action.player
        added = cards_of(action.table) - cards_of(state.table)
        hands = list(state.hands)
        hands[player] = remove_cards(hands[player], added.elements())
        detail = state.detail
        melded = detail.melded
        if not melded[player]:
            melded = (*melded[:player], True, *melded[player + 1 :])
        detail = evolve(detail, melded=melded, passes=0)
        state = state.replace(
            hands=tuple(hands), table=canonical_melds(action.table), detail=detail
        )
        if not hands[player]:
            return self._score(state, went_out=player)
        return self.next_turn(state, player)

    def apply_draw_stock(self, state: State, action: DrawStock) -> State:
        """One tile from the pool ends the turn (7.4)."""
        return self.next_turn(super().apply_draw_stock(state, action), action.player)

    def apply_pass(self, state: State, action: Pass) -> State:
        """A pass with the pool empty; every player passing in a row ends the game (7.8)."""
        return self._passed(state, action.player)

    def apply_time_expired(self, state: State, action: TimeExpired) -> State:
        """Rule 7.9: the player draws ``timeout_draws`` tiles (fewer if the pool has fewer).

        With the pool empty it draws none, and the turn counts as a pass (rule 7.8).
        """
        player = action.player
        if not state.stock:
            return self._passed(state, player)
        drawn = state.stock[: self.timeout_draws]
        hands = list(state.hands)
        hands[player] = (*hands[player], *drawn)
        state = state.replace(hands=tuple(hands), stock=state.stock[len(drawn) :])
        return self.next_turn(state, player)

    def _passed(self, state: State, player: int) -> State:
        """A turn that began with the pool empty ended without a play (rule 7.8)."""
        passes = state.detail.passes + 1
        state = state.replace(detail=evolve(state.detail, passes=passes))
        if passes >= len(state.players_in):
            return self._score(state)
        return self.next_turn(state, player)

    # -- scoring ------------------------------------------------------------------------------

    def _score(self, state: State, *, went_out: int | None = None) -> State:
        """Score the game (rule 7.8), then end the match or start the next game (7.9)."""
        players = state.players_in
        totals = {player: rack_total(state.hands[player]) for player in players}
        lines: list[ScoreLine] = []
        points = [0] * state.player_count
        if went_out is not None:
            winners = [went_out]
            low = 0
            ended_by, ending = f"{player_name(went_out)} emptied their rack", "went_out"
        else:
            low = min(totals.values())
            winners = [player for player in players if totals[player] == low]
            ended_by, ending = "the pool ran out and every player passed", "stock_out"
        won = 0
        for player in players:
            if player in winners:
                continue
            lost = totals[player] - low
            points[player] = -lost
            won += lost
            what = f"rack {totals[player]}" if not low else f"rack {totals[player]}−{low}"
            lines.append(ScoreLine(player=player, points=-lost, reason=what))
        for winner in winners:
            points[winner] = won
            shared = " (shared)" if len(winners) > 1 else ""
            lines.append(ScoreLine(player=winner, points=won, reason=f"won the game{shared}"))
        games_won = list(state.detail.games_won)
        for winner in winners:
            games_won[winner] += 1
        detail = evolve(state.detail, games_won=tuple(games_won), passes=0)
        state = self.record_deal(
            state, points, lines=lines, ended_by=ended_by, ending=ending, detail=detail
        )
        target = self.target_score
        if target is None or any(state.scores[player] >= target for player in players):
            if target is None:
                best = winners
            else:
                high = max(state.scores[player] for player in players)
                best = [player for player in players if state.scores[player] == high]
            return self.end_match(state, best)
        dealer = next_player(players, state.dealer)
        return self.deal(state, dealer=dealer, deal_number=state.deal_number + 1)

    # -- automatic play and views -------------------------------------------------------------

    def auto_action(self, state: State) -> Action:
        """Draw a tile; pass when the pool is empty."""
        player = state.to_act[0]
        return DrawStock(player=player) if state.stock else Pass(player=player)

    def best_table_play(self, state: State, player: int, objective: str) -> Action | None:
        """The listed play placing the most tiles (``"cards"``) or points (``"points"``).

        After the initial meld, :func:`~rummylib.table.best_play` on the whole table; before
        it, the rack-only best play if it reaches ``initial_meld``. Where that play is not
        legal, the listed play placing the most (then the first listed).
        """
        rack = state.hands[player]
        melded = state.detail.melded[player]
        play = _best(state.table if melded else (), _sorted_rack(rack), objective, self.joker_rule)
        if play is not None:
            table = play.table if melded else (*state.table, *play.table)
            action = Rearrange(player=player, table=table)
            if state.is_legal(action):
                return action
        before = cards_of(state.table)
        best: tuple[tuple[int, int], Rearrange] | None = None
        for listed in state.legal_actions(player):
            if isinstance(listed, Rearrange):
                placed = list((cards_of(listed.table) - before).elements())
                tiles, points = len(placed), rack_total(placed)
                key = (tiles, points) if objective == "cards" else (points, tiles)
                if best is None or key > best[0]:
                    best = (key, listed)
        return None if best is None else best[1]

    def joker_replacement(self) -> JokerReplacementSource:
        """Rule 7.7: only a tile from the rack takes a table joker's place."""
        return JokerReplacementSource.HAND_ONLY

    def public_info(self, state: State, player: int) -> RummikubPublic:
        """Who has melded, the passes in a row, and games won."""
        detail = state.detail
        return RummikubPublic(
            melded=detail.melded, passes=detail.passes, games_won=detail.games_won
        )

    def move_words(self, state: State, kind: type[Action], actions: Sequence[Action]) -> str | None:
        """The pool, the tiles and the table in a player's words (``rummylib play``)."""
        if kind is DrawStock:
            return "draw a tile from the pool"
        if kind is Rearrange:
            if state.current_player is not None and not state.detail.melded[state.current_player]:
                return (
                    f"make your initial meld (new sets from your rack worth {self.initial_meld}"
                    " or more: table | the table's sets | your sets)"
                )
            return "play to the table (write the whole new table: table | set | set …)"
        return None

    def greedy_action(self, observation: Observation) -> Action | None:
        """Play the most tiles :func:`~rummylib.table.best_play` finds; else draw or pass.

        Before the initial meld: the rack-only play of the most points, if it is worth
        ``initial_meld``.
        """
        player = observation.player
        rack = _sorted_rack(observation.hand)
        public = observation.public
        if isinstance(public, RummikubPublic) and public.melded[player]:
            play = _best(observation.table, rack, "cards", self.joker_rule)
            if play is not None:
                return Rearrange(player=player, table=play.table)
        else:
            play = _best((), rack, "points", self.joker_rule)
            if play is not None and sum(map(set_value, play.table)) >= self.initial_meld:
                return Rearrange(player=player, table=(*observation.table, *play.table))
        if DrawStock(player=player) in observation.legal_actions:
            return DrawStock(player=player)
        return Pass(player=player)

    def match_statistics(self, state: State) -> tuple[tuple[str, int], ...]:
        """Games won by emptying a rack, and plays, in the match so far."""
        went_out = sum(record.ending == "went_out" for record in state.deal_results)
        plays = sum(isinstance(action, Rearrange) for action in state.history)
        return (("emptied a rack", went_out), ("plays", plays))
