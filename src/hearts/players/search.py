"""The hard and expert players: Monte Carlo search over the hidden cards.

For each decision the player

1. works out what its seat knows (:class:`~hearts.players.knowledge.Knowledge`);
2. samples deals of the unseen cards consistent with it (:mod:`hearts.players.sampling`):
   "worlds", built with :meth:`SeatView.world`;
3. plays every candidate card out in every world with a fast rollout policy, using the
   SAME worlds and the same rollout random numbers for every candidate (common random
   numbers, so the comparison is fair and its noise small);
4. picks the candidate with the best mean utility.

Candidates are the legal cards with equivalent cards merged (two cards of one suit with
nothing between them still out play alike; penalty and bonus cards are never merged
with plain ones). Utility is the seat's hand score against the others' mean (a moon
shot scores as the 26 it gives away), and near the end of the game (when this hand may
end it) a share of the win counts for more than points.

**Moon plan.** When no other seat holds a point and the hand is strong enough (or this
seat already has most of the points), the player also evaluates every candidate with
itself playing for the moon in the rollouts and keeps that plan when it scores better.

**Moon defence.** When one opponent has every point so far, the rollouts let that seat
run for the moon and the defenders' rollout policy takes a heart off it, so the search
values stopping it. For expert, before it has four penalty cards (:attr:`SearchPlayer.threat_points`),
from one (or, before anyone has a point, the seat that has won the most tricks), it is an early
threat: it runs in the sampled worlds where the hand it was dealt there and the plays it made make a
run likelier than not, and where it runs in most worlds medium's defence is the card the search keeps.

**Passing.** Expert searches its pass from a reference pass, medium's with A♥, K♥ and Q♥ kept,
and the other seats play the moon-capable ``"medium-moon"`` in its rollouts, so that a pass which
hands the receiver a moon pays for the moons it feeds (hard keeps medium's pass and model).

**Inference (hard and expert).** The hard constraints (voids, passed cards) say where cards cannot
be; how the other seats played says where they probably are. With ``inference`` (the default
of hard and expert) every sampled world is weighted by how well the rollout policy
explains each other seat's plays so far in it (:func:`hearts.fast.kernels.play_log_likelihoods`):
a follow or discard the policy would not have made from that world's hand multiplies the
world's weight by :attr:`SearchPlayer.miss_weight` (0.15), a lead by ``lead_miss_weight`` (0.4).
A seat that ducked under J♠ with 5♠ probably holds no 10♠; one that led a low club from a hand
"holding" 2♦ probably held no 2♦. Means and the margin test are then taken over the weights.

**Compiled inner loop.** Steps 2-3 run in compiled code (numba is a dependency): the player
samples a batch of worlds (:class:`hearts.players.sampling.LikelyHandsSampler`, itself compiled)
and hands them to :func:`hearts.fast.kernels.search_worlds`, which plays every candidate (and
every plan) out several times per world with a compiled policy: by default the medium player's
card play (``kernels.medium_card``, ``rollout_policy="medium"``: the very policy
:class:`~hearts.players.medium.MediumPlayer` calls, read from a world's hands instead of a seat's
knowledge, the two readings held equal by ``tests/test_fast_medium.py``), which also models
the other seats in inference; ``rollout_policy="greedy"`` is ``kernels.greedy_card`` (checked
against a plain-Python statement of the same policy kept in ``tests/greedy_reference.py``).
``opponent_policy`` gives the other seats a policy of their own (in the rollouts and as
inference's model of them), the searching seat keeping ``rollout_policy``.
``"learned"`` is the learned evaluation's card (``kernels.POLICY_LEARNED``, the ``learned``
player's model from what the seat knows in the world, the voids known at the decision and those
shown in the rollout; inference models a learned opponent with medium).

**Prior.** The rule-based card the search keeps unless another is clearly better is medium's
(``prior="medium"``) or the learned player's (``prior="learned"``: the model's card, medium's unless
the model values another by its margin); the reason then says what the model made of it.

``hard`` defaults to 0.3 s per decision and at most 1,000 worlds, ``expert`` to 1 s and 4,000
worlds and the ``"learned"`` policy for its own seat (the model's card: medium's play with its own
moon plan, ``kernels.medium_moon_card``, unless the model values another card by its margin; so
where its sampled world gives it a moon hand it runs for the moon in the rollouts), the other
seats keeping ``"medium"``; both search their pass. The budget is
checked after every batch of worlds (a batch cut to the time left), so a decision overruns it by
about one world's rollouts (a few ms).
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from hearts.core import CARDS, Card, CardSet, SeatView
from hearts.core.cards import HEARTS, cards_of
from hearts.players.compiled import compiled_kernels
from hearts.players.early_threat import EarlyThreat, ThreatReading, early_threat_seat
from hearts.players.knowledge import (
    Knowledge,
    moon_hand_strength,
    sym,
    trick_points,
)
from hearts.players.passing import MOON_STOPPERS, PassSearch
from hearts.players.sampling import LikelyHandsSampler
from hearts.players.valuation import clearly_better, representative

__all__ = ["MOON_STOPPERS", "PRIORS", "ROLLOUT_POLICIES", "SearchPlayer", "candidate_cards", "compiled_kernels"]

#: The compiled policies a search can roll out with, by the names of :data:`hearts.fast.POLICIES`
#: (which holds their codes).
ROLLOUT_POLICIES = ("greedy", "smart", "medium", "medium-moon", "learned")
#: The rule-based cards a search keeps unless it finds one clearly better (``prior``): the medium
#: player's, or the learned player's (the model's card, which is medium's unless the model values
#: another ``margin`` points better).
PRIORS = ("medium", "learned")


def candidate_cards(k: Knowledge, legal: int) -> list[int]:
    """The legal cards with equivalent ones merged: within a suit, cards with no card still out
    between them win and lose the same tricks. Penalty and bonus cards stay separate (points
    differ). The highest of each run is kept."""
    special = k.rules.penalty_mask & ~HEARTS  # Q♠
    bonus = k.bonus_card()
    if bonus >= 0:
        special |= 1 << bonus
    out = k.out
    reps: list[int] = []
    prev = -1
    for c in cards_of(legal):
        bit = 1 << c
        if (
            prev >= 0
            and c // 13 == prev // 13
            and not (bit | 1 << prev) & special
            and not out & ((1 << c) - (2 << prev))
            and ((bit & HEARTS) == 0) == ((1 << prev & HEARTS) == 0)
        ):
            reps[-1] = c
        else:
            reps.append(c)
        prev = c
    return reps


def _policy_code(option: str, name: str) -> int:
    """The kernels' code of the compiled policy ``name``, given as ``option``; an unknown name raises."""
    if name not in ROLLOUT_POLICIES:
        raise ValueError(f"unknown {option} {name!r}: choose {' or '.join(map(repr, ROLLOUT_POLICIES))}")
    from hearts.fast.bridge import POLICIES

    return POLICIES[name]


class SearchPlayer(PassSearch):
    """Monte Carlo search over sampled worlds (see the module docstring). Base of hard and expert."""

    name = "search"
    #: Seconds per decision when no ``time_budget`` is given.
    default_budget = 0.3
    #: Part of the budget spent searching; the rest is margin for the bookkeeping around it.
    budget_share = 0.85
    #: Worlds per decision when ``worlds`` is not given: beyond about a thousand the estimates
    #: hardly move, so late in a hand (short rollouts) the player stops early instead of idling
    #: through its budget.
    world_cap = 1000
    #: Points (utility) by which a searched card must beat the rule-based choice to replace it.
    prior_margin = 1.0
    #: The rule-based card when ``prior`` is not given (one of :data:`PRIORS`).
    default_prior = "medium"
    #: Whether the pass is searched when ``search_pass`` is not given.
    default_search_pass = False
    #: Whether sampled worlds are weighted by how well they explain the plays seen when
    #: ``inference`` is not given. Hard and expert both do: against medium over
    #: the same 1,000 deals hard scored +1.57 per seat-deal with inference and +1.37 without,
    #: for about 5% more time per decision (docs/players.md, Ladder results).
    default_inference = True
    #: Inference: the relative likelihood of a follow or discard the rollout policy would not
    #: have made, and of such a lead (leads are noisier, so they say less).
    miss_weight = 0.15
    lead_miss_weight = 0.4
    #: The compiled rollout policy of every seat not running for the moon: ``"greedy"``
    #: (:func:`hearts.fast.kernels.greedy_card`), ``"smart"`` (:func:`hearts.fast.kernels.smart_card`,
    #: which also never leads a sure winner while another lead exists) or ``"medium"``
    #: (:func:`hearts.fast.kernels.medium_card`, the medium player's card play compiled).
    #: Inference models the other seats with the medium policy under ``"medium"``, else with greedy.
    default_rollout_policy = "medium"
    #: The compiled policy of the other seats in the rollouts, which also models them in
    #: inference (they are the seats whose plays it explains); None: :attr:`rollout_policy`.
    default_opponent_policy: str | None = None
    #: Moon defence: an opponent holding every penalty card taken so far is the moon threat from
    #: this many of them (or Q♠ and two more); the rollouts then let it run for the moon.
    threat_points = 4
    #: Early moon defence: before that, an opponent holding every penalty card taken so far, at
    #: least this many of them (0: off), is an early threat: it runs for the moon in some sampled
    #: worlds and plays as the other seats do in the rest, so a moon is defended where it is likely,
    #: not everywhere.
    early_threat_points = 2
    #: ...and, before anyone has a point, the seat that has won the most tricks, at least this many
    #: (0: off).
    early_threat_tricks = 0
    #: Where the early threat runs: with no slope (None), in the worlds where the hand it was dealt
    #: (its cards there and those it has played) reaches this moon strength; with a slope, with the
    #: prior chance ``1 / (1 + exp(-slope * (strength - early_threat_strength)))`` of that hand...
    early_threat_strength = 0.5
    early_threat_slope: float | None = None
    #: ...times, with ``moon_evidence``, how much better a run explains its plays so far than
    #: medium's play (:func:`hearts.fast.kernels.moon_log_ratios`); it runs where that makes a run
    #: likelier than not, and its plays weigh the world by the mixture of the two models.
    moon_evidence = False
    #: ...and, where the early threat passed to this seat, how much better building a moon explains
    #: the cards it passed than medium's pass does (:func:`hearts.fast.kernels.pass_log_ratios`; a
    #: card a model would not have passed weighs ``pass_miss_weight``). 0: the pass is not read.
    pass_miss_weight = 0.0
    #: From this share of the (weighted) worlds in which the early threat runs, the rule-based card
    #: the search keeps unless another is clearly better is medium's defence against it (above 1: never).
    early_defence_share = 2.0
    #: Moon plan: the moon hand strength (:func:`~hearts.players.knowledge.moon_hand_strength`) from
    #: which the search also evaluates its own moon line.
    moon_plan_strength = 0.55

    def __init__(
        self,
        seed: int | None = None,
        time_budget: float | None = None,
        *,
        worlds: int | None = None,
        epsilon: float = 0.1,
        search_pass: bool | None = None,
        moon_plan: bool = True,
        prior_margin: float | None = None,
        inference: bool | None = None,
        rollout_policy: str | None = None,
        opponent_policy: str | None = None,
        pass_opponent_policy: str | None = None,
        moon_safe_passes: bool | None = None,
        prior: str | None = None,
    ) -> None:
        """``worlds`` caps the sampled worlds per decision (default :attr:`world_cap`; when the cap,
        not the budget, ends the search the player is fully deterministic for a seed);
        ``epsilon`` is the greedy rollout policy's chance of a random card; ``search_pass`` searches the
        pass too (default :attr:`default_search_pass`); ``moon_plan`` evaluates a moon line when one is open; ``prior_margin`` is how many
        points a searched move must gain over the rule-based one to replace it; ``inference`` weighs
        each sampled world by how likely it makes the plays seen so far (default
        :attr:`default_inference`); ``rollout_policy`` names the compiled
        rollout policy (default :attr:`default_rollout_policy`); ``opponent_policy`` the one of the other
        seats in the rollouts and in inference (default :attr:`default_opponent_policy`, else the
        rollout policy); ``pass_opponent_policy`` the one of the other seats in the pass search
        (default :attr:`default_pass_opponent_policy`, else the opponent policy); ``moon_safe_passes``
        adds passes that keep the top hearts to the pass search (default :attr:`default_moon_safe_passes`);
        ``prior`` names the rule-based card the search keeps unless another is clearly better
        (:data:`PRIORS`, default :attr:`default_prior`)."""
        super().__init__(seed=seed, time_budget=time_budget)
        if time_budget is not None and time_budget <= 0:
            raise ValueError(f"time_budget must be positive seconds, not {time_budget!r}")
        if worlds is not None and worlds < 1:
            raise ValueError(f"worlds must be at least 1, not {worlds!r}")
        self.budget = self.default_budget if time_budget is None else float(time_budget)
        #: Worlds per decision at most: ``worlds`` if given, else :attr:`world_cap`.
        self.max_worlds = self.world_cap if worlds is None else worlds
        self.epsilon = float(epsilon)
        #: The compiled kernels the search runs its inner loop in.
        self.kernels: Any = compiled_kernels()
        self.search_pass = self.default_search_pass if search_pass is None else bool(search_pass)
        self.moon_plan = moon_plan
        if prior_margin is not None:
            self.prior_margin = float(prior_margin)
        self.inference = bool(self.default_inference if inference is None else inference)
        #: The compiled rollout policy's name (see :attr:`default_rollout_policy`).
        self.rollout_policy = self.default_rollout_policy if rollout_policy is None else rollout_policy
        self._policy = _policy_code("rollout_policy", self.rollout_policy)
        #: The compiled policy of the other seats, in the rollouts and in inference.
        self.opponent_policy = (
            (self.default_opponent_policy or self.rollout_policy) if opponent_policy is None else opponent_policy
        )
        self._opp_policy = _policy_code("opponent_policy", self.opponent_policy)
        # Inference explains the other seats' plays with a compiled model of them; the learned
        # policy has none there, and medium's card is the model's card unless it saves its margin.
        self._inferred_policy = _policy_code(
            "opponent_policy", "medium" if self.opponent_policy == "learned" else self.opponent_policy
        )
        #: The compiled policy of the other seats in the pass search.
        self.pass_opponent_policy = (
            (self.default_pass_opponent_policy or self.opponent_policy)
            if pass_opponent_policy is None
            else pass_opponent_policy
        )
        self._pass_opp_policy = _policy_code("pass_opponent_policy", self.pass_opponent_policy)
        self.moon_safe_passes = bool(self.default_moon_safe_passes if moon_safe_passes is None else moon_safe_passes)
        #: The rule-based card's name (see :attr:`default_prior`).
        self.prior = self.default_prior if prior is None else prior
        if self.prior not in PRIORS:
            raise ValueError(f"unknown prior {self.prior!r}: choose {' or '.join(map(repr, PRIORS))}")
        self._learned: Any = None  # the learned player giving the prior or the model's weights
        if self.prior == "learned" or "learned" in (
            self.rollout_policy,
            self.opponent_policy,
            self.pass_opponent_policy,
        ):
            from hearts.players.learned import LearnedPlayer

            self._learned = LearnedPlayer(seed=seed)
        self._log_miss = math.log(self.miss_weight)
        self._log_lead_miss = math.log(self.lead_miss_weight)
        self._log_pass_miss = math.log(self.pass_miss_weight) if self.pass_miss_weight else 0.0
        #: The effective number of worlds behind the last weighted decision.
        self.last_ess = 0.0
        #: The share of the last search's worlds in which an early moon threat ran for the moon.
        self.last_early_share = 0.0
        #: Figures of the last decision: worlds sampled and rollouts played.
        self.last_worlds = 0
        self.last_rollouts = 0
        #: What the last decision's search measured, for :meth:`value_options`: a play's
        #: (candidates, plans, defence, vals, own, worlds, weights), a pass's (candidates, vals, own,
        #: worlds); None when nothing was searched.
        self._last_figures: tuple[Any, ...] | None = None

    def _threat_reading(self) -> ThreatReading:
        """How this player reads an early moon threat: its settings as they are now."""
        return ThreatReading(
            at=self.early_threat_strength,
            slope=self.early_threat_slope,
            moon_evidence=bool(self.moon_evidence),
            log_miss=self._log_miss,
            log_lead_miss=self._log_lead_miss,
            log_pass_miss=self._log_pass_miss,
        )

    def _seat_policies(self, n: int, me: int) -> list[int]:
        """Each seat's compiled rollout policy: :attr:`rollout_policy` for ``me``, :attr:`opponent_policy` for the others."""
        return [self._policy if s == me else self._opp_policy for s in range(n)]

    # -- utility ----------------------------------------------------------------------

    @staticmethod
    def utility(view: SeatView, scores: tuple[int, ...] | list[int], endgame: bool) -> float:
        """How good the hand scores ``scores`` are for this seat (higher is better)."""
        me = view.seat
        n = len(scores)
        mine = scores[me]
        others = (sum(scores) - mine) / (n - 1)
        value = others - mine
        if endgame:
            final = [t + s for t, s in zip(view.totals, scores, strict=True)]
            if max(final) >= view.rules.target:
                low = min(final)
                if final[me] == low:
                    value += 40.0 / final.count(low)
                else:
                    value -= 10.0 * sum(1 for x in final if x < final[me])
        return value

    # -- playing -----------------------------------------------------------------------

    def choose_play(self, view: SeatView) -> tuple[Card, str]:
        start = time.perf_counter()
        legal = 0
        for legal_card in view.legal:
            legal |= 1 << legal_card
        self.last_worlds = self.last_rollouts = 0
        self._last_figures = None
        if not legal & (legal - 1):
            return CARDS[legal.bit_length() - 1], "the only legal card"
        k = Knowledge.of(view)
        hint, hint_why = self._learned.play_from(k, legal) if self.prior == "learned" else self.play_from(k, legal)
        cands = candidate_cards(k, legal)
        if len(cands) == 1:  # every legal card plays alike: no search, the rule-based card
            return CARDS[hint], f"{hint_why} (my legal cards are all alike)"
        rng = self.view_rng(view)
        me = view.seat
        plans = [0]
        if (
            self.moon_plan
            and k.moon_still_open_for_me()
            and (
                moon_hand_strength(k.rules, k.hand) >= self.moon_plan_strength
                or k.points[me] >= k.rules.moon_points // 2
            )
        ):
            plans.append(1 << me)
        threat = k.moon_threat(min_points=self.threat_points)
        defence = 1 << threat if threat >= 0 else 0
        early = -1
        if threat < 0 and self.early_threat_points:
            early = early_threat_seat(view, k, self.early_threat_points, self.early_threat_tricks)
        endgame = max(view.totals) + k.rules.moon_points >= k.rules.target
        deadline = start + self.budget * self.budget_share
        vals, own, worlds, rollouts, weights = self._search(
            view, k, rng, cands, plans, defence, endgame, deadline, early
        )
        self.last_worlds = worlds
        self.last_rollouts = rollouts
        self._last_figures = (cands, plans, defence, vals, own, worlds, weights)
        if weights is None:
            sums = [[sum(v) for v in row] for row in vals]
            norm = float(worlds)
        else:
            sums = [[sum(w * x for w, x in zip(weights, v, strict=True)) for v in row] for row in vals]
            norm = sum(weights)
            self.last_ess = norm * norm / sum(w * w for w in weights)
        best_p, best_i = max(
            ((p, i) for p in range(len(plans)) for i in range(len(cands))), key=lambda pi: sums[pi[0]][pi[1]]
        )
        if early >= 0 and weights is not None:
            self.last_early_share = sum(w for w, ran in zip(weights, self._early_runs, strict=True) if ran) / norm
        if early >= 0 and self.last_early_share >= self.early_defence_share:
            # The early threat runs in most worlds: the rule-based card is medium's defence against it.
            hint, hint_why = self.play_from(k, legal, running=early)
        # The rule-based choice is kept unless the search finds something clearly better: a
        # margin of prior_margin points plus one standard error of the paired difference.
        hint_i = representative(cands, hint)
        if (best_p, best_i) != (0, hint_i) and not clearly_better(
            vals[best_p][best_i], vals[0][hint_i], self.prior_margin, weights
        ):
            best_p, best_i = 0, hint_i
        card = cands[best_i]
        ranked = sorted(range(len(cands)), key=lambda i: -sums[best_p][i])
        exp = own[best_p][best_i] / norm
        runner = next((i for i in ranked if i != best_i), None)
        tail = f"{exp:.1f} pts expected over {worlds} worlds"
        if weights is not None:
            tail += f" weighted to {self.last_ess:.0f} by the plays seen"
        if runner is not None:
            tail += f", {sym(cands[runner])} {own[best_p][runner] / norm:.1f}"
        if early >= 0:
            tail += f"; {view.names[early]} shoots in {self.last_early_share:.0%} of the worlds"
        if plans[best_p]:
            return CARDS[card], f"moon plan: {sym(card)} ({tail})"
        # A card taking a trick with points off the threat stops its moon; for an early threat only
        # where the worlds in which it shoots decided the card (without them it would not have won).
        stopper = threat if threat >= 0 else early
        if stopper >= 0 and view.trick.cards and (trick_points(k.rules, k.trick_mask) > 0 or k.trick_mask & HEARTS):
            takes = card > k.winning_card and card // 13 == k.led_suit
            if takes and (
                threat >= 0 or (best_i != hint_i and not self._wins_without_moon(vals, best_i, hint_i, weights))
            ):
                return CARDS[card], f"stop {view.names[stopper]}'s moon: take the trick with {sym(card)} ({tail})"
        if best_i == hint_i:
            return CARDS[hint], f"{hint_why} ({tail})"
        return CARDS[card], f"{sym(card)} does best in the deals played out from here ({tail})"

    def _wins_without_moon(
        self, vals: list[list[list[float]]], best_i: int, hint_i: int, weights: list[float] | None
    ) -> bool:
        """Whether candidate ``best_i`` still clearly beats the hint's in the worlds of the last
        search where the early moon threat did not shoot."""
        keep = [i for i, ran in enumerate(self._early_runs) if not ran]
        if len(keep) < 2:
            return False
        a = [vals[0][best_i][i] for i in keep]
        b = [vals[0][hint_i][i] for i in keep]
        w = None if weights is None else [weights[i] for i in keep]
        return clearly_better(a, b, self.prior_margin, w)

    #: Compiled search: worlds sampled per kernel call at most (the budget is checked between calls,
    #: and a batch is cut to what fits in the time left).
    world_batch = 16
    #: Compiled search: rollouts per sampled world and candidate are chosen so that one world
    #: plays about this many in all (set when sampling a world in Python cost about as much as 20
    #: compiled rollouts; compiled, it costs less than one).
    rollouts_per_world = 24
    #: ...and at most this many per candidate.
    max_repeats = 8

    def _search(
        self,
        view: SeatView,
        k: Knowledge,
        rng: random.Random,
        cands: list[int],
        plans: list[int],
        defence: int,
        endgame: bool,
        deadline: float,
        early: int = -1,
    ) -> tuple[list[list[list[float]]], list[list[float]], int, int, list[float] | None]:
        """Every candidate under every plan in sampled worlds, played out in compiled code
        (:func:`hearts.fast.kernels.search_worlds`): a batch of sampled worlds per call, several
        rollouts per world (their mean utility is the world's value), every candidate and plan on
        the same random numbers. Returns the utilities vals[plan][card][world], own points summed
        [plan][card], worlds, rollouts, and the worlds' weights (None: equal). With :attr:`inference`
        each world is weighted by how well the rollout policy explains the other seats' plays so
        far in it (:func:`hearts.fast.kernels.play_log_likelihoods`). ``early`` (-1: none) is an
        early moon threat (:attr:`early_threat_points`): it runs for the moon, as ``defence`` does, in
        the worlds where its dealt hand is strong enough; :attr:`last_early_share` is their share."""
        import numpy as np

        from hearts.fast.bridge import _rules_array_shared, state_array
        from hearts.players.learned import _voids

        kern = self.kernels
        rules = view.rules
        n = rules.players
        me = view.seat
        R = _rules_array_shared(rules)
        seats = self._seat_policies(n, me)
        pol = np.array(
            [[kern.POLICY_MOON if (plan | defence) >> s & 1 else seats[s] for s in range(n)] for plan in plans],
            dtype=np.int64,
        )
        if early >= 0:
            pol_run = pol.copy()
            pol_run[:, early] = kern.POLICY_MOON
            runner = EarlyThreat(kern, self._threat_reading(), R, view, early)
        runs_total = 0
        self._early_runs: list[bool] = []
        cards = np.array(cands, dtype=np.int64)
        totals = np.array(view.totals, dtype=np.int64)
        # The voids known now (the learned player's reading): what a learned rollout seat starts from.
        voids = _voids(k) if self._learned is not None else 0
        reps = max(1, min(self.max_repeats, self.rollouts_per_world // (len(cands) * len(plans))))
        base: Any = None
        chunks_u: list[Any] = []
        chunks_own: list[Any] = []
        chunks_logw: list[Any] = []
        infer = self.inference and view.tricks  # nothing to explain before the first trick is done
        if infer:
            plays = np.array([c for t in (*view.tricks, view.trick) for c in t.cards], dtype=np.int64)
            played = np.array(view.played_by(), dtype=np.int64)
        sample = LikelyHandsSampler(k)
        worlds = 0
        began = time.perf_counter()
        batch = 2  # a first small batch measures the time a world takes here
        while worlds < self.max_worlds:
            batch = min(batch, self.max_worlds - worlds)
            sampled = sample(rng, batch)
            if base is None:
                base = state_array(view.world([int(h) for h in sampled[0]]))
            W = np.repeat(base[None, :], batch, axis=0)
            W[:, kern.S_HANDS : kern.S_HANDS + n] = sampled
            seeds = np.array([[rng.getrandbits(31) for _ in range(reps)] for _ in range(batch)], dtype=np.int64)
            if infer:
                starts = sampled | played
            if early >= 0:
                # early_logw: the early seat's plays are explained by the mixture of the two models.
                runs, early_logw = runner.runs(sampled, *((starts, plays) if infer else ()))
                runs_total += int(runs.sum())
                self._early_runs.extend(runs.tolist())
                scores = np.empty((batch, reps, len(plans), len(cands), n), dtype=np.int64)
                for pick, rows in ((~runs, pol), (runs, pol_run)):
                    if pick.any():
                        scores[pick] = self._rollouts(W[pick], R, cards, rows, seeds[pick], totals, voids)
            else:
                scores = self._rollouts(W, R, cards, pol, seeds, totals, voids)
            chunks_u.append(self._utilities(view, scores, endgame).mean(axis=1))  # [world, plan, card]
            chunks_own.append(scores[..., me].mean(axis=1))
            if infer:
                logw = kern.play_log_likelihoods(
                    starts, R, plays, me, self._log_miss, self._log_lead_miss, self._inferred_policy
                )
                if early >= 0 and self.moon_evidence:
                    logw = logw + early_logw
                chunks_logw.append(logw)
            worlds += batch
            now = time.perf_counter()
            if now >= deadline:
                break
            # The next batch: what fits in the time left at the pace so far (so the budget is
            # overrun by at most about one world), up to world_batch.
            per_world = (now - began) / worlds
            batch = max(1, min(self.world_batch, int((deadline - now) / per_world)))
        self.last_early_share = runs_total / worlds
        u = np.concatenate(chunks_u)  # [world, plan, card]
        mine = np.concatenate(chunks_own)
        weights = None
        if infer:
            logw = np.concatenate(chunks_logw)
            w = np.exp(logw - logw.max())
            weights = w.tolist()
            own = (mine * w[:, None, None]).sum(axis=0)
        else:
            own = mine.sum(axis=0)
        vals = [[u[:, p, i].tolist() for i in range(len(cands))] for p in range(len(plans))]
        return vals, own.tolist(), worlds, worlds * reps * len(cands) * len(plans), weights

    def _rollouts(self, W: Any, R: Any, cards: Any, rows: Any, seeds: Any, totals: Any, voids: int) -> Any:
        """:func:`hearts.fast.kernels.search_worlds_with` with this player's rollout settings: the
        learned policy's weights when a seat plays it, knowing the voids ``voids`` shown so far."""
        kern = self.kernels
        model = kern.NO_WEIGHTS if self._learned is None else self._learned.model.weights
        margin = 0.0 if self._learned is None else self._learned.model.margin
        return kern.search_worlds_with(
            W, R, cards, rows, self.epsilon, seeds, kern.CHOICE_BEST, totals, model, margin, voids
        )

    @staticmethod
    def _utilities(view: SeatView, scores: Any, endgame: bool) -> Any:
        """:meth:`utility` over an array of hand scores (seats on the last axis), vectorised."""
        import numpy as np

        me = view.seat
        n = scores.shape[-1]
        mine = scores[..., me]
        value = (scores.sum(axis=-1) - mine) / (n - 1) - mine
        if endgame:
            final = scores + np.array(view.totals, dtype=np.int64)
            low = final.min(axis=-1)
            over = final.max(axis=-1) >= view.rules.target
            mine_f = final[..., me]
            ties = (final == low[..., None]).sum(axis=-1)
            below = (final < mine_f[..., None]).sum(axis=-1)
            value = value + np.where(over, np.where(mine_f == low, 40.0 / ties, -10.0 * below), 0.0)
        return value

    # -- every option valued, for a review (hearts.review) ------------------------------

    def value_options(self, view: SeatView, passes: tuple[CardSet, ...] = ()) -> Any:
        """This seat's decision now, made exactly as :meth:`decide` makes it, with the search's
        measure of every option kept (:func:`hearts.players.valuation.value_options`)."""
        from hearts.players.valuation import value_options

        return value_options(self, view, passes)
