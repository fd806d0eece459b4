"""The games' typed commands: one command group per game, made from its front's specs.

A front lists its commands as data (:class:`~bot.panels.CommandSpec`); this module turns each
into an ``app_commands.Command`` whose callback hands the options to the table, so a front
never touches discord.py and every game's commands get the same checks and answers.
"""

from __future__ import annotations

import inspect
import logging
from typing import Any

import discord
from discord import app_commands

from bot.discord_ui import clip, plain
from bot.games import Front
from bot.panels import CommandOption, CommandSpec
from bot.table import Table
from engine.errors import Refusal

log = logging.getLogger("arkbot")

DESCRIPTION_LIMIT = 100


def _english(text: Any) -> str:
    return clip(plain(text, "en"), DESCRIPTION_LIMIT)


def _said(text: Any) -> app_commands.locale_str:
    """A front's text as a command string: English here, every language via the translator."""
    return app_commands.locale_str(_english(text), key=text.key)


def _named(front: Front, part: str, english: str) -> app_commands.locale_str:
    """A command, option or group name: ``<game>.command_name.<part>`` in each language (the
    English name is the one in the code)."""
    return app_commands.locale_str(english, key=f"{front.name}.command_name.{part}")


def _annotation(option: CommandOption) -> Any:
    kind: Any = int if option.kind == "integer" else str
    if option.kind == "text" and option.max_length:
        kind = app_commands.Range[str, 1, option.max_length]
    return kind if option.required else kind | None


def command_for(
    table: Table, front: Front, spec: CommandSpec
) -> app_commands.Command[Any, ..., Any]:
    """One typed command of ``front``."""

    async def callback(interaction: discord.Interaction, **options: Any) -> None:
        await table.turns.on_command(interaction, front.name, spec, options)

    parameters = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ]
    for option in spec.options:
        parameters.append(
            inspect.Parameter(
                option.name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=_annotation(option),
                default=inspect.Parameter.empty if option.required else None,
            )
        )
    # The command is made at run time from the front's spec, so what discord.py's decorators
    # would set on the function (its signature and the options' descriptions, names,
    # autocompletes and choices, read by app_commands.Command) is set here; a function
    # object declares none of these attributes, hence the type ignores.
    callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    callback.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
        o.name: _said(o.description) for o in spec.options
    }
    callback.__discord_app_commands_param_rename__ = {  # type: ignore[attr-defined]
        o.name: _named(front, f"{spec.name}_{o.name}", o.name) for o in spec.options
    }
    callback.__discord_app_commands_param_autocomplete__ = {  # type: ignore[attr-defined]
        o.name: _autocompleter(table, front, spec, o.name) for o in spec.options if o.autocomplete
    }
    if any(o.choices for o in spec.options):
        callback.__discord_app_commands_param_choices__ = {  # type: ignore[attr-defined]
            o.name: [app_commands.Choice(name=_said(c.label), value=c.value) for c in o.choices]
            for o in spec.options
            if o.choices
        }
    return app_commands.Command(
        name=_named(front, spec.name, spec.name),
        description=_said(spec.description),
        callback=callback,
    )


def _autocompleter(table: Table, front: Front, spec: CommandSpec, option: str) -> Any:
    async def suggest(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[Any]]:
        typed = {
            o.name: getattr(interaction.namespace, o.name, None)
            for o in spec.options
            if o.name != option
        }
        try:
            pairs = await table.turns.on_autocomplete(
                interaction, front.name, spec.name, option, str(current or "")[:100], typed
            )
        except Refusal as refused:
            # A refusal is the table saying no (an answer to autocomplete can carry no message,
            # so none is offered): expected, nothing to fix.
            log.info("no suggestions for /%s %s: %r", front.command_group, spec.name, refused)
            return []
        except Exception:
            # Anything else is a bug in the front or the table: it must be seen in the log,
            # not pass for "nothing fits". The user still gets an (empty) answer.
            log.exception(
                "autocomplete of /%s %s (option %s) failed",
                front.command_group,
                spec.name,
                option,
            )
            return []
        return [app_commands.Choice(name=name, value=value) for name, value in pairs]

    return suggest


def group_for(table: Table, front: Front) -> app_commands.Group:
    """The command group ``/<front.command_group>`` with all the front's commands."""
    group = app_commands.Group(
        name=_named(front, "group", front.command_group),
        description=_said(front.title()),
        guild_only=True,
    )
    for spec in front.commands:
        group.add_command(command_for(table, front, spec))
    return group
