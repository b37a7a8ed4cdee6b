"""The compiled core against the rules engine, move for move, for every rule option.

Every kernel-played hand is replayed through hearts.core.HandState (which raises on an
illegal pass or card) and every legal set, trick winner and score is compared. The same
checks run once more with numba's JIT off and once with numba absent, in subprocesses.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from hearts.core import CardSet, HandState, MoonOption, MoonScoring, OpeningLead, Phase, Rules, cards_of
from hearts.fast import kernels as k
from hearts.fast import rollout, rules_array, state_array
from hearts.fast import verify as fv

VARIANTS: dict[str, Rules] = {
    "standard": Rules(),
    "3 players": Rules(players=3),
    "5 players": Rules(players=5),
    "6 players": Rules(players=6),
    "3 players without 2C": Rules(players=3, removed=("2C",)),
    "4 players without 2C 3C 2D 3D": Rules(removed=("2C", "3C", "2D", "3D")),
    "opening any club": Rules(opening=OpeningLead.ANY_CLUB),
    "points on the first trick": Rules(points_on_first_trick=True),
    "hearts need not be broken": Rules(hearts_must_be_broken=False),
    "Q♠ breaks hearts": Rules(queen_breaks_hearts=True),
    "heart lead with only Q♠": Rules(heart_lead_with_only_queen=True),
    "heart 2, queen 10": Rules(heart_points=2, queen_points=10),
    "hearts score nothing": Rules(heart_points=0),
    "bonus J♦": Rules.preset("omnibus"),
    "bonus 10♦ at -5": Rules(bonus_card="10D", bonus_points=-5),
    "moon adds to others": Rules(moon=MoonScoring.ADD_TO_OTHERS),
    "moon shooter chooses": Rules(moon=MoonScoring.SHOOTER_CHOOSES),
    "moon subtracts": Rules(moon=MoonScoring.SUBTRACT_FROM_SHOOTER),
    "moon disabled": Rules(moon=MoonScoring.DISABLED),
    "pass left": Rules.preset("pass-left"),
    "no hold": Rules.preset("no-hold"),
    "no passing": Rules.preset("no-passing"),
    "custom cycle, pass 4": Rules(pass_cycle=("right", "across", "hold", "right"), pass_count=4),
    "5 players no hold": Rules.preset("no-hold", players=5),
    "6 players across": Rules(players=6, pass_cycle=("across",)),
    "mixed house rules": Rules(
        players=5,
        opening=OpeningLead.ANY_CLUB,
        points_on_first_trick=True,
        hearts_must_be_broken=False,
        queen_breaks_hearts=True,
        heart_lead_with_only_queen=True,
        bonus_card="JD",
        moon=MoonScoring.SUBTRACT_FROM_SHOOTER,
    ),
}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_kernel_hands_replay_in_the_engine(name: str) -> None:
    rules = VARIANTS[name]
    plays = fv.verify_hands(rules, 24, seed=100, policy="random")
    plays += fv.verify_hands(rules, 24, seed=200, policy="greedy", moon_choice=MoonOption.SUBTRACT_FROM_SELF)
    plays += fv.verify_hands(rules, 12, seed=300, policy="moon")
    plays += fv.verify_hands(rules, 12, seed=400, policy="medium")
    assert plays == 72 * rules.hand_size * rules.players


@pytest.mark.parametrize("name", list(VARIANTS))
def test_step_by_step_rollouts_and_legal_sets_match_the_engine(name: str) -> None:
    rules = VARIANTS[name]
    assert fv.verify_steps(rules, 12, seed=7) == 12 * rules.hand_size * rules.players
    assert fv.verify_rollouts(rules, 12, seed=8) > 0
    assert fv.verify_legal_fuzz(rules, 600, seed=9) == 600


def test_the_verifier_catches_a_kernel_that_breaks_a_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    # Feed the kernel the wrong first-trick rule: the replay must notice.
    def wrong(rules: Rules) -> np.ndarray:
        R = rules_array(rules)
        R[k.R_POINTS_FIRST_TRICK] = 1 - R[k.R_POINTS_FIRST_TRICK]
        return R

    monkeypatch.setattr(fv, "rules_array", wrong)
    with pytest.raises(fv.FastCoreMismatch, match="engine allows"):
        fv.verify_hands(Rules(), 60, seed=1)
    with pytest.raises(fv.FastCoreMismatch, match="first-trick|engine"):
        fv.verify_legal_fuzz(Rules(), 400, seed=1)


def _hold_hand(rules: Rules) -> int:
    """The number of the cycle's hold hand, so that play starts at once."""
    assert rules.pass_cycle is not None
    return [d.value for d in rules.pass_cycle].index("hold")


def _moon_deal(rules: Rules) -> list[int]:
    """Seat 0 holds the top cards of every suit (A♠ K♠ Q♠ among them), so it takes every trick."""
    in_play = rules.in_play
    by_suit = [[c for c in range(s * 13 + 12, s * 13 - 1, -1) if in_play >> c & 1] for s in range(4)]
    mine = [by_suit[2].pop(0) for _ in range(3)]  # A♠ K♠ Q♠
    suit = 0
    while len(mine) < rules.hand_size:
        if by_suit[suit]:
            mine.append(by_suit[suit].pop(0))
        suit = (suit + 1) % 4
    rest = [c for c in cards_of(in_play) if c not in mine]
    hands = [sum(1 << c for c in mine)] + [0] * (rules.players - 1)
    for i, c in enumerate(rest):
        hands[1 + i % (rules.players - 1)] |= 1 << c
    return hands


@pytest.mark.parametrize(
    "rules, option, expected",
    [
        (Rules(), MoonOption.ADD_TO_OTHERS, [0, 26, 26, 26]),
        (Rules(moon=MoonScoring.SUBTRACT_FROM_SHOOTER), MoonOption.ADD_TO_OTHERS, [-26, 0, 0, 0]),
        (Rules(moon=MoonScoring.SHOOTER_CHOOSES), MoonOption.SUBTRACT_FROM_SELF, [-26, 0, 0, 0]),
        (Rules(moon=MoonScoring.SHOOTER_CHOOSES), MoonOption.ADD_TO_OTHERS, [0, 26, 26, 26]),
        (Rules(moon=MoonScoring.DISABLED), MoonOption.ADD_TO_OTHERS, [26, 0, 0, 0]),
        (Rules.preset("omnibus", players=3), MoonOption.ADD_TO_OTHERS, [-10, 26, 26]),
        (Rules(players=6, heart_points=2, queen_points=10), MoonOption.ADD_TO_OTHERS, [0, 36, 36, 36, 36, 36]),
    ],
)
def test_a_certain_moon_is_scored_as_the_engine_scores_it(
    rules: Rules, option: MoonOption, expected: list[int]
) -> None:
    hand = HandState(rules, _moon_deal(rules), _hold_hand(rules))
    assert hand.phase is Phase.PLAY
    R = rules_array(rules)
    choice = k.CHOICE_ADD_TO_OTHERS if option is MoonOption.ADD_TO_OTHERS else k.CHOICE_SUBTRACT_FROM_SELF
    for policy in (k.POLICY_RANDOM, k.POLICY_GREEDY):
        trace = np.zeros(k.TRACE_SIZE, dtype=np.int64)
        result = k.play_out_traced(state_array(hand), R, np.full(rules.players, policy), 0.1, 5, choice, trace)
        expected_shooter = -1 if rules.moon is MoonScoring.DISABLED else 0
        assert result[: rules.players].tolist() == expected and result[k.MAX_PLAYERS] == expected_shooter
        fv._replay_plays(rules, hand.copy(), trace, result, option, 0, "moon deal")
    means = rollout(hand, hand.turn, "random", 50, seed=3, moon_choice=option)
    assert means.tolist() == [float(x) for x in expected]


def test_lead_exceptions_are_the_engines() -> None:
    # A leader with only hearts and Q♠ before hearts break: Q♠ only, unless the house rule lets a heart go.
    hand = HandState(Rules(), _moon_deal(Rules()), _hold_hand(Rules()))
    for flag, expected in ((False, "QS"), (True, "QS 2H 5H")):
        rules = Rules(heart_lead_with_only_queen=flag)
        state = state_array(hand)
        state[k.S_HANDS + state[k.S_TURN]] = CardSet.parse("QS 2H 5H").mask
        state[k.S_TRICKS_DONE] = 3
        assert CardSet(int(k.legal_mask(state, rules_array(rules)))) == CardSet.parse(expected)


def test_rules_array_maps_every_option() -> None:
    rules = Rules(
        players=5, opening=OpeningLead.ANY_CLUB, points_on_first_trick=True, hearts_must_be_broken=False,
        queen_breaks_hearts=True, heart_lead_with_only_queen=True, heart_points=2, queen_points=9,
        bonus_card="10D", bonus_points=-7, moon=MoonScoring.DISABLED, pass_count=2, target=60, ties="play-on",
        pass_cycle=("right", "hold"),
    )  # fmt: skip
    R = rules_array(rules)
    assert R.dtype == np.int64 and len(R) == k.RULES_BASE_SIZE + 2
    assert (R[k.R_PLAYERS], R[k.R_HAND_SIZE], R[k.R_OPENING_CARD], R[k.R_OPEN_ANY_CLUB]) == (5, 10, 1, 1)
    assert (R[k.R_POINTS_FIRST_TRICK], R[k.R_BROKEN_AT_START], R[k.R_HEART_LEAD_ONLY_QUEEN]) == (1, 1, 1)
    assert R[k.R_BREAKERS] == k.HEARTS | k.QS_BIT and R[k.R_PENALTY] == rules.penalty_mask
    assert (R[k.R_HEART_POINTS], R[k.R_QUEEN_POINTS], R[k.R_MOON_POINTS]) == (2, 9, 35)
    assert (R[k.R_BONUS_CARD], R[k.R_BONUS_POINTS], R[k.R_MOON]) == (21, -7, k.MOON_DISABLED)
    assert (R[k.R_PASS_COUNT], R[k.R_TARGET], R[k.R_TIES_PLAY_ON]) == (2, 60, 1)
    assert (R[k.R_CYCLE_LEN], R[k.R_CYCLE], R[k.R_CYCLE + 1]) == (2, 4, 0)
    assert R[k.R_IN_PLAY] == rules.in_play


def test_rollout_from_a_seat_view_world() -> None:
    from hearts.core import Game

    game = Game(Rules.preset("no-passing"), seed=11)
    for _ in range(6):
        game.play(game.legal_plays()[-1])
    hand = game.hand
    view = game.view(hand.turn)
    world = view.world(hand.hands)
    means = rollout(world, hand.turn, "greedy", 200, seed=4)
    assert means.shape == (4,) and 26 <= means.sum() <= 78  # 26 a hand; a moon hands out 3 x 26
    assert np.array_equal(means, rollout(world, hand.turn, "greedy", 200, seed=4))  # seeded
    assert not np.array_equal(means, rollout(world, hand.turn, "greedy", 200, seed=5))
    # One rollout is exactly the traced play-out that the engine replays card for card.
    one = rollout(world, hand.turn, "random", 1, seed=6)
    trace = np.zeros(k.TRACE_SIZE, dtype=np.int64)
    result = k.play_out_traced(state_array(world), rules_array(world.rules), np.zeros(4, np.int64), 0.1, 6, 0, trace)
    assert one.tolist() == [float(x) for x in result[:4]]
    start = len(world.tricks) * 4 + len(world.trick)
    assert fv._replay_plays(world.rules, world.copy(), trace, result, MoonOption.ADD_TO_OTHERS, start, "world") > 0


def test_bad_input_is_refused_with_a_reason() -> None:
    import random

    from hearts.fast import simulate

    hand = HandState.deal(Rules(), random.Random(1), 0)  # a passing hand
    with pytest.raises(ValueError, match="play phase"):
        state_array(hand)
    with pytest.raises(ValueError, match="unknown policy 'clever'"):
        simulate(Rules(), 10, "clever")
    with pytest.raises(ValueError, match="3 policies for 4 seats"):
        simulate(Rules(), 10, ["random"] * 3)
    with pytest.raises(ValueError, match="seed"):
        simulate(Rules(), 10, seed=-1)
    with pytest.raises(ValueError, match="hands"):
        simulate(Rules(), -5)
    held = HandState(Rules(), _moon_deal(Rules()), _hold_hand(Rules()))
    with pytest.raises(ValueError, match=f"seat {held.turn} is to play"):
        rollout(held, (held.turn + 1) % 4)


_SUBPROCESS_CHECK = """
import json, sys
from hearts.core import Rules, MoonScoring, OpeningLead
import hearts.fast as fast
from hearts.fast.verify import verify_rules
variants = [Rules(), Rules(players=3), Rules(players=6, opening=OpeningLead.ANY_CLUB),
            Rules.preset("omnibus", moon=MoonScoring.SHOOTER_CHOOSES, queen_breaks_hearts=True),
            Rules(players=5, points_on_first_trick=True, hearts_must_be_broken=False, heart_lead_with_only_queen=True)]
checked = sum(verify_rules(r, hands=6, seed=3) for r in variants)
res = fast.simulate(Rules(), 30, "greedy", seed=2)
print(json.dumps({"jit": fast.JIT_ENABLED, "checked": checked,
                  "scores": res.scores.tolist()}))
"""


def _run_check(env: dict[str, str], prefix: str = "") -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, "-c", prefix + _SUBPROCESS_CHECK], env={**os.environ, **env},
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def _compiled_scores() -> list[list[int]]:
    from hearts.fast import JIT_ENABLED, simulate

    assert JIT_ENABLED, "this session should run the compiled kernels"
    scores = simulate(Rules(), 30, "greedy", seed=2).scores
    assert set(scores.sum(axis=1).tolist()) <= {26, 78}  # 26 points a hand, 3 x 26 after a moon
    return scores.tolist()


def test_the_same_checks_pass_with_the_jit_off() -> None:
    got = _run_check({"NUMBA_DISABLE_JIT": "1"})
    assert got["jit"] is False
    assert isinstance(got["checked"], int) and got["checked"] > 1000
    # The generator (hearts.fast.rng) has a Python body for this mode: the same seed plays the same hands.
    assert got["scores"] == _compiled_scores()


GAME_VARIANTS = {
    "standard to 30": Rules(target=30),
    "britannica to 40": Rules.preset("britannica", target=40),
    "ties play on, to 20": Rules(target=20, ties="play-on"),
    "3 players, omnibus": Rules.preset("omnibus", players=3, target=50),
    "6 players, moon subtracts": Rules(players=6, moon=MoonScoring.SUBTRACT_FROM_SHOOTER, target=25),
}


@pytest.mark.parametrize("name", list(GAME_VARIANTS))
def test_kernel_games_replay_through_game(name: str) -> None:
    rules = GAME_VARIANTS[name]
    assert fv.verify_games(rules, 150, seed=31) == 150 * rules.hand_size * rules.players


def test_tied_game_ends_play_on_or_share_as_the_engine_says() -> None:
    # Replayed above; here, make sure the tie path really happens in what is replayed.
    for ties in ("play-on", "share"):
        rules = Rules(target=20, ties=ties)
        R = rules_array(rules)
        carry = np.zeros(6, dtype=np.int64)  # hand number, generator, four totals
        scores, _, ends = k.simulate_games(
            R, 400, np.zeros(4, np.int64), 0.1, 31, k.CHOICE_BEST, carry, np.zeros((0, k.TRACE_SIZE), np.int64)
        )
        totals, tied_over = np.zeros(4, np.int64), 0
        for h in range(400):
            totals += scores[h]
            if totals.max() >= 20 and (totals == totals.min()).sum() > 1:
                tied_over += 1
                assert (ends[h] == 0) == (ties == "play-on")
            if ends[h]:
                totals[:] = 0
        assert tied_over > 0
        assert fv.verify_games(rules, 400, seed=31) > 0


def test_the_kernels_moon_answer_is_the_players_rule() -> None:
    import random

    from hearts.players.knowledge import best_moon_option

    rng = random.Random(2)
    seen = set()
    for _ in range(3000):
        rules = Rules.preset("britannica", players=rng.randint(3, 6), target=rng.choice([50, 100]))
        totals = [rng.randint(-30, rules.target + 10) for _ in range(rules.players)]
        shooter = rng.randrange(rules.players)
        want = best_moon_option(rules, totals, shooter)
        got = k.best_moon_choice(rules_array(rules), np.array(totals, dtype=np.int64), shooter)
        assert got == (k.CHOICE_ADD_TO_OTHERS if want is MoonOption.ADD_TO_OTHERS else k.CHOICE_SUBTRACT_FROM_SELF), (
            totals,
            shooter,
        )
        seen.add(want)
    assert seen == set(MoonOption)


def test_games_in_chunks_are_the_same_games() -> None:
    from hearts.fast import simulate_games

    whole = simulate_games(Rules.preset("short"), 500, "greedy", seed=9)
    chunked = simulate_games(Rules.preset("short"), 500, "greedy", seed=9, chunk=37)
    assert np.array_equal(whole.scores, chunked.scores) and np.array_equal(whole.ends, chunked.ends)
    assert whole.games == whole.games_finished + (whole.ends[-1] == 0)
    assert sum(whole.wins()) == pytest.approx(whole.games_finished)
    assert whole.games_finished > 10


def test_the_kernels_cache_is_keyed_on_every_source_they_are_compiled_from(tmp_path: Path) -> None:
    """numba's own cache check reads only the file of the function it compiled; a kernel that
    inlines the shared rules (hearts.core.arith) or another module's policy would be served stale
    after a change there. The cache folder is named by a hash of all those sources instead."""
    import shutil

    from hearts.fast import _jit
    from hearts.fast import kernels as k

    assert _jit.SOURCE_HASH in _jit.CACHE_DIR
    for kernel in (k.play_out_to, k.search_worlds, k.medium_card, k.play_log_likelihoods):
        assert kernel._cache._cache_path.startswith(_jit.CACHE_DIR)
    src = Path(_jit.__file__).resolve().parents[2]
    copy = tmp_path / "src"
    shutil.copytree(src / "hearts", copy / "hearts", ignore=shutil.ignore_patterns("__pycache__"))
    code = "from hearts.fast import _jit; print(_jit.SOURCE_HASH)"
    env = {**os.environ, "PYTHONPATH": str(copy), "NUMBA_CACHE_DIR": str(tmp_path / "cache")}

    def source_hash() -> str:
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()

    assert source_hash() == _jit.SOURCE_HASH  # the same sources: the same cache
    arith = copy / "hearts" / "core" / "arith.py"
    arith.write_text(arith.read_text().replace("return follow", "return follow  # edited"))
    edited = source_hash()
    assert edited != _jit.SOURCE_HASH  # a change to the shared rules: a fresh cache
    policies = copy / "hearts" / "fast" / "policies.py"
    policies.write_text(policies.read_text() + "\n# edited\n")
    assert source_hash() not in (edited, _jit.SOURCE_HASH)
