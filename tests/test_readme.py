"""The README's promises: its first commands (the quick test subset too), and its Python example runs as printed."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_opens_with_the_serve_and_test_commands() -> None:
    first_block = README.read_text(encoding="utf-8").split("```bash", 1)[1].split("```", 1)[0]
    lines = [line.split("#", 1)[0].strip() for line in first_block.strip().splitlines()]
    assert lines[:2] == ["pip install -e . && hearts serve", "pip install -e '.[dev]' && python3 -m pytest -q"]
    # The quick subset beside it names test files that exist (bash expands the braces).
    quick = re.fullmatch(r"python3 -m pytest -q tests/test_\{([a-z_,]+)\}\.py", lines[2])
    assert quick is not None, lines[2]
    for name in quick.group(1).split(","):
        assert (README.parent / "tests" / f"test_{name}.py").is_file(), name


def test_readme_python_example_plays_a_whole_game() -> None:
    code = re.search(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert code is not None
    namespace: dict[str, object] = {"print": lambda *args: None}
    exec(compile(code.group(1), "README.md", "exec"), namespace)  # noqa: S102 - our own README
    game = namespace["game"]
    assert game.is_over and game.winners  # type: ignore[attr-defined]
    assert namespace["text"].startswith("{")  # type: ignore[union-attr]


def test_ci_runs_the_readme_test_command() -> None:
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "python3 -m pip install -q -e '.[dev,ray]' && python3 -m pytest -q" in ci
