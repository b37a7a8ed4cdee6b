"""The examples run: the training example's CI mode, and the example bots' handling of the protocol version."""

from __future__ import annotations

import json
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
