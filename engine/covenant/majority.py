"""Who controls a feature: the seats with the most pieces on it (ties share in full)."""

from __future__ import annotations

from collections.abc import Iterable


def majority(seats: Iterable[int]) -> tuple[int, ...]:
    """The seats holding the most pieces, one entry per piece in ``seats``; () if none."""
    if isinstance(seats, list | tuple) and len(seats) < 2:
        return tuple(seats)
    counts: dict[int, int] = {}
    for seat in seats:
        counts[seat] = counts.get(seat, 0) + 1
    if not counts:
        return ()
    most = max(counts.values())
    return tuple(sorted(seat for seat, n in counts.items() if n == most))
