"""One funnel that turns any failure into a friendly, private message and a log line.

Users never see a traceback: a refusal (any kind of :class:`engine.errors.Refusal`: the bot's
own, the service's, an engine's) becomes its catalogue text in the user's language, by one
path from its code to its key (:func:`catalogue_text`); anything unexpected is logged with its
details and the user is told that something went wrong. No sentence is taken from the
exception: the words are the catalogues' only.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, cast

import discord
from discord import app_commands

from bot.discord_ui import message_text
from bot.i18n import Text, language_of, t
from bot.service import ServiceError
from engine.errors import IllegalAction, Refusal
from render.i18n import placeholders, template

log = logging.getLogger("arkbot")


def catalogue_text(refusal: Refusal) -> Text | None:
    """The catalogue key and values that say ``refusal`` (see :mod:`engine.errors`).

    The service's is ``table.error.<code>``, an engine's the game's ``<game>.illegal.<code>``,
    and the bot's own names its key. An engine's refusal that reached here without the
    service does not say which game it is from: None (a bug, not a refusal).
    """
    if isinstance(refusal, ServiceError):
        return Text(f"table.error.{refusal.code}", **refusal.params)
    if isinstance(refusal, IllegalAction):
        if refusal.game is None:
            return None
        return Text(f"{refusal.game}.illegal.{refusal.code}", **refusal.params)
    return Text(refusal.code, **refusal.params)


def _cause(error: BaseException) -> BaseException:
    """The error itself, or what a command raised inside discord.py's wrapper."""
    if isinstance(error, app_commands.CommandInvokeError | app_commands.TransformerError):
        return error.__cause__ or error
    return error


def refusal_text(error: BaseException) -> Text | None:
    """What to say about an expected refusal (None for an unexpected error)."""
    error = _cause(error)
    if isinstance(error, Refusal):
        return catalogue_text(error)
    if isinstance(error, app_commands.CheckFailure):
        return Text("table.error.check_failed")
    return None


def error_text(
    error: BaseException, language: str = "en", *, stored: bool = False, changed: bool = False
) -> str:
    """What to tell the user about ``error`` (``stored``: their move was stored before it;
    ``changed``: what they asked for was, so nothing may say that nothing changed)."""
    said = refusal_text(error)
    if said is None:
        if stored:
            key = "table.error.after_move"
        else:
            key = "table.error.after_change" if changed else "table.error.unexpected"
        return t(key, language)
    text = template(said.key, language)
    if text is not None and placeholders(text) <= said.params.keys():
        return message_text(said, language)
    # A test holds every refusal code to its catalogue texts; should one slip through, the
    # user still hears something true, and the log says what is missing.
    log.warning("no catalogue text for %r with %s", _cause(error), sorted(said.params))
    return t("table.error.unexpected", language)


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Log ``error`` and tell the user privately, whatever state the interaction is in."""
    cause = _cause(error)
    if isinstance(cause, Refusal) and refusal_text(cause) is not None:
        log.info("refused %s for user %s: %r", _what(interaction), interaction.user.id, cause)
    else:
        log.error("error in %s", _what(interaction), exc_info=error)
    stored = bool(interaction.extras.get("stored"))
    changed = bool(interaction.extras.get("changed"))
    # Discord refuses a message over 2,000 characters; no refusal may be lost that way.
    text = error_text(error, language_of(interaction), stored=stored, changed=changed)[:2000]
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
    # discord.py types the data as a union of every interaction's; a component's has its id.
    data = cast(Mapping[str, Any], interaction.data or {})
    return str(data.get("custom_id", "an interaction"))[:100]
