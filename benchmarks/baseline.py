"""Today's players, frozen: a baseline that a changed hard or expert is measured against.

A level's strength is only news against something fixed. This script keeps a detached git worktree
of one commit (by default :data:`DEFAULT_COMMIT`, 8371b34) in ``benchmarks/.baseline/<commit>/``
(ignored by git) and seats that commit's players at a tournament as a bot speaking the project's bot
protocol (docs/bot-protocol.md), so that new code and old code play the same deals side by side::

    python3 benchmarks/baseline.py setup                  # once: the worktree, its kernels compiled
    hearts tournament --player 'old-expert=cmd:python3 benchmarks/baseline.py bot expert' \\
        --players expert --hands 100 --games 0 --seed 1 --jobs 2 --json part.json
    python3 benchmarks/bench_ladder.py --rungs expert:old-expert,hard:old-hard --deals 100

Why 8371b34: its hard and expert choose the same moves as the issue's starting commit 509187b at
fixed world counts, and its compiled loop is a little faster, so at a time budget it reaches at
least as many worlds as 509187b did: a conservative baseline (a new level that beats it beats the
starting point by at least as much).

``bot LEVEL`` imports ``hearts`` from the worktree's ``src`` (``sys.path`` is set before the first
import, and the bot refuses to play if the import came from elsewhere), makes that commit's LEVEL
and answers each ``decide`` with its move and reason. The level keeps its own default budget (hard
0.3 s, expert 1 s) unless ``--budget`` sets one; either way the budget is held under three quarters
of the ``time_limit`` the ``hello`` grants, so that the bot never loses a decision to the clock (a
tournament gives a ``cmd:`` player 2 s a decision without ``--budget``, twice the budget with it). The
first decision loads the compiled kernels from the worktree's cache, which ``setup`` filled; that
load is what the protocol's ``startup_time`` (10 s) is for. ``--src`` plays another source tree
instead (the tests use the project's own).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

#: The commit of today's players (see the module text for why this one).
DEFAULT_COMMIT = "8371b34"
ROOT = Path(__file__).resolve().parent.parent
#: Where the baseline worktrees live (ignored by git).
HOME = ROOT / "benchmarks" / ".baseline"
SUPPORTED_VERSION = 1
#: The share of a decision's time limit the bot lets its search use.
LIMIT_SHARE = 0.75


class BaselineError(RuntimeError):
    """A baseline worktree that cannot be made or used, and why."""


def worktree(commit: str = DEFAULT_COMMIT) -> Path:
    """The folder of ``commit``'s worktree."""
    return HOME / commit


def _git(*args: str, cwd: Path = ROOT) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if done.returncode:
        raise BaselineError(f"git {' '.join(args)} failed: {done.stderr.strip() or done.stdout.strip()}")
    return done.stdout.strip()


def setup(commit: str = DEFAULT_COMMIT, warm: bool = True) -> Path:
    """Make ``commit``'s worktree unless it is there already (idempotent), and compile its kernels.

    The worktree is detached (no branch is made or moved). Warming plays one deal of expert against
    hard at a tiny budget in a process of its own, so that every kernel the bots use is compiled and
    cached before a tournament's clock runs."""
    path = worktree(commit)
    want = _git("rev-parse", "--verify", f"{commit}^{{commit}}")
    if not (path / "src" / "hearts").is_dir():
        HOME.mkdir(parents=True, exist_ok=True)
        _git("worktree", "prune")  # a folder removed by hand leaves a stale entry behind
        _git("worktree", "add", "--detach", str(path), want)
    have = _git("rev-parse", "HEAD", cwd=path)
    if have != want:
        raise BaselineError(
            f"{path} is at {have[:10]}, not {commit}: remove it (git worktree remove) and run setup again"
        )
    if warm:
        code = (
            "import sys; sys.path.insert(0, sys.argv[1]); "
            "from hearts.sim.tournament import TournamentConfig, run_tournament; "
            "run_tournament(TournamentConfig(('expert', 'hard'), hands=1, games=0, seed=0, budget=0.01), jobs=1)"
        )
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code, str(path / "src")], check=True)
        print(f"{path}: kernels compiled and cached ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return path


def import_hearts(src: Path) -> Any:
    """``hearts`` imported from ``src`` (which must come first on ``sys.path`` before any import of it)."""
    sys.path.insert(0, str(src))
    import hearts

    if not Path(hearts.__file__).resolve().is_relative_to(src.resolve()):
        raise BaselineError(f"hearts was imported from {hearts.__file__}, not from {src}")
    return hearts


def bot(level: str, src: Path, budget: float | None, seed: int | None) -> int:
    """Play ``level`` of the code in ``src`` over the bot protocol on stdin/stdout until ``bye``."""
    import_hearts(src)
    from hearts.core import SeatView, move_to_dict
    from hearts.players import make_player

    player = None
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            if message.get("version") != SUPPORTED_VERSION:
                print(
                    f"baseline speaks protocol version {SUPPORTED_VERSION}, not {message.get('version')}",
                    file=sys.stderr,
                )
                return 2
            player = make_player(level, seed=seed, time_budget=budget)
            # The searching levels' seconds a decision: an attribute at the baseline's commit, the
            # config's since (a --src of today's code).
            own = getattr(player, "budget", None) or getattr(getattr(player, "config", None), "budget", None)
            cap = LIMIT_SHARE * float(message.get("time_limit", 2.0))
            if own is not None and own > cap:
                player = make_player(level, seed=seed, time_budget=cap)
        elif kind == "decide":
            if player is None:
                print("a decide before hello", file=sys.stderr)
                return 2
            decision = player.decide(SeatView.from_dict(message["view"]))
            sys.stdout.write(json.dumps({**move_to_dict(decision.move), "reason": decision.reason}) + "\n")
            sys.stdout.flush()
        elif kind == "error":
            print(f"the engine refused my answer: {message.get('message')}", file=sys.stderr)
        elif kind == "bye":
            return 0
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    make = sub.add_parser("setup", help="make the baseline worktree (idempotent) and compile its kernels")
    make.add_argument("--commit", default=DEFAULT_COMMIT)
    make.add_argument("--no-warm", action="store_true", help="do not compile the kernels now")
    play = sub.add_parser("bot", help="play a level of the baseline over the bot protocol (stdin/stdout)")
    play.add_argument("level", help="a level of the baseline commit: random, easy, medium, hard, expert")
    play.add_argument("--commit", default=DEFAULT_COMMIT)
    play.add_argument("--src", default=None, help="play the code of this src folder instead of the worktree's")
    play.add_argument("--budget", type=float, default=None, help="seconds a decision (default: the level's own)")
    play.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    try:
        if args.command == "setup":
            print(setup(args.commit, warm=not args.no_warm))
            return 0
        src = Path(args.src) if args.src else worktree(args.commit) / "src"
        if not (src / "hearts").is_dir():
            raise BaselineError(
                f"no baseline at {src}: run 'python3 benchmarks/baseline.py setup --commit {args.commit}'"
            )
        return bot(args.level, src, args.budget, args.seed)
    except BaselineError as exc:
        print(f"baseline: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
