"""One body just over each of Discord's limits, and the field Discord names when it refuses
it: what the tests of both fakes send, so each fake is shown to refuse every limit.

A case is ``(name, body, field)``: ``body`` a message body (for a new message, a follow-up,
an edit, or the data of an interaction's message answer), ``field`` the dotted path
discord.py prints ("In components.0.components.0.label: ...").
"""

from __future__ import annotations

from typing import Any

from tests.support import discord_limits as limits

__all__ = ["CHOICES", "MESSAGES", "THREAD_NAME", "button", "row", "select"]


def button(custom_id: str = "b", label: str = "ok") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def row(*items: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(items)}


def select(options: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": 3, "custom_id": "s", "options": options}


def _option(**over: str) -> dict[str, Any]:
    return {"label": "a", "value": "a", "description": "d"} | over


def _embed(**over: Any) -> dict[str, Any]:
    return {"title": "t", "description": "d"} | over


_LONG_OPTION = "x" * (limits.OPTION_TEXT + 1)
_ONE_FIELD = {"name": "n", "value": "v"}

#: Message bodies, each over one limit; the field Discord names.
MESSAGES: list[tuple[str, dict[str, Any], str]] = [
    ("content", {"content": "x" * (limits.CONTENT + 1)}, "content"),
    ("action rows", {"components": [row(button(f"b{n}")) for n in range(6)]}, "components"),
    (
        "items in a row",
        {"components": [row(*(button(f"b{n}") for n in range(6)))]},
        "components.0.components",
    ),
    (
        "button label",
        {"components": [row(button(label="x" * (limits.BUTTON_LABEL + 1)))]},
        "components.0.components.0.label",
    ),
    (
        "custom id",
        {"components": [row(button(custom_id="x" * (limits.CUSTOM_ID + 1)))]},
        "components.0.components.0.custom_id",
    ),
    (
        "a custom id twice",
        {"components": [row(button("b")), row(button("c"), button("b"))]},
        "components.1.components.1.custom_id",
    ),
    (
        "select options",
        {"components": [row(select([_option(value=str(n)) for n in range(26)]))]},
        "components.0.components.0.options",
    ),
    (
        "option label",
        {"components": [row(select([_option(label=_LONG_OPTION)]))]},
        "components.0.components.0.options.0.label",
    ),
    (
        "option value",
        {"components": [row(select([_option(value=_LONG_OPTION)]))]},
        "components.0.components.0.options.0.value",
    ),
    (
        "option description",
        {"components": [row(select([_option(description=_LONG_OPTION)]))]},
        "components.0.components.0.options.0.description",
    ),
    ("embeds", {"embeds": [_embed() for _ in range(11)]}, "embeds"),
    (
        "embed title",
        {"embeds": [_embed(title="x" * (limits.EMBED_TITLE + 1))]},
        "embeds.0.title",
    ),
    (
        "embed description",
        {"embeds": [_embed(description="x" * (limits.EMBED_DESCRIPTION + 1))]},
        "embeds.0.description",
    ),
    ("embed fields", {"embeds": [_embed(fields=[_ONE_FIELD] * 26)]}, "embeds.0.fields"),
    (
        "field name",
        {"embeds": [_embed(fields=[{"name": "x" * (limits.FIELD_NAME + 1), "value": "v"}])]},
        "embeds.0.fields.0.name",
    ),
    (
        "field value",
        {"embeds": [_embed(fields=[{"name": "n", "value": "x" * (limits.FIELD_VALUE + 1)}])]},
        "embeds.0.fields.0.value",
    ),
    (
        "footer",
        {"embeds": [_embed(footer={"text": "x" * (limits.FOOTER + 1)})]},
        "embeds.0.footer.text",
    ),
    (
        "author name",
        {"embeds": [_embed(author={"name": "x" * (limits.AUTHOR_NAME + 1)})]},
        "embeds.0.author.name",
    ),
    (
        "embeds in all",
        {"embeds": [_embed(description="x" * 3001), _embed(description="x" * 3001)]},
        "embeds",
    ),
    (
        "files",
        {"attachments": [{"id": n, "filename": f"{n}.png"} for n in range(11)]},
        "attachments",
    ),
    (
        "alt text",
        {"attachments": [{"id": 0, "filename": "a.png", "description": "x" * 1025}]},
        "attachments.0.description",
    ),
]

#: Autocomplete answers (``data`` of a type 8 callback), each over one limit.
CHOICES: list[tuple[str, list[dict[str, Any]], str]] = [
    ("choices", [{"name": str(n), "value": str(n)} for n in range(26)], "data.choices"),
    (
        "choice name",
        [{"name": "x" * (limits.CHOICE_TEXT + 1), "value": "a"}],
        "data.choices.0.name",
    ),
    (
        "choice value",
        [{"name": "a", "value": "x" * (limits.CHOICE_TEXT + 1)}],
        "data.choices.0.value",
    ),
]

#: A thread's name over the limit.
THREAD_NAME = "x" * (limits.THREAD_NAME + 1)
