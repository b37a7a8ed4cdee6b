"""The PettingZoo environments: PettingZoo's own checks, the hidden-information line, masks and rewards."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, parallel_seed_test, render_test, seed_test
from pettingzoo.utils import wrappers

from hearts.core import CARDS, IllegalMoveError, MoonOption, OutOfTurnError, Phase, Rules, SeatView
from hearts.env import (
    ACTION_COUNT,
    MOON_ADD_TO_OTHERS,
    HeartsEnv,
    HeartsParallelEnv,
    Table,
    action_mask,
    encode_view,
    env,
    layout_for,
    result_payoff,
)

# PettingZoo's api_test warns about any observation that is not a bare array; its own classic card
# games have the same {"observation", "action_mask"} dict and are exempted by name.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]

RULE_SETS = [
    pytest.param("standard", id="standard"),
    pytest.param("britannica", id="britannica-moon-choice"),
    pytest.param(Rules.preset("omnibus", players=3), id="omnibus-3-players"),
    pytest.param(Rules(players=5, pass_count=2), id="5-players-pass-2"),
]


def cards_in(vector: np.ndarray, block: slice) -> set[int]:
    return {int(i) for i in np.flatnonzero(vector[block])}


# -- PettingZoo's own tests ----------------------------------------------------------------


@pytest.mark.parametrize("rules", RULE_SETS)
@pytest.mark.parametrize("episode", ["hand", "game"])
def test_pettingzoo_api_test_passes(rules: object, episode: str) -> None:
    api_test(env(rules=rules, episode=episode, reward="zero-sum"), num_cycles=300)


def test_pettingzoo_seed_test_passes() -> None:
    seed_test(lambda: env(episode="game", rules="britannica"), num_cycles=300)


@pytest.mark.parametrize("rules", ["standard", "britannica"])
def test_pettingzoo_parallel_seed_test_passes(rules: str) -> None:
    # It samples every seat's action from its action space with no mask: sample() draws legal actions.
    parallel_seed_test(lambda: HeartsParallelEnv(rules=rules, episode="game"), num_cycles=300)


def test_pettingzoo_max_cycles_test_passes() -> None:
    import hearts.env

    max_cycles_test(hearts.env)


def test_pettingzoo_render_test_passes() -> None:
    render_test(lambda render_mode: env(episode="hand", render_mode=render_mode))  # an AEC test


def test_action_space_samples_legal_actions_and_obeys_an_explicit_mask() -> None:
    penv = HeartsParallelEnv(episode="hand")
    obs, _ = penv.reset(seed=4)
    for a in penv.agents:
        penv.action_space(a).seed(1)
    for _ in range(40):  # the pass, then plays: every sample is in the seat's mask of the moment
        actions = {a: int(penv.action_space(a).sample()) for a in penv.agents}
        for a, action in actions.items():
            mask = obs[a]["action_mask"]
            assert mask[action] == 1 or (not mask.any() and action == 0)
        obs, *_ = penv.step(actions)
    only = np.zeros(ACTION_COUNT, dtype=np.int8)
    only[5] = 1
    assert penv.action_space("player_0").sample(mask=only) == 5


def test_max_cycles_truncates_and_is_checked() -> None:
    penv = HeartsParallelEnv(episode="game", max_cycles=3)
    penv.reset(seed=1)
    for _ in range(2):
        _, _, _, truncations, _ = penv.step({a: penv.action_space(a).sample() for a in penv.agents})
        assert not any(truncations.values())
    _, _, terminations, truncations, _ = penv.step({a: penv.action_space(a).sample() for a in penv.agents})
    assert all(truncations.values()) and not any(terminations.values()) and penv.agents == []
    for bad in (0, -2, 1.5, True):
        with pytest.raises(ValueError, match="max_cycles"):
            HeartsParallelEnv(max_cycles=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_pettingzoo_parallel_api_test_passes(rules: object) -> None:
    parallel_api_test(HeartsParallelEnv(rules=rules, episode="game"), num_cycles=2000)


def test_parallel_env_is_deterministic_for_a_seed() -> None:
    def run(seed: int) -> list[tuple[object, ...]]:
        penv = HeartsParallelEnv(episode="game", reward="points")
        obs, _ = penv.reset(seed=seed)
        rng = np.random.default_rng(5)
        trace = []
        while penv.agents:
            actions = {}
            for a in penv.agents:
                legal = np.flatnonzero(obs[a]["action_mask"])
                actions[a] = int(rng.choice(legal)) if len(legal) else 0
            obs, rewards, terms, _, _ = penv.step(actions)
            trace.append((tuple(sorted(actions.items())), tuple(sorted(rewards.items()))))
        return trace

    first, again, other = run(11), run(11), run(12)
    assert first == again
    assert first != other


def test_passing_is_simultaneous_in_the_parallel_env() -> None:
    penv = HeartsParallelEnv(rules="pass-left", episode="hand")
    obs, infos = penv.reset(seed=1)
    assert all(info["to_move"] for info in infos.values())
    hands = {a: np.flatnonzero(obs[a]["action_mask"]) for a in penv.agents}
    for step in range(3):
        obs, *_, infos = penv.step({a: int(hands[a][step]) for a in penv.agents})
    # After three simultaneous steps every pass is made and exchanged: one seat now leads 2C.
    assert penv.table.hand.phase is Phase.PLAY
    assert sum(info["to_move"] for info in infos.values()) == 1
    for a in penv.agents:
        seat = int(a.split("_")[1])
        view = penv.table.view(seat)
        assert view.passed is not None and sorted(view.passed) == sorted(CARDS[c] for c in hands[a][:3])


# -- the hidden-information line ----------------------------------------------------------------


def _random_tables(count: int, rules: Rules | str, episode: str = "hand"):
    """Yield (table, rng) at every decision of ``count`` random episodes."""
    rng = random.Random(99)
    for k in range(count):
        table = Table(rules, episode=episode)
        table.reset(np.random.default_rng(k))
        while not table.over:
            yield table
            seat = table.next_seat
            legal = np.flatnonzero(table.observe(seat)["action_mask"])
            table.act(seat, int(rng.choice(list(legal))))
        yield table


@pytest.mark.parametrize("rules", ["standard", Rules(players=3)])
def test_observation_holds_only_what_the_seat_may_see(rules: object) -> None:
    checked = 0
    for table in _random_tables(6, rules):
        hand = table.hand
        n = table.players
        played = {c for t in hand.tricks for c in t.cards} | set(hand.trick)
        for seat in range(n):
            obs = table.observe(seat)["observation"]
            lay = layout_for(n)
            own_pass = hand.passed[seat] or table.selected[seat]
            source = hand.pass_source(seat)
            all_passed = all(p is not None for p in hand.passed)
            received = hand.passed[source] if all_passed and hand.direction.value != "hold" else 0
            assert cards_in(obs, lay.block("hand")) == {c for c in range(52) if hand.hands[seat] >> c & 1}
            assert cards_in(obs, lay.block("passed")) == {c for c in range(52) if own_pass >> c & 1}
            assert cards_in(obs, lay.block("received")) == {c for c in range(52) if (received or 0) >> c & 1}
            assert (
                set().union(
                    *(
                        cards_in(
                            obs, slice(lay.block("played").start + r * 52, lay.block("played").start + (r + 1) * 52)
                        )
                        for r in range(n)
                    )
                )
                == played
            )
            # "unseen" is exactly the other hands less the cards this seat passed and knows the place of.
            others = 0
            for s in range(n):
                if s != seat:
                    others |= hand.hands[s]
            known = (hand.passed[seat] or 0) if all_passed else 0
            assert cards_in(obs, lay.block("unseen")) == {c for c in range(52) if (others & ~known) >> c & 1}
            checked += 1
    assert checked > 300


def test_observation_does_not_change_when_other_hands_are_swapped() -> None:
    """Swap unseen cards between two other seats: no seat's observation may notice."""
    rng = random.Random(5)
    compared = 0
    for table in _random_tables(5, "standard"):
        hand = table.hand
        if hand.phase is not Phase.PLAY:
            continue
        for seat in range(4):
            a, b = [s for s in range(4) if s != seat][:2]
            known = hand.passed[seat] or 0
            cards_a = [c for c in range(52) if (hand.hands[a] & ~known) >> c & 1]
            cards_b = [c for c in range(52) if (hand.hands[b] & ~known) >> c & 1]
            if not cards_a or not cards_b:
                continue
            x, y = rng.choice(cards_a), rng.choice(cards_b)
            swapped = hand.copy()
            swapped.hands[a] ^= (1 << x) | (1 << y)
            swapped.hands[b] ^= (1 << x) | (1 << y)
            before = encode_view(SeatView.of_hand(hand, seat), table.selected[seat])
            after = encode_view(SeatView.of_hand(swapped, seat), table.selected[seat])
            assert np.array_equal(before, after)
            compared += 1
    assert compared > 50


def test_render_shows_the_acting_seats_cards_only() -> None:
    aec = HeartsEnv(episode="hand", render_mode="ansi")
    aec.reset(seed=3)
    seat = aec.seat_of(aec.agent_selection)
    text = aec.render()
    assert text is not None
    words = set(text.replace(",", " ").split())
    hand = aec.table.hand
    # Cards with suit symbols and seats from 1, as the terminal and the table write them.
    assert {c.symbol() for c in CARDS if hand.hands[seat] >> c & 1} <= words
    assert f"(seat {seat + 1} of 4)" in text and not {str(c) for c in CARDS} & words
    for other in range(4):
        if other != seat:
            assert not {c.symbol() for c in CARDS if hand.hands[other] >> c & 1} & words


# -- masks against the engine ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules", ["standard", "britannica", Rules(players=4, points_on_first_trick=True, hearts_must_be_broken=False)]
)
def test_masks_match_the_engines_legal_moves(rules: object) -> None:
    moon_choices = 0
    for table in _random_tables(8, rules, episode="game" if rules == "britannica" else "hand"):
        hand = table.hand
        for seat in range(table.players):
            mask = table.observe(seat)["action_mask"]
            assert mask.shape == (ACTION_COUNT,)
            if table.over or seat not in table.to_move:
                assert not mask.any()
            elif hand.phase is Phase.PLAY:
                assert {int(i) for i in np.flatnonzero(mask)} == {int(c) for c in hand.legal_plays()}
            elif hand.phase is Phase.PASS:
                free = hand.hands[seat] & ~table.selected[seat]
                assert {int(i) for i in np.flatnonzero(mask)} == {c for c in range(52) if free >> c & 1}
            else:
                moon_choices += 1
                assert {int(i) for i in np.flatnonzero(mask)} == {52, 53}
        if rules == "britannica" and moon_choices:
            break


def test_moon_choice_is_an_action() -> None:
    # South holds the top clubs and nine hearts; East must in time throw Q♠ on South's hearts.
    # Under britannica rules the shooter then chooses, through the two moon actions.
    from hearts.core import CardSet, HandState

    table = Table("britannica", episode="hand")
    table.reset(np.random.default_rng(0))

    hands = [
        CardSet.parse("AC KC QC JC AH KH QH JH 10H 9H 8H 7H 6H"),
        CardSet.parse("2C 3C 4C 5C 6C 7C 8C 9C 10C 2D 3D 4D 5D"),
        CardSet.parse("6D 7D 8D 9D 10D JD QD KD AD 2S 3S 4S 5S"),
        CardSet.parse("6S 7S 8S 9S 10S JS QS KS AS 5H 4H 3H 2H"),
    ]
    table._hand = HandState(table.rules, [h.mask for h in hands], 3)  # hand 4 of the cycle: no passing
    rewards = []
    while table.hand.phase is Phase.PLAY:
        seat = table.next_seat
        legal = table.hand.legal_plays()
        # Everyone plays its highest legal card: South wins every trick.
        rewards += table.act(seat, int(max(legal)))
    assert table.hand.phase is Phase.MOON_CHOICE and not rewards
    shooter = table.next_seat
    assert shooter == 0
    mask = table.observe(shooter)["action_mask"]
    assert set(np.flatnonzero(mask)) == {52, 53}
    assert not any(table.observe(s)["action_mask"].any() for s in (1, 2, 3))
    with pytest.raises(IllegalMoveError, match="moon"):
        table.act(shooter, 5)
    rewards += table.act(shooter, MOON_ADD_TO_OTHERS)
    assert table.hand.moon_option is MoonOption.ADD_TO_OTHERS
    assert rewards == [[0.0, -26.0, -26.0, -26.0]]


# -- rewards -------------------------------------------------------------------------------------------


def _play_aec(aec: HeartsEnv, seed: int) -> dict[str, float]:
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter():
        obs, reward, term, trunc, _ = aec.last()
        totals[agent] += reward
        if term or trunc:
            aec.step(None)
            continue
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert abs(sum(aec.rewards.values())) < 1e-9 or aec.table.reward.value != "zero-sum"
    return totals


def test_points_rewards_add_up_to_minus_the_totals() -> None:
    aec = HeartsEnv(episode="game", reward="points")
    got = _play_aec(aec, 4)
    assert aec.table.game is not None and aec.table.game.is_over
    assert [got[a] for a in aec.possible_agents] == [-float(t) for t in aec.table.game.totals]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_zero_sum_rewards_sum_to_zero(players: int) -> None:
    aec = HeartsEnv(rules=Rules(players=players), episode="game", reward="zero-sum")
    got = _play_aec(aec, 6)
    assert sum(got.values()) == pytest.approx(0.0, abs=1e-9)
    totals = aec.table.game.totals
    mean = sum(totals) / players
    assert [got[a] for a in aec.possible_agents] == pytest.approx([mean - t for t in totals])


def test_result_reward_pays_the_winners() -> None:
    aec = HeartsEnv(episode="game", reward="result")
    got = _play_aec(aec, 8)
    winners = aec.table.game.winners
    assert sum(got.values()) == pytest.approx(0.0)
    for seat, agent in enumerate(aec.possible_agents):
        assert (got[agent] > 0) == (seat in winners)
    assert result_payoff([5, 20, 20, 30]) == pytest.approx([1.0, -1 / 3, -1 / 3, -1 / 3])
    assert result_payoff([7, 7, 7]) == [0.0, 0.0, 0.0]


def test_hand_episodes_meet_every_pass_direction() -> None:
    seen = set()
    aec = HeartsEnv(episode="hand")
    for seed in range(30):
        aec.reset(seed=seed)
        seen.add(aec.table.hand.direction.value)
    assert seen == {"left", "right", "across", "hold"}


# -- bad actions ------------------------------------------------------------------------------------------


def test_illegal_action_raises_naming_it_and_changes_nothing() -> None:
    aec = HeartsEnv(rules="no-passing", episode="hand")
    aec.reset(seed=2)
    agent = aec.agent_selection
    before = aec.observe(agent)
    held = aec.table.hand.hands[aec.seat_of(agent)]
    illegal = next(i for i in range(52) if held >> i & 1 and not before["action_mask"][i])
    with pytest.raises(IllegalMoveError) as info:
        aec.step(illegal)
    message = str(info.value)
    assert CARDS[illegal].symbol() in message and aec.table.names[aec.seat_of(agent)] in message
    assert "2♣" in message  # the rule: the first trick opens with 2♣
    assert aec.agent_selection == agent
    assert np.array_equal(aec.observe(agent)["observation"], before["observation"])
    for bad in (54, -1, "QS", 3.5, None):
        with pytest.raises(IllegalMoveError, match="not an action"):
            aec.step(bad)
    aec.step(0)  # the legal 2C still goes through
    assert aec.agent_selection != agent


def test_pass_steps_refuse_a_card_twice_or_not_held() -> None:
    aec = HeartsEnv(rules="pass-left", episode="hand")
    aec.reset(seed=9)
    agent = aec.agent_selection
    seat = aec.seat_of(agent)
    held = [int(c) for c in aec.table.hand.legal_passes(seat)[0]]
    not_held = next(c for c in range(52) if not aec.table.hand.hands[seat] >> c & 1)
    with pytest.raises(IllegalMoveError, match="does not hold"):
        aec.step(not_held)
    aec.step(held[0])
    with pytest.raises(IllegalMoveError, match="already chosen"):
        aec.step(held[0])
    assert aec.agent_selection == agent  # the same seat chooses its next card
    with pytest.raises(IllegalMoveError, match="not a card to pass"):
        aec.step(MOON_ADD_TO_OTHERS)


def test_parallel_env_refuses_a_missing_action_without_changing_anything() -> None:
    penv = HeartsParallelEnv(rules="no-passing", episode="hand")
    obs, _ = penv.reset(seed=1)
    due = next(a for a in penv.agents if obs[a]["action_mask"].any())
    with pytest.raises(OutOfTurnError, match="owes a decision"):
        penv.step({a: 0 for a in penv.agents if a != due})
    assert penv.table.hand.trick == []
    obs2, *_ = penv.step({a: 0 for a in penv.agents})  # 2C, from the seat that holds it; others ignored
    assert len(penv.table.hand.trick) == 1


def test_terminate_illegal_wrapper_works_with_the_env() -> None:
    wrapped = wrappers.TerminateIllegalWrapper(HeartsEnv(rules="no-passing", episode="hand"), illegal_reward=-1)
    wrapped.reset(seed=2)
    wrapped.step(51)  # A♥ cannot open the hand
    assert all(wrapped.terminations.values())


def test_bad_options_are_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="episode must be one of 'hand', 'game'"):
        HeartsEnv(episode="set")
    with pytest.raises(ValueError, match="reward must be one of"):
        HeartsEnv(reward="money")
    with pytest.raises(ValueError, match="unknown preset"):
        HeartsEnv(rules="no-such-rules")
    with pytest.raises(KeyError, match="player_0"):
        HeartsEnv().seat_of("player_9")


def test_action_mask_of_a_seat_with_nothing_to_do_is_empty() -> None:
    table = Table("no-passing", episode="hand")
    table.reset(np.random.default_rng(1))
    waiting = [s for s in range(4) if s not in table.to_move]
    assert waiting and all(not action_mask(table.view(s)).any() for s in waiting)
