"""A record from outside checked against its pydantic model, and the first problem found
said in one line: where (``events[2].penalty.points``), why, and with ``value=True`` the
value refused (shown short, control characters escaped). Every model of
:mod:`tablekit.untrusted` is refused through :func:`said`; the rules' own schema words its
refusals its own way (:func:`tablekit.rules.schema.refusal`) and shows values with
:func:`shown`.

>>> from pydantic import Field
>>> class Seat(Shape):
...     seat: int = Field(0, le=3)
>>> validated(Seat, {"seat": 2, "note": "kept"}, "s.json", "a seat")
{'seat': 2, 'note': 'kept'}
>>> try:
...     validated(Seat, {"seat": "two"}, "s.json", "a seat")
... except Untrusted as error:
...     print(error)
s.json: not a seat (seat: not a whole number, 'two')
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from tablekit.untrusted import Untrusted

PHRASES = {"model_type": "not an object", "model_attributes_type": "not an object",
           "dict_type": "not an object", "list_type": "not a list",
           "missing": "missing", "extra_forbidden": "not known",
           "int_type": "not a whole number", "float_type": "not a number",
           "bool_type": "not true or false", "string_type": "not text",
           "finite_number": "not a finite number"}


class Shape(BaseModel):
    """A record from outside: the fields tablekit reads are checked, others kept."""

    model_config = ConfigDict(extra="allow", strict=True)


def shown(value: Any, longest: int = 40) -> str:
    """``value`` as a short repr (control characters escaped) for a refusal line.

    >>> print(shown("\\x1b[2J" * 20, longest=12), shown(10 ** 80))
    '\\x1b[2J\\x1… a number too large
    """
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return "a number too large"
    try:
        text = repr(list(value) if isinstance(value, tuple) else value)
    except (ValueError, RecursionError):  # a number past Python's 4,300 digits, deep lists
        return "a value too large to show"
    return text if len(text) <= longest else text[:longest - 1] + "…"


def said(error: ValidationError, value: bool = False) -> str:
    """The first problem of ``error`` in one line: ``where: why`` (and ``, value`` with
    ``value``; a bound says the value itself).

    >>> from pydantic import Field
    >>> class Seat(Shape):
    ...     seat: int = Field(0, le=3)
    >>> try:
    ...     Seat.model_validate({"seat": 10 ** 9})
    ... except ValidationError as error:
    ...     print(said(error), "|", said(error, value=True))
    seat: at most 3, not 1000000000 | seat: at most 3, not 1000000000
    """
    first = error.errors(include_url=False)[0]
    where = "".join(f"[{part}]" if isinstance(part, int) else f".{part}"
                    for part in first["loc"]
                    if not str(part).startswith(("function-", "constrained-"))).lstrip(".")
    kind, ctx, given = first["type"], first.get("ctx") or {}, first.get("input")
    if kind == "value_error":
        reason = str(ctx.get("error", first["msg"]))
    elif kind in ("less_than_equal", "greater_than_equal") and isinstance(given, int):
        side = "at most" if kind == "less_than_equal" else "at least"
        reason = f"{side} {ctx.get('le', ctx.get('ge')):,}, not {shown(given)}"
        value = False
    elif kind == "too_short":
        reason = f"{ctx.get('actual_length')} items, fewer than {ctx.get('min_length')}"
    elif kind == "too_long":
        reason, value = f"more than {ctx.get('max_length')} items", False
    else:
        message = first["msg"].replace("\n", " ")[:160]
        reason = PHRASES.get(kind, message[:1].lower() + message[1:])
    if value and kind != "missing":
        reason += f", {shown(given)}"
    return f"{where}: {reason}" if where else reason


def validated(model: type[Shape], value: Any, where: str, what: str) -> dict[str, Any]:
    """``value`` checked as ``model`` (a dict, extra fields kept, missing ones at their
    defaults), or :class:`Untrusted`: ``where: not what (field: reason, value)``."""
    if not isinstance(value, dict):
        raise Untrusted(f"{where}: not {what} (not an object, {shown(value)})")
    try:
        shape = model.model_validate(value)
    except ValidationError as error:
        raise Untrusted(f"{where}: not {what} ({said(error, value=True)})") from None
    return shape.model_dump()
