"""The examples run: the training example's CI mode, and the example bots' handling of the protocol version."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def test_training_example_smoke_run_trains_and_evaluates() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "train_policy.py"), "--smoke", "--json", "--eval-against", "random"],
        capture_output=True, text=True, timeout=240, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "duplicate vs random" in done.stdout
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    result = figures["evaluation"]["random"]
    assert figures["hands"] == 200
    # Points per hand are between 0 and 26 (no moon is likely in 8 deals, but it would still be in range).
    assert 0 <= result["policy"] <= 26 and 0 <= result["random"] <= 26
    assert result["difference"] == pytest.approx(result["policy"] - result["random"])


def test_training_example_saves_weights(tmp_path: Path) -> None:
    import numpy as np

    sys.path.insert(0, str(EXAMPLES))
    try:
        import train_policy
    finally:
        sys.path.remove(str(EXAMPLES))
    policy = train_policy.train(hands=40, opponents="random", seed=3)
    path = tmp_path / "policy.npz"
    policy.save(str(path))
    saved = np.load(path)
    assert saved["weights"].shape == policy.weights.shape and np.array_equal(saved["bias"], policy.bias)
    assert np.abs(policy.weights).sum() > 0  # forty hands of REINFORCE moved the weights


BOTS = [[sys.executable, str(EXAMPLES / "bots" / "python_bot.py")]]
if shutil.which("node"):
    BOTS.append(["node", str(EXAMPLES / "bots" / "js_bot.js")])


@pytest.mark.parametrize("command", BOTS, ids=lambda c: Path(c[-1]).name)
def test_example_bots_refuse_an_unknown_protocol_version(command: list[str]) -> None:
    hello = json.dumps({"type": "hello", "protocol": "hearts-bot", "version": 2, "seat": 0}) + "\n"
    done = subprocess.run(command, input=hello, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert "protocol version 1, not 2" in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize("command", BOTS, ids=lambda c: Path(c[-1]).name)
def test_example_bots_exit_on_bye(command: list[str]) -> None:
    messages = [{"type": "hello", "protocol": "hearts-bot", "version": 1, "seat": 0}, {"type": "bye", "reason": "done"}]
    done = subprocess.run(
        command, input="".join(json.dumps(m) + "\n" for m in messages), capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0 and done.stdout == ""


@pytest.fixture(scope="module")
def trained_weights(tmp_path_factory: pytest.TempPathFactory) -> Path:
    sys.path.insert(0, str(EXAMPLES))
    try:
        import train_policy
    finally:
        sys.path.remove(str(EXAMPLES))
    path = tmp_path_factory.mktemp("policy") / "policy.npz"
    train_policy.train(hands=40, opponents="random", seed=5).save(str(path))
    return path


def test_a_trained_policy_plays_the_same_in_process_and_as_a_bot_process(
    trained_weights: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """examples/bots/py_policy.py as a py: player and as a cmd: bot (which reads its views back with
    SeatView.from_dict and encodes them as the environments do): the same tournament, the same scores."""
    from hearts.sim.tournament import TournamentConfig, run_tournament

    script = EXAMPLES / "bots" / "py_policy.py"
    monkeypatch.setenv("HEARTS_POLICY", str(trained_weights))
    outcomes = []
    for spec in (f"nn=py:{script}:make_player", f"nn=cmd:{sys.executable} {script} {trained_weights}"):
        result = run_tournament(TournamentConfig((spec, "easy"), hands=3, games=1, seed=11), jobs=1)
        assert not result.faults() and result.config.labels == ("nn", "easy")
        assert result.figures()[0].decisions > 0
        outcomes.append([(t.kind, t.index, t.table, t.scores, t.moons, t.winners, t.hands) for t in result.tables])
    assert outcomes[0] == outcomes[1]


def test_the_policy_example_says_how_to_get_weights(tmp_path: Path) -> None:
    script = EXAMPLES / "bots" / "py_policy.py"
    done = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "none.npz")], input="", capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "train_policy.py --save" in done.stderr
    result = subprocess.run(
        [sys.executable, "-m", "hearts", "tournament", "--players", f"py:{script}:make_player,easy", "--hands", "2"],
        capture_output=True, text=True, timeout=120, cwd=tmp_path, env={**os.environ, "HEARTS_POLICY": "none.npz"},
    )  # fmt: skip
    assert result.returncode == 2 and "no trained weights at 'none.npz'" in " ".join(
        w for w in result.stderr.split() if w != "│"
    )
