"""Our player against OpenSpiel's C++ ISMCTS bot, in OpenSpiel's own ``hearts`` game, duplicate 2-vs-2.

    python benchmarks/bench_vs_openspiel.py --player expert --deals 4 --simulations 10000
    python benchmarks/bench_vs_openspiel.py --pool new/seed*.json.gz --paired old/seed*.json.gz   # runs kept with --json

Needs the ``bench`` extra (``pip install 'hearts[bench]'``, i.e. open-spiel), but for ``--pool``.

The game is OpenSpiel's single-deal ``hearts`` with ``qs_breaks_hearts=False``. Its other parameters at
their defaults match our standard rules (the script checks this on every action, below):
``pass_cards`` (left/across/right/none), ``no_pts_on_first_trick`` (no heart or Q♠ on the first trick
unless the hand holds nothing else), ``can_lead_any_club=False`` (2♣ opens), ``must_break_hearts``,
``can_lead_hearts_instead_of_qs=False`` (a hand of Q♠ and hearts must lead Q♠ before hearts are
broken), ``jd_bonus=False`` and ``avoid_all_tricks_bonus=False``; a moon scores 0 for the shooter and
26 for each other seat, as our add-to-others moon. What differs: OpenSpiel's default
``qs_breaks_hearts=True`` (set to False here, our standard), OpenSpiel plays one hand with the pass
direction drawn by chance (we set it: deal ``d`` passes as hand ``d`` of our left, right, across, hold
cycle), and OpenSpiel has no game to a target (so payoffs are per deal).

OpenSpiel's bot: ``pyspiel.ISMCTSBot`` with ``pyspiel.RandomRolloutEvaluator`` (one random rollout
per leaf), UCT constant 2, unlimited world samples and the max-visit final policy, 10,000
simulations per move by default. It passes one card per action, as OpenSpiel's game asks.

Our player decides from its seat's information only: for each decision its :class:`SeatView` is
rebuilt by replaying into our engine what that seat knows in OpenSpiel's game — its own dealt cards,
its pass, the cards it received, and the public history of plays (who played what, as the harness
saw each action happen). The other seats' hidden cards in that replay are an arbitrary filling that
the view never shows. Our engine's legal cards for the seat must equal OpenSpiel's legal actions, and
at the end of every deal the whole deal is replayed through our engine with every card checked and
must give OpenSpiel's points: the two rule sets are checked against each other on every deal.

A known OpenSpiel defect is worked around: ``HeartsState::ResampleFromInfostate`` during the passing
phase re-applies the real pass of the seat that passes *to* the resampled player even though that
player has not received it yet (and its resampled passer may not hold those cards), which corrupts
the sampled worlds and crashes ISMCTS (a segmentation fault) for every passer whose giver passed
before it. For its pass decisions the ISMCTS bot is therefore shown the same deal with the seats
rotated so that it sits first to pass (seat 0), with its own earlier pass cards re-applied: its
information is exactly the same, and no one has passed to it yet.

Duplicate: each deal is played twice, our player in seats 0 and 2 then in seats 1 and 3. The payoff
per seat-deal is the mean of the other seats' points minus the seat's own (zero-sum); its 95%
interval is over deals. Time per move is reported for both sides (a pass is one decision for our
player and three one-card actions for OpenSpiel's).

``--json`` keeps every deal: both tables' points, every decision's time, and every card passed and
played in order as ``[seat, card, reason]`` (our player's reason; empty for ISMCTS), so a table can be
read or replayed. ``--only`` plays chosen deal numbers of a seed (a set of deals to look at again).

``--pool`` reads runs kept with ``--json`` (gzipped or not) instead of playing: their deals pooled,
the moons our player made and allowed, its time a play; ``--paired`` runs of another player on the
same deals (the same seeds and deal numbers) add the difference deal by deal.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from hearts.core import CardSet, HandState, PassCards, PassDirection, Phase, PlayCard, Rules, SeatView, deal_cards
from hearts.core.cards import CARDS, Card
from hearts.players.registry import make_player
from hearts.sim.stats import Estimate, mean_ci, percentile

# -- mapping between OpenSpiel's hearts and our engine --------------------------------------------------------

#: Our suit order is clubs, diamonds, spades, hearts; OpenSpiel's is clubs, diamonds, hearts, spades.
_SUIT_SWAP = (0, 1, 3, 2)

#: OpenSpiel's pass-direction chance outcomes: 0 no pass, 1 left, 2 across, 3 right (left = next player).
OS_DIRECTION = {PassDirection.HOLD: 0, PassDirection.LEFT: 1, PassDirection.ACROSS: 2, PassDirection.RIGHT: 3}

#: OpenSpiel's game of one hand passes this many cards, one action each.
PASS_COUNT = 3


def to_action(card: int) -> int:
    """Our card (``suit*13 + rank-2``) as OpenSpiel's action id (``rank*4 + suit``)."""
    return (card % 13) * 4 + _SUIT_SWAP[card // 13]


def to_card(action: int) -> Card:
    """OpenSpiel's card action id as our card."""
    return CARDS[_SUIT_SWAP[action % 4] * 13 + action // 4]


def hand_number_for(rules: Rules, direction: PassDirection) -> int:
    """The first hand number of our pass cycle that passes in ``direction`` (our HandState takes it from there)."""
    assert rules.pass_cycle is not None
    return rules.pass_cycle.index(direction)


def mask(cards: Sequence[int]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


# -- one deal in OpenSpiel's game --------------------------------------------------------------------------------


class OpenSpielDeal:
    """OpenSpiel's state for one deal, with the actor of every action kept (who played what is public)."""

    def __init__(self, game: Any, dealt: Sequence[int], direction: PassDirection) -> None:
        self.state = game.new_initial_state()
        self.dealt = tuple(dealt)
        self.direction = direction
        self.actors: list[int] = []
        self.state.apply_action(OS_DIRECTION[direction])
        hands = [sorted(CardSet(m)) for m in dealt]
        for i in range(52):  # OpenSpiel deals card i to player i % 4
            self.state.apply_action(to_action(hands[i % 4][i // 4]))
        self.start = len(self.state.history())

    @property
    def passing(self) -> bool:
        return self.direction is not PassDirection.HOLD

    def actions(self) -> list[int]:
        """The actions after the deal: passes (if any), then plays."""
        return list(self.state.history()[self.start :])

    def in_pass_phase(self) -> bool:
        return self.passing and len(self.actions()) < 4 * PASS_COUNT

    def apply(self, action: int) -> None:
        self.actors.append(self.state.current_player())
        self.state.apply_action(action)

    def passes(self) -> dict[int, list[int]]:
        """Each seat's pass so far, as our cards (OpenSpiel passes seat 0's three cards first, then 1, ...)."""
        acts = self.actions()[: 4 * PASS_COUNT] if self.passing else []
        out: dict[int, list[int]] = {}
        for a, seat in zip(acts, self.actors, strict=False):
            out.setdefault(seat, []).append(to_card(a))
        return out

    def plays(self) -> list[tuple[int, Card]]:
        """``(seat, card)`` of every card played so far, in order."""
        skip = 4 * PASS_COUNT if self.passing else 0
        acts = self.actions()[skip:]
        return [(seat, to_card(a)) for a, seat in zip(acts, self.actors[skip:], strict=True)]


def pass_target(seat: int, direction: PassDirection) -> int:
    # The same offsets as our engine's (left = next seat in playing order); checked against our HandState below.
    return (seat + direction.offset(4)) % 4


def seat_view(deal: OpenSpielDeal, seat: int, rules: Rules, rng: random.Random) -> SeatView:
    """``seat``'s view, rebuilt from its own dealt cards, passes it made and received, and the public plays.

    The other seats' hidden cards are filled arbitrarily, consistent with the cards they played and
    the cards ``seat`` passed them; the view never shows them. Other seats' plays are applied with the
    engine's unchecked ``advance`` (they were legal in the real deal, not necessarily with the
    filling); ``seat``'s own plays are checked.
    """
    direction = deal.direction
    offset = direction.offset(4)
    mine = deal.dealt[seat]
    passes = deal.passes()
    plays = deal.plays()
    passed_all = deal.passing and sum(len(p) for p in passes.values()) == 4 * PASS_COUNT
    # Each seat's hand after the exchange, as far as ``seat`` knows it; the rest is filled below.
    post = [0] * 4
    pass_masks: dict[int, int] = {}
    if passed_all:
        source = (seat - offset) % 4
        pass_masks[seat] = mask(passes[seat])
        pass_masks[source] = mask(passes[source])
        post[seat] = (mine & ~pass_masks[seat]) | pass_masks[source]
        post[pass_target(seat, direction)] |= pass_masks[seat]
    else:
        post[seat] = mine
    for s, card in plays:
        if s != seat:
            post[s] |= 1 << card
    unknown = list(CardSet(rules.in_play & ~(post[0] | post[1] | post[2] | post[3])))
    rng.shuffle(unknown)
    for s in range(4):
        need = rules.hand_size - post[s].bit_count()
        post[s] |= mask(unknown[:need])
        unknown = unknown[need:]
    if passed_all:
        # The passes ``seat`` did not see: any cards of the receiver's hand will do.
        for s in range(4):
            if s not in pass_masks:
                pass_masks[s] = mask(sorted(CardSet(post[pass_target(s, direction)]))[:PASS_COUNT])
        dealt = [(post[s] & ~pass_masks[(s - offset) % 4]) | pass_masks[s] for s in range(4)]
    else:
        dealt = post
        # Seats that passed before ``seat`` (OpenSpiel passes in seat order): only "has passed" is public.
        for s, cards in passes.items():
            if s != seat and len(cards) == PASS_COUNT:
                pass_masks[s] = mask(sorted(CardSet(dealt[s]))[:PASS_COUNT])
    assert dealt[seat] == mine
    hand = HandState(rules, dealt, hand_number_for(rules, direction))
    assert hand.direction is direction
    for s in sorted(pass_masks):
        assert hand.pass_target(s) == pass_target(s, direction)
        hand.pass_cards(s, CardSet(pass_masks[s]))
    for s, card in plays:
        if hand.turn != s:
            raise AssertionError(f"our engine has seat {hand.turn} to play where OpenSpiel had seat {s}")
        if s == seat:
            hand.play(card, seat)
        else:
            hand.advance(card)
    return SeatView.of_hand(hand, seat)


def referee_scores(deal: OpenSpielDeal, rules: Rules) -> tuple[int, ...]:
    """The finished deal replayed through our engine with every card checked: its scores (never shown to a player)."""
    hand = HandState(rules, deal.dealt, hand_number_for(rules, deal.direction))
    for s, cards in sorted(deal.passes().items()):
        hand.pass_cards(s, cards)
    for s, card in deal.plays():
        hand.play(card, s)
    assert hand.phase is Phase.HAND_OVER and hand.scores is not None
    return hand.scores


# -- the bots ----------------------------------------------------------------------------------------------


def ismcts_bot(pyspiel: Any, seed: int, simulations: int, uct_c: float) -> tuple[Any, Any]:
    """OpenSpiel's ISMCTS bot and its evaluator (returned too: the caller keeps it alive as long as the bot)."""
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    bot = pyspiel.ISMCTSBot(
        seed, evaluator, uct_c, simulations, -1, pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False
    )
    return bot, evaluator


def ismcts_pass_action(game: Any, bot: Any, deal: OpenSpielDeal, seat: int) -> int:
    """The bot's next pass card, decided at a rotated table where it is first to pass (see the module text)."""
    rotated = game.new_initial_state()
    rotated.apply_action(OS_DIRECTION[deal.direction])
    hands = [sorted(CardSet(deal.dealt[(q + seat) % 4])) for q in range(4)]
    for i in range(52):
        rotated.apply_action(to_action(hands[i % 4][i // 4]))
    for card in deal.passes().get(seat, []):
        rotated.apply_action(to_action(card))
    assert rotated.current_player() == 0
    return int(bot.step(rotated))


# -- playing ---------------------------------------------------------------------------------------------------


@dataclass
class TableOutcome:
    ours: tuple[int, ...]
    points: tuple[int, ...]
    our_play: list[float]
    our_pass: list[float]
    os_play: list[float]
    os_pass: list[float]
    #: every card passed and played, in order: ``[seat, card, reason]`` (the reason our player gave; "" for ISMCTS)
    moves: list[list[Any]]


def play_table(
    pyspiel: Any, game: Any, rules: Rules, dealt: Sequence[int], direction: PassDirection, ours: tuple[int, ...],
    args: argparse.Namespace, seed: int,
) -> TableOutcome:  # fmt: skip
    deal = OpenSpielDeal(game, dealt, direction)
    players = {s: make_player(args.player, seed=seed * 10 + s, time_budget=args.budget) for s in ours}
    bots = {s: ismcts_bot(pyspiel, seed * 10 + s, args.simulations, args.uct_c) for s in range(4) if s not in ours}
    out = TableOutcome(ours, (), [], [], [], [], [])
    rng = random.Random(seed)
    state = deal.state
    while not state.is_terminal():
        seat = state.current_player()
        passing = deal.in_pass_phase()
        if seat in players:
            view = seat_view(deal, seat, rules, rng)
            legal = sorted(to_card(a) for a in state.legal_actions())
            if not passing and sorted(view.legal) != legal:
                raise AssertionError(f"legal cards differ for seat {seat}: ours {view.legal}, OpenSpiel's {legal}")
            start = time.perf_counter()
            decision = players[seat].decide(view)
            move = decision.move
            seconds = time.perf_counter() - start
            if isinstance(move, PassCards):
                out.our_pass.append(seconds)
                for card in sorted(move.cards):
                    out.moves.append([seat, str(card), decision.reason])
                    deal.apply(to_action(card))
            else:
                assert isinstance(move, PlayCard)
                out.our_play.append(seconds)
                out.moves.append([seat, str(move.card), decision.reason])
                deal.apply(to_action(move.card))
        else:
            start = time.perf_counter()
            if passing:
                action = ismcts_pass_action(game, bots[seat][0], deal, seat)
            else:
                action = int(bots[seat][0].step(state))
            seconds = time.perf_counter() - start
            (out.os_pass if passing else out.os_play).append(seconds)
            out.moves.append([seat, str(to_card(action)), ""])
            deal.apply(action)
    points = tuple(26 - int(r) for r in state.returns())
    scores = referee_scores(deal, rules)
    if scores != points:
        raise AssertionError(f"our engine scores the deal {scores}, OpenSpiel {points}")
    out.points = points
    return out


def dealt_for(rules: Rules, seed: int, index: int) -> tuple[int, ...]:
    """The cards of deal ``index`` of a run with ``seed``: the same at both tables and in every run."""
    return deal_cards(rules, random.Random(f"bench-vs-openspiel:{seed}:{index}"))


def kept_table(seed: int, deal: dict[str, Any], table: int) -> tuple[HandState, list[list[Any]]]:
    """Table ``table`` (0 or 1) of a kept ``deal`` of a run with ``seed``, read back through our
    engine: the hand with every seat's kept pass made, and the kept plays (``[seat, card, reason]``)
    still to be played on it in order."""
    rules = Rules()
    direction = PassDirection(deal["direction"])
    hand = HandState(rules, dealt_for(rules, seed, deal["deal"]), hand_number_for(rules, direction))
    moves = deal["moves"][table]
    passes, plays = moves[: len(moves) - 52], moves[len(moves) - 52 :]
    for seat in sorted({seat for seat, _, _ in passes}):
        hand.pass_cards(seat, [card for s, card, _ in passes if s == seat])
    return hand, plays


def play_deal(task: tuple[int, argparse.Namespace]) -> dict[str, Any]:
    """Both duplicate tables of deal ``index``."""
    index, args = task
    import pyspiel

    rules = Rules()
    game = pyspiel.load_game("hearts", {"qs_breaks_hearts": False})
    dealt = dealt_for(rules, args.seed, index)
    direction = rules.pass_direction(index)
    tables = []
    for t, ours in enumerate(((0, 2), (1, 3))):
        tables.append(
            play_table(pyspiel, game, rules, dealt, direction, ours, args, seed=args.seed * 1000 + index * 2 + t)
        )
    payoffs = []
    for tab in tables:
        for s in tab.ours:
            others = [tab.points[o] for o in range(4) if o != s]
            payoffs.append(sum(others) / 3 - tab.points[s])
    return {
        "deal": index,
        "direction": direction.value,
        "payoff": sum(payoffs) / len(payoffs),
        "points": [list(t.points) for t in tables],
        "our_play": [x for t in tables for x in t.our_play],
        "our_pass": [x for t in tables for x in t.our_pass],
        "os_play": [x for t in tables for x in t.os_play],
        "os_pass": [x for t in tables for x in t.os_pass],
        "moves": [t.moves for t in tables],
    }


def timing(deals: Iterable[dict[str, Any]], key: str) -> dict[str, float]:
    """Mean, 95th percentile and count of one side's seconds a move over deals (``key``: ``our_play``,
    ``our_pass``, ``os_play`` or ``os_pass``)."""
    xs = [x for d in deals for x in d[key]]
    return {"mean": sum(xs) / len(xs) if xs else float("nan"), "p95": percentile(xs, 95), "count": len(xs)}


# -- pooling kept runs ------------------------------------------------------------------------------------------


def pooled_deals(paths: Sequence[str]) -> dict[tuple[int, int], dict[str, Any]]:
    """The deals of runs kept with ``--json``, by (seed, deal number); a deal found twice is an error."""
    from bench_ladder import read_json  # benchmarks/ is the script's folder, so on its path

    deals: dict[tuple[int, int], dict[str, Any]] = {}
    for path in paths:
        run = read_json(path)
        for deal in run["deals"]:
            key = (run["args"]["seed"], deal["deal"])
            if key in deals:
                raise ValueError(f"{path}: deal {key[1]} of seed {key[0]} is in another run already")
            deals[key] = deal
    return deals


def moons(deals: Sequence[dict[str, Any]]) -> tuple[int, int]:
    """Moons our player made and allowed (a table scored 0, 26, 26, 26; ours sit in seats 0 and 2 at
    the first table of a deal, 1 and 3 at the second).

    >>> moons([{"points": [[26, 0, 26, 26], [26, 0, 26, 26]]}])
    (1, 1)
    """
    made = allowed = 0
    for deal in deals:
        for ours, points in zip(((0, 2), (1, 3)), deal["points"], strict=True):
            if sorted(points) == [0, 26, 26, 26]:
                if points.index(0) in ours:
                    made += 1
                else:
                    allowed += 1
    return made, allowed


def pool_report(paths: Sequence[str], paired: Sequence[str] = ()) -> list[str]:
    """The lines ``--pool`` prints: the pooled payoff, moons and time a play, and with ``paired`` runs
    the other player's payoff on the deals both played and the difference deal by deal."""

    def line(what: str, e: Estimate) -> str:
        return f"{what}: {e.mean:+.2f} [{e.low:+.2f}, {e.high:+.2f}] a seat-deal over {e.n} deals"

    ours = pooled_deals(paths)
    made, allowed = moons(list(ours.values()))
    plays = timing(ours.values(), "our_play")
    out = [
        line("pooled", mean_ci([d["payoff"] for d in ours.values()])),
        f"moons made {made}, allowed {allowed} at {2 * len(ours)} tables; "
        f"{1000 * plays['mean']:.0f} ms a play (p95 {1000 * plays['p95']:.0f})",
    ]
    if paired:
        theirs = pooled_deals(paired)
        common = sorted(ours.keys() & theirs.keys())
        if not common:
            raise ValueError("the paired runs share no deal with the pooled ones (the same seeds and deal numbers)")
        made, allowed = moons([theirs[k] for k in common])
        out += [
            line("paired runs on the same deals", mean_ci([theirs[k]["payoff"] for k in common]))
            + f"; moons made {made}, allowed {allowed}",
            line(
                "pooled minus paired, deal by deal", mean_ci([ours[k]["payoff"] - theirs[k]["payoff"] for k in common])
            ),
        ]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--player", default="expert", help="our player (any spec make_player takes)")
    parser.add_argument("--deals", type=int, default=100, help="deals, each at both duplicate tables")
    parser.add_argument(
        "--first", type=int, default=0, help="number of the first deal (to finish a run's seed in parts)"
    )
    parser.add_argument(
        "--only", type=int, nargs="+", metavar="DEAL", help="play these deal numbers instead (of --first and --deals)"
    )
    parser.add_argument("--simulations", type=int, default=10_000, help="ISMCTS simulations per move")
    parser.add_argument("--uct-c", type=float, default=2.0, help="ISMCTS exploration constant")
    parser.add_argument("--budget", type=float, default=None, help="our player's seconds per decision")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="deals played at once (processes)")
    parser.add_argument("--json", default=None, help="write the figures and every deal to this file")
    parser.add_argument("--pool", nargs="+", metavar="RUN", help="pool runs kept with --json instead of playing")
    parser.add_argument(
        "--paired", nargs="+", default=(), metavar="RUN", help="with --pool: another player's runs on the same deals"
    )
    args = parser.parse_args(argv)
    if args.pool:
        try:
            print("\n".join(pool_report(args.pool, args.paired)))
        except (OSError, ValueError, KeyError) as exc:
            print(f"cannot pool: {exc}", file=sys.stderr)
            return 2
        return 0
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("needs OpenSpiel: pip install 'hearts[bench]'", file=sys.stderr)
        return 2
    make_player(args.player, seed=0, time_budget=args.budget)  # an unknown player fails here, before any work

    print(
        f"{args.player} (budget {args.budget or 'default'}) vs OpenSpiel ISMCTS ({args.simulations} simulations, "
        f"random rollouts, max-visit), {len(args.only) if args.only else args.deals} deals x 2 duplicate tables, "
        f"seed {args.seed}" + (f", deals {args.only}" if args.only else f" from deal {args.first}" if args.first else ""),
        flush=True,
    )
    start = time.perf_counter()
    numbers = args.only if args.only else range(args.first, args.first + args.deals)
    tasks = [(i, args) for i in numbers]
    results = []
    if args.jobs > 1:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            for r in pool.imap(play_deal, tasks):
                results.append(r)
                print(
                    f"deal {r['deal']:4d} ({r['direction']:6s}) payoff {round(r['payoff'], 9) + 0.0:+7.2f}  points {r['points']}",
                    flush=True,
                )
    else:
        for task in tasks:
            r = play_deal(task)
            results.append(r)
            print(
                f"deal {r['deal']:4d} ({r['direction']:6s}) payoff {round(r['payoff'], 9) + 0.0:+7.2f}  points {r['points']}",
                flush=True,
            )
    wall = time.perf_counter() - start

    payoff = mean_ci([r["payoff"] for r in results])

    times = {k: timing(results, k) for k in ("our_play", "our_pass", "os_play", "os_pass")}
    print()
    print(
        f"payoff per seat-deal of {args.player}: {payoff.mean:+.2f}  95% CI [{payoff.low:+.2f}, {payoff.high:+.2f}]  (n={payoff.n} deals)"
    )
    print(
        f"{args.player} s/decision: play {times['our_play']['mean']:.3f} (p95 {times['our_play']['p95']:.3f}), pass {times['our_pass']['mean']:.3f}"
    )
    print(
        f"ISMCTS s/action: play {times['os_play']['mean']:.3f} (p95 {times['os_play']['p95']:.3f}), pass card {times['os_pass']['mean']:.3f}"
    )
    print(f"wall {wall:.0f} s")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(
                {"args": vars(args), "payoff": payoff.to_dict(), "times": times, "wall_s": wall, "deals": results},
                fh,
                indent=1,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
