"""Why the game service turns a request down: :class:`ServiceError` and every code it carries.

A service refusal is a kind of the one root refusal (:class:`engine.errors.Refusal`): a
``code`` and the values its text names, and nothing was changed. The words are the table
catalogue's ``table.error.<code>`` (an engine's refusal of a move is passed on as it is: its
game's catalogue says it, see :mod:`engine.errors`). :data:`REFUSALS` lists every code
with the params each raise must give (those its catalogue text may name); a test checks
every raise of the service against it and every language's catalogue against the list.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from engine.errors import Refusal

REFUSALS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        # Opening a table
        "guild_only": (),
        "unknown_game": (),
        "bad_options": (),
        "channel_busy": (),
        "too_many_games": ("count",),
        "too_many_lobbies": ("count",),
        "server_lobbies_full": (),
        "cooldown": ("seconds",),
        # Practice games
        "practice_going": (),
        "practice_cooldown": ("seconds",),
        "not_practice": (),
        # The lobby
        "not_allowed": (),
        "not_creator": (),
        "already_joined": (),
        "target_already_joined": (),
        "not_joined": (),
        "lobby_full": ("max",),
        "too_few_players": ("min",),
        "bad_level": (),
        "no_computers": (),
        "no_computer": (),
        "already_started": (),
        # Playing
        "no_game": (),
        "not_started": (),
        "not_a_player": (),
        "target_not_a_player": (),
        "no_such_seat": (),
        "not_your_turn": ("current", "player"),
        "stale": (),
        "just_moved": (),
        "take_back_over": (),
        "bad_action": (),
        "game_over": (),
        "not_over": (),
        "game_damaged": (),
        # Settings
        "bad_pace": ("pace", "known"),
        "bad_custom_pace": ("pace",),
        "bad_timeout_action": ("action", "known"),
        "bad_computer_level": ("level", "known"),
        "bad_language": ("language", "known"),
        "bad_timezone": ("zone",),
        "pace_needs_timezone": ("zone",),
        "bad_quiet_hour": ("hour",),
        "bad_threads": ("value",),
        "bad_role": (),
        "bad_lobby_hours": ("hours", "min", "max"),
        "bad_stall_days": ("days", "min", "max"),
        "bad_away_days": ("days", "max"),
        "unknown_setting": (),
        "away_in_past": (),
        "bad_ping": (),
        # Seasons
        "season_going": (),
        "season_bad_length": ("rounds", "days"),
        "season_started": (),
        "no_season": (),
        "season_joined": (),
        "season_not_member": (),
    }
)

#: Every refusal code of the game service.
CODES: tuple[str, ...] = tuple(REFUSALS)


class ServiceError(Refusal):
    """Something a user asked for that cannot be done; nothing was changed.

    ``code`` is one of :data:`CODES`; the catalogue says it, so no sentence is given here.
    """


__all__ = ["CODES", "REFUSALS", "ServiceError"]
