"""Bit counting on card masks: the helpers of :mod:`hearts.core.arith`, which compiled code runs
as one CPU instruction each (LLVM's ``ctpop``/``cttz``/``ctlz``; see :mod:`hearts.fast._jit`)."""

from __future__ import annotations

from hearts.core import arith
from hearts.fast import _jit  # noqa: F401  (registers the compiled versions with numba first)

# Read after _jit: with the jit off it has replaced these with numpy-safe versions.
popcount = arith.popcount
lowest_card = arith.lowest_card
highest_card = arith.highest_card

__all__ = ["highest_card", "lowest_card", "popcount"]
