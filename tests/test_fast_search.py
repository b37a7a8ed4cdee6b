"""The compiled rollouts of the search players: legal to the engine, and the greedy policy card for card."""

from __future__ import annotations

import random

import numpy as np
import pytest

from hearts.core import CardSet, Game, HandState, Phase, Rules
from hearts.core.cards import cards_of
from hearts.core.hand import deal_cards
from hearts.fast import kernels as k
from hearts.fast import rules_array, state_array
from hearts.players.search import SearchPlayer
from hearts.players.search_config import EXPERT, HARD


def midgame_world(rules: Rules, seed: int, cards: int) -> HandState:
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    while game.phase is Phase.PASS:
        for s in game.to_move:
            game.pass_cards(s, rng.sample(list(game.view(s).hand), rules.pass_count))
    for _ in range(cards):
        game.play(rng.choice(game.legal_plays()))
    view = game.view(game.hand.turn)
    return view.world(game.hand.hands)


@pytest.mark.parametrize("rules", [Rules(), Rules.preset("britannica", players=3), Rules.preset("omnibus", players=6)])
def test_a_compiled_rollout_plays_legal_cards_to_the_engines_end_of_hand(rules: Rules) -> None:
    n, last = rules.players, rules.hand_size - 1
    for seed, cards in enumerate([0, 3, 7, 12, 15, (last - 1) * n + 1, last * n, last * n + 2]):
        world = midgame_world(rules, seed, cards=cards)
        for shooters in (0, 1 << world.turn):
            # The kernel's cards through the engine's checked play() (which refuses an illegal card).
            checked = world.copy()
            trace = np.zeros(k.TRACE_SIZE, dtype=np.int64)
            pol = np.array([k.POLICY_MOON if shooters >> s & 1 else k.POLICY_GREEDY for s in range(rules.players)])
            row = k.play_out_traced(
                state_array(world), rules_array(rules), pol, 0.1, random.Random(seed).getrandbits(31), 0, trace
            )
            start = len(world.tricks) * rules.players + len(world.trick)
            for i in range(start, rules.hand_size * rules.players):
                checked.play(int(trace[k.TRACE_PLAYS + 2 * i + 1]))
            assert checked.phase in (Phase.HAND_OVER, Phase.MOON_CHOICE)
            assert len(checked.tricks) == rules.hand_size and not any(checked.hands)
            assert int(row[k.MAX_PLAYERS]) == (-1 if checked.shooter is None else checked.shooter)
            if checked.phase is Phase.HAND_OVER:
                assert tuple(int(x) for x in row[:n]) == checked.scores


@pytest.mark.parametrize("rules", [Rules(), Rules.preset("britannica", target=60), Rules.preset("omnibus", players=5)])
def test_rollout_candidates_scores_each_card_as_the_engine_would(rules: Rules) -> None:
    from hearts.fast import rollout_candidates
    from hearts.players.knowledge import best_moon_option

    totals = [50, 5, 20, 40, 0][: rules.players]
    for seed in range(5):
        world = midgame_world(rules, seed, cards=2 + seed * 4)
        cards = [int(c) for c in world.legal_plays()]
        plans = [0, 1 << world.turn]
        got = rollout_candidates(world, cards, plans, seed=seed, totals=totals)
        assert got.shape == (2, len(cards), rules.players)
        for p, plan in enumerate(plans):
            pol = np.array([k.POLICY_MOON if plan >> s & 1 else k.POLICY_GREEDY for s in range(rules.players)])
            for i, card in enumerate(cards):
                hand = world.copy()
                hand.play(card)
                trace = np.zeros(k.TRACE_SIZE, dtype=np.int64)
                k.play_out_traced(state_array(hand), rules_array(rules), pol, 0.1, seed, 0, trace)
                for j in range(len(hand.tricks) * rules.players + len(hand.trick), rules.hand_size * rules.players):
                    hand.play(int(trace[k.TRACE_PLAYS + 2 * j + 1]))  # checked: refuses an illegal card
                if hand.phase is Phase.MOON_CHOICE:
                    assert hand.shooter is not None
                    hand.choose_moon(hand.shooter, best_moon_option(rules, totals, hand.shooter))
                assert hand.scores == tuple(got[p, i].tolist())


def test_rollout_candidates_refuses_an_illegal_candidate() -> None:
    from hearts.fast import rollout_candidates

    world = midgame_world(Rules(), 1, cards=5)
    illegal = next(c for c in range(52) if not world.legal_mask() >> c & 1)
    with pytest.raises(ValueError, match=f"candidate {illegal} is not a legal card"):
        rollout_candidates(world, [illegal])


class _SplitMix:
    """The ``random()`` stream of the kernels' generator (:mod:`hearts.fast.rng`) seeded with
    ``seed``, in Python: SplitMix64's words, 53 bits each made a float."""

    def __init__(self, seed: int) -> None:
        self._state = seed & (2**64 - 1)

    def random(self) -> float:
        mask = 2**64 - 1
        self._state = s = (self._state + 0x9E3779B97F4A7C15) & mask
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return ((z ^ (z >> 31)) >> 11) / 2**53


@pytest.mark.parametrize("rules", [Rules(), Rules.preset("omnibus"), Rules.preset("britannica", players=3)])
def test_the_compiled_greedy_policy_is_the_search_rollout_policy(rules: Rules) -> None:
    """Without random cards (epsilon 0) both policies draw random numbers only for the lead's
    tie-break, from the same stream: so they must play every hand card for card alike, moon
    runner and defenders included."""
    from greedy_reference import make_greedy_rollout  # pytest puts tests/ on the path

    python_rollout = make_greedy_rollout(0.0)
    R = rules_array(rules)
    n = rules.players
    checked = 0
    for seed in range(24):
        world = midgame_world(rules, seed, cards=(seed * 3) % (rules.hand_size * n - n))
        for shooters in (0, 1 << world.turn, 1 << ((world.turn + 1) % n)):
            played = world.copy()
            python_rollout(played, _SplitMix(seed), shooters)  # type: ignore[arg-type]
            pol = np.array([k.POLICY_MOON if shooters >> s & 1 else k.POLICY_GREEDY for s in range(n)])
            trace = np.zeros(k.TRACE_SIZE, dtype=np.int64)
            k.play_out_traced(state_array(world), R, pol, 0.0, seed, 0, trace)
            start = len(world.tricks) * n + len(world.trick)
            compiled = [int(trace[k.TRACE_PLAYS + 2 * i + 1]) for i in range(start, rules.hand_size * n)]
            python = [int(c) for t in played.tricks for c in t.cards][start:]
            assert compiled == python, (seed, shooters)
            checked += len(python)
    assert checked > 500


def test_the_rollout_policy_names_are_the_kernels_policies() -> None:
    from hearts.players.compiled import policy_code
    from hearts.players.search_config import ROLLOUTS

    assert {name: policy_code(name) for name in ROLLOUTS} == {
        "medium": k.POLICY_MEDIUM,
        "medium-moon": k.POLICY_MEDIUM_MOON,
    }
    assert HARD.rollout == "medium" and EXPERT.rollout == "medium-moon"


def searched_values(config: dict[str, object], deal: int = 11) -> list[list[list[float]]]:
    """The searched values of one mid-hand decision (40 worlds, fixed seeds) of game ``deal`` for a
    search player of ``config``."""
    from hearts.players.knowledge import Knowledge
    from hearts.players.search import candidate_cards

    game = Game(Rules.preset("no-passing"), seed=deal)
    rng = random.Random(3)
    for _ in range(9):
        game.play(rng.choice(game.legal_plays()))
    view = game.view(game.hand.turn)
    knowledge = Knowledge.of(view)
    cands = candidate_cards(knowledge, sum(1 << c for c in view.legal))
    assert len(cands) > 1
    player = SearchPlayer(HARD.replace(worlds=40, **config), seed=5)  # type: ignore[arg-type]
    measure = player._search(view, knowledge, random.Random(2), cands, [0], -1, 1e18, -1)
    assert measure.worlds == 40
    return measure.values


def test_the_rollout_policy_changes_what_the_search_sees() -> None:
    # Same view, same seed, same worlds: the rollouts differ only in this seat's policy, so the
    # searched values differ where a sampled world gives this seat a moon hand (game 15's does).
    values = {policy: searched_values({"rollout": policy}, deal=15) for policy in ("medium", "medium-moon")}
    assert values["medium"] != values["medium-moon"]
    assert searched_values({"rollout": "medium"}, deal=15) == values["medium"]  # and the same settings see the same


@pytest.mark.parametrize(
    "rules", [Rules(), Rules(players=3), Rules.preset("omnibus", players=5), Rules(players=6, pass_count=2)]
)
def test_pass_positions_are_the_engines_hands_after_passing(rules: Rules) -> None:
    rng = random.Random(rules.players)
    R = rules_array(rules)
    n = rules.players
    for hand_number in range(4):
        game_hands = list(deal_cards(rules, random.Random(hand_number)))
        if HandState(rules, game_hands, hand_number).phase is not Phase.PASS:
            continue  # a hold hand: nothing to search
        seat = hand_number % n
        passes = [sum(1 << c for c in rng.sample(cards_of(h), rules.pass_count)) for h in game_hands]
        candidates = [sum(1 << c for c in rng.sample(cards_of(game_hands[seat]), rules.pass_count)) for _ in range(3)]
        W = k.pass_positions(
            R,
            np.array(game_hands, dtype=np.int64),
            np.array(passes, dtype=np.int64),
            seat,
            np.array(candidates, dtype=np.int64),
            int(k.pass_offset(R, hand_number)),
        )
        for row, mine in zip(W, candidates, strict=True):
            state = HandState(rules, game_hands, hand_number)
            for s in range(n):
                state.pass_cards(s, CardSet(mine if s == seat else passes[s]))
            assert state.phase is Phase.PLAY
            assert np.array_equal(row, state_array(state))
