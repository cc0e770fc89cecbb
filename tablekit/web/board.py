"""The club's board page: every table live and the club's league, served read-only by the
pages' web server (``tablekit club --web HOST:PORT``).

:class:`BoardSource` is the page's state: the :class:`~tablekit.club.board.Board`'s tables
(round, each seat's name, wind and points, dealer, honba, deposits, hands played, games
recorded, silent or not, when last heard and when the table says it last changed) and the
league's standings, read again (read-only) only when the board has recorded a game.

>>> from tablekit.club.board import Board
>>> board = Board(db=None, clock=lambda: 0.0, wall=lambda: 1000.0)
>>> board.take("tablekit/club/tables/2/state", b'{"round": "East 2", "names": ["<i>Ana</i>",'
...            b' "Ben", "Cho", "Dai"], "scores": [33000, 25000, 17000, 25000], "dealer": 1}')
>>> version, state = BoardSource(board).current()
>>> table = state["tables"][0]
>>> table["name"], table["round"], table["heard_at"], table["silent"]
('2', 'East 2', 1000.0, False)
>>> [(p["wind"], p["name"], p["points"], p["dealer"]) for p in table["players"]][:2]
[('North', '<i>Ana</i>', 33000, False), ('East', 'Ben', 25000, True)]
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tablekit.errors import TablekitError, one_line
from tablekit.tiles import WIND_NAMES

if TYPE_CHECKING:  # the board is handed in: the pages know nothing of the club's broker
    from tablekit.club.board import Board


class BoardSource:
    """The board page's state from ``board`` and the club's league file ``league``: its
    version grows with each change of either."""

    def __init__(self, board: Board, league: Path | None = None) -> None:
        self.board, self.league = board, league
        self.version = 0
        self._lock = threading.Lock()
        self._seen: tuple[int, int] | None = None
        self._recorded = -1
        self._records: dict[str, Any] = {"league": [], "league_note": ""}
        self._state: dict[str, Any] = {}

    def current(self) -> tuple[int, dict[str, Any]]:
        with self._lock:
            board_version, tables = self.board.current()
            recorded = self.board.recorded
            if recorded != self._recorded:
                self._records, self._recorded = self._read_league(), recorded
            if (board_version, recorded) != self._seen:
                self._seen = (board_version, recorded)
                self._state = {"tables": [table_view(name, entry)
                                          for name, entry in tables.items()],
                               **self._records}
                self.version += 1
            return self.version, self._state

    def _read_league(self) -> dict[str, Any]:
        """The league's standings (four-player and three-player games), read-only; a league
        that cannot be read now shows none and says why, in one line."""
        records: dict[str, Any] = {"league": [], "league_sanma": [], "league_note": ""}
        if self.league is None or not self.league.exists():
            return records
        from tablekit.league.database import read_only
        from tablekit.league.tournament_league import shown_standings
        from tablekit.web.snapshot import league_snapshot, standing_rows

        try:
            db = read_only(self.league)
            try:
                standings, held = shown_standings(self.league, db)  # a tournament's held back
                records["league"] = standing_rows(standings)
                records["league_sanma"] = league_snapshot(db, players=3)
                if held:
                    records["league_note"] = (f"{held} game(s) of the round held back until "
                                              "every table has finished")
            finally:
                db.close()
        except (TablekitError, sqlite3.Error, OSError) as error:
            records["league_note"] = f"the league cannot be read now ({one_line(error)})"
            self._recorded = -1  # read again at the next look
        return records


def table_view(name: str, entry: dict[str, Any]) -> dict[str, Any]:
    """One table as the page shows it, from what it last said (a field it did not say is
    shown empty: a table is another program, its message is not trusted to be whole)."""
    state = entry.get("state") or {}
    scores = _list(state.get("scores"))
    names = _list(state.get("names"))
    dealer = state.get("dealer") if isinstance(state.get("dealer"), int) else -1
    seats = len(scores)
    players = [{"name": str(names[s]) if s < len(names) else f"seat {s + 1}",
                "points": scores[s], "dealer": s == dealer,
                "wind": WIND_NAMES[(s - dealer) % seats] if dealer >= 0 and seats <= 4 else ""}
               for s in range(seats)]
    return {"name": name, "round": str(state.get("round") or ""),
            "phase": str(state.get("phase") or ""), "players": players,
            "honba": state.get("honba", 0), "deposits": state.get("deposits", 0),
            "hands": state.get("hands", 0), "games": entry.get("games", 0),
            "silent": bool(entry.get("silent")), "heard_at": entry.get("heard_at", 0.0),
            "changed_at": state.get("changed_at", 0.0)}


def _list(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else []


def board_page() -> bytes:
    """The board's page (``tablekit/web/board_page.html``)."""
    from tablekit.web.app import load_page

    return load_page("board_page.html")


def start_board_web(bind: str, board: Board, league: Path, report: Any) -> Any:
    """Serve the board page on ``bind`` ([HOST]:PORT) and say where a browser opens it; an
    address that cannot be listened on raises :class:`TablekitError`, in one line."""
    from tablekit.web.server import WebServer, cannot_listen, lan_address, parse_bind

    host, port = parse_bind(bind)
    try:
        server = WebServer((host, port), BoardSource(board, league), page=board_page())
    except OSError as error:
        raise TablekitError(cannot_listen(host, port, error)) from None
    server.start()
    host, port = server.server_address[:2]
    everywhere = host in ("", "0.0.0.0")
    on = "; listening on every interface" if everywhere else ""
    report(f"the board page is on http://{lan_address() if everywhere else host}:{port}/ "
           f"(read-only{on})")
    return server
