"""Whole games of Ark played by tapping, as people would, with a watch on hidden cards.

Players open a table of the card game, join, start, and play every turn from the board
post's "Play my turn" button: take one of the face-up cards, or play cards built step by
step (a card, its cabin, what it needs, sometimes a second card, sometimes a step back),
look at the preview and confirm; choose pets (or none) and in the endgame play or pass.
They tap **Show my hand** on public posts now and then.

Every public message and every input of every public picture is checked against the cards
that are secret at that moment (the hands' cards that were never seen face up, and pets):
none may be named. Now and then another seated player and a stranger send the current
player's panel controls from the board post, forged with the kind of the controls anyone
seated may use (``sb:``/``sm:``): no answer may name a card of the current player's hand,
and nothing may change.

    python3 -m tests.games.noah.bot.playthrough --out /tmp/ark-pictures [--seed 7]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import re
import tempfile
from pathlib import Path
from typing import Any

from PIL import Image

import bot.games.noah.front as noah_front
from bot.client import TableBot
from engine.noah import (
    CARDS,
    CardDrawn,
    CardPlayed,
    CardTaken,
    FaceUpRefilled,
    Game,
    PetRevealed,
)
from render.i18n import catalogue
from render.noah.words import slug
from tests.support.bot import CHANNEL, make_bot
from tests.support.harness import Harness, Reply, Sent

PLAYERS = ((31, "Ruth"), (32, "Boaz"), (33, "Miriam 🇳🇱"), (34, "김민준"))
STRANGER = (39, "Orpah")
#: How often a panel is snooped on with forged ids (its own random numbers, so the games
#: played stay the same).
SNOOPING = 0.3
#: The table's own controls for anyone seated (leave, rematch, a finished game's history).
TABLE_SEAT = ("table_leave", "table_rematch", "table_hist")
seat_controls = noah_front.NoahFront.seat_controls
PHONE = 400
LANGUAGES = ("en", "nl", "es")


def names_of(card: int) -> set[str]:
    """The card's name in every language (lower case)."""
    return {
        catalogue("noah", lang).get(f"noah.card.{slug(card)}", CARDS[card].name).lower()
        for lang in LANGUAGES
    }


class Secrets:
    """Which cards are secret now, replayed from the game's stored actions."""

    def __init__(self, game: Game) -> None:
        self.secret: set[int] = set()
        for seat in range(game.players):
            self.secret |= set(game.hand(seat))
        #: Cards everyone has seen: face up, played, revealed (their names may be said).
        self.public: set[int] = set(game.face_up)

    def saw(self, events: Any) -> None:
        for event in events:
            if isinstance(event, CardDrawn) and event.card is not None:
                self.secret.add(event.card)
            elif isinstance(event, CardTaken | FaceUpRefilled):
                self.public.add(event.card)
            elif isinstance(event, CardPlayed | PetRevealed):
                self.secret.discard(event.card)
                self.public.add(event.card)

    def hidden_names(self, game: Game) -> set[str]:
        """Names of secret cards that no card seen by all shares."""
        shown = set(game.face_up) | set(game.box) | self.public
        for side in game.cabins:
            for cabin in side:
                shown |= set(cabin)
        shown_names = {n for c in shown for n in names_of(c)}
        pets = {game.pet(s) for s in range(game.players)} - {None}
        secret = (self.secret | pets) - shown
        return {n for c in secret for n in names_of(c)} - shown_names  # type: ignore[arg-type]


class Watch:
    """Records the pictures of public posts (their inputs) while the front makes them."""

    def __init__(self) -> None:
        self.inputs: list[tuple[str, tuple[Any, ...]]] = []
        front = noah_front.NoahFront
        self._saved = {n: getattr(front, n) for n in ("board_post", "final_post", "status")}
        for name, method in self._saved.items():
            setattr(front, name, self._wrap(method))

    def _wrap(self, method: Any) -> Any:
        def wrapped(front: Any, view: Any, names: Any, **kw: Any) -> Any:
            panel = method(front, view, names, **kw)
            for picture in panel.pictures:
                self.inputs.append((picture.function, picture.args))
            return panel

        return wrapped

    def close(self) -> None:
        for name, method in self._saved.items():
            setattr(noah_front.NoahFront, name, method)


class Player:
    """Taps through the game, keeps what it saw, and checks the public messages."""

    def __init__(self, h: Harness, game_id: int, out: Path | None, rng: random.Random) -> None:
        self.h = h
        self.game_id = game_id
        self.out = out
        self.rng = rng
        self.count = 0
        self.public: list[Sent] = []
        self.posts: list[Sent] = []
        self.private: list[Sent] = []
        self.kinds: set[str] = set()
        self.snooping = random.Random(rng.random())
        self.snooped = 0

    def keep(self, reply: Reply, what: str) -> Sent:
        for sent in reply:
            if sent.kind == "channel_message":
                self.posts.append(sent)
            if sent.kind in ("channel_message", "edit") or (
                sent.content is not None and not sent.ephemeral and sent.kind not in (5, 6)
            ):
                self.public.append(sent)
            else:
                self.private.append(sent)
            if self.out is None:
                continue
            for name, data in sent.files:
                self.count += 1
                self.kinds.add(name)
                path = self.out / f"{self.count:04d}-{what}-{name}"
                path.write_bytes(data)
                image = Image.open(io.BytesIO(data))
                small = image.resize(
                    (PHONE, max(1, round(image.height * PHONE / image.width))),
                    Image.Resampling.LANCZOS,
                )
                small.save(self.out / "400" / path.name)
        assert not reply.errors, reply.errors
        for sent in reply:
            for custom_id in sent.custom_ids:
                kind, _, rest = custom_id.partition(":")
                control = rest.split(":")[2] if kind in ("sb", "sm") else ""
                # A control made for anyone seated is one the front says anyone seated may use
                # (the table decides by that), or one of the table's own.
                assert control in ("", *seat_controls, *TABLE_SEAT), custom_id
        return reply.last

    @staticmethod
    def find(message: Sent, part: str) -> str | None:
        return next((c for c in message.custom_ids if part in c), None)

    async def state(self) -> tuple[Any, Game]:
        bot: TableBot = self.h.bot  # type: ignore[assignment]
        return await bot.service.play.state(self.game_id)

    async def turn(self, user: int, post: Sent, turn: int) -> None:
        """One whole turn from the public post."""
        h, g = self.h, self.game_id
        if self.rng.random() < 0.2:
            hand = self.find(post, ":hand")
            assert hand is not None, post.custom_ids
            shown = self.keep(await h.click(user, post, hand), "hand")
            assert shown.ephemeral
        panel = self.keep(await h.click(user, post, f"ob:{g}:{turn}"), "turn")
        assert panel.ephemeral
        for _ in range(40):
            record, game = await self.state()
            if record.status != "active" or game.turn != turn:
                return
            if self.snooping.random() < SNOOPING:
                await self.snoop(user, post, panel, game)
            panel = await self.step(user, panel, game)
        raise AssertionError(f"turn {turn} did not end: {panel.content}")

    async def snoop(self, user: int, post: Sent, panel: Sent, game: Game) -> None:
        """Another seated player and a stranger send each control of ``user``'s panel from
        the board post, its kind forged to the seat kind: none is told a card of that hand
        (that another hand or the table's open cards do not share), and nothing changes."""
        record, _ = await self.state()
        current = game.current_player
        assert current is not None
        other = next(s.user_id for s in record.seats if s.user_id not in (user, None))
        assert other is not None
        mine = {n for c in game.hand(current) for n in names_of(c)}
        shown = set(game.face_up) | set(game.box) | set(game.hand(record.seat_of(other).index))
        for side in game.cabins:
            for cabin in side:
                shown |= set(cabin)
        secret = mine - {n for c in shown for n in names_of(c)}
        self.h.user(*STRANGER)
        for custom_id in panel.custom_ids:
            kind, rest = custom_id.split(":", 1)
            if kind not in ("tb", "tm"):
                continue
            forged = {"tb": "sb", "tm": "sm"}[kind] + ":" + rest
            values = None if kind == "tb" else panel.component(custom_id).option_values[:1]
            for snooper in (other, STRANGER[0]):
                reply = await self.h.forge(snooper, post, forged, values=values)
                assert not reply.errors, reply.errors
                self.snooped += 1
                for sent in reply:
                    text = sent.text.lower()
                    named = [
                        n for n in secret if n and re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text)
                    ]
                    assert named == [], (forged, snooper, named, sent.content)
        after, _ = await self.state()
        assert after.version == record.version, "a forged control changed the game"

    async def step(self, user: int, panel: Sent, game: Game) -> Sent:
        h, rng = self.h, self.rng
        ids = panel.custom_ids
        if game.phase == "pet":
            if self.find(panel, ":petok:"):
                return self.keep(await h.click(user, panel, self.find(panel, ":petok:")), "pet-ok")
            menu = self.find(panel, ":pet")
            if menu and rng.random() < 0.7:
                values = panel.component(menu).option_values
                return self.keep(await h.select(user, panel, menu, [rng.choice(values)]), "pet")
            return self.keep(await h.click(user, panel, self.find(panel, ":nopet")), "no-pet")
        takes = [c for c in ids if ":take:" in c]
        play = self.find(panel, ":play:") or self.find(panel, ":play")
        pick = self.find(panel, ":pick")
        passing = self.find(panel, ":pass")
        back = self.find(panel, ":back")
        roll = rng.random()
        if takes and (roll < 0.35 or pick is None):
            return self.keep(await h.click(user, panel, rng.choice(takes)), "take")
        if passing and (pick is None or roll < 0.15):
            return self.keep(await h.click(user, panel, passing), "pass")
        if back and rng.random() < 0.1:
            return self.keep(await h.click(user, panel, back), "back")
        if play and (pick is None or rng.random() < 0.5):
            return self.keep(await h.click(user, panel, play), "play")
        assert pick is not None, panel.content
        values = panel.component(pick).option_values
        return self.keep(await h.select(user, panel, pick, [rng.choice(values)]), "pick")


def check_public(player: Player, watch: Watch, hidden: set[str]) -> None:
    """No public text since the last check names a hidden card; no public picture input
    holds a hand, a pet or a secret card."""
    for sent in player.public:
        text = (sent.content or "").lower()
        named = [n for n in hidden if n and re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text)]
        assert named == [], (named, sent.content)
    player.public.clear()
    for function, args in watch.inputs:
        view = args[0]
        assert isinstance(view, dict) and "hand" not in view and "pet" not in view, function
        if view["phase"] != "over":
            assert all(p in (True, None) for p in view["pets"]), view["pets"]
    watch.inputs.clear()


async def play(h: Harness, out: Path | None, seed: int, players: int = 4) -> tuple[TableBot, Game]:
    bot: TableBot = h.bot  # type: ignore[assignment]
    chosen = PLAYERS[:players]
    for user, name in chosen:
        h.user(user, name)
    (creator, name), *others = chosen
    record = await bot.service.lobby.create_game(
        h.guild_id, CHANNEL, creator, name, "noah", seed=seed, shuffle_seats=False
    )
    for user, _ in others:
        await h.slash(user, "table join")
    player = Player(h, record.id, out, random.Random(seed))
    watch = Watch()
    try:
        if out is not None:
            player.keep(await h.slash(creator, "table rules", game="noah"), "rules")
        started = await h.slash(creator, "table start")
        player.keep(started, "start")
        record, game = await player.state()
        secrets = Secrets(game)
        seen_actions = 0
        while True:
            record, game = await player.state()
            _, turns, _ = await bot.service.history.replay_turns(record.id)
            events = [e for _, t in turns for e in t.events]
            secrets.saw(events[seen_actions:])
            seen_actions = len(events)
            check_public(player, watch, secrets.hidden_names(game))
            if record.status != "active":
                break
            post = player.posts[-1]
            user = record.seats[game.current_player].user_id
            assert user is not None
            await player.turn(user, post, game.turn)
        assert record.status == "finished"
        assert player.snooped > 0, "no panel was snooped on"
        return bot, game
    finally:
        watch.close()


async def main(out: Path, seed: int) -> None:
    (out / "400").mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        async with Harness(await make_bot(Path(folder) / "db.sqlite3"), channel_id=CHANNEL) as h:
            await play(h, out, seed)
    print(f"pictures in {out}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    asyncio.run(main(args.out, args.seed))
