"""Hand reviews at the server, below the routes: the review process's job leaves each verdict where
the server reads it while the review is still being made, and the review process loads the expert
before the first review is asked for."""

from __future__ import annotations

import json
from pathlib import Path

from hearts.core import Game, GameRecord
from hearts.players import make_player, play_game
from hearts.server.reviews import _Working, review_job, warm_review


def test_the_job_leaves_every_verdict_as_it_is_made(tmp_path: Path, monkeypatch) -> None:
    game = Game(seed=5)
    play_game(game, [make_player("easy", seed=s) for s in range(4)], hands=1)
    progress = tmp_path / "progress.json"
    seen: list[dict[str, object]] = []
    # Read the progress file the moment each decision's search starts: what the server answers then.
    from hearts.players.search import SearchPlayer

    value = SearchPlayer.value_options

    def reading(self, view, passes=()):  # type: ignore[no-untyped-def]
        if progress.exists():
            seen.append(_Working(progress, None).status())  # type: ignore[arg-type]
        return value(self, view, passes)

    monkeypatch.setattr(SearchPlayer, "value_options", reading)
    review = json.loads(review_job(GameRecord.of(game).dumps(), 0, 0, 8, str(progress)))
    total = len(review["decisions"])
    assert seen[0] == {"status": "working", "done": 0, "total": total, "decisions": []}
    # Before the last decision (the pass, searched last) is searched, the plays are there, verdicts and all.
    later = [s for s in seen if s["done"] == total - 1]
    assert later and later[-1]["decisions"] == review["decisions"][1:]
    assert [s["done"] for s in seen] == sorted(s["done"] for s in seen)
    final = _Working(progress, None).status()  # type: ignore[arg-type]
    assert final["done"] == total
    assert sorted(final["decisions"], key=lambda d: d["number"]) == review["decisions"]
    assert not list(tmp_path.glob("*.part"))  # each state written whole, then moved in place


def test_a_progress_file_not_written_yet_reads_as_waiting(tmp_path: Path) -> None:
    waiting = _Working(tmp_path / "none.json", None).status()  # type: ignore[arg-type]
    assert waiting == {"status": "working", "done": 0, "total": 0, "decisions": []}
    (tmp_path / "bad.json").write_text("{half")
    assert _Working(tmp_path / "bad.json", None).status()["decisions"] == []  # type: ignore[arg-type]


def test_the_review_process_loads_the_expert_before_it_is_asked() -> None:
    warm_review()  # reviews a short hand at a few worlds: no error, the kernels loaded
