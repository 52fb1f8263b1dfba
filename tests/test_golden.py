"""Golden playthroughs: every built-in variant's pinned matches replay step by step.

Each file under ``tests/golden/`` is one seeded whole match (``tests/golden/playthrough.py``
says which and how it was played). The replay checks, at every step, who acts, the listed
legal actions, every seat's observation digest, then applies the file's action; at the end,
the match result. A failure names the file, the step and what differed: a changed rule, to
be reviewed, and the file regenerated (``python -m tests.golden.regenerate NAME``) only if
the change is meant.
"""

from __future__ import annotations

import functools
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from rummylib.variants import VARIANTS
from tests.golden.playthrough import GOLDEN_DIR, GOLDENS
from tests.golden.replay import GoldenMismatchError, read, replay

GOLDEN_FILES = sorted(GOLDEN_DIR.glob("*.txt"))
#: The shortest file, for the tests that change a copy of it.
SHORT = GOLDEN_DIR / "rummy500-2p.txt"


def _built_in() -> list[str]:
    return sorted(name for name, cls in VARIANTS.items() if cls.__module__.startswith("rummylib."))


@functools.cache
def _pinned() -> tuple[tuple[str, int], ...]:
    """The (variant, players) of every golden file, as its header says."""
    return tuple((golden.variant, golden.players) for golden in map(read, GOLDEN_FILES))


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=[path.stem for path in GOLDEN_FILES])
def test_golden_playthrough_replays_step_by_step(path: Path) -> None:
    final = replay(path)
    assert final.is_over


def test_every_built_in_variant_has_a_golden_file() -> None:
    covered = {variant for variant, _ in _pinned()}
    missing = [name for name in _built_in() if name not in covered]
    assert not missing, (
        f"no golden playthrough for {', '.join(missing)}: add it to GOLDENS in "
        "tests/golden/playthrough.py and run python -m tests.golden.regenerate"
    )


@pytest.mark.parametrize("name", _built_in())
def test_every_deck_of_a_variant_has_a_golden_file(name: str) -> None:
    """A player count that changes the deck (one pack or two) has a file of its own."""
    variant = VARIANTS[name]()
    pinned = {variant.deck_for(players) for played, players in _pinned() if played == name}
    for players in range(variant.min_players, variant.max_players + 1):
        deck = variant.deck_for(players)
        assert deck in pinned, (
            f"{name}: no golden file plays the {len(deck)}-card deck of {players}"
        )


def test_the_golden_files_are_the_golden_matches() -> None:
    assert sorted(golden.path for golden in GOLDENS) == GOLDEN_FILES


def test_a_golden_file_says_how_to_regenerate_it() -> None:
    for golden in GOLDENS:
        text = golden.path.read_text(encoding="utf-8")
        assert f"regenerate: python -m tests.golden.regenerate {golden.name}\n" in text


# -- the replay fails, and says where: a changed copy of a file ----------------------------------


def _changed(tmp_path: Path, change: Callable[[list[str]], None]) -> Path:
    copy = tmp_path / SHORT.name
    shutil.copy(SHORT, copy)
    lines = copy.read_text(encoding="utf-8").splitlines()
    change(lines)
    copy.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return copy


def _index(lines: list[str], kind: str, after: int = 0) -> int:
    """The first line of that kind (``legal``, ``move`` …) in a step from ``after``."""
    return next(
        index
        for index, line in enumerate(lines)
        if line[:1].isdigit() and int(line.split()[0]) >= after and line.split()[1] == kind
    )


def test_replay_fails_at_the_step_whose_listing_lost_an_action(tmp_path: Path) -> None:
    lines: list[str] = []

    def drop(text: list[str]) -> None:
        lines.extend(text)
        del text[_index(text, "legal", after=5)]

    copy = _changed(tmp_path, drop)
    dropped = lines[_index(lines, "legal", after=5)]
    step, _, action = dropped.split(" ", 2)
    with pytest.raises(GoldenMismatchError) as failure:
        replay(copy)
    message = str(failure.value)
    assert message.startswith(f"{copy}, step {int(step)} (line ")
    assert "the listed legal actions differ" in message
    assert f"listed now, not in the file: {action}" in message


def test_replay_fails_at_a_listed_action_written_differently(tmp_path: Path) -> None:
    def rename(text: list[str]) -> None:
        at = _index(text, "legal", after=30)
        text[at] = text[at] + "x"

    with pytest.raises(GoldenMismatchError, match=r"step 30 .*\n  in the file, not listed now: "):
        replay(_changed(tmp_path, rename))


def test_replay_fails_at_a_changed_observation_digest(tmp_path: Path) -> None:
    def flip(text: list[str]) -> None:
        at = _index(text, "seen", after=12)
        digests = text[at].split()
        digests[-1] = "0" * 16
        text[at] = " ".join(digests)

    with pytest.raises(GoldenMismatchError, match=r"step 12 .*p2's observation differs"):
        replay(_changed(tmp_path, flip))


def test_replay_fails_after_a_different_move(tmp_path: Path) -> None:
    # Step 3 discards another card of the listing: step 4 is no longer what the file says.
    def swap(text: list[str]) -> None:
        move = _index(text, "move", after=3)
        number, _, taken = text[move].split(" ", 2)
        other = next(
            line.split(" ", 2)[2]
            for line in text
            if line.startswith(f"{number} legal ") and " discard " in line and taken not in line
        )
        text[move] = f"{number} move {other}"

    with pytest.raises(GoldenMismatchError, match=r"step 4 "):
        replay(_changed(tmp_path, swap))


def test_replay_fails_at_a_changed_result(tmp_path: Path) -> None:
    def change(text: list[str]) -> None:
        at = next(index for index, line in enumerate(text) if line.startswith("result scores"))
        text[at] += "0"

    with pytest.raises(GoldenMismatchError, match=r"the match result differs\n  expected: result"):
        replay(_changed(tmp_path, change))


def test_replay_fails_when_the_file_ends_before_the_match(tmp_path: Path) -> None:
    def cut(text: list[str]) -> None:
        at = _index(text, "move", after=20)
        del text[at:]

    with pytest.raises(
        GoldenMismatchError, match=r"step 20 .*the file ends here, but the match goes on"
    ):
        replay(_changed(tmp_path, cut))
