"""The code's own bar, checked with every test run: the package is mypy-clean and the tree lint-clean."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_package_is_mypy_clean() -> None:
    pytest.importorskip("mypy")
    result = _run("mypy")  # pyproject's [tool.mypy]: the whole hearts package, untyped definitions refused
    assert result.returncode == 0, result.stdout + result.stderr


def test_tree_is_ruff_clean() -> None:
    pytest.importorskip("ruff")
    result = _run("ruff", "check", "src", "tests", "benchmarks", "examples")
    assert result.returncode == 0, result.stdout + result.stderr


def test_core_uses_the_standard_library_only() -> None:
    """Layer 1 is pure: no third-party import and no other hearts layer anywhere in hearts.core."""
    allowed_hearts = "hearts.core"
    for path in (ROOT / "src" / "hearts" / "core").glob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            words = line.split()
            if len(words) >= 2 and words[0] in ("import", "from") and not line.startswith((" ", "\t")):
                module = words[1]
                top = module.split(".")[0]
                if top == "hearts":
                    assert module.startswith(allowed_hearts), f"{path.name}: {line}"
                else:
                    assert top in sys.stdlib_module_names or top == "__future__", f"{path.name}: {line}"
