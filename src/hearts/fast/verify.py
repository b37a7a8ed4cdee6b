"""Check the compiled kernels against the rules engine, card for card.

The engine (:class:`hearts.core.HandState`) is the one statement of the rules; the
kernels are fast because they skip its checks and events. These functions are the
proof that they agree: every deal, pass, legal set, card, trick, score and moon the
kernels produce is replayed through the engine, which raises on anything illegal,
and every difference is reported with the position where it happened.

>>> from hearts.core import Rules
>>> verify_rules(Rules.preset("omnibus"), hands=3, seed=5) > 0
True
"""

from __future__ import annotations

import random

import numpy as np

from hearts.core.arith import CHOICE_SUBTRACT_FROM_SELF, best_moon_choice, rules_row
from hearts.core.cards import CardSet, cards_of
from hearts.core.hand import HandState, Phase
from hearts.core.rules import MoonOption, MoonScoring, Rules
from hearts.fast import kernels as k
from hearts.fast.bridge import POLICIES, rules_array, state_array


class FastCoreMismatch(AssertionError):
    """The kernels and the engine disagree; the message names the rules, the hand and the step."""


def _fail(rules: Rules, what: str) -> FastCoreMismatch:
    return FastCoreMismatch(f"{what} (rules: {rules.to_dict()})")


def replay_trace(rules: Rules, hand_number: int, trace: np.ndarray, result: np.ndarray, moon_choice: MoonOption) -> int:
    """Replay a kernel-played hand (its ``trace`` and ``result`` from ``play_hand_traced``) in the engine.

    Returns the number of plays checked; raises :class:`FastCoreMismatch` on any difference
    and the engine's own errors on any illegal pass or play.
    """
    n = rules.players
    dealt = [int(trace[s]) for s in range(n)]
    hand = HandState(rules, dealt, hand_number)  # checks the deal: sizes, no card twice, the cards in play
    passes = [int(trace[k.TRACE_PASSED + s]) for s in range(n)]
    if hand.phase is Phase.PASS:
        for s in range(n):
            hand.pass_cards(s, CardSet(passes[s]))  # checks the count and that the seat held them
    elif any(passes):
        raise _fail(rules, f"hand {hand_number} is a hold hand but the kernel passed {passes}")
    if hand.phase is not Phase.PLAY:
        raise _fail(rules, f"hand {hand_number}: the engine is in the {hand.phase.value} phase after the passes")
    return _replay_plays(rules, hand, trace, result, moon_choice, 0, f"hand {hand_number}")


def _replay_plays(
    rules: Rules,
    hand: HandState,
    trace: np.ndarray,
    result: np.ndarray,
    moon_choice: MoonOption,
    start: int,
    where: str,
) -> int:
    n = rules.players
    checked = 0
    for i in range(start, rules.hand_size * n):
        legal = int(trace[k.TRACE_PLAYS + 2 * i])
        card = int(trace[k.TRACE_PLAYS + 2 * i + 1])
        if hand.legal_mask() != legal:
            raise _fail(
                rules,
                f"{where}, trick {i // n + 1}, seat {hand.turn}: the engine allows "
                f"{CardSet(hand.legal_mask())} but the kernel allowed {CardSet(legal)}",
            )
        hand.play(card)  # raises if the kernel's card is illegal
        checked += 1
    shooter = int(result[k.MAX_PLAYERS])
    if hand.phase is Phase.MOON_CHOICE:
        if rules.moon is not MoonScoring.SHOOTER_CHOOSES or hand.shooter != shooter:
            raise _fail(rules, f"{where}: the engine asks {hand.shooter} for a moon choice; kernel shooter {shooter}")
        hand.choose_moon(shooter, moon_choice)
    if hand.phase is not Phase.HAND_OVER or hand.scores is None:
        raise _fail(rules, f"{where}: the engine's hand is not over after the kernel's last card")
    engine_shooter = -1 if hand.shooter is None else hand.shooter
    kernel_scores = tuple(int(x) for x in result[:n])
    if engine_shooter != shooter or tuple(hand.scores) != kernel_scores:
        raise _fail(
            rules,
            f"{where}: the engine scores {hand.scores} (shooter {engine_shooter}), "
            f"the kernel {kernel_scores} (shooter {shooter})",
        )
    return checked


def verify_hands(
    rules: Rules,
    hands: int,
    seed: int,
    policy: str = "random",
    moon_choice: MoonOption = MoonOption.ADD_TO_OTHERS,
    eps: float = 0.1,
) -> int:
    """Play ``hands`` whole hands in the kernel (deal, pass, play, score) and replay each in the engine.

    Hand ``i`` is hand number ``i`` of a game, so the pass cycle turns. Returns plays checked.
    """
    R = rules_array(rules)
    pol = np.full(rules.players, POLICIES[policy], dtype=np.int64)
    choice = k.CHOICE_ADD_TO_OTHERS if moon_choice is MoonOption.ADD_TO_OTHERS else k.CHOICE_SUBTRACT_FROM_SELF
    checked = 0
    for i in range(hands):
        trace = np.zeros(k.TRACE_SIZE, dtype=np.int64)
        result = k.play_hand_traced(R, i, pol, eps, seed + i, choice, trace)
        checked += replay_trace(rules, i, trace, result, moon_choice)
    return checked


def verify_games(rules: Rules, hands: int, seed: int, policy: str = "random") -> int:
    """Play ``hands`` hands of successive games in the kernel and replay them through :class:`Game`.

    Every deal, pass and card is replayed as in :func:`verify_hands`; a moon left to the
    shooter is answered by :func:`hearts.core.arith.best_moon_choice` and must give the kernel's
    scores; and each game must end at the same hand with the same winners. Returns plays checked.
    """
    from hearts.core.game import Game

    R = rules_array(rules)
    pol = np.full(rules.players, POLICIES[policy], dtype=np.int64)
    carry = np.zeros(2 + rules.players, dtype=np.int64)
    traces = np.zeros((hands, k.TRACE_SIZE), dtype=np.int64)
    scores, shooters, ends = k.simulate_games(R, hands, pol, 0.1, seed, k.CHOICE_BEST, carry, traces)
    n = rules.players
    checked = 0
    h = 0
    while h < hands:
        deals = {i: [int(x) for x in traces[h + i, :n]] for i in range(hands - h)}
        game = Game(rules, seed=0, deals=deals)
        while h < hands and not game.is_over:
            where = f"game hand {game.hand.number} (run hand {h})"
            hand = game.hand
            if hand.phase is Phase.PASS:
                for s in range(n):
                    game.pass_cards(s, CardSet(int(traces[h, k.TRACE_PASSED + s])))
            for i in range(rules.hand_size * n):
                legal, card = int(traces[h, k.TRACE_PLAYS + 2 * i]), int(traces[h, k.TRACE_PLAYS + 2 * i + 1])
                if hand.legal_mask() != legal:
                    raise _fail(
                        rules, f"{where}: the engine allows {CardSet(hand.legal_mask())}, the kernel {CardSet(legal)}"
                    )
                game.play(card)
                checked += 1
            if hand.phase is Phase.MOON_CHOICE:
                assert hand.shooter is not None
                choice = best_moon_choice(rules_row(rules), game.totals, hand.shooter)
                game.choose_moon(
                    hand.shooter,
                    MoonOption.SUBTRACT_FROM_SELF if choice == CHOICE_SUBTRACT_FROM_SELF else MoonOption.ADD_TO_OTHERS,
                )
            engine_shooter = -1 if hand.shooter is None else hand.shooter
            if hand.scores != tuple(int(x) for x in scores[h]) or engine_shooter != shooters[h]:
                raise _fail(
                    rules,
                    f"{where}: engine scores {hand.scores} (shooter {engine_shooter}), kernel {scores[h].tolist()} (shooter {shooters[h]})",
                )
            winners = sum(1 << s for s in game.winners)
            if winners != ends[h]:
                raise _fail(
                    rules,
                    f"{where}: the engine's game {'ends with winners ' + str(game.winners) if winners else 'goes on'}, the kernel's ends {int(ends[h])}",
                )
            h += 1
    return checked


def verify_rollouts(rules: Rules, hands: int, seed: int, policy: str = "greedy") -> int:
    """From positions reached by engine play (mid-trick included), play out in the kernel and replay.

    Checks that :func:`state_array` carries a live position into the kernel faithfully.
    """
    rng = random.Random(seed)
    R = rules_array(rules)
    pol = np.full(rules.players, POLICIES[policy], dtype=np.int64)
    checked = 0
    for i in range(hands):
        hand = _engine_hand_in_play(rules, rng, i)
        steps = rng.randrange(rules.hand_size * rules.players)
        for _ in range(steps):
            hand.play(rng.choice(cards_of(hand.legal_mask())))
        start = len(hand.tricks) * rules.players + len(hand.trick)
        S = state_array(hand)
        trace = np.zeros(k.TRACE_SIZE, dtype=np.int64)
        result = k.play_out_traced(S, R, pol, 0.1, seed + i, k.CHOICE_ADD_TO_OTHERS, trace)
        checked += _replay_plays(
            rules, hand, trace, result, MoonOption.ADD_TO_OTHERS, start, f"rollout {i} from play {start}"
        )
    return checked


def verify_steps(rules: Rules, hands: int, seed: int) -> int:
    """Engine-driven play: after every card, the kernel's ``advance`` must reach the engine's position.

    Checks ``legal_mask``, ``advance`` and ``score_hand`` one card at a time against
    ``HandState.legal_mask``, ``HandState.advance`` and the engine's scores.
    """
    rng = random.Random(seed)
    R = rules_array(rules)
    checked = 0
    row = np.zeros(k.MAX_PLAYERS, dtype=np.int64)
    for i in range(hands):
        hand = _engine_hand_in_play(rules, rng, i)
        S = state_array(hand)
        while hand.phase is Phase.PLAY:
            legal = hand.legal_mask()
            if int(k.legal_mask(S, R)) != legal:
                raise _fail(
                    rules, f"step hand {i}: kernel legal {CardSet(int(k.legal_mask(S, R)))} != engine {CardSet(legal)}"
                )
            card = rng.choice(cards_of(legal))
            engine_winner = hand.advance(card)
            kernel_winner = int(k.advance(S, R, card))
            checked += 1
            if kernel_winner != engine_winner:
                raise _fail(rules, f"step hand {i}: trick winner {kernel_winner} != engine {engine_winner}")
            if hand.phase is Phase.PLAY and not _same_position(S, state_array(hand)):
                raise _fail(rules, f"step hand {i}: kernel state {S.tolist()} != engine {state_array(hand).tolist()}")
        shooter = int(k.score_hand(S, R, k.CHOICE_SUBTRACT_FROM_SELF, row))
        if hand.phase is Phase.MOON_CHOICE:
            hand.choose_moon(shooter, MoonOption.SUBTRACT_FROM_SELF)
        engine_shooter = -1 if hand.shooter is None else hand.shooter
        if hand.scores != tuple(int(x) for x in row[: rules.players]) or engine_shooter != shooter:
            raise _fail(rules, f"step hand {i}: scores {row[: rules.players].tolist()} != engine {hand.scores}")
    return checked


def _same_position(S: np.ndarray, T: np.ndarray) -> bool:
    """Equal states, ignoring trick slots past the trick in progress (the kernel leaves old cards there)."""
    a = S.copy()
    a[k.S_TRICK + int(a[k.S_TRICK_LEN]) : k.S_TRICK + k.MAX_PLAYERS] = 0
    return bool(np.array_equal(a, T))


def verify_legal_fuzz(rules: Rules, cases: int, seed: int) -> int:
    """Random hands, tricks in progress and broken/unbroken hearts, far more varied than play reaches:
    the kernel's ``legal_of`` must equal ``HandState.legal_mask`` on every one."""
    rng = random.Random(seed)
    R = rules_array(rules)
    base = _engine_hand_in_play(rules, rng, 0)
    in_play = cards_of(rules.in_play)
    for case in range(cases):
        hand = base.copy()
        size = rng.randint(1, rules.hand_size)
        cards = rng.sample(in_play, size + rules.players - 1)
        mine = 0
        for c in cards[:size]:
            mine |= 1 << c
        if rng.random() < 0.3:  # hands of only penalty cards and near it: the first-trick and lead exceptions
            mine = (mine & rules.penalty_mask) or mine
        trick = cards[size : size + rng.randrange(rules.players)]
        hand.hands[hand.turn] = mine
        hand.trick = list(trick)
        hand.tricks = base.tricks[:0] if rng.random() < 0.4 else [None] * rng.randint(1, rules.hand_size - 1)  # type: ignore[list-item]
        hand.hearts_broken = rng.random() < 0.3 or not rules.hearts_must_be_broken
        led = trick[0] // 13 if trick else 0
        got = int(k.legal_of(mine, len(trick), led, len(hand.tricks), int(hand.hearts_broken), R))
        want = hand.legal_mask()
        if got != want:
            raise _fail(
                rules,
                f"case {case}: hand {CardSet(mine)}, trick {[str(c) for c in trick]}, tricks done {len(hand.tricks)}, "
                f"broken {hand.hearts_broken}: engine {CardSet(want)}, kernel {CardSet(got)}",
            )
    return cases


def _engine_hand_in_play(rules: Rules, rng: random.Random, number: int) -> HandState:
    """A freshly dealt engine hand, passed at random where the cycle passes, in its play phase."""
    hand = HandState.deal(rules, rng, number)
    if hand.phase is Phase.PASS:
        for s in range(rules.players):
            hand.pass_cards(s, CardSet(sum(1 << c for c in rng.sample(cards_of(hand.hands[s]), rules.pass_count))))
    return hand


def verify_rules(rules: Rules, hands: int = 20, seed: int = 0) -> int:
    """Every check above for one set of rules; returns the number of plays and cases checked."""
    total = verify_hands(rules, hands, seed, "random")
    total += verify_hands(rules, hands, seed + 10_000, "greedy", MoonOption.SUBTRACT_FROM_SELF)
    total += verify_games(rules, hands, seed + 20_000)
    total += verify_rollouts(rules, max(1, hands // 2), seed)
    total += verify_steps(rules, max(1, hands // 2), seed)
    total += verify_legal_fuzz(rules, 20 * hands, seed)
    return total
