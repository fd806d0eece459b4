"""May this user act in this game now? One answer for the service and the table alike.

The service asks inside the write that stores the action (so the answer holds for the state
the action is played on); the table asks first, to answer a click early and privately. Both
ask :func:`may_act`, so they cannot disagree: what it refuses, neither lets through.
"""

from __future__ import annotations

from bot.service.models import GameRecord
from bot.service.refusals import ServiceError


def not_in_play(record: GameRecord) -> ServiceError | None:
    """Why ``record`` takes no actions now (over, not started, damaged), or None if it is
    being played."""
    if record.status in ("finished", "ended"):
        return ServiceError("game_over")
    if record.status == "lobby":
        return ServiceError("not_started")
    if record.status == "error":
        return ServiceError("game_damaged")
    return None


def may_act(
    record: GameRecord,
    user_id: int,
    *,
    need_turn: bool = True,
    version: int | None = None,
    now_ms: int | None = None,
) -> ServiceError | None:
    """Why ``user_id`` may not act in ``record`` now, or None if they may.

    Only a game being played takes actions, and only from someone seated at it. With
    ``need_turn`` (everything that leads to a move) it must also be their turn, on the
    ``version`` of the game they saw if one is given (a double click, or a button of an
    older post, is stale). Without it (e.g. looking at one's own hand) a seat is enough.
    The refusal names whose turn it is (seat ``current`` and its ``player`` name).
    While the last turn may still be taken back at ``now_ms`` (if given), nobody plays
    on: the next player has not been told, and must not see their turn before it is
    posted (``just_moved``).
    """
    refused = not_in_play(record)
    if refused is not None:
        return refused
    seat = record.seat_of(user_id)
    if seat is None:
        return ServiceError("not_a_player")
    if not need_turn:
        return None
    if version is not None and version != record.version:
        return ServiceError("stale")
    if now_ms is not None and record.taking_back(now_ms):
        return ServiceError("just_moved")
    if seat.index != record.current_seat:
        current = record.seats[record.current_seat or 0]
        return ServiceError("not_your_turn", current=current.index, player=current.name)
    return None


__all__ = ["may_act", "not_in_play"]
