"""``rummylib play --json``: a program plays whole matches of every variant (issue 28)."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import IO, Any, cast

import pytest

pytest.importorskip("rich", reason="play draws with rich, the cli extra")

from rummylib import get_variant
from rummylib._play import play
from rummylib.variants import VARIANTS

REPO_ROOT = Path(__file__).resolve().parent.parent


class Driver:
    """Standard output and input at once: each line read answers the last prompt written."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)
        self.objects: list[dict[str, Any]] = []
        self.pending = ""

    def write(self, text: str) -> int:
        self.pending += text
        *lines, self.pending = self.pending.split("\n")
        self.objects.extend(json.loads(line) for line in lines)
        return len(text)

    def flush(self) -> None:
        return

    def readline(self) -> str:
        prompts = [item for item in self.objects if item["type"] == "prompt"]
        assert prompts, "a line is read before any prompt"
        legal = prompts[-1]["legal"]
        finishing = [move for move in legal if " declare " in move]  # ends a deal sooner
        return str(self.random.choice(finishing or legal)) + "\n"


# Matches kept short where a random player would take long: lower targets and thresholds.
SHORT: dict[str, dict[str, Any]] = {
    "rummy71": {"hand_size": 4, "elimination_threshold": 30},
    "rummy101": {"hand_size": 4, "elimination_threshold": 30},
    "gin": {"target_score": 1},
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_scripted_json_game_of_every_variant_plays_to_the_end(name: str) -> None:
    variant = get_variant(name, **SHORT.get(name, {}))
    driver = Driver(seed=7)
    code = play(
        variant,
        players=2,
        seed=7,
        bots=["random"],
        stdin=cast(IO[str], driver),
        machine=True,
        stdout=cast(IO[str], driver),
    )
    assert code == 0
    assert driver.pending == ""  # every object ends its line
    kinds = {item["type"] for item in driver.objects}
    assert kinds <= {"observation", "event", "prompt", "error"}
    assert "error" not in kinds  # every move sent back from `legal` was taken
    last = driver.objects[-1]
    assert last["type"] == "event"
    assert last["match_over"] is True
    assert all(item["legal"] for item in driver.objects if item["type"] == "prompt")


def machine_play(name: str, seed: int, sent: list[str]) -> list[dict[str, Any]]:
    """The objects ``play --json`` writes for a two-player match given the lines ``sent``."""
    lines = iter(sent)

    class Input:
        def readline(self) -> str:
            return next(lines, "")

    out = io.StringIO()
    play(
        get_variant(name),
        players=2,
        seed=seed,
        bots=["greedy"],
        stdin=cast(IO[str], Input()),
        machine=True,
        stdout=out,
    )
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_the_observation_lists_the_wild_cards_of_the_hand() -> None:
    # Seed 5 sets the Ad aside: every A is wild (rule 6.3), and p1 holds the Ah.
    for name, wild in (("indian_points", ["Ah"]), ("gin", [])):
        first = machine_play(name, 5, [])[0]
        assert first["type"] == "observation"
        assert first["wild"] == wild, name


def test_a_bad_line_gets_an_error_object_and_a_new_prompt() -> None:
    objects = machine_play("gin", 1, ["dicsard 4c\n", "p1 pass\n"])
    types = [item["type"] for item in objects]
    assert types[:5] == ["observation", "prompt", "error", "observation", "prompt"]
    assert objects[2]["message"].startswith("there is no move 'dicsard' in Gin Rummy")
    assert "did you mean 'discard 4c'?" in objects[2]["message"]
    assert objects[1]["legal"] == ["p1 take discard", "p1 pass"]
    assert {"type": "event", "action": "p1 pass", "drawn": None} in objects


def test_a_program_drives_play_json_through_pipes() -> None:
    """The real process: a prompt is flushed before the next line is read."""
    command = [sys.executable, "-m", "rummylib", "play", "--json", "--variant", "gin"]
    command += ["--players", "2", "--seed", "3", "--bots", "random"]
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=REPO_ROOT
    )
    assert process.stdin is not None
    assert process.stdout is not None
    chooser = random.Random(3)
    ended = False
    for line in process.stdout:
        item = json.loads(line)
        if item["type"] == "prompt":
            process.stdin.write(chooser.choice(item["legal"]) + "\n")
            process.stdin.flush()
        ended = ended or bool(item.get("match_over"))
    process.stdin.close()
    process.stdout.close()
    assert process.wait(timeout=60) == 0
    assert ended


def test_the_documented_driver_plays_a_match_to_its_end() -> None:
    # docs/cli.rst shows this file and its output.
    driver = REPO_ROOT / "examples" / "play_json" / "driver.py"
    command = [sys.executable, str(driver), "--variant", "gin", "--players", "2", "--seed", "3"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "won by p2\n"
    page = (REPO_ROOT / "docs" / "cli.rst").read_text(encoding="utf-8")
    assert "$ python examples/play_json/driver.py --variant gin --players 2 --seed 3\n" in page
    assert "   won by p2\n" in page
