"""may_act: the one answer to "may this user act now?", and the service agrees with it."""

from __future__ import annotations

from datetime import datetime

import pytest

from bot.service import GameRecord, GameService, Seat, ServiceError
from bot.service.may_act import may_act
from engine.covenant import PlaceTile
from tests.service.conftest import ALICE, BOB, DAVE, SCRIPTED_DECK, started_game

WHEN = datetime(2026, 1, 1)


def record(status: str = "active", current: int | None = 1, version: int = 7) -> GameRecord:
    return GameRecord(
        id=1,
        guild_id=1,
        channel_id=2,
        game_name="covenant",
        seed=0,
        options={},
        shuffle_seats=False,
        creator_id=ALICE,
        status=status,  # type: ignore[arg-type]
        version=version,
        seats=(Seat(0, ALICE, "Alice"), Seat(1, BOB, "Bob")),
        created_at=WHEN,
        updated_at=WHEN,
        current_seat=current,
    )


def said(refusal: ServiceError | None) -> tuple[str, dict[str, object]] | None:
    return None if refusal is None else (refusal.code, refusal.params)


def test_the_player_whose_turn_it_is_may_act_on_the_version_they_saw() -> None:
    assert may_act(record(), BOB) is None
    assert may_act(record(), BOB, version=7) is None
    assert said(may_act(record(), BOB, version=6)) == ("stale", {})


def test_another_seated_player_is_told_whose_turn_it_is() -> None:
    assert said(may_act(record(), ALICE)) == ("not_your_turn", {"current": 1, "player": "Bob"})
    # Without a turn to wait for (their own hand, say), a seat is enough, on any version.
    assert may_act(record(), ALICE, need_turn=False, version=3) is None


def test_someone_without_a_seat_may_not_act_even_without_a_turn() -> None:
    assert said(may_act(record(), DAVE)) == ("not_a_player", {})
    assert said(may_act(record(), DAVE, need_turn=False)) == ("not_a_player", {})


@pytest.mark.parametrize(
    ("status", "code"),
    [
        ("lobby", "not_started"),
        ("finished", "game_over"),
        ("ended", "game_over"),
        ("error", "game_damaged"),
    ],
)
def test_only_a_game_being_played_takes_actions(status: str, code: str) -> None:
    for need_turn in (True, False):
        assert said(may_act(record(status, None), BOB, need_turn=need_turn)) == (code, {})


async def test_the_service_refuses_exactly_what_may_act_refuses(service: GameService) -> None:
    game = await started_game(service, deck=SCRIPTED_DECK)
    codes = []
    # Bob out of turn, Dave unseated, Alice on an old version, then Alice on the one she saw.
    for user, behind in [(BOB, None), (DAVE, None), (ALICE, 1), (BOB, 0), (ALICE, 0)]:
        game = await service.play.get_game(game.id)
        version = None if behind is None else game.version - behind
        expected = may_act(game, user, version=version)
        try:
            await service.play.act(game.id, user, PlaceTile(-1, 0), expected_version=version)
        except ServiceError as error:
            assert expected is not None and error.code == expected.code
            assert expected.params.items() >= error.params.items()
            codes.append(error.code)
        else:
            assert expected is None
            codes.append(None)
    assert codes == ["not_your_turn", "not_a_player", "stale", "not_your_turn", None]
