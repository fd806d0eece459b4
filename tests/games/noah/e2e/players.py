"""Simulated players of Ark, the card game, on the fake Discord (test code, shared with
``bench/e2e_load.py``).

A :class:`NoahTable` is a :class:`~tests.support.players.Table` whose players play planned
engine actions of Ark the way a person would: by tapping ``Play my turn`` and then the
panel's controls (a face-up card's ``Take`` button; the card menu, the cabin menu and
whatever that card in that cabin still asks, a second card, ``Play``; the pet menu and its
confirmation or ``No pet``; ``Pass for good``), or by typing ``/ark take``, ``/ark play``
(card and cabin, the rest tapped), ``/ark pet`` or ``/ark pass``. Before each tap the
control is checked to be on the message and enabled (see ``Table.click``).

What a step of a play asks is worked out from the engine mirror alone (the placements of
the card in that cabin: a choice with more than one answer is asked, in the order
animal driven out, face-up card taken, chimpanzee's scoring card), never from the bot.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.noah import ChoosePet, Game, Pass, Placement, PlayCards, TakeCards
from tests.support.fake_discord import FakeChannel, FakeDiscord, FakeMessage, SimUser
from tests.support.players import BotSaidNo, Table, button_ids

#: What a card's placement may still ask once its cabin is chosen, in the panel's order.
NEEDS = ("drive_out", "take", "half")


def token(value: int | str | None) -> str:
    """A choice as the menus carry it (``n``: none)."""
    return "n" if value is None else str(value)


def cabin_token(placement: Placement) -> str:
    """A cabin as the menus' values carry it: the side's letter and the row from 0."""
    return f"{placement.side[0]}{placement.row}"


def typed_cabin(placement: Placement) -> str:
    """A cabin as a player types it: the number on the picture, the row from 1."""
    return f"{placement.side[0]}{placement.row + 1}"


def plan_noah_game(
    players: int, seed: int, turns: int | None = None, rng: random.Random | None = None
) -> tuple[Game, list[list]]:
    """A seeded game and the turns its players will play (one action each), chosen at
    random among the legal ones: a face-up card taken about a third of the time, else a
    play of one or two cards from the hand; ``turns`` cuts the game short (``None``: to
    final scoring)."""
    rng = rng or random.Random(seed)
    game = Game.new(players=players, seed=seed)
    start, plan = game.copy(), []
    while game.phase != "over" and (turns is None or len(plan) < turns):
        hand = set(game.hand(game.current_player)) if game.current_player is not None else set()
        # Not a second card that the first one took from the face-up row: the engine allows
        # it, but the turn panel offers the hand only (engine.noah.queries.card_choices).
        legal = [
            a
            for a in game.legal_actions()
            if not isinstance(a, PlayCards) or all(p.card in hand for p in a.placements)
        ]
        takes = [a for a in legal if isinstance(a, TakeCards)]
        others = [a for a in legal if not isinstance(a, TakeCards)]
        action = rng.choice(takes if takes and (not others or rng.random() < 0.35) else others)
        game.apply(action)
        plan.append([action])
    return start, plan


class NoahTable(Table):
    """One Ark game in one channel, played by simulated users in seat order."""

    @classmethod
    def seeded(
        cls,
        fake: FakeDiscord,
        channel: FakeChannel,
        game_id: int,
        seats: Sequence[SimUser],
        seed: int,
    ) -> NoahTable:
        game = Game.new(players=len(seats), seed=seed)
        return cls(fake, channel, game_id, list(seats), game)  # type: ignore[arg-type]

    async def play_turn(self, plan: Sequence, *, typed: bool = False) -> FakeMessage:
        """The current player plays ``plan`` (one action: one whole turn); returns the board
        it posts."""
        [action] = plan
        user, g = self.current, self.game_id
        if typed:
            iid, reply = await self._typed_start(action)
        else:
            _, reply = await self.open_panel()
            if not reply.ephemeral:
                raise BotSaidNo(f"the turn panel is public: {reply.text()!r}")
        if isinstance(action, PlayCards):
            iid, reply = await self._build(reply, action, typed)
        elif not typed:
            v = self.version
            if isinstance(action, TakeCards):
                iid, reply = await self.click(user, reply, f"tb:{g}:{v}:take:{action.card}")
            elif isinstance(action, ChoosePet):
                _, reply = await self.select(user, reply, f"tm:{g}:{v}:pet", str(action.card))
                iid, reply = await self.click(user, reply, f"tb:{g}:{v}:petok:{action.card}")
            elif isinstance(action, Pass):
                cid = f"tb:{g}:{v}:{'nopet' if self.game.phase == 'pet' else 'pass'}"
                iid, reply = await self.click(user, reply, cid)
            else:  # pragma: no cover - the plan holds engine actions only
                raise TypeError(action)
        elif isinstance(action, ChoosePet):
            # ``/ark pet`` shows the choice; it is confirmed with a tap.
            iid, reply = await self.click(user, reply, f"tb:{g}:{self.version}:petok:{action.card}")
        if not self.record_played(action):
            raise AssertionError(f"{action} did not close the turn")
        self._expect_next_step(reply, True)
        return await self.wait_board(iid)

    async def _typed_start(self, action: object) -> tuple[int, FakeMessage]:
        """The ``/ark`` command that begins (or is) ``action``."""
        if isinstance(action, TakeCards):
            sub, options = "take", {"card": str(action.card)}
        elif isinstance(action, PlayCards):
            first = action.placements[0]
            sub, options = "play", {"card": str(first.card), "cabin": typed_cabin(first)}
        elif isinstance(action, ChoosePet):
            sub, options = "pet", {"card": str(action.card)}
        elif isinstance(action, Pass):
            sub, options = "pass", {}
        else:  # pragma: no cover
            raise TypeError(action)
        iid, reply = await self.slash(self.current, "ark", sub, options)
        if not reply.ephemeral:
            raise BotSaidNo(f"/ark {sub} answered in public: {reply.text()!r}")
        return iid, reply

    def _pick(self, panel: FakeMessage) -> str:
        v = f"tm:{self.game_id}:{self.version}:pick"
        found = [c for c in panel.custom_ids if c == v or c.startswith(v + ":")]
        if not found:
            raise BotSaidNo(f"no card or choice menu: {panel.text()!r}")
        return found[0]

    async def _build(
        self, panel: FakeMessage, action: PlayCards, typed: bool
    ) -> tuple[int, FakeMessage]:
        """Build ``action`` on the panel one choice at a time, then tap ``Play``. After
        ``/ark play`` the first card and its cabin are chosen already."""
        user, game = self.current, self.game
        first: Placement | None = None
        for n, placement in enumerate(action.placements):
            if not (typed and n == 0):
                _, panel = await self.select(user, panel, self._pick(panel), str(placement.card))
                _, panel = await self.select(user, panel, self._pick(panel), cabin_token(placement))
            if first is None:
                ways = list(game.placements(placement.card))
            else:
                ways = [p for p in game.second_placements(first) if p.card == placement.card]
            ways = [w for w in ways if (w.side, w.row) == (placement.side, placement.row)]
            for need in NEEDS:
                if len({getattr(w, need) for w in ways}) > 1:
                    value = token(getattr(placement, need))
                    _, panel = await self.select(user, panel, self._pick(panel), value)
                    ways = [w for w in ways if getattr(w, need) == getattr(placement, need)]
            first = placement
        play = button_ids(panel, f"tb:{self.game_id}:{self.version}:play")
        if len(play) != 1:
            raise BotSaidNo(f"no Play button: {panel.text()!r}")
        return await self.click(user, panel, play[0])


__all__ = ["NoahTable", "plan_noah_game"]
