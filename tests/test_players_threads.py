"""The players' first use of the compiled code from several threads at once, as a server does (a
seat's first play in a worker thread beside the start-up warm-up): every thread gets whole modules.

The race this guards against (a thread seeing ``hearts.fast.bridge`` half made, "partially initialized
module") showed once in the stand-in browser test, and is closed by ``knowledge.load_fast``; its
interleaving depends on timing, so this test exercises concurrent first use rather than reproducing
that exact order every time."""

from __future__ import annotations

import subprocess
import sys
import textwrap

#: In a fresh interpreter (nothing of hearts.fast imported yet), six threads released together: two
#: load the search kernels, two make a medium player's first play, two ask the moon-hand measure.
SCRIPT = textwrap.dedent(
    """
    import threading
    from hearts.core import Game, Rules
    from hearts.players import make_player
    from hearts.players.knowledge import moon_hand_strength
    from hearts.players.compiled import warm_up

    game = Game(Rules.preset("no-passing"), seed=4)
    view = game.view(game.hand.turn)
    start = threading.Barrier(6)
    failures = []

    def run(job):
        start.wait()
        try:
            job()
        except BaseException as exc:
            failures.append(repr(exc))

    jobs = [warm_up, warm_up,
            lambda: make_player("medium", seed=1).decide(view), lambda: make_player("medium", seed=2).decide(view),
            lambda: moon_hand_strength(view.rules, view.hand.mask), lambda: moon_hand_strength(view.rules, 0)]
    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("failures:", failures)
    raise SystemExit(1 if failures else 0)
    """
)


def test_first_use_from_many_threads_at_once_imports_whole_modules() -> None:
    for _ in range(3):  # a race: try it more than once
        done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
