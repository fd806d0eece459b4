"""Ark's lessons for a practice game (bot/games/noah/lessons.py): each lesson is due on a
concrete position and not on another, says what it must in every language, rings what it is
about, and a learner's move is told with its exact points."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

import render.noah
from bot.discord_ui import message_text
from bot.games import plugin
from bot.games.base import Seen
from bot.games.noah.lessons import NoahTeacher
from bot.panels import Text
from engine.noah import RULES, ChoosePet, Game, Pass, Placement, PlayCards, TakeCards, card_id

TEACHER = NoahTeacher()
NAMES = ("Ruth", "Boaz", "Naomi")
EVERYTHING = frozenset(TEACHER.lessons)
PLAYING = frozenset({"taking", "cabins"})


def table(**changes: Any) -> Game:
    """Three players, Ruth (seat 0) to play. The ark is level: port Sheep (2) and Goat (2),
    starboard Donkey (2) and Llama (2). Ruth holds Horse (3) and Chicken (1); Boaz and
    Naomi hold a Cow and a Pig she cannot see. Face up: Camel, Rabbit, Hay."""
    layout: dict[str, Any] = {
        "port": [["Sheep"], ["Goat"]],
        "starboard": [["Donkey"], ["Llama"]],
        "hands": [["Horse", "Chicken"], ["Cow"], ["Pig"]],
        "face_up": ["Camel", "Rabbit", "Hay"],
        "deck": ["Bison", "Moose", "Walrus"],
    }
    layout.update(changes)
    return Game.arranged(3, **layout)


def seen(game: Game, seat: int = 0) -> Seen:
    return Seen(game, seat, NAMES, 1, {})


def said(lines: list[Text] | tuple[Text, ...], language: str = "en") -> list[str]:
    return [message_text(line, language) for line in lines]


def played(game: Game, *actions: Any) -> Game:
    after = game.copy()
    for action in actions:
        after.apply(action)
    return after


def chicken(row: int = 0, side: str = "port", take: str | None = None) -> PlayCards:
    taken = None if take is None else card_id(take)
    return PlayCards((Placement(card_id("Chicken"), side, row, take=taken),))


def pet_choice() -> Game:
    """Naomi takes the Camel and draws the second rain card: the pet choice begins with Ruth,
    who then holds Horse, Chicken, Camel and Cow."""
    game = table(
        rain=1,
        current=2,
        deck=["Rain", "Cow", "Bison"],
        hands=[["Horse", "Chicken"], ["Moose"], ["Pig"]],
    )
    game.apply(TakeCards(card_id("Camel")))
    assert game.phase == "pet" and game.current_player == 0
    return game


# --------------------------------------------------------------------- the lessons and the plugin


def test_the_lessons_follow_the_rule_book_and_the_plugin_has_them() -> None:
    assert TEACHER.lessons == (
        "taking",
        "cabins",
        "majorities",
        "rain",
        "alone",
        "balance",
        "carnivores",
        "discs",
        "pets",
        "drive_out",
        "orange",
        "fox",
        "tough",
        "endgame",
        "final",
    )
    assert isinstance(plugin("noah").teacher, NoahTeacher)
    # A practice game is dealt with the rain cards spread out; the rules accept that, and a
    # plain table's deal is the normal one.
    assert TEACHER.practice_options(7) == {"deal": "practice"}
    assert RULES.check_options(TEACHER.practice_options(7)) == {"deal": "practice"}
    assert RULES.check_options({"deal": "normal"}) == {}
    with pytest.raises(ValueError):
        RULES.check_options({"deal": "stacked"})
    with pytest.raises(ValueError):
        RULES.check_options({"length": "short"})


def test_the_practice_deal_spreads_the_rain_and_is_the_same_deal_otherwise() -> None:
    from engine.noah.cards import IS_RAIN

    for seed in range(5):
        plain, practice = Game.new(3, seed), RULES.new(3, seed, {"deal": "practice"})
        plain_deck, deck = plain._state.deck, practice._state.deck
        draws = list(reversed(deck))
        # The first rain card after the top half, then 8, 5 and 5 cards before the next
        # ones, the last at the bottom.
        assert [i for i, card in enumerate(draws) if IS_RAIN[card]] == [21, 30, 36, 42, 46]
        # The same cards, hands and face-up cards: only the rain cards moved.
        assert sorted(plain_deck) == sorted(deck)
        assert [c for c in plain_deck if not IS_RAIN[c]][-21:] == [
            c for c in deck if not IS_RAIN[c]
        ][-21:]
        assert practice.hand(0) == plain.hand(0) and practice.face_up == plain.face_up


# --------------------------------------------------------------------- when each is due


def test_the_first_turn_teaches_taking_then_playing() -> None:
    assert TEACHER.due(seen(table()), frozenset()) == ["taking", "cabins"]
    # A hand with no card that fits anywhere (the Elephant, weight 3, on a level ark): only
    # taking.
    assert TEACHER.due(seen(table(hands=[["Elephant"], ["Cow"], ["Pig"]])), frozenset()) == [
        "taking"
    ]


@pytest.mark.parametrize("seed", range(8))
def test_a_real_first_turn_teaches_at_most_two_lessons_starting_with_taking(seed: int) -> None:
    game = Game.new(players=4, seed=seed)
    due = TEACHER.due(seen(game), frozenset())
    assert due[0] == "taking" and set(due) <= PLAYING


def test_a_move_puts_to_use_the_ideas_of_its_actions() -> None:
    """What the table checks before it suggests a move: taking, playing into a cabin there
    is (port 1 of 2), opening a new one (port 3: an action disc), choosing a pet."""
    game = table()
    assert TEACHER.uses(seen(game), [TakeCards(card_id("Camel"))]) == {"taking"}
    assert TEACHER.uses(seen(game), [chicken(row=0)]) == {"cabins"}
    assert TEACHER.uses(seen(game), [chicken(row=2, take="Camel")]) == {"cabins", "discs"}
    assert TEACHER.uses(seen(pet_choice()), [ChoosePet(card_id("Horse"))]) == {"pets"}
    assert TEACHER.uses(seen(pet_choice()), [Pass()]) == frozenset()


def test_nothing_is_due_when_it_is_not_the_learners_turn() -> None:
    assert TEACHER.due(seen(table(current=1)), frozenset()) == []
    assert TEACHER.due(Seen(table(), None, NAMES, 1, {}), frozenset()) == []


def test_what_has_been_taught_is_not_due_again() -> None:
    assert TEACHER.due(seen(table()), EVERYTHING) == []


#: The lessons after playing, which need no situation on the board, in the rule book's order
#: (the rain cards told with taking cards, before they fall), up to the pets.
RULES_OF_PLAY = ["majorities", "rain", "alone", "balance", "carnivores", "discs"]
#: The "!" animals, after the pets.
SPECIALS = ["drive_out", "orange", "fox", "tough"]


def test_after_playing_the_rules_come_in_the_rule_books_order_whatever_the_deal() -> None:
    # Not before playing has been taught (one idea at a time) ...
    assert TEACHER.due(seen(table()), frozenset({"taking"})) == ["cabins"]
    # ... then every rule of play, in order, with or without its situation on the table
    # (no disc to open a cabin, nothing the lean keeps off a side), up to the pets.
    assert TEACHER.due(seen(table()), PLAYING) == RULES_OF_PLAY
    light = table(hands=[["Chicken", "Reindeer"], ["Cow"], ["Pig"]], discs=[0, 4, 4])
    assert TEACHER.due(seen(light), PLAYING | {"majorities"}) == RULES_OF_PLAY[1:]


def test_the_pets_wait_for_their_moment_and_the_ones_after_them_too() -> None:
    before_pets = PLAYING | set(RULES_OF_PLAY)
    assert TEACHER.due(seen(table(rain=1)), before_pets) == []
    # The pets' one turn teaches them, even before a lesson still waiting.
    assert TEACHER.due(seen(pet_choice()), PLAYING | {"rain"}) == ["pets"]
    assert "pets" not in TEACHER.due(seen(table(rain=1)), frozenset())
    # Once the pet choice is over, the "!" animals, in order.
    assert TEACHER.due(seen(table(rain=2)), before_pets) == SPECIALS
    assert TEACHER.due(seen(table(rain=3)), before_pets | {"pets"}) == SPECIALS


def test_the_endgame_brings_the_endgame_and_the_final_scoring() -> None:
    endgame = table(rain=5, phase="endgame")
    everything_before = PLAYING | set(RULES_OF_PLAY) | set(SPECIALS)
    # The pet choice came and went: its lesson does not hold the rest up.
    assert TEACHER.due(seen(endgame), everything_before) == ["endgame", "final"]
    # The endgame's lesson comes first even with lessons still waiting (it may be a
    # single turn: a pass ends it), then those in order.
    assert TEACHER.due(seen(endgame), PLAYING | set(RULES_OF_PLAY)) == [
        "endgame",
        *SPECIALS,
        "final",
    ]
    assert TEACHER.due(seen(table()), EVERYTHING - {"endgame", "final"}) == []


def test_every_rule_of_the_rule_book_has_a_lesson() -> None:
    from bot.games.noah.lessons import RULES as TAUGHT

    assert set(TAUGHT.values()) == set(TEACHER.lessons)
    # The eight "!" animals, the provisions, playing alone, the sides, the right, the ties.
    for rule in (
        "fox_discs",
        "skunk_drives_out",
        "mosquito_drives_out",
        "spider_drives_out",
        "bronto_orange_disc",
        "chimpanzee_orange_disc",
        "turtle_fears_nothing",
        "hedgehog_fears_nothing",
        "herbivores_not_with_provisions",
        "slow_and_provisions_alone",
        "port_starboard_bow",
        "player_on_your_right",
        "ties_share",
    ):
        assert rule in TAUGHT


# --------------------------------------------------------------------- what each says


def test_taking_points_at_the_face_up_cards() -> None:
    lesson = TEACHER.lesson("taking", seen(table()), None)
    assert said(lesson.lines) == [
        "On your turn you take cards or play cards, never both.",
        "To take, pick a face-up card (ringed): the top card of the pile comes with it.",
    ]
    assert lesson.picture is not None and lesson.picture.args[2] == ["face_up"]
    assert lesson.suggestion is None


def test_cabins_counts_where_a_card_of_the_hand_fits_and_says_the_hint() -> None:
    hint = [chicken()]
    lesson = TEACHER.lesson("cabins", seen(table()), hint)
    # The Horse fits nowhere; the Chicken in the four cabins and both new ones.
    assert said(lesson.lines)[1] == "Your Chicken fits in 6 cabins now."
    assert lesson.picture is not None
    assert lesson.picture.args[2] == [
        "port:0",
        "port:1",
        "starboard:0",
        "starboard:1",
        "port:2",
        "starboard:2",
    ]
    assert lesson.suggestion is not None
    short = TEACHER.lesson("alone", seen(table()), hint)
    assert short.suggestion is not None
    assert said([short.suggestion]) == [
        "💡 Play the Chicken: it puts you first on the useful card. The Chicken in port cabin 1."
    ]
    assert said([short.suggestion], "nl") == [
        "💡 Speel de Kip: daarmee ga je aan kop op de kaart voor nuttige dieren. "
        "De Kip in hut 1 aan bakboord."
    ]
    # The same hint in its log form says the same.
    again = TEACHER.lesson("alone", seen(table()), [hint[0].to_dict()])
    assert again.suggestion == short.suggestion


def test_balance_says_which_side_the_lean_closes() -> None:
    lesson = TEACHER.lesson("balance", seen(table()), None)
    assert said(lesson.lines)[1] == (
        "Now the ark is level: your Horse (weight 3) fits on neither side until the port side "
        "weighs 1 more."
    )
    assert lesson.picture is not None and lesson.picture.args[2] == ["bow"]
    # Leaning 1 to starboard (a Chicken there), a Reindeer (2) may only go to port.
    leaning = table(
        starboard=[["Donkey"], ["Llama"], ["Chicken"]], hands=[["Reindeer"], ["Cow"], ["Pig"]]
    )
    assert said(TEACHER.lesson("balance", seen(leaning), None).lines)[1] == (
        "Now the ark leans 1 to starboard: your Reindeer (weight 2) cannot go to starboard."
    )


def test_carnivores_names_the_learners_own_or_the_one_on_the_ark() -> None:
    cat = table(hands=[["Cat", "Chicken"], ["Cow"], ["Pig"]])
    lesson = TEACHER.lesson("carnivores", seen(cat), None)
    assert said(lesson.lines)[1] == "Your Cat eats meat: it fits in 6 cabins now."
    dog = table(starboard=[["Donkey"], ["Llama", "Dog"]], hands=[["Chicken"], ["Cow"], ["Pig"]])
    lesson = TEACHER.lesson("carnivores", seen(dog), None)
    assert said(lesson.lines)[1] == ("The Dog in starboard cabin 2 eats meat.")
    assert said(lesson.lines, "es")[1] == ("El Perro del camarote 2 de estribor come carne.")
    assert lesson.picture is not None and lesson.picture.args[2] == [card_id("Dog")]


def test_the_later_lessons_say_the_learners_own_numbers() -> None:
    discs = TEACHER.lesson("discs", seen(table()), None)
    # Ruth plays first: the player on her right is Naomi, the last.
    assert said(discs.lines) == [
        "A new cabin costs an action disc for the player on your right: Naomi, who plays just "
        "before you. You also take a face-up card."
    ]
    rain = TEACHER.lesson("rain", seen(table(rain=1)), None)
    assert said(rain.lines) == [
        "The pile hides 5 rain cards (1 fallen): the second brings the pets, the fifth the endgame."
    ]
    pets = TEACHER.lesson("pets", seen(pet_choice()), [ChoosePet(card_id("Chicken"))])
    # Horse, Camel and Cow weigh 3: only the Chicken would score.
    assert said(pets.lines)[1] == "1 of your cards would score as a pet (★)."
    # A pet that would not score is never suggested: the Chicken instead of the Horse.
    horse = TEACHER.lesson("pets", seen(pet_choice()), [ChoosePet(card_id("Horse"))])
    assert horse.suggestion is not None
    assert said([horse.suggestion]) == ["💡 Take the Chicken as your pet."]
    endgame = TEACHER.lesson("endgame", seen(table(rain=5, phase="endgame")), None)
    assert said(endgame.lines)[1] == "You have 4 action discs left."
    final = TEACHER.lesson("final", seen(table(rain=5, phase="endgame")), None)
    assert said(final.lines) == [
        "Each action disc left is 1 point. Players tied on a scoring card share its points "
        "(two firsts get 8 each). Tied at the end? Fewest animals in hand wins."
    ]


POSITIONS = {
    "taking": table,
    "cabins": table,
    "balance": table,
    "carnivores": lambda: table(hands=[["Cat", "Chicken"], ["Cow"], ["Pig"]]),
    "discs": table,
    "rain": lambda: table(rain=1),
    "pets": pet_choice,
    "endgame": lambda: table(rain=5, phase="endgame"),
    "majorities": table,
    "alone": table,
    "provisions": table,
    "fox": table,
    "drive_out": table,
    "orange": table,
    "tough": table,
    "final": lambda: table(rain=5, phase="endgame"),
}


@pytest.mark.parametrize("key", TEACHER.lessons)
def test_every_lesson_is_said_in_every_language_naming_no_hidden_card(key: str) -> None:
    game = POSITIONS[key]()
    hint = game.legal_actions()[:1]
    lesson = TEACHER.lesson(key, seen(game), hint)
    assert lesson.key == key and 1 <= len(lesson.lines) <= 2
    texts = [*lesson.lines, *([lesson.suggestion] if lesson.suggestion else [])]
    english = said(texts)
    for language in ("en", "nl", "es"):
        for text in said(texts, language):
            assert "noah." not in text and "{" not in text, (language, text)
            # Boaz's Cow and Naomi's Pig are theirs alone.
            assert not {"Cow", "Pig", "Koe", "Varken", "Vaca", "Cerdo"} & set(
                text.replace(".", " ").replace(":", " ").split()
            ), text
        if language != "en":
            assert said(lesson.lines, language) != said(lesson.lines), language
    assert english


@pytest.mark.parametrize("key", ["taking", "cabins", "balance", "discs", "rain", "majorities"])
def test_a_lessons_picture_is_the_table_with_rings(key: str) -> None:
    game = POSITIONS[key]()
    lesson = TEACHER.lesson(key, seen(game), None)
    assert lesson.picture is not None and lesson.picture.function == "render.noah:board"
    view, names, focus, viewer = lesson.picture.args
    assert view == game.view(None) and focus  # drawn from the public view only
    assert viewer == game.current_player  # for the learner: "Your turn to play"
    ringed = render.noah.board(view, names, focus, language="en")
    plain = render.noah.board(view, names, language="en")
    assert ringed.startswith(b"\x89PNG") and ringed != plain
    with Image.open(io.BytesIO(ringed)) as image:
        image.verify()
    with Image.open(io.BytesIO(ringed)) as a, Image.open(io.BytesIO(plain)) as b:
        assert a.size == b.size  # rings only: nothing moves
    # No focus is the picture the board post has always had.
    assert render.noah.board(view, names, [], language="en") == plain


# --------------------------------------------------------------------- after a move


def test_after_taking_cards_the_card_from_the_pile_is_not_named() -> None:
    game = table()
    take = TakeCards(card_id("Camel"))
    lines = said(TEACHER.after_move(seen(game), seen(played(game, take)), [take], None))
    assert lines == ["You took the Camel and the top card of the pile: you now hold 4 cards."]
    assert "Bison" not in lines[0]  # the card drawn


def test_after_a_play_the_cabin_the_lean_the_figure_and_the_points() -> None:
    game = table()
    play = chicken()
    after = played(game, play)
    lines = TEACHER.after_move(seen(game), seen(after), [play], None)
    assert said(lines) == [
        "You put the Chicken in port cabin 1: the ark leans 1 to port.",
        "You placed a figure on the useful card.",
        # First on the useful card: 10 points, besides her 4 discs.
        "If it stays this way until the end, that is 10 points more for you: 14 in all.",
    ]
    assert said(lines, "nl") == [
        "Je zette de Kip in hut 1 aan bakboord: de ark helt 1 naar bakboord.",
        "Je zette een figuur op de kaart voor nuttige dieren.",
        "Als het zo blijft tot het eind, levert dat je 10 punten op: 14 in totaal.",
    ]
    assert said(lines, "es") == [
        "Has puesto la Gallina en el camarote 1 de babor: el arca se inclina 1 casilla a babor.",
        "Has puesto una figura en la carta de animales útiles.",
        "Si todo sigue así hasta el final, son 10 puntos más para ti: 14 en total.",
    ]
    # Latin American Spanish says what was just done in the simple past.
    assert said(lines, "es-419")[:2] == [
        "Pusiste la Gallina en el camarote 1 de babor: el arca se inclina 1 casilla a babor.",
        "Pusiste una figura en la carta de animales útiles.",
    ]


def test_after_opening_a_cabin_the_disc_paid_and_the_card_taken_with_it() -> None:
    game = table()
    play = chicken(row=2, take="Camel")
    lines = TEACHER.after_move(seen(game), seen(played(game, play)), [play], None)
    assert said(lines) == [
        "You gave an action disc to Naomi for the new cabin (3 left).",
        "You put the Chicken in a new port cabin 3: the ark leans 1 to port.",
        "You placed a figure on the useful card.",
        "For the new cabin you took the Camel from the face-up cards.",
        # 10 for the lead, 1 disc fewer
        "If it stays this way until the end, that is 9 points more for you: 13 in all.",
    ]


def test_two_new_cabins_in_one_turn_each_say_the_discs_left_after_it() -> None:
    game = table(hands=[["Chicken", "Reindeer"], ["Cow"], ["Pig"]])
    play = PlayCards(
        (
            Placement(card_id("Chicken"), "port", 2, take=card_id("Camel")),
            Placement(card_id("Reindeer"), "starboard", 2, take=card_id("Rabbit")),
        )
    )
    lines = said(TEACHER.after_move(seen(game), seen(played(game, play)), [play], None))
    paid = [line for line in lines if line.startswith("You gave")]
    assert paid == [
        "You gave an action disc to Naomi for the new cabin (3 left).",
        "You gave an action disc to Naomi for the new cabin (2 left).",
    ]


def test_a_clearly_better_move_is_told_kindly_with_its_points() -> None:
    game = table()
    take, play = TakeCards(card_id("Camel")), chicken()
    lines = TEACHER.after_move(seen(game), seen(played(game, take)), [take], [play])
    assert said(lines) == [
        "You took the Camel and the top card of the pile: you now hold 4 cards.",
        "Nice try! This move would have given you 10 points more right now:",
        "Play the Chicken: it puts you first on the useful card.",
        "The Chicken in port cabin 1.",
    ]
    # The same move, or one only a point better (the lead without the disc), is not told.
    assert len(TEACHER.after_move(seen(game), seen(played(game, play)), [play], [play])) == 3
    opening = chicken(row=2, take="Camel")
    lines = TEACHER.after_move(seen(game), seen(played(game, opening)), [opening], [play])
    assert not any("Good try" in line for line in said(lines))


def test_after_the_pet_choice_the_learner_hears_whether_it_will_score() -> None:
    game = pet_choice()
    for card, expected in (
        ("Chicken", "Your pet is the Chicken: at the end it adds a figure to the useful card."),
        (
            "Horse",
            "Your pet is the Horse, which will not score: only an animal of weight 0 to 2 "
            'without "!" does.',
        ),
    ):
        choice = ChoosePet(card_id(card))
        after = played(game, choice)
        assert said(TEACHER.after_move(seen(game), seen(after), [choice], None)) == [expected]
    after = played(game, Pass())
    assert said(TEACHER.after_move(seen(game), seen(after), [Pass()], None)) == [
        "You chose no pet."
    ]


def test_in_the_endgame_a_play_costs_a_disc_and_a_pass_keeps_them() -> None:
    game = table(rain=5, phase="endgame", figures={0: {"useful": 1}})
    assert said(TEACHER.after_move(seen(game), seen(played(game, Pass())), [Pass()], None)) == [
        "You passed for good: your 4 action discs are worth a point each at the end."
    ]
    play = chicken()
    lines = TEACHER.after_move(seen(game), seen(played(game, play)), [play], None)
    assert said(lines) == [
        "You returned an action disc to the supply (3 left).",
        "You put the Chicken in port cabin 1: the ark leans 1 to port.",
        "You placed a figure on the useful card.",
        # Already first on the useful card: the disc paid is a point less.
        "If it stays this way until the end, you have 13 points, 1 fewer: every action disc you "
        "keep is worth a point.",
    ]
    for language in ("nl", "es"):
        assert all("noah." not in text and "{" not in text for text in said(lines, language))


def test_the_last_pass_leaves_the_final_scoring_to_the_final_post() -> None:
    game = table(rain=5, phase="endgame", passed=[False, True, True], figures={0: {"useful": 1}})
    after = played(game, Pass())
    assert after.phase == "over"
    # No "points now": the final scores (pets, everyone's majorities) are not this move's.
    assert said(TEACHER.after_move(seen(game), seen(after), [Pass()], [chicken()])) == [
        "You passed for good: your 4 action discs are worth a point each at the end."
    ]


# --------------------------------------------------------------------- the summary


def test_the_summary_has_a_line_per_lesson_taught_in_the_rule_books_order() -> None:
    lines = TEACHER.summary(frozenset({"rain", "taking"}), {})
    assert said(lines) == [
        "Taking: a face-up card, and the top card of the pile comes with it.",
        "Rain: the second card brings the pets, the fifth the endgame.",
    ]
    everything = TEACHER.summary(EVERYTHING, {})
    assert len(everything) == len(TEACHER.lessons)
    for language in ("en", "nl", "es"):
        assert all("noah." not in text for text in said(everything, language))


# --------------------------------------------------------------------- a turn's lessons


def test_a_turn_says_one_idea_within_forty_words_with_its_progress() -> None:
    from bot.games.teaching import MOST_WORDS, turn_lessons, words

    hint = [chicken()]
    for language in ("en", "nl", "es"):
        view = Seen(table(), 0, NAMES, 1, {}, language)
        first = turn_lessons(TEACHER, view, (), hint)
        # Taking alone: with playing it would say over 40 words.
        assert first.keys == ("taking",)
        assert words(first.lines, language) <= MOST_WORDS
        assert said(first.lines[:1], language) == [
            {"en": "📖 Lesson 1 of 15", "nl": "📖 Les 1 van 15", "es": "📖 Lección 1 de 15"}[
                language
            ]
        ]
        # The balance with its example would be too long: its idea alone, then the hint.
        balance = turn_lessons(
            TEACHER, view, ["taking", "cabins", "majorities", "rain", "alone"], hint
        )
        assert balance.keys == ("balance",)
        keys = [line.key for line in balance.lines]
        assert keys[:2] == ["table.learn.progress", "noah.lesson.balance"]
        assert "noah.lesson.balance_neither" not in keys
        assert words(balance.lines, language) <= MOST_WORDS
    # Two short ones fit in one turn: the Fox and the Turtle.
    taught = [k for k in TEACHER.lessons if k not in ("fox", "tough", "endgame", "final")]
    late = turn_lessons(TEACHER, seen(table(rain=3)), taught, None)
    assert late.keys == ("fox", "tough")
    assert said(late.lines[:1]) == ["📖 Lessons 12–13 of 15"]
    assert said(late.lines[:1], "nl") == ["📖 Les 12–13 van 15"]


def test_the_scoring_cards_are_taught_under_the_first_figure_placed() -> None:
    from bot.games.teaching import after_turn_lesson

    game = table()
    play = chicken()
    after = played(game, play)
    then = after_turn_lesson(TEACHER, seen(game), seen(after), [play], ["taking", "cabins"])
    assert then.keys == ("majorities",)
    assert said(then.lines) == [
        "📖 Lesson 3 of 15",
        "Each card you play puts your figure on its scoring card. At the end the most figures "
        "there get 10 points, the next 6, the others 2.",
    ]
    # Not before playing is taught (in order), nor after taking cards, nor twice.
    assert after_turn_lesson(TEACHER, seen(game), seen(after), [play], ["taking"]).keys == ()
    take = TakeCards(card_id("Camel"))
    taken = played(game, take)
    assert (
        after_turn_lesson(TEACHER, seen(game), seen(taken), [take], ["taking", "cabins"]).keys == ()
    )
    again = ["taking", "cabins", "majorities"]
    assert after_turn_lesson(TEACHER, seen(game), seen(after), [play], again).keys == ()
