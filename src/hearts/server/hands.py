"""A finished hand laid open, for the end-of-hand screen and the replay page: every seat's deal,
pass and held cards, each trick with who played what and who won it, the scores and running totals.
All of it is the engine's summary of the hand (:meth:`hearts.core.game.Game.summary`)."""

from __future__ import annotations

from typing import Any

from hearts.core import CardSet, Game, PassDirection


def hand_detail(game: Game, number: int) -> dict[str, Any]:
    """Finished hand ``number`` (0-based) of ``game`` laid open for the end-of-hand screen and the
    replay page: every seat's dealt cards, pass, what it received and held after the pass, and each
    trick with who played which card and who won it. All of it is the engine's summary of the hand
    (``game.summary``: points taken count J♦), with the game's running totals."""
    if not 0 <= number < len(game.finished):
        raise IndexError(f"hand {number + 1} is not finished")
    summary = game.summary(number)
    n = game.rules.players
    holding = summary.direction is PassDirection.HOLD
    scores, running, held = summary.scores or (0,) * n, list(summary.totals or (0,) * n), summary.held or ()
    seats = [
        {
            "seat": s,
            "name": game.names[s],
            "dealt": summary.dealt[s].names(),
            "passed": (summary.passes[s] or CardSet()).names(),
            "pass_to": None if holding else summary.pass_to[s],
            "received": (summary.received[s] or CardSet()).names(),
            "held": held[s].names(),
            "points": summary.taken[s],
            "score": scores[s],
            "total": running[s],
        }
        for s in range(n)
    ]
    tricks = [
        {"leader": t.leader, "winner": t.winner, "plays": [{"seat": seat, "card": str(card)} for seat, card in t.plays]}
        for t in summary.tricks
    ]
    return {
        "number": number + 1,
        "direction": summary.direction.value,
        "names": list(game.names),
        "seats": seats,
        "tricks": tricks,
        "shooter": summary.shooter,
        "moon_choice": None if summary.moon_option is None else summary.moon_option.value,
        "scores": list(scores),
        "totals": running,
    }
