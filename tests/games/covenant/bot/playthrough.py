"""A whole game of The Ark of the Covenant played by tapping, as three people would.

Three players whose names hold emoji, Hangul and a flag open a table, join, start, and play
every turn from the board post's "Play my turn" button: sometimes look at another part of
the board, tap a numbered square, sometimes turn the tile or choose another square; then
put a follower on a lettered spot, or choose where the Ark goes and look at its route (and
sometimes go back and place the tile without a piece), or place it without a piece; put
the Ark in the first city.

    python3 -m tests.games.covenant.bot.playthrough --out /tmp/pictures [--seed 7] [--tiles 71]

saves every picture the players got (board posts, the squares, the tile on its square, the
Ark's routes, the city that gets the Ark, the final scoring) and a copy of each scaled to
400 px wide, as a phone shows it. The test suite plays a short game the same way
(test_playthrough.py beside it).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import tempfile
from pathlib import Path

from PIL import Image

from bot.client import TableBot
from engine.common import Rng
from engine.covenant import TILES
from tests.support.bot import CHANNEL, make_bot
from tests.support.harness import Harness, Reply, Sent

PLAYERS = ((21, "😀gracie😀"), (22, "김민준"), (23, "Miriam 🇳🇱"))
PHONE = 400


class Player:
    """Taps through the game and keeps what it saw."""

    def __init__(self, h: Harness, game_id: int, out: Path | None, rng: random.Random) -> None:
        self.h = h
        self.game_id = game_id
        self.out = out
        self.rng = rng
        self.count = 0
        self.seen: list[Sent] = []

    def keep(self, reply: Reply, what: str) -> Sent:
        for sent in reply:
            self.seen.append(sent)
            if self.out is None:
                continue
            for name, data in sent.files:
                self.count += 1
                path = self.out / f"{self.count:04d}-{what}-{name}"
                path.write_bytes(data)
                image = Image.open(io.BytesIO(data))
                small = image.resize(
                    (PHONE, max(1, round(image.height * PHONE / image.width))),
                    Image.Resampling.LANCZOS,
                )
                small.save(self.out / "400" / path.name)
        errors = [r for r in reply.errors]
        assert not errors, errors
        return reply.last

    def ids(self, message: Sent, control: str) -> list[str]:
        """The enabled controls called ``control`` on ``message``."""
        found = []
        for component in message.components:
            parts = (component.custom_id or "").split(":")
            if len(parts) > 3 and parts[3] == control and not component.disabled:
                found.append(component.custom_id or "")
        return found

    async def turn(self, user: int, post: Sent, turn: int) -> Sent:
        """One whole turn from the public post; returns the next public post."""
        h, g, rng = self.h, self.game_id, self.rng
        panel = self.keep(await h.click(user, post, f"ob:{g}:{turn}"), "squares")
        parts = self.ids(panel, "page")
        if parts and rng.random() < 0.5:
            panel = self.keep(await h.click(user, panel, rng.choice(parts)), "part")
        chosen = self.keep(await h.click(user, panel, rng.choice(self.ids(panel, "sq"))), "tile")
        turns = self.ids(chosen, "rot")
        if turns and rng.random() < 0.5:
            chosen = self.keep(await h.click(user, chosen, rng.choice(turns)), "turned")
        if rng.random() < 0.1:  # another square after all
            panel = self.keep(await h.click(user, chosen, self.ids(chosen, "page")[0]), "back")
            chosen = self.keep(
                await h.click(user, panel, rng.choice(self.ids(panel, "sq"))), "tile"
            )
        step = chosen
        bot: TableBot = h.bot  # type: ignore[assignment]
        while True:
            record, game = await bot.service.play.state(g)
            if record.status != "active" or game.turn != turn:
                return [s for s in self.seen if s.kind == "channel_message"][-1]
            if game.phase == "place_ark":
                step = self.keep(
                    await h.click(user, step, rng.choice(self.ids(step, "putark"))), "putark"
                )
                continue
            arks = self.ids(step, "ark")
            puts = self.ids(step, "put")
            roll = rng.random()
            if arks and roll < 0.35:
                menu = rng.choice(arks)
                values = step.component(menu).option_values
                route = self.keep(await h.select(user, step, menu, [rng.choice(values)]), "ark")
                if rng.random() < 0.2:  # back to the tile, then pass
                    back = self.ids(route, "rot") or self.ids(route, "back")
                    step = self.keep(await h.click(user, route, back[0]), "ark-back")
                    step = self.keep(await h.click(user, step, self.ids(step, "pass")[0]), "pass")
                    continue
                step = self.keep(await h.click(user, route, self.ids(route, "go")[0]), "ark-go")
                continue
            if puts and roll < 0.85:
                step = self.keep(await h.click(user, step, rng.choice(puts)), "put")
                continue
            step = self.keep(await h.click(user, step, self.ids(step, "pass")[0]), "pass")


async def play(h: Harness, out: Path | None, seed: int, tiles: int) -> TableBot:
    bot: TableBot = h.bot  # type: ignore[assignment]
    for user, name in PLAYERS:
        h.user(user, name)
    (creator, name), *others = PLAYERS
    deck = None
    if tiles < 71:
        bag = [t.id for t in TILES.values() if not t.start for _ in range(t.count)]
        Rng(seed).shuffle(bag)
        deck = bag[:tiles]
    record = await bot.service.lobby.create_game(
        h.guild_id,
        CHANNEL,
        creator,
        name,
        "covenant",
        options={"deck": deck} if deck else {},
        seed=seed,
        shuffle_seats=False,
    )
    for user, _ in others:
        await h.slash(user, "table join")
    player = Player(h, record.id, out, random.Random(seed))
    if out is not None:
        for rules in (await h.slash(creator, "table rules"),):
            player.keep(rules, "rules")
    started = await h.slash(creator, "table start")
    post = [s for s in started if s.kind == "channel_message"][-1]
    player.keep(started, "start")
    while True:
        record, game = await bot.service.play.state(record.id)
        if record.status != "active":
            break
        user = record.seats[game.current_player].user_id
        assert user is not None
        post = await player.turn(user, post, game.turn)
    assert record.status == "finished"
    return bot


async def main(out: Path, seed: int, tiles: int) -> None:
    (out / "400").mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        async with Harness(await make_bot(Path(folder) / "db.sqlite3"), channel_id=CHANNEL) as h:
            await play(h, out, seed, tiles)
    print(f"pictures in {out}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--tiles", type=int, default=71)
    args = parser.parse_args()
    asyncio.run(main(args.out, args.seed, args.tiles))
