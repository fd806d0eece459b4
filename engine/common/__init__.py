"""Pieces shared by the engines: a portable seeded RNG and the data folder."""

from engine.common.data import DATA_DIR, load_toml
from engine.common.rng import Rng

__all__ = ["DATA_DIR", "Rng", "load_toml"]
