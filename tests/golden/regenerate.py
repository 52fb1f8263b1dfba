"""Write the golden playthrough files again, from the rules as the code has them now.

Run from the repository root::

    python -m tests.golden.regenerate                   # write every file of GOLDENS
    python -m tests.golden.regenerate gin-2p rummy71-2p # write these
    python -m tests.golden.regenerate --check           # write nothing; exit 1 on a change
    python -m tests.golden.regenerate --show gin-2p 40  # step 40 of the file: every seat's
                                                        # observation as the digest reads it

A regenerated file is a new playthrough: once a rule changes, the policy plays differently
from that step on, so the whole rest of the file may change. To see *which* rule changed,
run ``tests/test_golden.py`` first: it replays the old file's actions and names the first
step that differs. ``--show`` prints what a digest is made of, to compare two versions of
the code at the same step.

>>> main(["--check", "no-such-file"])
Traceback (most recent call last):
...
KeyError: "no golden match 'no-such-file'; known: carousel-2p, ..."
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tests.golden import replay, steps
from tests.golden.playthrough import GOLDENS, find_golden, lines

__all__ = ["main"]


def _show(name: str, number: int) -> None:
    state = replay.state_at(find_golden(name).path, number)
    print(f"{name} step {number}: {steps.turn_line(state, None)}")
    for line in steps.legal_lines(state):
        print(f"  legal {line}")
    for seat in range(state.player_count):
        observation = state.observation(seat)
        print(f"p{seat + 1} {steps.digest(observation)}")
        for fact in steps.observation_text(observation).splitlines():
            print(f"  {fact}")


def main(argv: Sequence[str] | None = None) -> int:
    """Write (or with ``--check``, compare) the golden files; the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m tests.golden.regenerate", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("names", nargs="*", help="files to write (default: all), e.g. gin-2p")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 on a change")
    parser.add_argument("--show", nargs=2, metavar=("NAME", "STEP"), help="print one step")
    options = parser.parse_args(argv)
    if options.show:
        _show(options.show[0], int(options.show[1]))
        return 0
    chosen = [find_golden(name) for name in options.names] or list(GOLDENS)
    changed = []
    for golden in chosen:
        text = "\n".join(lines(golden)) + "\n"
        old = golden.path.read_text(encoding="utf-8") if golden.path.exists() else None
        if text == old:
            continue
        changed.append(golden.name)
        if not options.check:
            golden.path.write_text(text, encoding="utf-8")
    verb = "would change" if options.check else "written"
    print(f"{verb}: {', '.join(changed) or 'none'}")
    return 1 if options.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
