"""Practice games of The Ark of the Covenant (``/table learn``) played without Discord, as
the practice table plays them (:mod:`bot.games.covenant.practice_run`): what they teach, how
much a turn says, and whom they let win.

Run: ``python bench/learn_covenant.py [--quick] [--games N]``. Over N seeded games (60; 12
with ``--quick``), a learner following the suggestions (their texts said in English, Dutch
and Spanish) and one playing the easy computer's moves, then ``name: value unit`` lines:

- ``covenant_lessons_in_order_pct``: games whose lessons came in the rule book's order;
- ``covenant_rules_taught_pct``: games that taught every rule of their edition exactly once;
- ``covenant_max_words_above_a_turn``: the most words (lessons and suggestion) above a turn;
- ``covenant_longest_gap_turns``: the most learner turns in a row, within the first two
  thirds of the game, that taught nothing new and asked no puzzle;
- ``covenant_puzzles``: the fewest puzzles a game asked;
- ``covenant_win_rate_easy_moves`` and ``covenant_win_rate_following``: how often each
  learner ends with more points than both computers (a tie is not a win).

:func:`measure` returns the figures for ``bench/learn.py`` to print beside the card game's.
"""

from __future__ import annotations

import argparse
import os
import time

from _common import figure, header

from bot.games.covenant.practice_run import PracticeRun, play_practice

LANGUAGES = ("en", "nl", "es")


def _gap(run: PracticeRun) -> int:
    """The longest run of learner turns in the game's first two thirds without a lesson."""
    early = run.turns[: (2 * len(run.turns)) // 3]
    longest = current = 0
    for keys in early:
        # A puzzle follows a lesson's turn, so a turn without a lesson asks none either.
        current = 0 if keys else current + 1
        longest = max(longest, current)
    return longest


def measure(games: int) -> dict[str, float]:
    """The figures over ``games`` seeds (see the module)."""
    following = [play_practice(seed, "following", LANGUAGES) for seed in range(games)]
    easy = [play_practice(seed, "easy") for seed in range(games)]
    runs = following + easy
    in_order = [r.taught == [k for k in r.expected if k in r.taught] for r in runs]
    every = [sorted(r.taught) == sorted(r.expected) for r in runs]
    words = [w for r in following for counts in r.words.values() for w in counts]
    return {
        "covenant_lessons_in_order_pct": 100 * sum(in_order) / len(runs),
        "covenant_rules_taught_pct": 100 * sum(every) / len(runs),
        "covenant_max_words_above_a_turn": max(words),
        "covenant_longest_gap_turns": max(_gap(r) for r in runs),
        "covenant_puzzles": min(len(r.puzzles) for r in runs),
        "covenant_win_rate_easy_moves": 100 * sum(r.won for r in easy) / len(easy),
        "covenant_win_rate_following": 100 * sum(r.won for r in following) / len(following),
    }


UNITS = {
    "covenant_lessons_in_order_pct": "%",
    "covenant_rules_taught_pct": "%",
    "covenant_max_words_above_a_turn": "words",
    "covenant_longest_gap_turns": "turns",
    "covenant_puzzles": "per_game",
    "covenant_win_rate_easy_moves": "%",
    "covenant_win_rate_following": "%",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="12 games instead of 60")
    parser.add_argument("--games", type=int, default=None)
    args = parser.parse_args()
    games = args.games or (12 if args.quick else 60)
    header("learn_covenant")
    wall, cpu = time.perf_counter(), time.process_time()
    figures = measure(games)
    for name, value in figures.items():
        figure(name, value, UNITS[name])
    figure("games", games, "seeds")
    figure("wall_s", time.perf_counter() - wall, "s")
    figure("cpu_s", time.process_time() - cpu, "s")
    figure("load_average_1min", os.getloadavg()[0], "")


if __name__ == "__main__":
    main()
