"""Game records under hostile input: long integers, oversized files, a byte-order mark, fuzz."""

from __future__ import annotations

import io
import random
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rummylib import NotationError, RummyError, new_game
from rummylib.bots import GreedyBot, play
from rummylib.records import MAX_BYTES, dumps, load, loads

GOOD = dumps(play(new_game("rummy101", players=2, seed=5), [GreedyBot(), GreedyBot()]))
#: What an editor that writes a byte-order mark puts first.
BOM = "\ufeff"


@pytest.mark.parametrize("key", ["players", "seed", "version"])
def test_an_integer_too_long_to_convert_is_a_notation_error(key: str) -> None:
    # tomllib raises a bare ValueError past Python's 4,300-digit limit of int(str).
    lines = GOOD.splitlines()
    number, line = next((n, row) for n, row in enumerate(lines, 1) if row.startswith(f"{key} ="))
    text = GOOD.replace(line, f"{key} = " + "9" * 5000, 1)
    expected = f"line {number}: not TOML: an integer of more than 4300 digits"
    with pytest.raises(NotationError, match=f"^{expected}$"):
        loads(text)
    with pytest.raises(NotationError):
        loads(text, strict=False)


def test_a_long_integer_in_an_action_line_is_a_notation_error() -> None:
    text = GOOD.replace("actions = [", "actions = [\n    " + "1" * 5000 + ",", 1)
    with pytest.raises(NotationError, match=r"^line \d+: "):
        loads(text)


def test_the_size_limit_is_a_documented_number_of_bytes() -> None:
    assert MAX_BYTES == 8 * 1024 * 1024
    page = Path(__file__).parent.parent / "docs" / "reference" / "record-format.rst"
    assert "8 MiB" in page.read_text(encoding="utf-8")


def oversized(filler: str = "x") -> str:
    # A valid header, then a comment that takes it past the limit: the limit alone refuses it.
    return GOOD + "#" + filler * MAX_BYTES + "\n"


@pytest.mark.parametrize("kind", [str, bytes])
def test_a_record_over_the_size_limit_is_refused_before_it_is_parsed(
    kind: type, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(text: str) -> object:
        raise AssertionError("an oversized record was parsed")

    monkeypatch.setattr(tomllib, "loads", never)  # the module _read parses with
    text = oversized()
    data = text if kind is str else text.encode("utf-8")
    with pytest.raises(
        NotationError, match=rf"^line 1: a record has at most {MAX_BYTES} bytes, not "
    ):
        loads(data)


def test_the_size_limit_counts_utf8_bytes_not_characters() -> None:
    # Fewer characters than the limit, more bytes: each "é" is two bytes.
    text = GOOD + "#" + "é" * (MAX_BYTES // 2 + 1) + "\n"
    assert len(text) < MAX_BYTES < len(text.encode("utf-8"))
    with pytest.raises(NotationError, match="at most"):
        loads(text)


def test_a_record_just_under_the_size_limit_is_read() -> None:
    padding = MAX_BYTES - len(GOOD.encode("utf-8")) - 2
    text = GOOD + "#" + "x" * padding + "\n"
    assert len(text.encode("utf-8")) == MAX_BYTES
    assert loads(text).final_state.is_over


def test_an_oversized_file_is_refused_without_reading_it_whole(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_text(oversized(), encoding="utf-8")
    with pytest.raises(NotationError, match="at most"):
        load(path)

    class Stream(io.BytesIO):
        largest = 0

        def read(self, size: int | None = -1) -> bytes:
            Stream.largest = max(Stream.largest, -1 if size is None or size < 0 else size)
            return super().read(size)

    with pytest.raises(NotationError, match="at most"):
        load(Stream(path.read_bytes()))
    assert 0 < Stream.largest <= MAX_BYTES + 1  # never one unbounded read


@pytest.mark.parametrize("kind", [str, bytes])
def test_a_byte_order_mark_is_skipped(kind: type) -> None:
    text = BOM + GOOD
    data = text if kind is str else text.encode("utf-8")
    assert loads(data).final_state == loads(GOOD).final_state


def test_a_byte_order_mark_in_a_file_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes((BOM + GOOD).encode("utf-8"))
    assert load(path).final_state == loads(GOOD).final_state
    with path.open(encoding="utf-8") as file:  # an open text file keeps the mark as U+FEFF
        assert load(file).final_state == loads(GOOD).final_state


def test_a_byte_order_mark_is_skipped_once_only() -> None:
    with pytest.raises(NotationError, match=r"^line 1: not TOML"):
        loads(BOM + BOM + GOOD)


def mutate(text: str, rng: random.Random) -> str:
    """One to four random edits: delete, duplicate, replace or insert a span."""
    pieces = ["9" * 5000, "\x00", "\ufeff", "=", "[", "]", '"', "\n", "-1", "1e999", "p9", "*"]
    for _ in range(rng.randint(1, 4)):
        start = rng.randrange(len(text))
        end = min(len(text), start + rng.randint(0, 40))
        edit = rng.randrange(4)
        if edit == 0:
            text = text[:start] + text[end:]
        elif edit == 1:
            text = text[:end] + text[start:end] + text[end:]
        elif edit == 2:
            text = text[:start] + rng.choice(pieces) + text[end:]
        else:
            text = text[:start] + chr(rng.randrange(0x20, 0x3000)) + text[start:]
    return text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), strict=st.booleans())
def test_fuzz_a_mutated_record_loads_or_raises_notation_error(seed: int, strict: bool) -> None:
    text = mutate(GOOD, random.Random(seed))
    try:
        record = loads(text, strict=strict)
    except NotationError as error:
        message = str(error)
        assert message.startswith("line "), message
        assert "\n" not in message
        return
    except RummyError as error:  # pragma: no cover  (the wrong kind of refusal)
        raise AssertionError(f"{type(error).__name__} instead of NotationError: {error}") from None
    # Kept: what it replays is consistent with the rules, to its last state.
    states = list(record.states())
    assert states[-1] == record.final_state
    if strict:
        assert record.errors == ()


def test_a_record_kept_without_its_first_deal_replays_to_its_final_state_only() -> None:
    # Found by the fuzz above: a refused first deal ("d stock" not the one dealt) left states()
    # raising the replay's internal stop signal, not a RummyError.
    start = dumps(new_game("rummy101", players=2, seed=5))
    stock = next(line for line in start.splitlines() if '"d stock ' in line)
    text = start.replace(stock, stock.replace("d stock 3h 8c", "d stock 8c 3h"))
    record = loads(text, strict=False)
    assert [error.line for error in record.errors] == [11]
    assert "the stock is not the one dealt" in record.errors[0].message
    assert list(record.states()) == [record.final_state]
    assert list(record.observations(0)) == [record.final_state.observation(0)]


def test_a_bad_choice_setting_is_refused_at_its_own_line_and_named() -> None:
    text = dumps(new_game("carousel", players=2, seed=1, knock_timing="after_draw"))
    line = text.splitlines().index('knock_timing = "after_draw"') + 1
    assert line > 3  # below the variant's line, which the refusal used to point at
    pattern = rf"^line {line}: bad setting 'soon': expected one of .* for knock_timing$"
    with pytest.raises(NotationError, match=pattern):
        loads(text.replace('"after_draw"', '"soon"'))
