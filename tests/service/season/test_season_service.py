"""A season through the game service (``service.seasons``), on SQLite and PostgreSQL: sign-up,
rounds dealt at their time, a late joiner, a leaver, a round closing with a game still under
way, the standings, several processes and a restart in the middle of dealing."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import pytest

from bot.service import FakeClock, GameService, ServiceError
from bot.service.models import Seat
from bot.service.season.records import SeasonRecord
from bot.service.seasons import MakeHome, SeasonNews
from tests.service.conftest import CHANNEL, GUILD, MOD, SCRIPTED_DECK, Opener, play_to_end

#: Seven members who sign up before round 1, and one who joins during it.
FIRST_SEVEN = tuple(range(21, 28))
LATE = 28
NAMES = {uid: f"Member {uid}" for uid in (*FIRST_SEVEN, LATE)}
#: Every table plays the eight scripted tiles: a game is a few dozen moves.
OPTIONS = {"deck": SCRIPTED_DECK}


class Homes:
    """The threads a step makes, as fake channel ids (what the table's threads would be)."""

    def __init__(self, start: int = 500_000, fail_at: int | None = None) -> None:
        self.made: list[tuple[int, int, int, tuple[Seat, ...]]] = []
        self._next = start
        self._fail_at = fail_at

    async def __call__(
        self, season: SeasonRecord, round_number: int, table: int, seats: Sequence[Seat]
    ) -> int:
        if self._fail_at is not None and len(self.made) == self._fail_at:
            raise RuntimeError("the process stops here")
        self._next += 1
        self.made.append((self._next, round_number, table, tuple(seats)))
        return self._next


async def _season(service: GameService, clock: FakeClock, **kwargs: object) -> SeasonRecord:
    first = clock.now() + timedelta(hours=1)
    season = await service.seasons.create(
        GUILD,
        CHANNEL,
        MOD,
        moderator=True,
        options=OPTIONS,
        first_ms=int(first.timestamp() * 1000),
        seed=4242,
        **kwargs,  # type: ignore[arg-type]
    )
    for uid in FIRST_SEVEN:
        await service.seasons.join(season.id, uid, NAMES[uid])
    return season


async def _finish(service: GameService, game_id: int) -> None:
    """Play the game to its end: each member plays the first legal move, computers theirs."""
    record = await service.play.get_game(game_id)
    service.computers.wake(record)
    await service.computers.settle()
    record = await service.play.get_game(game_id)
    if record.status == "active":
        await play_to_end(service, game_id)
    assert (await service.play.get_game(game_id)).status == "finished"


def _people(news: SeasonNews) -> list[set[int]]:
    return [{s.user_id for s in g.seats if s.user_id is not None} for g in news.games]


async def test_a_season_of_seven_plays_three_rounds(open_service: Opener, clock: FakeClock) -> None:
    service = await open_service()
    await service.set_guild_settings(
        GUILD, MOD, moderator=True, timezone="Europe/Amsterdam", quiet_start=22, quiet_end=7
    )
    homes = Homes()
    season = await _season(service, clock)
    assert (season.status, season.pace, season.rounds, season.days) == ("signup", "week", 3, 7)

    # Sign-up is open until the first round's time: nothing is dealt before it.
    assert await service.seasons.step(season.id, homes) == []
    clock.advance(hours=1)
    [dealt] = await service.seasons.step(season.id, homes)
    assert (dealt.kind, dealt.round_number, dealt.season.status) == ("dealt", 1, "running")
    # Seven members: a table of four and one of three, everyone seated once, no computer.
    assert sorted(len(g.seats) for g in dealt.games) == [3, 4]
    assert sorted(uid for people in _people(dealt) for uid in people) == list(FIRST_SEVEN)
    assert all(g.status == "active" and g.clock is not None for g in dealt.games)
    assert all(g.clock is not None and g.clock["pace"] == "week" for g in dealt.games)
    # The season's clock sleeps in the server's quiet hours, as any game's on that pace.
    assert all(g.clock and g.clock["night"] == ["Europe/Amsterdam", 22, 7] for g in dealt.games)
    assert [home for home, *_ in homes.made] == [g.channel_id for g in dealt.games]
    assert await service.seasons.step(season.id, homes) == []  # nothing more is due

    # A late joiner signs up during round 1: dealt from round 2.
    late = await service.seasons.join(season.id, LATE, NAMES[LATE])
    assert late.joined == 2
    with pytest.raises(ServiceError) as refused:
        await service.seasons.join(season.id, LATE, NAMES[LATE])
    assert refused.value.code == "season_joined"
    round_one = {g.id for g in dealt.games}
    for game in dealt.games:
        await _finish(service, game.id)

    # Round 1 closes at its time; round 2 deals all eight, nobody meeting anyone again
    # more than the count forces (eight at two tables of four after a four and a three).
    clock.advance(days=7)
    closed, dealt = await service.seasons.step(season.id, homes)
    assert (closed.kind, closed.round_number) == ("closed", 1)
    assert (dealt.kind, dealt.round_number) == ("dealt", 2)
    assert sorted(len(g.seats) for g in dealt.games) == [4, 4]
    assert LATE in set().union(*_people(dealt))
    table = await service.seasons.standings(season.id)
    assert table.playing == 2
    assert [line.rounds[0] is None for line in table.lines if line.user_id == LATE] == [True]

    # A member of one table leaves the season: a computer takes their seat there.
    leaving_game, other_game = dealt.games
    leaver = next(s.user_id for s in leaving_game.seats if s.user_id is not None)
    [taken] = await service.seasons.leave(season.id, leaver)
    computer = next(s for s in taken.record.seats if s.left_user_id == leaver)
    assert computer.is_bot and computer.user_id is None
    await _finish(service, leaving_game.id)
    # The other table is still playing when round 2 closes.
    clock.advance(days=7)
    closed, dealt = await service.seasons.step(season.id, homes)
    assert (closed.kind, closed.round_number, dealt.round_number) == ("closed", 2, 3)
    still = {s.user_id for s in other_game.seats if s.user_id is not None}
    assert set(dealt.waiting) == still
    # Free: eight members, less the leaver and the four still playing: one table of three.
    assert _people(dealt) == [set((*FIRST_SEVEN, LATE)) - still - {leaver}]
    assert leaver not in set().union(*_people(dealt))
    # Told as round 2 closed: round 2's late game is still being played, round 3's new
    # table is not counted in it.
    told = await service.seasons.standings(season.id, through=2)
    assert (told.rounds, told.playing) == (2, 1)
    assert (await service.seasons.standings(season.id)).playing == 2

    await _finish(service, other_game.id)  # the late game of round 2 ends, and counts
    await _finish(service, dealt.games[0].id)
    clock.advance(days=7)
    closed, over = await service.seasons.step(season.id, homes)
    assert (closed.kind, closed.round_number, over.kind) == ("closed", 3, "over")
    assert over.season.status == "over"
    assert await service.seasons.step(season.id, homes) == []

    table = await service.seasons.standings(season.id)
    assert table.playing == 0 and table.rounds == 3
    lines = {line.user_id: line for line in table.lines}
    assert set(lines) == {*FIRST_SEVEN, LATE}
    assert lines[leaver].left and lines[leaver].games == 2
    assert lines[LATE].rounds[0] is None and lines[LATE].games >= 1
    for uid in still:  # round 2's late game counted in round 2; they sat round 3 out
        assert lines[uid].rounds[1] is not None and lines[uid].rounds[2] is None
    assert sum(line.games for line in table.lines) == 7 + 8 + 3
    assert [line.place for line in table.lines] == sorted(line.place for line in table.lines)
    async with service.storage.read() as tx:
        for game_id in round_one:
            assert await tx.seasons.of_game(game_id) == (season.id, 1)


async def test_a_restart_in_the_middle_of_dealing_opens_the_rest_once(
    open_service: Opener, clock: FakeClock
) -> None:
    first = await open_service()
    season = await _season(first, clock)
    clock.advance(hours=1)
    # The process stops after opening the first of round 1's two tables.
    stopping = Homes(fail_at=1)
    with pytest.raises(RuntimeError):
        await first.seasons.step(season.id, stopping)
    async with first.storage.read() as tx:
        kept = await tx.seasons.get(season.id)
        [opened] = await tx.seasons.tables(season.id)
    assert kept is not None and kept.dealt == 0 and kept.dealing is not None
    # Killed, it would not have given the lease back: it holds it for a long while ...
    holder = await first.core.claimant()
    async with first.storage.write() as tx:
        assert await tx.seasons.claim(season.id, holder, 0, 10**15)
    await first.close()

    # ... and its successor, in its place on the database, takes it at once and opens the
    # rest of the same deal; the first table is not opened again.
    second = await open_service()
    homes = Homes(start=600_000)
    [dealt] = await second.seasons.step(season.id, homes)
    assert (dealt.kind, dealt.round_number, len(dealt.games)) == ("dealt", 1, 2)
    assert dealt.games[0].id == opened.game_id
    assert [table for _, _, table, _ in homes.made] == [1]
    # A thread made before the stop whose game was not recorded yet is used, not made again.
    assert dealt.games[0].channel_id == stopping.made[0][0]
    assert sorted(uid for people in _people(dealt) for uid in people) == list(FIRST_SEVEN)
    # The same deal as one never interrupted: the seats the stopped process worked out.
    assert tuple(dealt.games[0].seats) == stopping.made[0][3]


async def test_two_processes_deal_a_round_once(open_service: Opener, clock: FakeClock) -> None:
    one, two = await open_service(), await open_service()
    season = await _season(one, clock)
    clock.advance(hours=1)
    homes: MakeHome = Homes()
    news = await asyncio.gather(
        one.seasons.step(season.id, homes), two.seasons.step(season.id, homes)
    )
    assert sorted(len(n) for n in news) == [0, 1]
    async with one.storage.read() as tx:
        assert len(await tx.seasons.tables(season.id)) == 2


async def test_only_a_moderator_makes_a_season_and_one_at_a_time(
    open_service: Opener, clock: FakeClock
) -> None:
    service = await open_service()
    for kwargs, code in (
        ({"moderator": False}, "not_allowed"),
        ({"moderator": True, "rounds": 0}, "season_bad_length"),
        ({"moderator": True, "days": 29}, "season_bad_length"),
        ({"moderator": True, "game_name": "chess"}, "unknown_game"),
    ):
        with pytest.raises(ServiceError) as refused:
            await service.seasons.create(GUILD, CHANNEL, MOD, **kwargs)  # type: ignore[arg-type]
        assert refused.value.code == code
    assert await service.seasons.current(CHANNEL) is None
    season = await service.seasons.create(GUILD, CHANNEL, MOD, moderator=True)
    # The defaults: the short Covenant, three rounds of a week, sign-up open for a day.
    assert (season.game_name, season.options, season.rounds, season.days) == (
        "covenant", {"length": "short"}, 3, 7,
    )  # fmt: skip
    assert season.first_ms == int((clock.now() + timedelta(days=1)).timestamp() * 1000)
    with pytest.raises(ServiceError) as refused:
        await service.seasons.create(GUILD, CHANNEL, MOD, moderator=True)
    assert refused.value.code == "season_going"
    # Leaving before round 1 is as if one never signed up; signing up again is allowed.
    await service.seasons.join(season.id, 21, "Ann")
    assert await service.seasons.leave(season.id, 21) == []
    assert await service.seasons.members(season.id) == []
    with pytest.raises(ServiceError) as refused:
        await service.seasons.leave(season.id, 21)
    assert refused.value.code == "season_not_member"
    await service.seasons.join(season.id, 21, "Ann")
    assert [m.user_id for m in await service.seasons.members(season.id)] == [21]
    ended = await service.seasons.end(season.id, MOD, moderator=True)
    assert (ended.kind, ended.season.status) == ("over", "over")
    assert await service.seasons.current(CHANNEL) is None


async def test_a_thread_made_before_a_stop_is_used_for_its_table(
    open_service: Opener, clock: FakeClock
) -> None:
    service = await open_service()
    season = await _season(service, clock)
    clock.advance(hours=1)
    # The thread of the first table is made, then the process stops before its game is
    # stored (the database refuses the write, as a kill at that moment would leave it).
    homes = Homes()
    commits: list[int] = []

    def stop() -> None:
        commits.append(1)
        if len(commits) == 2:  # the thread is kept (the first), the game's write is lost
            raise RuntimeError("the process stops here")

    async def make_then_stop(*args: Any) -> int:
        home = await homes(*args)
        service.storage.before_commit = stop if len(homes.made) == 1 else None
        return home

    with pytest.raises(RuntimeError):
        await service.seasons.step(season.id, make_then_stop)
    service.storage.before_commit = None
    async with service.storage.read() as tx:
        assert await tx.seasons.tables(season.id) == []
    [dealt] = await service.seasons.step(season.id, homes)
    # Two threads in all: the first table is played in the thread made before the stop.
    assert [home for home, *_ in homes.made] == [g.channel_id for g in dealt.games]
    assert len(homes.made) == 2


async def test_the_lease_is_renewed_table_by_table(open_service: Opener, clock: FakeClock) -> None:
    one, two = await open_service(), await open_service()
    season = await _season(one, clock)
    clock.advance(hours=1)
    homes = Homes()
    others: list[list[SeasonNews]] = []

    async def slow_home(*args: Any) -> int:
        # Each thread takes most of a lease, two of them more than one: the other process,
        # trying during the second, still finds the season held (renewed before it).
        clock.advance(one.settings.claim_lease * 0.6)
        if len(homes.made) == 1:
            others.append(await two.seasons.step(season.id, Homes(start=900_000)))
        return await homes(*args)

    [dealt] = await one.seasons.step(season.id, slow_home)
    assert others == [[]]
    assert len(dealt.games) == 2 and len(homes.made) == 2


async def test_too_few_free_members_are_told_and_dealt_next_round(
    open_service: Opener, clock: FakeClock
) -> None:
    service = await open_service()
    first = clock.now() + timedelta(hours=1)
    season = await service.seasons.create(
        GUILD, CHANNEL, MOD, moderator=True, first_ms=int(first.timestamp() * 1000), seed=1
    )
    await service.seasons.join(season.id, 21, "Ann")
    await service.seasons.join(season.id, 22, "Ben")
    clock.advance(hours=1)
    [dealt] = await service.seasons.step(season.id, Homes())
    assert (dealt.kind, dealt.round_number, dealt.games) == ("dealt", 1, ())
    assert (dealt.problem, dealt.unseated) == ("too_few", (21, 22))
    # A third member signs up during round 1: round 2 deals the three of them.
    assert (await service.seasons.join(season.id, 23, "Cas")).joined == 2
    clock.advance(days=7)
    closed, dealt = await service.seasons.step(season.id, Homes())
    assert (closed.kind, dealt.round_number, dealt.problem) == ("closed", 2, None)
    assert _people(dealt) == [{21, 22, 23}]


async def test_what_a_step_owes_is_kept_until_told_also_across_a_restart(
    open_service: Opener, clock: FakeClock
) -> None:
    first = await open_service()
    season = await _season(first, clock)
    clock.advance(hours=1)
    [dealt] = await first.seasons.step(season.id, Homes())
    # Each table's hello is owed from the step that opened it, in the tables' order.
    hellos = tuple(f"hello.1.{g.id}" for g in dealt.games)
    assert dealt.season.untold == hellos
    # The process stops before the table said anything: its successor finds the same debt,
    # and the season among those due (its lease free), though nothing else is due.
    await first.close()
    second = await open_service()
    assert (await second.seasons.get(season.id)).untold == hellos
    assert [s.id for s in await second.seasons.due()] == [season.id]
    assert await second.seasons.step(season.id, Homes(start=600_000)) == []
    # Told one by one; telling one again changes nothing.
    await second.seasons.told(season.id, hellos[0])
    await second.seasons.told(season.id, hellos[0])
    assert (await second.seasons.get(season.id)).untold == hellos[1:]
    await second.seasons.told(season.id, hellos[1])
    assert (await second.seasons.get(season.id)).untold == ()

    # A round's standings are owed as it closes, beside the next round's hellos.
    for game in dealt.games:
        await _finish(second, game.id)
    clock.advance(days=7)
    closed, dealt = await second.seasons.step(season.id, Homes(start=700_000))
    assert (closed.kind, closed.round_number) == ("closed", 1)
    assert dealt.season.untold == ("closed.1", *(f"hello.2.{g.id}" for g in dealt.games))
    for post in dealt.season.untold:
        await second.seasons.told(season.id, post)

    # A season a moderator ended owes its podium, and stays due (though over) until told.
    ended = await second.seasons.end(season.id, MOD, moderator=True)
    assert (ended.season.status, ended.season.untold) == ("over", ("over.2",))
    assert [s.id for s in await second.seasons.due()] == [season.id]
    await second.seasons.told(season.id, "over.2")
    assert (await second.seasons.get(season.id)).untold == ()
    assert await second.seasons.due() == []


async def test_two_processes_telling_at_once_both_count(
    open_service: Opener, clock: FakeClock
) -> None:
    one, two = await open_service(), await open_service()
    season = await _season(one, clock)
    clock.advance(hours=1)
    [dealt] = await one.seasons.step(season.id, Homes())
    first, second = dealt.season.untold
    # Each process tells one of the two hellos at the same moment: neither undoes the other.
    await asyncio.gather(one.seasons.told(season.id, first), two.seasons.told(season.id, second))
    assert (await one.seasons.get(season.id)).untold == ()
