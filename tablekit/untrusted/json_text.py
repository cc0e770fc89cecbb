"""JSON from outside, parsed with limits: at most ``max_bytes`` long, nested at most
``max_depth`` deep, and with no NaN or Infinity (which Python's json lets through and a
browser cannot read).

>>> parse_json(b'{"a": [1, 2.5, "x"]}')
{'a': [1, 2.5, 'x']}
>>> def refused(text, **limits):
...     try:
...         parse_json(text, **limits)
...     except Untrusted as error:
...         return str(error)
>>> refused("[" * 200_000 + "]" * 200_000)
'nested more than 32 deep'
>>> refused('{"x": NaN}'), refused("[Infinity]")
('holds NaN, which JSON does not allow', 'holds Infinity, which JSON does not allow')
>>> refused("x" * 100, max_bytes=10), refused("{"), refused(b"\\xff")
('100 bytes, more than 10', 'not JSON (line 1, column 2)', 'not UTF-8 text')
>>> refused("1" * 5000)
'not JSON (a number too long)'
"""

from __future__ import annotations

import json
import re
from typing import Any

from tablekit.untrusted import Untrusted

MAX_DEPTH = 32
MAX_BYTES = 1 << 20  # 1 MiB: a whole game's events are about 100 KB
MAX_NUMBER_DIGITS = 30  # 10**400 and 4,300-digit numbers are refused while parsing


def _no_constant(name: str) -> Any:
    raise Untrusted(f"holds {name}, which JSON does not allow")


def _number(text: str) -> int:
    if len(text) > MAX_NUMBER_DIGITS:
        raise Untrusted("not JSON (a number too long)")
    return int(text)


def _float(text: str) -> float:
    if len(text) > MAX_NUMBER_DIGITS + 10:
        raise Untrusted("not JSON (a number too long)")
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise Untrusted("not JSON (a number too large)")
    return value


def parse_json(data: bytes | str, *, max_bytes: int = MAX_BYTES,
               max_depth: int = MAX_DEPTH) -> Any:
    """``data`` parsed, or :class:`Untrusted` saying in one line why not."""
    if len(data) > max_bytes:
        raise Untrusted(f"{len(data):,} bytes, more than {max_bytes:,}")
    if isinstance(data, bytes | bytearray):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            raise Untrusted("not UTF-8 text") from None
    _check_depth(data, max_depth)
    # numbers are looked at one by one only where an exponent could make one too large (a
    # journal line has none: it is read at json's own speed); an integer too long for
    # Python (4,300 digits) is refused by json itself
    decoder = _EACH_NUMBER if _EXPONENT.search(data) else _DECODER
    try:
        return decoder.decode(data)
    except json.JSONDecodeError as error:
        raise Untrusted(f"not JSON (line {error.lineno}, column {error.colno})") from None
    except Untrusted:
        raise
    except ValueError:  # an integer past Python's limit on digits
        raise Untrusted("not JSON (a number too long)") from None
    except RecursionError:  # pragma: no cover - the depth is checked first
        raise Untrusted(f"nested more than {max_depth} deep") from None


_DECODER = json.JSONDecoder(parse_constant=_no_constant)
_EACH_NUMBER = json.JSONDecoder(parse_constant=_no_constant, parse_int=_number,
                                parse_float=_float)
_EXPONENT = re.compile(r"[0-9][eE][+-]?[0-9]{3}")  # 1e100 and beyond
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def _check_depth(text: str, max_depth: int) -> None:
    """Refuse ``text`` whose brackets nest deeper than ``max_depth`` (strings skipped),
    before the parser recurses into it."""
    if text.count("[") + text.count("{") <= max_depth:
        return
    depth = 0
    for match in _BRACKET.finditer(_STRING.sub("", text)):
        if match.group() in "[{":
            depth += 1
            if depth > max_depth:
                raise Untrusted(f"nested more than {max_depth} deep")
        else:
            depth -= 1
