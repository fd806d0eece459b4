"""Ark, the card game, at the table: its panels, controls, typed commands and posts.

A turn in taps: the player opens their panel from the board post and sees their hand (only
they see it: the panel is private). They **take cards** (one button per face-up card; the
top card of the supply comes with it) or **play cards**, built step by step (see
:mod:`bot.games.noah.plan`): a card, its cabin (each with its cost in discs), what the card
still needs, perhaps a second card the same way, then a preview of the ark with its new
tilt and a button to confirm. Back is always one tap away until then. Cards that fit nowhere
are listed with the reason. After the second rain card each player chooses a pet (the cards
that would score are marked); in the endgame a player plays one more animal for a disc, or
passes for good.

Hidden information: hands and pets are only ever in private panels (this seat's own); the
public posts are drawn from the public view, and the story from redacted events.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.base import Front, Seen, TurnRecord
from bot.games.noah import story as telling
from bot.games.noah.plan import NONE, Plan, Step, cabin_token, parse
from bot.games.noah.words import cabin_text, card_text, kind_text, reason_text, refusal
from bot.i18n import ListOf
from bot.panels import (
    Button,
    Choice,
    CommandOption,
    CommandSpec,
    Control,
    Option,
    Panel,
    Picture,
    Play,
    Refusal,
    Select,
    Text,
)
from engine.errors import IllegalAction
from engine.noah import CARDS, KINDS, Game, Pass, Placement, PlayCards, TakeCards
from engine.noah.actions import ChoosePet
from engine.noah.queries import cabin_choices, card_choices, pet_choices

SELECT_PAGE = 25  # Discord's limit of options in one menu
RENDER = "render.noah"


def _t(name: str, **params: Any) -> Text:
    return Text(f"noah.{name}", **params)


def _card_id(value: Any) -> int:
    """A card id from a control or a typed command: its number, or its English name."""
    text = str(value).strip()
    if text.isdigit() and int(text) < len(CARDS):
        return int(text)
    wanted = text.lower()
    for card in CARDS:
        if card.name.lower() == wanted and not card.is_rain:
            return card.id
    raise Refusal("noah.turn.no_such_card", card=text[:30])


def features(card: int) -> Text:
    """A card's features in a few words: weight, climate, diet, kind, its "!"."""
    found = CARDS[card]
    return _t(
        "card_features",
        weight=found.weight,
        climate=_t(f"climate.{found.climate}"),
        diet=_t(f"diet.{found.diet}"),
        kind=kind_text(found.kind) if found.kind else _t("kind.none"),
        special=_t(f"special_hint.{found.special}") if found.special else _t("special_hint.none"),
    )


class NoahFront(Front):
    command_group = "ark"
    warm_up = (f"{RENDER}:warm_up",)
    commands = (
        CommandSpec("turn", _t("command.turn")),
        CommandSpec("hand", _t("command.hand"), who="seat"),
        CommandSpec(
            "take",
            _t("command.take"),
            (CommandOption("card", _t("command.take_card"), autocomplete=True),),
        ),
        CommandSpec(
            "play",
            _t("command.play"),
            (
                CommandOption("card", _t("command.play_card"), autocomplete=True),
                CommandOption("cabin", _t("command.play_cabin"), required=False, autocomplete=True),
            ),
        ),
        CommandSpec(
            "pet",
            _t("command.pet"),
            (CommandOption("card", _t("command.pet_card"), autocomplete=True),),
        ),
        CommandSpec("pass", _t("command.pass")),
    )

    def title(self) -> Text:
        return _t("title")

    # ================================================================ pictures

    def _board(self, view: Mapping[str, Any], names: Sequence[str], filename: str) -> Picture:
        return Picture(
            f"{RENDER}:board",
            (dict(view), list(names)),
            filename,
            _t("picture_alt.board"),
        )

    def _hand(self, game: Game, seat: int, marks: Mapping[int, bool] | None = None) -> Picture:
        hand = list(game.hand(seat))
        if marks is None:
            marks = (
                {c: r is None for c, r in card_choices(game).items()}
                if (game.current_player == seat)
                else {}
            )
        return Picture(
            f"{RENDER}:hand",
            (hand, {str(c): bool(m) for c, m in marks.items()}, game.pet(seat), game.phase),
            "your-hand.png",
            _t("picture_alt.hand"),
        )

    # ================================================================ the private panel

    def panel(self, seen: Seen, *, plan: Sequence[str] = ()) -> Panel:
        game: Game = seen.game
        if seen.seat is None or game.phase == "over":
            raise Refusal("table.turn.game_not_active")
        if game.phase == "pet":
            return self._pet_panel(seen)
        built = parse(game, plan)
        if built.current is not None and built.current.ask == "card" and not built.done:
            return self._start_panel(seen)
        if built.current is None or (built.current.ask == "card"):
            return self._preview_panel(seen, built)
        return self._step_panel(seen, built, built.current)

    def _hand_line(self, game: Game, seat: int) -> Text:
        hand = game.hand(seat)
        if not hand:
            return _t("turn.hand_empty")
        return _t("turn.hand", count=len(hand), cards=tuple(card_text(c) for c in hand))

    def _reasons(self, reasons: Mapping[int, IllegalAction | None]) -> list[Text]:
        return [
            _t("turn.cannot", card=card_text(card), reason=reason_text(why))
            for card, why in reasons.items()
            if why is not None
        ]

    def _card_menu(
        self, game: Game, plan: Plan, reasons: Mapping[int, IllegalAction | None], second: bool
    ) -> Select | None:
        options: list[Option] = []
        after = plan.done[0] if plan.done else None
        for card, why in reasons.items():
            if why is not None or any(o.value == str(card) for o in options):
                continue
            cabins = cabin_choices(game, card, after)
            options.append(
                Option(
                    card_text(card),
                    str(card),
                    _t("turn.card_option", features=features(card), count=len(cabins)),
                )
            )
        if not options:
            return None
        return Select(
            "pick",
            tuple(options[:SELECT_PAGE]),
            plan.args,
            _t("turn.second_placeholder" if second else "turn.card_placeholder"),
            row=1,
        )

    def _start_panel(self, seen: Seen) -> Panel:
        """The start of a turn: take cards or play a first card (endgame: play or pass)."""
        game: Game = seen.game
        assert seen.seat is not None
        endgame = game.phase == "endgame"
        reasons = card_choices(game)
        plan = parse(game, ())
        discs = game.discs[seen.seat]
        lines = [
            _t("turn.endgame_intro", discs=discs) if endgame else _t("turn.intro"),
            self._hand_line(game, seen.seat),
            *self._reasons(reasons),
        ]
        controls: list[Control] = []
        if not endgame:
            for card in game.face_up:
                controls.append(
                    Button(
                        "take",
                        (str(card),),
                        _t("button.take", card=card_text(card)),
                        style="primary",
                        emoji="🃏",
                        row=0,
                    )
                )
        menu = self._card_menu(game, plan, reasons, second=False)
        if menu is not None:
            controls.append(menu)
        elif not endgame:
            lines.append(_t("turn.nothing_to_play"))
        if endgame:
            controls.append(
                Button("pass", (), _t("button.pass_for_good"), style="danger", emoji="🏁", row=2)
            )
        pictures = (
            self._board(game.view(None), seen.names, "board.png"),
            self._hand(game, seen.seat),
        )
        return Panel(tuple(lines), pictures, tuple(controls))

    def _step_panel(self, seen: Seen, plan: Plan, current: Step) -> Panel:
        """One card being built: its cabin, or what it needs there."""
        game: Game = seen.game
        assert current.card is not None and seen.seat is not None
        card = current.card
        after = plan.done[0] if plan.done else None
        lines: list[Text] = []
        if plan.done:
            lines.append(self._done_line(plan.done))
        options: list[Option] = []
        if current.ask == "cabin":
            lines.append(_t("turn.cabin_intro", card=card_text(card), features=features(card)))
            for choice in cabin_choices(game, card, after):
                tilt = game.preview([*plan.done, choice.ways[0]]).tilt
                inside = choice.cards
                label = cabin_text(choice.side, choice.row, choice.new)
                description = _t(
                    "turn.cabin_option",
                    cost=choice.cost,
                    mates=tuple(card_text(c) for c in inside),
                    count=len(inside),
                    tilt=self._tilt(tilt),
                )
                options.append(Option(label, cabin_token(choice.side, choice.row), description))
            discs = game.discs[seen.seat]
            lines.append(_t("turn.discs", discs=discs))
        else:
            assert current.cabin is not None
            where = cabin_text(current.cabin.side, current.cabin.row, current.cabin.new)
            lines.append(_t(f"turn.ask_{current.ask}", card=card_text(card), cabin=where))
            for value in current.options():
                options.append(self._need_option(current.ask, value))
        controls: list[Control] = [
            Select(
                "pick",
                tuple(options[:SELECT_PAGE]),
                plan.args,
                _t(f"turn.placeholder_{current.ask}"),
                row=0,
            ),
            Button("back", plan.args, _t("button.back"), emoji="↩️", row=1),
            Button("restart", (), _t("button.restart"), row=1),
        ]
        view = game.preview(plan.done).view(None) if plan.done else game.view(None)
        pictures = (self._board(view, seen.names, "board.png"),)
        return Panel(tuple(lines), pictures, tuple(controls))

    def _need_option(self, need: str, value: Any) -> Option:
        token = NONE if value is None else str(value)
        if need == "drive_out":
            if value is None:
                return Option(_t("turn.drive_none"), token)
            return Option(_t("turn.drive_option", card=card_text(value)), token, features(value))
        if need == "take":
            if value is None:
                return Option(_t("turn.take_none"), token)
            return Option(card_text(value), token, features(value))
        return Option(kind_text(str(value)), token)

    def _tilt(self, tilt: int) -> Text:
        if tilt == 0:
            return _t("turn.tilt_level")
        return _t(
            "turn.tilt", lean=abs(tilt), side=_t("side.starboard" if tilt > 0 else "side.port")
        )

    def _done_line(self, done: Sequence[Placement]) -> Text:
        return _t(
            "turn.so_far",
            cards=tuple(
                _t("turn.placed", card=card_text(p.card), cabin=self._cabin_of(p)) for p in done
            ),
        )

    def _cabin_of(self, p: Placement) -> Text:
        return Text("noah.cabin.open", side=Text(f"noah.side.{p.side}"), row=p.row + 1)

    def _preview_panel(self, seen: Seen, plan: Plan) -> Panel:
        """The play so far on the ark, to confirm, add a second card, or take back."""
        game: Game = seen.game
        assert seen.seat is not None
        try:
            shown = game.preview(plan.done)
        except IllegalAction as error:
            raise refusal(error) from None
        lines = [self._done_line(plan.done), _t("turn.preview", tilt=self._tilt(shown.tilt))]
        extras = [
            _t(
                "turn.preview_extra",
                take=card_text(p.take) if p.take is not None else _t("turn.nothing"),
                has_take="yes" if p.take is not None else "no",
                drive=card_text(p.drive_out) if p.drive_out is not None else _t("turn.nothing"),
                has_drive="yes" if p.drive_out is not None else "no",
            )
            for p in plan.done
            if p.take is not None or p.drive_out is not None
        ]
        lines += extras
        cost = self._cost(game, plan.done)
        if cost:
            lines.append(_t("turn.cost", cost=cost, discs=game.discs[seen.seat]))
        controls: list[Control] = []
        one = len(plan.done) == 1
        if one and game.phase == "play":
            reasons = card_choices(game, plan.done[0])
            if CARDS[plan.done[0].card].plays_alone:
                lines.append(_t("turn.plays_alone", card=card_text(plan.done[0].card)))
            else:
                menu = self._card_menu(game, plan, reasons, second=True)
                if menu is not None:
                    controls.append(menu)
                    lines.append(_t("turn.second_hint"))
                else:
                    lines.append(_t("turn.no_second"))
        controls += [
            Button(
                "play",
                plan.args,
                _t("button.play", count=len(plan.done)),
                style="success",
                emoji="✅",
                row=2,
            ),
            Button("back", plan.args, _t("button.back"), emoji="↩️", row=2),
            Button("restart", (), _t("button.restart"), row=2),
        ]
        pictures = (
            Picture(
                f"{RENDER}:preview",
                (shown.view(None), list(seen.names)),
                "preview.png",
                _t("picture_alt.preview"),
            ),
        )
        return Panel(tuple(lines), pictures, tuple(controls))

    @staticmethod
    def _cost(game: Game, done: Sequence[Placement]) -> int:
        """The discs the play costs: a new cabin 1, an endgame play 1 more."""
        cost = 0
        for index, p in enumerate(done):
            after = done[0] if index else None
            cost += next(
                (
                    c.cost
                    for c in cabin_choices(game, p.card, after)
                    if (c.side, c.row) == (p.side, p.row)
                ),
                0,
            )
        return cost

    def _pet_panel(self, seen: Seen, chosen: int | None = None) -> Panel:
        game: Game = seen.game
        assert seen.seat is not None
        marked = pet_choices(game)
        if chosen is not None:
            scores = dict(marked).get(chosen)
            if scores is None:
                raise Refusal("noah.turn.no_such_card", card=str(chosen))
            key = "turn.pet_confirm" if scores else "turn.pet_confirm_no_score"
            line = _t(key, card=card_text(chosen), kind=kind_text(CARDS[chosen].kind or "none"))
            buttons = (
                Button("petok", (str(chosen),), _t("button.pet_ok"), style="success", emoji="✅"),
                Button("back", (), _t("button.back"), emoji="↩️"),
            )
            return Panel((line,), (self._hand(game, seen.seat, {chosen: True}),), buttons)
        lines = [_t("turn.pet_intro"), self._hand_line(game, seen.seat)]
        options: list[Option] = []
        for card, scores in marked:
            if any(o.value == str(card) for o in options):
                continue
            options.append(
                Option(
                    _t("turn.pet_option", card=card_text(card), scores="yes" if scores else "no"),
                    str(card),
                    _t(
                        "turn.pet_scores" if scores else "turn.pet_no_score",
                        why=self._pet_why(card),
                    ),
                )
            )
        controls: list[Control] = []
        if options:
            controls.append(
                Select("pet", tuple(options[:SELECT_PAGE]), (), _t("turn.pet_placeholder"), row=0)
            )
        controls.append(Button("nopet", (), _t("button.no_pet"), row=1))
        pictures = (self._hand(game, seen.seat, dict(marked)),)
        return Panel(tuple(lines), pictures, tuple(controls))

    @staticmethod
    def _pet_why(card: int) -> Text:
        found = CARDS[card]
        if found.is_provision:
            return _t("pet_why.provision")
        if found.special:
            return _t("pet_why.special")
        if found.weight > 2:
            return _t("pet_why.heavy", weight=found.weight)
        return kind_text(found.kind)

    def hand_panel(self, seen: Seen) -> Panel:
        """A seated player's own hand and pet, privately, at any time."""
        game: Game = seen.game
        if seen.seat is None:
            raise Refusal("table.turn.stranger")
        lines = [self._hand_line(game, seen.seat)]
        pet = game.pet(seen.seat)
        if pet is not None:
            lines.append(_t("turn.your_pet", card=card_text(pet)))
        lines.append(_t("turn.discs", discs=game.discs[seen.seat]))
        marks = (
            {c: r is None for c, r in card_choices(game).items()}
            if (game.current_player == seen.seat and game.phase in ("play", "endgame"))
            else {}
        )
        return Panel(tuple(lines), (self._hand(game, seen.seat, marks),))

    # ================================================================ taps

    def on_control(
        self, seen: Seen, control: str, args: Sequence[str], values: Sequence[str]
    ) -> Panel | Play:
        game: Game = seen.game
        try:
            return self._control(seen, game, control, list(args), list(values))
        except (ValueError, IndexError, KeyError):
            raise Refusal("table.error.unknown_control") from None

    def _control(
        self, seen: Seen, game: Game, control: str, args: list[str], values: list[str]
    ) -> Panel | Play:
        if control == "hand":
            return self.hand_panel(seen)
        if control == "pick":
            plan = parse(game, args)
            return self.panel(seen, plan=plan.plus(values[0]))
        if control == "back":
            if game.phase == "pet":
                return self._pet_panel(seen)
            return self.panel(seen, plan=parse(game, args).back())
        if control == "restart":
            return self.panel(seen)
        if control == "play":
            plan = parse(game, args)
            if not plan.complete:
                raise Refusal("noah.turn.stale_plan")
            return Play(PlayCards(plan.done))
        if control == "take":
            card = int(args[0])
            if game.phase != "play" or card not in game.face_up:
                raise Refusal("noah.turn.stale_plan")
            return Play(TakeCards(card))
        if control == "pass":
            return Play(Pass())
        if control == "pet":
            return self._pet_panel(seen, int(values[0]))
        if control == "petok":
            card = int(args[0])
            if game.phase != "pet" or card not in game.hand(game.current_player or 0):
                raise Refusal("noah.turn.stale_plan")
            return Play(ChoosePet(card))
        if control == "nopet":
            if game.phase != "pet":
                raise Refusal("noah.turn.stale_plan")
            return Play(Pass())
        raise Refusal("table.error.unknown_control")

    # ================================================================ typed commands

    def on_command(self, seen: Seen, command: str, options: Mapping[str, Any]) -> Panel | Play:
        game: Game = seen.game
        if command == "hand":
            return self.hand_panel(seen)
        if command == "turn":
            return self.panel(seen)
        if command == "take":
            if game.phase != "play":
                raise Refusal("noah.turn.no_take_now")
            card = _card_id(options.get("card", ""))
            same = [c for c in game.face_up if CARDS[c].name == CARDS[card].name]
            if not same:
                raise Refusal("noah.turn.not_face_up", card=card_text(card))
            return Play(TakeCards(card if card in same else same[0]))
        if command == "play":
            if game.phase not in ("play", "endgame"):
                raise Refusal("noah.turn.no_play_now")
            card = self._own_card(game, options.get("card", ""))
            why = game.why_not(card)
            if why is not None:
                raise refusal(why)
            plan: tuple[str, ...] = (str(card),)
            cabin = str(options.get("cabin") or "").strip().lower()
            if cabin:
                tokens = {cabin_token(c.side, c.row) for c in cabin_choices(game, card)}
                if cabin not in tokens:
                    raise Refusal("noah.turn.no_such_cabin", card=card_text(card))
                plan = (f"{card}.{cabin}",)
            return self.panel(seen, plan=plan)
        if command == "pet":
            if game.phase != "pet":
                raise Refusal("noah.illegal.not_pet_time")
            card = self._own_card(game, options.get("card", ""))
            return self._pet_panel(seen, card)
        if command == "pass":
            if game.phase == "play":
                raise Refusal("noah.illegal.no_pass")
            return Play(Pass())
        raise Refusal("table.error.unknown_control")

    @staticmethod
    def _own_card(game: Game, typed: Any) -> int:
        card = _card_id(typed)
        hand = game.hand(game.current_player or 0)
        same = [c for c in hand if CARDS[c].name == CARDS[card].name]
        if not same:
            # Never say whether someone else holds it: only that this hand does not.
            raise Refusal("noah.turn.not_in_your_hand")
        return card if card in same else same[0]

    def autocomplete(
        self, seen: Seen, command: str, option: str, current: str, typed: Mapping[str, Any]
    ) -> Sequence[Choice]:
        game: Game = seen.game
        if command == "take" and option == "card":
            return [Choice(card_text(c), str(c)) for c in game.face_up]
        if seen.seat is None or seen.seat != game.current_player:
            # Someone else's turn: a hand is offered only to its own player, on their turn.
            return ()
        if command == "play" and option == "card":
            return [
                Choice(_t("turn.card_choice", card=card_text(c), features=features(c)), str(c))
                for c, why in card_choices(game).items()
                if why is None
            ]
        if command == "play" and option == "cabin":
            try:
                card = self._own_card(game, typed.get("card", ""))
            except Refusal:
                return ()
            return [
                Choice(
                    _t(
                        "turn.cabin_choice",
                        cabin=cabin_text(c.side, c.row, c.new),
                        cost=c.cost,
                    ),
                    cabin_token(c.side, c.row),
                )
                for c in cabin_choices(game, card)
            ]
        if command == "pet" and option == "card":
            return [
                Choice(
                    _t("turn.pet_option", card=card_text(c), scores="yes" if s else "no"), str(c)
                )
                for c, s in pet_choices(game)
            ]
        return ()

    # ================================================================ hints

    def hint_text(
        self, seen: Seen, action: Mapping[str, Any], key: str, params: Mapping[str, Any]
    ) -> list[Text]:
        """The computer's suggestion for the player on turn, privately: the reason with the
        cards named (only the player's own, face-up or on the ark), then where each card
        goes."""
        game: Game = seen.game
        seat = seen.seat if seen.seat is not None else game.current_player
        shown = set(game.hand(seat)) | set(game.face_up) if seat is not None else set()
        shown |= {c for side in game.cabins for cabin in side for c in cabin}

        def card(value: Any) -> Text:
            if type(value) is int and value in shown:
                return card_text(value)
            return _t("hint.some_card")  # never another player's card

        if key == "hint.takes_card":
            lines = [_t("hint.takes_card", card=card(params.get("card")))]
        elif key == "hint.takes_lead":
            kind = params.get("kind")
            lines = [
                _t(
                    "hint.takes_lead",
                    card=card(params.get("card")),
                    kind=kind_text(kind) if kind in KINDS else _t("kind.none"),
                )
            ]
        elif key == "hint.plays_cards":
            cards = list(params.get("cards") or ())
            lines = [
                _t(
                    "hint.plays_cards",
                    count=len(cards),
                    cards=ListOf(tuple(card(c) for c in cards), "standard"),
                )
            ]
        elif key == "hint.chooses_pet":
            lines = [_t("hint.chooses_pet", card=card(params.get("card")))]
        elif key == "hint.declines_pet":
            lines = [_t("hint.declines_pet")]
        elif key == "hint.passes":
            lines = [_t("hint.passes")]
        else:
            return super().hint_text(seen, action, key, params)
        if action.get("type") == "play_cards":
            for placement in action.get("placements") or ():
                side, row = placement.get("side"), placement.get("row")
                if side not in ("port", "starboard") or type(row) is not int:
                    continue
                new = row >= len(game.cabins[0 if side == "port" else 1])
                lines.append(
                    _t(
                        "turn.placed",
                        card=card(placement.get("card")),
                        cabin=cabin_text(side, row, new),
                    )
                )
        return lines

    # ================================================================ public posts

    def story(self, turns: Sequence[TurnRecord], names: Sequence[str]) -> list[Text]:
        return telling.story(turns, names)

    def _scores(self, view: Mapping[str, Any], names: Sequence[str]) -> Text:
        return _t(
            "turn.scores",
            scores=tuple(
                Text("common.name_points", player=n, points=s)
                for n, s in zip(names, view["scores"], strict=True)
            ),
        )

    def _hand_button(self) -> Button:
        return Button("hand", (), _t("button.show_hand"), emoji="🂠", who="seat")

    def board_post(self, view: Mapping[str, Any], names: Sequence[str]) -> Panel:
        lines = [self._scores(view, names), self._phase_line(view, names)]
        pictures = (self._board(view, names, "ark.png"),)
        return Panel(tuple(lines), pictures, (self._hand_button(),))

    def _phase_line(self, view: Mapping[str, Any], names: Sequence[str]) -> Text:
        phase = view["phase"]
        rain = view["rain_fallen"]
        if phase == "pet":
            return _t("status.pet", player=names[view["current_player"]])
        if phase == "endgame":
            return _t("status.endgame")
        return _t("status.play", rain=rain, supply=view["supply"])

    def final_post(
        self, view: Mapping[str, Any], names: Sequence[str], *, ended_early: bool
    ) -> Panel:
        pictures = (
            Picture(
                f"{RENDER}:final",
                (dict(view), list(names)),
                "final-scores.png",
                _t("picture_alt.final"),
            ),
            self._board(view, names, "final-ark.png"),
        )
        if ended_early or view["phase"] != "over":
            return Panel((self._scores(view, names),), pictures)
        winners = view["winners"]
        lines = [
            _t(
                "game.winner",
                count=len(winners),
                winners=ListOf(tuple(names[s] for s in winners), "standard"),
                points=view["scores"][winners[0]],
            )
        ]
        for seat, name in enumerate(names):
            pet = view["pets"][seat]
            lines.append(
                _t(
                    "game.line",
                    player=name,
                    total=view["scores"][seat],
                    discs=view["discs"][seat],
                    pet=card_text(pet) if type(pet) is int else _t("game.no_pet"),
                )
            )
        return Panel(tuple(lines), pictures)

    def status(self, view: Mapping[str, Any], names: Sequence[str]) -> Panel:
        lines = (
            _t("status.turn", player=names[view["current_player"]]),
            self._scores(view, names),
            self._phase_line(view, names),
        )
        return Panel(lines, (self._board(view, names, "ark.png"),), (self._hand_button(),))

    def rules_help(self, options: Mapping[str, Any]) -> Panel:
        pictures = (
            Picture(f"{RENDER}:rules_board", (), "rules.png", _t("picture_alt.rules")),
            Picture(f"{RENDER}:rules_key", (), "rules-key.png", _t("picture_alt.key")),
        )
        specials = tuple(
            _t(f"rules.special.{name}")
            for name in (
                "fox",
                "turtle",
                "hedgehog",
                "skunk",
                "mosquito",
                "spider",
                "bronto",
                "chimpanzee",
            )
        )
        return Panel((_t("rules.text"), _t("rules.key"), *specials), pictures)
