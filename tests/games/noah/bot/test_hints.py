"""/table hint in a card game: a private sentence for the player on turn, naming only cards
of their own hand, the face-up row or the ark (never another player's hand)."""

from __future__ import annotations

from engine.noah import CARDS, Game
from render.noah.words import card_name
from tests.support.bot import BOAZ, CHANNEL, RUTH, STRANGER
from tests.support.harness import Harness

MIRIAM = 33


async def card_game(h: Harness, seed: int = 4) -> tuple[int, Game]:
    for user, name in ((RUTH, "Ruth"), (BOAZ, "Boaz"), (MIRIAM, "Miriam"), (STRANGER, "S")):
        h.user(user, name)
    bot = h.bot
    record = await bot.service.lobby.create_game(  # type: ignore[attr-defined]
        h.guild_id, CHANNEL, RUTH, "Ruth", "noah", seed=seed, shuffle_seats=False
    )
    await h.slash(BOAZ, "table join")
    await h.slash(MIRIAM, "table join")
    await h.slash(RUTH, "table start")
    record, game = await bot.service.play.state(record.id)  # type: ignore[attr-defined]
    return record.id, game


def names(cards: set[int]) -> set[str]:
    return {card_name(c) for c in cards}


async def test_the_player_on_turn_gets_a_private_hint_naming_their_own_cards(
    harness: Harness,
) -> None:
    h = harness
    _, game = await card_game(h)
    assert game.current_player == 0
    hint = (await h.slash(RUTH, "table hint")).last
    assert hint.ephemeral and hint.content.startswith("💡 A computer player would do this:")
    text = hint.content
    mine = names(set(game.hand(0)) | set(game.face_up))
    named = {n for n in names(set(range(len(CARDS)))) if n in text}
    assert named & mine, text
    others = names(set(game.hand(1)) | set(game.hand(2))) - mine
    assert not named & others, text
    assert "noah.hint" not in text and "{" not in text
    # Nobody else gets a hint of Ruth's turn, and nothing of her cards.
    for user in (BOAZ, STRANGER):
        answer = (await h.slash(user, "table hint")).last
        assert answer.ephemeral
        assert not {n for n in names(set(game.hand(0))) if n in answer.content}
