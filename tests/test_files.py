"""rummylib._files: a file is written whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rummylib._files import write_text


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "run.json"
    target.write_text("the old run", encoding="utf-8")

    def full_disk(source: object, destination: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("rummylib._files.os.replace", full_disk)
    with pytest.raises(OSError, match="No space left on device"):
        write_text(target, "the new run")
    assert target.read_text(encoding="utf-8") == "the old run"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["run.json"]


def test_a_new_file_gets_the_permissions_open_would_give_it(tmp_path: Path) -> None:
    write_text(tmp_path / "new.txt", "text")
    (tmp_path / "plain.txt").write_text("text", encoding="utf-8")
    assert os.stat(tmp_path / "new.txt").st_mode == os.stat(tmp_path / "plain.txt").st_mode


def test_a_missing_folder_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        write_text(tmp_path / "missing" / "file.txt", "text")
    assert list(tmp_path.iterdir()) == []
