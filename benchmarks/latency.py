"""How long the scoreboard takes to show what happened at the table, measured on real games
played on the simulated table through the app's own loop (:class:`tablekit.app.App`).

Usage: python benchmarks/latency.py [LOG ...] [--games N] [--every 40] [--reader vision|truth]
                                    [--fps 4] [--hands H]

* placed -> shown: from the first camera frame in which a discard lies in its pond (the
  player's hand may still be over it) to the first screen showing it in that seat's pond;
* WIN -> scored: from the WIN button going down to the first screen with the scored hand
  (a ron waits out the 1.5 s window for a second WIN; a tsumo is a WIN held 1 s).

Times are the simulated table's clock (the loop steps 20 times a second, the camera gives
``--fps`` frames a second), so they show the loop's and the tracker's delays, not this
machine's speed (the milliseconds per frame are printed too: the Pi adds those). Without LOGs
it takes the 20-game check's games (``benchmarks/simulate_games.py``'s choice, ``--games``
of them). Prints one JSON line per game and the totals (p50, p95, max; budget 0.5 s) last.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

BUDGET = 0.5   # seconds from placed to shown


class Stopwatch:
    """Watches the app's steps: when each discard first lies still in a camera frame, when
    the screen first shows it; when each WIN went down, when the scored hand showed."""

    def __init__(self) -> None:
        self.placed: dict[tuple[int, int, int], float] = {}
        self.shown: dict[tuple[int, int, int], float] = {}
        self.wins: dict[str, list[float]] = {"ron": [], "tsumo": []}
        self._frames = 0
        self._presses = 0
        self._win_down: tuple[float, bool] | None = None
        self._previewed = False
        self._hands_started = 0   # hands the screen has shown in play
        self._in_play = False

    def step(self, app: Any, table: Any) -> None:
        from tablekit.game.events import Discard
        from tablekit.game.state import Phase

        now = table.clock()
        if table.camera.count != self._frames:
            self._frames = table.camera.count
            frame = table.camera.last
            moment = frame.moment
            if isinstance(moment.event, Discard) and not table.camera.ended:
                key = (moment.hand, moment.event.seat,
                       self._pond_index(table.script, moment))
                self.placed.setdefault(key, now)
        screen = app.screen
        in_play = screen is not None and screen.state.phase is Phase.HAND_IN_PLAY
        self._hands_started += in_play and not self._in_play
        self._in_play = in_play
        if in_play and app.shown_at == now:
            hand = self._hands_started - 1
            for seat, seat_state in enumerate(screen.state.seats):
                for index in range(len(seat_state.pond)):
                    self.shown.setdefault((hand, seat, index), now)
        self._win_presses(table, now, screen)

    def _win_presses(self, table: Any, now: float, screen: Any) -> None:
        from tablekit.display.model import Mode
        from tablekit.io.presses import ButtonName

        in_play = screen is not None and screen.mode is Mode.SCOREBOARD
        for at, press in table.driver.pressed[self._presses:]:
            if press.name is ButtonName.WIN and self._win_down is None and in_play:
                self._win_down = (at, press.long)
        self._presses = len(table.driver.pressed)
        previewed = screen is not None and screen.preview is not None
        if previewed and not self._previewed and self._win_down is not None:
            at, long = self._win_down
            self.wins["tsumo" if long else "ron"].append(now - at)
            self._win_down = None
        self._previewed = previewed

    @staticmethod
    def _pond_index(script: Any, moment: Any) -> int:
        from tablekit.game.events import Discard

        return sum(1 for m in script.moments if m.hand == moment.hand and m.turn < moment.turn
                   and isinstance(m.event, Discard) and m.event.seat == moment.event.seat)

    def discards(self) -> list[float]:
        return [self.shown[key] - at for key, at in self.placed.items()
                if key in self.shown and self.shown[key] >= at]


def figures(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0}
    array = np.asarray(values)
    return {"n": len(values), "p50": round(float(np.percentile(array, 50)), 2),
            "p95": round(float(np.percentile(array, 95)), 2), "max": round(float(array.max()), 2)}


def main() -> int:
    from simulate_games import four_player_logs

    from tablekit.commands.simulate import make_pipeline
    from tablekit.simulate import Hooks, simulate_game

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("logs", type=Path, nargs="*")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--every", type=int, default=40)
    parser.add_argument("--reader", choices=("vision", "truth"), default="vision")
    parser.add_argument("--fps", type=float, default=4.0)
    parser.add_argument("--hands", type=int, default=None)
    args = parser.parse_args()
    logs = args.logs or four_player_logs(args.every, args.games)
    placed, wins = [], {"ron": [], "tsumo": []}
    for index, log in enumerate(logs):
        watch = Stopwatch()
        report = simulate_game(log, make_pipeline(args.reader, 0.0, index), seed=index,
                               fps=args.fps, max_hands=args.hands,
                               hooks=Hooks(on_step=watch.step))
        placed += watch.discards()
        for kind in wins:
            wins[kind] += watch.wins[kind]
        print(json.dumps({"log": log.name, "hands": report.hands, "hands_ok": report.hands_ok,
                          "ms_per_frame": report.summary()["ms_per_frame"],
                          "placed_to_shown": figures(watch.discards()),
                          "discards_never_shown": len(watch.placed) - len(watch.discards()),
                          **{f"win_to_scored_{k}": figures(v) for k, v in watch.wins.items()}}),
              flush=True)
    total = figures(placed)
    print(json.dumps({"reader": args.reader, "fps": args.fps, "games": len(logs),
                      "placed_to_shown": total, "budget_s": BUDGET,
                      "within_budget_p95": total.get("p95", 0) <= BUDGET,
                      **{f"win_to_scored_{k}": figures(v) for k, v in wins.items()}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
