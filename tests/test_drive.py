"""The one game loop (hearts.players.drive) and HandState.apply."""

from __future__ import annotations

import random
import time

import pytest

from hearts.core import Card, ChooseMoon, Game, HandState, Phase, PlayCard, Rules, SeatView
from hearts.core.errors import IllegalMoveError, OutOfTurnError
from hearts.core.events import CardPlayed, HandScored, TrickWon
from hearts.players.base import Decision, Player, play_game
from hearts.players.drive import Fault, Turn, check_answer, drive, turns
from hearts.players.random_player import RandomPlayer
from hearts.players.registry import make_player


def randoms(n: int = 4, seed: int = 0) -> list[Player]:
    return [RandomPlayer(seed=seed + s) for s in range(n)]


class Crashing(RandomPlayer):
    """Raises on its ``at``-th decision (from 0)."""

    def __init__(self, seed: int, at: int = 0) -> None:
        super().__init__(seed=seed)
        self.at, self.asked = at, 0

    def decide(self, view: SeatView) -> Decision:
        self.asked += 1
        if self.asked > self.at:
            raise RuntimeError("lost my cards")
        return super().decide(view)


class Answering(RandomPlayer):
    """Answers ``answer(view)`` on every play decision, as a player with a bug might."""

    def __init__(self, answer: object) -> None:
        super().__init__(seed=1)
        self.answer = answer

    def decide(self, view: SeatView) -> Decision:
        if view.phase is Phase.PLAY:
            return Decision(self.answer(view), "bug")  # type: ignore[operator, arg-type]
        return super().decide(view)


def illegal_card(view: SeatView) -> PlayCard:
    return PlayCard(view.seat, next(c for c in view.hand if c not in view.legal))


# -- HandState.apply ---------------------------------------------------------------------------------------


def test_hand_apply_plays_a_lone_hand_as_the_game_plays_its_first() -> None:
    rules = Rules.preset("pass-left")
    game = Game(rules, seed=11)
    hand = HandState(rules, game.hand.dealt, 0)
    players = randoms()
    while not hand.is_over:
        seat = hand.to_move[0]
        move = players[seat].decide(game.view(seat)).move
        game_events = game.apply(move)
        hand_events = hand.apply(move)
        assert hand_events == game_events[: len(hand_events)]
    assert hand.scores == game.finished[0].scores


def test_hand_apply_refuses_an_illegal_move_and_changes_nothing() -> None:
    hand = HandState(Rules.preset("no-passing"), Game(Rules.preset("no-passing"), seed=4).hand.dealt, 0)
    before = repr(hand), hand.hands[:]
    wrong = next(Card(c) for c in range(52) if hand.hands[hand.turn] >> c & 1 and Card(c) != Card.parse("2C"))
    with pytest.raises(IllegalMoveError, match="illegal play"):
        hand.apply(PlayCard(hand.turn, wrong))
    with pytest.raises(IllegalMoveError, match="not a move"):
        hand.apply("2C")  # type: ignore[arg-type]
    with pytest.raises(OutOfTurnError):
        hand.apply(ChooseMoon(hand.turn, "add-to-others"))  # type: ignore[arg-type]
    assert (repr(hand), hand.hands) == before


# -- turns ----------------------------------------------------------------------------------------------


def test_turns_asks_the_passes_in_seat_order_and_again_until_applied() -> None:
    game = Game(Rules.preset("pass-left"), seed=2)
    seats = turns(game)
    assert next(seats) == 0
    assert next(seats) == 0  # not applied: asked again
    players = randoms()
    order = []
    for seat in seats:
        order.append(seat)
        game.apply(players[seat].decide(game.view(seat)).move)
        if game.phase is Phase.PLAY:
            break
    assert order == [0, 1, 2, 3]
    assert next(seats) == game.hand.turn


def test_turns_stop_after_the_hands_asked_for_and_at_the_end_of_a_lone_hand() -> None:
    game = Game(Rules.preset("no-passing"), seed=5)
    players = randoms()
    for seat in turns(game, hands=2):
        game.apply(players[seat].decide(game.view(seat)).move)
    assert len(game.finished) == 2 and not game.is_over
    hand = HandState(game.rules, game.hand.dealt, 2)
    count = 0
    for seat in turns(hand):
        hand.apply(players[seat].decide(SeatView.of_hand(hand, seat)).move)
        count += 1
    assert hand.is_over and count == 52


# -- drive ----------------------------------------------------------------------------------------------


def test_drive_plays_a_game_as_play_game_does_and_reports_moves_and_hands() -> None:
    rules = Rules.preset("standard")
    moves: list[Turn] = []
    hands: list[HandState] = []
    game = drive(Game(rules, seed=8), randoms(), on_move=moves.append, on_hand=hands.append)
    other = play_game(Game(rules, seed=8), randoms())
    assert game.is_over and game.totals == other.totals
    assert hands == game.finished
    replay = Game(rules, seed=8)
    for turn in moves:
        assert turn.view == replay.view(turn.seat)
        assert turn.events == replay.apply(turn.move)
        assert turn.seconds >= 0 and not turn.stand_in
    assert replay.totals == game.totals
    scored = [e for t in moves for e in t.events if isinstance(e, HandScored)]
    assert len(scored) == len(game.finished)


def test_drive_stops_after_the_moves_asked_for() -> None:
    game = drive(Game(Rules.preset("no-passing"), seed=3), randoms(), moves=5)
    assert len(game.hand.trick) == 1 and len(game.hand.tricks) == 1


def test_drive_plays_a_lone_hand() -> None:
    rules = Rules.preset("standard")
    hand = HandState(rules, Game(rules, seed=6).hand.dealt, 1)
    done: list[HandState] = []
    drive(hand, randoms(), on_hand=done.append)
    assert hand.is_over and done == [hand] and sum(hand.scores or ()) == 26


def test_a_player_raising_raises_without_a_fault_hook_and_the_game_is_unchanged() -> None:
    game = Game(Rules.preset("no-passing"), seed=3)
    players = randoms()
    players[2] = Crashing(seed=2, at=3)
    with pytest.raises(RuntimeError, match="lost my cards"):
        drive(game, players)
    assert game.hand.turn == 2 and game.hand.phase is Phase.PLAY


def test_an_illegal_answer_raises_the_engines_error_without_a_fault_hook() -> None:
    players = randoms()
    players[1] = Answering(illegal_card)
    with pytest.raises(IllegalMoveError, match="by West"):
        drive(Game(Rules.preset("no-passing"), seed=3), players)


def test_a_fault_hook_names_the_fault_and_a_stand_in_plays_the_seat_on() -> None:
    rules = Rules.preset("no-passing")
    faults: list[tuple[Fault, SeatView]] = []
    stand_in = make_player("easy", seed=9)

    def on_fault(fault: Fault, view: SeatView) -> Player:
        faults.append((fault, view))
        return stand_in

    for bug, kind, words in [
        (Crashing(seed=1, at=2), "crash", "RuntimeError: lost my cards"),
        (Answering(illegal_card), "illegal", "illegal play"),
        (Answering(lambda view: "QS"), "malformed", "answered 'QS', not a move"),
        (Answering(lambda view: PlayCard((view.seat + 1) % 4, view.legal[0])), "illegal", "answered for seat 2"),
    ]:
        faults.clear()
        players = randoms()
        players[1] = bug
        moves: list[Turn] = []
        game = drive(Game(rules, seed=3), players, on_fault=on_fault, on_move=moves.append)
        assert game.is_over
        [(fault, view)] = faults
        assert (fault.seat, fault.kind) == (1, kind) and words in fault.message
        assert view.seat == 1 and view.phase is Phase.PLAY
        assert isinstance(fault.error, Exception)
        # from the fault on, seat 1's every move is the stand-in's, and flagged as such
        faulted_at = next(i for i, t in enumerate(moves) if t.seat == 1 and t.stand_in)
        assert all(t.stand_in == (t.seat == 1 and i >= faulted_at) for i, t in enumerate(moves))


def test_a_fault_hook_that_raises_stops_the_game() -> None:
    class Stop(Exception):
        pass

    def on_fault(fault: Fault, view: SeatView) -> Player:
        raise Stop(fault.message)

    players = randoms()
    players[3] = Crashing(seed=3)
    with pytest.raises(Stop, match="lost my cards"):
        drive(Game(Rules.preset("no-passing"), seed=1), players, on_fault=on_fault)


def test_a_decision_over_the_time_limit_is_a_timeout_fault() -> None:
    class Slow(RandomPlayer):
        def decide(self, view: SeatView) -> Decision:
            time.sleep(0.02)
            return super().decide(view)

    faults: list[Fault] = []
    players = randoms()
    players[0] = Slow(seed=0)
    game = drive(
        Game(Rules.preset("no-passing"), seed=2),
        players,
        hands=1,
        time_limit=0.01,
        on_fault=lambda fault, view: faults.append(fault) or make_player("random", seed=0),
    )
    assert len(game.finished) == 1
    [fault] = faults
    assert fault.kind == "timeout" and fault.seat == 0 and "over the limit of 0.01 s" in fault.message
    assert isinstance(fault.error, TimeoutError)
    # without a limit the same slow player is no fault
    faults.clear()
    drive(
        Game(Rules.preset("no-passing"), seed=2), players, moves=8, on_fault=lambda f, v: faults.append(f) or players[0]
    )
    assert faults == []


def test_drive_refuses_the_wrong_number_of_players() -> None:
    with pytest.raises(ValueError, match="3 players for 4 seats"):
        drive(Game(Rules(), seed=1), randoms(3))


def test_on_move_sees_every_event_in_order() -> None:
    rng = random.Random(4)
    game = Game(Rules.preset("no-passing"), seed=rng.randrange(1000))
    events = []
    drive(game, randoms(), hands=1, on_move=lambda t: events.extend(t.events))
    assert sum(isinstance(e, CardPlayed) for e in events) == 52
    assert sum(isinstance(e, TrickWon) for e in events) == 13


def test_check_answer_names_each_fault_without_applying_the_move() -> None:
    game = Game(Rules.preset("no-passing"), seed=3)
    seat = game.hand.turn
    view = game.view(seat)
    before = repr(game), game.hand.hands[:]
    assert check_answer(game, seat, PlayCard(seat, view.legal[0])) is None
    cases = [
        (ValueError("bad"), "crash", "ValueError: bad"),
        ("2C", "malformed", "answered '2C', not a move"),
        (PlayCard((seat + 1) % 4, view.legal[0]), "illegal", f"answered for seat {(seat + 1) % 4}"),
        (illegal_card(view), "illegal", "illegal play"),
    ]
    for answer, kind, words in cases:
        fault = check_answer(game, seat, answer)
        assert fault is not None and fault.kind == kind and words in fault.message and fault.seat == seat
    assert (repr(game), game.hand.hands) == before
