"""The choices of each step of a turn, worked out from the engine (no Discord here).

The buttons, menus and typed commands' autocompletes all offer the same choices, numbered
and named as on the pictures, so they are computed once, here.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.covenant.spots import spot_name
from bot.panels import Text
from engine.covenant import Deploy, Game, MoveArk
from engine.covenant.notation import parse_square, square_name
from render.covenant.board import deploy_ports, spot_letter


@dataclass(frozen=True, slots=True)
class SpotChoice:
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
    label: Text
    #: The letter that marks this feature on the picture (A, B, ...).
    letter: str = ""

    @property
    def value(self) -> str:
        """A compact id for a menu option or an autocomplete value."""
        return f"{self.port}:{int(self.prophet)}"


@dataclass(frozen=True, slots=True)
class ArkChoice:
    path: str
    points: tuple[int, ...]


def spot_choices(game: Game) -> list[SpotChoice]:
    return [
        SpotChoice(number, square_name((x, y)), x, y, rotations)
        for number, ((x, y), rotations) in enumerate(game.placements().items(), start=1)
    ]


def find_spot(game: Game, text: str) -> SpotChoice | None:
    """The spot named ``text``: its square (``M12``) or its number on the picture (``3``)."""
    text = text.strip().upper()
    try:
        pos = parse_square(text)
    except ValueError:
        pos = None
    for spot in spot_choices(game):
        if (spot.x, spot.y) == pos or text == str(spot.number):
            return spot
    return None


def deploy_choices(game: Game) -> list[DeployChoice]:
    if game.phase != "deploy" or game.last_placed is None:
        return []
    view = game.board[game.last_placed].view
    letters = {port: spot_letter(i) for i, port in enumerate(deploy_ports(game))}
    return [
        DeployChoice(
            a.port,
            a.prophet,
            Text(
                "covenant.turn.deploy_option",
                letter=letters[a.port],
                spot=spot_name(view.segment_at(a.port), a.prophet),
            ),
            letters[a.port],
        )
        for a in game.legal_actions()
        if isinstance(a, Deploy)
    ]


def parse_deploy(value: str) -> Deploy:
    """The inverse of :attr:`DeployChoice.value`."""
    port, _, prophet = value.partition(":")
    return Deploy(port, prophet == "1")


def ark_paths(game: Game) -> list[str]:
    if game.phase != "deploy":
        return []
    return [a.path for a in game.legal_actions() if isinstance(a, MoveArk)]


def ark_next_letters(game: Game, path: str) -> set[str]:
    """The letters that extend ``path`` to another legal path."""
    return {p[len(path)] for p in ark_paths(game) if len(p) > len(path) and p.startswith(path)}


def ark_choices(game: Game) -> list[ArkChoice]:
    """Every legal path with what it gives, the best for the current player first."""
    seat = game.current_player
    choices = [ArkChoice(p, game.ark_gain(p)) for p in ark_paths(game)]
    choices.sort(key=lambda c: (-c.points[seat], sum(c.points), len(c.path), c.path))
    return choices


def gains_text(points: tuple[int, ...], names: tuple[str, ...] | list[str]) -> Text:
    """ "Ruth +1, Boaz +2", or a sentence saying nobody scores."""
    parts = tuple(
        Text("covenant.story.gain", player=names[seat], points=p)
        for seat, p in enumerate(points)
        if p
    )
    if not parts:
        return Text("covenant.turn.nobody_scores")
    return Text("common.list", items=parts)
