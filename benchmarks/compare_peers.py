"""rummylib's hand evaluation against OpenSpiel's and RLCard's gin rummy code.

Needs the ``bench`` extra (``pip install -e '.[bench]'``: ``open-spiel`` and ``rlcard``); run
from the repository root::

    python benchmarks/compare_peers.py [--hands 3000] [--seed 7] [--passes 3]

Gin rules on both sides: one pack, no jokers, the ace low only, A = 1, J Q K = 10. For each
category the same seeded hands go to every library, one call after the other (the order
rotates from hand to hand), in ``--passes`` passes; a hand's time is its fastest pass, to
filter out scheduler noise. Only the call itself is timed; each library gets its hands in its
own card format, built beforehand.

* ``rummylib``: ``arrange(hand, MeldRules(ace="low"), CardPoints())`` (with ``discard=True``
  for 11 cards), which returns the whole arrangement, not just a number.
* OpenSpiel: ``pyspiel.gin_rummy.GinRummyUtils(13, 4, 10).min_deadwood(hand)`` (C++). With 11
  cards it takes the best melds of all 11 and drops the highest deadwood card, a shortcut that
  is not always the best discard.
* RLCard: ``melding.get_best_meld_clusters(hand)`` (pure Python, 10 cards only); its deadwood
  is then counted outside the timing.

Every answer is compared with rummylib's; every disagreement is settled by the brute-force
oracle of the test suite (``tests/oracle.py``), and the script says whose answer was wrong.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rummylib import Card, CardPoints, MeldRules, arrange, format_cards, make_deck
from tests.oracle import oracle_value

GIN = MeldRules(ace="low")
GIN_POINTS = CardPoints(ace=1, face=10)

#: rummylib suit number (c d h s) -> OpenSpiel suit number (s c d h) and RLCard's (S H D C).
OPEN_SPIEL_SUIT = (1, 2, 3, 0)
RLCARD_SUIT = (3, 2, 1, 0)


def load_peers() -> tuple[Any, Any, Any] | None:
    """OpenSpiel's utilities and RLCard's melding and utils modules, or None."""
    try:
        import pyspiel  # type: ignore[import-not-found]  # noqa: PLC0415
        from rlcard.games.gin_rummy.utils import (  # type: ignore[import-not-found]  # noqa: PLC0415
            melding,
            utils,
        )
    except ImportError as error:
        print(f"compare_peers: the peers are not installed ({error}).")
        print("Install them with: pip install -e '.[bench]'  (open-spiel, rlcard)")
        return None
    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10), melding, utils


def open_spiel_card(card: Card) -> int:
    return OPEN_SPIEL_SUIT[card.index // 13] * 13 + card.index % 13


def rlcard_card_id(card: Card) -> int:
    return RLCARD_SUIT[card.index // 13] * 13 + card.index % 13


class Tally:
    """Times and disagreements of one library in one category."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.best: list[float] = []
        self.disagreements = 0
        self.peer_wrong = 0
        self.ours_wrong = 0
        self.examples: list[str] = []


def time_call(call: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter_ns()
    result = call()
    return (time.perf_counter_ns() - start) / 1000, result


def compare(  # noqa: PLR0912, PLR0915  (one loop that times, compares and settles)
    name: str,
    hands: Sequence[list[Card]],
    peers: tuple[Any, Any, Any],
    passes: int,
) -> None:
    utilities, melding, utils = peers
    discard = len(hands[0]) == 11
    with_rlcard = not discard
    open_spiel_hands = [[open_spiel_card(card) for card in hand] for hand in hands]
    rlcard_hands = [[utils.get_card(rlcard_card_id(card)) for card in hand] for hand in hands]

    def ours(hand: list[Card]) -> Callable[[], object]:
        return lambda: arrange(hand, GIN, GIN_POINTS, discard=discard)

    def theirs_open_spiel(hand: list[int]) -> Callable[[], object]:
        return lambda: utilities.min_deadwood(hand)

    def theirs_rlcard(hand: list[Any]) -> Callable[[], object]:
        return lambda: melding.get_best_meld_clusters(hand)

    tallies = {"rummylib": Tally("rummylib"), "OpenSpiel": Tally("OpenSpiel (C++)")}
    if with_rlcard:
        tallies["RLCard"] = Tally("RLCard")
    for tally in tallies.values():
        tally.best = [float("inf")] * len(hands)
    answers: dict[str, list[object]] = {key: [None] * len(hands) for key in tallies}
    for _ in range(passes):
        for position, hand in enumerate(hands):
            calls = [
                ("rummylib", ours(hand)),
                ("OpenSpiel", theirs_open_spiel(open_spiel_hands[position])),
            ]
            if with_rlcard:
                calls.append(("RLCard", theirs_rlcard(rlcard_hands[position])))
            shift = position % len(calls)
            for key, call in calls[shift:] + calls[:shift]:
                elapsed, answer = time_call(call)
                tally = tallies[key]
                tally.best[position] = min(tally.best[position], elapsed)
                answers[key][position] = answer

    # Deadwood values, then disagreements settled by the oracle.
    for position, hand in enumerate(hands):
        mine = answers["rummylib"][position].deadwood_points  # type: ignore[attr-defined]
        others = {"OpenSpiel": int(answers["OpenSpiel"][position])}  # type: ignore[call-overload]
        if with_rlcard:
            clusters = answers["RLCard"][position]
            cards = rlcard_hands[position]
            others["RLCard"] = (
                utils.get_deadwood_count(cards, clusters[0])  # type: ignore[index]
                if clusters
                else sum(utils.get_deadwood_value(card) for card in cards)
            )
        truth = None
        for key, value in others.items():
            if value == mine:
                continue
            if truth is None:
                truth = oracle_value(hand, GIN, GIN_POINTS, discard=discard)[0]
            tally = tallies[key]
            tally.disagreements += 1
            if value != truth:
                tally.peer_wrong += 1
            if mine != truth:
                tally.ours_wrong += 1
            if len(tally.examples) < 3:
                shown = format_cards(sorted(hand, key=lambda card: card.index))
                tally.examples.append(f"{shown}: {key} {value}, rummylib {mine}, oracle {truth}")

    ours_median = statistics.median(tallies["rummylib"].best)
    print(f"\n{name} ({len(hands)} hands)")
    for key, tally in tallies.items():
        ordered = sorted(tally.best)
        median = statistics.median(ordered)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        line = f"  {tally.name:16s} median {median:8.2f} us   p99 {p99:9.2f} us"
        if key != "rummylib":
            line += f"   {key} / rummylib = {median / ours_median:5.2f}"
            line += (
                f"   disagreements {tally.disagreements}"
                f" ({tally.peer_wrong} {key} wrong per the oracle,"
                f" {tally.ours_wrong} rummylib wrong)"
            )
        print(line)
        for example in tally.examples:
            print(f"      {example}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands per category")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args(argv)
    peers = load_peers()
    if peers is None:
        return 0
    deck = make_deck()
    dense = [card for card in deck if card.index % 13 < 5]  # A-5 of every suit
    categories = [
        ("gin, 10 random cards", deck, 10),
        ("gin, 10 meld-dense cards (A-5)", dense, 10),
        ("gin, 11 random cards, best discard (no RLCard: 10 cards only)", deck, 11),
        ("gin, 11 meld-dense cards (A-5), best discard", dense, 11),
    ]
    print(f"Python {sys.version.split()[0]}; {args.passes} passes, fastest pass per hand")
    for number, (name, pool, size) in enumerate(categories):
        rng = random.Random(args.seed * 100 + number)
        hands = [rng.sample(pool, size) for _ in range(args.hands)]
        for hand in hands[:50]:  # build rummylib's rule tables before timing
            arrange(hand, GIN, GIN_POINTS, discard=size == 11)
        compare(name, hands, peers, args.passes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
