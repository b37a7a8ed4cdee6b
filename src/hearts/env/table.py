"""The table under every environment: one episode (a hand or a whole game) over the real engine.

:class:`Table` holds the engine state, takes one *action* (see
:mod:`hearts.env.encoding`) at a time for a seat, turns the passing phase into
one card per step, and turns finished hands into rewards. The PettingZoo and
Gymnasium environments are thin shells around it. No rule lives here: legal
plays come from the engine, and every pass, play and moon choice is applied
(and checked) by the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any

import numpy as np

from hearts.core import (
    CARDS,
    CardSet,
    ChooseMoon,
    Game,
    HandState,
    IllegalMoveError,
    MoonOption,
    Move,
    OutOfTurnError,
    PassCards,
    Phase,
    PlayCard,
    Rules,
    SeatView,
    seat_name,
    seeded_deal,
)
from hearts.env.encoding import (
    MOON_ADD_TO_OTHERS,
    action_mask,
    as_action,
    describe_action,
    encode_view,
)

if TYPE_CHECKING:
    import gymnasium


class Episode(Enum):
    """How long an episode lasts."""

    HAND = "hand"  #: one hand: deal, pass, thirteen tricks, score
    GAME = "game"  #: a whole game, hand after hand, until a total reaches the target


class Reward(Enum):
    """What each seat is rewarded with."""

    POINTS = "points"  #: minus its score, at the end of every hand (points are bad, so rewards are <= 0 unless a bonus or moon gives some back)
    ZERO_SUM = (
        "zero-sum"  #: the table's mean score minus its own, at the end of every hand: the seats' rewards sum to 0
    )
    RESULT = "result"  #: at the end of the episode only: +1 shared by the lowest seats, the rest split -1 (sums to 0)


def resolve_rules(rules: Rules | str | None) -> Rules:
    """A :class:`Rules` from rules, a preset name or ``None`` (the standard game)."""
    if rules is None:
        return Rules()
    if isinstance(rules, str):
        return Rules.preset(rules)
    if isinstance(rules, Rules):
        return rules
    raise TypeError(f"rules must be a Rules, a preset name or None, not {type(rules).__name__}")


def _enum(kind: type[Enum], value: object, what: str) -> Enum:
    if isinstance(value, kind):
        return value
    try:
        return kind(value)
    except ValueError:
        choices = ", ".join(repr(m.value) for m in kind)
        raise ValueError(f"{what} must be one of {choices}, not {value!r}") from None


def result_payoff(scores: Sequence[int]) -> list[float]:
    """Zero-sum payoff of a finished episode: the lowest seats share +1, the others share -1.

    A sole winner at four seats gets +1 and each other seat -1/3; if every seat ties, all get 0.

    >>> result_payoff([3, 10, 10, 3])
    [0.5, -0.5, -0.5, 0.5]
    """
    low = min(scores)
    winners = [s for s, x in enumerate(scores) if x == low]
    n, k = len(scores), len(winners)
    if k == n:
        return [0.0] * n
    return [1.0 / k if s in winners else -1.0 / (n - k) for s in range(n)]


class Table:
    """One episode of Hearts driven by actions; see :mod:`hearts.env.encoding` for their numbering."""

    def __init__(
        self,
        rules: Rules | str | None = None,
        episode: Episode | str = Episode.GAME,
        reward: Reward | str = Reward.POINTS,
        names: Sequence[str] | None = None,
    ) -> None:
        self.rules = resolve_rules(rules)
        self.episode = _enum(Episode, episode, "episode")
        self.reward = _enum(Reward, reward, "reward")
        n = self.rules.players
        self.players = n
        self.names = tuple(names) if names is not None else tuple(seat_name(s, n) for s in range(n))
        if len(self.names) != n:
            raise ValueError(f"{len(self.names)} names for {n} seats")
        self.game: Game | None = None
        self._hand: HandState | None = None
        self.selected = [0] * n
        self.seed = 0

    # -- episodes ----------------------------------------------------------------

    def reset(self, rng: np.random.Generator) -> None:
        """Deal a new episode, its deal drawn from ``rng`` (the same generator state gives the same deal)."""
        self.seed = int(rng.integers(2**31))
        self.selected = [0] * self.players
        if self.episode is Episode.GAME:
            self.game = Game(self.rules, seed=self.seed, names=self.names)
            self._hand = None
        else:
            # A hand episode draws its place in the pass cycle, so every pass direction is met.
            number = int(rng.integers(len(self.rules.pass_cycle or ())))
            self.game = None
            self._hand = HandState(self.rules, seeded_deal(self.rules, self.seed, number), number)

    @property
    def dealt(self) -> bool:
        """Whether :meth:`reset` has dealt an episode."""
        return self.game is not None or self._hand is not None

    @property
    def hand(self) -> HandState:
        if self.game is not None:
            return self.game.hand
        if self._hand is None:
            raise RuntimeError("the table has not been dealt: call reset() first")
        return self._hand

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self.game.totals) if self.game is not None else (0,) * self.players

    @property
    def over(self) -> bool:
        if self.game is not None:
            return self.game.is_over
        return self.hand.phase is Phase.HAND_OVER

    @property
    def to_move(self) -> tuple[int, ...]:
        """The seats owing a decision now (every seat still choosing its pass, or one seat)."""
        if self.over:
            return ()
        return self.game.to_move if self.game is not None else self.hand.to_move

    @property
    def next_seat(self) -> int | None:
        """The seat whose action comes next when seats take turns (the lowest seat still passing)."""
        seats = self.to_move
        return seats[0] if seats else None

    def view(self, seat: int) -> SeatView:
        """``seat``'s view: all that seat may see."""
        if self.game is not None:
            return self.game.view(seat)
        return SeatView.of_hand(self.hand, seat, names=self.names)

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        """``{"observation": vector, "action_mask": mask}`` for ``seat``, from its view alone."""
        view = self.view(seat)
        return {
            "observation": encode_view(view, self.selected[seat]),
            "action_mask": action_mask(view, self.selected[seat]),
        }

    # -- actions -------------------------------------------------------------------

    def check(self, seat: int, action: object) -> int:
        """Raise (naming the seat, the action and the rule) unless ``seat`` may take ``action`` now."""
        a = as_action(action)
        if self.over:
            raise OutOfTurnError(f"the {self.episode.value} is over: no action is due from {self.names[seat]}")
        if seat not in self.to_move:
            raise OutOfTurnError(f"{self.names[seat]} has no decision to make now ({describe_action(a)} refused)")
        hand = self.hand
        who = self.names[seat]
        if hand.phase is Phase.PASS:
            if a >= 52:
                raise IllegalMoveError(f"illegal pass by {who}: {describe_action(a)} is not a card to pass")
            if self.selected[seat] >> a & 1:
                raise IllegalMoveError(f"illegal pass by {who}: {CARDS[a].symbol()} is already chosen")
            if not hand.hands[seat] >> a & 1:
                raise IllegalMoveError(f"illegal pass by {who}: {who} does not hold {CARDS[a].symbol()}")
        elif hand.phase is Phase.PLAY:
            if a >= 52:
                raise IllegalMoveError(f"illegal move by {who}: {describe_action(a)} when a card must be played")
            hand.check_play(CARDS[a], seat)
        elif hand.phase is Phase.MOON_CHOICE:
            if a < 52:
                raise IllegalMoveError(
                    f"illegal move by {who}: play of {CARDS[a]} when the moon's scoring must be chosen"
                )
            hand.check_moon_choice(seat, self._moon_option(a))
        return a

    @staticmethod
    def _moon_option(action: int) -> MoonOption:
        return MoonOption.ADD_TO_OTHERS if action == MOON_ADD_TO_OTHERS else MoonOption.SUBTRACT_FROM_SELF

    def act(self, seat: int, action: object) -> list[list[float]]:
        """Apply ``seat``'s action; return the reward vectors of what it finished (one per hand scored,
        plus the result at the end of the episode). An illegal action raises and changes nothing."""
        a = self.check(seat, action)
        hand = self.hand
        if hand.phase is Phase.PASS:
            chosen = self.selected[seat] | 1 << a
            if chosen.bit_count() < self.rules.pass_count:
                self.selected[seat] = chosen
                return []
            move: Move = PassCards(seat, CardSet(chosen))
        elif hand.phase is Phase.PLAY:
            move = PlayCard(seat, CARDS[a])
        else:
            move = ChooseMoon(seat, self._moon_option(a))
        return self.apply(move)

    def apply(self, move: Move) -> list[list[float]]:
        """Apply a whole move (as computer players give them); return the rewards as :meth:`act` does."""
        if self.over:
            raise OutOfTurnError(f"the {self.episode.value} is over: {move!r} refused")
        hand = self.hand
        finished_before = len(self.game.finished) if self.game is not None else 0
        (self.game if self.game is not None else hand).apply(move)
        if isinstance(move, PassCards):
            self.selected[move.seat] = 0
        if self.game is not None:
            scored = [h.scores for h in self.game.finished[finished_before:]]
        else:
            scored = [hand.scores] if hand.phase is Phase.HAND_OVER else []
        rewards = [self._hand_reward(s) for s in scored if s is not None]
        if self.over and self.reward is Reward.RESULT:
            rewards.append(result_payoff(self.totals if self.game is not None else self.hand.scores or ()))
        if scored:
            self.selected = [0] * self.players
        return rewards

    def _hand_reward(self, scores: Sequence[int]) -> list[float]:
        if self.reward is Reward.POINTS:
            return [-float(x) for x in scores]
        if self.reward is Reward.ZERO_SUM:
            mean = sum(scores) / len(scores)
            return [mean - x for x in scores]
        return [0.0] * len(scores)

    def last_scores(self) -> tuple[int, ...] | None:
        """The scores of the hand finished last (``None`` before any)."""
        if self.game is not None:
            return self.game.finished[-1].scores if self.game.finished else None
        return self.hand.scores


def agent_name(seat: int) -> str:
    """The PettingZoo agent of a seat: ``player_0`` is seat 0 (South at four)."""
    return f"player_{seat}"


def observation_space(players: int) -> gymnasium.spaces.Dict:
    """The observation space of one agent: the encoded view and the action mask."""
    from gymnasium import spaces

    from hearts.env.encoding import ACTION_COUNT, layout_for

    layout = layout_for(players)
    return spaces.Dict(
        {
            "observation": spaces.Box(layout.low.copy(), layout.high.copy(), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (ACTION_COUNT,), dtype=np.int8),
        }
    )


#: Every environment's render modes: ``human`` prints text, ``ansi`` returns it, ``rgb_array`` returns a picture.
RENDER_MODES = ["human", "ansi", "rgb_array"]
#: Frames per second for videos of ``rgb_array`` frames (one frame a decision).
RENDER_FPS = 4


def check_render_mode(render_mode: str | None) -> str | None:
    """``render_mode`` if it is one of :data:`RENDER_MODES` or ``None``; a ``ValueError`` naming them otherwise."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {RENDER_MODES}, not {render_mode!r}")
    return render_mode


def render_table(table: Table, seat: int | None, render_mode: str | None) -> str | np.ndarray | None:
    """What every environment's ``render()`` does: ``seat``'s view (the end of the episode when ``seat`` is
    None) printed (``human``), as text (``ansi``) or as an ``H x W x 3`` ``uint8`` picture (``rgb_array``)."""
    import gymnasium

    if render_mode is None:
        gymnasium.logger.warn("render() called without a render_mode: pass render_mode='ansi', 'human' or 'rgb_array'")
        return None
    if render_mode == "rgb_array":
        from hearts.env.picture import table_picture

        if seat is None:  # the episode is over: every seat's last hand and total, from seat 0's side
            scores = table.last_scores() or (0,) * table.players
            totals = table.totals if table.game is not None else scores
            lines = [f"last hand {score:+d} · total {total}" for score, total in zip(scores, totals, strict=True)]
            return table_picture(table.view(0), final=lines)
        return table_picture(table.view(seat), chosen=table.selected[seat])
    text = render_text(table, seat)
    if render_mode == "human":
        print(text)
        return None
    return text


def render_text(table: Table, seat: int | None) -> str:
    """What ``seat`` sees, as text (the seat to move when ``seat`` is None): never another seat's cards.
    Cards are written with suit symbols and seats numbered from 1, as everywhere a person reads them."""
    names = table.names
    if seat is None:
        totals = ", ".join(f"{name} {t}" for name, t in zip(names, table.totals, strict=True))
        scores = table.last_scores()
        last = "" if scores is None else "; last hand " + ", ".join(f"{n} {x}" for n, x in zip(names, scores, strict=True))
        return f"{table.episode.value} over: totals {totals}{last}"
    view = table.view(seat)
    lines = [f"{names[seat]} (seat {seat + 1} of {table.players}), hand {view.hand_number + 1}, {view.phase.value}"]
    lines.append(f"hand: {view.hand.symbols() or '-'}")
    plays = view.trick.plays(table.players)
    lines.append("trick: " + (", ".join(f"{c.symbol()} {names[s]}" for s, c in plays) or "-"))
    chosen = table.selected[seat]
    if chosen:
        lines.append(f"chosen to pass so far: {CardSet(chosen).symbols()}")
    if view.legal:
        lines.append("may play: " + " ".join(c.symbol() for c in view.legal))
    points = ", ".join(f"{n} {x}" for n, x in zip(names, view.points, strict=True))
    totals = ", ".join(f"{n} {x}" for n, x in zip(names, view.totals, strict=True))
    lines.append(f"points this hand: {points}; totals: {totals}")
    return "\n".join(lines)


def legal_action_space(table: Table, seat: int) -> gymnasium.spaces.Discrete:
    """``seat``'s action space: ``Discrete(ACTION_COUNT)`` whose ``sample()`` with no mask draws
    among the seat's legal actions of the moment (its action mask), so random play from the space,
    as PettingZoo's tests and many training loops do, is legal play. A seat that owes nothing gets
    action 0, which the environments ignore. An explicit ``mask`` or ``probability`` is used as given."""
    from gymnasium import spaces

    from hearts.env.encoding import ACTION_COUNT

    class LegalActions(spaces.Discrete):
        def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
            if mask is None and probability is None and table.dealt:
                mask = table.observe(seat)["action_mask"]
            return super().sample(mask=mask, probability=probability)

    return LegalActions(ACTION_COUNT)


def check_max_cycles(max_cycles: int | None) -> int | None:
    """``max_cycles`` if it is ``None`` or a positive int; a ``ValueError`` otherwise."""
    if max_cycles is not None and (isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1):
        raise ValueError(f"max_cycles must be a whole number of at least 1 or None, not {max_cycles!r}")
    return max_cycles


class TableAgents:
    """What the AEC and the parallel environment share: a :class:`Table`, its agents, their spaces.

    A mixin placed before PettingZoo's base class, so its methods are the ones used.
    """

    metadata: dict[str, Any]
    table: Table
    render_mode: str | None
    possible_agents: list[str]
    agents: list[str]
    max_cycles: int | None
    cycles: int

    def _set_up(
        self,
        rules: Rules | str | None,
        episode: Episode | str,
        reward: Reward | str,
        names: Sequence[str] | None,
        render_mode: str | None,
        max_cycles: int | None = None,
    ) -> None:
        from gymnasium.utils import seeding

        self.table = Table(rules, episode, reward, names)
        self.render_mode = check_render_mode(render_mode)
        self.max_cycles = check_max_cycles(max_cycles)
        self.cycles = 0
        n = self.table.players
        self.possible_agents = [agent_name(s) for s in range(n)]
        self._seats = {a: s for s, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: observation_space(n) for a in self.possible_agents}
        self.action_spaces = {a: legal_action_space(self.table, s) for a, s in self._seats.items()}
        self.np_random, self.np_random_seed = seeding.np_random(None)
        self.agents = []

    @property
    def rules(self) -> Rules:
        return self.table.rules

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]
