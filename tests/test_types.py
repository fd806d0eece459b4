"""The type checker passes over every layer and the example game installed from outside:
``python -m mypy engine render bot examples/tictactoe/arkbot_tictactoe``.

It runs as a test so that CI (which runs the README's test command) checks types on every
run, with the settings of ``[tool.mypy]`` in pyproject.toml. Its cache is the usual
``.mypy_cache`` at the root (git-ignored): a first run checks everything (some seconds), a
later one only what changed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("engine", "render", "bot", "examples/tictactoe/arkbot_tictactoe")


def test_mypy_finds_no_error_in_any_layer() -> None:
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "pyproject.toml", *LAYERS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert checked.returncode == 0, f"mypy found errors:\n{checked.stdout}{checked.stderr}"
