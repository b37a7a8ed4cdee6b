"""Mutation check of the rules tests: break one rule in a copy of the engine, and the tests must notice.

Run from the repository root::

    python3 tests/mutants.py            # every mutant: 25 runs of the rules tests, a few minutes
    python3 tests/mutants.py 3 7        # only mutants 3 and 7

Each mutant is one small edit to a copy of ``src/`` (the working tree is never touched); the rules tests run
against the copy with ``-x`` and must fail. A surviving mutant is a rule the tests do not pin. The script
prints one line per mutant and exits non-zero if any survived.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: (file in hearts/core, text, replacement, the rule it breaks)
MUTANTS: list[tuple[str, str, str, str]] = [
    ("arith.py", "return safe if safe else hand", "return hand", "first trick: no heart or Q♠"),
    ("arith.py", "if tricks_done == 0 and R[R_POINTS_FIRST_TRICK] == 0:", "if R[R_POINTS_FIRST_TRICK] == 0:",
     "the first-trick rule holds on the first trick only"),
    ("arith.py", "(others == QS_BIT and R[R_HEART_LEAD_ONLY_QUEEN])", "(others == QS_BIT)",
     "only hearts and Q♠: lead Q♠"),
    ("arith.py", "    if others == 0 or (others", "    if others == QS_BIT or others == 0 or (others",
     "only hearts and Q♠: lead Q♠ (other form)"),
    ("arith.py", "values[R_BREAKERS] = HEARTS | (QS_BIT if rules.queen_breaks_hearts else 0)", "values[R_BREAKERS] = HEARTS | QS_BIT",
     "Q♠ does not break hearts"),
    ("hand.py", "not rules.hearts_must_be_broken, [0] * n", "False, [0] * n",
     "option: hearts may be led any time"),
    ("arith.py", "        if R[R_OPEN_ANY_CLUB] == 0:\n            return 1 << R[R_OPENING_CARD]",
     "        if False:\n            return 1 << R[R_OPENING_CARD]", "2♣ must open"),
    ("hand.py", "            if follow:\n                return follow\n",
     "            if follow:\n                return follow if len(trick) < 3 else hand\n", "follow suit"),
    ("arith.py", "return highest_card(trick_mask & (SUIT << (13 * led)))", "return highest_card(trick_mask)",
     "the highest card of the suit led wins"),
    ("hand.py", "missing = mask & ~self.hands[seat]", "missing = 0", "pass only cards you hold"),
    ("hand.py", "        self.passed[seat] = mask\n", "        self.passed[seat] = mask\n        self.hands[seat] &= ~mask\n",
     "no card moves until every seat has passed"),
    ("hand.py", "return (seat - self.direction.offset(self.players)) % self.players",
     "return (seat + self.direction.offset(self.players)) % self.players", "receive from the right seat"),
    ("rules.py", "            return 1\n        if self is PassDirection.RIGHT",
     "            return players - 1\n        if self is PassDirection.RIGHT", "left is the next seat"),
    ("rules.py", '5: ("2D", "2C"),', '5: ("2D", "3C"),', "five players remove 2♦ 2♣"),
    ("arith.py", "                scores[s] += R[R_BONUS_POINTS]",
     "                scores[s] += R[R_BONUS_POINTS] if shooter < 0 else 0",
     "the bonus card counts in a moon hand"),
    ("arith.py", "    if shooter < 0:\n        for s in range(n):\n            scores[s] = points[points_at + s]",
     "    if True:\n        for s in range(n):\n            scores[s] = points[points_at + s]", "shooting the moon"),
    ("arith.py", "scores[s] = -value if s == shooter else 0", "scores[s] = 0 if s == shooter else value",
     "moon: subtract from the shooter"),
    ("game.py", "if max(self.totals) >= rules.target:", "if max(self.totals) > rules.target:", "reaching the target ends"),
    ("game.py", "if len(lowest) == 1 or rules.ties is TieRule.SHARE:", "if True:", "ties: play on"),
    ("game.py", "lowest = tuple(s for s, t in enumerate(self.totals) if t == low)",
     "lowest = tuple(s for s, t in enumerate(self.totals) if t == max(self.totals))", "the lowest total wins"),
    ("view.py", "received = hand.passed[source] if all_passed and not holding else None",
     "received = hand.passed[source] if not holding else None", "a pass is hidden until every seat has passed"),
    ("view.py", "hand_sizes=tuple(h.bit_count() for h in hand.hands),", "hand_sizes=tuple(h for h in hand.hands),",
     "a view holds no other seat's cards"),
    ("view.py", "            self.hearts_broken, [t.mask", "            False, [t.mask", "worlds match the view"),
    ("record.py", "        if h.totals != tuple(game.totals):\n", "        if False:\n", "records: totals checked"),
    ("record.py", "if hand.leader != t.leader:", "if False:", "records: trick leaders checked"),
]  # fmt: skip

TESTS = [
    "tests/test_cards.py", "tests/test_rules_options.py", "tests/test_play_rules.py", "tests/test_scoring.py",
    "tests/test_game.py", "tests/test_seed_questions.py", "tests/test_views.py", "tests/test_records.py",
    "tests/test_properties.py",
]  # fmt: skip


def run(indices: list[int]) -> int:
    survived = 0
    with tempfile.TemporaryDirectory(prefix="hearts-mutant-") as tmp:
        for i in indices:
            path, text, replacement, rule = MUTANTS[i]
            copy = Path(tmp) / f"m{i}"
            shutil.copytree(ROOT / "src", copy / "src")
            target = copy / "src" / "hearts" / "core" / path
            source = target.read_text(encoding="utf-8")
            if source.count(text) != 1:
                print(f"{i:2} {rule}: the code has changed; update the mutant")
                survived += 1
                continue
            target.write_text(source.replace(text, replacement), encoding="utf-8")
            env = dict(os.environ, PYTHONPATH=f"{copy / 'src'}{os.pathsep}{ROOT}")
            result = subprocess.run(
                [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *TESTS],
                cwd=ROOT, env=env, capture_output=True, text=True, check=False,
            )  # fmt: skip
            killed = result.returncode != 0
            survived += not killed
            summary = ([line for line in result.stdout.splitlines() if line.strip()] or ["?"])[-1]
            print(f"{i:2} {rule}: {'killed' if killed else 'SURVIVED'} ({summary})", flush=True)
    print(f"{len(indices) - survived} of {len(indices)} mutants killed")
    return 1 if survived else 0


if __name__ == "__main__":
    chosen = [int(a) for a in sys.argv[1:]] or list(range(len(MUTANTS)))
    sys.exit(run(chosen))
