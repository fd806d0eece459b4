"""The paces a server may choose for its games' clocks, by name (:data:`PACES`, or a
deployment's ``custom:START,INCREMENT,CAP``): what a time bank starts with, gains per move and
can hold. The game service's clock (:mod:`bot.service.pace`) runs them; the settings check
``ARKBOT_PACE`` against them, without the service.
"""

from __future__ import annotations

from dataclasses import dataclass

HOUR_MS = 3_600_000
DAY_MS = 24 * HOUR_MS


#: The most reminders a player gets in one game within any 24 hours, on the paces a server
#: chooses by name.
REMINDERS_A_DAY = 2


@dataclass(frozen=True, slots=True)
class Pace:
    """A time bank's rules: what a player starts with, gains per move, and can hold;
    whether the clock stops in the server's quiet hours, and the most reminders a player
    gets in one game within a day (None: no limit)."""

    name: str
    start_ms: int
    increment_ms: int
    cap_ms: int
    sleeps: bool = False
    reminders_a_day: int | None = REMINDERS_A_DAY


#: The paces a server may choose (``"none"``: no clock, no reminders, no time-outs).
PACES: dict[str, Pace | None] = {
    "relaxed": Pace("relaxed", 5 * DAY_MS, 24 * HOUR_MS, 7 * DAY_MS),
    "normal": Pace("normal", 3 * DAY_MS, 12 * HOUR_MS, 5 * DAY_MS),
    "fast": Pace("fast", 1 * DAY_MS, 4 * HOUR_MS, 2 * DAY_MS),
    # A game in a week: the bank sleeps at night and in school hours, so a turn that
    # reaches a player after their look before school lasts until they look after it;
    # what a group of teens takes with it is bench/week.py's.
    "week": Pace("week", 6 * HOUR_MS, 90 * 60_000, 9 * HOUR_MS, sleeps=True),
    "none": None,
}
DEFAULT_PACE = "normal"
CUSTOM = "custom:"
#: A custom pace's time bank (START and CAP) is one minute at least: a shorter one runs out
#: before a player has seen the board (every turn would time out). A minute, not an hour,
#: as the end-to-end tests play on banks of a couple of minutes.
MIN_BANK_MS = 60_000
#: ... and a year at most, far past any game a group plays, and well inside what a
#: timestamp in milliseconds and a ``timedelta`` hold (a forged ``1e308`` is refused).
MAX_BANK_MS = 365 * DAY_MS


def pace_of(name: str) -> Pace | None:
    """The pace called ``name``: a key of :data:`PACES` (``"none"``: no clock), or
    ``"custom:START,INCREMENT,CAP"`` in hours, a deployment's own clock (a weekend camp's,
    or seconds for the end-to-end tests). ``ValueError`` for anything else."""
    if name in PACES:
        return PACES[name]
    if not name.startswith(CUSTOM):
        raise ValueError(f"A pace is one of {', '.join(PACES)} or {CUSTOM}START,INCREMENT,CAP")
    try:
        start, increment, cap = (float(part) for part in name[len(CUSTOM) :].split(","))
    except ValueError:
        raise ValueError(
            f"A custom pace is {CUSTOM}START,INCREMENT,CAP in hours, like custom:48,12,96"
        ) from None
    # Written so that NaN fails every bound (each comparison with it is false).
    in_bank = MIN_BANK_MS <= start * HOUR_MS <= cap * HOUR_MS <= MAX_BANK_MS
    if not (in_bank and 0 <= increment * HOUR_MS <= MAX_BANK_MS):
        raise ValueError(
            "A custom pace needs a minute <= START <= CAP <= a year, 0 <= INCREMENT <= a year"
        )
    return Pace(
        name,
        round(start * HOUR_MS),
        round(increment * HOUR_MS),
        round(cap * HOUR_MS),
        reminders_a_day=None,
    )


def is_pace(name: str) -> bool:
    try:
        pace_of(name)
    except ValueError:
        return False
    return True
