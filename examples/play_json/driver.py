"""A program that plays ``rummylib play --json`` to the end of a match.

Run it as ``python examples/play_json/driver.py --variant gin --players 2 --seed 3``: it starts
``rummylib play --json`` with those options, answers every prompt with one of its legal moves
(a seeded random choice), and prints the winners when the match is over.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys


def main(options: list[str]) -> int:
    """Play one match of ``rummylib play --json`` with ``options``; its exit code."""
    command = [sys.executable, "-m", "rummylib", "play", "--json", *options]
    chooser = random.Random(1)
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as game:
        assert game.stdin is not None
        assert game.stdout is not None
        for line in game.stdout:  # one JSON object a line, flushed as it is written
            message = json.loads(line)
            if message["type"] == "prompt":  # p1 is to act: send back one of the legal moves
                game.stdin.write(chooser.choice(message["legal"]) + "\n")
                game.stdin.flush()
            elif message["type"] == "error":  # a refused line; a new prompt follows
                print("refused:", message["message"], file=sys.stderr)
            elif message["type"] == "event" and message.get("match_over"):
                print("won by", ", ".join(message["winners"]))
        game.stdin.close()
        return game.wait()  # 0 once the match is over


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
