"""The learned evaluation at play: its features see only the seat's information, its weights file is
checked, and the ``learned`` player plays legally and says why (the rule battery is in test_players)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from hearts.core import CARDS, Game, Phase, Rules
from hearts.fast import features as f
from hearts.fast import selfplay
from hearts.fast.bridge import rules_array, state_array
from hearts.fast.state import S_HANDS
from hearts.players import make_player
from hearts.players.knowledge import Knowledge
from hearts.players.learned import LearnedPlayer, _voids
from hearts.players.medium import MediumPlayer
from hearts.players.weights import (
    FEATURES_VERSION,
    WEIGHTS_SHAPE,
    LearnedModel,
    ModelFileError,
    load_model,
    save_model,
)


def _mid_hand(seed: int, plays: int) -> Game:
    """A game ``plays`` cards into its first hand, played at random."""
    game = Game(Rules(), seed=seed)
    rng = random.Random(seed)
    for seat in game.to_move:
        game.pass_cards(seat, rng.sample(list(game.view(seat).hand), 3))
    for _ in range(plays):
        game.play(rng.choice(game.legal_plays()))
    return game


def test_the_files_version_and_shape_are_the_features():
    assert FEATURES_VERSION == f.FEATURES_VERSION
    assert WEIGHTS_SHAPE == (f.N_KINDS, f.N_SITUATION, f.N_CARD)
    assert len(f.SITUATION) == f.N_SITUATION and len(f.CARD) == f.N_CARD


@pytest.mark.parametrize("plays", [5, 14, 23, 30])
def test_features_see_only_what_the_seat_knows(plays: int) -> None:
    """Two worlds that differ only in the other seats' unplayed cards give the same values, and the
    world path (the self-play's, a search's) gives what the player's view path gives."""
    game = _mid_hand(plays, plays)
    hand = game.hand
    seat = hand.turn
    view = game.view(seat)
    k = Knowledge.of(view)
    R = rules_array(game.rules)
    W = np.random.default_rng(plays).normal(size=WEIGHTS_SHAPE)
    S = state_array(hand)
    # Another world: the other seats' cards dealt again among them, each keeping its count.
    others = [s for s in range(4) if s != seat]
    pool = [c for s in others for c in range(52) if S[S_HANDS + s] >> c & 1]
    random.Random(plays).shuffle(pool)
    S2 = S.copy()
    for s in others:
        count = bin(int(S[S_HANDS + s])).count("1")
        S2[S_HANDS + s] = sum(1 << c for c in pool[:count])
        pool = pool[count:]
    assert any(S2[S_HANDS + s] != S[S_HANDS + s] for s in others)
    voids = _voids(k)
    one, two = np.full(52, np.nan), np.full(52, np.nan)
    card_one = selfplay.world_values(S, R, voids, W, 0.5, one)
    card_two = selfplay.world_values(S2, R, voids, W, 0.5, two)
    assert card_one == card_two
    np.testing.assert_array_equal(one, two)
    player = LearnedPlayer(weights=_model_file(W))
    legal = sum(1 << c for c in view.legal)
    card, values = player.evaluate(k, legal)
    assert card == card_one or len(view.legal) == 1
    for c, v in values.items():
        assert v == one[c]


def _model_file(W: np.ndarray, margin: float = 0.5) -> Path:
    import tempfile

    path = Path(tempfile.mkdtemp()) / "w.npz"
    save_model(path, LearnedModel(W, "test", 3, "hearts train --seed 3", "standard", margin=margin))
    return path


def test_weights_round_trip(tmp_path: Path) -> None:
    W = np.arange(np.prod(WEIGHTS_SHAPE), dtype=np.float64).reshape(WEIGHTS_SHAPE) / 7
    model = LearnedModel(W, "learned-test", 9, "hearts train --seed 9", "standard", 1.5, {"medium": [0.1, -0.2]})
    save_model(tmp_path / "m.npz", model)
    back = load_model(tmp_path / "m.npz")
    np.testing.assert_array_equal(back.weights, W)
    assert (back.version, back.seed, back.command, back.preset, back.margin) == (
        "learned-test", 9, "hearts train --seed 9", "standard", 1.5,
    )  # fmt: skip
    assert back.curve == {"medium": [0.1, -0.2]}


def test_bad_weights_files_are_refused_by_cause(tmp_path: Path) -> None:
    with pytest.raises(ModelFileError, match="no weights file"):
        load_model(tmp_path / "missing.npz")
    (tmp_path / "text.npz").write_text("not numpy")
    with pytest.raises(ModelFileError, match="is not a weights file"):
        load_model(tmp_path / "text.npz")
    np.savez(tmp_path / "other.npz", x=np.zeros(3))
    with pytest.raises(ModelFileError, match="has no 'weights'"):
        load_model(tmp_path / "other.npz")
    good = tmp_path / "good.npz"
    save_model(good, LearnedModel(np.zeros(WEIGHTS_SHAPE), "v", 1, "c", "standard", 2.0))
    data = dict(np.load(good))
    np.savez(tmp_path / "old.npz", **{**data, "features_version": np.int64(FEATURES_VERSION + 1)})
    with pytest.raises(ModelFileError, match="features version .*retrain"):
        load_model(tmp_path / "old.npz")
    np.savez(tmp_path / "shape.npz", **{**data, "weights": np.zeros((3, 2, 2))})
    with pytest.raises(ModelFileError, match="shape"):
        load_model(tmp_path / "shape.npz")
    with pytest.raises(ModelFileError, match="shape"):
        save_model(tmp_path / "x.npz", LearnedModel(np.zeros((2, 2)), "v", 1, "c", "standard", 2.0))
    assert issubclass(ModelFileError, ValueError)


def test_the_shipped_model_loads_with_its_version_and_command() -> None:
    model = load_model()
    assert model.version.startswith("learned-v")
    assert model.command.startswith("hearts train ")
    assert model.curve["medium"] and np.isfinite(model.weights).all()


@pytest.mark.parametrize("seed", range(12))
def test_the_learned_player_plays_its_best_card_and_says_so(seed: int) -> None:
    game = _mid_hand(seed, 3 + 4 * (seed % 8))
    player = make_player("learned", seed=1)
    assert isinstance(player, LearnedPlayer)
    seat = game.hand.turn
    view = game.view(seat)
    decision = player.decide(view)
    assert game.is_legal(decision.move)
    if len(view.legal) > 1:
        legal = sum(1 << c for c in view.legal)
        card, values = player.evaluate(Knowledge.of(view), legal)
        assert decision.move.card == card
        medium, medium_why = MediumPlayer.play_from(player, Knowledge.of(view), legal)
        if card == medium:
            assert decision.reason.startswith(medium_why + " (the model: ")
        else:
            assert f"points with {decision.move.card.symbol()}, " in decision.reason
            assert f"with the medium player's {CARDS[medium].symbol()}" in decision.reason


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_table_of_learned_players_finishes_a_game_hand(players: int) -> None:
    game = Game(Rules(players=players), seed=players)
    seats = [make_player("learned", seed=s) for s in range(players)]
    while not game.finished:
        for seat in game.to_move:
            move = seats[seat].decide(game.view(seat)).move
            assert game.is_legal(move)
            game.apply(move)
            if game.phase is not Phase.PASS:
                break
    assert game.finished[0].scores is not None


def test_the_players_decision_is_the_models_card() -> None:
    """The learned player's decision is the card its model values best (``evaluate``), on the
    shipped weights."""
    for seed in range(6):
        game = _mid_hand(seed, 2 + 5 * seed)
        view = game.view(game.hand.turn)
        k = Knowledge.of(view)
        legal = sum(1 << c for c in view.legal)
        player = LearnedPlayer()
        card, _values = player.evaluate(k, legal)
        assert decision_card(player, view) == card


def decision_card(player: LearnedPlayer, view) -> int:  # type: ignore[no-untyped-def]
    return int(player.decide(view).move.card)
