"""Rule options: validation of every option, presets, lookup by name, and the dict form."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from hearts.core import (
    PRESETS,
    Card,
    MoonScoring,
    OpeningLead,
    PassDirection,
    Rules,
    RulesError,
    TieRule,
    pass_cycle_named,
)

L, R, A, H = PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.HOLD


def test_defaults_are_the_standard_game() -> None:
    rules = Rules()
    assert rules.players == 4 and rules.removed == () and rules.hand_size == 13
    assert rules.opening is OpeningLead.LOWEST_CLUB and str(rules.opening_card) == "2C"
    assert rules.pass_cycle == (L, R, A, H) and rules.pass_count == 3
    assert not rules.points_on_first_trick and rules.hearts_must_be_broken
    assert not rules.queen_breaks_hearts and not rules.heart_lead_with_only_queen
    assert (rules.heart_points, rules.queen_points, rules.bonus_card) == (1, 13, None)
    assert rules.moon is MoonScoring.ADD_TO_OTHERS and rules.moon_points == 26
    assert rules.target == 100 and rules.ties is TieRule.SHARE
    assert rules == Rules.preset("standard") and rules.name == "standard"


@pytest.mark.parametrize(
    ("players", "removed", "size", "opening", "cycle"),
    [
        (3, "2D", 17, "2C", (L, R, H)),
        (4, "", 13, "2C", (L, R, A, H)),
        (5, "2C 2D", 10, "3C", (L, R, H)),
        (6, "3C 4C 2D 3D", 8, "2C", (L, R, A, H)),
    ],
)
def test_player_counts_remove_cards_and_pick_the_cycle(
    players: int, removed: str, size: int, opening: str, cycle: tuple[PassDirection, ...]
) -> None:
    rules = Rules(players=players)
    assert " ".join(map(str, rules.removed or ())) == " ".join(
        sorted(removed.split(), key=lambda c: int(Card.parse(c)))
    )
    assert rules.hand_size == size
    assert rules.in_play.bit_count() == size * players
    assert str(rules.opening_card) == opening
    assert rules.pass_cycle == cycle


def test_six_players_keep_two_of_clubs_and_open_with_it() -> None:
    # 2D 3D 3C 4C are removed: the 2C stays, so it is still the lowest club.
    rules = Rules(players=6)
    assert [str(c) for c in rules.removed or ()] == ["3C", "4C", "2D", "3D"]
    assert str(rules.opening_card) == "2C"


def test_removed_cards_are_an_option() -> None:
    rules = Rules(players=4, removed=("2C", "3C", "2D", "3D"))
    assert rules.hand_size == 12 and str(rules.opening_card) == "4C"
    assert Rules(players=3, removed="3D") == Rules(players=3, removed=(Card.parse("3D"),))
    # Removing hearts shrinks the moon: hearts in play plus the queen.
    assert Rules(removed=("2H", "3H", "4H", "5H")).moon_points == 9 + 13


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 2}, "players must be 3, 4, 5 or 6"),
        ({"players": 7}, "players must be 3, 4, 5 or 6"),
        ({"players": "4"}, "players must be 3, 4, 5 or 6"),
        ({"players": True}, "players must be 3, 4, 5 or 6"),
        ({"removed": ("2D",)}, "51 cards do not divide among 4 players"),
        ({"removed": ("QS", "2C", "2D", "3D")}, "Q♠ cannot be removed"),
        ({"removed": ("XX",)}, "removed cards: not a card: 'XX'"),
        ({"removed": ("2D", "2D")}, "given twice"),
        ({"removed": 5}, "removed cards"),
        ({"pass_cycle": ()}, "the pass cycle is empty"),
        ({"pass_cycle": ("left", "sideways")}, "unknown pass direction 'sideways' (choose left, right, across, hold)"),
        ({"pass_cycle": "sideways"}, "unknown pass cycle 'sideways'"),
        ({"pass_cycle": 3}, "the pass cycle is a list of directions (left, right, across, hold) or a cycle name"),
        ({"players": 3, "pass_cycle": ("left", "across")}, "no 'across' with 3 players"),
        ({"players": 5, "pass_cycle": (A,)}, "no 'across' with 5 players"),
        ({"pass_count": 0}, "pass_count must be between 1 and 12"),
        ({"pass_count": 13}, "pass_count must be between 1 and 12"),
        ({"pass_count": "3"}, "pass_count must be between 1 and 12"),
        ({"pass_count": True}, "pass_count must be between 1 and 12"),
        ({"players": 6, "pass_count": 8}, "pass_count must be between 1 and 7"),
        ({"points_on_first_trick": "no"}, "points_on_first_trick must be true or false"),
        ({"hearts_must_be_broken": 1}, "hearts_must_be_broken must be true or false"),
        ({"queen_breaks_hearts": None}, "queen_breaks_hearts must be true or false"),
        ({"heart_lead_with_only_queen": "yes"}, "heart_lead_with_only_queen must be true or false"),
        ({"opening": "lowest"}, "opening must be one of lowest-club, any-club"),
        ({"moon": "sometimes"}, "moon must be one of add-to-others, shooter-chooses"),
        ({"ties": "coin"}, "ties must be one of share, play-on"),
        ({"heart_points": 1.5}, "heart_points must be a whole number"),
        ({"queen_points": "13"}, "queen_points must be a whole number"),
        ({"bonus_points": None}, "bonus_points must be a whole number"),
        ({"heart_points": -1}, "cannot be negative"),
        ({"queen_points": -13}, "cannot be negative"),
        ({"heart_points": 0, "queen_points": 0}, "cannot both be 0"),
        ({"bonus_card": "JD", "bonus_points": -26}, "bonus_points -26 outweighs every penalty point in a hand (26)"),
        ({"bonus_card": "JD", "heart_points": 0, "queen_points": 5, "bonus_points": -6}, "outweighs"),
        ({"target": 0}, "target must be positive"),
        ({"target": True}, "target must be a whole number"),
        ({"bonus_card": "QS"}, "bonus card Q♠ is a penalty card"),
        ({"bonus_card": "5H"}, "bonus card 5♥ is a penalty card"),
        ({"bonus_card": "ZZ"}, "bonus_card: not a card: 'ZZ'"),
        ({"bonus_card": -14}, "bonus_card: not a card: -14"),
        ({"bonus_card": True}, "bonus_card: not a card: True"),
        ({"players": 3, "bonus_card": "2D"}, "bonus card 2♦ has been removed"),
        ({"removed": "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2D 3D 4D"}, "at least one club must stay in play"),
    ],
)
def test_every_option_is_validated(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError) as err:
        Rules(**options)
    assert message in str(err.value)


def test_enum_options_accept_their_values() -> None:
    rules = Rules(opening="any-club", moon="shooter-chooses", ties="play-on", pass_cycle=("left", "hold"))
    assert rules.opening is OpeningLead.ANY_CLUB
    assert rules.moon is MoonScoring.SHOOTER_CHOOSES
    assert rules.ties is TieRule.PLAY_ON
    assert rules.pass_cycle == (L, H)


def test_bonus_card_accepts_text_card_or_number() -> None:
    jd = Card.parse("JD")
    assert Rules(bonus_card="jd").bonus_card is jd
    assert Rules(bonus_card=jd).bonus_card is jd
    assert Rules(bonus_card=int(jd)).bonus_card is jd
    assert Rules(bonus_card="10♦", bonus_points=-5).bonus_points == -5


def test_rules_are_frozen_and_hashable() -> None:
    rules = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.players = 5  # type: ignore[misc]
    assert len({Rules(), Rules.preset("standard"), Rules(removed=())}) == 1


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("standard", {}),
        ("omnibus", {"bonus_card": Card.parse("JD"), "bonus_points": -10}),
        ("omnibus-10d", {"bonus_card": Card.parse("10D"), "bonus_points": -10}),
        ("britannica", {"moon": MoonScoring.SHOOTER_CHOOSES}),
        ("short", {"target": 50}),
        ("pass-left", {"pass_cycle": (L,)}),
        ("no-hold", {"pass_cycle": (L, R, A)}),
        ("no-passing", {"pass_cycle": (H,)}),
        ("house-queen", {"queen_breaks_hearts": True}),
    ],
)
def test_presets(name: str, expected: dict[str, Any]) -> None:
    rules = Rules.preset(name)
    for key, value in expected.items():
        assert getattr(rules, key) == value
    # Everything not named stays standard.
    standard = Rules()
    for f in dataclasses.fields(Rules):
        if f.init and f.name not in expected:
            assert getattr(rules, f.name) == getattr(standard, f.name), f.name
    assert rules.name == name
    assert name in PRESETS and PRESETS[name][0]


def test_preset_lookup_is_forgiving_and_unknown_names_are_listed() -> None:
    assert Rules.preset(" Omnibus_10D ") == Rules.preset("omnibus-10d")
    with pytest.raises(RulesError, match="unknown preset 'classic': choose one of standard, omnibus"):
        Rules.preset("classic")


def test_preset_overrides_and_player_counts() -> None:
    rules = Rules.preset("britannica", players=5, target=75)
    assert rules.players == 5 and rules.target == 75 and rules.moon is MoonScoring.SHOOTER_CHOOSES
    assert rules.name is None  # no longer equals a preset: the target was changed
    assert Rules.preset("no-hold", players=3).pass_cycle == (L, R)
    assert Rules.preset("britannica", players=5).name == "britannica"
    with pytest.raises(RulesError, match="players must be"):
        Rules.preset("pass-left", players="x")


def test_named_pass_cycles() -> None:
    assert pass_cycle_named("standard", 4) == (L, R, A, H)
    assert pass_cycle_named("standard", 6) == (L, R, A, H)
    assert pass_cycle_named("standard", 3) == (L, R, H)
    assert pass_cycle_named("standard", 5) == (L, R, H)
    assert pass_cycle_named("left", 5) == (L,)
    assert pass_cycle_named("no-hold", 4) == (L, R, A)
    assert pass_cycle_named("no-hold", 5) == (L, R)
    assert pass_cycle_named("none", 4) == (H,)
    assert Rules(pass_cycle="no-hold") == Rules.preset("no-hold")
    with pytest.raises(RulesError, match="unknown pass cycle 'up'"):
        pass_cycle_named("up", 4)


def test_replace_rederives_player_dependent_defaults() -> None:
    rules = Rules().replace(players=5)
    assert rules == Rules(players=5)
    custom = Rules(pass_cycle=("left",)).replace(players=3)
    assert custom.pass_cycle == (L,) and custom.removed == Rules(players=3).removed
    assert Rules().replace(target=50) == Rules.preset("short")


def test_pass_direction_follows_the_cycle_by_hand_number() -> None:
    rules = Rules()
    assert [rules.pass_direction(i) for i in range(9)] == [L, R, A, H, L, R, A, H, L]
    assert PassDirection.LEFT.offset(4) == 1 and PassDirection.RIGHT.offset(4) == 3
    assert PassDirection.ACROSS.offset(4) == 2 and PassDirection.ACROSS.offset(6) == 3
    assert PassDirection.HOLD.offset(5) == 0 and PassDirection.RIGHT.offset(3) == 2


ALL_VARIANTS = [
    Rules(),
    *(Rules.preset(name) for name in PRESETS),
    Rules(players=3, opening="any-club", moon="subtract-from-shooter", ties="play-on", target=37),
    Rules(players=6, removed=("2D", "3D", "2C", "3C"), pass_cycle=("right", "across"), pass_count=2),
    Rules(players=5, bonus_card="10D", bonus_points=-7, points_on_first_trick=True, hearts_must_be_broken=False),
    Rules(heart_lead_with_only_queen=True, queen_breaks_hearts=True, heart_points=2, queen_points=10, moon="disabled"),
]


@pytest.mark.parametrize("rules", ALL_VARIANTS, ids=lambda r: r.name or "custom")
def test_to_dict_from_dict_round_trip(rules: Rules) -> None:
    data = rules.to_dict()
    assert Rules.from_dict(data) == rules
    import json

    assert Rules.from_dict(json.loads(json.dumps(data))) == rules
    # The dict form is plain JSON data: strings, numbers, booleans, lists, None.
    assert set(data) == {f.name for f in dataclasses.fields(Rules) if f.init}


def test_from_dict_takes_defaults_and_names() -> None:
    assert Rules.from_dict({}) == Rules()
    assert Rules.from_dict({"players": 5, "pass_cycle": "no-hold"}).pass_cycle == (L, R)
    assert Rules.from_dict({"bonus_card": "J♦"}) == Rules.preset("omnibus")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "rules must be an object of options, not list"),
        ({"colour": "red"}, "unknown rule option(s) 'colour'"),
        ({"removed": "2D", "players": 3}, "removed must be a list"),
        ({"removed": [1]}, "not a card: 1"),
        ({"pass_cycle": ["left", 3]}, "unknown pass direction 3 (choose left, right, across, hold)"),
        ({"pass_cycle": 7}, "pass_cycle must be a list"),
        ({"bonus_card": 5}, "not a card: 5"),
        ({"players": "4", "pass_cycle": "standard"}, "players must be 3, 4, 5 or 6, not '4'"),
        ({"pass_count": "3"}, "pass_count must be between"),
        ({"moon": None}, "moon must be one of"),
    ],
)
def test_from_dict_errors_are_rules_errors(data: Any, message: str) -> None:
    with pytest.raises(RulesError) as err:
        Rules.from_dict(data)
    assert message in str(err.value)


def test_describe_names_every_option() -> None:
    described = dict(Rules.preset("omnibus", players=5).describe())
    # bonus_points is told with the bonus card ("J♦ scores -10").
    init_fields = [f.name for f in dataclasses.fields(Rules) if f.init and f.name != "bonus_points"]
    assert list(described) == init_fields
    assert described["players"] == "5 (10 cards each)"
    assert described["bonus_card"] == "J♦ scores -10"
    assert described["removed"] == "2♣ 2♦" and "3♣" in described["opening"]


def test_options_as_typed_are_read_in_one_place() -> None:
    """Options: the text a player types (command line, terminal form) reads to the same rules as the typed values."""
    typed = Rules.preset(
        "omnibus", players=5, target=75, pass_cycle=(L, R), removed=("2D", "2C"),
        queen_breaks_hearts=True, bonus_card=None, moon=MoonScoring.SHOOTER_CHOOSES,
    )  # fmt: skip
    texts = {
        "players": "5", "target": " 75", "pass_cycle": "left, right", "removed": "2D,2C",
        "queen_breaks_hearts": "yes", "bonus_card": "none", "moon": "shooter-chooses", "ties": None,
    }  # fmt: skip
    assert Rules.from_text("omnibus", **texts) == typed
    assert Rules.from_text("standard", pass_cycle="no-hold", players=3) == Rules.preset("no-hold", players=3)
    assert Rules.from_text("standard", hearts_must_be_broken="off").hearts_must_be_broken is False


@pytest.mark.parametrize(
    ("texts", "message"),
    [
        ({"target": "fifty"}, "target must be a whole number, not 'fifty'"),
        ({"pass_count": "two"}, "pass count must be a whole number, not 'two'"),
        ({"players": "four"}, "players must be 3, 4, 5 or 6, not 'four'"),
        ({"queen_breaks_hearts": "maybe"}, "queen breaks hearts must be true or false (yes or no), not 'maybe'"),
        ({"pass_cycle": "up"}, "unknown pass cycle 'up'"),
        ({"removed": "2D XX"}, "removed cards: not a card: 'XX'"),
        ({"bonus_card": "QS"}, "bonus card Q♠ is a penalty card"),
        ({"colour": "red"}, "unknown rule option(s) 'colour'"),
    ],
)
def test_options_as_typed_are_refused_in_players_words(texts: dict[str, str], message: str) -> None:
    with pytest.raises(RulesError) as err:
        Rules.from_text("standard", **texts)
    assert message in str(err.value)


def test_read_option_is_what_rules_and_from_dict_use() -> None:
    """Options: Rules(...), Rules.from_dict and Rules.from_text give one value for one option, whatever its form."""
    from hearts.core.rules import read_option

    jd = Card.parse("JD")
    assert read_option("bonus_card", "J♦") is read_option("bonus_card", int(jd)) is read_option("bonus_card", jd) is jd
    assert Rules(bonus_card="jd") == Rules.from_dict({"bonus_card": "JD"}) == Rules.from_text(bonus_card="J♦")
    assert read_option("pass_cycle", ["left", "hold"]) == read_option("pass_cycle", "left,hold") == (L, H)
    assert read_option("removed", None, players=6) == Rules(players=6).removed
    with pytest.raises(RulesError, match="there is no 'across' with 5 players"):
        read_option("pass_cycle", "across", players=5)
    with pytest.raises(RulesError, match="unknown rule option 'colour'"):
        read_option("colour", "red")


def test_from_dict_over_a_preset_is_the_servers_table_options() -> None:
    """Options: a new table's JSON overrides (Rules.from_dict with a preset) read like every other face's."""
    assert Rules.from_dict({"players": 3, "pass_cycle": ["left"]}, preset="omnibus") == Rules.preset(
        "omnibus", players=3, pass_cycle=(L,)
    )
    assert Rules.from_dict({}, preset="short") == Rules.preset("short")
    with pytest.raises(RulesError, match="unknown preset 'classic'"):
        Rules.from_dict({"target": 50}, preset="classic")
    with pytest.raises(RulesError, match="bonus_card: not a card: 5"):
        Rules.from_dict({"bonus_card": 5}, preset="omnibus")
