"""Settings: every number of every variant is bounded, and no setting allows a dead end (R9)."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from rummylib import ConfigurationError, UnknownVariantError, arrange, new_game, parse_cards
from rummylib._settings import whole
from rummylib.errors import shorten
from rummylib.variants import VARIANTS, get_variant

TURKISH = ("turkish500", "turkish300", "turkish500_cutthroat", "rummy500")
#: The variants rummylib itself defines (plugins registered in the environment bring their own
#: settings and bounds).
BUILT_IN = ("rummy71", "rummy101", "carousel", *TURKISH, "gin")

#: The range of every whole-number setting (None: no upper bound to probe). Every numeric
#: field of every registered variant must be listed here: a new setting without a bound
#: fails test_every_numeric_setting_has_a_bound.
BOUNDS: dict[str, tuple[int, int]] = {
    "decks": (1, 4),
    "jokers": (0, 32),
    "hand_size": (1, 120),
    "elimination_threshold": (1, 1_000_000),
    "post_declare_seconds": (0, 86_400),
    "ace_points": (0, 1_000),
    "joker_points": (0, 1_000),
    "face_points": (0, 1_000),
    "ace_low_run_points": (0, 1_000),
    "first_deal_multiplier": (1, 1_000),
    "frish_answer_seconds": (0, 86_400),
    "frish_per_player_per_deal": (0, 10),
    "max_multiplier": (1, 1_000_000),
    "stake": (0, 1_000_000),
    "max_rebuys": (0, 100),
    "first_go_around_seconds": (1, 86_400),
    "turn_seconds": (1, 86_400),
    "grace_seconds": (0, 86_400),
    "autoplay_turns": (1, 1_000),
    "first_player": (0, 5),
    "knock_limit": (0, 1_000_000),
    "target_score": (1, 1_000_000),
    "going_out_bonus": (0, 1_000_000),
    "knock_beaten_bonus": (0, 1_000_000),
    "target_bonus": (0, 1_000_000),
    "deal_won_bonus": (0, 1_000_000),
    "deal_pool": (0, 1_000_000),
    "max_deals": (1, 1_000),
    "max_go_arounds": (1, 1_000),
    "knock_card": (0, 10),
    "oklahoma_ace": (0, 1),
    "gin_bonus": (0, 1_000_000),
    "undercut_bonus": (0, 1_000_000),
    "box_bonus": (0, 1_000_000),
    "game_bonus": (0, 1_000_000),
}
#: Settings whose upper bound depends on other settings; tested on their own below.
CROSS_BOUNDED = {"decks", "jokers", "hand_size"}


def numeric_fields() -> list[tuple[str, str]]:
    """(variant, setting) for every whole-number setting of every built-in variant."""
    found = []
    for name in BUILT_IN:
        cls = VARIANTS[name]
        for field in attrs.fields(cls):
            if field.init and str(field.type).replace(" ", "") in {"int", "int|None"}:
                found.append((name, field.name))
    return found


NUMERIC = numeric_fields()


def test_every_numeric_setting_has_a_bound() -> None:
    assert len(NUMERIC) > 50
    assert {setting for _, setting in NUMERIC} == set(BOUNDS)


@pytest.mark.parametrize(("variant", "setting"), NUMERIC)
def test_a_setting_beyond_its_bounds_is_refused_with_its_range(variant: str, setting: str) -> None:
    low, high = BOUNDS[setting]
    too_big = [10**20, 10**1000] if setting in CROSS_BOUNDED else [high + 1, 10**20, 10**1000]
    for value in (*too_big, low - 1, True, float(low), str(low)):
        with pytest.raises(ConfigurationError, match=setting) as refusal:
            get_variant(variant, **{setting: value})
        assert len(str(refusal.value)) < 300
    if setting not in CROSS_BOUNDED:
        assert getattr(get_variant(variant, **{setting: high}), setting) == high
        assert f"from {low} to {high}" in message(variant, setting, high + 1)


def message(variant: str, setting: str, value: object) -> str:
    with pytest.raises(ConfigurationError) as refusal:
        get_variant(variant, **{setting: value})
    return str(refusal.value)


def test_r9_decks_are_one_to_four_packs() -> None:
    assert message("rummy101", "decks", 5) == "decks must be a whole number from 1 to 4, not 5"
    assert message("rummy101", "decks", 0) == "decks must be a whole number from 1 to 4, not 0"
    assert get_variant("rummy101", decks=4).settings()["decks"] == 4
    assert len(get_variant("turkish500", decks=4).deck_for(2)) == 210
    assert message("turkish500", "decks", 5).startswith(
        "decks must be None or a whole number from 1 to 4, not 5"
    )


def test_r9_jokers_are_at_most_eight_per_pack() -> None:
    assert get_variant("rummy101", decks=1, jokers=8, hand_size=9).settings()["jokers"] == 8
    assert message("rummy101", "jokers", 17) == (
        "jokers must be a whole number from 0 to 16 with 2 packs (8 per pack), not 17"
    )
    with pytest.raises(ConfigurationError, match="jokers must be a whole number from 0 to 8"):
        get_variant("rummy101", decks=1, jokers=9, hand_size=9)
    assert get_variant("turkish500", jokers=16).settings()["jokers"] == 16
    assert "from 0 to 16" in message("turkish500", "jokers", 17)
    # decks=None deals one pack to two to four players
    assert get_variant("rummy500", jokers=8).settings()["jokers"] == 8
    assert "from 0 to 8" in message("rummy500", "jokers", 9)


def test_r9_a_huge_deck_is_refused_before_anything_is_built() -> None:
    for variant in ("rummy101", "turkish500", "rummy500"):
        for setting in ("decks", "jokers"):
            with pytest.raises(ConfigurationError, match=setting):
                get_variant(variant, **{setting: 10**9})


def test_r9_israeli_hand_size_is_what_the_deck_can_deal() -> None:
    # 108 cards deal six hands of 17 and the open card
    assert get_variant("rummy101", hand_size=17).settings()["hand_size"] == 17
    assert message("rummy101", "hand_size", 18) == (
        "hand_size must be at most 17 with 2 packs and 4 jokers "
        "(108 cards deal 6 hands and an open card), not 18"
    )
    assert get_variant("rummy101", decks=4, jokers=32, hand_size=39).settings()["hand_size"] == 39


def test_r9_turkish_hand_size_is_what_the_deck_can_deal() -> None:
    variant = get_variant("turkish500", hand_size=52)
    assert len(new_game(variant, players=2, seed=0).stock) == 2
    with pytest.raises(ConfigurationError, match=r"hand_size must be at most 35 for 3 players"):
        new_game(variant, players=3, seed=0)
    assert "at most 52 for 2 players" in message("turkish500", "hand_size", 53)


def test_r9_israeli_hand_size_below_four_is_refused() -> None:
    # Even with a deck that has no jokers at all.
    for hand_size in (1, 2, 3):
        assert message("rummy71", "hand_size", hand_size) == (
            f"hand_size must be a whole number from 4 to 120, not {hand_size}"
        )
    assert get_variant("rummy71", hand_size=4).settings()["hand_size"] == 4


def test_r9_israeli_jokers_above_the_hand_size_are_refused() -> None:
    # With more jokers than cards in a hand, a player could hold hand_size + 1 jokers after
    # drawing from the stock: a joker may never be discarded (1.9), so nothing is legal.
    with pytest.raises(ConfigurationError) as refusal:
        get_variant("rummy101", hand_size=5, jokers=6)
    assert str(refusal.value) == (
        "jokers must be at most hand_size (5), not 6: a hand of 6 cards could be all jokers, "
        "and a joker may not be discarded (R9)"
    )
    assert get_variant("rummy101", hand_size=6, jokers=6).settings()["jokers"] == 6
    assert get_variant("rummy101", hand_size=4, jokers=4).settings()["jokers"] == 4


def test_r9_a_one_card_hand_always_goes_out_at_the_deal() -> None:
    # Why hand_size=1 is refused with the dealt-hand check: "all melded except at most one
    # card" (3.12) holds for every one-card hand, and for no two-card hand (melds have 3+).
    rules, points = get_variant("turkish500").meld_rules, get_variant("turkish500").card_points
    for text in ("Kh", "*", "2c"):
        assert arrange(parse_cards(text), rules, points, discard=True).is_complete
    for text in ("Kh Kd", "* *", "2c 3c"):
        hand = parse_cards(text)
        assert not arrange(hand, rules, points).is_complete
        assert not arrange(hand, rules, points, discard=True).is_complete


@pytest.mark.parametrize("variant", TURKISH)
def test_r9_turkish_one_card_hands_with_the_dealt_hand_check_are_refused(variant: str) -> None:
    with pytest.raises(ConfigurationError) as refusal:
        get_variant(variant, hand_size=1, dealt_rummy_check=True)
    assert str(refusal.value) == (
        "hand_size must be from 2 to 26 with dealt_rummy_check=True, not 1: a 1-card hand "
        "always goes out at once (3.12), so no deal would reach its first turn (R9)"
    )
    # Without the check a one-card hand is a (dull) legal table; two cards never go out.
    assert get_variant(variant, hand_size=1).settings()["hand_size"] == 1
    table = get_variant(variant, hand_size=2, dealt_rummy_check=True)
    for seed in range(5):
        state = new_game(table, players=2, seed=seed)
        assert (state.deal_number, state.deal_results) == (1, ())
        assert state.legal_actions()


def test_r9_the_dealt_hand_check_is_bounded_to_hands_of_26() -> None:
    assert (
        get_variant("turkish500", hand_size=26, dealt_rummy_check=True).settings()["hand_size"]
        == 26
    )
    with pytest.raises(
        ConfigurationError, match="from 2 to 26 with dealt_rummy_check=True, not 27"
    ):
        get_variant("turkish500", hand_size=27, dealt_rummy_check=True)
    # hand_size=None deals 13 or 7: both fine
    assert get_variant("rummy500", dealt_rummy_check=True).settings()["hand_size"] is None


def test_israeli_seats_are_seats_of_the_table() -> None:
    assert message("rummy101", "first_player", 6) == (
        "first_player must be None or a whole number from 0 to 5, not 6"
    )
    assert message("rummy101", "sitting_out", [6]) == (
        "sitting_out must hold seat numbers from 0 to 5, not 6"
    )
    assert "sitting_out must be a sequence" in message("rummy101", "sitting_out", [0] * 10**4)
    assert get_variant("rummy101", sitting_out=[5, 5]).settings()["sitting_out"] == (5,)


def test_israeli_rebuy_stakes_are_bounded() -> None:
    assert (
        get_variant("rummy101", rebuy_stakes=[1000] * 100).settings()["rebuy_stakes"]
        == (1000,) * 100
    )
    assert message("rummy101", "rebuy_stakes", [1001]) == (
        "rebuy_stakes must hold whole numbers from 0 to 1000 (multiples of the stake), not 1001"
    )
    for bad in ([], [1] * 101, "12", 10**9):
        assert message("rummy101", "rebuy_stakes", bad).startswith(
            "rebuy_stakes must be a sequence of 1 to 100 whole numbers"
        )
    assert "not True" in message("rummy101", "rebuy_stakes", [True])


# -- unknown and reserved setting names ------------------------------------------------------


@pytest.mark.parametrize("variant", BUILT_IN)
def test_a_setting_called_name_is_refused_as_unknown(variant: str) -> None:
    with pytest.raises(ConfigurationError, match=f"unknown setting 'name' for {variant}"):
        get_variant(variant, name="x")
    assert get_variant(variant).name == variant  # the name itself is positional


def test_unknown_settings_are_refused_and_named_shortly() -> None:
    with pytest.raises(ConfigurationError, match="unknown setting 'deck' for rummy101"):
        get_variant("rummy101", deck=2)
    with pytest.raises(ConfigurationError) as refusal:
        get_variant("rummy101", **{"x" * 10**6: 1})
    assert len(str(refusal.value)) < 1000
    with pytest.raises(ConfigurationError, match="unknown setting '_rules'"):
        get_variant("carousel", _rules=None)


# -- messages never echo a whole huge input --------------------------------------------------


def test_a_huge_variant_name_gives_a_short_message() -> None:
    with pytest.raises(UnknownVariantError) as refusal:
        get_variant("x" * 10**7)
    text = str(refusal.value)
    assert len(text) < 300
    assert "… (10000000 characters)" in text
    with pytest.raises(UnknownVariantError, match="variant name must be text, not <a number"):
        get_variant(10**5000)  # type: ignore[arg-type]


def test_shorten_cuts_long_input_and_never_raises() -> None:
    assert shorten("abc") == "'abc'"
    assert shorten("a" * 100) == f"{'a' * 80!r}… (100 characters)"
    assert shorten(b"b" * 100).endswith("… (100 bytes)")
    assert shorten(10**5000) == "<a number of about 5001 digits>"
    assert shorten(-(10**5000)) == "<a negative number of about 5001 digits>"
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    assert len(shorten(deep)) < 100
    assert len(shorten(list(range(10**5)))) < 120
    assert len(shorten({str(n): n for n in range(1000)})) < 120

    class Hostile:
        def __repr__(self) -> str:
            raise RuntimeError

    assert shorten(Hostile()).startswith("<Hostile")


def test_whole_without_maximum_keeps_the_old_message() -> None:
    @attrs.frozen
    class Table:
        size: int = attrs.field(validator=whole(2))
        seconds: int | None = attrs.field(default=None, validator=whole(0, optional=True))

    with pytest.raises(
        ConfigurationError, match=r"^size must be a whole number of at least 2, not 1$"
    ):
        Table(1)
    with pytest.raises(ConfigurationError, match=r"^seconds must be None or a whole number"):
        Table(3, seconds=-1)


# -- a choice setting's bad value names the setting ------------------------------------------

#: Every setting of a built-in variant read by an enum, and one of its values (written out:
#: a new choice setting must be added here, see the test after this table).
CHOICE_SETTINGS = {
    ("carousel", "knock_timing"): "after_draw",
    ("carousel", "joker_replacement_source"): "hand_only",
    ("carousel", "on_stock_exhausted"): "final_meld_turn",
    ("carousel", "knock_tie_award"): "split",
    ("carousel", "tie_award"): "each_full",
    ("rummikub", "joker_rule"): "replace",
    **{
        (israeli, name): value
        for israeli in ("rummy71", "rummy101")
        for name, value in (
            ("open_card_after_window", "dead"),
            ("loser_melds", "best"),
            ("frish_window", "first_go_around"),
            ("rebuy_score", "highest_remaining"),
            ("on_stock_exhausted", "reshuffle"),
        )
    },
    **{
        (turkish, name): value
        for turkish in ("rummy500", "turkish300", "turkish500", "turkish500_cutthroat")
        for name, value in (
            ("pool_tie", "split"),
            ("scoring", "winner_only"),
            ("first_go_around_go_out", "anyone"),
        )
    },
}


def test_every_choice_setting_of_a_built_in_variant_is_in_the_table() -> None:
    import enum  # noqa: PLC0415  (only this test looks at the converters)

    found = {
        (name, field.name)
        for name in VARIANTS
        if name != "knock7"  # the example plugin, when installed: not built in
        for field in attrs.fields(type(get_variant(name)))
        if field.init
        and isinstance(field.converter, type)
        and issubclass(field.converter, enum.Enum)
    }
    assert found == set(CHOICE_SETTINGS)


@pytest.mark.parametrize(("variant", "setting"), sorted(CHOICE_SETTINGS))
def test_a_bad_choice_names_its_setting_and_the_values(variant: str, setting: str) -> None:
    good = CHOICE_SETTINGS[variant, setting]
    bad: dict[str, Any] = {setting: "sometimes"}
    pattern = rf"^bad setting 'sometimes': expected one of .*'{good}'.* for {setting}$"
    with pytest.raises(ConfigurationError, match=pattern):
        get_variant(variant, **bad)
    with pytest.raises(ConfigurationError, match=pattern):
        new_game(variant, players=2, **bad)
    none = rf"^bad setting None: expected one of .* for {setting}$"
    with pytest.raises(ConfigurationError, match=none):
        get_variant(variant, **{setting: None})
    assert getattr(get_variant(variant, **{setting: good}), setting).value == good


def test_a_bad_choice_is_named_by_with_settings_too() -> None:
    from rummylib.registry import with_settings  # noqa: PLC0415

    carousel = get_variant("carousel")
    with pytest.raises(ConfigurationError, match=r"^bad setting 'soon': .* for knock_timing$"):
        with_settings(carousel, knock_timing="soon")
    with pytest.raises(ConfigurationError, match=r"^bad setting 'x': .* for tie_award$"):
        with_settings(carousel, target_score=100, tie_award="x")
