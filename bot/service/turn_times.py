"""How long a turn takes in practice: what a lobby's finish estimate is reckoned from.

A player's bank says how long a turn *may* take; groups take far less. The wall-clock time
from one of a person's turns to their move (computers move at once) is measured on the
server's own finished games at the same pace once it has some, and before that taken from
``bench/week.py``: three players who look at Discord three times a day (before school,
after school, in the evening) and answer a ping now and then, at the ``week`` pace and
the default one, in six seeded runs of each game and length.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.service.clock import to_ms
from bot.service.models import GameRecord
from bot.service.pace import HOUR_MS
from engine.rules import Rules

#: A person's turn in the simulation: 2.75 to 4 hours of wall clock, the tenth and the
#: ninetieth percentiles of its 48 runs (seeds 1 to 6, each game and length, both paces;
#: 2.45 to 4.34 at the extremes, 3.4 the median).
SIMULATED = (int(2.75 * HOUR_MS), 4 * HOUR_MS)
#: The last finished games of a server that say how long its turns take.
RECENT = 10
#: A range from the server's history is at least this much either side of its median: one
#: game, or a few alike, do not make the next one as sure.
SPREAD = 0.15


@dataclass(frozen=True, slots=True)
class TurnTimes:
    """How long a person's turn takes, fastest and slowest, in ms; ``games``: how many of
    the server's finished games say so (0: the simulation's figures)."""

    fast_ms: int
    slow_ms: int
    games: int = 0


def turn_times(
    rules: Mapping[str, Rules[Any, Any]], finished: Sequence[GameRecord], pace: str
) -> TurnTimes:
    """The time a person's turn takes on a server whose ``finished`` games these are, at
    ``pace``: from its last :data:`RECENT` games at that pace (not practice games, nor those
    of a game no longer installed, whose length is unknown), else the simulation's."""
    measured: list[float] = []
    recent = sorted(
        (g for g in finished if g.started_at and g.finished_at and g.practice is None),
        key=lambda g: to_ms(g.finished_at),  # type: ignore[arg-type]
        reverse=True,
    )
    for game in recent:
        if (game.clock or {}).get("pace") != pace:
            continue
        people = sum(1 for seat in game.seats if not seat.is_bot and seat.left_user_id is None)
        known = rules.get(game.game_name)
        turns = known.turns(len(game.seats), game.options) if known is not None else None
        if not people or not turns:
            continue
        took = to_ms(game.finished_at) - to_ms(game.started_at)  # type: ignore[arg-type]
        measured.append(took / (turns * people / len(game.seats)))
        if len(measured) == RECENT:
            break
    if not measured:
        return TurnTimes(*SIMULATED)
    middle = statistics.median(measured)
    fast = min(min(measured), middle * (1 - SPREAD))
    slow = max(max(measured), middle * (1 + SPREAD))
    return TurnTimes(int(fast), int(slow), len(measured))
