"""The catalogues: every message the code uses exists, every refusal can be said, and the
template language (plurals, choices, lists) says what it must."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.discord_ui import clip, escape, say, split_message
from bot.errors import error_text
from bot.panels import Refusal
from bot.service import ServiceError
from engine.covenant.errors import CODES as COVENANT_CODES
from engine.covenant.errors import REFUSALS as COVENANT_REFUSALS
from render.i18n import ListOf, Text, catalogue, format_message, placeholders, t

ROOT = Path(__file__).resolve().parents[2]
DOMAINS = ("common", "table", "covenant", "noah")
KEY = re.compile(r"""["'](?:f?)((?:common|table|covenant|noah)\.[a-z_][a-z_0-9.]*)["']""")
#: Message ids built at run time from a prefix (f-strings): their prefix and where.
DYNAMIC = re.compile(r"""f["']((?:common|table|covenant|noah)\.[a-z_.]*)\{""")


def used_keys() -> tuple[set[str], set[str]]:
    """The ids named literally in bot/ and render/, and the prefixes of built ones."""
    literal: set[str] = set()
    prefixes: set[str] = set()
    for folder in ("bot", "render"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text()
            literal |= {k for k in KEY.findall(text) if not k.endswith((".png", "."))}
            prefixes |= set(DYNAMIC.findall(text))
            # A front's own short ids: _t("turn.place_intro") means "covenant.turn...".
            if path.parts[-3:-1] == ("games", "covenant"):
                literal |= {
                    f"covenant.{k}"
                    for k in re.findall(r"""_t\(\s*["']([a-z_]+\.[a-z_]+|title)["']""", text)
                }
                prefixes |= {
                    f"covenant.{k}" for k in re.findall(r"""_t\(\s*f["']([a-z_.]*)\{""", text)
                }
    return literal, prefixes


def english() -> dict[str, str]:
    return {k: v for d in DOMAINS for k, v in catalogue(d, "en").items()}


def test_every_message_the_code_uses_exists_and_every_message_is_used() -> None:
    messages = english()
    literal, prefixes = used_keys()
    assert len(literal) > 100 and "covenant.story.tile_placed" in literal
    assert sorted(k for k in literal if k not in messages and k.split(".")[0] in DOMAINS) == []
    engine_codes = covenant_engine_codes()
    unused = [
        key
        for key in messages
        if key not in literal
        and not any(key.startswith(p) for p in prefixes)
        and not (key.startswith("covenant.illegal.") and key.split(".")[-1] in engine_codes)
    ]
    assert unused == []


def covenant_engine_codes() -> set[str]:
    """Every refusal code of the Covenant engine (checked against its source there)."""
    return set(COVENANT_CODES)


def test_every_refusal_of_the_service_and_the_engine_can_be_said() -> None:
    messages = english()
    sources = (ROOT / "bot" / "service" / "service.py").read_text()
    codes = set(re.findall(r'ServiceError\(\s*"([a-z_]+)"', sources)) - {"illegal"}
    assert len(codes) > 15
    assert sorted(c for c in codes if f"table.error.{c}" not in messages) == []
    engine = covenant_engine_codes()
    assert {"taken", "edge_mismatch", "ark_revisit", "no_followers", "view_only"} <= engine
    assert sorted(c for c in engine if f"covenant.illegal.{c}" not in messages) == []
    # A refusal's sentence asks only for values the engine gives with it.
    for code, params in COVENANT_REFUSALS.items():
        assert placeholders(messages[f"covenant.illegal.{code}"]) <= set(params), code


def test_templates_parse_and_name_only_identifiers() -> None:
    for key, text in english().items():
        assert all(name.isidentifier() for name in placeholders(text)), key


def test_refusals_and_service_errors_become_catalogue_sentences() -> None:
    assert error_text(Refusal("table.turn.not_yours", player="Ruth")) == t(
        "table.turn.not_yours", "en", player="Ruth"
    )
    stale = ServiceError("stale", "That turn was already played.")
    assert error_text(stale) == t("table.error.stale")
    illegal = ServiceError("illegal", "x", game="covenant", engine_code="taken", feature="road")
    assert (
        error_text(illegal) == "Someone already has a piece on that road (or on one joined to it)."
    )
    # A message needing a value the error lacks falls back to the service's own sentence.
    full = ServiceError("lobby_full", "This game is full (5 players).")
    assert error_text(full) == "This game is full (5 players)."
    assert error_text(RuntimeError("boom")) == t("table.error.unexpected")


def test_plurals_follow_the_language() -> None:
    steps = "{n, plural, one {# step} other {# steps}}"
    assert [format_message(steps, {"n": n}, "en") for n in (0, 1, 2)] == [
        "0 steps",
        "1 step",
        "2 steps",
    ]
    exact = "{n, plural, =0 {nobody} one {# player} other {# players}}"
    assert format_message(exact, {"n": 0}, "en") == "nobody"
    assert t("covenant.turn.spot_ways", count=1) == "fits 1 way"
    assert t("covenant.turn.spot_ways", count=3) == "fits 3 ways"
    line = t("table.stats.line", rank=1, player="Ruth", rating=1016, games=1, wins=1)
    assert line == "1. Ruth: 1016 (1 game, 1 win)"


def test_choices_lists_and_nested_texts() -> None:
    assert (
        t("covenant.story.piece_deployed", player="Ruth", feature="field", square="M12")
        == "Ruth put a follower on the field at M12."
    )
    gains = (Text("covenant.story.gain", player="Ruth", points=1), "Boaz +2")
    assert format_message("{g}", {"g": gains}, "en") == "Ruth +1, Boaz +2"
    both = ListOf(("Ruth", "Boaz", "Eli"), "standard")
    assert format_message("{w}", {"w": both}, "en") == "Ruth, Boaz, and Eli"
    assert format_message("{{literal}} {x}", {"x": 1}, "en") == "{literal} 1"


def test_a_missing_message_shows_its_id_and_never_crashes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    assert t("table.nowhere.nothing") == "table.nowhere.nothing"
    assert "table.nowhere.nothing" in caplog.text
    # Another language falls back to English, message by message.
    assert t("table.turn.stale", "xx-YY") == t("table.turn.stale", "en")


def test_user_text_is_escaped_in_messages_but_not_in_labels() -> None:
    someone = "<@123456789012345678>"
    named = Text("table.turn.not_yours", player=f"{someone} **Ruth**")
    said = say(named, "en")
    assert someone not in said and "\\*\\*Ruth\\*\\*" in said
    assert escape("@everyone") != "@everyone"


def test_long_posts_are_split_at_lines_never_cut() -> None:
    lines = [f"line {i} " + "x" * 90 for i in range(50)]
    messages = split_message(lines)
    assert all(len(m) <= 2000 for m in messages) and len(messages) == 3
    assert "\n".join(messages).split("\n") == lines
    assert clip("a" * 150, 100) == "a" * 99 + "…"
