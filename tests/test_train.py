"""``hearts train``: a tiny training run learns, is reproducible from its seed on either backend, and
the command writes a loadable weights file and a learning curve."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from hearts.cli import app
from hearts.players.weights import load_model
from hearts.sim.train import TrainConfig, TrainError, interval, local_backend, measure, ray_backend, train

TINY = TrainConfig(hands=600, rounds=1, seed=5, eval_deals=0)


@pytest.fixture(scope="module")
def tiny_model():  # type: ignore[no-untyped-def]
    return train(TINY)


def test_a_tiny_model_beats_random_play(tiny_model) -> None:  # type: ignore[no-untyped-def]
    """Trained on 600 hands in a second or two, the model alone (no margin: the medium player's card
    gets no favour) in a random player's chair takes clearly fewer points on the same deals
    (duplicate); the same weights scrambled do clearly worse, so it is what was learned that plays."""
    mean, half = interval(measure("standard", tiny_model.weights, 0.0, 300, "random"))
    assert mean - half > 1.5
    # Without the margin and with the weights scrambled, the same measure falls: the weights matter.
    scrambled = np.random.default_rng(0).permutation(tiny_model.weights.ravel()).reshape(tiny_model.weights.shape)
    worse, _ = interval(measure("standard", scrambled, 0.0, 300, "random"))
    assert worse < mean - 0.5


def test_same_seed_same_weights_and_another_seed_others(tiny_model) -> None:  # type: ignore[no-untyped-def]
    again = train(TINY)
    assert np.array_equal(again.weights, tiny_model.weights)
    other = train(TrainConfig(hands=600, rounds=1, seed=6, eval_deals=0))
    assert not np.array_equal(other.weights, tiny_model.weights)


def test_two_workers_give_the_weights_one_gives() -> None:
    config = TrainConfig(hands=4_500, rounds=2, seed=2, eval_deals=0)  # three chunks a round
    assert np.array_equal(train(config, local_backend(2)).weights, train(config, local_backend(1)).weights)


def test_the_ray_backend_gives_the_local_weights() -> None:
    # A real local Ray instance (2 CPUs), as the tournament's Ray test: skipped without the ray extra.
    pytest.importorskip("ray")
    config = TrainConfig(hands=2_500, rounds=2, seed=4, eval_deals=0)
    assert np.array_equal(train(config, ray_backend(2)).weights, train(config).weights)


def test_the_curve_has_a_point_per_round() -> None:
    model = train(TrainConfig(hands=300, rounds=2, seed=1, eval_deals=40))
    assert model.curve["round"] == [1.0, 2.0]
    assert len(model.curve["medium"]) == len(model.curve["random_half"]) == 2
    assert all(h > 0 for h in model.curve["random_half"])


@pytest.mark.parametrize(
    ("change", "words"),
    [({"hands": 0}, "--hands"), ({"eps": 2.0}, "--eps"), ({"ridge": 0.0}, "--ridge"), ({"margin": -1.0}, "--margin")],
)
def test_bad_settings_are_named(change: dict[str, float], words: str) -> None:
    settings = {"hands": 10, "rounds": 1, "eval_deals": 0, **change}
    with pytest.raises(TrainError, match=words):
        TrainConfig(**settings).check()  # type: ignore[arg-type]


def test_the_command_writes_weights_and_a_curve(tmp_path: Path) -> None:
    out, curve = tmp_path / "w.npz", tmp_path / "curve.png"
    args = ["train", "--hands", "300", "--rounds", "2", "--eval-deals", "30", "--seed", "3"]
    result = CliRunner().invoke(app, [*args, "--out", str(out), "--curve", str(curve), "--quiet"])
    assert result.exit_code == 0, result.output
    model = load_model(out)
    assert model.seed == 3 and "--hands 300" in model.command
    assert curve.read_bytes()[:4] == b"\x89PNG"
    assert "round 2: vs medium" in result.output
    bad = CliRunner().invoke(app, [*args, "--out", str(out), "--backend", "spark"])
    assert bad.exit_code != 0 and "unknown backend 'spark'" in bad.output


def test_rollout_targets_learn_too() -> None:
    """With ``targets="rollout"`` every legal card is played out by medium on the same deal: other
    weights than the outcome's, and a model that still beats random play clearly."""
    config = TrainConfig(hands=200, rounds=1, seed=5, eval_deals=0, targets="rollout")
    model = train(config)
    assert not np.array_equal(model.weights, train(TrainConfig(hands=200, rounds=1, seed=5, eval_deals=0)).weights)
    mean, half = interval(measure("standard", model.weights, 0.0, 200, "random"))
    assert mean - half > 1.0
