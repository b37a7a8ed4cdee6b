"""The players' ladder: each level against the one below, 2-against-2 duplicate.

    python benchmarks/bench_ladder.py                        # the full ladder: 1,000 deals a rung
    python benchmarks/bench_ladder.py --deals 100 --budget 0.05 --rungs hard:medium --jobs 2

A rung ``upper:lower`` is a duplicate tournament of single-hand deals (``hearts.sim.tournament``):
every deal is played at two tables, the upper level in seats 0 and 2 then in seats 1 and 3. The
figure is the upper level's payoff per seat-deal (the mean of the other seats' points minus its
own; zero-sum, so the lower level's is its negative) with its 95% interval over deals; the upper
level's moons made minus moons allowed per seat-deal (moons its seats shot, less the moons the
lower level's seats shot against each of them) with its 95% interval over deals; and each side's
mean and 95th-percentile seconds per decision. Targets: medium beats random by far (≥ +3), hard
beats medium by at least +1.5, expert beats hard (> 0), hard beats the frozen hard by +0.3 and expert
the frozen expert by +0.5 (issue 20); every other rung asks only for > 0. A
target is *met* when the whole interval clears it, *missed* when the whole interval is below it,
and otherwise *not shown* at this many deals.

Two kinds of rung measure more than the ladder itself:

* **Moon defence**, against the moon hunter (``medium:hunter``, ``hard:hunter``, ``expert:hunter``):
  a measurement opponent that shoots whenever it plausibly can (docs/players.md, "The moon
  hunter"); the moons a level allows it per seat-deal are what its moon defence lets through.
* **Progress against today's players** (``expert:old-expert``, ``hard:old-hard``): ``old-LEVEL``
  is that level of a frozen commit, played by ``benchmarks/baseline.py`` as a ``cmd:`` bot (its
  worktree is made and compiled on first use; see that script for the commit and why)::

      python benchmarks/bench_ladder.py --rungs expert:old-expert --deals 100 --seed 1 --jobs 2

``--budget`` is the seconds per decision of the searching players (hard and expert; the others
ignore it); without it each level uses its own default (hard 0.3 s, expert 1 s). ``--write-docs``
replaces the "## Ladder results" section of docs/tournaments.md with the table.

A rung too long for one sitting (expert against hard takes about 12 s a deal on 2 cores) can be
played in parts, each a ``hearts tournament`` of its own seed, and pooled deal by deal::

    hearts tournament --players expert,hard --hands 100 --games 0 --seed 1 --jobs 2 --json part1.json
    hearts tournament --players expert,hard --hands 100 --games 0 --seed 2 --jobs 2 --json part2.json
    python benchmarks/bench_ladder.py --pool part1.json part2.json

``--paired OTHER...`` compares two players by their results against one opponent on the same deals:
the pooled parts against other parts of the same seeds, deal by deal: another version of the upper
level under its name, or another player against the same opponent (``expert`` against the hunter
here, the frozen ``old-expert`` against it there)::

    python benchmarks/bench_ladder.py --pool new/*.json.gz --paired old/*.json.gz

Two players paired against one opponent also get the opponent's moons against each, on the common
deals, and their ratio with a bootstrap interval (issue 20 asks expert's moons allowed against the
hunter to be at most half of the frozen expert's).

The parts must have the same two players, rules and budget and different seeds (the same seed
deals the same cards, which would count those deals twice). A part may be gzipped (``part1.json.gz``):
the parts of a rung still being played are kept in ``benchmarks/results/`` that way, so that a later
sitting can add its own and pool them all.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import platform
import random
import re
import shlex
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hearts.players.registry import LEVELS, MEASUREMENT_LEVELS
from hearts.sim.stats import Estimate, mean_ci, percentile
from hearts.sim.tournament import TournamentConfig, default_jobs, run_tournament

#: Each rung: (upper, lower, the payoff the upper level should clear).
RUNGS: list[tuple[str, str, float]] = [
    ("easy", "random", 0.0),
    ("medium", "easy", 0.0),
    ("medium", "random", 3.0),
    ("hard", "medium", 1.5),
    ("expert", "hard", 0.0),
    ("medium", "hunter", 0.0),
    ("hard", "hunter", 0.0),
    ("expert", "hunter", 0.0),
    # Issue 20's progress against the players of its start: hard +0.3, expert +0.5.
    ("hard", "old-hard", 0.3),
    ("expert", "old-expert", 0.5),
]

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "docs" / "tournaments.md"]
HEADING = "## Ladder results"
#: The script that plays a frozen commit's levels (the ``old-LEVEL`` rungs).
BASELINE = Path(__file__).resolve().parent / "baseline.py"
#: The name of a baseline player: ``old-`` and one of the baseline's levels.
OLD = "old-"


def player_spec(name: str, budget: float | None) -> str:
    """The tournament's spec for a rung's player: a level as it is, ``old-LEVEL`` the baseline's LEVEL
    as a ``cmd:`` bot named ``old-LEVEL`` (at ``budget`` when one is given, else at the level's own).

    >>> player_spec("hunter", None)
    'hunter'
    >>> player_spec("old-hard", 0.05).split("=cmd:")[0], player_spec("old-hard", 0.05).split()[-4:]
    ('old-hard', ['bot', 'hard', '--budget', '0.05'])
    """
    if name.startswith(OLD):
        command = [sys.executable, str(BASELINE), "bot", name[len(OLD) :]]
        if budget is not None:
            command += ["--budget", f"{budget:g}"]
        return f"{name}=cmd:{shlex.join(command)}"
    return name


def player_specs(arguments: list[str]) -> list[str]:
    """Player specs as a benchmark's command line gives them: one an argument, where an argument
    without settings (no ``:``) may list several levels separated by commas (a search level's
    settings are separated by commas themselves).

    >>> player_specs(["medium,hard", "x=expert:rollout=medium,worlds=500"])
    ['medium', 'hard', 'x=expert:rollout=medium,worlds=500']
    """
    return [s.strip() for a in arguments for s in (a.split(",") if ":" not in a else [a]) if s.strip()]


def known_player(name: str) -> bool:
    """Whether a rung may name ``name``: a level, a measurement level, or ``old-`` and a level."""
    return name in LEVELS or name in MEASUREMENT_LEVELS or name.startswith(OLD) and name[len(OLD) :] in LEVELS


def moons_by_deal(tables: list[dict[str, Any]]) -> dict[int, dict[str, tuple[int, int]]]:
    """For each deal of one tournament's tables, by deal number: each label's moons shot over the
    deal's tables, and how many seat-hands it held there."""
    out: dict[int, dict[str, tuple[int, int]]] = {}
    for t in tables:
        if t["kind"] != "deal":
            continue
        counts = out.setdefault(int(t["index"]), {})
        for label, shot in zip(t["seating"], t["moons"], strict=True):
            moons, seats = counts.get(label, (0, 0))
            counts[label] = (moons + shot, seats + 1)
    return out


def moon_balance(runs: list[list[dict[str, Any]]], upper: str) -> Estimate:
    """The ``upper`` player's moons made minus moons allowed per seat-deal, with its interval over deals.

    ``runs`` holds each tournament's tables (as in its JSON, the seats named by label). For each deal,
    over its tables: the moons the player's seats shot per seat it held, less the moons the other
    seats shot per seat they held. So a moon allowed counts once, as a moon made does, and the
    balance is zero when both sides shoot as often (the tournament's ``moons_allowed`` counts a moon
    once for each seat it was shot against: twice, at a 2-against-2 table)."""
    balances = []
    for tables in runs:
        for counts in moons_by_deal(tables).values():
            made, seats = counts[upper]
            other = sum(moons for label, (moons, _) in counts.items() if label != upper)
            others = sum(held for label, (_, held) in counts.items() if label != upper)
            balances.append(made / seats - other / others)
    return mean_ci(balances)


def read_json(path: str | Path) -> Any:
    """A JSON file, gzipped or not (by its ``.gz`` suffix)."""
    path = Path(path)
    if path.suffix == ".gz":
        return json.loads(gzip.decompress(path.read_bytes()))
    return json.loads(path.read_text())


def verdict(low: float, high: float, target: float) -> str:
    if low > target:
        return "met"
    if high < target:
        return "missed"
    return "not shown"


def run_rung(upper: str, lower: str, target: float, deals: int, args: argparse.Namespace) -> dict[str, Any]:
    players = (player_spec(upper, args.budget), player_spec(lower, args.budget))
    config = TournamentConfig(players, hands=deals, games=0, seed=args.seed, budget=args.budget)
    start = time.perf_counter()
    result = run_tournament(config, jobs=args.jobs)
    wall = time.perf_counter() - start
    up, down = result.figures()
    moons = moon_balance([[t.to_dict(config.labels) for t in result.tables]], config.labels[0])
    return {
        "upper": upper,
        "lower": lower,
        "target": target,
        "deals": deals,
        "payoff": up.payoff.mean,
        "ci_low": up.payoff.low,
        "ci_high": up.payoff.high,
        "points_upper": up.points.mean,
        "points_lower": down.points.mean,
        "moons_upper": up.moons_made.mean,
        "moons_lower": down.moons_made.mean,
        "moon_balance": moons.mean,
        "moon_balance_low": moons.low,
        "moon_balance_high": moons.high,
        "s_per_decision_upper": up.decision_mean.mean,
        "p95_upper": up.decision_p95,
        "s_per_decision_lower": down.decision_mean.mean,
        "p95_lower": down.decision_p95,
        "verdict": verdict(up.payoff.low, up.payoff.high, target),
        "wall_s": wall,
    }


class PoolError(ValueError):
    """Tournament files that cannot be pooled into one rung, and why."""


#: What tournament runs must share to be parts of one rung.
RUNG_KEYS = ("labels", "preset", "seats", "budget", "rules")


def check_parts(parts: list[dict[str, Any]], names: list[str]) -> dict[int, str]:
    """Raise :class:`PoolError` unless ``parts`` are single-hand runs of one rung (two players, the
    same :data:`RUNG_KEYS`) of different seeds; return each seed's part name."""
    if not parts:
        raise PoolError("nothing to pool: give at least one tournament file")
    first = parts[0]["config"]
    labels = first["labels"]
    if len(labels) != 2:
        raise PoolError(f"{names[0]}: a rung is two players, this tournament has {len(labels)}: {', '.join(labels)}")
    seeds: dict[int, str] = {}
    for name, part in zip(names, parts, strict=True):
        config = part["config"]
        for key in RUNG_KEYS:
            if config[key] != first[key]:
                raise PoolError(
                    f"{name}: its {key} {config[key]!r} differ from {names[0]}'s {first[key]!r}; "
                    "only runs of the same players under the same rules and budget pool"
                )
        if config["games"]:
            raise PoolError(f"{name}: it played {config['games']} whole games; a rung is single-hand deals (--games 0)")
        if config["seed"] in seeds:
            raise PoolError(
                f"{name}: seed {config['seed']} again (as in {seeds[config['seed']]}): "
                "the same seed deals the same cards, so those deals would count twice"
            )
        seeds[config["seed"]] = name
    return seeds


def pool(parts: list[dict[str, Any]], names: list[str] | None = None) -> dict[str, Any]:
    """One rung from the JSON of several ``hearts tournament --json`` runs of the same two players.

    The payoff's and the moon balance's intervals are over every deal of every part (the balance
    is read from the parts' tables); points, moons and seconds per decision are the parts' means
    weighted by their deals (decisions, for the seconds); the 95th percentile of a decision is the
    largest of the parts' (the parts keep no single decision's time).
    """
    names = names or [f"part {i + 1}" for i in range(len(parts))]
    seeds = check_parts(parts, names)
    first = parts[0]["config"]
    upper, lower = first["labels"]

    def weighted(player: str, figure: str, weight: str = "n") -> float:
        pairs = [(p["players"][player][figure]["mean"], p["players"][player][figure][weight]) for p in parts]
        total = sum(w for _, w in pairs)
        return sum(m * w for m, w in pairs) / total if total else float("nan")

    payoffs = [x for p in parts for x in p["players"][upper]["payoff_by_deal"]]
    est = mean_ci(payoffs)
    if any("tables" not in p for p in parts):
        missing = next(name for name, p in zip(names, parts, strict=True) if "tables" not in p)
        raise PoolError(f"{missing}: it keeps no tables (write it with 'hearts tournament --json')")
    moons = moon_balance([p["tables"] for p in parts], upper)
    rung = (upper, lower)
    target = next((t for u, lo, t in RUNGS if (u, lo) == rung), 0.0)
    return {
        "upper": upper,
        "lower": lower,
        "target": target,
        "deals": est.n,
        "payoff": est.mean,
        "ci_low": est.low,
        "ci_high": est.high,
        "points_upper": weighted(upper, "points_per_hand"),
        "points_lower": weighted(lower, "points_per_hand"),
        "moons_upper": weighted(upper, "moons_made_per_hand"),
        "moons_lower": weighted(lower, "moons_made_per_hand"),
        "moon_balance": moons.mean,
        "moon_balance_low": moons.low,
        "moon_balance_high": moons.high,
        "s_per_decision_upper": weighted(upper, "seconds_per_decision", "decisions"),
        "p95_upper": max(p["players"][upper]["seconds_per_decision"]["p95"] for p in parts),
        "s_per_decision_lower": weighted(lower, "seconds_per_decision", "decisions"),
        "p95_lower": max(p["players"][lower]["seconds_per_decision"]["p95"] for p in parts),
        "verdict": verdict(est.low, est.high, target),
        "wall_s": sum(p["seconds"] for p in parts),
        "budget": first["budget"],
        "seed": ", ".join(str(s) for s in seeds),
        "parts": len(parts),
    }


def paired(parts: list[dict[str, Any]], others: list[dict[str, Any]]) -> dict[str, Any]:
    """One player's payoff in ``parts`` minus another's (or another version's) in ``others``, deal by
    deal, over the deals both played (the same seed and deal number: the same cards), with its 95%
    interval: two players compared by their results against the same opponent.

    Both sets must be of one rung's conditions (rules, seats and budget) and share an opponent: the
    same two labels (the upper player, another version under the same name), or one label in common
    (the opponent), the compared players being the others (``expert`` against the hunter in
    ``parts``, ``old-expert`` against the hunter in ``others``)."""
    check_parts(others, [f"part {i + 1} to compare with" for i in range(len(others))])
    first, second = parts[0]["config"], others[0]["config"]
    for key in RUNG_KEYS:
        if key != "labels" and second[key] != first[key]:
            raise PoolError(f"the parts to compare with have other {key}: {second[key]!r}")
    if first["labels"] == second["labels"]:
        mine_label = theirs_label = first["labels"][0]
    else:
        shared = [label for label in first["labels"] if label in second["labels"]]
        if len(shared) != 1:
            raise PoolError(
                f"the parts to compare with are {' and '.join(second['labels'])}, these {' and '.join(first['labels'])}: "
                "pair runs against the same opponent"
            )
        mine_label = next(label for label in first["labels"] if label != shared[0])
        theirs_label = next(label for label in second["labels"] if label != shared[0])

    def by_deal(runs: list[dict[str, Any]], label: str) -> dict[tuple[int, int], float]:
        return {
            (run["config"]["seed"], i): x for run in runs for i, x in enumerate(run["players"][label]["payoff_by_deal"])
        }

    mine, theirs = by_deal(parts, mine_label), by_deal(others, theirs_label)
    common = sorted(mine.keys() & theirs.keys())
    if len(common) < 2:
        raise PoolError(f"only {len(common)} deal(s) in common: pair parts of the same seeds")
    est = mean_ci([mine[key] - theirs[key] for key in common])
    out: dict[str, Any] = {
        "deals": est.n,
        "difference": est.mean,
        "ci_low": est.low,
        "ci_high": est.high,
        "player": mine_label,
        "compared_with": theirs_label,
    }
    # The opponent's moons against each (a moon allowed is a moon the opponent made), also when the
    # two are versions of one level under the same name.
    opponent = next(label for label in first["labels"] if label != mine_label)
    out["moons_allowed"] = moons_allowed_ratio(
        opponent_moons(parts, opponent), opponent_moons(others, opponent), common, opponent
    )
    return out


def opponent_moons(runs: list[dict[str, Any]], opponent: str) -> dict[tuple[int, int], tuple[int, int]]:
    """For each deal (seed, deal number): the moons ``opponent``'s seats shot over the deal's tables,
    and how many seat-hands it held there."""
    return {
        (run["config"]["seed"], deal): counts.get(opponent, (0, 0))
        for run in runs
        for deal, counts in moons_by_deal(run["tables"]).items()
    }


def moons_allowed_ratio(
    mine: dict[tuple[int, int], tuple[int, int]],
    theirs: dict[tuple[int, int], tuple[int, int]],
    common: list[tuple[int, int]],
    opponent: str,
    resamples: int = 2000,
) -> dict[str, Any]:
    """The moons the shared opponent shot against one player over those it shot against the other, on
    the same deals (issue 20's measure of moon defence: at most half), with a 95% interval from a
    bootstrap over the deals (seeded: the same files give the same interval).

    >>> r = moons_allowed_ratio({(1, 0): (1, 4), (1, 1): (1, 4)}, {(1, 0): (2, 4), (1, 1): (2, 4)}, [(1, 0), (1, 1)], "hunter")
    >>> (r["mine"], r["theirs"], r["seat_hands"], r["ratio"])
    (2, 4, 8, 0.5)
    """
    keys = [key for key in common if key in mine and key in theirs]
    pairs = [(mine[key][0], theirs[key][0]) for key in keys]
    made, other = sum(a for a, _ in pairs), sum(b for _, b in pairs)
    rng = random.Random(20)
    ratios = []
    for _ in range(resamples):
        sample = [pairs[rng.randrange(len(pairs))] for _ in pairs]
        below = sum(b for _, b in sample)
        if below:
            ratios.append(sum(a for a, _ in sample) / below)
    return {
        "opponent": opponent,
        "mine": made,
        "theirs": other,
        "seat_hands": sum(mine[key][1] for key in keys),
        "ratio": made / other if other else math.nan,
        "ratio_low": percentile(ratios, 2.5),
        "ratio_high": percentile(ratios, 97.5),
    }


def markdown(rows: list[dict[str, Any]]) -> str:
    """The ladder section: one line per rung, then the commands that measured them."""
    lines = [
        HEADING,
        "",
        "| rung | deals | budget s/decision | payoff per seat-deal (95% CI) | target | verdict "
        "| points/hand upper – lower | moons/seat-deal upper – lower | moons made − allowed, upper (95% CI) "
        "| ms/decision upper – lower | p95 ms upper – lower | wall |",
        "| --- | ---: | --- | --- | ---: | --- | --- | --- | --- | --- | --- | ---: |",
    ]
    for r in rows:
        budget = "default" if r["budget"] is None else f"{r['budget']:g}"
        lines.append(
            f"| {r['upper']} vs {r['lower']} | {r['deals']} | {budget} "
            f"| {r['payoff']:+.2f} [{r['ci_low']:+.2f}, {r['ci_high']:+.2f}] "
            f"| {r['target']:+.1f} | {r['verdict']} | {r['points_upper']:.2f} – {r['points_lower']:.2f} "
            f"| {r['moons_upper']:.3f} – {r['moons_lower']:.3f} | {_moons(r)} | {1000 * r['s_per_decision_upper']:.1f} – {1000 * r['s_per_decision_lower']:.1f} "
            f"| {_ms(r.get('p95_upper'))} – {_ms(r.get('p95_lower'))} | {r['wall_s']:.0f} s |"
        )
    lines += ["", "Measured with:", ""]
    for command, measured, machine, jobs, seed, commit in dict.fromkeys(
        (r["command"], r["measured"], r["machine"], r["jobs"], r["seed"], r.get("commit", "?")) for r in rows
    ):
        if commit is None:  # a pooled rung: its parts were played elsewhere, each with its own command
            lines.append(f"- `{command}` ({measured}: `hearts tournament` runs of seeds {seed}, {machine})")
        else:
            lines.append(
                f"- `{command}` ({measured}, code at {commit}, {machine}, {jobs} worker processes, seed {seed})"
            )
    lines += [
        "",
        "Payoff: the upper level's mean of the other seats' points minus its own, per seat per deal, "
        "2-against-2 duplicate; the interval is over deals. *met*: the whole interval clears the target; "
        "*missed*: the whole interval is below it; *not shown*: neither, at this many deals. Moons: the "
        "moons each level's seats shot, per seat per deal; made − allowed: the upper level's less the lower "
        "level's, with its interval over deals (– for a run from before it was counted). `hunter`: the moon hunter, a measurement opponent that "
        "shoots whenever it plausibly can; `old-LEVEL`: LEVEL of a frozen commit (benchmarks/baseline.py). "
        "p95: the 95th percentile of one decision's time (pooled: the largest part's). Budget "
        "applies to hard and expert (default: hard 0.3 s, expert 1 s); the others do not search. The full "
        "ladder is `python benchmarks/bench_ladder.py` (1,000 deals a rung, each level's default budget).",
        "",
    ]
    return "\n".join(lines)


def _moons(r: dict[str, Any]) -> str:
    if r.get("moon_balance") is None:  # a row from before the ladder counted moons
        return "–"
    return f"{r['moon_balance']:+.3f} [{r['moon_balance_low']:+.3f}, {r['moon_balance_high']:+.3f}]"


def _ms(seconds: float | None) -> str:
    return "–" if seconds is None else f"{1000 * seconds:.1f}"


def write_section(path: Path, text: str) -> None:
    """Replace the ladder section of ``path`` (from its heading to the next ``## `` heading), or append it."""
    old = path.read_text() if path.exists() else ""
    pattern = re.compile(rf"^{re.escape(HEADING)}\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(old):
        new = pattern.sub(lambda _m: text + "\n", old, count=1)
    else:
        new = old.rstrip("\n") + ("\n\n" if old else "") + text + "\n"
    path.write_text(new)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=1000, help="deals per rung, each at both duplicate tables")
    parser.add_argument("--budget", type=float, default=None, help="seconds per decision for hard and expert")
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="worker processes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--rungs",
        default=None,
        help="comma-separated upper:lower rungs, each with an optional @deals (default: "
        + ",".join(f"{u}:{lo}" for u, lo, _ in RUNGS)
        + ")",
    )
    parser.add_argument("--json", default=None, help="write every rung's figures to this file")
    parser.add_argument("--write-docs", action="store_true", help="write the table into the docs' ladder sections")
    parser.add_argument(
        "--merge",
        nargs="+",
        default=None,
        metavar="JSON",
        help="play nothing: render the rungs of earlier --json files",
    )
    parser.add_argument(
        "--pool",
        nargs="+",
        default=None,
        metavar="JSON",
        help="play nothing: pool the deals of 'hearts tournament --json' files of the same two players into a rung",
    )
    parser.add_argument(
        "--paired",
        nargs="+",
        default=None,
        metavar="JSON",
        help="with --pool: the pooled upper player's payoff minus its payoff in these parts, deal by deal",
    )
    args = parser.parse_args(argv)
    if args.paired and not args.pool:
        parser.error("--paired compares with the parts given to --pool: give --pool too")
    if args.pool:
        try:
            parts = [read_json(name) for name in args.pool]
            row = pool(parts, list(args.pool))
        except (OSError, EOFError, ValueError, KeyError) as exc:
            parser.error(f"cannot pool: {exc}")
        row.update(
            command="python benchmarks/bench_ladder.py " + " ".join(argv if argv is not None else sys.argv[1:]),
            measured=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC") + " (pooled)",
            machine=f"{platform.machine()}, {os.cpu_count()} cores",
            jobs=None,
            commit=None,
        )
        if args.paired:
            try:
                row["paired"] = paired(parts, [read_json(name) for name in args.paired])
            except (OSError, EOFError, ValueError, KeyError) as exc:
                parser.error(f"cannot pair: {exc}")
        if args.json:
            Path(args.json).write_text(json.dumps({"args": vars(args), "rungs": [row]}, indent=1) + "\n")
        status = _report([row], args)
        if args.paired:
            d = row["paired"]
            print(
                f"{d['player']} here minus {d['compared_with']} in the {len(args.paired)} other part(s), over "
                f"{d['deals']} common deals: {d['difference']:+.2f} [{d['ci_low']:+.2f}, {d['ci_high']:+.2f}] per seat-deal"
            )
            m = d.get("moons_allowed")
            if m:
                print(
                    f"{m['opponent']}'s moons against {d['player']} here: {m['mine']}, against {d['compared_with']} "
                    f"there: {m['theirs']}, in {m['seat_hands']} {m['opponent']} seat-hands each; the ratio "
                    f"{m['ratio']:.2f} [{m['ratio_low']:.2f}, {m['ratio_high']:.2f}] (bootstrap over the deals)"
                )
        return status
    if args.merge:
        rows = [row for name in args.merge for row in read_json(name)["rungs"]]
        return _report(rows, args)

    targets = {(u, lo): t for u, lo, t in RUNGS}
    if args.rungs:
        rungs = []
        for item in args.rungs.split(","):
            pair, _, deals = item.partition("@")
            upper, _, lower = pair.partition(":")
            if not known_player(upper) or not known_player(lower):
                levels = [*LEVELS, *MEASUREMENT_LEVELS]
                parser.error(f"rung {item!r}: levels are {', '.join(levels)}, or old-LEVEL for the baseline's LEVEL")
            if deals and not deals.isdigit():
                parser.error(f"rung {item!r}: the deals after @ must be a whole number")
            rungs.append((upper, lower, targets.get((upper, lower), 0.0), int(deals) if deals else args.deals))
    else:
        rungs = [(u, lo, t, args.deals) for u, lo, t in RUNGS]

    if any(p.startswith(OLD) for u, lo, _t, _d in rungs for p in (u, lo)):
        # The baseline's worktree, made and compiled now (idempotent), not on a bot's first decision.
        subprocess.run([sys.executable, str(BASELINE), "setup"], check=True)
    command = ("python benchmarks/bench_ladder.py " + " ".join(argv if argv is not None else sys.argv[1:])).strip()
    measured = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    commit = _commit()  # before playing: the workers import the players as they are now
    rows = []
    for upper, lower, target, deals in rungs:
        print(f"{upper} vs {lower}: {deals} deals ...", flush=True)
        row = run_rung(upper, lower, target, deals, args)
        row.update(
            command=command, measured=measured, machine=f"{platform.machine()}, {os.cpu_count()} cores",
            budget=args.budget, jobs=args.jobs, seed=args.seed, commit=commit,
        )  # fmt: skip
        rows.append(row)
        print(
            f"  payoff {row['payoff']:+.2f}  95% CI [{row['ci_low']:+.2f}, {row['ci_high']:+.2f}]  target {target:+.1f}: "
            f"{row['verdict']}  (s/decision {row['s_per_decision_upper']:.4f} vs {row['s_per_decision_lower']:.4f}, "
            f"{row['wall_s']:.0f} s)",
            flush=True,
        )
        if args.json:  # after every rung, so that a long ladder stopped part way keeps what it measured
            Path(args.json).write_text(json.dumps({"args": vars(args), "rungs": rows}, indent=1) + "\n")
    return _report(rows, args)


def _commit() -> str:
    """The code measured: the checked-out commit, marked when the tree has changes."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT, capture_output=True, text=True
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head.stdout.strip() + ("+changes" if dirty.stdout.strip() else "")


def _report(rows: list[dict[str, Any]], args: argparse.Namespace) -> int:
    text = markdown(rows)
    print()
    print(text)
    if args.write_docs:
        for path in DOCS:
            write_section(path, text)
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
