"""The club's roster (a small file of names) and the seating for a game.

A roster is plain text, one player a line; blank lines and ``#`` comments are skipped:

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "roster.txt"
>>> _ = path.write_text("# Thursday club\\nAki\\nBen\\n\\nCho\\nDai\\nEmi\\n", encoding="utf-8")
>>> read_roster(path)
['Aki', 'Ben', 'Cho', 'Dai', 'Emi']
>>> choose_players("Aki, Cho, Dai, Emi", read_roster(path))
('Aki', 'Cho', 'Dai', 'Emi')
>>> draw_seats(("Aki", "Cho", "Dai", "Emi"), seed=7)
('Dai', 'Aki', 'Cho', 'Emi')
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from tablekit.league.database import LeagueError

SEATS = 4
WINDS = ("East", "South", "West", "North")


def read_roster(path: Path) -> list[str]:
    """The names in a roster file, in its order; a name written twice is refused."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise LeagueError(f"cannot read the roster {path}: {error}") from None
    names = [line.split("#", 1)[0].strip() for line in lines]
    names = [name for name in names if name]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise LeagueError(f"the roster {path} names {', '.join(twice)} twice")
    return names


def choose_players(text: str, roster: Sequence[str] | None = None) -> tuple[str, ...]:
    """Four names typed as ``A, B, C, D`` (seat order, first dealer first), each on the
    roster when there is one."""
    names = tuple(part.strip() for part in text.split(",") if part.strip())
    if len(names) != SEATS or len(set(names)) != SEATS:
        raise LeagueError(f"a game needs four different players, not {text!r}")
    unknown = [name for name in names if roster is not None and name not in roster]
    if unknown:
        raise LeagueError(f"not on the roster: {', '.join(unknown)}")
    return names


def draw_seats(names: Sequence[str], seed: int | None = None) -> tuple[str, ...]:
    """A random seating draw (seeded: the same seed, the same seats)."""
    return tuple(random.Random(seed).sample(list(names), len(names)))


def seating_text(names: Sequence[str]) -> str:
    """``East Aki · South Ben · West Cho · North Dai``."""
    return " · ".join(f"{wind} {name}" for wind, name in zip(WINDS, names, strict=True))
