"""What a practice game (``/table learn``) teaches, over seeded games played without Discord:
the card game's here, and the Covenant's from ``bench/learn_covenant.py`` when it exists
(imported, its ``main(argv)`` called with the same flags).

A practice game is played as the table plays it: the learner in the first seat against two
easy computers (:mod:`bot.service.learning`), each of the learner's turns opened with the
lessons :func:`bot.games.teaching.turn_lessons` gives and closed with the one
:func:`bot.games.teaching.after_turn_lesson` gives (as the table shows them). The learner
plays the suggested move (the hint, "following") or an easy computer's move ("easy moves").

Printed, for the card game (``noah_``):

- ``lessons_in_order_pct``: the games whose lessons came in the teacher's order;
- ``rules_taught_pct``: the rules of :data:`bot.games.noah.lessons.RULES` whose lesson was
  taught, over all games;
- ``max_words_above_a_turn``: the most words above a turn's panel (the games go round en,
  nl and es);
- ``longest_gap_turns``: the most learner turns in a row, in the first two thirds of a game,
  that taught nothing new and asked no puzzle;
- ``puzzles``: the fewest puzzles ("Try it") a game asked;
- ``win_rate_easy_moves`` / ``win_rate_following``: how often the learner won (alone or
  shared) playing easy moves / the suggestions.

Run: ``python bench/learn.py [--quick]`` (50 games of each learner, 10 with --quick).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from _common import figure, header

from bot.games.noah.lessons import RULES, NoahTeacher
from bot.games.seen import Seen
from bot.games.teaching import after_turn_lesson, turn_lessons, turn_puzzle, words
from bot.service.learning import LEVEL, OPPONENTS
from engine import ai, registry

LANGUAGES = ("en", "nl", "es")
NAMES = ("Noor", "Robin", "Sam")
#: The hint's search, by iterations so that a game is a function of its seed.
HINT_ITERATIONS = 60


@dataclass(frozen=True, slots=True)
class Played:
    """One practice game's measures."""

    in_order: bool
    taught: frozenset[str]
    most_words: int
    longest_gap: int
    puzzles: int
    won: bool


def practice(task: tuple[int, bool]) -> Played:
    """One practice game of the card game from ``seed``; ``following``: the learner plays
    the suggestions, else an easy computer's moves."""
    seed, following = task
    # The games go round the languages (a turn's words are counted in its own).
    language = LANGUAGES[seed % len(LANGUAGES)]
    teacher = NoahTeacher()
    rules = registry.rules("noah")
    game = rules.new(1 + OPPONENTS, seed, rules.check_options(teacher.practice_options(seed)))
    taught: list[str] = []
    most = 0
    taught_in_turn: list[bool] = []
    puzzles = 0
    moves = 0
    while not rules.is_over(game):
        seat = game.current_player
        moves += 1
        if seat != 0:
            game.apply(ai.choose(game, LEVEL, seed=seed + moves))
            continue
        # The suggestion as the table asks it (bot/service/computers.py): the move, then its
        # alternatives. What is taught is measured on the learner who follows it; the one
        # playing easy moves is only played (a game's time is mostly the hint's search).
        actions: tuple[object, ...] = ()
        if following:
            hint = ai.hint(game, 0, seed=seed + moves, iterations=HINT_ITERATIONS)
            actions = (hint.action, *hint.alternatives)
        seen = Seen(game, 0, NAMES, moves, {}, language)
        said = turn_lessons(teacher, seen, taught, actions)
        most = max(most, words(said.lines, language))
        taught += [key for key in said.keys if key not in taught]
        move = actions[0] if following else ai.choose(game, "easy", seed=seed + moves)
        before = game.copy()
        game.apply(move)
        after = Seen(game, 0, NAMES, moves, {}, language)
        earlier = Seen(before, 0, NAMES, moves, {}, language)
        then = after_turn_lesson(teacher, earlier, after, [move], taught)
        taught += then.keys
        asked = turn_puzzle(teacher, said.keys, then, after.options)
        puzzles += asked is not None
        taught_in_turn.append(bool(said.keys or then.keys or asked))
    early = taught_in_turn[: max(1, len(taught_in_turn) * 2 // 3)]
    gap = longest = 0
    for new in early:
        gap = 0 if new else gap + 1
        longest = max(longest, gap)
    in_order = taught == [key for key in teacher.lessons if key in taught]
    return Played(in_order, frozenset(taught), most, longest, puzzles, 0 in game.winners)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="10 games of each learner")
    args = parser.parse_args(argv)
    games = 10 if args.quick else 50
    header("learn")
    print(f"load average: {os.getloadavg()[0]:.2f}")
    wall, cpu = time.perf_counter(), time.process_time()
    tasks = [(1000 + n, following) for following in (True, False) for n in range(games)]
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(practice, tasks, chunksize=4))
    following = results[:games]
    easy = results[games:]
    # What is taught is measured on the learner who follows the lessons.
    rules_taught = sum(RULES[rule] in p.taught for p in following for rule in RULES)
    figure("noah_lessons_in_order_pct", 100 * sum(p.in_order for p in following) / games, "%")
    figure("noah_rules_taught_pct", 100 * rules_taught / (games * len(RULES)), "%")
    figure("noah_max_words_above_a_turn", max(p.most_words for p in following), "words")
    figure("noah_longest_gap_turns", max(p.longest_gap for p in following), "turns")
    figure("noah_puzzles", min(p.puzzles for p in following), "a game (the fewest)")
    figure("noah_win_rate_easy_moves", 100 * sum(p.won for p in easy) / games, "%")
    figure("noah_win_rate_following", 100 * sum(p.won for p in following) / games, "%")
    figure("noah_games", games, "games per learner")
    figure("noah_wall_seconds", time.perf_counter() - wall, "s")
    figure("noah_cpu_seconds_main_process", time.process_time() - cpu, "s")
    covenant = Path(__file__).with_name("learn_covenant.py")
    if covenant.exists():
        importlib.import_module("learn_covenant").main(["--quick"] if args.quick else [])


if __name__ == "__main__":
    main(sys.argv[1:])
