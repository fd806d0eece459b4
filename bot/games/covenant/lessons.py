"""Learn by playing The Ark of the Covenant: one idea of the rule book at a time, met in play.

Each lesson is due the first time its situation is on the board on the learner's turn: the
tile in hand can take a follower, can complete a road or a city, joins a field with sheep or
wolves, and so on (:func:`situation` works it out by trying the tile on every square it fits,
which takes milliseconds). The table shows the first lesson due, so the order of
:attr:`CovenantTeacher.lessons`, the rule book's, is also the order in which lessons come
when several are due at once. After the learner's turn :meth:`CovenantTeacher.after_move`
says what it scored and how, from the engine's own scoring events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import Seen
from bot.games.covenant.choices import placed
from bot.games.covenant.front import RENDER
from bot.games.covenant.lesson_moves import said_move, turn_lines
from bot.games.teaching import Lesson, Teacher
from bot.panels import Picture, Text
from engine.covenant import TILES, Deploy, Game, MoveArk, PlaceTile, TileDesign
from engine.covenant.geometry import Pos, neighbours
from render.covenant.window import squares_pages

#: The lessons in the rule book's order.
LESSONS = (
    "placing",
    "followers",
    "scoring",
    "fields",
    "scrolls",
    "temples",
    "prophet",
    "ark",
    "end",
)
#: The end is near when fewer tiles than this many rounds of the table are left: the
#: learner still has a turn or two to use what the lesson says.
END_ROUNDS = 3
#: At most this many squares ringed on a lesson's picture, so that it still points.
MOST_RINGED = 4


def _t(name: str, **params: Any) -> Text:
    return Text(f"covenant.{name}", **params)


@dataclass(slots=True)
class Situation:
    """What the learner's tile can do this turn, each lesson's squares to ring (empty: the
    lesson's situation is not on the board)."""

    placing: list[Pos] = field(default_factory=list)
    followers: list[Pos] = field(default_factory=list)
    scoring: list[Pos] = field(default_factory=list)
    fields: list[Pos] = field(default_factory=list)
    scrolls: list[Pos] = field(default_factory=list)
    temples: list[Pos] = field(default_factory=list)
    prophet: list[Pos] = field(default_factory=list)
    ark: list[Pos] = field(default_factory=list)
    end: list[Pos] = field(default_factory=list)

    def squares(self, key: str) -> list[Pos]:
        found: list[Pos] = getattr(self, key)
        return found


def _add(squares: list[Pos], *more: Pos) -> None:
    for pos in more:
        if pos not in squares:
            squares.append(pos)


def _tries(game: Game) -> list[Game]:
    """The game after each way the tile in hand may be placed (each in its ``deploy``
    phase); in ``deploy`` the game itself, the tile being placed already."""
    if game.phase == "deploy":
        return [game]
    if game.phase != "place_tile":
        return []
    return [
        placed(game, x, y, rotation)
        for (x, y), rotations in game.placements().items()
        for rotation in rotations
    ]


def _carries(design: TileDesign, kind: str) -> bool:
    """Whether a tile carries what counts for a feature of ``kind``: sheep or wolves for
    a field, a scroll for a city, an oasis for a road."""
    if kind == "field":
        return bool(design.sheep or design.wolves)
    return bool(design.scrolls if kind == "city" else design.oases)


def _carried(game: Game, pos: Pos, kinds: tuple[str, ...]) -> list[Pos]:
    """The squares of the features of kind ``kinds`` on tile ``pos`` whose tiles carry
    something (sheep or wolves in a field, a scroll or an oasis), those tiles alone."""
    tile = game.board[pos].view
    found: list[Pos] = []
    for segment in tile.segments:
        if segment.kind not in kinds:
            continue
        feature = game.feature(*pos, segment.first_port)
        if not (feature.extras or feature.wolves):
            continue
        for square in feature.squares:
            if _carries(TILES[game.board[square].id], segment.kind):
                _add(found, square)
    return found


def situation(game: Game, seat: int) -> Situation:
    """What the tile of ``seat`` (whose turn it is) can do now, lesson by lesson."""
    found = Situation()
    if game.phase not in ("place_tile", "deploy") or game.current_player != seat:
        return found
    if game.phase == "place_tile":
        found.placing = list(game.placements())
    for after in _tries(game):
        pos = after.last_placed
        assert pos is not None
        actions = after.legal_actions()
        if any(isinstance(a, Deploy) and not a.prophet for a in actions):
            _add(found.followers, pos)
        if any(isinstance(a, Deploy) and a.prophet for a in actions):
            _add(found.prophet, pos)
        if after.ark is not None and any(isinstance(a, MoveArk) for a in actions):
            _add(found.ark, after.ark)
        tile = after.board[pos].view
        for segment in tile.segments:
            closable = segment.kind in ("road", "city")
            if closable and after.feature(*pos, segment.first_port).complete:
                _add(found.scoring, pos)
        fields = _carried(after, pos, ("field",))
        if fields:
            _add(found.fields, pos, *fields)
        scrolls = _carried(after, pos, ("city", "road"))
        if scrolls:
            _add(found.scrolls, pos, *scrolls)
        temples = [
            n for n in neighbours(pos) if n in after.board and TILES[after.board[n].id].temple
        ]
        if tile.temple or temples:
            _add(found.temples, pos, *temples)
    if game.tiles_left < END_ROUNDS * game.players:
        # What scores at the end: the learner's pieces still out.
        mine = [pos for pos, tile in game.board.items() if any(p.seat == seat for p in tile.pieces)]
        found.end = mine or list(game.board)[-1:]
    return found


def _focus(game: Game, key: str, squares: list[Pos], hint: Sequence[Any] | None) -> list[Pos]:
    """The squares to ring for lesson ``key``: where the hint puts the tile when the lesson
    is about where the tile goes and the hint's square is one of them, else the first few."""
    move = next((a for a in hint or () if isinstance(a, PlaceTile)), None)
    if move is None or key not in ("placing", "followers", "prophet"):
        return squares[:MOST_RINGED]
    if (move.x, move.y) in squares or key == "placing":
        return [(move.x, move.y)]
    return squares[:MOST_RINGED]


def _picture(seen: Seen, focus: list[Pos]) -> Picture | None:
    """The turn's picture of the squares where the tile fits, the lesson's squares ringed;
    none once the tile is placed (the turn's own panel shows it then)."""
    game: Game = seen.game
    if game.phase != "place_tile":
        return None
    pages = squares_pages(game)
    page = next((i for i, p in enumerate(pages) if any(f in p for f in focus)), 0)
    save = game.view(seen.seat).to_json()
    ringed = [list(pos) for pos in focus]
    return Picture(f"{RENDER}:squares", (save, page, ringed), "lesson.png", _t("lesson.picture"))


def _suggestion(game: Game, hint: Sequence[Any] | None) -> Text | None:
    """The hint's move in words, as the hint itself says it (the front's wording)."""
    if not hint:
        return None
    words: list[Text] = []
    now = game
    for action in hint:
        said = said_move(now, action)
        if said is not None:
            words.append(said)
        if isinstance(action, PlaceTile) and now.phase == "place_tile":
            now = placed(now, action.x, action.y, action.rotation)
    if not words:
        return None
    move = words[-1]
    for word in reversed(words[:-1]):
        move = _t("lesson.sentences", first=word, second=move)
    return _t("lesson.suggestion", move=move)


class CovenantTeacher(Teacher):
    """The Ark of the Covenant's lessons (see the module's docstring)."""

    lessons = LESSONS

    def practice_options(self, seed: int) -> dict[str, Any]:
        # A short game: some 17 turns each for two, time for every lesson to come up,
        # with the tiles in the full game's proportions (temples, scrolls, sheep).
        return {"length": "short"}

    def due(self, seen: Seen, taught: frozenset[str]) -> list[str]:
        if seen.seat is None:
            return []
        found = situation(seen.game, seen.seat)
        return [key for key in LESSONS if key not in taught and found.squares(key)]

    def uses(self, seen: Seen, actions: Sequence[Any]) -> frozenset[str]:
        used = set()
        for action in actions:
            if isinstance(action, Deploy):
                used.add("prophet" if action.prophet else "followers")
            elif isinstance(action, MoveArk):
                used.add("ark")
        return frozenset(used)

    def lesson(self, key: str, seen: Seen, hint: Sequence[Any] | None) -> Lesson:
        if key not in LESSONS:
            raise KeyError(key)
        game: Game = seen.game
        squares = situation(game, seen.seat).squares(key) if seen.seat is not None else []
        focus = _focus(game, key, squares, hint)
        if key == "end":
            # Rings on the learner's own pieces, which will score then; with none out, none.
            focus = [p for p in focus if any(x.seat == seen.seat for x in game.board[p].pieces)]
        rules = game.rules
        params: dict[str, Any] = {
            "temple": "yes" if rules.follower_on_temple else "no",
            "towards": "yes" if rules.ark_towards_temples else "no",
            "left": game.tiles_left,
            # The first edition counts an unfinished road or city by its segments.
            "segments": "yes" if rules.unfinished_counts == "segments" else "no",
            "ringed": "yes" if focus else "no",
        }
        return Lesson(
            key,
            (_t(f"lesson.{key}.text", **params),),
            _picture(seen, focus),
            _suggestion(game, hint),
        )

    def after_move(
        self,
        before: Seen,
        after: Seen,
        actions: Sequence[Any],
        better: Sequence[Any] | None,
    ) -> list[Text]:
        return turn_lines(before, actions, better)

    def summary(self, taught: frozenset[str], options: Mapping[str, Any]) -> list[Text]:
        return [_t(f"lesson.{key}.summary") for key in LESSONS if key in taught]


__all__ = ["LESSONS", "CovenantTeacher", "Situation", "situation"]
