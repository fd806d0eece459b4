"""A whole practice game of The Ark of the Covenant played without Discord, as the practice
table plays it: on each of the learner's turns the lessons due, the suggestion made to put to
use only what is taught, the words above the turn's panel; the learner plays either the
suggestion or what the easy computer would. For the tests and ``bench/learn_covenant.py``:
which lessons came when, how many words a turn said, who won.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import Seen
from bot.games.covenant.lessons import CovenantTeacher, lessons_of
from bot.games.covenant.practice_deal import PLAYERS
from bot.games.teaching import turn_lessons, words
from engine import registry
from engine.covenant import Game
from render.i18n import say

#: How the learner plays: the suggestion shown (or, with none, the hint), or the easy
#: computer's move.
STYLES = ("following", "easy")
#: The practice opponents' level, as the service seats them (bot/service/learning.py).
OPPONENT_LEVEL = "easy"
#: Thinking fixed by iterations, so that a seed always plays the same game.
ITERATIONS = 40
NAMES = ("Learner", "Ada", "Ben")
RULES = registry.rules("covenant")


@dataclass(slots=True)
class PracticeRun:
    """What one practice game taught and how it ended."""

    #: The lessons shown on each of the learner's turns, in turn order.
    turns: list[tuple[str, ...]] = field(default_factory=list)
    #: The words above each of the learner's turn panels (lessons and suggestion), by
    #: language.
    words: dict[str, list[int]] = field(default_factory=dict)
    #: The texts above each of the learner's turn panels, by language.
    said: dict[str, list[list[str]]] = field(default_factory=dict)
    #: Every lesson the rules of the game call for, in order.
    expected: tuple[str, ...] = ()
    scores: list[int] = field(default_factory=list)
    #: The puzzles the game asked (after their lessons' turns), by lesson.
    puzzles: list[str] = field(default_factory=list)
    #: The index of the learner's turn in or after which the first city was finished (the
    #: Ark came onto the board), if one was.
    first_city: int | None = None

    @property
    def taught(self) -> list[str]:
        return [key for keys in self.turns for key in keys]

    @property
    def won(self) -> bool:
        return self.scores[0] > max(self.scores[1:])


def play_practice(seed: int, style: str, languages: Sequence[str] = ("en",)) -> PracticeRun:
    """A practice game dealt from ``seed``, the learner (seat 0) playing in ``style``, its
    texts said in each of ``languages``."""
    teacher = CovenantTeacher()
    options = teacher.practice_options(seed)
    game: Game = RULES.new(PLAYERS, seed, RULES.check_options(options))
    run = PracticeRun(expected=lessons_of(game.rules))
    taught: list[str] = []
    while not RULES.is_over(game):
        seat = game.current_player
        if run.first_city is None and game.ark is not None:
            run.first_city = len(run.turns) - 1
        if seat != 0:
            action = RULES.computer_action(game, OPPONENT_LEVEL, seed + game.turn, 1.0, ITERATIONS)
            game.apply(action)
            continue
        # The turn's lessons, progress line and suggestion as the table shows them, in each
        # language (the words are counted in it); the first language's keys and hint.
        raw = _hint(game, seed)
        told = [
            (
                language,
                turn_lessons(teacher, Seen(game, 0, NAMES, 0, options, language), taught, raw),
            )
            for language in languages
        ]
        said = told[0][1]
        for language, each in told:
            lines = [say(text, language) for text in each.lines]
            run.said.setdefault(language, []).append(lines)
            run.words.setdefault(language, []).append(words(each.lines, language))
        due = list(said.keys)
        hint = said.hint
        run.turns.append(tuple(due))
        run.puzzles += [key for key in due if teacher.puzzle(key, options) is not None]
        taught += due
        _learner_turn(game, seed, style, hint or ())
    run.scores = list(game.scores)
    return run


def _hint(game: Game, seed: int) -> tuple[Any, ...]:
    found = RULES.hint(game, 0, seed + game.turn, 1.0, ITERATIONS)
    return (found.action, *found.alternatives)


def _learner_turn(game: Game, seed: int, style: str, hint: tuple[Any, ...]) -> None:
    """The learner's whole turn: the suggestion's actions while they are legal, then the
    easy computer's for whatever is left of the turn (and all of it in the easy style)."""
    turn = game.turn
    if style == "following":
        for action in hint:
            if game.turn != turn or action not in game.legal_actions():
                break
            game.apply(action)
    while not RULES.is_over(game) and game.turn == turn and game.current_player == 0:
        game.apply(RULES.computer_action(game, "easy", seed + turn, 1.0, ITERATIONS))


__all__ = ["STYLES", "PracticeRun", "play_practice"]
