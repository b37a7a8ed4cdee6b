"""Every player level: view-only, always legal under every rule option, deterministic for a seed,
within its time budget, and answering the moon choice."""

from __future__ import annotations

import dataclasses
import gc
import random
import time

import pytest

from hearts.core import (
    CARDS,
    Card,
    CardSet,
    ChooseMoon,
    Game,
    HandState,
    MoonOption,
    MoonScoring,
    PassCards,
    Phase,
    PlayCard,
    Rules,
    SeatView,
)
from hearts.players import LEVELS, Player, make_player
from hearts.players.base import play_game

#: Tiny budgets and world caps keep the search levels quick in tests.
FAST = {"time_budget": 0.01}
SEARCH_LEVELS = ("hard", "expert")
ALL_LEVELS = ("random", "easy", "medium", "hard", "expert", "learned")

VARIANTS: dict[str, Rules] = {
    "standard": Rules(),
    "three": Rules(players=3),
    "five": Rules(players=5),
    "six": Rules(players=6),
    "omnibus": Rules.preset("omnibus"),
    "omnibus-10d": Rules.preset("omnibus-10d", players=5),
    "britannica": Rules.preset("britannica"),
    "subtract-moon": Rules(moon=MoonScoring.SUBTRACT_FROM_SHOOTER),
    "no-moon": Rules(moon=MoonScoring.DISABLED, players=6),
    "pass-left": Rules.preset("pass-left", players=3),
    "no-passing": Rules.preset("no-passing"),
    "no-hold": Rules.preset("no-hold", players=6),
    "points-first": Rules(points_on_first_trick=True, pass_count=4),
    "house-queen": Rules(queen_breaks_hearts=True, heart_lead_with_only_queen=True),
    "hearts-free": Rules(hearts_must_be_broken=False, opening="any-club"),
    "short": Rules.preset("short", players=5),
}


def new_player(level: str, seed: int = 1) -> Player:
    if level in SEARCH_LEVELS:
        return make_player(level, seed=seed, time_budget=0.01, worlds=4)
    return make_player(level, seed=seed)


def test_registry_knows_every_level() -> None:
    assert set(ALL_LEVELS) <= set(LEVELS)
    for level in ALL_LEVELS:
        assert make_player(level, seed=0).name == level
    with pytest.raises(ValueError, match="unknown player level 'grandmaster'.*medium"):
        make_player("grandmaster")


def _reachable(root: object, limit: int = 20000) -> list[object]:
    """Every object reachable from ``root`` through references (bounded)."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack and len(seen) < limit:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, type):
            continue
        seen[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    return list(seen.values())


def test_view_holds_nothing_of_the_real_game() -> None:
    game = Game(Rules(), seed=4)
    view = game.view(2)
    reached = _reachable(view)
    assert not [o for o in reached if isinstance(o, (Game, HandState))]
    # Other seats' cards are nowhere in it: the view's own hand is the only hand mask.
    hidden = [game.hand.hands[s] for s in range(4) if s != 2]
    assert not [o for o in reached if isinstance(o, int) and o in hidden]


class Spy(Player):
    """Wraps a player and records the type of everything handed to it."""

    name = "spy"

    def __init__(self, inner: Player) -> None:
        super().__init__(seed=0)
        self.inner = inner
        self.given: list[type] = []

    def decide(self, view):  # type: ignore[no-untyped-def]
        self.given.append(type(view))
        return self.inner.decide(view)

    def choose_pass(self, view):  # type: ignore[no-untyped-def]
        raise AssertionError("unused")

    def choose_play(self, view):  # type: ignore[no-untyped-def]
        raise AssertionError("unused")


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_players_only_ever_get_a_seat_view_and_keep_no_game(level: str) -> None:
    game = Game(Rules(), seed=11)
    spies = [Spy(new_player(level, seed=s)) for s in range(4)]
    play_game(game, spies, hands=1)
    for spy in spies:
        assert spy.given and set(spy.given) == {SeatView}
        # After deciding, nothing the player keeps leads back to the real game.
        reached = _reachable(spy.inner)
        assert not [o for o in reached if o is game or o is game.hand or isinstance(o, Game)]


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_level_plays_legally_under_every_rule_option(variant: str) -> None:
    rules = VARIANTS[variant]
    rng = random.Random(variant)
    for hand_no, level in enumerate(ALL_LEVELS):
        # Mixed tables: each seat a different level, rotated per hand.
        game = Game(rules, seed=rng.randrange(10**6))
        players = [new_player(ALL_LEVELS[(hand_no + s) % len(ALL_LEVELS)], seed=s) for s in range(rules.players)]
        moves = 0
        while len(game.finished) < 1:
            for seat in game.to_move:
                view = game.view(seat)
                decision = players[seat].decide(view)
                assert decision.move.seat == seat
                assert isinstance(decision.reason, str) and decision.reason and "\n" not in decision.reason
                assert game.is_legal(decision.move), (level, variant, decision)
                game.apply(decision.move)
                moves += 1
                if game.phase is not Phase.PASS:
                    break
        assert game.finished[0].scores is not None
        assert moves >= rules.hand_size * rules.players


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_same_view_and_seed_give_the_same_move(level: str) -> None:
    game = Game(Rules(), seed=21)
    rng = random.Random(3)
    views: list[SeatView] = []
    for _ in range(30):  # collect pass views and play views along a random game
        for seat in game.to_move:
            views.append(game.view(seat))
        if game.phase is Phase.PASS:
            for seat in game.to_move:
                game.pass_cards(seat, rng.sample(list(game.view(seat).hand), 3))
        else:
            game.play(rng.choice(game.legal_plays()))
    picked = views[:2] + views[-6:]
    for view in picked:
        one = (
            make_player(level, seed=5, worlds=6, time_budget=5.0)
            if level in SEARCH_LEVELS
            else make_player(level, seed=5)
        )
        two = (
            make_player(level, seed=5, worlds=6, time_budget=5.0)
            if level in SEARCH_LEVELS
            else make_player(level, seed=5)
        )
        first = one.decide(view)
        two.decide(views[0])  # a different history must not change the answer
        assert two.decide(view).move == first.move
        assert one.decide(view).move == first.move


@pytest.mark.parametrize("level,budget", [("hard", 0.05), ("expert", 0.08)])
def test_search_respects_its_time_budget(level: str, budget: float) -> None:
    game = Game(Rules(), seed=8)
    player = make_player(level, seed=1, time_budget=budget)
    rng = random.Random(8)
    worst = 0.0
    searched = decisions = 0
    while decisions < 8 and not game.finished:
        seat = game.to_move[0]
        view = game.view(seat)
        if game.phase is Phase.PASS or len(view.legal) > 1:
            start = time.process_time()  # CPU time: what the search spends, not the other processes' share of a busy machine
            move = player.decide(view).move
            worst = max(worst, time.process_time() - start)
            searched = max(searched, player.last.worlds if player.last else 0)  # type: ignore[attr-defined]
            decisions += 1
        else:
            move = PlayCard(seat, view.legal[0])
        if game.phase is Phase.PASS:
            game.apply(move)
            for other in game.to_move:
                game.pass_cards(other, rng.sample(list(game.view(other).hand), 3))
        else:
            game.apply(move)
    # Budget plus one world's rollouts and a margin.
    assert worst <= budget * 1.5 + 0.05, worst
    assert searched >= 2  # it did search, not just fall back


def test_default_budgets_are_the_documented_ones() -> None:
    assert make_player("hard").config.budget == 0.3  # type: ignore[attr-defined]
    assert make_player("expert").config.budget == 1.0  # type: ignore[attr-defined]
    assert make_player("hard", time_budget=0.1).config.budget == 0.1  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="budget must be positive seconds, not 0"):
        make_player("hard", time_budget=0)


@pytest.mark.parametrize("level", ALL_LEVELS)
def test_moon_choice_is_answered_sensibly(level: str) -> None:
    rules = Rules.preset("britannica")
    view = Game(rules, seed=1).view(0)
    asking = dataclasses.replace(view, phase=Phase.MOON_CHOICE, to_move=(0,), moon_options=tuple(MoonOption))
    player = new_player(level)
    # Early in the game: adding 26 to everyone else is better.
    decision = player.decide(asking)
    assert decision.move == ChooseMoon(0, MoonOption.ADD_TO_OTHERS)
    # Adding 26 would end the game with a rival lower: subtract instead.
    late = dataclasses.replace(asking, totals=(95, 50, 60, 80))
    assert player.decide(late).move == ChooseMoon(0, MoonOption.SUBTRACT_FROM_SELF)


def test_decide_refuses_a_view_that_asks_nothing() -> None:
    game = Game(Rules.preset("no-passing"), seed=2)
    idle = next(s for s in range(4) if s not in game.to_move)
    with pytest.raises(ValueError, match="no decision"):
        make_player("medium").decide(game.view(idle))


def test_pass_is_the_right_size_for_every_level() -> None:
    rules = Rules(pass_count=4, players=5)
    game = Game(rules, seed=9)
    for level in ALL_LEVELS:
        move = new_player(level).decide(game.view(1)).move
        assert isinstance(move, PassCards) and len(move.cards) == 4
        assert game.is_legal(move)


def test_search_dumps_the_queen_when_void() -> None:
    from hearts.core import CardSet

    state = HandState(
        Rules.preset("no-passing"),
        [
            CardSet.parse(h).mask
            for h in (
                "2C 3C 2D 3D 4D 5D 6D 7D 8D 2S 3S 2H 3H",
                "4C 5C 6C 7C 8C 9C QS 4H 5H 6H 7H 8H 9H",
                "10C JC QC KC 9D 10D JD QD 4S 5S 6S 7S 10H",
                "AC KD AD 8S 9S 10S JS KS AS JH QH KH AH",
            )
        ],
    )
    for card in "2C 9C KC AC KD 8D".split():
        state.play(card)
    view = SeatView.of_hand(state, 1)
    for level in SEARCH_LEVELS:
        decision = make_player(level, seed=3, worlds=30, time_budget=5.0).decide(view)
        assert decision.move == PlayCard(1, CARDS[36]), decision.reason


def test_expert_searches_its_pass() -> None:
    game = Game(Rules(), seed=17)
    player = make_player("expert", seed=1, worlds=6, time_budget=5.0)
    decision = player.decide(game.view(0))
    assert isinstance(decision.move, PassCards) and game.is_legal(decision.move)
    assert "6 deals" in decision.reason
    assert player.last.rollouts >= 6  # type: ignore[attr-defined]


def test_search_utility_values_placing_near_the_end() -> None:
    import numpy as np

    from hearts.players.rollouts import utilities

    def utility(view: SeatView, scores: tuple[int, ...], endgame: bool) -> float:
        return float(utilities(view, np.array(scores, dtype=np.int64), endgame))

    view = Game(Rules(), seed=1).view(0)
    # Mid-game, only points count: 2 points against the others' 8 is better than 5 against 7.
    assert utility(view, (2, 8, 8, 8), False) > utility(view, (5, 7, 7, 7), False)
    late = dataclasses.replace(view, totals=(85, 80, 95, 95))
    # Near the end: taking 0 while a rival ends the game below me is worse than taking 4 and winning.
    lose = (0, 0, 13, 13)  # the game ends (95 + 13) with seat 1 lowest at 80
    win = (4, 26, 6, 0)  # the game ends with seat 0 lowest at 89
    assert utility(late, win, True) > utility(late, lose, True)
    assert utility(late, lose, False) > utility(late, win, False)
    # A win shared by a tie is worth less than a win alone.
    scores = (0, 0, 26, 26)
    alone = dataclasses.replace(view, totals=(80, 85, 95, 95))
    tied = dataclasses.replace(view, totals=(80, 80, 95, 95))
    assert utility(alone, scores, True) == utility(tied, scores, True) + 20  # half of the win's 40


def test_search_runs_compiled_with_the_jit_off_too() -> None:
    """One search path: with numba's jit switched off (for debugging) the same kernels run as
    plain Python and a search still decides legal cards."""
    import os
    import subprocess
    import sys

    code = (
        "from hearts.core import Game, Rules\n"
        "from hearts.players import make_player\n"
        "from hearts.fast import JIT_ENABLED\n"
        "p = make_player('hard', seed=1, worlds=2, time_budget=30.0)\n"
        "assert not JIT_ENABLED\n"
        "g = Game(Rules.preset('no-passing'), seed=2)\n"
        "for _ in range(3):\n"
        "    g.apply(p.decide(g.view(g.to_move[0])).move)\n"
        "print('rollouts', p.last.rollouts)\n"
    )
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("rollouts")
    with pytest.raises(ValueError, match="rollout must be one of medium, medium-moon, not 'python'"):
        make_player("hard", rollout="python")


# -- player specs: NAME=, cmd:, py:MODULE:FACTORY --------------------------------------------------------------


def test_player_specs_are_read_in_one_place() -> None:
    from hearts.players.registry import PlayerSpec, parse_player

    assert parse_player(" Medium ") == PlayerSpec("level", "medium")
    assert parse_player("cmd:python3 bot.py --depth=3") == PlayerSpec("cmd", "python3 bot.py --depth=3")
    assert parse_player("ann=cmd:./bot a,b") == PlayerSpec("cmd", "./bot a,b", "ann")
    assert parse_player("nn=py:pkg.mod:load").label == "nn"
    assert parse_player("py:path/to/p.py:make").target == "path/to/p.py:make"
    # Shown by the module's last name, not its path.
    assert parse_player("py:path/to/p.py:make").label == "py:p:make"
    assert parse_player("py:pkg.mod:load").label == "py:mod:load"
    assert parse_player("fast=easy").label == "fast"
    for bad, words in [
        ("cmd:", "names no command"),
        ("py:justamodule", "not py:MODULE:FACTORY"),
        ("py:mod:not-a-name", "not py:MODULE:FACTORY"),
        ("my bot=easy", "bad player name 'my bot'"),
        ("x=grandmaster", "unknown player level 'grandmaster'"),
    ]:
        with pytest.raises(ValueError, match=words):
            parse_player(bad)


def test_a_decide_that_returns_a_bare_card_says_what_to_return() -> None:
    from hearts.players.base import Decision

    class Bare(Player):
        def choose_pass(self, view: SeatView) -> tuple[CardSet, str]:
            return CardSet(list(view.hand)[:3]), "first three"

        def choose_play(self, view: SeatView) -> tuple[Card, str]:
            return view.legal[0], "lowest"

        def decide(self, view: SeatView) -> Decision:
            if view.phase is Phase.PLAY:
                return view.legal[0]  # type: ignore[return-value]  # the mistake under test
            return super().decide(view)

    game = Game(Rules.preset("no-passing"), seed=2)
    view = game.view(game.to_move[0])
    with pytest.raises(TypeError, match=r"Bare\.decide returned \S+ \(a Card\), not a Decision: .*Decision\(PlayCard\(view\.seat, card\)"):
        Bare().decide(view)
    assert game.view(game.to_move[0]) == view  # nothing was played

    class Good(Bare):
        def decide(self, view: SeatView) -> Decision:
            return Player.decide(self, view)

    assert isinstance(Good().decide(view), Decision)


def _policy_module(tmp_path: object) -> str:
    from pathlib import Path

    path = Path(str(tmp_path)) / "lowest_policy.py"
    path.write_text(
        "from hearts.core import PlayCard, PassCards\n"
        "from hearts.players import make_player\n"
        "CALLS = []\n"
        "def lowest(view):\n"
        "    if view.legal:\n"
        "        return PlayCard(view.seat, view.legal[0])\n"
        "    return PassCards(view.seat, list(view.hand)[: view.rules.pass_count])\n"
        "def factory():\n"
        "    return lowest\n"
        "def player(seed=None, time_budget=None):\n"
        "    CALLS.append((seed, time_budget))\n"
        "    return make_player('easy', seed=seed)\n"
        "def broken():\n"
        "    return 42\n"
    )
    return str(path)


def test_py_players_come_from_a_factory_returning_a_player_or_a_function(tmp_path: object) -> None:
    path = _policy_module(tmp_path)
    game = Game(Rules(), seed=5)
    function_player = make_player(f"py:{path}:factory", seed=1)
    assert function_player.name == "py:lowest_policy:factory"
    level_player = make_player(f"mine=py:{path}:player", seed=9, time_budget=0.5)
    assert level_player.name == "mine"
    import sys

    module = next(m for k, m in sys.modules.items() if k.startswith("hearts_py_player_") and hasattr(m, "CALLS"))
    assert module.CALLS[-1] == (9, 0.5)  # the factory gets the seed and budget it asks for
    play_game(game, [function_player, level_player, make_player("random", seed=2), make_player("random", seed=3)])
    assert game.is_over
    with pytest.raises(ValueError, match="returned int, not a Player or a callable"):
        make_player(f"py:{path}:broken")
    with pytest.raises(ValueError, match="has no callable 'missing'"):
        make_player(f"py:{path}:missing")
    with pytest.raises(ValueError, match="cannot import 'no_such_module_here'"):
        make_player("py:no_such_module_here:make")


def test_a_function_player_answering_something_else_than_a_move_is_an_error(tmp_path: object) -> None:
    from hearts.players.registry import CallablePlayer

    player = CallablePlayer(lambda view: "2C", "silly")
    game = Game(Rules.preset("no-passing"), seed=2)
    with pytest.raises(TypeError, match="silly returned str, not a move"):
        player.decide(game.view(game.to_move[0]))
