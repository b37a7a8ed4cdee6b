"""Bit counting on card masks: CPU instructions when compiled, exact Python when not.

Compiled, :func:`popcount`, :func:`lowest_card` and :func:`highest_card` are LLVM's
``ctpop``/``cttz``/``ctlz`` (one instruction each on current CPUs); with numba absent or
``NUMBA_DISABLE_JIT=1`` they are the same functions written with ``int.bit_count`` and
``int.bit_length``, so the kernels run unchanged as plain Python.

numba's disk cache checks only the file of the function it compiled: after changing this
file, delete ``src/hearts/fast/__pycache__`` so that the kernels that inline these helpers
are compiled again.
"""

from __future__ import annotations

from hearts.fast._jit import JIT_ENABLED, njit

if JIT_ENABLED:
    from llvmlite import ir
    from numba import types
    from numba.extending import intrinsic

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

    @njit
    def popcount(mask: int) -> int:
        """How many cards a mask holds."""
        return _ctpop(mask)  # type: ignore[call-arg]

    @njit
    def lowest_card(mask: int) -> int:
        """The lowest-numbered card of a non-empty mask."""
        return _cttz(mask)  # type: ignore[call-arg]

    @njit
    def highest_card(mask: int) -> int:
        """The highest-numbered card of a non-empty mask."""
        return 63 - _ctlz(mask)  # type: ignore[call-arg]

else:

    def popcount(mask: int) -> int:
        """How many cards a mask holds."""
        return int(mask).bit_count()

    def lowest_card(mask: int) -> int:
        """The lowest-numbered card of a non-empty mask."""
        m = int(mask)
        return (m & -m).bit_length() - 1

    def highest_card(mask: int) -> int:
        """The highest-numbered card of a non-empty mask."""
        return int(mask).bit_length() - 1
