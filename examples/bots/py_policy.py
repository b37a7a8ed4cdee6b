#!/usr/bin/env python3
"""A trained policy at any table: as a ``py:`` player (in-process) and as a ``cmd:`` bot (its own process).

The policy is the linear softmax policy of ``examples/train_policy.py``, played greedily
(the most likely legal action). It sees exactly what the environments show an agent:
:func:`hearts.env.encode_view` of the seat's view, and :func:`hearts.env.encoding.action_mask`.

Train it and save the weights, then seat it (``HEARTS_POLICY`` names the weights; default
``policy.npz`` in the current directory)::

    python3 examples/train_policy.py --save policy.npz
    hearts tournament --players 'nn=py:examples/bots/py_policy.py:make_player',medium --hands 200
    hearts play --opponents 'py:examples/bots/py_policy.py:make_player'
    hearts serve --bot nn=py:examples/bots/py_policy.py:make_player

or run it as a bot process speaking the bot protocol (weights as its argument); the wrapper reads
each ``decide`` message's view back with :meth:`hearts.core.SeatView.from_dict`, so the very same
encoding serves both ways::

    hearts tournament --player 'nn=cmd:python3 examples/bots/py_policy.py policy.npz' --players medium

Both ways play the same moves for the same views.
"""

from __future__ import annotations

import functools
import json
import os
import sys

import numpy as np

from hearts.core import SeatView, move_to_dict
from hearts.env import PolicyPlayer
from hearts.players import Player

SUPPORTED_VERSION = 1


@functools.cache
def load(path: str) -> tuple[np.ndarray, np.ndarray]:
    """The saved weights and bias (read once per process, however many seats and games use them)."""
    if not os.path.isfile(path):
        raise FileNotFoundError(
            f"no trained weights at {path!r}: train them with 'python3 examples/train_policy.py --save {path}' "
            "(or set HEARTS_POLICY to the .npz file)"
        )
    saved = np.load(path)
    return saved["weights"], saved["bias"]


def greedy(weights: np.ndarray, bias: np.ndarray):  # type: ignore[no-untyped-def]
    """``policy(observation, mask) -> action``: the legal action with the highest logit."""

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        logits = observation @ weights + bias
        return int(np.argmax(np.where(mask > 0, logits, -np.inf)))

    return policy


def make_player(seed: int | None = None, time_budget: float | None = None) -> Player:
    """The ``py:`` factory: a :class:`~hearts.env.PolicyPlayer` playing the saved policy greedily."""
    weights, bias = load(os.environ.get("HEARTS_POLICY", "policy.npz"))
    return PolicyPlayer(greedy(weights, bias), name="linear-policy", seed=seed, time_budget=time_budget)


def main(argv: list[str]) -> int:
    """The same policy as a bot process: one JSON line in, one answer line out per decision."""
    try:
        weights, bias = load(argv[1] if len(argv) > 1 else os.environ.get("HEARTS_POLICY", "policy.npz"))
    except FileNotFoundError as exc:
        print(exc, file=sys.stderr)
        return 2
    player = PolicyPlayer(greedy(weights, bias), name="linear-policy")
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello" and message.get("version") != SUPPORTED_VERSION:
            print(
                f"py_policy speaks protocol version {SUPPORTED_VERSION}, not {message.get('version')}", file=sys.stderr
            )
            return 2
        if kind == "decide":
            decision = player.decide(SeatView.from_dict(message["view"]))
            sys.stdout.write(json.dumps({**move_to_dict(decision.move), "reason": decision.reason}) + "\n")
            sys.stdout.flush()
        elif kind == "error":
            print(f"the engine refused my answer: {message.get('message')}", file=sys.stderr)
        elif kind == "bye":
            return 0
        # "game" (a new game starts) needs nothing here: the policy keeps no memory. Unknown types are ignored.
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
