"""benchmarks/baseline.py: a level of another source tree, played over the bot protocol.

The tests play the project's own src (a clone may not have the baseline's worktree), so the bot
must answer exactly what the level answers in this process."""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from hearts.core import Game, Rules
from hearts.players import make_player
from hearts.players.medium import MediumPlayer

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "baseline.py"


def test_the_baseline_bot_plays_its_level_over_the_bot_protocol() -> None:
    command = shlex.join([sys.executable, str(SCRIPT), "bot", "medium", "--src", str(ROOT / "src")])
    bot = make_player(f"old-medium=cmd:{command}", seed=0)
    medium = MediumPlayer(seed=0)
    game = Game(Rules(), seed=3)
    asked = 0
    try:
        while asked < 3:
            seat = game.to_move[0]
            view = game.view(seat)
            decision = medium.decide(view)
            if seat == 0:  # the bot plays the seat its hello named: the first it is asked for
                assert bot.decide(view) == decision  # the same move, for the same reason
                asked += 1
            game.apply(decision.move)
    finally:
        bot.close()  # type: ignore[attr-defined]


def test_the_baseline_bot_names_a_missing_worktree() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "bot", "expert", "--commit", "0000000"],
        capture_output=True,
        text=True,
        input="",
        timeout=60,
    )
    assert done.returncode == 2
    assert "no baseline at" in done.stderr and "baseline.py setup --commit 0000000" in done.stderr
