"""The editions of The Ark of the Covenant: where their rules differ, as data.

Every rule that differs between editions is one switch of :class:`Edition`; the engine reads
the switches (``game.rules``) and never the edition's name. :data:`EDITIONS` holds the three
editions a table can choose:

- ``"en2"``: the English second edition (2005), the default;
- ``"en1"``: the English first edition (2003);
- ``"de"``: *Die Baumeister des Königs* (Diehl Media, 2004).

The English rules (``shared/rules/covenant-en.txt``) list the differences in their footnotes.
For the rules help, :func:`rules` gives every switch of an edition as a :class:`RuleText`
(a stable key, the value, a sentence and its parameters) and :func:`differences` only those
that differ from the default; :func:`decisions` gives the engine's readings where the texts
leave room (:data:`DECISIONS`). A catalogue translates a rule by ``key`` and ``params``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, Literal

from engine.errors import IllegalAction

DEFAULT_EDITION = "en2"


@dataclass(frozen=True, slots=True)
class Edition:
    """One edition: its name and the switches of every rule that differs among editions."""

    key: str
    name: str
    year: int
    #: The Ark may end its move on the tile it started from (its last step may go back
    #: there); the second edition added that it may not.
    ark_may_end_on_start: bool = False
    #: Which completed features a tile scores before the temples it completes: pieces they
    #: send home no longer count for the temple. The others are scored after the temples.
    scored_before_temples: tuple[str, ...] = ("road", "city")
    #: At the game's end an unfinished road or city scores 1 per ``"tiles"`` or per
    #: ``"segments"`` (a city that reaches a tile twice counts two there), plus its extras.
    unfinished_counts: Literal["tiles", "segments"] = "tiles"
    #: The player who places a temple tile may put a follower on the temple itself.
    follower_on_temple: bool = False
    #: Points for the player who places the Ark in the first completed city.
    first_ark_points: int = 0
    #: The Ark moves only once a temple is on the board, each step closer to a temple.
    ark_towards_temples: bool = False
    #: Points for the player whose move ends the Ark on a temple tile.
    ark_temple_points: int = 0
    #: A temple completed while the Ark stands on its tile scores this many times 7.
    temple_ark_factor: int = 1


EN2 = Edition(key="en2", name="English, second edition (2005)", year=2005)
EN1 = Edition(
    key="en1",
    name="English, first edition (2003)",
    year=2003,
    ark_may_end_on_start=True,
    scored_before_temples=("road",),
    unfinished_counts="segments",
)
DE = Edition(
    key="de",
    name="Die Baumeister des Königs (German, 2004)",
    year=2004,
    follower_on_temple=True,
    first_ark_points=2,
    ark_towards_temples=True,
    ark_temple_points=3,
    temple_ark_factor=2,
)

#: Every edition by key, the default first.
EDITIONS: Mapping[str, Edition] = MappingProxyType({e.key: e for e in (EN2, EN1, DE)})


def edition(key: object) -> Edition:
    """The edition called ``key``; raises :class:`IllegalAction` (a ``ValueError``) if none is."""
    if not isinstance(key, str) or key not in EDITIONS:
        raise IllegalAction("unknown_edition", edition=key, known=tuple(EDITIONS))
    return EDITIONS[key]


@dataclass(frozen=True, slots=True)
class RuleText:
    """One rule as an edition plays it, for the rules help.

    ``key`` names the switch (a field of :class:`Edition`), ``value`` is its value in that
    edition; a catalogue finds the sentence as ``rules.covenant.<key>.<variant>`` and fills it
    from ``params``. ``text`` is the English sentence; ``source`` where the rules say so.
    """

    key: str
    value: Any
    variant: str
    text: str
    source: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class _Switch:
    """How the rules help tells one switch: where the texts say so, the variant a value
    falls under, one sentence per variant and the numbers the sentences mention."""

    source: str
    variant: Callable[[Any], str]
    texts: Mapping[str, str]
    params: Callable[[Any], dict[str, Any]] = lambda value: {}


def _yes_no(yes: str, no: str) -> Callable[[Any], str]:
    return lambda value: yes if value else no


_SWITCHES: dict[str, _Switch] = {
    "ark_may_end_on_start": _Switch(
        "covenant-en footnote 21",
        _yes_no("may", "may_not"),
        {
            "may": "The Ark may end its move on the tile it started from.",
            "may_not": "The Ark may not end its move on the tile it started from.",
        },
    ),
    "scored_before_temples": _Switch(
        "covenant-en footnote 27",
        lambda value: "roads_and_cities" if "city" in value else "roads",
        {
            "roads_and_cities": "When a tile completes a temple, the roads and cities it "
            "completes are scored first: their pieces go home and no longer count for it.",
            "roads": "When a tile completes a temple, only the roads it completes are scored "
            "first; pieces in a city it completes still count for the temple.",
        },
    ),
    "unfinished_counts": _Switch(
        "covenant-en footnote 33",
        lambda value: value,
        {
            "tiles": "At the end, an unfinished road or city scores 1 point per tile (and 1 "
            "per oasis or scroll).",
            "segments": "At the end, an unfinished road or city scores 1 point per segment "
            "(and 1 per oasis or scroll).",
        },
    ),
    "follower_on_temple": _Switch(
        "covenant-en footnotes 14, 26",
        _yes_no("allowed", "forbidden"),
        {
            "allowed": "Who places a temple tile may put a follower on the temple itself.",
            "forbidden": "A follower may not be placed on a temple.",
        },
    ),
    "first_ark_points": _Switch(
        "covenant-en footnote 19",
        _yes_no("points", "none"),
        {
            "points": "Who places the Ark in the first completed city scores {points}.",
            "none": "Placing the Ark in the first completed city scores nothing.",
        },
        lambda value: {"points": value},
    ),
    "ark_towards_temples": _Switch(
        "covenant-en footnote 22",
        _yes_no("towards", "free"),
        {
            "towards": "The Ark moves only once a temple is on the board, and only towards a "
            "temple: every step brings it closer to the same temple.",
            "free": "The Ark moves 1 to 5 tiles in any direction.",
        },
    ),
    "ark_temple_points": _Switch(
        "covenant-en footnote 23",
        _yes_no("points", "none"),
        {
            "points": "Who ends a move of the Ark on a temple tile scores {points}.",
            "none": "Moving the Ark onto a temple tile scores nothing more.",
        },
        lambda value: {"points": value},
    ),
    "temple_ark_factor": _Switch(
        "covenant-en footnote 29",
        lambda value: "multiplied" if value > 1 else "plain",
        {
            "multiplied": "A temple completed while the Ark stands on its tile scores "
            "{points}, not 7.",
            "plain": "The Ark does not change a temple's points.",
        },
        lambda value: {"points": 7 * value},
    ),
}

#: The rule switches, in the order the rules help lists them.
SWITCHES: tuple[str, ...] = tuple(_SWITCHES)


def _rule(key: str, value: Any) -> RuleText:
    switch = _SWITCHES[key]
    variant = switch.variant(value)
    params = switch.params(value)
    text = switch.texts[variant].format(**params)
    return RuleText(key, value, variant, text, switch.source, MappingProxyType(params))


def rules(ed: Edition | str) -> tuple[RuleText, ...]:
    """Every rule that differs among editions, as ``ed`` plays it."""
    ed = edition(ed) if isinstance(ed, str) else ed
    return tuple(_rule(key, getattr(ed, key)) for key in SWITCHES)


def differences(ed: Edition | str, than: Edition | str = DEFAULT_EDITION) -> tuple[RuleText, ...]:
    """The rules of ``ed`` that differ from those of ``than`` (the default edition)."""
    ed = edition(ed) if isinstance(ed, str) else ed
    base = edition(than) if isinstance(than, str) else than
    return tuple(r for r in rules(ed) if getattr(base, r.key) != r.value)


@dataclass(frozen=True, slots=True)
class Decision:
    """A reading the engine had to choose where the texts leave room."""

    key: str
    editions: tuple[str, ...]
    text: str


#: The engine's readings where the texts leave room, by the editions they concern.
DECISIONS: tuple[Decision, ...] = (
    Decision(
        "ark_back_to_start",
        ("en1",),
        "The Ark may come back to the tile it started from only with its last step (as in "
        '"NS" or round a block of four tiles); it never enters any other tile twice.',
    ),
    Decision(
        "temple_cities_after",
        ("en1",),
        "Cities completed by the tile that completes a temple are scored right after the "
        "temple, so their pieces count for it and then go home.",
    ),
    Decision(
        "segments",
        ("en1",),
        "A segment is one road or city area printed on a tile: a road or city that reaches "
        "a tile twice (a city round a corner tile with two city edges) counts two there; the "
        "first edition counts completed roads and cities per tile like the second.",
    ),
    Decision(
        "temple_follower_returns",
        ("de",),
        "A follower on a temple counts for that temple (and for the Ark, like every piece on "
        "its tile) and goes home once the completed temple is scored; on a temple still "
        "unfinished at the end it counts for the 3 points. Only a follower, never the "
        "Prophet, may stand on a temple, and only on the tile just placed.",
    ),
    Decision(
        "ark_towards_which_temple",
        ("de",),
        '"A direct route towards the temple": every step of one move brings the Ark closer '
        "(in squares, across and down) to the same temple on the board; with two temples "
        "the player may head for either. Standing on a temple, the Ark can only head for "
        "another one; with no other temple it cannot move.",
    ),
    Decision(
        "ark_onto_temple",
        ("de",),
        "The 3 points for bringing the Ark onto a temple go to the mover when the move ends "
        "on a temple tile, once a move; passing over one on the way to another scores "
        "nothing more.",
    ),
    Decision(
        "temple_with_ark",
        ("de",),
        "A temple scores 14 when the Ark stands on its tile at the moment it is scored, that "
        "is after this turn's move of the Ark; the Ark placed in the first city comes after "
        "the scoring and does not count. An unfinished temple still scores 3.",
    ),
    Decision(
        "first_ark_points",
        ("de",),
        "The 2 points for placing the Ark go to the player who completed the first city and "
        "places the Ark there, in the same turn.",
    ),
)


def decisions(ed: Edition | str) -> tuple[Decision, ...]:
    """The engine's readings that concern ``ed``."""
    key = ed if isinstance(ed, str) else ed.key
    edition(key)
    return tuple(d for d in DECISIONS if key in d.editions)


def _check() -> None:
    """Every switch of :class:`Edition` is described, every edition in every variant."""
    names = [f.name for f in fields(Edition) if f.name not in ("key", "name", "year")]
    if names != list(SWITCHES):
        raise AssertionError(f"describe every rule switch: {names} != {list(SWITCHES)}")
    for ed in EDITIONS.values():
        rules(ed)


_check()
