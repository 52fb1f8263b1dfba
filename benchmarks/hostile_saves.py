"""Hostile saved games: how long GameState.from_json takes to load or refuse each, and its memory.

Run: ``python benchmarks/hostile_saves.py [--size BYTES]``. Prints one line per save: its size,
whether it loaded or the start of the refusal, the time (best of three, without tracing) and
the peak memory traced by :mod:`tracemalloc` during a separate load. Asserts nothing.

The goal (issue 10): every save under 1 MB loads or is refused in under 1 s and 100 MB. A
genuine save replays every action through the rules (about 50–400 µs each), so the last
lines — real matches of legal actions grown to the size limit — show what a long but honest
record costs.
"""

from __future__ import annotations

import argparse
import json
import random
import time
import tracemalloc
from collections.abc import Callable, Iterator

from rummylib import GameState, RummyError, new_game
from rummylib.actions import Disconnect, Reconnect


def base(variant: str = "rummy101", steps: int = 20, seed: int = 1) -> dict[str, object]:
    rng = random.Random(seed)
    state = new_game(variant, players=2, seed=seed)
    for _ in range(steps):
        state = state.apply(rng.choice(state.legal_actions()))
    record: dict[str, object] = json.loads(state.to_json())
    return record


def dumps(record: object) -> str:
    return json.dumps(record, separators=(",", ":"))


def with_setting(name: str, value: object) -> str:
    record = base()
    settings = record["settings"]
    assert isinstance(settings, dict)
    settings[name] = value
    return dumps(record)


def with_entry(key: str, value: object) -> str:
    record = base()
    record[key] = value
    return dumps(record)


def with_actions(actions: list[object]) -> str:
    record = base(steps=0)
    record["actions"] = actions
    return dumps(record)


def with_raw(key: str, raw: str) -> str:
    record = base()
    record[key] = "\x00raw\x00"
    return dumps(record).replace(json.dumps("\x00raw\x00"), raw)


def filled(item: str, size: int) -> str:
    """A JSON list of ``item`` repeated to about ``size`` bytes."""
    return "[" + ",".join([item] * (size // (len(item) + 1))) + "]"


def genuine_host_events(size: int) -> str:
    """A real Israeli match whose history is Disconnect/Reconnect pairs up to ``size`` bytes."""
    state = new_game("rummy101", players=2, seed=3)
    pairs = size // 80
    for _ in range(pairs):
        state = state.apply(Disconnect(player=1)).apply(Reconnect(player=1))
    return state.to_json()


def genuine_play(variant: str, size: int, seed: int = 4) -> str:
    """Random legal play, match after match, keeping the longest save below ``size`` bytes."""
    rng = random.Random(seed)
    best = ""
    for match in range(50):
        state = new_game(variant, players=2, seed=seed + match)
        count = 0
        while not state.is_over and count < 200_000:
            state = state.apply(rng.choice(state.legal_actions()))
            count += 1
            if count % 500 == 0 and len(state.to_json()) > size:
                break
        text = state.to_json()
        if len(best) < len(text) <= size or (not best and text):
            best = text
        if len(text) > size * 0.9:
            break
    return best


def saves(size: int) -> Iterator[tuple[str, Callable[[], str]]]:
    deep = size // 2
    yield "decks=10**6 (the 1.4 kB report)", lambda: with_setting("decks", 10**6)
    yield "decks=10**20", lambda: with_setting("decks", 10**20)
    yield "jokers=10**9", lambda: with_setting("jokers", 10**9)
    yield "hand_size=10**4000", lambda: with_setting("hand_size", 10**4000)
    yield "stake=10**4000", lambda: with_setting("stake", 10**4000)
    yield "target number of 1 MB digits", lambda: with_raw("players", "9" * size)
    yield "players=10**4000", lambda: with_entry("players", 10**4000)
    yield "seed=10**4000 (another seed's actions)", lambda: with_entry("seed", 10**4000)
    yield "version=true", lambda: with_entry("version", True)
    yield "version=1.0", lambda: with_entry("version", 1.0)
    yield "nesting [[[[…", lambda: "[" * deep + "]" * deep
    yield "nesting in settings", lambda: with_raw("settings", '{"a":' * 400 + "1" + "}" * 400)
    yield "nesting in actions", lambda: with_raw("actions", "[" * 900 + "]" * 900)
    yield "1e999 / NaN", lambda: with_raw("seed", "1e999")
    yield (
        "1 MB of draw_stock",
        lambda: with_actions(json.loads(filled('{"type":"draw_stock","player":0}', size))),
    )
    yield "1 MB of junk actions", lambda: with_actions(json.loads(filled('{"x":[1,2,3]}', size)))
    yield (
        "1 MB of actions, junk last",
        lambda: with_actions(
            [*json.loads(filled('{"type":"draw_stock","player":0}', size - 100)), {"type": 1}]
        ),
    )
    yield "1 MB of empty objects", lambda: with_actions(json.loads(filled("{}", size)))
    yield "1 MB variant name", lambda: with_entry("variant", "x" * size)
    yield "1 MB format text", lambda: with_entry("format", "x" * size)
    yield "1 MB deck text", lambda: with_entry("deck", "Ah " * (size // 3))
    yield (
        "1 MB card text",
        lambda: with_actions(
            [
                {"type": "draw_stock", "player": 0},
                {"type": "discard", "player": 0, "card": "7" * size},
            ]
        ),
    )
    yield (
        "1 MB of settings keys",
        lambda: with_entry("settings", {f"k{n}": n for n in range(size // 14)}),
    )
    yield (
        "1 MB of snapshot keys",
        lambda: with_entry("snapshot", {f"k{n}": n for n in range(size // 14)}),
    )
    yield (
        "1 MB of keys in an action",
        lambda: with_actions(
            [{"type": "draw_stock", "player": 0, **{f"k{n}": n for n in range(size // 14)}}]
        ),
    )
    yield (
        "1 MB of melds in a declaration",
        lambda: with_actions(
            [
                {"type": "draw_stock", "player": 0},
                {
                    "type": "declare_rummy",
                    "player": 0,
                    "discard": "Ah",
                    "melds": json.loads(
                        filled('{"kind":"run","cards":["7h"],"stands_for":["7h"]}', size)
                    ),
                },
            ]
        ),
    )
    yield "1 MB sitting_out list", lambda: with_setting("sitting_out", [0] * (size // 2))
    yield "1 MB rebuy_stakes list", lambda: with_setting("rebuy_stakes", [1] * (size // 2))
    yield "genuine: host events, rummy101", lambda: genuine_host_events(size)
    for variant in ("rummy101", "carousel", "turkish500", "rummy500"):
        yield (
            f"genuine: random play, {variant}",
            lambda variant=variant: genuine_play(variant, size),
        )


def load(text: str) -> str:
    try:
        state = GameState.from_json(text)
    except RummyError as error:
        return f"refused: {str(error)[:70]}"
    return f"loaded: {len(state.history)} actions"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=1_000_000, help="bytes of the large saves")
    args = parser.parse_args()
    print(f"{'save':34} {'bytes':>9} {'seconds':>8} {'peak MB':>8}  outcome")
    for label, build in saves(args.size):
        text = build()
        timings = []
        for _ in range(3):
            started = time.perf_counter()
            outcome = load(text)
            timings.append(time.perf_counter() - started)
        tracemalloc.start()
        load(text)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"{label:34} {len(text):>9} {min(timings):>8.3f} {peak / 1e6:>8.1f}  {outcome}")


if __name__ == "__main__":
    main()
