"""Load and fault benchmark of the web table (``rummylib serve``), on the loopback only.

Starts the server in a child process, opens ``--tables`` gin tables of two people's seats, and
drives every seat with a bot client over a real WebSocket (``websockets``): each client thinks
for a while, sends one of its legal moves and times the answer (the state that shows the move).
Clients drop their socket at random and come back; midway the server is killed (SIGKILL) and
started again on the same records folder, and the clients reconnect. At the end every table's
record is read from the folder, replayed with ``rummylib.records.load``, and compared with
what the server holds and what it last told each seat (the move count, the scores and the seat's
hand); a table whose record does not replay to it is *lost*. Prints::

    serve: T tables, A actions, p50 X ms, p99 Y ms, lost L

Needs the ``web`` extra and ``websockets``. Every request goes to 127.0.0.1, and the run is
bounded: ``--seconds`` of play (the restart at half time), then the check.

    python benchmarks/bench_serve.py --tables 200
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

from rummylib.records import load


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def start_server(folder: Path, port: int) -> subprocess.Popen[bytes]:
    code = (
        "import sys; from rummylib.web import main; "
        f"sys.exit(main(['--port', '{port}', '--records', {str(folder)!r}, "
        "'--reconnect-grace', '0.3', '--log-level', 'warning', '--max-tables', '5000']))"
    )
    process = subprocess.Popen([sys.executable, "-c", code], env=os.environ.copy())
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=1):
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    msg = "the server did not start"
    raise RuntimeError(msg)


def open_tables(port: int, count: int) -> list[tuple[str, list[str]]]:
    body = json.dumps(
        {"variant": "gin", "seats": [{"kind": "person"}, {"kind": "person"}]}
    ).encode()
    tables = []
    for _ in range(count):
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/tables",
            data=body,
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            data = json.load(answer)
        tables.append((data["table"], [link["link"].split("#")[1] for link in data["links"]]))
    return tables


class Client:
    """One seat's bot: thinks, moves, times the answer; drops its socket now and then."""

    def __init__(self, port: int, table: str, token: str, seed: int, args: Any) -> None:
        self.url = f"ws://127.0.0.1:{port}/ws/{table}"
        self.table, self.token = table, token
        self.random = random.Random(seed)
        self.args = args
        self.latencies: list[float] = []
        self.actions = 0
        self.last: dict[str, Any] | None = None
        self.stop = False

    async def run(self) -> None:
        while not self.stop:
            try:
                async with websockets.connect(self.url, open_timeout=10) as ws:
                    await ws.send(json.dumps({"type": "join", "token": self.token}))
                    await self._play(ws)
            except (OSError, websockets.ConnectionClosed, TimeoutError):
                pass
            if not self.stop:
                await asyncio.sleep(self.random.uniform(0.1, 0.5))

    async def _next_state(self, ws: Any, timeout: float) -> dict[str, Any] | None:
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout))
            if message["type"] == "state":
                self.last = message
                return message

    async def _play(self, ws: Any) -> None:
        state = await self._next_state(ws, 10)
        while not self.stop and state is not None:
            if state["over"] or not state["moves"]:
                try:
                    state = await self._next_state(ws, 1.0)
                except TimeoutError:
                    state = self.last
                continue
            await asyncio.sleep(self.random.uniform(*self.args.think))
            if self.stop:
                return
            if self.random.random() < self.args.drop:
                return  # drop the socket: auto-play may take over until we are back
            move = self.random.choice(state["moves"])["text"]
            seq = state["seq"]
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "move", "move": move, "seq": seq}))
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if message["type"] == "state":
                    self.last = message
                    if message["seq"] > seq:
                        self.latencies.append(time.perf_counter() - sent)
                        self.actions += 1
                        state = message
                        break
                elif message["type"] == "error":  # stale after an auto-played move: go on
                    state = self.last
                    break


async def drive(args: argparse.Namespace) -> str:
    folder = Path(tempfile.mkdtemp(prefix="rummylib-bench-serve-"))
    port = _free_port()
    server = start_server(folder, port)
    try:
        tables = open_tables(port, args.tables)
        clients = [
            Client(port, table, token, seed=index * 2 + seat, args=args)
            for index, (table, tokens) in enumerate(tables)
            for seat, token in enumerate(tokens)
        ]
        tasks = [asyncio.create_task(client.run()) for client in clients]
        await asyncio.sleep(args.seconds / 2)
        server.send_signal(signal.SIGKILL)  # a crash: only what is on disk survives
        server.wait()
        server = start_server(folder, port)
        await asyncio.sleep(args.seconds / 2)
        for client in clients:
            client.stop = True
        await asyncio.wait(tasks, timeout=30)
        for task in tasks:
            task.cancel()
        await asyncio.sleep(0.5)
        # the server's final word to each seat, against the record in the folder
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tables", timeout=60) as r:
            listed = {entry["id"]: entry for entry in json.load(r)["tables"]}
        lost = 0
        for index, (table, _) in enumerate(tables):
            seen = [clients[2 * index].last, clients[2 * index + 1].last]
            try:
                final = load(folder / f"{table}.toml").final_state
            except Exception:  # a record that does not load is lost
                lost += 1
                continue
            latest = max((view for view in seen if view), key=lambda view: view["seq"])
            ok = len(final.history) >= latest["seq"] and all(
                view is None
                or view["seq"] < len(final.history)
                or (
                    view["observation"]["hand"] == [str(c) for c in final.hands[view["seat"]]]
                    and view["observation"]["scores"] == list(final.scores)
                )
                for view in seen
            )
            # the server's state now (what it holds after the last moves) is the record's
            if table in listed and listed[table]["moves"] != len(final.history):
                ok = False
            lost += not ok
        samples = [value * 1000 for client in clients for value in client.latencies]
        actions = sum(client.actions for client in clients)
        p50 = statistics.median(samples) if samples else float("nan")
        p99 = statistics.quantiles(samples, n=100)[98] if len(samples) > 1 else float("nan")
        return (
            f"serve: {len(tables)} tables, {actions} actions, p50 {p50:.1f} ms, "
            f"p99 {p99:.1f} ms, lost {lost}"
        )
    finally:
        server.kill()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0, help="of play, restart midway")
    parser.add_argument("--drop", type=float, default=0.01, help="chance to drop per move")
    parser.add_argument("--think", type=float, nargs=2, default=(0.3, 1.5), metavar=("MIN", "MAX"))
    args = parser.parse_args()
    print(asyncio.run(drive(args)))


if __name__ == "__main__":
    main()
