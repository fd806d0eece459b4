"""The eight special animals: fox, turtle, hedgehog, skunk, mosquito, spider, bronto, chimp."""

from __future__ import annotations

from engine.noah import (
    AnimalDrivenOut,
    CardPlayed,
    DiscsGained,
    DiscUnderFigure,
    FigurePlaced,
    Game,
    Placement,
    PlayCards,
)
from tests.games.noah.engine.helpers import C, accepted, one, refused


def arranged(hand: list[str], port, starboard, **kw) -> Game:  # type: ignore[no-untyped-def]
    return Game.arranged(
        4, port=port, starboard=starboard, hands=[hand], face_up=["Grain", "Dates"], **kw
    )


def test_fox_brings_two_discs() -> None:
    game = arranged(["Fox"], [["Horse"]], [["Cow"]])
    events = game.apply(one("Fox", "port", 0))
    assert DiscsGained(0, 2) in events
    assert game.discs == (5, 3, 3, 4)
    assert game.figures(0) == {k: 0 for k in ("heavy", "useful", "slow", "shy", "provision")}


def test_turtle_shares_with_heavier_carnivores_but_not_equal_ones() -> None:
    game = arranged(["Turtle", "Koala"], [["Lion"], ["Cat"]], [["Camel"], ["Horse"]])
    accepted(game, one("Turtle", "port", 0))
    refused(game, one("Koala", "port", 0), "eaten", predator=C("Lion"), prey=C("Koala"))
    refused(game, one("Turtle", "port", 1), "eaten", predator=C("Cat"), prey=C("Turtle"))


def test_hedgehog_allows_a_second_carnivore_and_ignores_heavier_ones() -> None:
    game = arranged(["Dog"], [["Hedgehog", "Horse"]], [["Cow"]])
    accepted(game, one("Dog", "port", 0))  # two carnivores in one cabin
    game = arranged(["Hedgehog"], [["Dog", "Horse"], ["Cat"]], [["Cow"], ["Goat"]])
    accepted(game, one("Hedgehog", "port", 0))  # shy, but not of heavier carnivores
    accepted(game, one("Hedgehog", "port", 1))
    game = arranged(["Hedgehog"], [["Mosquito", "Horse"], ["Cow"]], [["Goat"], ["Sheep"]])
    refused(
        game, one("Hedgehog", "port", 1), "shy_next_to", card=C("Hedgehog"), carnivore=C("Mosquito")
    )


def test_other_shy_animals_fear_the_hedgehog() -> None:
    game = arranged(["Mouse"], [["Hedgehog", "Horse"], ["Cow"]], [["Goat"], ["Sheep"]])
    refused(game, one("Mouse", "port", 1), "shy_next_to", card=C("Mouse"), carnivore=C("Hedgehog"))


def test_skunk_drive_out_refused_when_it_would_tip_the_ark() -> None:
    game = arranged(["Skunk"], [["Elephant"], ["Sheep"]], [["Horse"], ["Camel"]])
    refused(
        game,
        one("Skunk", "port", 0, drive_out=C("Elephant")),
        "would_tip",
        card=C("Skunk"),
        lean=3,
        towards="starboard",
        most=2,
    )


def test_skunk_drive_out_exact_result() -> None:
    game = arranged(["Skunk"], [["Elephant"], ["Sheep"]], [["Horse"], ["Goat"]])
    assert game.tilt == 0  # elephant 3 + sheep 2 against horse 3 + goat 2
    events = game.apply(one("Skunk", "port", 0, drive_out=C("Elephant")))
    assert events[:3] == (
        CardPlayed(0, C("Skunk"), "port", 0, False, 2),
        AnimalDrivenOut(0, C("Elephant"), C("Skunk"), "port", 0),
        FigurePlaced(0, "heavy"),
    )
    assert game.tilt == 2  # the port side lost 3 and gained 1: the rulebook's 3 - 1 = 2
    assert game.cabins[0][0] == (C("Skunk"),)
    assert game.box == (C("Elephant"),)
    assert game.figures(0)["heavy"] == 1


def test_skunk_limits() -> None:
    game = arranged(
        ["Skunk"],
        [["Fox", "Horse"], ["Hay", "Cat"]],
        [["Cow"], ["Camel"], ["Goat"]],
    )
    refused(game, one("Skunk", "port", 0, drive_out=C("Fox")), "undrivable", victim=C("Fox"))
    refused(game, one("Skunk", "port", 1, drive_out=C("Hay")), "victim_provision", victim=C("Hay"))
    refused(
        game,
        one("Skunk", "port", 1, drive_out=C("Cat")),
        "eats_provision",
        eater=C("Skunk"),
        provision=C("Hay"),
    )
    refused(game, one("Skunk", "port", 1, drive_out=C("Cow")), "victim_not_there", victim=C("Cow"))
    refused(game, one("Cat", "port", 0, drive_out=C("Horse")), "not_in_hand", card=C("Cat"))


def test_mosquito_drives_out_only_weight_two_animals() -> None:
    game = arranged(["Mosquito"], [["Sheep", "Horse", "Cow"]], [["Camel"], ["Goat"]])
    accepted(game, one("Mosquito", "port", 0, drive_out=C("Sheep")))  # into a full cabin
    refused(
        game,
        one("Mosquito", "port", 0, drive_out=C("Horse")),
        "mosquito_weight",
        card=C("Mosquito"),
        victim=C("Horse"),
    )
    game = arranged(["Mosquito"], [["Dog", "Horse"]], [["Camel"]])
    refused(
        game,
        one("Mosquito", "port", 0, drive_out=C("Horse")),
        "mosquito_weight",
        card=C("Mosquito"),
        victim=C("Horse"),
    )


def test_spider_drives_out_only_shy_animals_and_is_never_driven_out() -> None:
    game = arranged(["Spider"], [["Rabbit", "Horse"], ["Goat"]], [["Camel"], ["Cow"]])
    events = accepted(game, one("Spider", "port", 0, drive_out=C("Rabbit")))
    assert FigurePlaced(0, "shy") in events
    refused(
        game,
        one("Spider", "port", 0, drive_out=C("Horse")),
        "spider_shy",
        card=C("Spider"),
        victim=C("Horse"),
    )
    game = arranged(["Skunk"], [["Spider", "Horse"]], [["Camel"]])
    refused(game, one("Skunk", "port", 0, drive_out=C("Spider")), "undrivable", victim=C("Spider"))


def test_bronto_counts_one_and_a_half_and_two_halves_make_three() -> None:
    game = arranged(
        ["Bronto", "Chimpanzee"], [["Horse"]], [["Cow"], ["Goat"]], figures={0: {"heavy": 1}}
    )
    trial = Game.from_json(game.to_json())
    trial.apply(one("Bronto", "port", 1, take=C("Grain")))
    assert trial.figures(0)["heavy"] == 2.5
    both = PlayCards(
        (
            Placement(C("Bronto"), "port", 1, take=C("Grain")),
            Placement(C("Chimpanzee"), "starboard", 2, take=C("Dates"), half="heavy"),
        )
    )
    events = game.apply(both)
    assert FigurePlaced(0, "heavy", half=True) in events
    assert DiscUnderFigure(0, "heavy") in events
    assert game.figures(0)["heavy"] == 3  # 1.5 + 1.5: three whole figures
    assert game.figures(0)["useful"] == 1
    assert game.discs == (1, 3, 3, 6)


def test_chimpanzee_choices() -> None:
    game = arranged(["Chimpanzee"], [["Camel"]], [["Elephant"]], figures={0: {"slow": 1}})
    refused(
        game, one("Chimpanzee", "port", 0), "half_needed", half=None, options=("useful", "slow")
    )
    refused(
        game,
        one("Chimpanzee", "port", 0, half="provision"),
        "half_needed",
        half="provision",
        options=("useful", "slow"),
    )
    refused(
        game,
        one("Chimpanzee", "port", 0, half="heavy"),
        "half_needed",
        half="heavy",
        options=("useful", "slow"),
    )
    events = accepted(game, one("Chimpanzee", "port", 0, half="slow"))
    assert DiscUnderFigure(0, "slow") in events
    refused(
        game,
        PlayCards((Placement(C("Camel", 1), "port", 0, half="slow"),)),
        "not_in_hand",
        card=C("Camel"),
    )
    legal = [a for a in game.legal_actions() if isinstance(a, PlayCards)]
    assert {a.placements[0].half for a in legal if a.placements[0].row == 0} == {"useful", "slow"}


def test_driving_out_the_chimpanzee_or_bronto_gives_their_scoring() -> None:
    game = arranged(["Mosquito"], [["Chimpanzee", "Camel"]], [["Elephant"]])
    refused(
        game,
        one("Mosquito", "port", 0, drive_out=C("Chimpanzee")),
        "half_needed",
        half=None,
        options=("useful",),
    )
    game.apply(one("Mosquito", "port", 0, drive_out=C("Chimpanzee"), half="useful"))
    assert game.figures(0)["useful"] == 1.5
    game = arranged(["Skunk"], [["Bronto"], ["Goat"]], [["Elephant"], ["Chicken"]])
    events = game.apply(one("Skunk", "port", 0, drive_out=C("Bronto")))
    assert FigurePlaced(0, "heavy", half=True) in events
    assert game.figures(0)["heavy"] == 1.5
    assert game.tilt == 1  # elephant 3 + chicken 1 against skunk 1 + goat 2


def test_half_only_for_chimpanzees_and_drive_out_only_for_drivers() -> None:
    game = arranged(["Cat", "Fox"], [["Horse"]], [["Cow"]])
    refused(
        game,
        one("Cat", "port", 0, half="useful"),
        "half_only_chimpanzee",
        card=C("Cat"),
        half="useful",
    )
    refused(game, one("Fox", "port", 0, drive_out=C("Horse")), "not_a_driver", card=C("Fox"))
