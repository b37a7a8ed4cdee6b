"""Nothing outlives hearts: each command that starts worker processes (``hearts serve``'s thinking and
review workers, ``hearts tournament --jobs N``'s and ``hearts train --jobs N``'s pools) is killed with
SIGKILL, and every process it started, multiprocessing's resource tracker included, is gone within 5 s."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from hearts import children

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc (Linux)")

GONE_WITHIN = 5.0


def _stat(pid: int) -> tuple[int, str] | None:
    """(parent pid, state) of a live process, None once it is gone (a zombie counts as gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return (None if fields[0] == "Z" else (int(fields[1]), fields[0])) if fields else None


def _descendants(root: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(int(entry))) is not None:
            parents[int(entry)] = stat[0]
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def _wait_for_children(proc: subprocess.Popen[bytes], want: int, within: float) -> set[int]:
    """The process's descendants once at least ``want`` of them run (the pool's workers and the tracker)."""
    deadline = time.monotonic() + within
    while True:
        found = _descendants(proc.pid)
        if len(found) >= want:
            time.sleep(1.0)  # let the pool finish starting (a late worker would be missed)
            return _descendants(proc.pid)
        if proc.poll() is not None:
            raise AssertionError(f"the command ended (exit {proc.returncode}) before starting {want} processes")
        if time.monotonic() > deadline:
            raise AssertionError(f"only {len(found)} of {want} processes started: {[_cmdline(p) for p in found]}")
        time.sleep(0.1)


def _kill_and_check(proc: subprocess.Popen[bytes], started: set[int]) -> None:
    names = {pid: _cmdline(pid) for pid in started}
    assert any("resource_tracker" in name for name in names.values()), names  # the tracker is among them
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + GONE_WITHIN
    alive = started
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = {pid for pid in alive if _stat(pid) is not None and _cmdline(pid) == names[pid]}
    for pid in alive:  # leave no process behind even when the test fails
        os.kill(pid, signal.SIGKILL)
    assert not alive, f"still running {GONE_WITHIN} s after the parent was killed: {[names[p] for p in alive]}"


def _run(args: list[str], tmp_path: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "hearts", *args], cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def test_a_pools_workers_and_tracker_exit_with_their_parent(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        import time
        from concurrent.futures import ProcessPoolExecutor
        from hearts import children

        def nap(seconds):
            time.sleep(seconds)

        if __name__ == "__main__":
            pool = ProcessPoolExecutor(max_workers=2, mp_context=children.context("spawn"))
            for _ in range(2):
                pool.submit(nap, 600)
            time.sleep(600)
        """
    )
    (tmp_path / "parent.py").write_text(script)
    proc = subprocess.Popen([sys.executable, "parent.py"], cwd=tmp_path)
    try:
        _kill_and_check(proc, _wait_for_children(proc, 3, 30))
    finally:
        proc.kill()


def test_a_child_started_by_another_thread_lives_while_its_parent_does(tmp_path: Path) -> None:
    # The kernel's parent-death signal follows the starting *thread*: a worker started from a thread
    # that then ends must live on (and still exit with the process).
    script = textwrap.dedent(
        """
        import sys, threading, time
        from hearts import children

        def nap(running):
            running.set()
            time.sleep(600)

        if __name__ == "__main__":
            box = []
            def start():
                ctx = children.context("spawn")
                running = ctx.Event()
                p = ctx.Process(target=nap, args=(running,))
                p.start()
                box.append(p)
                running.wait(60)  # the child is tied to this thread by now; then the thread ends
            t = threading.Thread(target=start)
            t.start()
            t.join()
            time.sleep(3)
            print("alive" if box[0].is_alive() else "dead", flush=True)
            time.sleep(600)
        """
    )
    (tmp_path / "parent.py").write_text(script)
    proc = subprocess.Popen([sys.executable, "parent.py"], cwd=tmp_path, stdout=subprocess.PIPE)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == b"alive"
        _kill_and_check(proc, _descendants(proc.pid))
    finally:
        proc.kill()


def test_an_unknown_start_method_is_named() -> None:
    with pytest.raises(ValueError, match="no 'carrier-pigeon' start method"):
        children.context("carrier-pigeon")


@pytest.mark.slow
def test_nothing_outlives_hearts_serve(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = _run(["serve", "--host", "127.0.0.1", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'h.db'}"], tmp_path)
    try:
        # The hint worker (started with the server, to warm up) and the review worker start on demand;
        # the hint worker and the tracker are what a crash used to leave.
        _kill_and_check(proc, _wait_for_children(proc, 2, 60))
    finally:
        proc.kill()


@pytest.mark.slow
def test_nothing_outlives_hearts_tournament(tmp_path: Path) -> None:
    proc = _run(["tournament", "--players", "medium,random", "--hands", "100000", "--games", "0", "--jobs", "2", "--seed", "1"], tmp_path)
    try:
        _kill_and_check(proc, _wait_for_children(proc, 3, 60))
    finally:
        proc.kill()


@pytest.mark.slow
def test_nothing_outlives_hearts_train(tmp_path: Path) -> None:
    proc = _run(["train", "--out", "w.npz", "--hands", "2000000", "--rounds", "1", "--jobs", "2", "-q"], tmp_path)
    try:
        _kill_and_check(proc, _wait_for_children(proc, 3, 60))
    finally:
        proc.kill()
