"""The table: what the bot does for every game, for each command and click.

It knows no game. It opens lobbies, checks who may do what (the one turn check, in
:meth:`~bot.table.common.Common.my_turn`), asks the game's front (:mod:`bot.games`) for
panels, hands moves to the game service, and posts what happened. Slash commands (the cogs)
and buttons and menus (:mod:`bot.discord_ui`) both end up here, so a player who types gets
exactly what a player who taps gets.

Steps that are still undecided are private to the player (ephemeral); what is confirmed is
posted in the channel for everyone: one post per finished turn, telling the whole turn.
Every interaction is deferred before any slow work, and pictures are drawn by the painter
(:mod:`bot.pictures`), so Discord's three-second deadline is met.

Its parts, one concern each: :mod:`~bot.table.common` (what they all share),
:mod:`~bot.table.lobby`, :mod:`~bot.table.turns`, :mod:`~bot.table.compose` (a post as
data) and :mod:`~bot.table.posts` (sending it where the game is played, its thread or its
channel, and the line the channel keeps about a game in a thread),
:mod:`~bot.table.browsing` (status, rules, history, replay, missed turns, ratings),
:mod:`~bot.table.players`,
:mod:`~bot.table.moderation` and :mod:`~bot.table.rounds` (the background work);
:mod:`~bot.table.table` puts them together.
"""

from bot.service.thinking import LEVELS
from bot.table.common import is_moderator, names_of
from bot.table.compose import Post, compose_post, story
from bot.table.table import Table

__all__ = ["LEVELS", "Post", "Table", "compose_post", "is_moderator", "names_of", "story"]
