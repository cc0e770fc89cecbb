"""The pin map: which BCM pin each button is wired to (``tablekit/data/pinout.toml`` by default).

>>> pins = load_pinmap()
>>> pins.pin_for(ButtonName.WIN, 0), pins.pin_for(ButtonName.OK, None)
(13, 17)
>>> len(pins.buttons)
14
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from tablekit.errors import TablekitError
from tablekit.files.resources import packaged
from tablekit.io.presses import SEAT_BUTTONS, SHARED_BUTTONS, ButtonName
from tablekit.untrusted import Untrusted
from tablekit.untrusted.files import read_text

DEFAULT_PINOUT = packaged("data", "pinout.toml")
PINMAP_BYTES = 64 << 10  # a pin map is a few lines


class PinMapError(TablekitError, ValueError):
    """A pin map that cannot be used: missing buttons, a pin used twice, a bad number."""


@dataclass(frozen=True)
class PinMap:
    buttons: dict[tuple[ButtonName, int | None], int]
    debounce: float = 0.03
    long_press: float = 1.0

    def pin_for(self, name: ButtonName, seat: int | None) -> int:
        return self.buttons[(name, seat)]


def load_pinmap(path: Path | None = None) -> PinMap:
    """Read and check a pin map (the ``pinout.toml`` shipped in ``tablekit/data`` by default)."""
    path = path or DEFAULT_PINOUT
    try:
        data = tomllib.loads(read_text(path, limit=PINMAP_BYTES))
    except FileNotFoundError:
        raise PinMapError(f"pin map {path} does not exist") from None
    except Untrusted as error:
        raise PinMapError(f"pin map {error}") from None
    except (tomllib.TOMLDecodeError, RecursionError) as error:
        raise PinMapError(f"{path} is not valid TOML: {error}") from None
    return _pinmap(data, str(path))


def _pinmap(data: dict, where: str) -> PinMap:
    buttons: dict[tuple[ButtonName, int | None], int] = {}
    for seat in range(4):
        row = data.get("seat", {}).get(str(seat), {})
        for name in SEAT_BUTTONS:
            buttons[(name, seat)] = _pin(row, name.value, f"{where}: seat {seat}")
    for name in SHARED_BUTTONS:
        buttons[(name, None)] = _pin(data.get("shared", {}), name.value, f"{where}: shared")
    used = list(buttons.values())
    twice = sorted({p for p in used if used.count(p) > 1})
    if twice:
        raise PinMapError(f"{where}: pins used twice: {twice}")
    debounce = data.get("debounce_ms", 30) / 1000
    return PinMap(buttons, debounce, data.get("long_press_ms", 1000) / 1000)


def _pin(row: dict, key: str, where: str) -> int:
    value = row.get(key)
    if not isinstance(value, int) or not 2 <= value <= 27:
        raise PinMapError(f"{where}: {key} needs a BCM pin number 2-27, not {value!r}")
    return value
