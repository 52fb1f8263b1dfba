"""The ASGI application: the lobby's HTTP API, the static client and one WebSocket per seat.

Routes:

* ``GET /`` the lobby page, ``GET /table/{id}`` the table page (the seat's secret is in the
  link's fragment, ``#…``, which browsers never send in a request or a ``Referer``);
* ``GET /api/variants``: every registered variant with its player range and settings;
* ``GET /api/tables``: the open tables (ids, variants, seats; never a secret);
* ``POST /api/tables``: open a table, answered with a link per person's seat;
* ``GET /api/tables/{id}/record``: a finished table's record, for ``rummylib replay``;
* ``GET /card/{notation}.svg``: one card drawn by :mod:`rummylib.svg`; ``GET
  /tile/{notation}.svg`` one Rummikub tile (``k7``, ``*``);
* ``WS /ws/{id}``: the seat's socket. The browser's first message is
  ``{"type": "join", "token": …}``; then ``{"type": "move", "move": "discard Kd"}``. The
  server sends ``{"type": "state", …}`` (the seat's own observation) after every change and
  ``{"type": "error", "message": …}`` for a bad message.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from rummylib import _words, svg
from rummylib.cards import Card, parse_card
from rummylib.errors import RummyError
from rummylib.registry import VARIANTS
from rummylib.tiles import CARD_NOTATION, TILE_NOTATION, Notation, parse_tile
from rummylib.web._tables import BOTS, Lobby, Table, WebError

__all__ = ["MAX_MESSAGE", "Server", "create_app"]

log = logging.getLogger("rummylib.web")

STATIC: Final = Path(__file__).with_name("static")
#: The largest message a browser may send, in characters; a longer one is refused unread.
MAX_MESSAGE: Final = 4096
#: The largest body of a request that opens a table.
MAX_BODY: Final = 16384
#: A socket that sends this many bad messages in a row is closed.
MAX_BAD: Final = 20
#: Seconds a socket has to send its ``join``.
JOIN_SECONDS: Final = 10.0


def _picture_of(text: str, parse: Callable[[str], Card], notation: Notation) -> str:
    """One card's picture; ``*=8h`` (``*=o7``) is a joker on the table, with what it stands for."""
    shown, declares, stands = text.partition("=")
    stands_for = parse(stands) if declares else None
    return svg.card(parse(shown), stands_for=stands_for, notation=notation)


@functools.lru_cache(maxsize=256)
def _card_svg(text: str) -> str:
    return _picture_of(text, parse_card, CARD_NOTATION)


@functools.lru_cache(maxsize=256)
def _tile_svg(text: str) -> str:
    return _picture_of(text, parse_tile, TILE_NOTATION)


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class Server:
    """The lobby, the sockets of each table, and the timers that wake tables up.

    Args:
        lobby: the tables and their folder.
        clock: the time in seconds (default: the event loop's monotonic clock).
    """

    def __init__(self, lobby: Lobby, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.lobby = lobby
        self.clock = clock
        self.sockets: dict[str, dict[int, WebSocket]] = {}
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    # -- pushing states -----------------------------------------------------------------------

    async def _send(self, socket: WebSocket, message: dict[str, Any]) -> None:
        if socket.application_state is not WebSocketState.CONNECTED:
            return
        text = json.dumps(message, separators=(",", ":"))  # outside: a bug here must show
        with contextlib.suppress(Exception):  # a socket that is closing: its reader ends it
            await socket.send_text(text)

    async def push(self, table: Table) -> None:
        """Send every connected seat of ``table`` its own state, and set its next wake-up."""
        now = self.clock()
        sockets = dict(self.sockets.get(table.id, {}))
        await asyncio.gather(
            *(self._send(socket, table.view(seat, now)) for seat, socket in sockets.items())
        )
        self.schedule(table)
        self.lobby.settle(table)

    def schedule(self, table: Table) -> None:
        """Wake ``table`` up when its next clock or grace runs out."""
        old = self.timers.pop(table.id, None)
        if old is not None:
            old.cancel()
        deadline = table.next_deadline(self.clock())
        if deadline is None or table.state.is_over:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, deadline - self.clock()) + 0.01
        self.timers[table.id] = loop.call_later(delay, self._wake, table)

    def _wake(self, table: Table) -> None:
        self.timers.pop(table.id, None)
        try:
            moved = table.advance(self.clock())
        except RummyError:  # pragma: no cover  (the rules refused the engine's own move)
            log.exception("table %s could not advance", table.id)
            return
        if moved:  # else nobody needs telling: only the next wake-up is set
            self._spawn(self.push(table))
        else:
            self.schedule(table)

    def _spawn(self, pushing: Coroutine[Any, Any, None]) -> None:
        """Run ``pushing`` as a task the server keeps a reference to until it is done."""
        task = asyncio.get_running_loop().create_task(pushing)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def restore(self) -> list[str]:
        """Open the tables of the records folder again (at start-up)."""
        return self.lobby.restore(self.clock())

    async def close(self) -> None:
        """Cancel the timers (at shutdown); the records are already on disk."""
        for handle in self.timers.values():
            handle.cancel()
        self.timers.clear()

    # -- HTTP ---------------------------------------------------------------------------------

    async def lobby_page(self, request: Request) -> Response:
        """The lobby."""
        return FileResponse(STATIC / "index.html")

    async def table_page(self, request: Request) -> Response:
        """A table (the seat comes from the link's fragment, read by the script)."""
        if self.lobby.get(request.path_params["table_id"]) is None:
            return _error("no such table", 404)
        return FileResponse(STATIC / "table.html")

    async def variants(self, request: Request) -> Response:
        """Every registered variant: its players, its settings' defaults and other values.

        The other values are in the words of ``rummylib variants NAME`` (``"0 to 50"``).
        """
        found = []
        for name in VARIANTS:
            try:
                cls = VARIANTS[name]
                table = cls()
                settings = table.settings()
                values = _words.setting_values(table)
            except Exception:  # a broken plugin is left out of the list, the others are listed
                continue
            found.append(
                {
                    "name": name,
                    "title": cls.title or name,
                    "min_players": cls.min_players,
                    "max_players": cls.max_players,
                    "settings": {
                        key: list(value) if isinstance(value, tuple) else value
                        for key, value in settings.items()
                        if value is None or isinstance(value, bool | int | float | str | tuple)
                    },
                    # what each setting may be besides its default, as `rummylib variants` says
                    "values": {key: values[key] for key in settings if values.get(key)},
                }
            )
        return JSONResponse({"variants": found, "bots": list(BOTS)})

    async def tables(self, request: Request) -> Response:
        """The open tables: ids, variants, seats and who is online; never a secret."""
        listed = [
            {
                "id": table.id,
                "variant": table.variant.name,
                "names": [seat.name for seat in table.seats],
                "kinds": [seat.kind for seat in table.seats],
                "online": sorted(self.sockets.get(table.id, {})),
                "moves": len(table.state.history),
            }
            for table in list(self.lobby.open.values())[:200]
        ]
        return JSONResponse({"tables": listed})

    async def create(self, request: Request) -> Response:
        """Open a table from ``{"variant", "settings", "seats": [{"kind", "name", "bot"}]}``."""
        body = await request.body()
        if len(body) > MAX_BODY:
            return _error(f"the request is over {MAX_BODY} bytes", 413)
        try:
            data = json.loads(body)
        except ValueError:
            return _error("the request is not JSON")
        if not isinstance(data, dict):
            return _error("the request is not a JSON object")
        try:
            table, tokens = self.lobby.create(
                data.get("variant"),
                settings=data.get("settings"),
                seats=data.get("seats"),
                now=self.clock(),
            )
        except WebError as error:
            return _error(str(error))
        self.schedule(table)
        links = [
            {"seat": seat, "name": table.seats[seat].name, "link": f"/table/{table.id}#{token}"}
            for seat, token in sorted(tokens.items())
        ]
        return JSONResponse({"table": table.id, "links": links}, status_code=201)

    async def record(self, request: Request) -> Response:
        """A finished table's record (TOML), to download and open with ``rummylib replay``."""
        table_id = request.path_params["table_id"]
        if table_id in self.lobby.open:
            return _error("the match is still being played", 409)
        text = self.lobby.record_text(table_id)
        if text is None:
            return _error("no such finished table", 404)
        return Response(
            text,
            media_type="application/toml",
            headers={"Content-Disposition": f'attachment; filename="{table_id}.toml"'},
        )

    async def card(self, request: Request) -> Response:
        """One card's picture (``7h``, ``*``; ``*=8h``: a joker as the card it stands for)."""
        return self._picture(request, _card_svg, "card")

    async def tile(self, request: Request) -> Response:
        """A Rummikub tile's picture (``k7``, ``*``; ``*=o7``: a joker as the tile it is)."""
        return self._picture(request, _tile_svg, "tile")

    def _picture(self, request: Request, draw: Callable[[str], str], noun: str) -> Response:
        notation = request.path_params["notation"]
        if len(notation) > 8:
            return _error(f"bad {noun}", 404)
        try:
            picture = draw(notation)
        except RummyError:
            return _error(f"bad {noun}", 404)
        return Response(
            picture, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"}
        )

    # -- the socket ---------------------------------------------------------------------------

    async def _receive(self, socket: WebSocket, timeout: float | None = None) -> object:
        """The next message as JSON; :class:`WebError` for one that is too long or not JSON."""
        message = await asyncio.wait_for(socket.receive(), timeout)
        if message["type"] == "websocket.disconnect":
            raise WebSocketDisconnect(message.get("code", 1000))
        text = message.get("text")
        if text is None:
            raw = message.get("bytes") or b""
            if len(raw) > MAX_MESSAGE:
                msg = f"a message is at most {MAX_MESSAGE} characters"
                raise WebError(msg)
            try:
                text = raw.decode()
            except UnicodeDecodeError:
                msg = "a message is UTF-8 JSON text"
                raise WebError(msg) from None
        if len(text) > MAX_MESSAGE:
            msg = f"a message is at most {MAX_MESSAGE} characters"
            raise WebError(msg)
        try:
            return json.loads(text)
        except ValueError:
            msg = "a message is a JSON object"
            raise WebError(msg) from None

    async def socket(self, socket: WebSocket) -> None:
        """One seat's connection: a join with the seat's secret, then moves."""
        await socket.accept()
        table = self.lobby.get(socket.path_params["table_id"])
        if table is None:
            await self._send(socket, {"type": "error", "message": "no such table"})
            await socket.close(code=4404)
            return
        seat = await self._join(socket, table)
        if seat is None:
            return
        try:
            await self._play(socket, table, seat)
        except WebSocketDisconnect:
            pass
        finally:
            if self.sockets.get(table.id, {}).get(seat) is socket:
                del self.sockets[table.id][seat]
                if not self.sockets[table.id]:
                    del self.sockets[table.id]
                table.disconnect(seat, self.clock())
                # The others are told in a task of its own: this handler may be ending
                # because it was cancelled (the server shutting the connection down), and an
                # await here would then be cancelled before anyone heard of the disconnect.
                self._spawn(self.push(table))

    async def _join(self, socket: WebSocket, table: Table) -> int | None:
        for _ in range(MAX_BAD):
            try:
                data = await self._receive(socket, JOIN_SECONDS)
            except (WebSocketDisconnect, TimeoutError):
                with contextlib.suppress(Exception):
                    await socket.close(code=4408)
                return None
            except WebError as error:
                await self._send(socket, {"type": "error", "message": str(error)})
                continue
            if not isinstance(data, dict) or data.get("type") != "join":
                message = 'the first message is {"type": "join", "token": "…"}'
                await self._send(socket, {"type": "error", "message": message})
                continue
            seat = table.seat_of(data.get("token"))
            if seat is None:
                await self._send(socket, {"type": "error", "message": "not a seat's link"})
                await socket.close(code=4403)
                return None
            seats = self.sockets.setdefault(table.id, {})
            old = seats.get(seat)
            seats[seat] = socket
            if old is not None:  # the seat opened elsewhere: the newest socket holds it
                await self._send(old, {"type": "error", "message": "this seat opened elsewhere"})
                with contextlib.suppress(Exception):
                    await old.close(code=4409)
            table.connect(seat, self.clock())
            await self._send(socket, {"type": "joined", "table": table.id, "seat": seat})
            await self.push(table)
            return seat
        await socket.close(code=1008)
        return None

    async def _play(self, socket: WebSocket, table: Table, seat: int) -> None:
        bad = 0
        while True:
            try:
                data = await self._receive(socket)
                answer = self._handle(table, seat, data)
            except WebError as error:
                bad += 1
                await self._send(socket, {"type": "error", "message": str(error)})
                if bad >= MAX_BAD:
                    await socket.close(code=1008)
                    return
                continue
            bad = 0
            if answer is None:
                await self.push(table)
            else:
                await self._send(socket, answer)

    def _handle(self, table: Table, seat: int, data: object) -> dict[str, Any] | None:
        """Carry out one message; ``None`` when the table changed (every seat is told)."""
        if not isinstance(data, dict):
            msg = "a message is a JSON object"
            raise WebError(msg)
        kind = data.get("type")
        if kind == "ping":
            return {"type": "pong"}
        if kind == "state":
            return table.view(seat, self.clock())
        if kind != "move":
            msg = f"unknown message type {str(kind)[:40]!r}: use move, state or ping"
            raise WebError(msg)
        if set(data) - {"type", "move", "seq"}:
            msg = "a move message has only type, move and seq"
            raise WebError(msg)
        seq = data.get("seq")
        if seq is not None and seq != len(table.state.history):
            msg = "the table has moved on since: here is the state as it stands"
            raise WebError(msg)
        table.move(seat, data.get("move"), self.clock())
        return None


def create_app(
    records: str | Path,
    *,
    seed: int | None = None,
    max_tables: int = 1000,
    reconnect_grace: float = 5.0,
    clock: Callable[[], float] = time.monotonic,
) -> Starlette:
    """The ASGI application of a server whose tables keep their records in ``records``.

    Its open tables are restored from that folder when the application starts.

    >>> import tempfile
    >>> app = create_app(tempfile.mkdtemp())
    >>> sorted(route.path for route in app.routes)[:3]
    ['/', '/api/tables', '/api/tables']
    """
    lobby = Lobby(Path(records), seed=seed, max_tables=max_tables, reconnect_grace=reconnect_grace)
    server = Server(lobby, clock=clock)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        restored = server.restore()
        if restored:
            log.info("restored %d open tables from %s", len(restored), records)
        for table_id in restored:
            server.schedule(lobby.open[table_id])
        yield
        await server.close()

    def route(handler: Callable[[Request], Awaitable[Response]]) -> Callable[..., Any]:
        return handler

    app = Starlette(
        routes=[
            Route("/", route(server.lobby_page)),
            Route("/table/{table_id}", route(server.table_page)),
            Route("/api/variants", route(server.variants)),
            Route("/api/tables", route(server.tables), methods=["GET"]),
            Route("/api/tables", route(server.create), methods=["POST"]),
            Route("/api/tables/{table_id}/record", route(server.record)),
            Route("/card/{notation}.svg", route(server.card)),
            Route("/tile/{notation}.svg", route(server.tile)),
            WebSocketRoute("/ws/{table_id}", server.socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.server = server
    return app
