"""The import guard: numba's ``njit``/``prange`` when numba is installed, plain Python otherwise.

Every kernel is written so that it also runs, unchanged and slower, as ordinary
Python: with numba absent, or with ``NUMBA_DISABLE_JIT=1`` (numba then hands the
functions back as they are).  Integer arithmetic in the kernels therefore never
relies on 64-bit wrap-around.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_numba: Any
try:  # pragma: no cover - which branch runs depends on the machine
    import numba as _numba

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover
    _numba = None
    HAVE_NUMBA = False

#: True when the kernels are really compiled (numba present and not disabled).
JIT_ENABLED: bool = HAVE_NUMBA and os.environ.get("NUMBA_DISABLE_JIT", "0") in ("", "0")


def njit(*args: Any, **kwargs: Any) -> Any:
    """``numba.njit`` (with ``cache=True`` by default, so compiled code is reused across runs), or a no-op."""
    kwargs.setdefault("cache", True)
    if _numba is not None:
        return _numba.njit(*args, **kwargs)
    if args and callable(args[0]):
        return args[0]
    return lambda f: f


#: ``numba.prange`` (a parallel loop in ``parallel=True`` kernels), or ``range``.
prange: Any = _numba.prange if _numba is not None else range
