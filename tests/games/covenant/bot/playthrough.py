"""A whole game of The Ark of the Covenant played by tapping, as three people would.

Three players whose names hold emoji, Hangul and a flag open a table, join, start, and play
every turn from the board post's "Play my turn" button: pick a numbered spot, sometimes turn
the tile, place it; then move the Ark with the arrows, or choose a follower's spot, look at
it and put it (sometimes choosing again first), or pass; put the Ark in the first city.

    python3 -m tests.games.covenant.bot.playthrough --out /tmp/pictures [--seed 7] [--tiles 71]

saves every picture the players got (board posts, panels, previews, close-ups, Ark panels,
the final scoring) and a copy of each scaled to 400 px wide, as a phone shows it. The test
suite plays a short game the same way (test_playthrough.py beside it).
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

    def find(self, message: Sent, prefix: str, suffix: str = "") -> str | None:
        for cid in message.custom_ids:
            if cid.startswith(prefix) and cid.endswith(suffix):
                return cid
        return None

    async def turn(self, user: int, post: Sent, turn: int) -> Sent:
        """One whole turn from the public post; returns the next public post."""
        h, g = self.h, self.game_id
        panel = self.keep(await h.click(user, post, f"ob:{g}:{turn}"), "spots")
        spot = self.find(panel, f"tm:{g}:", ":spot")
        assert spot is not None, panel.content
        options = panel.component(spot).option_values
        preview = self.keep(
            await h.select(user, panel, spot, [options[self.rng.randrange(len(options))]]),
            "preview",
        )
        rot = next((c for c in preview.custom_ids if ":rot:" in c), None)
        if rot and not preview.component(rot).disabled and self.rng.random() < 0.5:
            preview = self.keep(await h.click(user, preview, rot), "turned")
        place = next(c for c in preview.custom_ids if ":place:" in c)
        step = self.keep(await h.click(user, preview, place), "deploy")
        bot: TableBot = h.bot  # type: ignore[assignment]
        while True:
            record, game = await bot.service.play.state(g)
            if record.status != "active" or game.turn != turn:
                return [s for s in self.seen if s.kind == "channel_message"][-1]
            if game.phase == "place_ark":
                putark = self.find(step, f"tm:{g}:", ":putark")
                assert putark is not None, step.content
                values = step.component(putark).option_values
                step = self.keep(await h.select(user, step, putark, [values[0]]), "putark")
                continue
            arrows = [c for c in step.custom_ids if ":step:" in c and c.split(":")[-1]]
            live = [c for c in arrows if not step.component(c).disabled]
            menu = self.find(step, f"tm:{g}:", ":deploy")
            roll = self.rng.random()
            if live and roll < 0.35:
                for _ in range(self.rng.randrange(1, 4)):
                    live = [
                        c
                        for c in step.custom_ids
                        if ":step:" in c and c.split(":")[-1] and not step.component(c).disabled
                    ]
                    if not live:
                        break
                    step = self.keep(
                        await h.click(user, step, live[self.rng.randrange(len(live))]), "ark"
                    )
                go = next(c for c in step.custom_ids if ":go:" in c)
                if step.component(go).disabled:
                    clear = next(c for c in step.custom_ids if c.endswith(":step:"))
                    step = self.keep(await h.click(user, step, clear), "ark-clear")
                    step = self.keep(
                        await h.click(user, step, next(c for c in step.custom_ids if ":pass" in c)),
                        "pass",
                    )
                else:
                    step = self.keep(await h.click(user, step, go), "ark-go")
                continue
            if menu and roll < 0.85:
                values = step.component(menu).option_values
                chosen = self.keep(
                    await h.select(user, step, menu, [values[self.rng.randrange(len(values))]]),
                    "piece",
                )
                if self.rng.random() < 0.2:
                    back = next(c for c in chosen.custom_ids if c.endswith(":back"))
                    step = self.keep(await h.click(user, chosen, back), "piece-back")
                    continue
                put = next(c for c in chosen.custom_ids if ":put:" in c)
                step = self.keep(await h.click(user, chosen, put), "put")
                continue
            passing = next(c for c in step.custom_ids if c.endswith(":pass"))
            step = self.keep(await h.click(user, step, passing), "pass")


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
