"""The seasons part of the storage (``tx.seasons``), the same on SQLite and PostgreSQL."""

from __future__ import annotations

import json

from bot.service.season.members import Member
from bot.service.season.records import NewSeason, SeasonTable
from bot.service.storage.values import NewGame
from tests.service.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, MOD, Opener

DAY_MS = 86_400_000


def _new(channel: int = CHANNEL, guild: int = GUILD) -> NewSeason:
    return NewSeason(
        guild, channel, MOD, "covenant", {"length": "short"}, "week", 3, 7, 5000, 77, 1
    )


async def test_a_season_is_stored_and_read_back(open_service: Opener) -> None:
    service = await open_service()
    async with service.storage.write() as tx:
        season_id = await tx.seasons.insert(_new())
    async with service.storage.read() as tx:
        season = await tx.seasons.get(season_id)
        assert await tx.seasons.get(season_id + 1000) is None
        assert await tx.seasons.current_in(CHANNEL) == season
        assert await tx.seasons.current_in(CHANNEL + 1) is None
    assert season is not None
    assert (season.guild_id, season.channel_id, season.creator_id) == (GUILD, CHANNEL, MOD)
    assert (season.game_name, season.options, season.pace) == (
        "covenant",
        {"length": "short"},
        "week",
    )
    assert (season.rounds, season.days, season.first_ms, season.seed) == (3, 7, 5000, 77)
    assert (season.status, season.dealt, season.dealing, season.message_id) == (
        "signup",
        0,
        None,
        None,
    )
    assert season.starts_ms(2) == 5000 + 7 * DAY_MS
    assert [season.round_at(t) for t in (4999, 5000, 5000 + 7 * DAY_MS, 10**15)] == [0, 1, 2, 3]

    async with service.storage.write() as tx:
        await tx.seasons.update(
            season_id,
            status="running",
            dealt=1,
            dealing=json.dumps([[[ALICE, BOB], 1]]),
            message_id=9,
        )
    async with service.storage.read() as tx:
        season = await tx.seasons.get(season_id)
    assert season is not None
    assert (season.status, season.dealt, season.dealing, season.message_id) == (
        "running", 1, [[[ALICE, BOB], 1]], 9,
    )  # fmt: skip
    async with service.storage.write() as tx:
        await tx.seasons.update(season_id, status="over")
    async with service.storage.read() as tx:
        assert await tx.seasons.current_in(CHANNEL) is None
        assert await tx.seasons.due(10**15) == []


async def test_members_sign_up_change_and_keep_their_order(open_service: Opener) -> None:
    service = await open_service()
    async with service.storage.write() as tx:
        season_id = await tx.seasons.insert(_new())
        await tx.seasons.put_member(season_id, Member(BOB, "Bob"), 10)
        await tx.seasons.put_member(season_id, Member(ALICE, "Alice"), 20)
        await tx.seasons.put_member(season_id, Member(CAROL, "Carol", joined=2), 30)
    async with service.storage.write() as tx:
        # Bob leaves in round 2 and is renamed; he keeps his place in the sign-up order.
        await tx.seasons.put_member(season_id, Member(BOB, "Bobby", left=2), 40)
    async with service.storage.read() as tx:
        members = await tx.seasons.members(season_id)
    assert members == [
        Member(BOB, "Bobby", left=2),
        Member(ALICE, "Alice"),
        Member(CAROL, "Carol", joined=2),
    ]


async def test_a_table_is_recorded_once_and_found_by_its_game(open_service: Opener) -> None:
    service = await open_service()
    async with service.storage.write() as tx:
        season_id = await tx.seasons.insert(_new())
        game_id = await tx.games.insert(
            NewGame(GUILD, CHANNEL + 1, "covenant", 1, "{}", False, MOD, 1)
        )
        other = await tx.games.insert(
            NewGame(GUILD, CHANNEL + 2, "covenant", 1, "{}", False, MOD, 1)
        )
        assert await tx.seasons.add_table(season_id, SeasonTable(1, 0, game_id))
    async with service.storage.write() as tx:
        # The same round's table again (a restart dealing it again): refused, nothing changes.
        assert not await tx.seasons.add_table(season_id, SeasonTable(1, 0, other))
        assert await tx.seasons.add_table(season_id, SeasonTable(1, 1, other))
    async with service.storage.read() as tx:
        assert await tx.seasons.tables(season_id) == [
            SeasonTable(1, 0, game_id),
            SeasonTable(1, 1, other),
        ]
        assert await tx.seasons.of_game(other) == (season_id, 1)
        assert await tx.seasons.of_game(other + 100) is None


async def test_one_process_claims_a_season_at_a_time(open_service: Opener) -> None:
    first, second = await open_service(), await open_service()
    async with first.storage.write() as tx:
        season_id = await tx.seasons.insert(_new())
    async with first.storage.write() as tx:
        assert await tx.seasons.claim(season_id, "a", 100, 200)
    async with second.storage.write() as tx:
        assert not await tx.seasons.claim(season_id, "b", 150, 250)
        assert await tx.seasons.claim(season_id, "a", 150, 300)  # the holder renews it
    async with second.storage.read() as tx:
        assert await tx.seasons.due(250) == []
        assert [s.id for s in await tx.seasons.due(300)] == [season_id]
    async with second.storage.write() as tx:
        assert await tx.seasons.claim(season_id, "b", 300, 400)  # the lease ran out
        await tx.seasons.release(season_id, "a")  # not a's any more: nothing changes
        assert not await tx.seasons.claim(season_id, "a", 350, 450)
        await tx.seasons.release(season_id, "b")
        assert await tx.seasons.claim(season_id, "a", 350, 450)


async def test_a_stopped_process_s_lease_is_taken_in_its_place(open_service: Opener) -> None:
    service = await open_service()
    async with service.storage.write() as tx:
        season_id = await tx.seasons.insert(_new())
        assert await tx.seasons.claim(season_id, "1/host:10:aa", 100, 10_000)
        # Another live process (place 2) waits for the lease ...
        assert not await tx.seasons.claim(season_id, "2/host:11:bb", 200, 10_000)
        # ... but the process that took place 1 after the first stopped takes it at once.
        assert await tx.seasons.claim(season_id, "1/host:12:cc", 200, 10_000)
        assert not await tx.seasons.claim(season_id, "12/host:13:dd", 300, 10_000)
