"""Bit counting on card masks: the helpers of :mod:`hearts.core.arith`, which compiled code runs
as one CPU instruction each (LLVM's ``ctpop``/``cttz``/``ctlz``; see :mod:`hearts.fast._jit`)."""

from __future__ import annotations

import hearts.fast._jit  # noqa: F401  (registers the compiled versions with numba)
from hearts.core.arith import highest_card, lowest_card, popcount

__all__ = ["highest_card", "lowest_card", "popcount"]
