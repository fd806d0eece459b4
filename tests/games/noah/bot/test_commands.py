"""Typed commands of the card game on a concrete seeded position: what /ark take, /ark play,
/ark pet and /ark pass give, what their autocomplete offers (the player's own hand on their
own turn only), and a wrong card name refused plainly with nothing changed."""

from __future__ import annotations

import logging

import pytest

from bot.games.base import Seen
from bot.games.noah.front import NoahFront
from bot.games.noah.plan import cabin_token
from bot.panels import Panel, Play, Refusal
from engine.common import Rng
from engine.noah import CARDS, SIDES, Game, Pass, TakeCards
from engine.noah.queries import cabin_choices
from render.i18n import say
from render.noah.words import card_name
from tests.games.noah.bot.test_hints import MIRIAM, card_game
from tests.support.bot import BOAZ, RUTH
from tests.support.harness import Harness

SEED = 4


async def state(h: Harness, game_id: int) -> Game:
    _, game = await h.bot.service.play.state(game_id)  # type: ignore[attr-defined]
    return game


def ids(choices: list) -> list[str]:
    return [c.value for c in choices]


async def test_autocomplete_offers_the_own_hand_only_on_the_own_turn(harness: Harness) -> None:
    h = harness
    _, game = await card_game(h, SEED)
    # The seeded position: Ruth on turn with Squirrel and Owl; Boaz holds Hay and Horse.
    assert [card_name(c) for c in game.hand(0)] == ["Squirrel", "Owl"]
    assert [card_name(c) for c in game.face_up] == ["Berries", "Spider", "Snail"]
    hand = [str(c) for c in game.hand(0)]
    played = await h.autocomplete(RUTH, "ark play", focused="card", value="")
    assert ids(played) == hand
    assert [c.name for c in played] == [
        "Squirrel (weight 0, cold, herbivore, shy)",
        "Owl (weight 1, hot or cold, carnivore, shy)",
    ]
    squirrel = hand[0]
    cabins = await h.autocomplete(RUTH, "ark play", focused="cabin", value="", card=squirrel)
    assert ids(cabins) == ["p1", "p3", "s3"]  # the numbers on the picture
    taken = [str(c) for c in game.face_up]
    for user in (RUTH, BOAZ, MIRIAM):
        assert ids(await h.autocomplete(user, "ark take", focused="card", value="")) == taken
        # Pets are chosen after the second rain card only.
        assert await h.autocomplete(user, "ark pet", focused="card", value="") == []
    # Not their turn: no hand at all, not even their own, nor Ruth's.
    for user in (BOAZ, MIRIAM):
        assert await h.autocomplete(user, "ark play", focused="card", value="") == []
        assert (
            await h.autocomplete(user, "ark play", focused="cabin", value="", card=squirrel) == []
        )
    # Typing another player's card offers nothing of it.
    horse = await h.autocomplete(RUTH, "ark play", focused="card", value="Hor")
    assert all("Horse" not in c.name for c in horse)


async def test_a_failing_autocomplete_is_logged_as_an_error_and_offers_nothing(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 29.6: a bug in a front's suggestions reaches the log with its traceback; the user
    still gets an answer (an empty one: Discord needs one)."""
    h = harness
    await card_game(h, SEED)

    def broken(*_: object) -> list[object]:
        raise AttributeError("'str' object has no attribute 'get'")

    monkeypatch.setattr(NoahFront, "autocomplete", broken)
    with caplog.at_level(logging.INFO, logger="arkbot"):
        offered = await h.autocomplete(RUTH, "ark play", focused="card", value="")
    assert offered == []
    (failed,) = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert failed.exc_info is not None and failed.exc_info[0] is AttributeError
    assert "/ark play" in failed.getMessage() and "card" in failed.getMessage()


async def test_typed_commands_give_the_panel_or_the_move(harness: Harness) -> None:
    h = harness
    game_id, game = await card_game(h, SEED)
    before = game.to_json()
    asked = (await h.slash(RUTH, "ark play", card="Squirrel")).last
    assert asked.ephemeral
    assert asked.content == (
        "Where does the **Squirrel** go? (weight 0, cold, herbivore, shy)\nYou have 4 action discs."
    )
    (menu,) = [c for c in asked.components if c.type == 3]
    assert [o["value"] for o in menu.options] == ["p0", "p2", "s2"]
    assert [o["label"] for o in menu.options] == [
        "port cabin 1",
        "a new port cabin 3",
        "a new starboard cabin 3",
    ]
    # With its cabin the play goes on to the next step; nothing is stored until confirmed.
    placed = (await h.slash(RUTH, "ark play", card="squirrel", cabin="p1")).last
    assert placed.ephemeral and "Squirrel" in placed.content
    assert (await state(h, game_id)).to_json() == before
    # Taking is a move at once: the Berries and the top card, Boaz next.
    took = await h.slash(RUTH, "ark take", card="Berries")
    post = next(s for s in took if s.kind == "channel_message")
    assert post.content.startswith("Ruth took the Berries.\nRuth drew the top card")
    assert f"<@{BOAZ}>, your turn!" in post.content
    after = await state(h, game_id)
    assert after.current_player == 1 and game.face_up[0] in after.hand(0)
    expected = game.copy()
    expected.apply(TakeCards(game.face_up[0]))
    assert after.hand(0) == expected.hand(0) and after.face_up == expected.face_up


@pytest.mark.parametrize(
    ("command", "options", "said"),
    [
        ("ark take", {"card": "Unicorn"}, "There is no card called Unicorn."),
        ("ark play", {"card": "Unicorn"}, "There is no card called Unicorn."),
        # Before the second rain card, any pet is refused for the time first.
        ("ark pet", {"card": "Unicorn"}, "Pets are chosen only when the second rain card"),
        # Boaz's card: Ruth is told only that it is not in her hand.
        ("ark play", {"card": "Horse"}, "That card is not in your hand."),
        ("ark take", {"card": "Horse"}, "The Horse is not one of the face-up cards."),
        (
            "ark play",
            {"card": "Squirrel", "cabin": "s7"},
            "The Squirrel cannot go into that cabin.",
        ),
        ("ark pass", {}, "You can only pass in the endgame: take cards or play cards."),
        ("ark pet", {"card": "Owl"}, "Pets are chosen only when the second rain card"),
    ],
)
async def test_a_wrong_card_is_refused_plainly_and_changes_nothing(
    harness: Harness, command: str, options: dict, said: str
) -> None:
    h = harness
    game_id, game = await card_game(h, SEED)
    before = game.to_json()
    answer = await h.slash(RUTH, command, **options)
    assert answer.last.ephemeral and answer.last.content.startswith(said)
    assert not [s for s in answer if s.kind == "channel_message"]
    assert (await state(h, game_id)).to_json() == before
    # Not on turn, Boaz is told whose turn it is, whatever he types.
    other = (await h.slash(BOAZ, command, **options)).last
    assert other.ephemeral and "It is Ruth's turn, not yours." in other.content
    assert (await state(h, game_id)).to_json() == before


def until(phase: str) -> Game:
    game, rng = Game.new(players=3, seed=SEED), Rng(SEED)
    while game.phase != phase:
        game.apply(game.sample_action(rng))
    return game


def seen(game: Game, seat: int) -> Seen:
    return Seen(game, seat, ("Ruth", "Boaz", "Miriam"), game.turn, {})


def test_the_pet_and_the_endgame_by_typed_commands() -> None:
    front = NoahFront()
    game = until("pet")
    seat = game.current_player
    hand = game.hand(seat)
    offered = front.autocomplete(seen(game, seat), "pet", "card", "", {})
    assert [c.value for c in offered] == [str(c) for c in hand]
    assert front.autocomplete(seen(game, (seat + 1) % 3), "pet", "card", "", {}) == ()
    panel = front.on_command(seen(game, seat), "pet", {"card": card_name(hand[0])})
    assert isinstance(panel, Panel)
    assert front.on_command(seen(game, seat), "pass", {}) == Play(Pass())
    with pytest.raises(Refusal) as refused:
        front.on_command(seen(game, seat), "take", {"card": card_name(game.face_up[0])})
    assert refused.value.code == "noah.turn.no_take_now"
    mine = {CARDS[c].name for c in hand}
    other = next(c for c in range(len(CARDS)) if CARDS[c].name not in mine | {"Rain"})
    with pytest.raises(Refusal) as refused:
        front.on_command(seen(game, seat), "pet", {"card": CARDS[other].name})
    assert refused.value.code == "noah.turn.not_in_your_hand"
    end = until("endgame")
    assert front.on_command(seen(end, end.current_player), "pass", {}) == Play(Pass())
    with pytest.raises(Refusal) as refused:
        front.on_command(seen(end, end.current_player), "take", {"card": "Hay"})
    assert refused.value.code == "noah.turn.no_take_now"


def test_a_typed_cabin_is_the_cabin_the_picture_numbers_so() -> None:
    """Issue 29.7: ``p1`` is port cabin 1 of the picture (its rows are numbered from 1 at the
    bow), not port cabin 2; on both sides, for every cabin a card may go into, all game long.
    The autocomplete offers the same numbers it is typed with, and says them."""
    front = NoahFront()
    game, rng = Game.new(players=3, seed=SEED), Rng(SEED)
    landed: set[tuple[str, int]] = set()
    while game.phase == "play":
        seat = game.current_player
        for card in sorted(set(game.hand(seat))):
            if game.why_not(card) is not None:
                continue
            typed = {"card": str(card)}
            offered = front.autocomplete(seen(game, seat), "play", "cabin", "", typed)
            for choice, cabin in zip(offered, cabin_choices(game, card), strict=True):
                number = cabin.row + 1  # the number on the picture
                assert choice.value == f"{cabin.side[0]}{number}"
                assert f"{cabin.side} cabin {number} (" in say(choice.label)
                chosen = front.on_command(
                    seen(game, seat), "play", {**typed, "cabin": f"{cabin.side[0]}{number}"}
                )
                assert isinstance(chosen, Panel)
                plans = {c.args[0] for c in chosen.controls if c.control == "back"}
                assert plans == {f"{card}.{cabin_token(cabin.side, cabin.row)}"}
                landed.add((cabin.side, cabin.row))
        game.apply(game.sample_action(rng))
    # Every cabin the ship ended with was offered when it was opened, on its own side.
    built = {(side, row) for side, cabins in zip(SIDES, game.cabins, strict=True)
             for row in range(len(cabins))}  # fmt: skip
    assert len(built) > 8 and landed >= built


def test_a_legal_control_with_junk_after_it_is_refused_not_played() -> None:
    """Issue 41: a control carries exactly the arguments it was made with."""
    game = Game.new(players=3, seed=SEED)
    card = game.face_up[0]
    front = NoahFront()
    assert front.on_control(seen(game, 0), "take", (str(card),), ()) == Play(TakeCards(card))
    for control, args in (
        ("take", (str(card), "x")),
        ("take", (str(card), str(card))),
        ("pass", ("x",)),
        ("restart", ("1",)),
        ("hand", ("1",)),
    ):
        with pytest.raises(Refusal) as refused:
            front.on_control(seen(game, 0), control, args, ())
        assert refused.value.code == "table.error.unknown_control", (control, args)
    pet = until("pet")
    pets = [c for c in pet.hand(pet.current_player or 0)]
    with pytest.raises(Refusal):
        front.on_control(seen(pet, pet.current_player or 0), "petok", (str(pets[0]), "x"), ())
    with pytest.raises(Refusal):
        front.on_control(seen(pet, pet.current_player or 0), "nopet", ("x",), ())
