"""The flow's note (:mod:`tablekit.flow.saved`), declared once: the pydantic models below
name every field the note has, with its type and its limits, and both ways go through them.
Written, a model is made of the flow's frozen values (:meth:`Shape.of`: their fields taken
by name) and dumped; read, the text is checked against the models (:func:`check`) and each
model gives back its frozen value (:meth:`Shape.value`). A note that is JSON of another
shape (a list, a number, a menu with no items, four seats' tenpai as one, a seat 7, an
unknown stage, a win on the screen with no win) is refused whole, in one line naming the
first thing wrong, before any of it is taken up.

The fields are those of the frozen values, under their own names: a tile is its code, an
event the journal's dict of it, a :class:`~tablekit.flow.stage.Stage` or a menu's
:class:`~tablekit.flow.menu.Action` its name, and a value of a few fields (a menu item, a
value entered by hand, the game timer) the list of its fields (:func:`Row`). A note of an
older tablekit is read as well: riichi waiting as bare seats, no ``calls``, the players
being chosen with no ``seating``.

>>> note = check('{"at": 3, "stage": "PLAY", "message": "", "layout": "facing",'
...              ' "next_rules": "tenhou", "riichi_waiting": [[2, 3]], "calls": []}')
>>> note.at, note.stage, note.riichi_waiting
(3, <Stage.PLAY: 'play'>, ((2, 3),))
>>> check("[]")
Traceback (most recent call last):
ValueError: not a flow note: the note is a list, not an object
>>> check('{"at": 3, "stage": "MENU", "message": "", "layout": "facing",'
...       ' "next_rules": "tenhou", "riichi_waiting": [], "calls": [], "menu": {"title": "M",'
...       ' "selected": 0, "items": []}}')
Traceback (most recent call last):
ValueError: not a flow note: menu.items: 0 items, fewer than 1
>>> Timer(1, 5.0).called_at, dump(Note.model_construct(
...     at=1, stage=Stage.PLAY, message="", layout="facing", next_rules="tenhou",
...     riichi_waiting=(), timer=Timer(1, 5.0)))["timer"]
(None, [1, 5.0, None])
"""

from __future__ import annotations

import dataclasses
import re
from enum import Enum
from functools import cache
from typing import Annotated, Any, ClassVar, Literal, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    PlainSerializer,
    PlainValidator,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    Tag,
    ValidationError,
    WrapSerializer,
    model_validator,
)

from tablekit.flow.menu import ABORTS, Action, MenuItem
from tablekit.flow.seating import Seating as SeatingValue
from tablekit.flow.stage import WIN_STAGES, Stage
from tablekit.flow.stages import Menu as MenuValue
from tablekit.flow.tile_fix import TileFix
from tablekit.flow.timer import Timer
from tablekit.flow.win import FU_STEPS, HAN_STEPS, Entry, WinInProgress
from tablekit.game.events import EVENT_TYPES, Event, Won, from_dict, to_dict
from tablekit.game.win_reading import WinReading
from tablekit.rules.presets import PRESETS
from tablekit.tiles import Tile
from tablekit.untrusted import Untrusted
from tablekit.untrusted.json_text import parse_json
from tablekit.untrusted.shapes import said

SEATS = 4            # seats at most (three players: three)
MAX_TEXT = 10_000    # characters of a message (it may name a path), a title, a label, a doubt
MAX_SLOTS = 32       # tiles in a row being put right (a hand of four kans is 18)
MAX_ITEMS = 64       # items of a menu (the longest has 24)
MAX_LINES = 256      # doubts, corrections (a few in a real note)
MAX_STEPS = 2_000    # choices of the players being chosen that UNDO takes back
LONGEST_REFUSAL = 200  # characters of the reason a note is refused

Seat = Annotated[StrictInt, Field(ge=0, le=SEATS - 1)]
Count = Annotated[StrictInt, Field(ge=0)]
Text = Annotated[StrictStr, Field(max_length=MAX_TEXT)]
Name = Annotated[StrictStr, Field(max_length=MAX_TEXT)] | None


def _tile(value: Any) -> Tile:
    if isinstance(value, Tile):
        return value
    if not isinstance(value, str):
        raise ValueError("a tile is its code (such as 5m)")
    return Tile.from_code(value)


TileCode = Annotated[Tile, PlainValidator(_tile), PlainSerializer(lambda tile: tile.code)]
"""A tile, written as its code (``0p``: the red five)."""
Slots = Annotated[tuple[TileCode | None, ...], Field(max_length=MAX_SLOTS)]
"""A row of tiles, None where a tile is not known."""


def _event(kind: type | tuple[type, ...]) -> Any:
    def read(value: Any) -> Any:
        if isinstance(value, kind):
            return value
        if not isinstance(value, dict):
            raise ValueError("an event is an object")
        event = from_dict(value)
        if not isinstance(event, kind):
            raise ValueError(f"not a win but {type(event).__name__}")
        return event

    return PlainValidator(read)


WonEvent = Annotated[Won, _event(Won), PlainSerializer(to_dict)]
"""A win, as the journal writes it."""
AnyEvent = Annotated[Event, _event(tuple(EVENT_TYPES.values())), PlainSerializer(to_dict)]
"""Any event, as the journal writes it."""


def ByName(kind: type[Enum]) -> Any:
    """A member of ``kind``, written as its name (``CONFIRM_WIN``)."""

    def read(value: Any) -> Enum:
        if isinstance(value, kind):
            return value
        if not isinstance(value, str) or value not in kind.__members__:
            raise ValueError(f"not a {kind.__name__.lower()}: {str(value)[:40]!r}")
        return kind[value]

    return Annotated[kind, PlainValidator(read), PlainSerializer(lambda member: member.name)]


StageName = ByName(Stage)


def Row(made: type, fields: Any) -> Any:
    """A frozen value of a few fields, written as the list of its fields in their order
    (``fields``: their types, a tuple type)."""
    names = [field.name for field in dataclasses.fields(made)]

    def written(value: Any, dump: Any) -> Any:
        return dump(tuple(getattr(value, name) for name in names))

    return Annotated[fields, AfterValidator(lambda values: made(*values)),
                     WrapSerializer(written)]


ARGUMENTS: dict[Action, Any] = {
    Action.ABORTIVE_DRAW: lambda a: a in ABORTS,
    Action.CHOMBO: lambda a: type(a) is int and 0 <= a < SEATS,
    Action.PENALTY: lambda a: type(a) is int and 0 <= a < SEATS,
    Action.PENALTY_AMOUNT: lambda a: isinstance(a, str) and re.fullmatch(r"[0-3]:\d{1,7}", a),
    Action.LAYOUT: lambda a: a in ("facing", "centre"),
    Action.NEW_GAME: lambda a: a in PRESETS,
    Action.CORRECT: lambda a: isinstance(a, str) and re.fullmatch(
        r"(|seat:[0-3]|dora|i:\d{1,2}|d:[0-3]:\d{1,3}|m:[0-3]:[0-3]:-?\d{1,2})"
        r"(\|[mpsz]|\|\d[mpsz])?", a),
}
"""What each action's argument may be (the others have none)."""


def _fits(item: MenuItem) -> MenuItem:
    fits = ARGUMENTS.get(item.action, lambda a: a is None)
    if not fits(item.argument):
        raise ValueError(f"{item.action.name} with the argument {str(item.argument)[:40]!r}")
    return item


Item = Annotated[Row(MenuItem, tuple[Text, ByName(Action),
                                     Annotated[StrictStr, Field(max_length=40)] | StrictInt
                                     | None]), AfterValidator(_fits)]
"""A menu item: its label, its action, its argument."""
EntryRow = Row(Entry, tuple[Seat, Annotated[StrictInt, Field(ge=0, lt=len(HAN_STEPS))],
                            Annotated[StrictInt, Field(ge=0, lt=len(FU_STEPS))]])
"""A value being entered by hand: the seat, the steps of han and of fu."""
TimerRow = Row(Timer, tuple[Count, StrictFloat, Count | None])
"""The game's timer: the game (where it started in the journal), its start, when time was
called (hands played; None: not yet)."""


class Shape(BaseModel):
    """A part of the note: the fields of :attr:`made` it keeps, under their names."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)
    made: ClassVar[type]

    @classmethod
    @cache
    def shared(cls) -> tuple[str, ...]:
        """The fields of the part that are fields of :attr:`made` too (all, but for a few)."""
        made = {field.name for field in dataclasses.fields(cls.made)}
        return tuple(name for name in cls.model_fields if name in made)

    @classmethod
    def of(cls, value: Any, **more: Any) -> Self:
        """The part of ``value`` the note keeps (``more``: the fields ``value`` does not
        have under their names); not checked: tablekit made it."""
        return cls.model_construct(**{**{name: getattr(value, name) for name in cls.shared()},
                                      **more})

    def value(self, **more: Any) -> Any:
        """The frozen value again (``more``: its fields the part does not keep under their
        names)."""
        return self.made(**{**{name: getattr(self, name) for name in self.shared()}, **more})


class Menu(Shape):
    """A menu on the screen: its title, its items as shown, the one selected."""

    made = MenuValue
    title: Text
    selected: Count
    items: Annotated[tuple[Item, ...], Field(min_length=1, max_length=MAX_ITEMS)]


class Fix(Shape):
    """A win's tiles being put right: each winner's row, the indicators, the cursor."""

    made = TileFix
    seats: Annotated[tuple[Seat, ...], Field(max_length=SEATS)]
    hands: Annotated[tuple[Slots, ...], Field(max_length=SEATS)]
    ura: Slots
    dora: Slots
    cursor: Count

    @model_validator(mode="after")
    def _rows(self) -> Self:
        if len(self.hands) != len(self.seats):
            raise ValueError(f"{len(self.hands)} rows of tiles for {len(self.seats)} seats")
        slots = sum(len(row) for row in (*self.hands, self.ura, self.dora))
        if self.cursor >= max(1, slots):
            raise ValueError(f"the cursor on slot {self.cursor} of {slots}")
        return self


class Reading(Shape):
    """What the camera read for a win: the winners' hands and the ura indicators (as a
    win), its doubts, the tiles it did not see, its drafts of hands it could not make
    complete."""

    made = WinReading
    won: WonEvent
    doubts: Annotated[tuple[Text, ...], Field(max_length=MAX_LINES)]
    unseen: Count
    drafts: Annotated[tuple[tuple[Seat, Slots], ...], Field(max_length=SEATS)]

    @classmethod
    def of(cls, value: WinReading, **more: Any) -> Self:
        return super().of(value, won=Won(value.winners, None, value.ura))

    def value(self, **more: Any) -> WinReading:
        return super().value(winners=self.won.winners, ura=self.won.ura)


class Win(Shape):
    """A win in progress, less what is worked out again: the preview (scored again from
    the proposal; its ``doubts`` are kept) and when the waits end (the note's ``left``)."""

    made = WinInProgress
    claims: Annotated[tuple[tuple[Seat, StrictBool], ...], Field(min_length=1, max_length=SEATS)]
    discarder: Seat | None
    seats: Annotated[tuple[Seat, ...], Field(max_length=SEATS)]
    pending: WonEvent | None
    doubts: Annotated[tuple[Text, ...], Field(max_length=MAX_LINES)]
    corrections: Annotated[tuple[AnyEvent, ...], Field(max_length=MAX_LINES)]
    fixed: StrictBool
    entries: Annotated[tuple[EntryRow, ...], Field(max_length=SEATS)]
    fix: Fix | None
    reading: Reading | None

    @classmethod
    def of(cls, value: WinInProgress, **more: Any) -> Self:
        return super().of(value, doubts=value.preview.doubts if value.preview else (),
                          fix=value.fix and Fix.of(value.fix),
                          reading=value.reading and Reading.of(value.reading))

    def value(self, **more: Any) -> WinInProgress:
        """The win (``more``: its ``deadline``), with no preview yet."""
        return super().value(fix=self.fix and self.fix.value(),
                             reading=self.reading and self.reading.value(), **more)


Names = Annotated[tuple[Name, ...], Field(min_length=3, max_length=SEATS)]  # three: sanma


class Seating(Shape):
    """The players being chosen: each seat's name so far, the earlier choices UNDO takes
    back, how many draws were made, whether the last step was one, the screen the choice
    came from (the roster is the flow's own, and each name must be on it)."""

    made = SeatingValue
    names: Names
    steps: Annotated[tuple[Names, ...], Field(max_length=MAX_STEPS)]
    draws: Count
    drawn: StrictBool
    back: StageName | None

    @model_validator(mode="after")
    def _seats(self) -> Self:
        if any(len(step) != len(self.names) for step in self.steps):
            raise ValueError(f"steps of another number of seats than {len(self.names)}")
        return self

    def value(self, **more: Any) -> SeatingValue:
        """The players being chosen from ``roster`` (ValueError: a name not on it)."""
        roster = more["roster"]
        for name in (*self.names, *(name for step in self.steps for name in step)):
            if name is not None and name not in roster:
                raise ValueError(f"{name!r} is not on the roster")
        return super().value(**more)


Riichi = Annotated[Annotated[tuple[Seat, Count], Tag("pressed")] | Annotated[Seat, Tag("seat")],
                   Discriminator(lambda value: "seat" if isinstance(value, int) else "pressed")]
"""A RIICHI waiting: the seat, the journal's events in force at the press (an older
note: the seat alone)."""


class Note(Shape):
    """Everything :func:`tablekit.flow.saved.snapshot` writes, and the seconds ``left``
    until the win's wait ends: the journal lines it goes with, the stage and its message,
    the layout, the rules of a new game, each RIICHI waiting for its discard (seat, the
    journal's events in force at the press; an older note: the seat alone), each CALL
    waiting for its meld (seat, journal lines, melds), then the stage's own data (the
    tenpai declarations, the menu, the win, the players being chosen) and the game's timer."""

    at: Count
    stage: StageName
    message: Text
    layout: Literal["facing", "centre"]
    next_rules: Literal[tuple(PRESETS)]  # type: ignore[valid-type]
    riichi_waiting: Annotated[tuple[Riichi, ...], Field(max_length=SEATS)]
    calls: Annotated[tuple[tuple[Seat, Count, Count], ...], Field(max_length=SEATS)] = ()
    tenpai: Annotated[tuple[StrictBool, ...], Field(min_length=3, max_length=SEATS)] | None = None
    menu: Menu | None = None
    win: Win | None = None
    seating: Seating | None = None
    timer: TimerRow | None = None
    left: StrictFloat = 0.0

    @model_validator(mode="after")
    def _stage_data(self) -> Self:
        """The stage's own data is there, and no other stage's."""
        wanted = {"win": self.stage in WIN_STAGES, "tenpai": self.stage is Stage.TENPAI,
                  "menu": self.stage is Stage.MENU}
        for part, there in wanted.items():
            if there != (getattr(self, part) is not None):
                raise ValueError(f"the stage {self.stage.name} " + (
                    f"without its {part}" if there else f"with a {part}"))
        if self.seating is not None and self.stage is not Stage.CHOOSE_PLAYERS:
            raise ValueError(f"the stage {self.stage.name} with players being chosen")
        return self


def dump(note: Note) -> dict[str, Any]:
    """The note as written (JSON-ready; the parts it has not left out), less ``left``."""
    return {key: value for key, value in note.model_dump(mode="json", exclude={"left"}).items()
            if value is not None}


def check(text: str) -> Note:
    """The note in ``text``; a ValueError naming the first thing wrong (in one line) when it
    is not JSON, too large, too deep or not of the note's shape."""
    try:
        data = parse_json(text)
    except Untrusted as error:
        raise ValueError(f"not a flow note: {error}") from None
    if not isinstance(data, dict):
        raise ValueError(f"not a flow note: the note is {_kind(data)}, not an object")
    try:
        return Note.model_validate_json(text)
    except ValidationError as error:
        reason = " ".join(said(error).split())
        if len(reason) > LONGEST_REFUSAL:
            reason = reason[:LONGEST_REFUSAL - 1] + "…"
        raise ValueError(f"not a flow note: {reason}") from None


def _kind(data: Any) -> str:
    kinds = {bool: "true or false", int: "a number", float: "a number", str: "a string",
             list: "a list"}
    return kinds.get(type(data), "null")
