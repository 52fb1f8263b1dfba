"""A web table: people and bots play any registered variant in a browser (``rummylib serve``).

Needs the ``web`` extra (``pip install 'rummylib[web]'``: Starlette and uvicorn). The server is
an ASGI application (:func:`create_app`) run by uvicorn (:func:`main`): a lobby opens a table of
any registered variant, plugins included, with its settings and its seats (people, each with a
secret link, and bots); each table is a host of one match (turn clocks, ``Disconnect`` /
``Reconnect`` and auto-play when a socket closes, ``TimeExpired`` when a clock runs out); every
table writes its record to the records folder after every move, and a server started again on
that folder restores its open tables. The browser client is plain HTML, CSS and JavaScript,
served as static files; it speaks JSON over one WebSocket per seat and receives only its
seat's observation. See the page ``docs/howto/web-table.rst``.

This package imports without the extra (:func:`build_parser`, :func:`main` and the tables);
:func:`create_app` and :class:`Server` import Starlette on first use.

>>> import tempfile
>>> parser = build_parser()
>>> options = parser.parse_args(["--port", "8080", "--records", tempfile.gettempdir()])
>>> options.host, options.port
('127.0.0.1', 8080)
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rummylib._lazy import lazy_names
from rummylib.web._journal import Journal
from rummylib.web._tables import BOTS, Lobby, Seat, Table, WebError

if TYPE_CHECKING:
    from rummylib.web._app import MAX_MESSAGE, Server, create_app

__all__ = [
    "BOTS",
    "MAX_MESSAGE",
    "Journal",
    "Lobby",
    "Seat",
    "Server",
    "Table",
    "WebError",
    "build_parser",
    "create_app",
    "main",
    "serve",
]

_APP = "rummylib.web._app"
__getattr__, __dir__ = lazy_names(
    __name__, {"MAX_MESSAGE": _APP, "Server": _APP, "create_app": _APP}, (), globals()
)


def build_parser(parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    """The options of ``rummylib serve`` (added to ``parser`` when one is given)."""
    parser = parser or argparse.ArgumentParser(
        prog="rummylib serve", description="Serve web tables where people and bots play."
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument(
        "--records",
        type=Path,
        default=Path("rummylib-tables"),
        metavar="DIR",
        help="folder of the tables' records; open tables are restored from it at start",
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="seed of the deals' seeds (default: random)"
    )
    parser.add_argument("--max-tables", type=int, default=1000, help="most open tables at once")
    parser.add_argument(
        "--reconnect-grace",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="how long a seat whose socket closed waits before auto-play takes over",
    )
    parser.add_argument(
        "--root-path",
        default="",
        help="the path prefix a reverse proxy serves the app under (e.g. /rummy)",
    )
    parser.add_argument("--log-level", default="info", help="uvicorn's log level")
    return parser


def main(argv: list[str] | None = None) -> int:
    """``rummylib serve``: run the server until interrupted; returns the exit code."""
    return serve(build_parser().parse_args(argv))


def serve(options: argparse.Namespace) -> int:
    """Run the server with the options :func:`build_parser` read; returns the exit code."""
    try:
        import uvicorn  # noqa: PLC0415  (the web extra: its absence is told below)

        from rummylib.web._app import MAX_MESSAGE, create_app  # noqa: PLC0415
    except ImportError as error:
        print(
            f"rummylib: serve needs the web extra ({error.name} is missing): "
            "pip install 'rummylib[web]'",
            file=sys.stderr,
        )
        return 2
    if not 0 <= options.port <= 65535:
        print(f"rummylib: bad port {options.port}: a port is 0 to 65535", file=sys.stderr)
        return 2
    logging.basicConfig(level=options.log_level.upper(), format="%(levelname)s: %(message)s")
    app = create_app(
        options.records,
        seed=options.seed,
        max_tables=options.max_tables,
        reconnect_grace=options.reconnect_grace,
    )
    uvicorn.run(
        app,
        host=options.host,
        port=options.port,
        root_path=options.root_path,
        log_level=options.log_level,
        ws_max_size=MAX_MESSAGE * 4,
        proxy_headers=True,
    )
    return 0
