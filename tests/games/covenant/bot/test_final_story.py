"""The Covenant's final scoring told in words (issue 29.9): an unfinished city or road is
named by a square, so a reader finds it on a board full of open ones."""

from __future__ import annotations

from bot.games.covenant.story import tell
from engine.covenant import Deploy, Game, PlaceTile
from engine.covenant.events import Event
from render.i18n import say


def ended_with_an_open_city() -> list[Event]:
    """Ruth lays the only tile, T21, south of the start tile with its city open to the south,
    puts a follower on that city, and the game ends: it is scored unfinished."""
    game = Game.new(players=2, seed=0, deck=["T21"])
    events = list(game.apply(PlaceTile(0, 1, 180)))
    events += game.apply(Deploy("SSE"))
    while game.phase != "over":
        events += game.apply(game.legal_actions()[-1])
    return events


def test_an_unfinished_city_is_named_by_its_square_in_every_language() -> None:
    told = tell(ended_with_an_open_city(), ("Ruth", "Boaz"))
    lines = {language: [say(t, language) for t in told] for language in ("en", "nl", "es")}
    assert lines["en"] == [
        "Ruth placed a tile on M14.",
        "Ruth put a follower on the city at M14.",
        "The last tile is down. Final scoring:",
        "Unfinished 1-tile city at M14: Ruth +1.",
    ]
    assert "Niet afgebouwde stad van 1 tegel op M14: Ruth +1." in lines["nl"]
    assert "Ciudad incompleta de 1 loseta en M14: Ruth +1." in lines["es"]


def test_the_final_list_is_ranked_as_the_card_games_is() -> None:
    """Issue 40.9: the list came in seat order. Ruth (first seat) lays a road and passes;
    Boaz closes nothing but holds the open city, worth 1 point at the end: he comes first."""
    from bot.games import plugin
    from engine.covenant import Pass

    game = Game.new(players=2, seed=0, deck=["T39", "T21"])
    game.apply(PlaceTile(-1, 0, 0))
    game.apply(Pass())
    game.apply(PlaceTile(0, 1, 180))
    game.apply(Deploy("SSE"))
    while game.phase != "over":
        game.apply(game.legal_actions()[-1])
    assert tuple(game.scores) == (0, 1)
    front = plugin("covenant").front
    post = front.final_post(game.view(None), ("Ruth", "Boaz"), ended_early=False)
    said = {lang: [say(line, lang) for line in post.lines[1:]] for lang in ("en", "nl", "es")}
    assert said["en"] == [
        "**1.** Boaz: 1 (roads 0, cities 1, temples 0, fields 0, Ark 0)",
        "**2.** Ruth: 0 (roads 0, cities 0, temples 0, fields 0, Ark 0)",
    ]
    assert [line.split(":")[0] for line in said["nl"]] == ["**1.** Boaz", "**2.** Ruth"]
    assert [line.split(":")[0] for line in said["es"]] == ["**1.** Boaz", "**2.** Ruth"]
