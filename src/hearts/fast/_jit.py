"""numba for the fast core: ``njit`` with a disk cache keyed on the sources, and the shared rules.

The rules' arithmetic is written once, in :mod:`hearts.core.arith`, as plain Python. This
module lets compiled code call those very functions: each is registered with numba
(``register_jitable``: compiled where a kernel calls it, inlined like a kernel's own code),
and the bit helpers are given numba versions that are one CPU instruction each (LLVM's
``ctpop``/``cttz``/``ctlz``).

**The disk cache.** numba's ``cache=True`` checks only the file of the function it compiled,
so a kernel cached before a change to a function it calls in another file (the shared rules,
a policy) would be served stale. :func:`njit` therefore points each kernel's cache at a folder
named by :data:`SOURCE_HASH`, a hash of every source the kernels are compiled from: a change
to any of them starts a fresh cache, and a stale compiled kernel is never loaded.

``NUMBA_DISABLE_JIT=1`` (numba's own switch, for debugging) runs every kernel as plain
Python; :data:`JIT_ENABLED` says whether they are really compiled.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numba
from numba.core import config as _config
from numba.extending import register_jitable

from hearts.core import arith

_numba_config: Any = _config  # numba's settings (set from the environment at import)

F = TypeVar("F", bound=Callable[..., Any])

#: True when the kernels are really compiled (not disabled with ``NUMBA_DISABLE_JIT=1``).
JIT_ENABLED: bool = not _numba_config.DISABLE_JIT

_FAST_DIR = Path(__file__).resolve().parent


def _fast_pdep() -> bool:
    """Whether compiled code may pick a mask's n-th card with BMI2's ``pdep``: the CPU numba compiles
    for has it, and runs it in hardware (AMD before Zen 3, family 0x19, runs it in microcode, hundreds
    of cycles: slower than the binary search). ``HEARTS_PDEP=0`` turns it off."""
    import platform

    import llvmlite.binding as llvm

    if not JIT_ENABLED or os.environ.get("HEARTS_PDEP", "1") == "0":
        return False
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    if _numba_config.CPU_NAME or _numba_config.CPU_FEATURES:  # compiling for a CPU chosen by hand
        features = str(_numba_config.CPU_FEATURES or "")
    else:
        features = llvm.get_host_cpu_features().flatten()
    if "+bmi2" not in features.split(","):
        return False
    try:
        info = Path("/proc/cpuinfo").read_text()
    except OSError:
        return False  # the vendor is unknown: keep the search that is fast everywhere
    fields = {k.strip(): v.strip() for k, v in (line.split(":", 1) for line in info.splitlines()[:30] if ":" in line)}
    vendor = fields.get("vendor_id", "")
    family = int(fields.get("cpu family", "0") or 0)
    return vendor == "GenuineIntel" or (vendor == "AuthenticAMD" and family >= 0x19)


#: Whether :func:`hearts.fast.state.nth_card` is one ``pdep`` instruction on this machine (see :func:`_fast_pdep`).
FAST_PDEP: bool = _fast_pdep()


def source_hash() -> str:
    """A hash of every source the kernels are compiled from: :mod:`hearts.core.arith` and each
    module of this package that compiles a kernel (one that names ``njit``), numba's version, and
    whether the kernels pick cards with ``pdep`` (:data:`FAST_PDEP`)."""
    digest = hashlib.sha256(numba.__version__.encode())
    digest.update(b"pdep" if FAST_PDEP else b"search")  # which nth_card the kernels inline
    for path in [Path(arith.__file__).resolve(), *sorted(_FAST_DIR.glob("*.py"))]:
        text = path.read_bytes()
        if path.parent == _FAST_DIR and b"njit" not in text:
            continue  # the bridge, the checker, the re-exports: nothing compiled
        digest.update(path.name.encode())
        digest.update(text)
    return digest.hexdigest()[:16]


#: The hash that names the kernels' cache folder (see the module docstring).
SOURCE_HASH = source_hash()


def _cache_dir() -> str:
    """``$NUMBA_CACHE_DIR/hearts-HASH`` when the user chose a cache folder, else the package's own
    ``__pycache__/numba-HASH`` where it is writable (numba's default place), else the user's cache."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        return os.path.join(chosen, f"hearts-{SOURCE_HASH}")
    beside = _FAST_DIR / "__pycache__"
    try:
        beside.mkdir(exist_ok=True)
        if os.access(beside, os.W_OK):
            # Caches of earlier sources are never read again: remove those left a day (not at once,
            # since a process started before an edit may still be writing to its own).
            for old in beside.glob("numba-*"):
                if old.name != f"numba-{SOURCE_HASH}" and time.time() - old.stat().st_mtime > 86400:
                    shutil.rmtree(old, ignore_errors=True)
            return str(beside / f"numba-{SOURCE_HASH}")
    except OSError:
        pass
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "hearts", f"numba-{SOURCE_HASH}")


#: The folder this process's compiled kernels are cached in.
CACHE_DIR = _cache_dir()


def njit(*args: Any, **kwargs: Any) -> Any:
    """``numba.njit`` with ``cache=True`` by default, caching in :data:`CACHE_DIR`.

    numba picks a function's cache folder when it is decorated, from its ``CACHE_DIR`` setting:
    the setting is ours for that moment only, so other numba code in the process is unaffected.
    """
    kwargs.setdefault("cache", True)
    if args and callable(args[0]):
        return _decorate(args[0], kwargs)
    return lambda f: _decorate(f, kwargs)


def _decorate(func: F, options: dict[str, Any]) -> F:
    saved = _numba_config.CACHE_DIR
    _numba_config.CACHE_DIR = CACHE_DIR
    try:
        return numba.njit(**options)(func)
    finally:
        _numba_config.CACHE_DIR = saved


#: ``numba.prange``: a parallel loop in ``parallel=True`` kernels.
prange: Any = numba.prange


# -- the shared rules, callable from compiled code ------------------------------------------------

# Inlined into the kernels at numba's level (measured: 5-15% more rollouts a second than LLVM's own
# choice); the moon choice is cold code, and inlining its tuple-returning helper trips numba's
# pedantic IR checks, so it is compiled as a call.
_CALLED = (arith.moon_rank, arith.best_moon_choice)
for _rule in arith.RULE_FUNCTIONS:
    register_jitable(inline="never" if _rule in _CALLED else "always")(_rule)

if JIT_ENABLED:
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic, overload

    @intrinsic
    def _ctpop(typingctx, x):  # type: ignore[no-untyped-def]
        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            return builder.ctpop(args[0])

        return types.int64(types.int64), codegen

    @intrinsic
    def _cttz(typingctx, x):  # type: ignore[no-untyped-def]
        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

        return types.int64(types.int64), codegen

    @intrinsic
    def _ctlz(typingctx, x):  # type: ignore[no-untyped-def]
        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

        return types.int64(types.int64), codegen

    @overload(arith.popcount)
    def _popcount(mask):  # type: ignore[no-untyped-def]
        return lambda mask: _ctpop(mask)

    @overload(arith.lowest_card)
    def _lowest_card(mask):  # type: ignore[no-untyped-def]
        return lambda mask: _cttz(mask)

    @overload(arith.highest_card)
    def _highest_card(mask):  # type: ignore[no-untyped-def]
        return lambda mask: 63 - _ctlz(mask)

    @intrinsic
    def pdep(typingctx, x, mask):  # type: ignore[no-untyped-def]
        """BMI2's parallel bit deposit: the low bits of ``x`` laid into the set bits of ``mask`` (only
        where :data:`FAST_PDEP`)."""

        def codegen(context, builder, signature, args):  # type: ignore[no-untyped-def]
            fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
            fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pdep.64")
            return builder.call(fn, args)

        return types.int64(types.int64, types.int64), codegen

else:
    # The kernels run as Python, on numpy ints, which lack int's bit methods: arith's bit helpers
    # are replaced in this (debugging) mode by ones that convert first; arith's rules look them up
    # by name at each call, so they use these too.
    def _popcount(mask: int) -> int:
        return int(mask).bit_count()

    def _lowest_card(mask: int) -> int:
        m = int(mask)
        return (m & -m).bit_length() - 1

    def _highest_card(mask: int) -> int:
        return int(mask).bit_length() - 1

    arith.popcount, arith.lowest_card, arith.highest_card = _popcount, _lowest_card, _highest_card
