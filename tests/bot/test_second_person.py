"""A private answer speaks to its reader as "you": no panel, preview, refusal or hint that
one player alone sees names that player in the third person ("…because Mateo already has a
piece there", said to Mateo). Whole games of both games, through the in-process harness,
with players whose Discord speaks English, Dutch or Spanish.

Public posts (and their private copies: /table status, /table missed) tell the table's
story in the third person by design; they are not asked for here.
"""

from __future__ import annotations

import random
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.client import TableBot
from bot.table.posts import Announcer
from engine.common import Rng
from engine.covenant import TILES
from tests.support.bot import CHANNEL, make_bot
from tests.support.harness import Harness, Sent
from tests.support.tapping import controls, public_post

PLAYERS = ((41, "Mateo"), (42, "Sofía"), (43, "Ruth"))
LOCALES = {"en": "en-US", "nl": "nl", "es": "es-ES"}
#: Enough tiles that a player meets their own pieces on a new tile, few enough to be quick.
TILES_PLAYED = 24
#: What each player saw to have met: a spot they hold already, in their language.
OWN_PIECE = {
    "en": "you already have a piece there",
    "nl": "je hebt er al een stuk",
    "es": "ya tienes una pieza ahí",
}


@pytest.fixture
async def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Harness]:
    # The replay, drawn for seconds after the result, is public and not read here.
    async def no_replay(*_: object) -> None:
        return None

    monkeypatch.setattr(Announcer, "post_replay", no_replay)
    async with Harness(await make_bot(tmp_path / "db.sqlite3"), channel_id=CHANNEL) as h:
        yield h


def words(sent: Sent) -> str:
    """Everything a private message says: its text, its buttons, its menus' options."""
    parts = [sent.text]
    for component in sent.components:
        parts += [component.label or "", component.placeholder or ""]
        for option in component.options:
            parts += [option.get("label", ""), option.get("description", "")]
    return "\n".join(p for p in parts if p)


async def play_at_random(h: Harness, game: str, language: str, seed: int) -> dict[int, list[str]]:
    """A whole game of ``game`` tapped at random by players reading ``language``, each asking
    for a hint on every turn: what each player was told privately."""
    bot: TableBot = h.bot  # type: ignore[assignment]
    for user, name in PLAYERS:
        h.user(user, name, locale=LOCALES[language])
    options: dict[str, object] = {}
    if game == "covenant":
        bag = [t.id for t in TILES.values() if not t.start for _ in range(t.count)]
        Rng(seed).shuffle(bag)
        options = {"deck": bag[:TILES_PLAYED]}
    (creator, name), *others = PLAYERS
    record = await bot.service.lobby.create_game(
        h.guild_id, CHANNEL, creator, name, game, options=options, seed=seed, shuffle_seats=False
    )
    for user, _ in others:
        await h.slash(user, "table join")
    await h.slash(creator, "table start")
    told: dict[int, list[str]] = {user: [] for user, _ in PLAYERS}
    rng = random.Random(seed)

    def keep(user: int, sent: list[Sent]) -> None:
        told[user] += [words(s) for s in sent if s.ephemeral]

    record = await bot.service.play.get_game(record.id)
    for _ in range(2_000):
        if record.status != "active":
            break
        user = record.seats[record.current_seat].user_id
        assert user is not None
        keep(user, await h.slash(user, "table hint"))
        post = public_post(h, record.id)
        button = next(c for c in post.custom_ids if c.startswith(f"ob:{record.id}:"))
        reply = await h.click(user, post, button)
        version = record.version
        for _ in range(60):
            assert not reply.errors, reply.errors
            keep(user, reply)
            panels = [s for s in reply.messages if s.ephemeral and controls(s)]
            record = await bot.service.play.get_game(record.id)
            if record.version != version or not panels:
                break
            control, values = rng.choice(controls(panels[-1]))
            if values is None:
                reply = await h.click(user, panels[-1], control)
            else:
                reply = await h.select(user, panels[-1], control, [rng.choice(values)])
    assert record.status == "finished"
    return told


@pytest.mark.parametrize("language", ["en", "nl", "es"])
@pytest.mark.parametrize("game", ["covenant", "noah"])
async def test_no_private_message_names_its_own_reader(
    table: Harness, game: str, language: str
) -> None:
    told = await play_at_random(table, game, language, seed=3)
    names = dict(PLAYERS)
    third_person = [
        (names[user], line)
        for user, said in told.items()
        for message in said
        for line in message.splitlines()
        if re.search(rf"(?<!\w){re.escape(names[user])}(?!\w)", line)
    ]
    assert sum(map(len, told.values())) > 50  # the players were told a good deal
    assert third_person == []
    if game == "covenant":  # a spot held by the reader was met, and said to them as "you"
        assert any(OWN_PIECE[language] in m for said in told.values() for m in said)
