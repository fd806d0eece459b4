"""The choices of each step of a turn, worked out from the engine (no Discord here).

The buttons, menus and typed commands' autocompletes all offer the same choices, numbered
and named as on the pictures, so they are computed once, here.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from bot.games.covenant.spots import spot_names
from bot.panels import Refusal, Text
from engine.covenant import TEMPLE, TILES, Deploy, Game, MoveArk, PlaceTile
from engine.covenant.geometry import PORT_NAMES, SIDE_INDEX, Pos, neighbour
from engine.covenant.notation import parse_square, square_name
from engine.protocol import to_act
from render.covenant.board import deploy_ports, spot_letter
from render.covenant.window import numbered_squares
from render.i18n import ListOf


@dataclass(frozen=True, slots=True)
class SquareChoice:
    """A square where the tile in hand fits, numbered as on the board picture."""

    number: int
    square: str
    x: int
    y: int
    rotations: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DeployChoice:
    """A free feature of the new tile where a follower (or the Prophet) may go."""

    port: str
    prophet: bool
    #: What the menu says: the letter and the spot's name ("B · city to the south").
    label: Text
    #: The letter that marks this feature on the picture (A, B, ...).
    letter: str = ""
    #: The spot's name alone ("city to the south"), unique among the tile's spots.
    name: Text | None = None
    #: What the spot is: ``city``, ``road``, ``field`` or ``temple``.
    kind: str = ""

    @property
    def value(self) -> str:
        """A compact id for a menu option (the port and whether it is the Prophet)."""
        return f"{self.port}:{int(self.prophet)}"

    @property
    def typed(self) -> str:
        """What a player types for it: the letter, with ``:P`` for the Prophet."""
        return f"{self.letter}:P" if self.prophet else self.letter


@dataclass(frozen=True, slots=True)
class ArkChoice:
    path: str
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ArkDestination:
    """A square the Ark can end its move on, by the route there best for the player."""

    square: Pos
    path: str
    points: tuple[int, ...]


def square_choices(game: Game) -> list[SquareChoice]:
    """Every square where the tile in hand fits, numbered as every picture numbers them."""
    fits = game.placements()
    return [
        SquareChoice(number, square_name(pos), pos[0], pos[1], fits[pos])
        for number, pos in enumerate(numbered_squares(game), start=1)
    ]


def placed(game: Game, x: int, y: int, rotation: int) -> Game:
    """The game as it would be with the tile in hand on (x, y) turned ``rotation`` (``game``
    is not changed); a refusal if it does not fit there."""
    if rotation not in game.placements().get((x, y), ()):
        raise Refusal("covenant.turn.no_such_spot")
    after = game.copy()
    after.apply(PlaceTile(x, y, rotation))
    return after


def find_square(game: Game, text: str) -> SquareChoice | None:
    """Where the tile fits named ``text``: its square (``M12``) or its number on the picture
    (``3``)."""
    text = text.strip().upper()
    try:
        pos = parse_square(text)
    except ValueError:
        pos = None
    for choice in square_choices(game):
        if (choice.x, choice.y) == pos or text == str(choice.number):
            return choice
    return None


def deploy_choices(game: Game) -> list[DeployChoice]:
    """Every legal place for a piece on the new tile, lettered as on the picture."""
    if game.phase != "deploy" or game.last_placed is None:
        return []
    view = game.board[game.last_placed].view
    names = dict(zip((s.ports[0] for s in view.segments), spot_names(view.segments), strict=True))
    letters = {port: spot_letter(i) for i, port in enumerate(deploy_ports(game))}
    choices = []
    for a in game.legal_actions():
        if not isinstance(a, Deploy):
            continue
        if a.port == TEMPLE:
            name, kind = Text("covenant.spot.temple"), "temple"
        else:
            segment = view.segment_at(a.port)
            name, kind = names[segment.ports[0]], segment.kind
        shown = Text("covenant.spot.prophet", spot=name) if a.prophet else name
        label = Text("covenant.turn.deploy_option", letter=letters[a.port], spot=shown)
        choices.append(DeployChoice(a.port, a.prophet, label, letters[a.port], name, kind))
    return choices


_LETTER = re.compile(r"^([A-Z])(?:[\s:+-]*(P|PROPHET))?$")
_PORT = re.compile(r"^([A-Z]{1,3})(?::([01]))?$")


def parse_deploy(value: str) -> Deploy:
    """The inverse of :attr:`DeployChoice.value`."""
    port, _, prophet = value.partition(":")
    return Deploy(port, prophet == "1")


def typed_deploy(game: Game, text: str) -> Deploy:
    """What a player typed for ``/covenant follower spot:...``: the letter on the picture
    (``A``; ``A:P`` for the Prophet), or a compass point of the tile (``SSE``, ``E:1``).
    A letter that is no free spot is refused with the letters that are."""
    typed = text.strip().upper()
    choices = deploy_choices(game)
    letter = _LETTER.match(typed)
    if letter:
        prophet = letter.group(2) is not None
        for choice in choices:
            if choice.letter == letter.group(1) and choice.prophet == prophet:
                return Deploy(choice.port, prophet)
        if not choices:
            raise Refusal("covenant.turn.nowhere_to_deploy")
        raise Refusal(
            "covenant.turn.no_such_letter",
            letter=typed[:12],
            letters=tuple(dict.fromkeys(c.typed for c in choices)),
        )
    port = _PORT.match(typed)
    if port and port.group(1) in PORT_NAMES:
        return Deploy(port.group(1), port.group(2) == "1")
    if not choices:
        raise Refusal("covenant.turn.nowhere_to_deploy")
    raise Refusal(
        "covenant.turn.no_such_letter",
        letter=typed[:12],
        letters=tuple(dict.fromkeys(c.typed for c in choices)),
    )


def deploy_situation(game: Game, names: tuple[str, ...] | list[str]) -> list[Text]:
    """What the player may put out now and why a spot of the new tile is not offered:
    followers and Prophet left, the spots someone already holds, the temple."""
    if game.phase != "deploy" or game.last_placed is None:
        return []
    seat = to_act(game)
    x, y = game.last_placed
    view = game.board[game.last_placed].view
    left = game.followers_left(seat)
    prophet = game.prophet_state(seat)
    lines = [
        Text(
            "covenant.turn.pieces",
            followers=Text("covenant.turn.followers_left", count=left),
            prophet=Text(f"covenant.turn.prophet_{prophet}"),
        )
    ]
    free_city = any(c.prophet for c in deploy_choices(game))
    for segment, name in zip(view.segments, spot_names(view.segments), strict=True):
        owners = sorted({p.seat for p in game.feature(x, y, segment.first_port).pieces})
        if owners:
            # Said to the player on turn alone: "you" for their own pieces, never their name.
            others = [o for o in owners if o != seat]
            lines.append(
                Text(
                    "covenant.turn.spot_taken",
                    spot=name,
                    mine="yes" if seat in owners else "no",
                    owners=ListOf(tuple(names[o] for o in others), "standard"),
                    count=len(others),
                )
            )
    if view.temple:
        lines.append(Text("covenant.turn.no_temple"))
    if prophet == "hand" and not free_city:
        lines.append(Text("covenant.turn.prophet_no_city"))
    return lines


def tile_words(tile_id: str) -> Text:
    """What a tile shows, in words: "a city on 2 sides, a road, an oasis"."""
    design = TILES[tile_id]
    parts: list[Text] = []
    cities = Counter(len(s.sides) for s in design.segments if s.kind == "city")
    for sides, count in sorted(cities.items(), reverse=True):
        parts.append(Text("covenant.tile.city", count=count, sides=sides))
    roads = [s for s in design.segments if s.kind == "road"]
    through = sum(1 for r in roads if len(r.sides) == 2)
    ends = sum(1 for r in roads if len(r.sides) == 1)
    if through:
        parts.append(Text("covenant.tile.road", count=through))
    if ends:
        parts.append(Text("covenant.tile.road_ends", count=ends))
    if design.temple:
        parts.append(Text("covenant.tile.temple"))
    for key, count in (
        ("scroll", design.scrolls),
        ("oasis", design.oases),
        ("sheep", design.sheep),
        ("wolf", design.wolves),
    ):
        if count:
            parts.append(Text(f"covenant.tile.{key}", count=count))
    if not parts:
        parts.append(Text("covenant.tile.fields_only"))
    return Text("covenant.tile.shows", parts=ListOf(tuple(parts), "standard"))


def ark_paths(game: Game) -> list[str]:
    if game.phase != "deploy":
        return []
    return [a.path for a in game.legal_actions() if isinstance(a, MoveArk)]


def ark_end(game: Game, path: str) -> Pos:
    """Where the Ark stops after ``path`` (letters N, E, S, W, a step each)."""
    assert game.ark is not None
    square = game.ark
    for letter in path:
        square = neighbour(square, SIDE_INDEX[letter])
    return square


def ark_choices(game: Game) -> list[ArkChoice]:
    """Every legal path with what it gives, the best for the current player first."""
    seat = to_act(game)
    choices = [ArkChoice(p, points) for p, points in game.ark_gains()]
    choices.sort(key=lambda c: (-c.points[seat], sum(c.points), len(c.path), c.path))
    return choices


def ark_destinations(game: Game) -> list[ArkDestination]:
    """Every square the Ark can end on this turn, each by the route there best for the
    player: the most points for them beyond what the best-served rival gets, then the most
    for them (the first such route in the order of ``legal_actions()`` if several are as
    good); the best destinations first. Two routes to one square that give the same points
    are the same move."""
    assert game.ark is not None
    seat = to_act(game)

    def worth(points: tuple[int, ...]) -> tuple[int, int]:
        rivals = [p for s, p in enumerate(points) if s != seat]
        return (points[seat] - max(rivals, default=0), points[seat])

    best: dict[Pos, ArkDestination] = {}
    for path, points in game.ark_gains():
        square = ark_end(game, path)
        known = best.get(square)
        if known is None or worth(points) > worth(known.points):
            best[square] = ArkDestination(square, path, points)
    return sorted(best.values(), key=lambda d: (tuple(-v for v in worth(d.points)), d.square))


def gains_text(
    points: tuple[int, ...], names: tuple[str, ...] | list[str], reader: int | None = None
) -> Text:
    """ "Ruth +1, Boaz +2", or a sentence saying nobody scores; said to the player in seat
    ``reader`` alone, their own part is "you +1"."""
    parts = tuple(
        Text("covenant.turn.your_gain", points=p)
        if seat == reader
        else Text("covenant.story.gain", player=names[seat], points=p)
        for seat, p in enumerate(points)
        if p
    )
    if not parts:
        return Text("covenant.turn.nobody_scores")
    return Text("common.list", items=parts)
