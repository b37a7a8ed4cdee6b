"""SearchConfig: every search knob in one frozen, validated value; levels are constants, variants
are replaced configs or ``level:knob=value`` specs (issue 41)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hearts.players import make_player
from hearts.players.registry import parse_player
from hearts.players.search import SearchPlayer
from hearts.players.search_config import EXPERT, HARD, KNOBS, SearchConfig, SearchConfigError, parse_variant


def test_the_levels_are_two_constants_of_one_config() -> None:
    assert isinstance(HARD, SearchConfig) and isinstance(EXPERT, SearchConfig)
    assert (HARD.name, HARD.budget, HARD.worlds, HARD.rollout, HARD.prior) == ("hard", 0.3, 1000, "medium", "learned")
    assert (EXPERT.name, EXPERT.budget, EXPERT.worlds, EXPERT.rollout) == ("expert", 1.0, 4000, "medium-moon")
    # Both levels defend the moon alike; expert searches more passes and rolls its own moon plan out.
    moon_defence = ("early_threat_points", "early_threat_tricks", "pass_opponents", "moon_safe_passes")
    assert [getattr(HARD, knob) for knob in moon_defence] == [getattr(EXPERT, knob) for knob in moon_defence]
    assert HARD.pass_candidates < EXPERT.pass_candidates
    with pytest.raises(dataclasses.FrozenInstanceError):
        HARD.worlds = 5  # type: ignore[misc]


def test_make_player_builds_the_level_from_its_config() -> None:
    player = make_player("expert", seed=3, worlds=50)
    assert isinstance(player, SearchPlayer)
    assert player.config == EXPERT.replace(worlds=50) and player.name == "expert"
    assert make_player("hard", time_budget=0.1).config.budget == 0.1  # type: ignore[attr-defined]


def test_a_variant_is_written_as_text_wherever_a_player_is_named() -> None:
    spec = parse_player("x=expert:rollout=medium, worlds=500")
    assert (spec.kind, spec.target, spec.name, spec.label) == ("level", "expert", "x", "x")
    player = make_player(spec, seed=1)
    assert player.config == EXPERT.replace(rollout="medium", worlds=500)  # type: ignore[attr-defined]
    assert parse_player("hard:worlds=30").label == "hard:worlds=30"
    assert parse_variant("EXPERT", "moon-safe-passes=false, prior_margin=0.5") == EXPERT.replace(
        moon_safe_passes=False, prior_margin=0.5
    )


@pytest.mark.parametrize(
    "text, words",
    [
        ("expert:depth=3", "unknown setting 'depth' for expert: choose one of budget,"),
        ("expert:rollout=python", "expert: rollout must be one of medium, medium-moon, not 'python'"),
        ("expert:worlds=0", "expert: worlds must be a whole number of at least 1, not 0"),
        ("expert:worlds=many", "worlds must be a whole number, not 'many'"),
        ("hard:budget=-1", "hard: budget must be positive seconds, not -1.0"),
        ("hard:noise=2", "hard: noise must be a number from 0 to 1, not 2.0"),
        ("hard:moon_safe_passes=perhaps", "moon_safe_passes must be true or false, not 'perhaps'"),
        ("hard:miss_weight=0", "hard: miss_weight must be a number above 0 and at most 1, not 0.0"),
        ("hard:rollout", "'rollout' is not knob=value (as in rollout=medium)"),
        ("medium:worlds=3", "'medium' has no search settings: only hard and expert do"),
    ],
)
def test_a_bad_setting_is_refused_by_name(text: str, words: str) -> None:
    with pytest.raises(ValueError) as caught:
        parse_player(text)
    assert words in str(caught.value)


def test_an_unknown_knob_in_code_is_refused_too() -> None:
    with pytest.raises(SearchConfigError, match="unknown setting 'epsilon' for hard"):
        HARD.replace(epsilon=0.2)
    with pytest.raises(SearchConfigError, match="unknown setting 'epsilon'"):
        make_player("hard", epsilon=0.2)


@given(
    knob=st.sampled_from(sorted(KNOBS)),
    value=st.one_of(st.integers(-10, 10**7), st.floats(allow_nan=True), st.booleans(), st.text(max_size=8)),
)
def test_any_value_of_any_knob_is_a_config_or_a_named_refusal(knob: str, value: object) -> None:
    try:
        config = EXPERT.replace(**{knob: value})
    except SearchConfigError as exc:
        assert knob in str(exc)
    else:
        assert getattr(config, knob) == value
