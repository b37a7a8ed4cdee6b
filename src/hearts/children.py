"""Worker processes that end with the process that started them.

Every process hearts starts for its own work (the server's thinking and review workers, the
tournament's and training's worker pools) is made by :func:`context`: a :mod:`multiprocessing`
context whose processes, first thing in the child, tie themselves to their parent. When the parent
dies by any means, ``kill -9`` included, the child exits within a second, and with it the last
holder of multiprocessing's resource tracker's pipe, so the tracker exits too. Without this a
supervisor that restarts a crashed server leaks a worker (and a tracker) per crash.

Two ties, because neither alone covers every case:

* On Linux, ``prctl(PR_SET_PDEATHSIG, SIGKILL)``: the kernel kills the child at once, even deep in
  compiled code that holds the interpreter lock. The kernel's "parent" is the *thread* that started
  the child, so this is armed only for a child started by the parent's main thread (a pool thread
  that starts workers and later ends would otherwise kill them while the parent lives on).
* Everywhere: a daemon thread that checks every :data:`POLL_SECONDS` whether the parent is still
  the child's parent (a dead parent's children are handed to another process) and ends the child.

Stdlib only, so that any layer may use it.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.context
import os
import signal
import sys
import threading
import time
from typing import Any

__all__ = ["POLL_SECONDS", "context", "tie_to_parent"]

#: How often a child looks for its parent (the Linux kernel's tie acts at once).
POLL_SECONDS = 0.5

_PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


def tie_to_parent(parent: int, *, kernel_tie: bool = True) -> None:
    """In a child process: exit as soon as process ``parent`` is no longer its parent.

    ``kernel_tie``: also ask Linux to kill this process when the thread that started it ends (give
    False when that thread may end before its process does)."""
    if kernel_tie and sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):  # no libc or no prctl: the watching thread still ties it
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    if os.getppid() != parent:  # the parent died before the tie was made
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), name="hearts-parent-watch", daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(POLL_SECONDS)
    # Not sys.exit: the parent is gone, nobody waits for this process's results or its clean-up.
    os._exit(1)


class _Tie:
    """Mixed into a context's process class: remembers its parent when made, ties to it when run."""

    _parent: int
    _kernel_tie: bool

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._parent = os.getpid()
        self._kernel_tie = threading.current_thread() is threading.main_thread()

    def run(self) -> None:
        tie_to_parent(self._parent, kernel_tie=self._kernel_tie)
        super().run()  # type: ignore[misc]


class _SpawnProcess(_Tie, multiprocessing.context.SpawnProcess):
    pass


class _SpawnContext(multiprocessing.context.SpawnContext):
    Process = _SpawnProcess


_CONTEXTS: dict[str, multiprocessing.context.BaseContext] = {"spawn": _SpawnContext()}

if sys.platform != "win32":

    class _ForkProcess(_Tie, multiprocessing.context.ForkProcess):
        pass

    class _ForkContext(multiprocessing.context.ForkContext):
        Process = _ForkProcess

    _CONTEXTS["fork"] = _ForkContext()


def context(method: str = "spawn") -> Any:
    """A multiprocessing context (``"spawn"``, or ``"fork"`` where there is one) whose processes end
    with the process that started them: give it to ``ProcessPoolExecutor(mp_context=...)``, or call
    its ``Pool``, ``Process`` and ``Queue``."""
    try:
        return _CONTEXTS[method]
    except KeyError:
        raise ValueError(f"no {method!r} start method here: use one of {', '.join(sorted(_CONTEXTS))}") from None
