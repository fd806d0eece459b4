"""Shared helpers for the benchmark scripts: the header line and figure lines."""

from __future__ import annotations

import os
import platform
import statistics
import sys
from pathlib import Path

# Benchmarks run as plain scripts (``python bench/NAME.py``): make the project importable.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def header(name: str) -> None:
    print(f"{name} on {os.cpu_count()} cores, Python {platform.python_version()}")


def figure(name: str, value: float, unit: str) -> None:
    print(f"{name}: {value:.3f} {unit}" if value < 10 else f"{name}: {value:.1f} {unit}")


def median(values: list[float]) -> float:
    return statistics.median(values)
