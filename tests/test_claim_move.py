"""A claim as a move (``ClaimRest``): the same check, predicate and action as every move, its JSON form,
and a game rebuilt from its stored moves (as the server does after a restart) keeping the claim."""

from __future__ import annotations

import pytest

from hearts.core import (
    ClaimRefused,
    ClaimRest,
    Game,
    GameRecord,
    IllegalMoveError,
    Phase,
    PlayCard,
    Rules,
    claim_holds,
    move_from_dict,
    move_to_dict,
)


def test_a_claim_reads_and_writes_as_json() -> None:
    assert move_to_dict(ClaimRest(2)) == {"type": "claim", "seat": 2}
    assert move_from_dict({"type": "claim"}, seat=1) == ClaimRest(1)
    with pytest.raises(IllegalMoveError, match="seat 3 is not yours"):
        move_from_dict({"type": "claim", "seat": 3}, seat=1)
    with pytest.raises(IllegalMoveError, match="expected 'play', 'pass', 'moon' or 'claim'"):
        move_from_dict({"type": "concede"}, seat=1)


def test_a_refused_claim_changes_nothing() -> None:
    game = Game(Rules(pass_cycle="none"), seed=3)
    seat = game.to_move[0]
    before = game.copy()
    assert not game.is_legal(ClaimRest(seat))
    with pytest.raises(ClaimRefused, match="cannot claim the rest"):
        game.apply(ClaimRest(seat))
    with pytest.raises(ClaimRefused, match="own turn"):
        game.check(ClaimRest((seat + 1) % 4))
    assert game.hand.hands == before.hand.hands and game.hand.trick == before.hand.trick
    assert game.hand.claim is None


def claimed_game(seed: int) -> tuple[Game, list[object]]:
    """A game whose first hand is played lowest card first until a seat may claim, then claimed."""
    game = Game(Rules(pass_cycle="none", target=30), seed=seed)
    moves: list[object] = []
    while game.phase is Phase.PLAY and game.hand.number == 0:
        seat = game.to_move[0]
        if claim_holds(game.hand, seat):
            moves.append(ClaimRest(seat))
            game.apply(ClaimRest(seat))
            return game, moves
        move = PlayCard(seat, min(game.legal_plays()))
        moves.append(move)
        game.apply(move)
    pytest.skip("no claim held in this hand")


@pytest.mark.parametrize("seed", [1, 2, 5])
def test_a_claim_plays_the_hand_out_and_the_stored_moves_rebuild_it(seed: int) -> None:
    game, moves = claimed_game(seed)
    claim = moves[-1]
    assert isinstance(claim, ClaimRest)
    summary = game.summary(0)
    assert summary.claim is not None and summary.claim[0] == claim.seat
    assert all(t.winner == claim.seat for t in summary.tricks[-(13 - summary.claim[1] // 4) :])
    # As the server stores them: each move's JSON, replayed on a new game of the same seed.
    again = Game(Rules(pass_cycle="none", target=30), seed=seed)
    for move in moves:
        again.apply(move_from_dict(move_to_dict(move)))  # type: ignore[arg-type]
    assert again.summary(0) == summary
    record = GameRecord.of(again)
    assert GameRecord.loads(record.dumps()).hands[0].claim == summary.claim
