"""A third game, defined outside the project: two players take 1 to 3 stones from a pile of
ten in turn; whoever takes the last stone wins. Its engine, picture and front are a few
dozen lines each, and one ``register`` call makes it playable at the real table."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from PIL import Image, ImageDraw

from bot.games import Front, GameRules, Plugin, Seen, TurnRecord
from bot.panels import Button, CommandOption, CommandSpec, Panel, Picture, Play, Refusal, Text
from engine.common.values import Serialisable
from engine.errors import IllegalAction
from render.style import INK, PARCHMENT, encode_png

TEXTS = Path(__file__).parent / "takeaway_texts"

# ---------------------------------------------------------------- engine


@dataclass(frozen=True, slots=True)
class Take(Serialisable):
    count: int
    type: ClassVar[str] = "take"


@dataclass(frozen=True, slots=True)
class Took:
    seat: int
    count: int
    left: int


class Game:
    def __init__(self, players: int = 2, stones: int = 10, current: int = 0, moves: int = 0):
        self.players, self.stones, self.current, self.moves = players, stones, current, moves

    @classmethod
    def new(cls, players: int = 2, seed: int = 0) -> Game:
        return cls(players)

    phase = property(lambda self: "over" if self.stones == 0 else "take")
    current_player = property(lambda self: None if self.stones == 0 else self.current)
    turn = property(lambda self: self.moves + 1)
    winners = property(lambda self: ((self.current - 1) % self.players,) if not self.stones else ())
    scores = property(lambda self: tuple(int(s in self.winners) for s in range(self.players)))

    def legal_actions(self) -> list[Take]:
        return [Take(n) for n in (1, 2, 3) if n <= self.stones]

    def apply(self, action: Any, seat: int | None = None) -> tuple[Took, ...]:
        if seat is not None and seat != self.current_player:
            raise IllegalAction("not_your_turn")
        if action not in self.legal_actions():
            raise IllegalAction("too_many")
        seat, self.stones = self.current, self.stones - action.count
        self.current, self.moves = (self.current + 1) % self.players, self.moves + 1
        return (Took(seat, action.count, self.stones),)

    def to_json(self) -> str:
        return json.dumps([self.players, self.stones, self.current, self.moves])

    @classmethod
    def from_json(cls, text: str) -> Game:
        return cls(*json.loads(text))

    def copy(self) -> Game:
        return Game.from_json(self.to_json())

    def view(self, seat: int | None = None) -> Game:
        return self.copy()  # nothing is hidden


# ---------------------------------------------------------------- picture


def picture(stones: int, *, language: str = "en") -> bytes:
    image = Image.new("RGB", (40 + 30 * 10, 60), PARCHMENT)
    draw = ImageDraw.Draw(image)
    for i in range(stones):
        draw.ellipse([20 + 30 * i, 20, 40 + 30 * i, 40], fill=INK)
    return encode_png(image)


# ---------------------------------------------------------------- the bot's parts


class Rules(GameRules):
    name, min_players, max_players = "takeaway", 2, 2
    new = lambda self, players, seed, options: Game.new(players, seed)  # noqa: E731
    from_json = lambda self, text: Game.from_json(text)  # noqa: E731
    parse_action = lambda self, data: Take(int(data["count"]))  # noqa: E731


class TakeawayFront(Front):
    name = command_group = "takeaway"
    commands = (
        CommandSpec(
            "take",
            Text("takeaway.take"),
            (CommandOption("count", Text("takeaway.count"), kind="integer"),),
        ),
    )

    def title(self) -> Text:
        return Text("takeaway.title")

    def _pile(self, game: Game) -> Picture:
        return Picture("tests.bot.takeaway:picture", (game.stones,), "pile.png")

    def panel(self, seen: Seen) -> Panel:
        game: Game = seen.game
        buttons = tuple(
            Button("take", (str(a.count),), Text("takeaway.take_n", count=a.count))
            for a in game.legal_actions()
        )
        return Panel((Text("takeaway.how_many", left=game.stones),), (self._pile(game),), buttons)

    def on_control(
        self, seen: Seen, control: str, args: Sequence[str], values: Sequence[str]
    ) -> Panel | Play:
        if control != "take" or len(args) != 1 or not args[0].isdigit():
            raise Refusal("table.error.unknown_control")
        return Play(Take(int(args[0])))

    def on_command(self, seen: Seen, command: str, options: Mapping[str, Any]) -> Panel | Play:
        return Play(Take(int(options["count"])))

    def story(self, turns: Sequence[TurnRecord], names: Sequence[str]) -> list[Text]:
        return [
            Text("takeaway.took", player=names[e.seat], count=e.count, left=e.left)
            for turn in turns
            for e in turn.events
        ]

    def board_post(self, view: Game, names: Sequence[str]) -> Panel:
        return Panel((Text("takeaway.left", left=view.stones),), (self._pile(view),))

    def final_post(self, view: Game, names: Sequence[str], *, ended_early: bool) -> Panel:
        if ended_early:
            return Panel((Text("takeaway.left", left=view.stones),))
        return Panel((Text("takeaway.won", player=names[view.winners[0]]),))

    def rules(self, options: Mapping[str, Any]) -> Panel:
        return Panel((Text("takeaway.rules"),))


PLUGIN = Plugin(Rules(), TakeawayFront(), texts=TEXTS)
