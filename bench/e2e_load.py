"""Many games at once through one arkbot process, against the loopback fake Discord.

Run: ``python bench/e2e_load.py [--games 200] [--tiles 4] [--think 3] [--ramp 10]
[--mix | --game noah] [--length short] [--one-core] [--profile FILE]``. The real bot
(``python -m bot``) runs as its own process on a fresh SQLite file; this process runs the
fake Discord (``tests/support/fake_discord.py``) and the simulated players. Every game is in
its own channel with three players of its own; its lobby is opened in the database with a
short scripted deck (``--tiles`` tiles, drawn from a seed), and its moves are chosen before
the run by the engine's "sensible" computer player. Then all games are played at once:
``/table start``, and each turn as a person would play it, alternately by typing ``/covenant``
commands and by clicking ``Play my turn``, the spot menu, ``Place it`` and the follower
menu or ``Pass``. The games start spread over ``--ramp`` seconds, and each player waits
about ``--think`` seconds before a turn (the steps of a turn follow each other at once, or
after the fake's click delay of 0.1 s). This process's garbage collector is paused during
play, so its pauses are not counted against the bot.

Both games: ``--mix`` makes every second table (the odd channels, half of ``--games``) a game
of Ark, the card game, instead (``--game noah``: all of them). An Ark table also has three
players of its own and a seeded deal (``--seed`` plus its number); its turns are chosen
before the run at random among the legal ones (a face-up card taken about a third of the
time, else one or two cards played, a pet or none, in the endgame a play or a pass) and
played by ``tests/games/noah/e2e/players.py``: typed (``/ark take``, ``/ark play`` with card and
cabin and the rest tapped, ``/ark pet``, ``/ark pass``) and tapped (``Play my turn``,
``Take``, the card, cabin and choice menus, ``Play``, the pet menu, ``Pass for good``) turn
about. A whole Ark game is some 45 turns, so an Ark table plays only its first
``--noah-turns`` turns (by default as many as a Covenant table's deck has tiles, so both
kinds of table play about as many turns in the same time) and is left unfinished; 0 plays
it to the final scoring. The figures below are for all tables together, under the same
names, so a mixed run compares with a Covenant-only one; a ``by game:`` line splits them.

Figures (from the fake's clocks: an interaction's time starts when its INTERACTION_CREATE
is on the gateway):

- ``interactions_per_s``: interactions answered per second of play, all games together.
- ``first_response_p50_ms`` / ``first_response_p99_ms``: to the bot's first answer (the
  interaction callback, usually a defer).
- ``board_created_p50_ms`` / ``board_created_p99_ms``: from the tap (or typed command) that
  closes a turn, or ``/table start``, to the new board's first post in the channel, its
  picture included (the edit that later takes its buttons off does not count).
- ``picture_wait_p50_ms`` / ``picture_wait_p99_ms``: how long a picture waited in the bot's
  queue before a worker took it (the bot's own figures, which it logs when it stops; "nan"
  from a bot that does not).
- ``pictures per turn``: by kind, those the workers drew (the bot's figures, with those
  answered from its cache or a drawing in progress, and those dropped as stale) and those
  uploaded to Discord (by file name, counted by the fake).
- ``cpu_per_100_moves_s``: CPU seconds of the bot and its workers (those that ended too)
  per 100 moves played.
- ``unanswered``: interactions the bot never acknowledged (Discord would say "This
  interaction failed").
- ``peak_rss_mb``: the peak resident memory (VmHWM) of the bot process plus its worker
  processes, summed; ``idle_rss_mb``: their resident memory (VmRSS) once the bot is up
  with no game at all (started first, on a database of its own, and stopped again). The
  same with the run's lobbies open, before play, is printed beside it.

- ``steady_cpu_per_100_moves_s``: the same in steady state (every game started, none
  finished: the moves of the middle of games), and beside it ``steady_bot_…``,
  ``steady_workers_…`` and ``steady_fake_…``: the bot process alone, its worker processes,
  and this process (the fake Discord and its players), each per 100 moves. Sampled once a
  second from /proc.

Real lengths: ``--length short`` plays 36-tile Covenant games to the end, and (with
``--mix``, its default) whole games of Ark, the card game, some 45 turns: the final boards,
scores and replays then weigh what they weigh in real use, once a game, not once in four
turns as in the default 4-tile games. Its moves are the engine's "sensible" player's for the
Covenant (as ``bench/turn_cost.py``'s players choose theirs) and random legal ones for Ark.

One core: ``--one-core`` pins the bot and every process it starts (its picture workers) to
the machine's first core and this process (the fake Discord and its players) to the second,
so the bot works as on a one-core VPS while the players' side does not take its CPU.

``--profile FILE`` runs the bot under ``cProfile`` and writes its profile to FILE as it
stops (``python -m pstats FILE``): the bot's main thread alone (its event loop: discord.py,
the table, the service, the picture queue's bookkeeping), timed by that thread's CPU time.

The machine's load average is printed before and after: compare runs made side by side.

At the end every game's version and action log in the database are checked against the
moves the players made; a mismatch is printed and fails the run (exit status 1).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import random
import re
import resource
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from _common import figure, header, median

from bot.service import NO_LIMITS, GameService
from engine.common import Rng
from engine.covenant import TILES, Game
from engine.covenant.players import sensible_action
from tests.games.noah.e2e.players import NoahTable, plan_noah_game
from tests.support.fake_discord import BotProcess, FakeDiscord, python_argv
from tests.support.players import (
    REPO,
    Table,
    arkbot_env,
    open_lobby,
    peak_rss_mb,
    process_family,
    rss_mb,
    split_turns,
    wait_until_up,
)

PLAYERS = 3
#: Seconds to wait after the last turn for the finished games' replays.
REPLAY_WAIT = 180.0
DECK_TILES = [t for t, tile in TILES.items() if not tile.start]


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (nearest rank) of ``values``."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))]


def kind_of(payload: dict) -> str:
    """``/covenant place`` or ``tb:place``: what an interaction was, for the breakdown."""
    data = payload.get("data") or {}
    if "custom_id" in data:
        parts = data["custom_id"].split(":")
        return f"{parts[0]}:{parts[3]}" if len(parts) > 3 else parts[0]
    options = data.get("options") or []
    sub = options[0]["name"] if options and options[0].get("type") in (1, 2) else ""
    return f"/{data.get('name', '?')} {sub}".strip()


def cpu_seconds(pid: int, *, family: bool = True) -> float:
    """User + system CPU time of a live process, from /proc; with ``family``, of its
    descendants too and of the children they saw end (a worker that was replaced)."""
    total = 0.0
    for member in process_family(pid) if family else [pid]:
        try:
            with open(f"/proc/{member}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        # utime, stime, then cutime, cstime
        total += sum(int(f) for f in fields[11 : 15 if family else 13])
    return total / os.sysconf("SC_CLK_TCK")


def peaks_by_process(pid: int) -> str:
    """Each live process's peak resident memory (VmHWM), named by what it runs: the bot, a
    picture worker, Python's multiprocessing resource tracker."""
    parts: list[str] = []
    for member in process_family(pid):
        try:
            with open(f"/proc/{member}/cmdline", "rb") as cmdline:
                argv = cmdline.read().split(b"\0")
            with open(f"/proc/{member}/status") as status:
                peak = next(int(line.split()[1]) / 1024 for line in status if "VmHWM:" in line)
        except (OSError, StopIteration):
            continue
        words = b" ".join(argv)
        name = (
            "the bot"
            if member == pid
            else "resource tracker"
            if b"resource_tracker" in words
            else "a worker"
        )
        parts.append(f"{name} {peak:.0f} MB")
    return ", ".join(parts)


def picture_figures(output: str) -> dict:
    """What the bot says of its pictures when it stops (empty if it says nothing)."""
    found = re.findall(r"arkbot\.pictures: pictures: (\{.*\})$", output, re.MULTILINE)
    return json.loads(found[-1]) if found else {}


class CpuSampler:
    """The CPU seconds of the bot alone, of its workers and of this process, and the moves
    played, once a second: what a steady state costs, away from the start and the end."""

    def __init__(self, pid: int, moves: Callable[[], int]) -> None:
        self.pid = pid
        self.moves = moves
        #: (moves, bot alone, bot and workers, this process) at each sample.
        self.samples: list[tuple[int, float, float, float]] = []

    def sample(self) -> None:
        self.samples.append(
            (
                self.moves(),
                cpu_seconds(self.pid, family=False),
                cpu_seconds(self.pid),
                time.process_time(),
            )
        )

    async def run(self) -> None:
        while True:
            self.sample()
            await asyncio.sleep(1.0)

    def per_100_moves(self, first: int, last: int) -> tuple[float, float, float, float] | None:
        """(all, the bot, its workers, this process) CPU seconds per 100 moves between the
        first sample at or after ``first`` and the last one at or before ``last`` (sample
        numbers), or None when no move was played between them."""
        window = self.samples[first : last + 1]
        if len(window) < 2 or window[-1][0] == window[0][0]:
            return None
        (m0, bot0, fam0, own0), (m1, bot1, fam1, own1) = window[0], window[-1]
        per = 100 / (m1 - m0)
        bot, family = (bot1 - bot0) * per, (fam1 - fam0) * per
        return family, bot, family - bot, (own1 - own0) * per


def profiled(path: str) -> list[str]:
    """The arguments of a Python that runs the bot as ``-m bot`` does under ``cProfile``,
    timed by the CPU time of its main thread (where the bot's event loop runs: a wall clock
    would count the waits for a worker or the machine's other processes), and writes the
    profile to ``path`` as it stops."""
    code = (
        "import cProfile, runpy, sys, time\n"
        "profile = cProfile.Profile(time.thread_time)\n"
        "sys.argv = ['bot']\n"
        "profile.enable()\n"
        "try:\n"
        "    runpy.run_module('bot', run_name='__main__', alter_sys=True)\n"
        "except SystemExit:\n"
        "    pass\n"
        "finally:\n"
        "    profile.disable()\n"
        f"    profile.dump_stats({str(Path(path).resolve())!r})\n"
    )
    return ["-c", code]


def pin(pids: list[int], core: int) -> None:
    """Pin each process of ``pids`` to ``core`` (one that ended meanwhile is left alone)."""
    for member in pids:
        with contextlib.suppress(ProcessLookupError):
            os.sched_setaffinity(member, {core})


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def per_turn(counts: dict[str, int], turns: int) -> str:
    """``board 1.00, preview 0.50`` (most first), or ``none``."""
    shown = sorted(counts.items(), key=lambda kv: -kv[1])
    return ", ".join(f"{k} {v / max(1, turns):.2f}" for k, v in shown) or "none"


def plan_game(seed: int, tiles: int) -> tuple[list[str], list[list]]:
    """A scripted deck and the turns the players will play on it."""
    deck = random.Random(seed).choices(DECK_TILES, k=tiles)
    game = Game.new(players=PLAYERS, seed=0, deck=deck)
    start, rng, actions = game.copy(), Rng(seed), []
    while game.phase != "over":
        action = sensible_action(game, rng)
        game.apply(action)
        actions.append(action)
    return deck, split_turns(start, actions)


def game_of(index: int, game: str) -> str:
    """What table ``index`` plays: with ``mix`` the odd tables are Ark, the card game."""
    if game == "mix":
        return "noah" if index % 2 else "covenant"
    return game


async def play(
    table: Table,
    turns: list[list],
    think: float,
    ramp: float,
    rng: random.Random,
    played: list[int],
    phases: list[float],
) -> None:
    """One game, start to final scoring; even turns typed, odd turns clicked. Each turn
    played counts in ``played[0]``; the time its first turn is played is added to
    ``phases`` (all started: the steady state may begin), and so is the time its last
    turn begins (one is near its end)."""
    await asyncio.sleep(rng.uniform(0, ramp))
    await table.start()
    for n, plan in enumerate(turns):
        await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
        if n == len(turns) - 1:
            phases.append(-time.monotonic())
        await table.play_turn(plan, typed=n % 2 == 0)
        if n == 0:
            phases.append(time.monotonic())
        played[0] += 1


async def idle_memory(fake: FakeDiscord, workdir: Path) -> float:
    """The bot's resident memory (with any workers) once it is up with no game at all."""
    proc = BotProcess(
        python_argv("-m", "bot"),
        arkbot_env(fake, workdir / "idle.sqlite3", ARKBOT_POLL_SECONDS="60"),
        workdir / "idle.log",
        cwd=REPO,
    )
    try:
        await proc.start()
        await wait_until_up(fake, proc, timeout=30)
        await asyncio.sleep(1.0)  # as long as the run below gives its workers
        return rss_mb(proc.proc.pid)
    finally:
        await proc.stop()


async def run(args: argparse.Namespace) -> int:
    header("e2e_load")
    print(f"load average before: {load_average()}")
    sys.stdout.flush()
    games = args.games
    channels = [f"game-{i}" for i in range(games)]
    users = [f"p{i}-{s}" for i in range(games) for s in range(PLAYERS)]
    fake = FakeDiscord(users=users, channels=channels, moderators=())
    await fake.start()
    workdir = Path(tempfile.mkdtemp(prefix="arkbot-e2e-load-"))
    idle_rss = await idle_memory(fake, workdir)
    db_path = workdir / "arkbot.sqlite3"
    tables: list[tuple[Table, list[list]]] = []
    noah_turns = args.tiles if args.noah_turns is None else args.noah_turns
    # The tables are set up outside the bot, all at once: without a person's lobby limits.
    service = await GameService.open(db_path, limits=NO_LIMITS)
    try:
        for i in range(games):
            channel = fake.channel(channels[i])
            seats = [fake.user(f"p{i}-{s}") for s in range(PLAYERS)]
            if game_of(i, args.game) == "noah":
                seed = args.seed + i
                _, turns = plan_noah_game(PLAYERS, seed, noah_turns or None)
                game_id = await open_lobby(
                    db_path,
                    fake,
                    channel,
                    seats,
                    None,
                    service=service,
                    game_name="noah",
                    seed=seed,
                )
                table: Table = NoahTable.seeded(fake, channel, game_id, seats, seed)
            else:
                deck, turns = plan_game(args.seed + i, args.tiles)
                game_id = await open_lobby(db_path, fake, channel, seats, deck, service=service)
                table = Table.scripted(fake, channel, game_id, seats, deck)
            tables.append((table, turns))
    finally:
        await service.close()
    moves = sum(len(t) for _, turns in tables for t in turns)
    noah_tables = sum(isinstance(t, NoahTable) for t, _ in tables)

    proc = BotProcess(
        python_argv(*profiled(args.profile)) if args.profile else python_argv("-m", "bot"),
        # INFO: the bot's figures of its pictures, logged as it stops (and little else).
        arkbot_env(fake, db_path, ARKBOT_POLL_SECONDS="60", ARKBOT_LOG_LEVEL="INFO"),
        workdir / "bot.log",
        cwd=REPO,
    )
    failures: list[str] = []
    try:
        if args.one_core:
            # The bot, and the workers it starts, inherit the first core; this process then
            # takes the second.
            pin([os.getpid()], 0)
            await proc.start()
            pin([os.getpid()], 1)
        else:
            await proc.start()
        await wait_until_up(fake, proc, timeout=30)
        if args.one_core:
            pin(process_family(proc.proc.pid), 0)
        await asyncio.sleep(1.0)  # the workers warmed up
        open_rss = rss_mb(proc.proc.pid)
        rec = fake.recorder
        uploaded_before = rec.uploaded.copy()
        before = set(rec.interactions)
        # This process is the measuring side: its garbage collector's pauses (long ones,
        # with every request and picture recorded) would be counted against the bot.
        gc.collect()
        gc.freeze()
        gc.disable()
        started = time.monotonic()
        rngs = [random.Random(args.seed * 100_003 + i) for i in range(games)]
        turns_played = [0]
        phases: list[float] = []
        sampler = CpuSampler(proc.proc.pid, lambda: sum(t.version for t, _ in tables))
        sampling = asyncio.create_task(sampler.run())
        results = await asyncio.gather(
            *(
                play(t, turns, args.think, args.ramp, r, turns_played, phases)
                for (t, turns), r in zip(tables, rngs, strict=True)
            ),
            return_exceptions=True,
        )
        elapsed = time.monotonic() - started
        sampling.cancel()
        # Steady: from the second the last game played its first turn to the second the
        # first game began its last turn.
        all_started = max((p for p in phases if p > 0), default=started) - started
        first_ending = min((-p for p in phases if p < 0), default=started) - started
        steady = sampler.per_100_moves(math.ceil(all_started) + 1, math.floor(first_ending))
        gc.enable()
        for (table, _), result in zip(tables, results, strict=True):
            if isinstance(result, BaseException):
                failures.append(f"#{table.channel.name}: {type(result).__name__}: {result}")
        await asyncio.sleep(0.5)  # late answers still count as answered
        # A finished game's replay is drawn after its result: its CPU counts too.
        finished = sum(type(t) is Table and t.game.phase == "over" for t, _ in tables)

        def replays() -> int:
            return rec.uploaded["replay.gif"] - uploaded_before["replay.gif"]

        with contextlib.suppress(TimeoutError):
            await rec.wait_until(lambda: replays() >= finished, REPLAY_WAIT, "the replays")
        replays_after = time.monotonic() - started - elapsed
        rss = peak_rss_mb(proc.proc.pid) if proc.running else float("nan")
        peaks = peaks_by_process(proc.proc.pid) if proc.running else "?"
        bot_cpu = cpu_seconds(proc.proc.pid) if proc.running else float("nan")
        bot_alone = cpu_seconds(proc.proc.pid, family=False) if proc.running else float("nan")
    finally:
        await proc.stop()
        await fake.close()
    output = proc.output(tail=None)
    figures = picture_figures(output)

    played = [rec.interactions[i] for i in rec.interactions if i not in before]
    answered = [ix for ix in played if ix.responded_at is not None]
    first = [ix.first_response_s * 1000 for ix in answered]
    boards = [
        (board.created_at - rec.interactions[iid].dispatched_at) * 1000
        for table, _ in tables
        for iid, board in table.turn_ends
        if iid in rec.interactions and iid not in before
    ]
    moves_played = sum(table.version for table, _ in tables)
    turns = turns_played[0]
    uploaded: dict[str, int] = {}
    for name, n in rec.uploaded.items():
        # board-turn-3.png: a board-turn; your-tile-1f0c2d3e4a.png (a private panel's
        # picture, named by a digest of its drawing): a your-tile
        kind = re.sub(r"-(\d+|[0-9a-f]{10})$", "", name.rsplit(".", 1)[0])
        uploaded[kind] = uploaded.get(kind, 0) + n - uploaded_before[name]

    # No game state lost: the database holds exactly the moves the players made.
    service = await GameService.open(db_path)
    try:
        for table, _ in tables:
            record = await service.play.get_game(table.game_id)
            logged = len(await service.history.actions(table.game_id))
            if not record.version == logged == table.version:
                failures.append(
                    f"#{table.channel.name}: db version {record.version}, log {logged}, "
                    f"players made {table.version}"
                )
            elif table.game.phase == "over" and record.status != "finished":
                failures.append(f"#{table.channel.name}: finished here, {record.status} there")
    finally:
        await service.close()

    kinds_line = (
        f"{args.tiles}-tile decks"
        if not noah_tables
        else f"{games - noah_tables} Covenant with {args.tiles}-tile decks, {noah_tables} Ark "
        + (f"of {noah_turns} turns" if noah_turns else "to the end")
    )
    print(
        f"games: {games} at once ({PLAYERS} players each, {kinds_line}, "
        f"{moves} moves), started over {args.ramp} s, think time {args.think} s, one bot process"
        + (" on one core (the fake Discord and its players on another)" if args.one_core else "")
    )
    print(
        f"played in {elapsed:.1f} s: {len(played)} interactions, {moves_played} moves, "
        f"{turns} turns, {len(boards)} boards posted, {len(failures)} games with problems"
    )
    own = resource.getrusage(resource.RUSAGE_SELF)
    print(
        f"cpu: bot and workers {bot_cpu:.1f} s (the bot {bot_alone:.1f} s, its workers "
        f"{bot_cpu - bot_alone:.1f} s), this process (fake Discord and players) "
        f"{own.ru_utime + own.ru_stime:.1f} s"
    )
    print(
        f"replays: {replays()} of {finished} finished games posted, the last "
        f"{replays_after:.1f} s after the last turn"
    )
    print(f"load average after: {load_average()}")
    if figures:
        print(
            f"pictures per turn, drawn: {per_turn(figures['drawn'], turns)}; from the cache: "
            f"{per_turn(figures['cached'], turns)}; shared with a drawing in progress "
            f"{figures['shared'] / max(1, turns):.2f}, dropped as stale "
            f"{figures['dropped'] / max(1, turns):.2f}"
        )
    else:
        print("pictures per turn, drawn: not said by this bot")
    print(f"pictures per turn, uploaded: {per_turn(uploaded, turns)}")
    for line in failures[:10]:
        print("  problem:", line)
    if "Traceback" in output:
        print("  the bot logged a traceback")
    kinds: dict[str, list[float]] = {}
    for ix in answered:
        kinds.setdefault(kind_of(ix.payload), []).append(ix.first_response_s * 1000)
    if noah_tables:
        by_game = []
        for name, cls in (("covenant", Table), ("noah", NoahTable)):
            mine = [t for t, _ in tables if type(t) is cls]
            if not mine:
                continue
            mine_ix = [rec.interactions[i] for t in mine for i in t.interactions]
            times = [ix.first_response_s * 1000 for ix in mine_ix if ix.responded_at is not None]
            posted = [
                (board.created_at - rec.interactions[iid].dispatched_at) * 1000
                for t in mine
                for iid, board in t.turn_ends
                if iid in rec.interactions and iid not in before
            ]
            by_game.append(
                f"{name} {len(mine)} tables, {len(times)} interactions, first response p99 "
                f"{percentile(times, 99):.0f} ms, board created p99 {percentile(posted, 99):.0f} ms"
            )
        print("by game: " + "; ".join(by_game))
    slowest = sorted(kinds.items(), key=lambda kv: -percentile(kv[1], 99))[:3]
    print(
        "slowest first responses (p99): "
        + ", ".join(f"{k} {percentile(v, 99):.0f} ms (n={len(v)})" for k, v in slowest)
    )
    nan = float("nan")
    if steady is None:
        print("steady state: none (no move between the last game's start and the first's end)")
    else:
        print(
            f"steady state: from {all_started:.0f} s to {first_ending:.0f} s of play "
            f"(every game started, none at its last turn)"
        )
    steady_all, steady_bot, steady_workers, steady_fake = steady or (nan, nan, nan, nan)
    figure("first_response_p50_ms", median(first) if first else nan, "ms")
    figure("board_created_p50_ms", median(boards) if boards else nan, "ms")
    print(f"interactions_per_s: {len(answered) / elapsed:.1f} interactions/s")
    print(f"first_response_p99_ms: {percentile(first, 99):.1f} ms")
    print(f"board_created_p99_ms: {percentile(boards, 99):.1f} ms")
    for name in ("picture_wait_p50_ms", "picture_wait_p99_ms"):
        value = figures.get(name.removeprefix("picture_"))
        print(f"{name}: {nan if value is None else value:.1f} ms")
    print(f"cpu_per_100_moves_s: {bot_cpu / max(1, moves_played) * 100:.2f} s")
    print(f"bot_cpu_per_100_moves_s: {bot_alone / max(1, moves_played) * 100:.2f} s")
    print(f"steady_cpu_per_100_moves_s: {steady_all:.2f} s")
    print(f"steady_bot_cpu_per_100_moves_s: {steady_bot:.2f} s")
    print(f"steady_workers_cpu_per_100_moves_s: {steady_workers:.2f} s")
    print(f"steady_fake_cpu_per_100_moves_s: {steady_fake:.2f} s")
    print(f"unanswered: {len(played) - len(answered)} interactions")
    print(f"peak by process: {peaks}")
    print(f"peak_rss_mb: {rss:.1f} MB")
    print(f"idle_rss_mb: {idle_rss:.1f} MB")
    print(f"resident with the lobbies open, before play: {open_rss:.1f} MB")
    if failures or "Traceback" in output:
        print("  the database and the bot's log are kept in", workdir)
        return 1
    shutil.rmtree(workdir, ignore_errors=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        epilog="With --mix every second table is a game of Ark, the card game (the odd "
        "channels), so a run loads the bot with both games at once; its figures have the "
        "same names as a Covenant-only run's and compare with it, and a 'by game:' line "
        "splits them. Each Ark table plays its first --noah-turns turns.",
    )
    parser.add_argument("--games", type=int, default=200, help="games played at once")
    parser.add_argument(
        "--tiles", type=int, default=None, help="tiles in each game's deck (default 4)"
    )
    parser.add_argument("--think", type=float, default=3.0, help="mean seconds between moves")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds over which games start")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--game",
        choices=("covenant", "noah", "mix"),
        default=None,
        help="what the tables play: The Ark of the Covenant (default), Ark the card game "
        "(noah), or half of each (mix)",
    )
    parser.add_argument(
        "--mix",
        dest="game",
        action="store_const",
        const="mix",
        help="half the tables Covenant, half Ark the card game: the same as --game mix",
    )
    parser.add_argument(
        "--noah-turns",
        type=int,
        default=None,
        metavar="N",
        help="turns each Ark table plays before it stops, unfinished (default: as many as "
        "--tiles; 0: the whole game, some 45 turns)",
    )
    parser.add_argument(
        "--length",
        choices=("bench", "short"),
        default="bench",
        help="bench: 4-tile Covenant games and Ark tables cut as short (the default); short: "
        "36-tile Covenant games and whole Ark games, half of each unless --game says",
    )
    parser.add_argument(
        "--one-core",
        action="store_true",
        help="pin the bot and its workers to the first core, the fake Discord to the second",
    )
    parser.add_argument(
        "--profile", metavar="FILE", help="run the bot under cProfile, its profile to FILE"
    )
    args = parser.parse_args()
    short = args.length == "short"
    if args.tiles is None:
        args.tiles = 36 if short else 4
    if args.game is None:
        args.game = "mix" if short else "covenant"
    if short and args.noah_turns is None:
        args.noah_turns = 0
    if args.one_core and len(os.sched_getaffinity(0)) < 2:
        parser.error("--one-core needs a machine with two cores at least")
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
