"""A phone's press, as it comes from outside: the seat in the address (``/seat/<wind>/<KEY>``),
the form a seat page posts (``button=ok&held=1``, perhaps ``key=KEY``) and the line the page's
process hands the game for it. Each is checked here, and a refusal is one line.

>>> press_form(b"button=win&held=1")
PressForm(button='win', held=True, key=None)
>>> press_form(b"button=ok")
PressForm(button='ok', held=False, key=None)
>>> def refused(body):
...     try:
...         press_form(body)
...     except Untrusted as error:
...         return str(error)
>>> refused(b"button=kan"), refused(b""), refused(b"button=ok&button=win")
("button: 'kan' is no button (riichi, call, win, ok, undo)", 'button: missing', \
'button: given twice')
>>> refused(b"button=ok&held=yes"), refused(b"button=ok&seat=2"), refused(b"x" * 600)
("held: 'yes' is not 0 or 1", "'seat': not a field of a press (button, held, key)", \
'600 bytes, more than 256')
>>> seat_wind("east"), seat_wind("North") is None, seat_wind("x" * 99) is None
('east', True, True)
>>> press_line({"box": 2, "button": "riichi", "held": False})
PressLine(box=2, button='riichi', held=False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from tablekit.untrusted import Untrusted
from tablekit.untrusted.shapes import shown

BUTTONS = ("riichi", "call", "win", "ok", "undo")
"""The buttons a phone may press: its seat's RIICHI, CALL and WIN, and the shared OK and UNDO."""
WINDS = ("east", "south", "west", "north")
"""The seat boxes as an address names them: the chairs' winds in the first hand."""
FORM_BYTES = 256   # ``button=riichi&held=1&key=`` and a key of 64 characters fit many times
KEY_LONGEST = 64
FIELDS = ("button", "held", "key")


@dataclass(frozen=True)
class PressForm:
    """A press a seat page posted: the button, whether it was held, and the key when the
    page put it in the body (a request from a page of another origin must)."""

    button: str
    held: bool = False
    key: str | None = None


@dataclass(frozen=True)
class PressLine:
    """A press as the page's process hands it to the game: the seat box (0-3) whose
    address was pressed, the button and whether it was held."""

    box: int
    button: str
    held: bool = False


def seat_wind(text: str) -> str | None:
    """The seat box's wind an address names (``east`` ... ``north``, as written), or None."""
    return text if text in WINDS else None


def press_form(body: bytes) -> PressForm:
    """The form of a press (``application/x-www-form-urlencoded``), or :class:`Untrusted`
    saying in one line what is wrong with it: too long, not text, a field unknown, missing or
    given twice, a button that is none, ``held`` other than 0 or 1."""
    if len(body) > FORM_BYTES:
        raise Untrusted(f"{len(body)} bytes, more than {FORM_BYTES}")
    try:
        text = body.decode("ascii")
    except UnicodeDecodeError:
        raise Untrusted("not a form (not ASCII text)") from None
    try:
        pairs = parse_qsl(text, keep_blank_values=True, strict_parsing=bool(text),
                          max_num_fields=len(FIELDS))
    except ValueError as error:
        raise Untrusted(f"not a form ({error})") from None
    fields: dict[str, str] = {}
    for name, value in pairs:
        if name not in FIELDS:
            raise Untrusted(f"{shown(name)}: not a field of a press ({', '.join(FIELDS)})")
        if name in fields:
            raise Untrusted(f"{name}: given twice")
        fields[name] = value
    button = fields.get("button")
    if button is None:
        raise Untrusted("button: missing")
    if button not in BUTTONS:
        raise Untrusted(f"button: {shown(button)} is no button ({', '.join(BUTTONS)})")
    held = fields.get("held", "0")
    if held not in ("0", "1"):
        raise Untrusted(f"held: {shown(held)} is not 0 or 1")
    key = fields.get("key")
    if key is not None and not 0 < len(key) <= KEY_LONGEST:
        raise Untrusted(f"key: not a key ({len(key)} characters)")
    return PressForm(button, held == "1", key)


def press_line(value: Any) -> PressLine:
    """The press the page's process says was made, or :class:`Untrusted` (one line)."""
    if not isinstance(value, dict) or set(value) - {"box", "button", "held"}:
        raise Untrusted(f"not a press ({shown(value)})")
    box, button, held = value.get("box"), value.get("button"), value.get("held", False)
    if type(box) is not int or not 0 <= box < len(WINDS):
        raise Untrusted(f"box: not a seat box 0-3, {shown(box)}")
    if button not in BUTTONS:
        raise Untrusted(f"button: {shown(button)} is no button ({', '.join(BUTTONS)})")
    if type(held) is not bool:
        raise Untrusted(f"held: not true or false, {shown(held)}")
    return PressLine(box, button, held)
