"""Learn by playing The Ark of the Covenant: one rule of the rule book a turn, in its order.

:data:`LESSONS` lists every rule that decides a move or a point, in the rule book's order
(/shared/rules: placing tiles, followers, the Prophet, the Ark, scoring roads and cities,
the most followers, temples, fields, the end); :func:`lessons_of` leaves out a rule the
table's edition does not play (the Ark doubling a temple). The practice deal
(:mod:`bot.games.covenant.practice_deal`) brings each rule's situation onto the board in that
order, so each learner's turn teaches the next rule, one a turn, and the end when few tiles
are left. :func:`situation` finds where on the board this turn a rule is at work (the tile
can finish a city, touches sheep), to ring it on the lesson's picture. A suggestion never
puts to use a rule not yet taught (:meth:`CovenantTeacher.within`): followers before the
Prophet, the Ark moved only once its lesson is given; and on the turn of a lesson about
finishing a road or a city (the Ark's coming too) it finishes one when the tile can, so
that the learner sees the rule at work. After the learner's turn
:meth:`CovenantTeacher.after_move` says what it scored and how, from the engine's events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games.base import Seen
from bot.games.covenant.choices import placed
from bot.games.covenant.front import RENDER
from bot.games.covenant.lesson_moves import said_move, turn_lines
from bot.games.covenant.practice_deal import LENGTH, practice_deck
from bot.games.teaching import Lesson, Puzzle, Teacher
from bot.panels import Picture, Text
from engine.covenant import TILES, Deploy, Game, MoveArk, Pass, PlaceArk, PlaceTile, TileDesign
from engine.covenant.editions import DEFAULT_EDITION, Edition, edition
from engine.covenant.geometry import Pos, neighbours
from render.covenant.window import squares_pages

#: Every rule that decides a move or a point, in the rule book's order: each is one lesson.
LESSONS = (
    "placing",
    "followers",
    "prophet",
    "ark",
    "ark_moves",
    "roads",
    "cities",
    "majority",
    "temples",
    "ark_temple",
    "fields",
    "end",
)
#: The end is near when fewer tiles than this many rounds of the table are left: the
#: learner still has a turn or two to use what the lesson says.
END_ROUNDS = 3
#: At most this many squares ringed on a lesson's picture, so that it still points.
MOST_RINGED = 4


#: The puzzles, by the lesson whose turn they follow: the answers offered (points), and
#: which is right by the rule book (a road 1 a tile and 1 an oasis, a city 2 a tile and 2 a
#: scroll, the Prophet doubling, a wolf eating a sheep of a field's 2 points each).
PUZZLES: Mapping[str, tuple[tuple[int, ...], int]] = {
    "prophet": ((4, 2, 8), 8),
    "roads": ((3, 4, 6), 4),
    "cities": ((8, 5, 4), 8),
    "fields": ((6, 4, 8), 4),
}


def lessons_of(rules: Edition) -> tuple[str, ...]:
    """The lessons of a game played by ``rules``: the Ark doubles a temple only in some."""
    return tuple(k for k in LESSONS if k != "ark_temple" or rules.temple_ark_factor > 1)


def _t(name: str, **params: Any) -> Text:
    return Text(f"covenant.{name}", **params)


@dataclass(slots=True)
class Situation:
    """Where each lesson's rule is at work for the learner's tile this turn: the squares
    to ring (none: not on the board now)."""

    found: dict[str, list[Pos]] = field(default_factory=dict)

    def squares(self, key: str) -> list[Pos]:
        return self.found.setdefault(key, [])


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
    """Where each lesson's rule is at work for the tile of ``seat`` (whose turn it is)."""
    found = Situation()
    if game.phase not in ("place_tile", "deploy") or game.current_player != seat:
        return found
    if game.phase == "place_tile":
        found.found["placing"] = list(game.placements())
    for after in _tries(game):
        pos = after.last_placed
        assert pos is not None
        actions = after.legal_actions()
        if any(isinstance(a, Deploy) and not a.prophet for a in actions):
            _add(found.squares("followers"), pos)
        if any(isinstance(a, Deploy) and a.prophet for a in actions):
            _add(found.squares("prophet"), pos)
        if after.ark is not None and any(isinstance(a, MoveArk) for a in actions):
            _add(found.squares("ark_moves"), after.ark)
        tile = after.board[pos].view
        for segment in tile.segments:
            closable = segment.kind in ("road", "city")
            if closable and after.feature(*pos, segment.first_port).complete:
                key = "roads" if segment.kind == "road" else "cities"
                _add(found.squares(key), pos)
                _add(found.squares("majority"), pos)
                if segment.kind == "city" and game.ark is None:
                    _add(found.squares("ark"), pos)
        fields = _carried(after, pos, ("field",))
        if fields:
            _add(found.squares("fields"), pos, *fields)
        temples = [
            n for n in neighbours(pos) if n in after.board and TILES[after.board[n].id].temple
        ]
        if tile.temple or temples:
            _add(found.squares("temples"), pos, *temples)
            _add(found.squares("ark_temple"), pos, *temples)
    if game.tiles_left < END_ROUNDS * game.players:
        # What scores at the end: the learner's pieces still out.
        mine = [pos for pos, tile in game.board.items() if any(p.seat == seat for p in tile.pieces)]
        found.found["end"] = mine or list(game.board)[-1:]
    return found


def _untaught(action: Any, known: frozenset[str]) -> bool:
    """Whether ``action`` (not the Prophet) puts to use a rule not in ``known``."""
    if isinstance(action, Deploy):
        return "followers" not in known
    return isinstance(action, MoveArk) and "ark_moves" not in known


#: The lessons about finishing something: their turn's suggestion finishes it when the tile
#: can, so that the learner sees it happen (the Ark's coming with the first city too).
FINISHING = {"ark": "city", "roads": "road", "cities": "city"}


def _finishing(game: Game, kind: str) -> tuple[Any, ...] | None:
    """A turn whose tile finishes a ``kind`` (a follower on it where one may stand, so that
    it scores; then the Ark in the city, where it comes), or None if the tile cannot."""
    if game.phase != "place_tile":
        return None
    for (x, y), rotations in game.placements().items():
        for rotation in rotations:
            after = placed(game, x, y, rotation)
            finished = [
                s.first_port
                for s in after.board[(x, y)].view.segments
                if s.kind == kind and after.feature(x, y, s.first_port).complete
            ]
            if not finished:
                continue
            follower = Deploy(finished[0])
            turn: list[Any] = [PlaceTile(x, y, rotation)]
            turn.append(follower if follower in after.legal_actions() else Pass())
            after.apply(turn[-1])
            if after.phase == "place_ark":
                turn.append(PlaceArk(*after.ark_choices[0]))
            return tuple(turn)
    return None


def _within(game: Game, hint: Sequence[Any], known: frozenset[str]) -> tuple[Any, ...]:
    """``hint`` with what puts an untaught rule to use taken out: the Prophet becomes a
    follower on the same spot (once followers are known), the Ark stays where it is."""
    kept: list[Any] = []
    now = game
    for action in hint:
        if isinstance(action, PlaceTile) and now.phase == "place_tile":
            now = placed(now, action.x, action.y, action.rotation)
        elif isinstance(action, Deploy) and action.prophet and "prophet" not in known:
            follower = Deploy(action.port)
            legal = "followers" in known and follower in now.legal_actions()
            action = follower if legal else Pass()
        elif _untaught(action, known):
            action = Pass()
        kept.append(action)
    return tuple(kept)


#: The lessons whose squares are where the tile may go (not pieces, sheep or the Ark): the
#: suggested square alone is ringed when it is one of them (a temple tile in hand is about
#: temples wherever it goes, and four rings of six squares would point at nothing).
TILE_LESSONS = (
    "placing",
    "followers",
    "prophet",
    "ark",
    "roads",
    "cities",
    "temples",
    "ark_temple",
)


def _focus(game: Game, key: str, squares: list[Pos], hint: Sequence[Any] | None) -> list[Pos]:
    """The squares to ring for lesson ``key``: where the hint puts the tile when the lesson
    is about where the tile goes and the hint's square is one of them, else the first few."""
    move = next((a for a in hint or () if isinstance(a, PlaceTile)), None)
    if move is None or key not in TILE_LESSONS:
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
    now = game.copy()
    for action in hint:
        said = said_move(now, action)
        if said is not None:
            words.append(said)
        if action not in now.legal_actions():
            break
        now.apply(action)
    if not words:
        return None
    move = words[-1]
    for word in reversed(words[:-1]):
        move = _t("lesson.sentences", first=word, second=move)
    return _t("lesson.suggestion", move=move)


class CovenantTeacher(Teacher):
    """The Ark of the Covenant's lessons (see the module's docstring)."""

    lessons = LESSONS

    def lessons_for(self, options: Mapping[str, Any]) -> tuple[str, ...]:
        return lessons_of(edition(options.get("edition", DEFAULT_EDITION)))

    def practice_options(self, seed: int) -> dict[str, Any]:
        # The short game's tiles (some 12 turns for the learner), arranged so that each
        # rule comes up in the rule book's order; "length" says which length it is.
        return {"length": LENGTH, "deck": practice_deck(seed)}

    def due(self, seen: Seen, taught: frozenset[str]) -> list[str]:
        # One rule a turn, the next in the rule book's order: the deal brings it about; the
        # end waits until few tiles are left.
        if seen.seat is None or seen.game.current_player != seen.seat:
            return []
        game: Game = seen.game
        if game.phase not in ("place_tile", "deploy"):
            return []
        left = [key for key in lessons_of(game.rules) if key not in taught]
        if not left or (left[0] == "end" and game.tiles_left >= END_ROUNDS * game.players):
            return []
        return left[:1]

    def within(
        self, seen: Seen, hint: Sequence[Any] | None, known: frozenset[str]
    ) -> tuple[Any, ...] | None:
        game: Game = seen.game
        # The lesson given this turn: the last of the rule book's order known by now.
        now = [key for key in lessons_of(game.rules) if key in known][-1:]
        kind = FINISHING.get(now[0]) if now else None
        if kind is not None and seen.seat is not None:
            finishes = situation(game, seen.seat).squares(now[0])
            move = next((a for a in hint or () if isinstance(a, PlaceTile)), None)
            if move is None or (move.x, move.y) not in finishes:
                turn = _finishing(game, kind)
                if turn is not None:
                    return _within(game, turn, known)
        return None if hint is None else _within(game, hint, known)

    def uses(self, seen: Seen, actions: Sequence[Any]) -> frozenset[str]:
        used = set()
        for action in actions:
            if isinstance(action, Deploy):
                used.add("prophet" if action.prophet else "followers")
            elif isinstance(action, MoveArk):
                used.add("ark_moves")
        return frozenset(used)

    def puzzle(self, key: str, options: Mapping[str, Any]) -> Puzzle | None:
        if key not in PUZZLES:
            return None
        answers, right = PUZZLES[key]
        return Puzzle(
            _t(f"puzzle.{key}.question"),
            tuple((str(n), _t("puzzle.number", n=n)) for n in answers),
            str(right),
            _t(f"puzzle.{key}.why"),
            _t(f"puzzle.{key}.clue"),
        )

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
            "first": rules.first_ark_points,
            "onto": rules.ark_temple_points,
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


__all__ = ["LESSONS", "PUZZLES", "CovenantTeacher", "Situation", "lessons_of", "situation"]
