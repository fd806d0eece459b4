"""One funnel that turns any failure into a friendly, private message and a log line.

Users never see a traceback: a refusal (:class:`~bot.panels.Refusal`, a service error, an
illegal move) becomes its sentence from the catalogues, in the user's language; anything
unexpected is logged with its details and the user is told that something went wrong.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.discord_ui import message_text
from bot.i18n import Text, language_of, t
from bot.panels import Refusal
from bot.service import ServiceError
from render.i18n import placeholders, template

log = logging.getLogger("arkbot")


def _fill(key: str, params: dict[str, Any], language: str) -> str | None:
    """Message ``key`` filled with ``params``, or None if it is missing or needs more."""
    text = template(key, language)
    if text is None or not placeholders(text) <= params.keys():
        return None
    return message_text(Text(key, **params), language)


def refusal_text(error: BaseException) -> Text | None:
    """What to say about an expected refusal (None for an unexpected error)."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        error = error.__cause__ or error
    if isinstance(error, Refusal):
        return error.text
    if isinstance(error, ServiceError):
        if error.code == "illegal":
            game = error.params.get("game", "")
            return Text(f"{game}.illegal.{error.params.get('engine_code', 'illegal')}")
        return Text(f"table.error.{error.code}")
    if isinstance(error, app_commands.CheckFailure):
        return Text("table.error.check_failed")
    return None


def error_text(error: BaseException, language: str = "en", *, stored: bool = False) -> str:
    """What to tell the user about ``error`` (``stored``: their move was stored before it)."""
    said = refusal_text(error)
    if said is None:
        key = "table.error.after_move" if stored else "table.error.unexpected"
        return t(key, language)
    cause = error.__cause__ if isinstance(error, app_commands.CommandInvokeError) else error
    params = dict(getattr(cause, "params", {}) or {})
    params.update(said.params)
    filled = _fill(said.key, params, language)
    if filled is not None:
        return filled
    if isinstance(cause, ServiceError):
        # The service's own sentence is written for players too (English only).
        return cause.message
    return t("table.error.unexpected", language)


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Log ``error`` and tell the user privately, whatever state the interaction is in."""
    cause = error.__cause__ if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(cause, Refusal | ServiceError):
        log.info("refused %s for user %s: %r", _what(interaction), interaction.user.id, cause)
    else:
        log.error("error in %s", _what(interaction), exc_info=error)
    stored = bool(interaction.extras.get("stored"))
    # Discord refuses a message over 2,000 characters; no refusal may be lost that way.
    text = error_text(error, language_of(interaction), stored=stored)[:2000]
    try:
        if interaction.response.is_done():
            await interaction.followup.send(
                text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
        else:
            await interaction.response.send_message(
                text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
    except discord.HTTPException:
        log.warning("could not tell user %s about an error", interaction.user.id)


def _what(interaction: discord.Interaction) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data = interaction.data or {}
    return str(data.get("custom_id", "an interaction"))[:100]
