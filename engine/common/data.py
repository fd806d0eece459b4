"""Where the data files (tiles, cards, texts) live, and how they are read."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

#: The project's ``data/`` folder; ``ARKBOT_DATA`` overrides it (e.g. in a container).
DATA_DIR = Path(os.environ.get("ARKBOT_DATA", Path(__file__).resolve().parents[2] / "data"))


def load_toml(name: str) -> dict[str, Any]:
    """Read ``data/<name>`` as TOML."""
    with (DATA_DIR / name).open("rb") as handle:
        return tomllib.load(handle)
