"""Writing a file whole or not at all, for the records, the CLI's outputs and its pictures.

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_text(folder / "a.txt", "one")
>>> write_text(folder / "a.txt", "two")
>>> (folder / "a.txt").read_text(), sorted(path.name for path in folder.iterdir())
('two', ['a.txt'])
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

__all__ = ["write_text"]


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path``, replacing the file only once all of it is written.

    The text goes to a new file beside ``path`` first, which then takes its name in one
    rename: a failure on the way (a full disk, an interrupt) leaves ``path`` as it was and no
    temporary file behind. The new file gets the permissions a plain ``open`` would give it.

    Raises:
        OSError: the file cannot be written (its folder is missing or read-only, say).
    """
    target = Path(path)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
