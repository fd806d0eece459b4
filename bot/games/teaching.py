"""What a practice game teaches (``/table learn``): one idea at a time, met in play.

A game that can teach gives its :class:`~bot.games.base.Plugin` a :class:`Teacher`
(``bot/games/<game>/lessons.py``). The table asks it, on each of the learner's turns, which
lessons the board now calls for, shows the first one due above the turn's panel, and after
each of the learner's turns says what the move did. Like a front, a teacher knows engine games,
seats and names and gives back data (:class:`~bot.panels.Text`, :class:`~bot.panels.Picture`);
it never sees Discord or storage, so every lesson is tested on a concrete position.

What both games share lives here too: :func:`turn_lessons` picks a turn's lessons and words
them under a progress line ("Lesson 3 of 12"), within the teacher's ``most_words``
(:func:`words` counts them); :func:`after_turn_lesson` tells the next lesson under the move
that just showed it at work; :func:`turn_puzzle` picks the turn's "Try it" (a
:class:`Puzzle`). The table shows them and ``bench/learn.py`` measures them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
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


@dataclass(frozen=True, slots=True)
class Puzzle:
    """ "Try it": a small question on a lesson just taught, with two or three answers and
    one right one. Asked under the move of the turn that taught the lesson; each answer
    tapped is told at once as right (with ``why``) or not (with ``clue``, what to think of
    again, or else ``why``), and a wrong one may be tried again (the buttons stay)."""

    question: Text
    #: Each answer's value (a custom id's argument: letters, digits) and what it says.
    choices: tuple[tuple[str, Text], ...]
    right: str
    #: Why the right answer is right.
    why: Text
    #: What to think of again after a wrong answer, without giving the right one away
    #: (None: ``why`` is said then too, where two answers leave nothing to give away).
    clue: Text | None = None


class Teacher:
    """A game's lessons. Subclass in ``bot/games/<game>/lessons.py`` and fill in."""

    #: Every lesson's key, in the order the rule book teaches them.
    lessons: tuple[str, ...] = ()

    #: The most lessons shown in one turn (one idea a step; a game with more lessons than
    #: turns to meet them in may allow two).
    at_once: int = 2

    #: The lessons come strictly in :attr:`lessons` order: a lesson the suggested move puts
    #: to use is not brought forward (the suggestion is left out until it is taught).
    in_order: bool = False

    #: The most words a turn may say above its panel before a second lesson is left for a
    #: later turn (:data:`MOST_WORDS` for one idea a step); None: no limit.
    most_words: int | None = None

    #: The puzzles, by the lesson whose turn asks them (see :class:`Puzzle`).
    puzzles: Mapping[str, Puzzle] = MappingProxyType({})

    def lessons_for(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        """The lessons a game with table ``options`` teaches, in :attr:`lessons` order: all of
        them, unless the game's edition lacks a rule (the Covenant's Ark doubling a temple)."""
        return self.lessons

    def practice_options(self, seed: int) -> dict[str, Any]:
        """The table options of a practice game (its length, a deck arranged so that each
        lesson arises early), valid for the engine's ``Rules.check_options``."""
        return {}

    def due(self, seen: Seen, taught: frozenset[str]) -> list[str]:
        """The lessons not in ``taught`` whose situation is on the board now, for the learner
        (``seen.seat``) whose turn it is, in :attr:`lessons` order."""
        raise NotImplementedError

    def within(
        self, seen: Seen, hint: Sequence[Any] | None, known: frozenset[str]
    ) -> tuple[Any, ...] | None:
        """The hint's move (``hint``, engine actions) made into one that puts to use only
        the lessons in ``known`` (taught before or this turn), to suggest to the learner:
        the Covenant's first suggestion sends out a follower, never the once-a-game Prophet,
        before the Prophet is taught."""
        return None if hint is None else tuple(hint)

    def uses(self, seen: Seen, actions: Sequence[Any]) -> frozenset[str]:
        """The lessons whose idea the move ``actions`` puts to use (the Prophet sent out,
        the Ark moved): the table teaches such a lesson before it suggests the move."""
        return frozenset()

    def puzzle(self, key: str, options: Mapping[str, Any]) -> Puzzle | None:
        """The puzzle asked after the turn that taught lesson ``key`` in a game with table
        ``options``, if it has one (the same every time: an answer is checked against it).
        By default :attr:`puzzles`'."""
        return self.puzzles.get(key)

    def shown_by(self, before: Seen, after: Seen, actions: Sequence[Any]) -> frozenset[str]:
        """The lessons whose idea the learner's move ``actions`` (from ``before`` to
        ``after``) has just shown at work (a figure placed on a scoring card, a disc paid):
        the next lesson due may be told then, under what the move did, where it first
        matters."""
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


@dataclass(frozen=True, slots=True)
class TurnLessons:
    """What a practice turn says above its panel: the lessons' keys (to mark them taught),
    its lines (the progress line, the lessons, the suggestion) and one picture; ``hint``:
    the suggested move as the turn suggests it (:meth:`Teacher.within` the lessons known by
    its end)."""

    keys: tuple[str, ...]
    lines: tuple[Text, ...]
    picture: Picture | None
    hint: tuple[Any, ...] | None = None


def progress(
    teacher: Teacher, taught: Sequence[str], shown: Sequence[str], options: Mapping[str, Any]
) -> Text:
    """ "Lesson 3 of 12" (or "Lessons 3–4 of 12"): the places, among the teacher's
    lessons, of ``shown`` once they are taught (after ``taught``, the ones taught in earlier
    turns), out of the lessons a game with table ``options`` teaches."""
    order = [*taught, *(key for key in shown if key not in taught)]
    places = sorted(order.index(key) + 1 for key in shown)
    total = len(teacher.lessons_for(options))
    if len(places) == 1:
        return Text("table.learn.progress", number=places[0], total=total)
    # In the teacher's order, the lessons of a turn follow each other.
    return Text("table.learn.progress_many", first=places[0], number=places[-1], total=total)


def turn_lessons(
    teacher: Teacher,
    seen: Seen,
    taught: Sequence[str],
    hint: Sequence[Any] | None,
    shown: Sequence[str] | None = None,
) -> TurnLessons:
    """The lessons of the learner's turn on ``seen`` (``taught``: in earlier turns; ``hint``:
    the suggested move; ``shown``: the lessons this turn already showed, for a panel opened
    again). The table shows them; bench/learn.py measures them.

    The first lesson due, then one the suggested move puts to use (a suggestion never uses
    an idea not yet explained: the Prophet, the Ark), else the next one; at most the
    teacher's ``at_once``, and a lesson after the first only while the turn stays within
    the teacher's ``most_words`` (one idea a step)."""
    due = list(shown) if shown is not None else teacher.due(seen, frozenset(taught))
    # The suggestion puts to use only what is taught by the end of this turn.
    hint = teacher.within(seen, hint, frozenset((*taught, *due[: teacher.at_once])))
    used = teacher.uses(seen, hint or ())
    keys: list[str] = []
    if shown is not None:
        keys = list(shown)
    else:
        if not teacher.in_order:
            due = list(dict.fromkeys([*due[:1], *[k for k in due[1:] if k in used], *due[1:]]))
        for key in due[: teacher.at_once]:
            if keys and teacher.most_words is not None:
                said = _said(teacher, seen, taught, [*keys, key], hint)
                if words(said, seen.language) > teacher.most_words:
                    break
            keys.append(key)
    if not keys:
        return TurnLessons((), (), None, hint)
    lessons = [teacher.lesson(key, seen, hint) for key in keys]
    lines = [
        progress(teacher, taught, keys, seen.options),
        *(line for x in lessons for line in x.lines),
    ]
    if teacher.most_words is not None and words(lines, seen.language) > teacher.most_words:
        # One lesson, too long with its example ("Now the ark leans ..."): its idea alone.
        lines = [progress(teacher, taught, keys, seen.options), *(x.lines[0] for x in lessons)]
    # The hint's move once, under the lessons (each lesson words the same suggestion); not
    # when the move puts to use an idea neither taught before nor now (the card game's first
    # move may open two new cabins, before the action discs are explained).
    suggestion = next((x.suggestion for x in lessons if x.suggestion is not None), None)
    unexplained = used - set(taught) - set(keys)
    # ... and only while the turn stays short enough to read.
    short = teacher.most_words is None or (
        suggestion is not None and words([*lines, suggestion], seen.language) <= teacher.most_words
    )
    if suggestion is not None and not unexplained and short:
        lines.append(suggestion)
    # One lesson picture (a phone shows two side by side, too small to read).
    picture = next((x.picture for x in lessons if x.picture is not None), None)
    return TurnLessons(tuple(keys), tuple(lines), picture, hint)


def _said(
    teacher: Teacher,
    seen: Seen,
    taught: Sequence[str],
    keys: Sequence[str],
    hint: Sequence[Any] | None,
) -> list[Text]:
    """The progress line and the lessons ``keys`` (without the suggestion), to count."""
    lines = [progress(teacher, taught, keys, seen.options)]
    return lines + [line for key in keys for line in teacher.lesson(key, seen, hint).lines]


def after_turn_lesson(
    teacher: Teacher, before: Seen, after: Seen, actions: Sequence[Any], taught: Sequence[str]
) -> TurnLessons:
    """The lesson told under what the learner's move did: the next lesson in the teacher's
    order, when the move has just shown its idea at work (:meth:`Teacher.shown_by`) and it
    is due on the board after the move, for the learner. Its picture is left out (the board
    follows in the channel)."""
    shown = teacher.shown_by(before, after, actions)
    waiting = [key for key in teacher.lessons if key not in taught]
    if not waiting or waiting[0] not in shown:
        return TurnLessons((), (), None)
    key = waiting[0]
    lines = (
        progress(teacher, taught, [key], after.options),
        *teacher.lesson(key, after, None).lines,
    )
    return TurnLessons((key,), lines, None)


def turn_puzzle(
    teacher: Teacher, shown: Sequence[str], after: TurnLessons, options: Mapping[str, Any]
) -> str | None:
    """The lesson whose puzzle the learner's turn asks under its move: the first of the
    lessons ``shown`` above the turn that has one; none when a lesson is told under the move
    (``after``), one new thing at a time (``options``: the game's table options)."""
    if after.keys:
        return None
    return next((key for key in shown if teacher.puzzle(key, options) is not None), None)
