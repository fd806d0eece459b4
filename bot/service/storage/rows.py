"""Database rows into records, the same for every backend (columns are read by name)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.service.clock import from_ms
from bot.service.models import ActionRecord, GameRecord, Practice, Seat
from bot.service.pace import Away
from bot.service.season.records import SeasonRecord

#: The games columns every backend selects, in this order, plus ``seats_json``: an array of
#: [seat, user_id, name, is_bot, left_user_id, away_start, away_until, ping] per seat.
GAME_COLUMNS = (
    "id, guild_id, channel_id, kind, seed, options, shuffle_seats, creator_id, status, "
    "version, current_seat, waiting_since, created_at, updated_at, started_at, finished_at, "
    "result, error, announced, lobby_message_id, board_message_id, post_error, post_failures, "
    "clock, next_due_at, thread_id, rematch_of, last_move_at, practice, take_back_until, "
    "take_back"
)
#: The same, each prefixed with the alias ``g.``.
GAME_FIELDS_G = ", ".join(f"g.{c.strip()}" for c in GAME_COLUMNS.split(","))


def json_or(text: str | None, default: object) -> object:
    """Parse a JSON column; a damaged one reads as ``default`` (the service's load finds and
    reports damage; listing a game must not fail because of it)."""
    if text is None:
        return default
    try:
        return json.loads(text)
    except ValueError:
        return default


def json_dict(text: str | None) -> dict[str, Any]:
    """A JSON object column; damaged, or not an object: ``{}``."""
    value = json_or(text, None)
    return value if isinstance(value, dict) else {}


def json_list(text: str | None) -> list[Any]:
    """A JSON array column; damaged, or not an array: ``[]``."""
    value = json_or(text, None)
    return value if isinstance(value, list) else []


def action_of(game_id: int, row: Sequence[Any]) -> ActionRecord:
    """An action of the log from its row (seq, seat, user_id, source, action, created_at)."""
    return ActionRecord(
        game_id=game_id,
        seq=row[0],
        seat=row[1],
        user_id=row[2],
        source=row[3],
        action=json_dict(row[4]),
        created_at=from_ms(row[5]),
    )


def seats_of(text: str | None) -> tuple[Seat, ...]:
    seats = []
    for row in json_list(text):
        try:
            index, user_id, name, is_bot, left, away_start, away_until, ping, level = row
            away = Away(away_start, away_until) if away_start and away_until else None
            level = str(level) if level is not None else None
            seats.append(
                Seat(int(index), user_id, str(name), bool(is_bot), left, away, str(ping), level)
            )
        except (TypeError, ValueError):
            continue
    return tuple(seats)


def game_of(row: Any) -> GameRecord:
    result = json_or(row["result"], None)
    options = json_or(row["options"], None)
    damage = (
        None
        if isinstance(options, dict)
        else f"options are not a JSON object: {row['options']!r:.60}"
    )
    return GameRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        game_name=row["kind"],
        seed=row["seed"],
        options=options if isinstance(options, dict) else {},
        damage=damage,
        shuffle_seats=bool(row["shuffle_seats"]),
        creator_id=row["creator_id"],
        status=row["status"],
        version=row["version"],
        seats=seats_of(row["seats_json"]),
        created_at=from_ms(row["created_at"]),
        updated_at=from_ms(row["updated_at"]),
        started_at=from_ms(row["started_at"]),
        finished_at=from_ms(row["finished_at"]),
        current_seat=row["current_seat"],
        waiting_since=from_ms(row["waiting_since"]),
        scores=tuple(result["scores"]) if isinstance(result, dict) else None,
        winners=tuple(result["winners"]) if isinstance(result, dict) else None,
        error=row["error"],
        announced=row["announced"],
        lobby_message_id=row["lobby_message_id"],
        board_message_id=row["board_message_id"],
        post_error=row["post_error"],
        post_failures=row["post_failures"],
        clock=clock_of(row["clock"]),
        next_due_ms=row["next_due_at"],
        thread_id=row["thread_id"],
        rematch_of=row["rematch_of"],
        last_move_ms=row["last_move_at"],
        practice=practice_of(row["practice"]),
        take_back_until_ms=row["take_back_until"],
        take_back=take_back_of(row["take_back"]),
    )


def take_back_of(text: str | None) -> dict[str, Any] | None:
    """What taking the last turn back restores; a damaged value reads as none (the turn
    is then posted as any other)."""
    found = json_or(text, None)
    return found if isinstance(found, dict) and isinstance(found.get("to"), int) else None


def practice_of(text: str | None) -> Practice | None:
    """A practice game's teaching (None: not a practice game). A damaged value is read as
    English with nothing taught yet: the lessons come again, the game goes on."""
    if text is None:
        return None
    value = json_dict(text)
    language = value.get("language")
    taught = value.get("taught")
    turn = value.get("turn")
    shown = value.get("shown")
    return Practice(
        language if isinstance(language, str) else "en",
        tuple(str(key) for key in taught) if isinstance(taught, list) else (),
        turn if isinstance(turn, int) and not isinstance(turn, bool) else None,
        tuple(str(key) for key in shown) if isinstance(shown, list) else (),
    )


def clock_of(text: str | None) -> dict[str, Any] | None:
    """A game's clock column (the pace and every seat's bank); damaged: no clock."""
    clock = json_or(text, None)
    if not isinstance(clock, dict) or not isinstance(clock.get("banks"), list):
        return None
    return clock


#: The seasons columns every backend selects (alias ``s``), in :func:`season_of`'s order.
SEASON_FIELDS = ", ".join(
    f"s.{c}"
    for c in (
        "id", "guild_id", "channel_id", "creator_id", "kind", "options", "pace", "rounds",
        "days", "first_at", "seed", "status", "dealt", "closed", "dealing", "message_id",
        "untold",
    )
)  # fmt: skip
#: The season fields a service may change, by their columns.
SEASON_UPDATES = {
    "status": "status",
    "dealt": "dealt",
    "closed": "closed",
    "first_ms": "first_at",
    "dealing": "dealing",
    "message_id": "message_id",
    "untold": "untold",
}


def season_of(row: Any) -> SeasonRecord:
    """A seasons row (selected as :data:`SEASON_FIELDS`) as a record."""
    (id_, guild, channel, creator, kind, options, pace, rounds, days, first, seed, status,
     dealt, closed, dealing, message, untold) = tuple(row)  # fmt: skip
    return SeasonRecord(
        int(id_),
        int(guild),
        int(channel),
        int(creator),
        str(kind),
        json_dict(options),
        str(pace),
        int(rounds),
        int(days),
        int(first),
        int(seed),
        status,
        int(dealt),
        int(closed),
        dealing if isinstance(dealing := json_or(dealing, None), list) else None,
        None if message is None else int(message),
        tuple(str(u) for u in said) if isinstance(said := json_or(untold, None), list) else (),
    )


def same_place(holder: str) -> str:
    """A LIKE pattern of the claims made in ``holder``'s place on the database (see
    :meth:`bot.service.core.Core.claimant`): one that is not ``holder``'s own was made by a
    process that has stopped, and is free to take."""
    place = holder.partition("/")[0].replace("%", "").replace("_", "")
    return f"{place}/%"
