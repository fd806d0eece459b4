"""What a practice game teaches (``/table learn``): one idea at a time, met in play.

A game that can teach gives its :class:`~bot.games.base.Plugin` a :class:`Teacher`
(``bot/games/<game>/lessons.py``). The table asks it, on each of the learner's turns, which
lessons the board now calls for, shows the first one due above the turn's panel, and after
each of the learner's turns says what the move did. Like a front, a teacher knows engine games,
seats and names and gives back data (:class:`~bot.panels.Text`, :class:`~bot.panels.Picture`);
it never sees Discord or storage, so every lesson is tested on a concrete position.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.seen import Seen
from bot.panels import Picture, Text
from render.i18n import say

#: The most words a practice turn says above its panel (lessons, progress line and
#: suggestion): a child reads about this much before they want to play.
MOST_WORDS = 40


def words(lines: Sequence[Text], language: str) -> int:
    """How many words ``lines`` say in ``language`` (what a reader has to get through);
    emoji, dividers and numbers count as words too, as a reader's eye stops on them."""
    return sum(len(say(line, language).split()) for line in lines)


@dataclass(frozen=True, slots=True)
class Lesson:
    """One idea, said to the learner ("you") in one or two short sentences."""

    #: The lesson's name within its game (``"fields"``), one of :attr:`Teacher.lessons`.
    key: str
    lines: tuple[Text, ...]
    #: A picture that points at what the lesson is about (rings around it), or None.
    picture: Picture | None = None
    #: The hint's move said in words ("Try square M12 with a follower on the road"), or None.
    suggestion: Text | None = None


class Teacher:
    """A game's lessons. Subclass in ``bot/games/<game>/lessons.py`` and fill in."""

    #: Every lesson's key, in the order the rule book teaches them.
    lessons: tuple[str, ...] = ()

    #: The most lessons shown in one turn (one idea a step; a game with more lessons than
    #: turns to meet them in may allow two).
    at_once: int = 2

    def practice_options(self, seed: int) -> dict[str, Any]:
        """The table options of a practice game (its length, a deck arranged so that each
        lesson arises early), valid for the engine's ``Rules.check_options``."""
        return {}

    def due(self, seen: Seen, taught: frozenset[str]) -> list[str]:
        """The lessons not in ``taught`` whose situation is on the board now, for the learner
        (``seen.seat``) whose turn it is, in :attr:`lessons` order."""
        raise NotImplementedError

    def uses(self, seen: Seen, actions: Sequence[Any]) -> frozenset[str]:
        """The lessons whose idea the move ``actions`` puts to use (the Prophet sent out,
        the Ark moved): the table teaches such a lesson before it suggests the move."""
        return frozenset()

    def lesson(self, key: str, seen: Seen, hint: Sequence[Any] | None) -> Lesson:
        """Lesson ``key`` (one :meth:`due` just gave) on this board; ``hint``: the actions
        of the move the hint suggests this turn, if any."""
        raise NotImplementedError

    def after_move(
        self,
        before: Seen,
        after: Seen,
        actions: Sequence[Any],
        better: Sequence[Any] | None,
    ) -> list[Text]:
        """What the learner's turn (``actions``, from ``before`` to ``after``) did and why:
        the points it scored and how they were counted, a feature completed; and, when
        ``better`` (the strong computer's move from ``before``) was clearly better, what it
        would have given, said kindly ("you could have closed your city for 8 points")."""
        raise NotImplementedError

    def summary(self, taught: frozenset[str], options: Mapping[str, Any]) -> list[Text]:
        """At the end: what the learner now knows, a short line per lesson taught."""
        raise NotImplementedError
