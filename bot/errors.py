"""One place that turns any failure into a friendly, private message and a log line.

Users never see a traceback: a refusal (:class:`Refusal`, a service error, an illegal move)
becomes its sentence from the catalogue; anything unexpected is logged with its details
and the user is told that something went wrong and nothing was changed.
"""

from __future__ import annotations

import logging
from string import Formatter
from typing import Any

import discord
from discord import app_commands

from bot.i18n import catalogue, t
from bot.service import ServiceError

log = logging.getLogger("arkbot")


class Refusal(Exception):
    """A request the bot turns down with the catalogue message ``key``."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def _fill(text: str, params: dict[str, Any]) -> str | None:
    """``text`` filled with ``params``, or None if it needs a value that is missing."""
    needed = {name for _, name, _, _ in Formatter().parse(text) if name}
    if not needed <= params.keys():
        return None
    return text.format(**params)


def error_text(error: BaseException, language: str = "en") -> str:
    """What to tell the user about ``error``."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        error = error.__cause__ or error
    if isinstance(error, Refusal):
        return t(error.key, language, **error.params)
    if isinstance(error, ServiceError):
        messages = catalogue(language)
        code = error.code
        if code == "illegal":
            code = f"illegal.{error.params.get('engine_code', 'illegal')}"
        else:
            code = f"error.{code}"
        if code in messages:
            filled = _fill(messages[code], dict(error.params))
            if filled is not None:
                return filled
        # The service's own sentence is already written for players.
        return error.message
    if isinstance(error, app_commands.CheckFailure):
        return t("error.check_failed", language)
    return t("error.unexpected", language)


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Log ``error`` and tell the user privately, whatever state the interaction is in."""
    cause = error.__cause__ if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(cause, Refusal | ServiceError):
        log.info("refused %s for user %s: %s", _what(interaction), interaction.user.id, cause)
    else:
        log.error("error in %s", _what(interaction), exc_info=error)
    text = error_text(error)
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell user %s about an error", interaction.user.id)


def _what(interaction: discord.Interaction) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data = interaction.data or {}
    return str(data.get("custom_id", "an interaction"))
