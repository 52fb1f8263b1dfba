"""Import time: what ``import rummylib`` adds to a fresh Python process (issue #12).

Run: ``python benchmarks/bench_import.py [--runs N]``. Prints figures; asserts nothing.

Each figure is a whole fresh process, started ``--runs`` times (7 by default) in alternation
with the others so that a noisy moment of the machine falls on all of them alike:

- ``python -c pass``: the interpreter alone (with whatever ``site`` and the ``.pth`` files of
  the environment import, which every process pays);
- ``python -c "import rummylib"``;
- ``python -c "import rummylib; rummylib.new_game('rummy101', players=2, seed=1)"``: the
  first game, with the modules it needs (for information).

Each is run two ways. ``cached``: with bytecode caching, as an installed package runs (the
``.pyc`` files go to a temporary ``PYTHONPYCACHEPREFIX``, so the tree is not written to).
``environment``: with this environment as it is; where it sets ``PYTHONDONTWRITEBYTECODE``
(as the development machines do), rummylib's modules are compiled from source in every
process. For each it prints the median wall time and the median CPU time (user + system) of
the child, then what ``import rummylib`` adds to ``python -c pass`` (issue #12 asks for at most
40 ms of wall time). The child runs this interpreter, so ``PYTHONPATH=/some/tree`` measures the
rummylib found there (the script prints which one).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence

PROGRAMS = {
    "pass": "pass",
    "import rummylib": "import rummylib",
    "first game": "import rummylib; rummylib.new_game('rummy101', players=2, seed=1)",
}


def run_once(code: str, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one fresh ``python -c code``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs of each program (default 7)")
    args = parser.parse_args(argv)

    where = subprocess.run(
        [sys.executable, "-c", "import rummylib; print(rummylib.__file__)"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    print(f"python {sys.version.split()[0]}; rummylib from {where}")
    print(f"PYTHONPATH={os.environ.get('PYTHONPATH', '')!r}; median of {args.runs} runs")
    written = os.environ.get("PYTHONDONTWRITEBYTECODE", "")
    print(f"this environment: PYTHONDONTWRITEBYTECODE={written!r}")

    with tempfile.TemporaryDirectory(prefix="bench-import-pyc-") as pycache:
        cached = {
            key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"
        }
        cached["PYTHONPYCACHEPREFIX"] = pycache
        modes = {"cached": cached, "environment": dict(os.environ)}
        for env in modes.values():  # warm the file-system cache and write the .pyc files
            for code in PROGRAMS.values():
                run_once(code, env)
        walls: dict[tuple[str, str], list[float]] = {}
        cpus: dict[tuple[str, str], list[float]] = {}
        for _ in range(args.runs):
            for mode, env in modes.items():
                for name, code in PROGRAMS.items():
                    wall, cpu = run_once(code, env)
                    walls.setdefault((mode, name), []).append(wall)
                    cpus.setdefault((mode, name), []).append(cpu)

    for mode in modes:
        wall_ms = {name: statistics.median(walls[mode, name]) * 1e3 for name in PROGRAMS}
        cpu_ms = {name: statistics.median(cpus[mode, name]) * 1e3 for name in PROGRAMS}
        print(f"\n{mode}:")
        print(f"  {'program':<18}{'wall ms':>10}{'cpu ms':>10}")
        for name in PROGRAMS:
            print(f"  {name:<18}{wall_ms[name]:>10.1f}{cpu_ms[name]:>10.1f}")
        added_wall = wall_ms["import rummylib"] - wall_ms["pass"]
        added_cpu = cpu_ms["import rummylib"] - cpu_ms["pass"]
        first = wall_ms["first game"] - wall_ms["pass"]
        print(
            f"  import rummylib adds {added_wall:.1f} ms wall, {added_cpu:.1f} ms cpu "
            f"(target: at most 40 ms wall); import + first new_game adds {first:.1f} ms wall"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
