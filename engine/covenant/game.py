"""The Ark of the Covenant: the game state and its rules.

A :class:`Game` is a pure function of (players, seed or scripted deck, actions applied).
It is mutable like ``chess.Board``: :meth:`Game.apply` changes it and returns the events of
what happened; an illegal action raises :class:`IllegalAction` and changes nothing, because
every check runs before the first change.

A turn moves through these phases::

    place_tile --PlaceTile--> deploy --Deploy | MoveArk | Pass--> (scoring)
        --> place_ark (only when the first city was just completed) --PlaceArk-->
        --> next player's place_tile, or "over" after the last tile

Rule decisions (English second edition) are listed in ``shared/design.md``; the ones the
code has to make on its own are commented where they are made.

Lengths: ``Game.new(..., length="full" | "medium" | "short")``, all 72 tiles or a deal of 54
or 36 that keeps the game's character (:mod:`engine.covenant.lengths`).

Editions: ``Game.new(..., edition="en2" | "en1" | "de")``. The rules that differ are switches
of :class:`~engine.covenant.editions.Edition` (``game.rules``); the code reads the switches,
never the edition's name. Where the editions' texts leave room, the engine reads them so
(:data:`engine.covenant.editions.DECISIONS` holds the same, for the rules help):

- ``en1``: the Ark may come back to the tile it started from only with its last step; it
  never enters another tile twice. When a tile completes a temple, the roads it completes
  are scored, then the temple, then the cities it completes (their pieces count for the
  temple, then go home). A segment is one road or city area of a tile: a road or city that
  reaches a tile twice counts two there at the end. Completed features count tiles, as in ``en2``.
- ``de``: ``Deploy("temple")`` puts a follower (never the Prophet) on the temple of the tile
  just placed; it is offered after the tile's other features. It counts for that temple
  and, like every piece on its tile, for the Ark; it goes home once the completed temple is
  scored (14 or 7), and stays on a temple unfinished at the end (which scores 3). The Ark
  moves only while a temple is on the board, and every step of one move brings it closer
  (in squares) to the same temple; with two temples the player may head for either. A move
  that ends on a temple tile gives the mover 3 (once a move; passing over one gives nothing).
  A temple scores 14 when the Ark stands on its tile as it is scored, that is after this
  turn's move; the Ark placed in the first city comes after the scoring. Placing the Ark in
  the first completed city gives that player 2.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from copy import deepcopy
from dataclasses import dataclass
from functools import cache
from itertools import islice
from types import MappingProxyType
from typing import Any, Literal, NamedTuple

from engine.common.rng import Rng
from engine.covenant.actions import Action, Deploy, MoveArk, Pass, PlaceArk, PlaceTile
from engine.covenant.editions import DEFAULT_EDITION, EDITIONS, Edition
from engine.covenant.editions import edition as _edition_named
from engine.covenant.errors import IllegalAction
from engine.covenant.events import (
    ArkMoved,
    ArkPlaced,
    Event,
    FeatureScored,
    FinalScoring,
    GameOver,
    Passed,
    PieceDeployed,
    PieceRef,
    TileDiscarded,
    TilePlaced,
    TurnStarted,
)
from engine.covenant.features import Columns, Features
from engine.covenant.geometry import (
    PORT_INDEX,
    ROTATIONS,
    SIDE_INDEX,
    SIDE_NAMES,
    STEPS,
    Pos,
    facing_port,
    neighbour,
    neighbours,
    opposite,
)
from engine.covenant.lengths import DEFAULT_LENGTH, deal
from engine.covenant.lengths import length as _length_named
from engine.covenant.majority import majority
from engine.covenant.tiles import START_TILE, TILES, RotatedTile

Phase = Literal["place_tile", "deploy", "place_ark", "over"]

FOLLOWERS = 7
MIN_PLAYERS, MAX_PLAYERS = 2, 5
MAX_ARK_STEPS = 5
TEMPLE_POINTS, TEMPLE_POINTS_UNFINISHED = 7, 3
CATEGORIES = ("road", "city", "temple", "field", "ark")
SAVE_FORMAT = 1
#: The ``port`` of a follower standing on a temple (edition "de"): ``Deploy(TEMPLE)``.
TEMPLE = "temple"


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile on the board: its design id, rotation, square and the pieces standing on it."""

    id: str
    rotation: int
    x: int
    y: int
    pieces: tuple[PieceRef, ...] = ()

    @property
    def view(self) -> RotatedTile:
        """The design as it lies, with sides and ports in board orientation."""
        return TILES[self.id].rotated(self.rotation)


@dataclass(frozen=True, slots=True)
class FeatureInfo:
    """A whole road, city or field as it stands now."""

    kind: str
    squares: tuple[Pos, ...]
    extras: int
    wolves: int
    complete: bool
    pieces: tuple[PieceRef, ...]


class ClaimedFeature(NamedTuple):
    """A road, city or field as search reads it (see :meth:`Game.claimed_features`)."""

    kind: str
    tiles: int
    extras: int
    wolves: int
    open: int
    pieces: tuple[PieceRef, ...]
    holes: tuple[Pos, ...]
    #: For each hole, the edges a tile there must match (as :meth:`Game.frontier` gives).
    needs: tuple[tuple[str | None, ...], ...] = ()


class _Layout(NamedTuple):
    """What laying and scoring read of a rotated tile, worked out once per tile (laying
    tiles is most of a playout's work)."""

    columns: Columns
    #: Per side: the segments of its three ports, clockwise; whether its edge is a road or
    #: city (one that closes when a tile meets it); what it adds to the needs code of the
    #: empty square beyond it.
    sides: tuple[tuple[int, int, int, bool, int], ...]
    #: Per side ``s`` of a tile laid next to this one, the segments of this tile that its
    #: three ports on side ``s`` touch, in the same order.
    seen_from: tuple[tuple[int, int, int], ...]
    #: The segments that are roads or cities (those a tile can complete).
    closable: tuple[int, ...]
    #: Per segment in deploy order (by first port, clockwise from NNW): its index, the
    #: deploy of a follower on it and, for a city, of the Prophet.
    spots: tuple[tuple[int, Deploy, Deploy | None], ...]


class _Cell(NamedTuple):
    """A placed tile inside the engine: its view, the first node of its segments and its
    layout.

    Immutable, so copies of a game share their cells; the pieces on a tile are kept in the
    game's board (:class:`PlacedTile`), whose values are replaced whole."""

    pos: Pos
    tile: RotatedTile
    base: int
    lay: _Layout


#: The sides N, E, S, W by number, to go through them alongside per-side data.
_SIDES = (0, 1, 2, 3)
#: Per side, the side of a neighbour that touches it; per port, the port it touches.
_FACING_SIDE: tuple[int, ...] = tuple(opposite(side) for side in range(4))
_FACING_PORT: tuple[int, ...] = tuple(facing_port(port) for port in range(12))

#: The needs of an empty square (the edge each side must match) are kept as a code, two
#: bits a side (side ``s`` at bits ``2s``): 0 no neighbour, 1 city, 2 road, 3 field; so
#: that laying a tile adds to a number and fitting reads a table, where tuples were built.
_EDGE_CODE: dict[str, int] = {"C": 1, "R": 2, "F": 3}
_CODE_EDGE: tuple[str | None, ...] = (None, "C", "R", "F")
_NEEDS: tuple[tuple[str | None, str | None, str | None, str | None], ...] = tuple(
    (
        _CODE_EDGE[code & 3],
        _CODE_EDGE[code >> 2 & 3],
        _CODE_EDGE[code >> 4 & 3],
        _CODE_EDGE[code >> 6 & 3],
    )
    for code in range(256)
)

#: Deploy actions are values: one of each is made and handed out again.
_DEPLOYS: dict[tuple[str, bool], Deploy] = {}
_PASS = Pass()


def _deploy(port: str, prophet: bool) -> Deploy:
    action = _DEPLOYS.get((port, prophet))
    if action is None:
        action = _DEPLOYS[(port, prophet)] = Deploy(port, prophet)
    return action


#: Per rotated tile (by identity: they live as long as the tile set), its layout.
_LAYOUTS: dict[int, _Layout] = {}


def _layout(tile: RotatedTile) -> _Layout:
    """The layout of ``tile``, worked out the first time it is asked for."""
    lay = _LAYOUTS.get(id(tile))
    if lay is None:
        segments, ports = tile.segments, tile.port_segment
        lay = _LAYOUTS[id(tile)] = _Layout(
            columns=Columns(
                kinds=tuple(s.kind for s in segments),
                extras=tuple(s.extras for s in segments),
                wolves=tuple(s.wolves for s in segments),
                opens=tuple(len(s.sides) if s.kind != "field" else 0 for s in segments),
                no_pieces=((),) * len(segments),
            ),
            sides=tuple(
                (
                    ports[3 * side],
                    ports[3 * side + 1],
                    ports[3 * side + 2],
                    edge != "F",
                    _EDGE_CODE[edge] << 2 * _FACING_SIDE[side],
                )
                for side, edge in enumerate(tile.edges)
            ),
            seen_from=tuple(
                (
                    ports[_FACING_PORT[3 * s]],
                    ports[_FACING_PORT[3 * s + 1]],
                    ports[_FACING_PORT[3 * s + 2]],
                )
                for s in range(4)
            ),
            closable=tuple(i for i, s in enumerate(segments) if s.kind != "field"),
            spots=tuple(
                (
                    i,
                    _deploy(segments[i].first_port, False),
                    _deploy(segments[i].first_port, True) if segments[i].kind == "city" else None,
                )
                for i in tile.deploy_order
            ),
        )
    return lay


def _base(cell: _Cell) -> int:
    return cell.base


#: Per tile id, the rotations that fit each needs code, and (bit ``code``) the codes where
#: some rotation fits; made for the whole tile set on import (see _prepare).
_BY_CODE: dict[str, tuple[tuple[int, ...], ...]] = {}
_FIT_MASK: dict[str, int] = {}


def _rotations_by_code(tile_id: str) -> tuple[tuple[int, ...], ...]:
    """The rotations of ``tile_id`` that fit, indexed by needs code."""
    table = _BY_CODE.get(tile_id)
    if table is None:
        design = TILES[tile_id]
        found: list[list[int]] = [[] for _ in _NEEDS]
        for rotation in ROTATIONS:
            edges = design.rotated(rotation).edges
            bits = [_EDGE_CODE[edge] << 2 * side for side, edge in enumerate(edges)]
            # A rotation fits every code that asks, on each side, for its edge or nothing.
            for subset in range(16):
                found[sum(bits[side] for side in range(4) if subset >> side & 1)].append(rotation)
        table = _BY_CODE[tile_id] = tuple(tuple(rotations) for rotations in found)
        _FIT_MASK[tile_id] = sum(1 << code for code, found in enumerate(table) if found)
    return table


#: Per tile id and rotation, the tile as it lies (``TILES[id].rotated(rotation)``).
_TURNED: dict[str, dict[int, RotatedTile]] = {}


def _prepare() -> None:
    """Every table of the tile set made once, so that the hot paths read them directly."""
    for tile_id, design in TILES.items():
        _rotations_by_code(tile_id)
        _TURNED[tile_id] = {rotation: design.rotated(rotation) for rotation in ROTATIONS}
        for rotation in ROTATIONS:
            _layout(design.rotated(rotation))


_prepare()


@cache
def _fitting_rotations(tile_id: str, needs: tuple[str | None, ...]) -> tuple[int, ...]:
    """The rotations of ``tile_id`` whose edges meet ``needs`` (None: no neighbour)."""
    design = TILES[tile_id]
    return tuple(
        rotation
        for rotation in ROTATIONS
        if all(
            need is None or need == edge
            for need, edge in zip(needs, design.rotated(rotation).edges, strict=True)
        )
    )


def _approaches(pos: Pos, dx: int, dy: int, target: Pos) -> bool:
    """Whether one step (dx, dy) from ``pos`` comes closer to ``target``, in squares."""
    return (target[0] - pos[0]) * dx > 0 if dx else (target[1] - pos[1]) * dy > 0


def _immutable(value: object) -> bool:
    """True for values two games may share: numbers, strings, None, cells (never changed)
    and tuples or frozensets of those."""
    if value is None or isinstance(value, int | float | str | _Cell):
        return True
    return isinstance(value, tuple | frozenset) and all(_immutable(v) for v in value)


@cache
def _all_slots(cls: type) -> tuple[str, ...]:
    """Every slot of ``cls`` and its bases."""
    return tuple(name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ()))


#: Slots of :class:`Game` that only ever hold immutable values (numbers, strings, None,
#: tuples of those, or a cell): :meth:`Game.copy` shares them without looking.
_IMMUTABLE_SLOTS = frozenset(
    {"_ark", "_current", "_edition", "_last", "_length", "_phase", "_players", "_seed", "_tile"}
    | {"_temple_zone", "_temples", "_turn", "_view"}
)


@cache
def _copy_plan(
    cls: type,
) -> tuple[tuple[str, ...], tuple[tuple[str, Callable[[Any], Any]], ...], tuple[str, ...]]:
    """How :meth:`Game.copy` copies each slot of ``cls``: shared (known immutable), by its
    copier, or checked (immutable values shared, others deep-copied: a slot added later)."""
    slots = _all_slots(cls)
    copied = tuple((name, _SLOT_COPIERS[name]) for name in slots if name in _SLOT_COPIERS)
    shared = tuple(n for n in slots if n in _IMMUTABLE_SLOTS and n not in _SLOT_COPIERS)
    checked = tuple(n for n in slots if n not in _IMMUTABLE_SLOTS and n not in _SLOT_COPIERS)
    return shared, copied, checked


#: How :meth:`Game.copy` copies the slots that hold mutable values.
_SLOT_COPIERS: dict[str, Callable[[Any], Any]] = {
    "_board": dict.copy,  # of frozen PlacedTile values
    "_breakdown": lambda rows: [row.copy() for row in rows],
    "_cells": dict.copy,  # of cells never changed once made
    "_claims": dict.copy,  # of immutable values
    "_deck": list.copy,
    "_features": Features.copy,
    "_frontier": dict.copy,  # of ints
    "_history": list.copy,  # of tuples
    "_on_board": list.copy,
    "_prophets": list.copy,
    "_rng": lambda rng: Rng.from_state(rng.state),
    "_scores": list.copy,
}


class Game:
    """One game of The Ark of the Covenant for 2 to 5 players.

    Build one with :meth:`new` (or :meth:`from_json`); read it through the properties;
    change it only with :meth:`apply`.
    """

    #: Nobody holds what others may not see (the order of the tiles is hidden from all).
    hidden_information = False

    __slots__ = (
        "_ark",
        "_board",
        "_breakdown",
        "_cells",
        "_claims",
        "_current",
        "_deck",
        "_edition",
        "_features",
        "_frontier",
        "_history",
        "_last",
        "_length",
        "_on_board",
        "_phase",
        "_players",
        "_prophets",
        "_rng",
        "_scores",
        "_seed",
        "_temple_zone",
        "_temples",
        "_tile",
        "_turn",
        "_view",
    )

    def __init__(self) -> None:  # use Game.new or Game.from_json
        self._players = 0
        self._seed = 0
        self._rng = Rng(0)
        self._deck: list[str] = []
        self._edition = DEFAULT_EDITION  # its key: a string, shared by copies
        self._length = DEFAULT_LENGTH  # its key, likewise
        self._tile: str | None = None
        self._phase: Phase = "place_tile"
        self._current = 0
        self._turn = 0
        self._cells: dict[Pos, _Cell] = {}
        self._temples: tuple[Pos, ...] = ()  # the squares of temple tiles, in board order
        # The squares of temple tiles and their neighbours: only a tile laid on one of them
        # can complete a temple.
        self._temple_zone: frozenset[Pos] = frozenset()
        # What :meth:`_claimed` found, by root, with the squares where a tile placed would
        # change it; dropped when one is (a cache for search, never saved).
        self._claims: dict[int, tuple[ClaimedFeature, set[Pos]]] = {}
        self._board: dict[Pos, PlacedTile] = {}
        # Every empty square next to a tile, with its needs code (see _NEEDS).
        self._frontier: dict[Pos, int] = {}
        self._features = Features()
        self._last: _Cell | None = None
        self._ark: Pos | None = None
        self._scores: list[int] = []
        self._breakdown: list[dict[str, int]] = []
        self._history: list[tuple[int, ...]] = []
        self._on_board: list[int] = []
        self._prophets: list[str] = []
        # A view (see :meth:`view`) knows which tiles are left but not their order.
        self._view = False

    # ------------------------------------------------------------------ creation

    @classmethod
    def new(
        cls,
        players: int,
        seed: int = 0,
        deck: list[str] | None = None,
        edition: str = DEFAULT_EDITION,
        length: str = DEFAULT_LENGTH,
    ) -> Game:
        """A new game: the start tile at (0, 0) and the first tile drawn for seat 0.

        Without ``deck`` the other tiles of the ``length`` (71 in a full game, 53 in a
        medium one, 35 in a short one: :func:`~engine.covenant.lengths.deal`) are dealt and
        shuffled from ``seed``; with it, exactly those tiles are drawn in that order (the
        start tile may not be among them) and ``length`` only names the game.
        ``edition`` is a key of :data:`~engine.covenant.editions.EDITIONS`, ``length`` of
        :data:`~engine.covenant.lengths.LENGTHS`; another raises :class:`IllegalAction` (a
        ``ValueError``) with the code ``unknown_edition`` or ``unknown_length``.
        """
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"The Ark of the Covenant is for 2 to 5 players, not {players}.")
        rules = _edition_named(edition)
        game = cls()
        game._edition = rules.key
        game._length = _length_named(length)
        game._players = players
        game._seed = seed
        game._rng = Rng(seed)
        if deck is None:
            tiles = deal(game._length, game._rng)
            game._rng.shuffle(tiles)
        else:
            unknown = [t for t in deck if t not in TILES]
            if unknown:
                raise ValueError(f"unknown tiles in the deck: {unknown}")
            if START_TILE in deck:
                raise ValueError("the start tile is never in a deck")
            tiles = list(deck)
        game._deck = tiles
        game._scores = [0] * players
        game._breakdown = [dict.fromkeys(CATEGORIES, 0) for _ in range(players)]
        game._on_board = [0] * players
        game._prophets = ["hand"] * players
        game._lay(TILES[START_TILE].rotated(0), (0, 0))
        game._last = None
        game._draw([])
        return game

    # ------------------------------------------------------------------ reading

    @property
    def players(self) -> int:
        return self._players

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def edition(self) -> str:
        """The key of the edition played: ``"en2"``, ``"en1"`` or ``"de"``."""
        return self._edition

    @property
    def length(self) -> str:
        """The key of the game's length: ``"full"``, ``"medium"`` or ``"short"``."""
        return self._length

    @property
    def rules(self) -> Edition:
        """The rule switches of the edition played."""
        return EDITIONS[self._edition]

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def current_player(self) -> int | None:
        """The seat to act now, or ``None`` once the game is over (the protocol's rule)."""
        return None if self._phase == "over" else self._current

    @property
    def tile(self) -> str | None:
        """The id of the tile to place now, or None outside the ``place_tile`` phase."""
        return self._tile if self._phase == "place_tile" else None

    @property
    def tiles_left(self) -> int:
        """Tiles still in the deck, not counting the one in hand."""
        return len(self._deck)

    @property
    def turn(self) -> int:
        """The number of the current turn, from 1 (the start tile is turn 0)."""
        return self._turn

    @property
    def board(self) -> Mapping[Pos, PlacedTile]:
        """Every placed tile by square, in the order they were placed."""
        return MappingProxyType(self._board)

    @property
    def last_placed(self) -> Pos | None:
        """The square of the tile placed last by a player (None before the first turn)."""
        return self._last.pos if self._last else None

    @property
    def ark(self) -> Pos | None:
        return self._ark

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._scores)

    @property
    def score_history(self) -> tuple[tuple[int, ...], ...]:
        """The scores at the end of every turn, from the first."""
        return tuple(self._history)

    def breakdown(self, seat: int) -> Mapping[str, int]:
        """Points of ``seat`` by where they came from: road, city, temple, field, ark."""
        return MappingProxyType(self._breakdown[seat])

    def followers_left(self, seat: int) -> int:
        return FOLLOWERS - self._on_board[seat]

    def prophet_available(self, seat: int) -> bool:
        return self._prophets[seat] == "hand"

    def prophet_state(self, seat: int) -> str:
        """``"hand"``, ``"board"`` or ``"box"`` (used and scored)."""
        return self._prophets[seat]

    @property
    def winners(self) -> tuple[int, ...]:
        """Once the game is over, the seats with the highest score (a tie shares the win);
        ``()`` before that."""
        if self._phase != "over":
            return ()
        return self._leaders()

    def _leaders(self) -> tuple[int, ...]:
        top = max(self._scores)
        return tuple(seat for seat, score in enumerate(self._scores) if score == top)

    def feature(self, x: int, y: int, port: str) -> FeatureInfo:
        """The whole feature that holds ``port`` of the tile at (x, y)."""
        cell = self._cells.get((x, y))
        if cell is None or port not in PORT_INDEX:
            raise KeyError((x, y, port))
        f = self._features
        root = f.find(cell.base + cell.tile.port_segment[PORT_INDEX[port]])
        return FeatureInfo(
            kind=f.kind[root],
            squares=tuple(sorted(f.squares[root], key=lambda p: (p[1], p[0]))),
            extras=f.extras[root],
            wolves=f.wolves[root],
            complete=f.is_complete(root),
            pieces=tuple(f.pieces[root]),
        )

    def temple_complete(self, x: int, y: int) -> bool:
        return all(n in self._cells for n in neighbours((x, y)))

    def placements(self) -> dict[Pos, tuple[int, ...]]:
        """Where the tile in hand fits: square -> rotations, squares in reading order."""
        if self._phase != "place_tile" or self._tile is None:
            return {}
        return self._placements_for(self._tile)

    @property
    def ark_choices(self) -> tuple[Pos, ...]:
        """In ``place_ark``: the squares of the cities completed this turn."""
        if self._phase != "place_ark":
            return ()
        return self._completed_city_squares()

    # ------------------------------------------------------------------ legal actions

    def legal_actions(self) -> list[Action]:
        """Every legal action of the current phase (empty when the game is over).

        In ``deploy``: a ``Deploy`` per free feature of the new tile (by its first port),
        ``Deploy(TEMPLE)`` where the edition allows a follower on its temple, the Prophet
        per free city, every Ark path of :meth:`_ark_paths`, and ``Pass()``."""
        if self._phase == "place_tile":
            return [
                PlaceTile(x, y, rotation)
                for (x, y), rotations in self.placements().items()
                for rotation in rotations
            ]
        if self._phase == "deploy":
            return self._deploy_actions()
        if self._phase == "place_ark":
            return [PlaceArk(x, y) for x, y in self._completed_city_squares()]
        return []

    def _placements_for(self, tile_id: str) -> dict[Pos, tuple[int, ...]]:
        found = {}
        table, frontier = _rotations_by_code(tile_id), self._frontier
        for pos in sorted(frontier, key=lambda p: (p[1], p[0])):
            rotations = table[frontier[pos]]
            if rotations:
                found[pos] = rotations
        return found

    def _deploy_actions(self) -> list[Action]:
        actions = self._deploy_options()
        if self._ark is not None:
            actions.extend(MoveArk(path) for path in self._ark_paths())
        actions.append(_PASS)
        return actions

    def _deploy_options(self) -> list[Action]:
        """In ``deploy``: every deploy of a follower, then of the Prophet (no Ark, no Pass)."""
        assert self._last is not None
        seat = self._current
        cell = self._last
        f = self._features
        followers: list[Action] = []
        prophets: list[Action] = []
        with_follower = self._on_board[seat] < FOLLOWERS
        with_prophet = self._prophets[seat] == "hand"
        if not (with_follower or with_prophet):
            return followers
        find, pieces, base = f.find, f.pieces, cell.base
        seen: list[int] = []
        for index, follower, prophet in cell.lay.spots:
            root = find(base + index)
            # Two segments of the tile may be one feature (a loop closed here, a city round
            # a corner): it is offered once, by its first port in compass order.
            if root in seen or pieces[root]:
                continue
            seen.append(root)
            if with_follower:
                followers.append(follower)
            if with_prophet and prophet is not None:
                prophets.append(prophet)
        # The temple of a tile just placed is always free.
        if cell.tile.temple and with_follower and self.rules.follower_on_temple:
            followers.append(_deploy(TEMPLE, False))
        return followers + prophets

    def _ark_paths(self) -> list[str]:
        """Every legal path of the Ark now, in the order of a walk trying N, E, S, W at each
        step: the one list of Ark moves (``legal_actions()`` and the computer players read
        it; :meth:`_ark_walk` checks a single path by the same rules)."""
        return [path for path, _ in self._ark_routes(gains=False)]

    def ark_gains(self) -> list[tuple[str, tuple[int, ...]]]:
        """Every path the Ark may take now, in the order of :meth:`ark_paths`, with the points
        per seat it gives (as :meth:`ark_gain` says): the points are added up along one walk
        of all paths, not by walking each path again (a panel of Ark moves asks for some
        hundred of them)."""
        if self._phase != "deploy" or self._ark is None:
            return []
        return [(path, gain or ()) for path, gain in self._ark_routes(gains=True)]

    def _ark_routes(self, gains: bool) -> list[tuple[str, tuple[int, ...] | None]]:
        """Every legal path of the Ark, each with its points if ``gains`` (else None): a walk
        trying N, E, S, W at each step. In edition "de" every step must bring the Ark closer
        to one same temple: ``targets`` are the temples every step so far came closer to, a
        step is legal while one is left, and such a path never comes back."""
        assert self._ark is not None
        rules = self.rules
        cells, board = self._cells, self._board
        start = self._ark
        towards = rules.ark_towards_temples
        back_home = rules.ark_may_end_on_start and not towards
        routes: list[tuple[str, tuple[int, ...] | None]] = []
        visited = {start}
        # The points of the squares entered so far, per seat; the mover's temple bonus is
        # added where a path ends.
        points = [0] * self._players
        mover, bonus = self._current, rules.ark_temple_points

        def ended(path: str, end: Pos) -> None:
            if not gains:
                routes.append((path, None))
                return
            if cells[end].tile.temple and bonus:
                total = points.copy()
                total[mover] += bonus
                routes.append((path, tuple(total)))
            else:
                routes.append((path, tuple(points)))

        def enter(pos: Pos, sign: int) -> None:
            for piece in board[pos].pieces:
                points[piece.seat] += sign

        def walk(pos: Pos, path: str, targets: list[Pos]) -> None:
            x, y = pos
            for letter, nxt, dx, dy in (
                ("N", (x, y - 1), 0, -1),
                ("E", (x + 1, y), 1, 0),
                ("S", (x, y + 1), 0, 1),
                ("W", (x - 1, y), -1, 0),
            ):
                if nxt not in cells:
                    continue
                if nxt not in visited:
                    closer = targets
                    if towards:
                        closer = [t for t in targets if _approaches(pos, dx, dy, t)]
                        if not closer:
                            continue
                    step = path + letter
                    if gains:
                        enter(nxt, 1)
                    ended(step, nxt)
                    if len(step) < MAX_ARK_STEPS:
                        visited.add(nxt)
                        walk(nxt, step, closer)
                        visited.discard(nxt)
                    if gains:
                        enter(nxt, -1)
                elif back_home and nxt == start:
                    # Home again: that step ends the move.
                    if gains:
                        enter(nxt, 1)
                    ended(path + letter, nxt)
                    if gains:
                        enter(nxt, -1)

        temples = [t for t in self._temples_on_board() if t != start] if towards else []
        walk(start, "", temples)
        return routes

    def _temples_on_board(self) -> list[Pos]:
        return list(self._temples)

    # ------------------------------------------------------------------ applying

    def apply(self, action: Action, seat: int | None = None) -> tuple[Event, ...]:
        """Play ``action`` for the current player and return what happened.

        If ``seat`` is given, it must be the current player's. Raises
        :class:`IllegalAction` (and changes nothing) if the action is not legal now.
        """
        if self._phase == "over":
            raise IllegalAction("game_over")
        if self._view:
            raise IllegalAction("view_only")
        if seat is not None and seat != self._current:
            raise IllegalAction("not_your_turn", seat=seat, current=self._current)
        if isinstance(action, PlaceTile):
            return self._apply_place_tile(action)
        if isinstance(action, Deploy):
            return self._apply_deploy(action)
        if isinstance(action, MoveArk):
            return self._apply_move_ark(action)
        if isinstance(action, Pass):
            return self._apply_pass()
        if isinstance(action, PlaceArk):
            return self._apply_place_ark(action)
        raise IllegalAction("malformed")

    def apply_trusted(self, action: Action) -> None:
        """Play ``action`` for the current player, for search: an action known to be legal,
        from :meth:`legal_actions` or :meth:`sample_action` of this very state.

        The game changes exactly as with :meth:`apply`, but nothing is checked and no event
        is made (playouts never read them); an action that is not legal now may leave the
        game broken instead of being refused."""
        # By exact type, the cheapest test (actions are final dataclasses).
        if type(action) is PlaceTile:
            assert self._tile is not None
            tile = _TURNED[self._tile][action.rotation]
            self._last = self._lay(tile, (action.x, action.y))
            self._tile = None
            self._phase = "deploy"
        elif type(action) is Pass:
            self._after_action(None)
        elif type(action) is MoveArk:
            assert self._ark is not None
            pos = self._ark
            squares = []
            for letter in action.path:
                dx, dy = STEPS[SIDE_INDEX[letter]]
                pos = (pos[0] + dx, pos[1] + dy)
                squares.append(pos)
            self._move_ark(squares)
            self._after_action(None)
        elif type(action) is Deploy and action.port != TEMPLE:
            assert self._last is not None
            cell = self._last
            # A legal deploy names the feature by its first port on the tile already.
            root = self._features.find(cell.base + cell.tile.port_segment[PORT_INDEX[action.port]])
            x, y = cell.pos
            self._deploy_piece(
                cell, root, PieceRef(self._current, x, y, action.port, action.prophet)
            )
            self._after_action(None)
        else:
            # The Ark's placing and a follower on a temple are rare: the checked way will do.
            self.apply(action)

    def _require_phase(self, phase: Phase, attempted: str) -> None:
        """Refuse ``attempted`` (an action type) outside ``phase``."""
        if self._phase == phase:
            return
        raise IllegalAction("wrong_phase", phase=self._phase, attempted=attempted)

    def _apply_place_tile(self, action: PlaceTile) -> tuple[Event, ...]:
        self._require_phase("place_tile", "place_tile")
        x, y, rotation = action.x, action.y, action.rotation
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (x, y, rotation)):
            raise IllegalAction("malformed")
        if rotation not in ROTATIONS:
            raise IllegalAction("bad_rotation", rotation=rotation)
        pos = (x, y)
        if pos in self._cells:
            raise IllegalAction("occupied", x=x, y=y)
        code = self._frontier.get(pos)
        if code is None:
            raise IllegalAction("not_adjacent", x=x, y=y)
        needs = _NEEDS[code]
        assert self._tile is not None
        tile = TILES[self._tile].rotated(rotation)
        for side, need in enumerate(needs):
            if need is not None and need != tile.edges[side]:
                raise IllegalAction(
                    "edge_mismatch", side=SIDE_NAMES[side], mine=tile.edges[side], theirs=need
                )
        cell = self._lay(tile, pos)
        self._last = cell
        self._tile = None
        self._phase = "deploy"
        return (TilePlaced(self._current, tile.id, x, y, rotation),)

    def _apply_deploy(self, action: Deploy) -> tuple[Event, ...]:
        self._require_phase("deploy", "deploy")
        assert self._last is not None
        port = action.port.upper() if isinstance(action.port, str) else None
        if port == TEMPLE.upper() and isinstance(action.prophet, bool):
            return self._apply_deploy_on_temple(action.prophet)
        if port not in PORT_INDEX or not isinstance(action.prophet, bool):
            raise IllegalAction("bad_port", port=action.port)
        seat, cell, f = self._current, self._last, self._features
        index = cell.tile.port_segment[PORT_INDEX[port]]
        segment = cell.tile.segments[index]
        root = f.find(cell.base + index)
        if action.prophet:
            if self._prophets[seat] != "hand":
                raise IllegalAction("prophet_used")
            if segment.kind != "city":
                raise IllegalAction("prophet_not_city")
        elif self._on_board[seat] >= FOLLOWERS:
            raise IllegalAction("no_followers")
        if f.pieces[root]:
            own = any(p.x == cell.pos[0] and p.y == cell.pos[1] for p in f.pieces[root])
            raise IllegalAction("taken", feature=segment.kind, joined=not own)
        # The piece is named like the feature in legal_actions(), by the first port the
        # feature has on this tile, so that every name of one feature gives the same game.
        first = next(i for i in cell.tile.deploy_order if f.find(cell.base + i) == root)
        port = cell.tile.segments[first].first_port
        piece = PieceRef(seat, cell.pos[0], cell.pos[1], port, action.prophet)
        self._deploy_piece(cell, root, piece)
        events: list[Event] = [
            PieceDeployed(seat, cell.pos[0], cell.pos[1], piece.port, segment.kind, action.prophet)
        ]
        self._after_action(events)
        return tuple(events)

    def _deploy_piece(self, cell: _Cell, root: int, piece: PieceRef) -> None:
        """Put ``piece`` on the feature ``root`` of ``cell``, out of its owner's supply."""
        self._add_piece(cell, root, piece)
        if piece.prophet:
            self._prophets[piece.seat] = "board"
        else:
            self._on_board[piece.seat] += 1

    def _apply_deploy_on_temple(self, prophet: bool) -> tuple[Event, ...]:
        seat, cell = self._current, self._last
        assert cell is not None
        if not self.rules.follower_on_temple:
            raise IllegalAction("temple_forbidden", edition=self._edition)
        if not cell.tile.temple:
            raise IllegalAction("no_temple")
        if prophet:
            raise IllegalAction("prophet_not_city")
        if self._on_board[seat] >= FOLLOWERS:
            raise IllegalAction("no_followers")
        piece = PieceRef(seat, cell.pos[0], cell.pos[1], TEMPLE)
        self._set_pieces(cell.pos, (*self._board[cell.pos].pieces, piece))
        self._on_board[seat] += 1
        events: list[Event] = [
            PieceDeployed(seat, cell.pos[0], cell.pos[1], TEMPLE, "temple", False)
        ]
        self._after_action(events)
        return tuple(events)

    def ark_gain(self, path: str) -> tuple[int, ...]:
        """Points per seat that moving the Ark along ``path`` would give now (the game is
        not changed); raises :class:`IllegalAction` if the Ark cannot go that way."""
        return self._ark_points(self._ark_walk(path))

    def _ark_walk(self, path: object) -> list[Pos]:
        """The squares the Ark enters along ``path``, checking every rule of its move."""
        if self._ark is None:
            raise IllegalAction("no_ark")
        letters = path.upper() if isinstance(path, str) else ""
        if not 1 <= len(letters) <= MAX_ARK_STEPS or any(c not in SIDE_INDEX for c in letters):
            raise IllegalAction("bad_path", path=path)
        rules = self.rules
        start = pos = self._ark
        targets: list[Pos] = []
        if rules.ark_towards_temples:
            targets = [t for t in self._temples_on_board() if t != start]
        if rules.ark_towards_temples and not targets:
            if self._cells[start].tile.temple:
                raise IllegalAction("ark_on_only_temple")
            raise IllegalAction("ark_no_temple")
        visited = {pos}
        squares: list[Pos] = []
        for step, letter in enumerate(letters, start=1):
            side = SIDE_INDEX[letter]
            nxt = neighbour(pos, side)
            if nxt not in self._cells:
                raise IllegalAction("ark_off_board", step=step)
            home = nxt == start and step == len(letters) and rules.ark_may_end_on_start
            if nxt in visited and not home:
                raise IllegalAction("ark_revisit", step=step)
            if rules.ark_towards_temples:
                dx, dy = nxt[0] - pos[0], nxt[1] - pos[1]
                targets = [t for t in targets if _approaches(pos, dx, dy, t)]
                if not targets:
                    raise IllegalAction("ark_not_towards_temple", step=step)
            pos = nxt
            visited.add(pos)
            squares.append(pos)
        return squares

    def _ark_bonus(self, squares: list[Pos]) -> int:
        """The mover's points for ending the move on a temple tile (edition "de")."""
        return self.rules.ark_temple_points if self._cells[squares[-1]].tile.temple else 0

    def _ark_points(self, squares: list[Pos]) -> tuple[int, ...]:
        """One point per piece on each entered square, to the piece's owner; and the mover's
        bonus for ending on a temple."""
        points = [0] * self._players
        for square in squares:
            for piece in self._board[square].pieces:
                points[piece.seat] += 1
        points[self._current] += self._ark_bonus(squares)
        return tuple(points)

    def _apply_move_ark(self, action: MoveArk) -> tuple[Event, ...]:
        self._require_phase("deploy", "move_ark")
        squares = self._ark_walk(action.path)
        start = self._ark
        assert start is not None
        points, bonus = self._move_ark(squares)
        path = action.path.upper()
        events: list[Event] = [ArkMoved(self._current, path, start, tuple(squares), points, bonus)]
        self._after_action(events)
        return tuple(events)

    def _move_ark(self, squares: list[Pos]) -> tuple[tuple[int, ...], int]:
        """Move the Ark through ``squares`` (a legal path) and give its points; returns
        them and the mover's bonus."""
        points = self._ark_points(squares)
        self._ark = squares[-1]
        self._gain(list(points), "ark")
        return points, self._ark_bonus(squares)

    def _apply_pass(self) -> tuple[Event, ...]:
        self._require_phase("deploy", "pass")
        events: list[Event] = [Passed(self._current)]
        self._after_action(events)
        return tuple(events)

    def _apply_place_ark(self, action: PlaceArk) -> tuple[Event, ...]:
        self._require_phase("place_ark", "place_ark")
        pos = (action.x, action.y)
        if pos not in self._completed_city_squares():
            raise IllegalAction("ark_not_in_city", x=action.x, y=action.y)
        self._ark = pos
        bonus = self.rules.first_ark_points
        if bonus:
            self._gain([bonus if s == self._current else 0 for s in range(self._players)], "ark")
        events: list[Event] = [ArkPlaced(self._current, action.x, action.y, bonus)]
        self._end_turn(events)
        return tuple(events)

    # ------------------------------------------------------------------ the turn's steps

    def _after_action(self, events: list[Event] | None) -> None:
        """Score what the new tile completed, then place the Ark or end the turn.

        With ``events`` None (:meth:`apply_trusted`) no event is made."""
        assert self._last is not None
        cell, f = self._last, self._features
        find, open_, kind = f.find, f.open, f.kind
        completed: list[int] = []
        for index in cell.lay.closable:
            root = find(cell.base + index)
            if not open_[root] and root not in completed:
                completed.append(root)
        if completed or cell.pos in self._temple_zone:
            self._score_completed(cell, completed, events)
        if self._ark is None and any(kind[root] == "city" for root in completed):
            self._phase = "place_ark"
            return
        self._end_turn(events)

    def _score_completed(
        self, cell: _Cell, completed: list[int], events: list[Event] | None
    ) -> None:
        """Score the roads and cities in ``completed`` and the temples ``cell`` completed."""
        kind = self._features.kind
        # Temples after the roads and cities the edition scores first, so pieces those
        # returned no longer count for them; the rest (en1: cities) after the temples.
        early = self.rules.scored_before_temples
        for root in completed:
            if kind[root] in early:
                self._score_feature(root, True, events)
        temples = self._temples
        if cell.pos in self._temple_zone:
            for pos in (cell.pos, *neighbours(cell.pos)):
                if pos in temples and self.temple_complete(*pos):
                    self._score_temple(pos, True, events)
        for root in completed:
            if kind[root] not in early:
                self._score_feature(root, True, events)

    def _score_feature(
        self, root: int, complete: bool, events: list[Event] | None, segments: int | None = None
    ) -> None:
        """Score a feature and add what happened to ``events`` (unless None); ``segments``
        (unfinished roads and cities in an edition that counts them) replaces the count of
        tiles."""
        f = self._features
        pieces = f.pieces[root]
        if events is None and not pieces:
            return  # nobody scores and no piece goes home: nothing changes
        kind = f.kind[root]
        tiles = len(f.squares[root])
        extras = f.extras[root]
        winners = majority([p.seat for p in pieces])
        if kind == "field":
            value = 2 * max(0, extras - f.wolves[root])
        elif complete and kind == "city":
            value = 2 * (tiles + extras)
        else:
            value = (tiles if segments is None else segments) + extras
        points = [0] * self._players
        doubled: tuple[int, ...] = ()
        for seat in winners:
            points[seat] = value
        if complete and kind == "city":
            doubled = tuple(sorted({p.seat for p in pieces if p.prophet and p.seat in winners}))
            for seat in doubled:
                points[seat] = 2 * value
        returned: tuple[PieceRef, ...] = ()
        if complete and pieces:
            returned = tuple(pieces)
            self._return_pieces(root)
        self._gain(points, kind)
        if events is None:
            return
        events.append(
            FeatureScored(
                feature=kind,
                complete=complete,
                squares=tuple(sorted(f.squares[root], key=lambda p: (p[1], p[0]))),
                tiles=tiles,
                extras=extras,
                wolves=f.wolves[root],
                points=tuple(points),
                winners=winners,
                doubled=doubled,
                returned=returned,
                segments=segments,
            )
        )

    def _score_temple(self, pos: Pos, complete: bool, events: list[Event] | None) -> None:
        """Score the temple on ``pos``; an unfinished one without pieces around is not
        reported in ``events``."""
        board = self._board
        squares = [p for p in (pos, *neighbours(pos)) if p in board]
        seats = [piece.seat for p in squares for piece in board[p].pieces]
        if not seats and (events is None or not complete):
            return  # nobody scores and no piece goes home
        winners = majority(seats)
        value = TEMPLE_POINTS if complete else TEMPLE_POINTS_UNFINISHED
        ark_doubled = complete and self._ark == pos and self.rules.temple_ark_factor > 1
        if ark_doubled:
            value *= self.rules.temple_ark_factor
        points = [value if seat in winners else 0 for seat in range(self._players)]
        self._gain(points, "temple")
        returned: tuple[PieceRef, ...] = ()
        if complete:
            # A follower on the temple itself ("de") goes home once its temple is scored.
            pieces = board[pos].pieces
            returned = tuple(p for p in pieces if p.port == TEMPLE)
            for piece in returned:
                self._on_board[piece.seat] -= 1
            if returned:
                self._set_pieces(pos, tuple(p for p in pieces if p.port != TEMPLE))
        if events is None:
            return
        events.append(
            FeatureScored(
                feature="temple",
                complete=complete,
                squares=(pos, *sorted(squares[1:], key=lambda p: (p[1], p[0]))),
                tiles=len(squares),
                extras=0,
                wolves=0,
                points=tuple(points),
                winners=winners,
                returned=returned,
                ark_doubled=ark_doubled,
            )
        )

    def _end_turn(self, events: list[Event] | None) -> None:
        self._history.append(tuple(self._scores))
        self._current = (self._current + 1) % self._players
        self._draw(events)

    def _fits_somewhere(self, tile_id: str) -> bool:
        """Whether ``tile_id`` fits on some square of the frontier (without listing where)."""
        mask = _FIT_MASK[tile_id]
        for code in self._frontier.values():  # noqa: SIM110 (a loop is faster than any())
            if mask >> code & 1:
                return True
        return False

    def _draw(self, events: list[Event] | None) -> None:
        """Draw for the current player, discarding tiles that fit nowhere; or end the game."""
        deck = self._deck
        while deck:
            tile = deck.pop(0)
            if self._fits_somewhere(tile):
                self._tile = tile
                self._phase = "place_tile"
                self._turn += 1
                if events is not None:
                    events.append(TurnStarted(self._current, tile, self._turn, len(deck)))
                return
            if events is not None:
                events.append(TileDiscarded(self._current, tile))
        self._tile = None
        self._final_scoring(events)

    def _final_scoring(self, events: list[Event] | None) -> None:
        if events is not None:
            events.append(FinalScoring())
        f = self._features
        for pos in self._temples:
            if not self.temple_complete(*pos):
                self._score_temple(pos, False, events)
        by_segment = self.rules.unfinished_counts == "segments"
        if not by_segment:
            if events is None:
                # Without events the order does not matter: these points only add up (no
                # piece goes home), so each claimed feature is scored as it comes.
                scored: set[int] = set()
                for root in self._piece_roots():
                    if root not in scored and not f.is_complete(root):
                        scored.add(root)
                        self._score_feature(root, False, None)
            else:
                # The same order as the walk below, found from the pieces: each feature
                # where it first shows (its lowest node), roads and cities before fields.
                for _, root in sorted(self._unfinished_claims()):
                    self._score_feature(root, False, events)
            self._phase = "over"
            if events is not None:
                events.append(GameOver(tuple(self._scores), self._leaders()))
            return
        segments: dict[int, int] = {}
        for cell in self._cells.values():
            for index in range(len(cell.tile.segments)):
                root = f.find(cell.base + index)
                segments[root] = segments.get(root, 0) + 1
        for kinds in (("road", "city"), ("field",)):
            seen: set[int] = set()
            for cell in self._cells.values():
                for index, segment in enumerate(cell.tile.segments):
                    if segment.kind not in kinds:
                        continue
                    root = f.find(cell.base + index)
                    if root in seen or not f.pieces[root] or f.is_complete(root):
                        continue
                    seen.add(root)
                    count = segments[root] if segment.kind != "field" else None
                    self._score_feature(root, False, events, segments=count)
        self._phase = "over"
        if events is not None:
            events.append(GameOver(tuple(self._scores), self._leaders()))

    def _unfinished_claims(self) -> list[tuple[tuple[int, int], int]]:
        """Each unfinished road, city or field with pieces on it, once, as
        ``((0 for a road or city, 1 for a field; its lowest node), root)``."""
        f, cells = self._features, self._cells
        find = f.find
        found: dict[int, tuple[int, int]] = {}
        for root in self._piece_roots():
            if root in found or f.is_complete(root):
                continue
            # Nodes are numbered in the order of the board walk (tile by tile, segment by
            # segment), so the feature shows first at its lowest node.
            first = min((cells[square] for square in f.squares[root]), key=_base)
            lowest = next(
                first.base + index
                for index in range(len(first.tile.segments))
                if find(first.base + index) == root
            )
            found[root] = (1 if f.kind[root] == "field" else 0, lowest)
        return [(key, root) for root, key in found.items()]

    def _piece_roots(self) -> Iterator[int]:
        """The root of the road, city or field under each piece on the board, in board
        order (repeats included; a piece on a temple holds none of them: edition "de")."""
        find, cells = self._features.find, self._cells
        for pos, placed in self._board.items():
            if not placed.pieces:
                continue
            cell = cells[pos]
            for piece in placed.pieces:
                if piece.port != TEMPLE:
                    yield find(cell.base + cell.tile.port_segment[PORT_INDEX[piece.port]])

    # ------------------------------------------------------------------ board mechanics

    def _lay(self, tile: RotatedTile, pos: Pos) -> _Cell:
        """Put ``tile`` on ``pos`` and join its segments to the neighbours' (no checks)."""
        f = self._features
        base = len(f.parent)
        lay = _LAYOUTS.get(id(tile)) or _layout(tile)
        f.add_all(lay.columns, pos)
        cell = _Cell(pos, tile, base, lay)
        frontier, cells, union, open_ = self._frontier, self._cells, f.union, f.open
        x, y = pos
        for side, other_pos, (m0, m1, m2, closing, need_bits) in zip(
            _SIDES, ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)), lay.sides, strict=True
        ):
            other = cells.get(other_pos)
            if other is None:
                frontier[other_pos] = frontier.get(other_pos, 0) + need_bits
                continue
            t0, t1, t2 = other.lay.seen_from[side]
            # The three ports of the side, each joined to the port it touches; a pair already
            # joined (a field or city along the whole side) is not joined again.
            other_base = other.base
            middle = union(base + m0, other_base + t0)
            if m1 != m0 or t1 != t0:
                middle = union(base + m1, other_base + t1)
            if (m2 != m1 or t2 != t1) and (m2 != m0 or t2 != t0):
                union(base + m2, other_base + t2)  # a field: never joined to a road or city
            if closing:
                # The edge is closed on both sides: the joined road or city lost two open ends.
                open_[middle] -= 2
        frontier.pop(pos, None)
        if tile.temple:
            self._temples = (*self._temples, pos)
            self._temple_zone = self._temple_zone.union((pos, *neighbours(pos)))
        if self._claims:
            self._claims = {r: c for r, c in self._claims.items() if pos not in c[1]}
        cells[pos] = cell
        self._board[pos] = PlacedTile(tile.id, tile.rotation, x, y)
        return cell

    def _add_piece(self, cell: _Cell, root: int, piece: PieceRef) -> None:
        # Lists and sets of the features are replaced, never changed: copies share them.
        f = self._features
        f.pieces[root] = (*f.pieces[root], piece)
        self._claims.pop(root, None)
        self._set_pieces(cell.pos, (*self._board[cell.pos].pieces, piece))

    def _return_pieces(self, root: int) -> None:
        board = self._board
        for piece in self._features.pieces[root]:
            pos = (piece.x, piece.y)
            pieces = list(board[pos].pieces)
            pieces.remove(piece)
            self._set_pieces(pos, tuple(pieces))
            if piece.prophet:
                self._prophets[piece.seat] = "box"
            else:
                self._on_board[piece.seat] -= 1
        self._features.pieces[root] = ()
        self._claims.pop(root, None)

    def _set_pieces(self, pos: Pos, pieces: tuple[PieceRef, ...]) -> None:
        old = self._board[pos]
        self._board[pos] = PlacedTile(old.id, old.rotation, old.x, old.y, pieces)

    def _gain(self, points: list[int], category: str) -> None:
        for seat, gained in enumerate(points):
            if gained:
                self._scores[seat] += gained
                self._breakdown[seat][category] += gained

    def _completed_city_squares(self) -> tuple[Pos, ...]:
        """The squares of the cities that the last tile completed, in reading order."""
        if self._last is None:
            return ()
        cell, f = self._last, self._features
        squares: set[Pos] = set()
        for index, segment in enumerate(cell.tile.segments):
            root = f.find(cell.base + index)
            if segment.kind == "city" and f.open[root] == 0:
                squares |= f.squares[root]
        return tuple(sorted(squares, key=lambda p: (p[1], p[0])))

    # ------------------------------------------------------------------ search support
    # Read-only queries and fast paths for the computer players (engine.ai). None of them
    # changes the game, and none lets a player see more than the rules show them.

    def sample_action(self, rng: Rng) -> Action:
        """One legal action, drawn without listing them all (for playouts).

        Not uniform: a random square of the frontier where the tile fits and a random
        rotation; after the tile, a deploy, an Ark move or a pass. Every legal action can be
        drawn. The game is not changed (apart from the speed-ups below, nothing is kept).
        """
        if self._phase == "place_tile":
            assert self._tile is not None
            # From a random square of the frontier on, the first where the tile fits; the
            # frontier is read in place (islice), not copied: it holds some 45 squares.
            frontier = self._frontier
            table = _BY_CODE[self._tile]
            found = start = rng.below(len(frontier))
            for code in islice(frontier.values(), start, None):
                if table[code]:
                    break
                found += 1
            else:
                found = 0
                for code in frontier.values():
                    if table[code]:
                        break
                    found += 1
                else:
                    raise AssertionError("a drawn tile always fits somewhere")
            x, y = next(islice(frontier, found, None))
            return PlaceTile(x, y, rng.choice(table[frontier[(x, y)]]))
        if self._phase == "deploy":
            if self._ark is not None and rng.below(4) == 0:
                path = self._sample_ark_path(rng)
                if path is not None:
                    return MoveArk(path)
            options = self._deploy_options()
            options.append(_PASS)
            return rng.choice(options)
        if self._phase == "place_ark":
            return rng.choice(self.legal_actions())
        raise IllegalAction("game_over")

    def deploys(self) -> list[Action]:
        """In ``deploy``: the legal actions other than moving the Ark (every deploy, then
        Pass), listed by the rules without walking every path of the Ark; else ``[]``."""
        if self._phase != "deploy":
            return []
        actions = self._deploy_options()
        actions.append(_PASS)
        return actions

    def ark_paths(self) -> list[str]:
        """Every path the Ark may take now (in ``deploy``, once it is on the board)."""
        if self._phase != "deploy" or self._ark is None:
            return []
        return self._ark_paths()

    def _sample_ark_path(self, rng: Rng) -> str | None:
        """A legal path of the Ark: a random walk the rules accept, or (now and then, and
        whenever walks fail) one drawn from the full list, so that every path can come;
        None when the Ark cannot move (edition "de": no temple to head for)."""
        if rng.below(16):
            # A walk never enters a tile twice, which is all the rules ask but for
            # edition "de" (every step towards one temple): only there is it checked.
            checked = self.rules.ark_towards_temples
            for _ in range(4):
                path = self._random_walk(rng)
                if path:
                    if checked:
                        try:
                            self._ark_walk(path)
                        except IllegalAction:
                            continue
                    return path
        paths = self._ark_paths()
        return rng.choice(paths) if paths else None

    def _random_walk(self, rng: Rng) -> str:
        assert self._ark is not None
        cells = self._cells
        pos = self._ark
        visited = {pos}
        path = ""
        length = 1 + rng.below(MAX_ARK_STEPS)
        while len(path) < length:
            x, y = pos
            steps = [
                (letter, nxt)
                for letter, nxt in (
                    ("N", (x, y - 1)),
                    ("E", (x + 1, y)),
                    ("S", (x, y + 1)),
                    ("W", (x - 1, y)),
                )
                if nxt in cells and nxt not in visited
            ]
            if not steps:
                break
            letter, pos = rng.choice(steps)
            visited.add(pos)
            path += letter
        return path

    def determinise(self, seat: int, rng: Rng) -> Game:
        """A playable copy in which what ``seat`` cannot know is dealt anew at random: the
        order of the tiles still to come (which tiles they are is known to all; the tile in
        hand is face up). The seed, which would give the order away, is dropped.

        Every seat sees the same in this game, so ``seat`` changes nothing; it is there so
        that every engine's ``determinise`` is called alike."""
        twin = self.copy()
        # Sorted first, so that the deal depends on nothing ``seat`` cannot see.
        twin._deck.sort()
        rng.shuffle(twin._deck)
        twin._seed = 0
        twin._rng = Rng(0)
        twin._view = False
        return twin

    def tiles_to_come(self) -> tuple[str, ...]:
        """The tiles still in the deck, sorted (public: everyone can count them)."""
        return tuple(sorted(self._deck))

    def frontier(self) -> dict[Pos, tuple[str | None, str | None, str | None, str | None]]:
        """Every empty square next to a tile, with the edge each side must match (``"C"``,
        ``"R"``, ``"F"``, or None where no tile touches), sides in the order N, E, S, W."""
        return {pos: _NEEDS[code] for pos, code in self._frontier.items()}

    @staticmethod
    def rotations_fitting(tile_id: str, needs: tuple[str | None, ...]) -> tuple[int, ...]:
        """The rotations of ``tile_id`` that meet ``needs`` (as :meth:`frontier` gives)."""
        return _fitting_rotations(tile_id, needs)

    def claimed_features(self) -> list[ClaimedFeature]:
        """Every road, city and field that has pieces on it (complete ones are scored and
        emptied at once, so these are unfinished), each once, in board order. ``holes`` are
        the empty squares where a tile would continue the road or city (none for fields)."""
        found: list[ClaimedFeature] = []
        seen: set[int] = set()
        for root in self._piece_roots():
            if root not in seen:
                seen.add(root)
                found.append(self._claimed(root))
        return found

    def feature_at(self, x: int, y: int, port: str) -> ClaimedFeature:
        """The feature holding ``port`` of the tile at (x, y), as :meth:`claimed_features`
        gives it (with or without pieces)."""
        cell = self._cells[(x, y)]
        return self._claimed(
            self._features.find(cell.base + cell.tile.port_segment[PORT_INDEX[port]])
        )

    def _claimed(self, root: int) -> ClaimedFeature:
        known = self._claims.get(root)
        if known is not None:
            return known[0]
        claimed = self._claim(root)
        # A tile next to one of its squares may join it, one next to a hole changes what
        # that hole needs: those are the squares where a tile changes what was found.
        near: set[Pos] = set()
        add = near.update
        for x, y in self._features.squares[root]:
            add(((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)))
        for x, y in claimed.holes:
            add(((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)))
        self._claims[root] = (claimed, near)
        return claimed

    def _claim(self, root: int) -> ClaimedFeature:
        f = self._features
        kind = f.kind[root]
        holes: list[Pos] = []
        needs: list[tuple[str | None, ...]] = []
        if kind != "field":
            cells, frontier, find = self._cells, self._frontier, f.find
            for square in f.squares[root]:
                mine = cells[square]
                edges, ports, base = mine.tile.edges, mine.tile.port_segment, mine.base
                x, y = square
                for side, other in enumerate(((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))):
                    if (
                        edges[side] != "F"
                        and other in frontier
                        and other not in holes
                        and find(base + ports[3 * side + 1]) == root
                    ):
                        holes.append(other)
                        needs.append(_NEEDS[frontier[other]])
        return ClaimedFeature(
            kind=kind,
            tiles=len(f.squares[root]),
            extras=f.extras[root],
            wolves=f.wolves[root],
            open=f.open[root],
            pieces=tuple(f.pieces[root]),
            holes=tuple(holes),
            needs=tuple(needs),
        )

    def open_temples(self) -> list[tuple[Pos, int, tuple[int, ...]]]:
        """Every temple not complete yet: its square, how many of its four neighbours are
        placed, and the seats of the pieces that count for it (one entry per piece)."""
        board = self._board
        found = []
        for pos in self._temples:
            around = [board[n] for n in neighbours(pos) if n in board]
            if len(around) == 4:
                continue
            seats = tuple(p.seat for c in (board[pos], *around) for p in c.pieces)
            found.append((pos, len(around), seats))
        return found

    # ------------------------------------------------------------------ saving

    def to_json(self) -> str:
        """The whole state as compact JSON; :meth:`from_json` restores it exactly."""
        pieces = [
            [p.seat, p.x, p.y, p.port, p.prophet]
            for placed in self._board.values()
            for p in placed.pieces
        ]
        state: dict[str, Any] = {
            "game": "covenant",
            "format": SAVE_FORMAT,
            "players": self._players,
            "edition": self._edition,
            "length": self._length,
            "seed": self._seed,
            "rng": self._rng.state,
            "deck": self._deck,
            "tile": self._tile,
            "phase": self._phase,
            "current": self._current,
            "turn": self._turn,
            "placements": [
                [c.tile.id, c.pos[0], c.pos[1], c.tile.rotation] for c in self._cells.values()
            ],
            "last": list(self._last.pos) if self._last else None,
            "pieces": pieces,
            "prophets": self._prophets,
            "ark": list(self._ark) if self._ark else None,
            "scores": self._scores,
            "breakdown": self._breakdown,
            "history": self._history,
        }
        if self._view:
            state["view"] = True
        return json.dumps(state, separators=(",", ":"), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Game:
        """Restore a game saved with :meth:`to_json`; raises ``ValueError`` if it is damaged."""
        try:
            state = json.loads(text)
            return cls._from_state(state)
        except (KeyError, TypeError, IndexError, AttributeError) as exc:
            raise ValueError(f"not a saved game of The Ark of the Covenant: {exc!r}") from None

    @classmethod
    def _from_state(cls, state: dict[str, Any]) -> Game:
        if state.get("game") != "covenant" or state.get("format") != SAVE_FORMAT:
            raise ValueError("not a saved game of The Ark of the Covenant (format 1)")
        game = cls()
        players = state["players"]
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"bad player count {players!r}")
        game._players = players
        # Saves from before editions were kept are of the default edition.
        game._edition = _edition_named(state.get("edition", DEFAULT_EDITION)).key
        # And from before lengths were, of all the tiles.
        game._length = _length_named(state.get("length", DEFAULT_LENGTH))
        game._seed = state["seed"]
        game._rng = Rng.from_state(int(state["rng"]))
        game._deck = [str(t) for t in state["deck"]]
        if any(t not in TILES for t in game._deck):
            raise ValueError("unknown tile in the deck")
        game._tile = state["tile"]
        if state["phase"] not in ("place_tile", "deploy", "place_ark", "over"):
            raise ValueError(f"bad phase {state['phase']!r}")
        game._phase = state["phase"]
        game._current = int(state["current"]) % players
        game._turn = int(state["turn"])
        for index, (tile_id, x, y, rotation) in enumerate(state["placements"]):
            pos = (int(x), int(y))
            if index == 0:
                if (tile_id, pos, rotation) != (START_TILE, (0, 0), 0):
                    raise ValueError("the start tile must come first, at (0, 0)")
            else:
                code = game._frontier.get(pos)
                if code is None or rotation not in _rotations_by_code(tile_id)[code]:
                    raise ValueError(f"tile {tile_id} does not fit at {pos}")
            game._lay(TILES[tile_id].rotated(rotation), pos)
        game._last = game._cells[tuple(state["last"])] if state["last"] else None
        game._on_board = [0] * players
        f = game._features
        for seat, x, y, port, prophet in state["pieces"]:
            cell = game._cells[(x, y)]
            if port == TEMPLE:
                if prophet or not cell.tile.temple or not game.rules.follower_on_temple:
                    raise ValueError(f"no piece can stand on a temple at {(x, y)}")
                on_temple = PieceRef(seat, x, y, TEMPLE)
                game._set_pieces((x, y), (*game._board[(x, y)].pieces, on_temple))
                game._on_board[seat] += 1
                continue
            root = f.find(cell.base + cell.tile.port_segment[PORT_INDEX[port]])
            game._add_piece(cell, root, PieceRef(seat, x, y, port, bool(prophet)))
            if not prophet:
                game._on_board[seat] += 1
        game._prophets = [str(p) for p in state["prophets"]]
        game._ark = tuple(state["ark"]) if state["ark"] else None
        game._scores = [int(s) for s in state["scores"]]
        game._breakdown = [{k: int(d[k]) for k in CATEGORIES} for d in state["breakdown"]]
        game._history = [tuple(int(s) for s in row) for row in state["history"]]
        if not (len(game._prophets) == len(game._scores) == len(game._breakdown) == players):
            raise ValueError("per-seat lists do not match the player count")
        game._view = bool(state.get("view", False))
        return game

    def view(self, seat: int | None = None) -> Game:
        """What ``seat`` (or, with ``None``, everyone) may see: the same game, except that the
        tiles still to come are known only as a set, not in their order, and the seed that
        would give that order away is gone. Nothing else is hidden in this game, so every
        seat sees the same. A view cannot be played on (:meth:`apply` refuses)."""
        seen = self.copy()
        seen._deck = sorted(self._deck)
        seen._seed = 0
        seen._rng = Rng(0)
        seen._view = True
        return seen

    def copy(self) -> Game:
        """An independent game in the same state, copied slot by slot (search copies games
        thousands of times a move; the JSON round trip is ten times slower).

        Every slot in ``__slots__`` is copied: those named in :data:`_SLOT_COPIERS` by their
        copier, any other by value when it is immutable (numbers, strings, None, tuples of
        those) and with ``copy.deepcopy`` otherwise, so a slot added later is never shared
        between two games by mistake (``tests/ai`` checks that a copy equals a JSON round trip).
        """
        cls = type(self)
        new = cls.__new__(cls)
        # A class is hashable; mypy misreads a type[...] against Hashable (python/mypy#20409).
        shared, copied, checked = _copy_plan(cls)  # type: ignore[arg-type]  # mypy#20409
        for name in shared:
            setattr(new, name, getattr(self, name))
        for name, copier in copied:
            setattr(new, name, copier(getattr(self, name)))
        for name in checked:
            value = getattr(self, name)
            setattr(new, name, value if _immutable(value) else deepcopy(value))
        return new

    def __repr__(self) -> str:
        return (
            f"<Game players={self._players} turn={self._turn} phase={self._phase} "
            f"current={self._current} scores={self._scores}>"
        )
