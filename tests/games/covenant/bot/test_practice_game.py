"""A whole practice game of The Ark of the Covenant: every rule of the rule book taught once,
one a turn, in its order, in English, Dutch and Spanish (played without Discord, and through
the harness); the arranged deal; the puzzles after a lesson's turn, answered wrong and then
right."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.games.covenant.lessons import LESSONS, lessons_of
from bot.games.covenant.practice_deal import PLAN, practice_deck
from bot.games.covenant.practice_run import play_practice
from engine.covenant import TILES
from engine.covenant.editions import EN2
from tests.bot.test_learning import LEARNER, bot_of, learn, play_through
from tests.support.bot import CHANNEL, make_bot
from tests.support.harness import Harness


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_every_rule_is_taught_once_one_a_turn_in_the_rule_books_order(seed: int) -> None:
    run = play_practice(seed, "following", ("en", "nl", "es"))
    assert run.expected == lessons_of(EN2)
    assert "ark_temple" not in run.expected  # the second edition has no such rule
    assert run.taught == list(run.expected)
    # One a turn from the first turn on; the end when few tiles are left.
    assert all(len(keys) == 1 for keys in run.turns[: len(run.expected)])
    for language in ("en", "nl", "es"):
        said = " ".join(" ".join(lines) for lines in run.said[language])
        assert "covenant." not in said and "{" not in said


def test_the_deal_keeps_its_plan_whatever_the_seed() -> None:
    for seed in range(40):
        deck = practice_deck(seed)
        assert len(deck) == 35
        assert all(kind(TILES[tile]) for kind, tile in zip(PLAN, deck, strict=False))
        # No temple before the learner's temple tile (the ninth of theirs, the 25th).
        assert not any(TILES[t].temple for t in deck[:24]) and TILES[deck[24]].temple
        # The first three rounds: the computers' tiles have no city, the learner's cities
        # all reach two edges or more, so no city can be finished before the Ark's lesson.
        for index, tile in enumerate(deck[:9]):
            cities = [len(s.sides) for s in TILES[tile].segments if s.kind == "city"]
            assert (min(cities) >= 2) if index % 3 == 0 else not cities


def test_no_city_is_finished_before_the_arks_lesson() -> None:
    for seed in range(8):
        run = play_practice(seed, "following")
        ark_turn = run.taught.index("ark")
        assert run.first_city is None or run.first_city >= ark_turn, seed


def test_the_prophet_is_never_suggested_before_its_lesson() -> None:
    for seed in range(8):
        run = play_practice(seed, "following", ("en",))
        prophet_turn = run.taught.index("prophet")
        early = " ".join(" ".join(lines) for lines in run.said["en"][:prophet_turn])
        assert "Prophet" not in early, seed


def test_the_lessons_list_every_rule_of_the_rule_book() -> None:
    assert set(LESSONS) == {
        "placing",
        "followers",
        "prophet",
        "ark",
        "ark_moves",
        "roads",
        "cities",
        "majority",
        "temples",
        "ark_temple",
        "fields",
        "end",
    }


async def test_a_puzzle_answered_wrong_then_right(tmp_path: Path) -> None:
    async with Harness(await make_bot(tmp_path / "g.sqlite3"), channel_id=CHANNEL) as h:
        h.user(LEARNER, "Noor", locale="en-US")
        game_id, _, _ = await learn(h, "covenant")
        turns = await play_through(h, game_id)
        asked: list[tuple[int, str, list[str]]] = []
        for panels in turns:
            private = [p for p in panels if p.ephemeral]
            message = h.message(private[-1].message_id)
            ids = re.findall(r"sb:\d+:\d+:table_quiz:[a-z_]+:\d+", str(message.get("components")))
            if ids:
                asked.append((int(private[-1].message_id or 0), str(message["content"]), ids))
        # At least three times a game, each a question and two or three answers.
        assert len(asked) >= 3
        assert all("🧩 Try it:" in content and 2 <= len(ids) <= 3 for _, content, ids in asked)
        message_id, content, ids = next(a for a in asked if "3 tiles and 1 scroll" in a[1])
        assert "A finished city has 3 tiles and 1 scroll" in content
        wrong = await h.click(LEARNER, message_id, next(i for i in ids if i.endswith(":5")))
        assert wrong.last.ephemeral
        assert wrong.text.endswith(
            "❌ Not quite. Count 2 points for each tile, then add the scroll. "
            "Tap another answer to try again."
        )
        right = await h.click(LEARNER, message_id, next(i for i in ids if i.endswith(":8")))
        assert right.text.endswith("✅ Right! 2 points a tile and 2 for the scroll: 6 + 2 = 8.")
        # A made-up answer, or one of a lesson not taught, is refused and changes nothing.
        record = await bot_of(h).service.play.get_game(game_id)
        forged = await h.forge(LEARNER, message_id, f"sb:{game_id}:0:table_quiz:cities:7")
        assert "no longer valid" in forged.text
        assert await bot_of(h).service.play.get_game(game_id) == record
