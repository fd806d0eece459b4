"""/table hint in a card game: a private sentence for the player on turn, naming only cards
of their own hand, the face-up row or the ark (never another player's hand)."""

from __future__ import annotations

from bot.games import plugin
from bot.games.base import Seen
from engine.noah import CARDS, Game, Placement, PlayCards, card_id
from engine.noah.ai.hints import reason_for
from render.i18n import say
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


def test_a_hint_says_where_a_card_not_yet_held_comes_from() -> None:
    """Issue 29.8: the second card of a play may be the face-up card the first one takes
    (opening a cabin): the hint says to take it, in every language, so it never seems to name
    a card the player holds."""
    game = Game.new(players=3, seed=0)  # Ruth holds a Gazelle; a Pig and a Bison are face up
    seat = game.current_player
    gazelle, pig, bison = 44, 30, 12
    assert [card_name(c) for c in (gazelle, pig, bison)] == ["Gazelle", "Pig", "Bison"]
    assert gazelle in game.hand(seat) and pig not in game.hand(seat)
    assert {pig, bison} <= set(game.face_up)
    play = PlayCards(
        (Placement(gazelle, "starboard", 2, take=pig), Placement(pig, "port", 2, take=bison))
    )
    after = game.copy()
    after.apply(play)
    key, params = reason_for(game, after, seat, play)
    front = plugin("noah")
    seen = Seen(game, seat, ("Ruth", "Boaz", "Miriam"), game.turn, {})
    lines = front.front.hint_text(seen, front.rules.dump_action(play), key, params)
    said = {lang: [say(line, lang) for line in lines] for lang in ("en", "nl", "es")}
    assert said["en"][1:] == [
        "The Gazelle in a new starboard cabin 3, then take the Pig from the face-up cards.",
        "The Pig in a new port cabin 3, then take the Bison from the face-up cards.",
    ]
    assert said["nl"][1:] == [
        "De Gazelle in de nieuwe hut 3 aan stuurboord; pak dan het Varken uit de open kaarten.",
        "Het Varken in de nieuwe hut 3 aan bakboord; pak dan de Bizon uit de open kaarten.",
    ]
    assert said["es"][1:] == [
        "La Gacela en un camarote nuevo, el 3 de estribor; luego toma el Cerdo de las cartas "
        "visibles.",
        "El Cerdo en un camarote nuevo, el 3 de babor; luego toma el Bisonte de las cartas "
        "visibles.",
    ]


def test_a_hint_names_the_card_its_reason_names_first() -> None:
    """Issue 40.11: "Play the Lion" listed "The Horse in a new cabin 3" first. The card the
    reason names comes first, unless it is the card an earlier one takes."""
    game = Game.new(players=3, seed=0)
    seat = game.current_player
    first, named = sorted(game.hand(seat))[:2]
    play = PlayCards((Placement(first, "port", 0), Placement(named, "starboard", 0)))
    front = plugin("noah")
    seen = Seen(game, seat, ("Ruth", "Boaz", "Miriam"), game.turn, {})
    dumped = front.rules.dump_action(play)
    lines = front.front.hint_text(seen, dumped, "hint.takes_lead", {"card": named, "kind": "shy"})
    said = [say(line) for line in lines]
    assert said == [
        f"Play the {card_name(named)}: it puts you first on the shy card.",
        f"The {card_name(named)} in starboard cabin 1.",
        f"The {card_name(first)} in port cabin 1.",
    ]
    # A card the first one takes from the face-up row stays second: it is not held before.
    gazelle, pig = 44, 30
    taking = PlayCards((Placement(gazelle, "starboard", 2, take=pig), Placement(pig, "port", 2)))
    dumped = front.rules.dump_action(taking)
    lines = front.front.hint_text(seen, dumped, "hint.takes_lead", {"card": pig, "kind": "useful"})
    assert [say(line) for line in lines][1].startswith("The Gazelle in a new starboard cabin 3")


def test_a_lead_taken_by_driving_out_is_said_of_the_card_that_drove_out() -> None:
    """The Fox (no scoring card) and the Spider, which drives the Rabbit out of port cabin 2
    and so puts Ruth first on the shy card: the Spider takes the lead, not the Fox."""
    game = Game.arranged(
        3,
        port=[["Sheep"], ["Rabbit"]],
        starboard=[["Donkey"], ["Llama"]],
        hands=[["Fox", "Spider"], ["Cow"], ["Pig"]],
        face_up=["Camel", "Goat", "Hay"],
        deck=["Bison", "Moose", "Walrus"],
    )
    fox, spider, rabbit = card_id("Fox"), card_id("Spider"), card_id("Rabbit")
    action = PlayCards((Placement(fox, "port", 0), Placement(spider, "port", 1, drive_out=rabbit)))
    after = game.copy()
    after.apply(action)
    assert reason_for(game, after, 0, action) == (
        "hint.takes_lead",
        {"kind": "shy", "card": spider},
    )
    # The Fox alone in a cabin takes no lead: its move is only played.
    alone = PlayCards((Placement(fox, "port", 0),))
    after = game.copy()
    after.apply(alone)
    assert reason_for(game, after, 0, alone) == ("hint.plays_cards", {"cards": [fox]})
