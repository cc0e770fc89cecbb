"""Every fault of a club evening, and what held: power cuts, damaged journals, a full disk,
random presses on every button, a failing camera, and hours of frames for memory.

Usage: python benchmarks/faults.py [--quick] [--only NAME,...] [--cuts N] [--presses N]
       [--evening-frames N] [--seed S] [--jobs N] [--json OUT]

- power cuts: a real process (the player of :mod:`harness.power_cut`, forked
  with tablekit and the games already loaded) plays recorded games (four-player ones and
  the three-player game that ships, ``tablekit/data/tenhou-sanma-00b9.xml``) into its journal and
  is SIGKILLed at random moments (mid-write too: every line is written in two halves
  with a pause between), restarted, and compared with an uninterrupted run at the last
  event on disk (state and screen); ``--jobs`` players at once;
- journal damage: every case of :mod:`harness.journal_damage` on a real game's
  journal, and a disk that fills while writing;
- bit flips: :mod:`harness.bit_flips`, single bits flipped at random in a journal,
  each caught or harmless;
- presses: :func:`harness.button_mash.mash`, half with a fake camera side;
- camera faults: :mod:`harness.camera_faults` (a game on the simulated table through
  the app loop: the real pipeline, tracker and flow, the camera failing);
- a long evening: replayed frames through the camera feed, pipeline, tracker, flow and
  app loop at 4 frames a second; resident memory after the first minute and at the end;
- inputs: 1,000 fuzzed rules files and 1,000 fuzzed rosters (quick: 100), crashes and
  nonsense accepted counted apart, and every screen drawn with 32,000-character names.
- writes: :mod:`harness.write_faults` (a full card under each write, two writers on one
  journal, a locked league, racing league migrations, damaged flow notes).
- wire: ``benchmarks/wire_faults.py``, what a hostile or broken table sends: 10,000 fuzzed
  MQTT payloads (quick: 1,000) to the club's board on a real league, valid games
  interleaved, and 1,000 fuzzed outbox files (quick: 100) through a table's publisher;
  crashes, nonsense recorded and games lost counted; then 300 recordings damaged at random
  (quick: 30, ``benchmarks/recording_fuzz.py``), each through recording play, check,
  export and anonymise: crashes, refusals of more than one line and files changed outside
  the recording counted.

The full run: 1,000 power cuts, 10,000 bit flips, 10,000 presses, an arm for 30 s and a
frozen picture for a minute, four hours of frames. ``--quick``: 20 cuts, 1,000 flips,
1,000 presses, shorter faults, two
minutes of frames (under five minutes on a quiet machine). One JSON object is printed last.
What each part costs (CPU, one core): a power cut 0.1 s, a bit flip 15 ms, a press 1 ms,
the camera faults
about 70 s a table (the faulty one and the clean one), a frame of the evening 35 ms (the
pipeline's models: four hours are about 34 minutes); about 40 minutes in all, most of it
the evening, which is one process (its memory is the point); ``--jobs 2`` halves the
power cuts' time.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

STEPS = ("cuts", "journal", "bitflips", "presses", "camera", "evening", "inputs", "writes",
         "wire")
LOGS = ROOT / ".." / "shared" / "data" / "tenhou" / "logs"


def fixture() -> Path:
    """The recorded game that ships with tablekit."""
    from tablekit.sim.table import DEMO_GAME

    return DEMO_GAME


def games(count: int) -> list[Path]:
    """``count`` four-player games from the shared logs (the fixture when they are absent)."""
    from tablekit.errors import TablekitError
    from tablekit.formats.tenhou import import_file

    found = []
    for path in sorted(LOGS.glob("*/*")) if LOGS.is_dir() else []:
        try:
            import_file(path)
        except (TablekitError, ValueError, OSError):
            continue
        found.append(path)
        if len(found) == count:
            break
    return found or [fixture()]


def power_cuts(cuts: int, seed: int, folder: Path, jobs: int = 1) -> dict:
    """The cuts over four-player games, a tenth of them (at least one) over the
    three-player (sanma) game that ships; the figures are of all of them, the sanma
    ones also apart."""
    from harness.power_cut import power_cuts as run
    from tablekit.files.resources import packaged

    three = max(1, cuts // 10)
    sanma = run([packaged("data", "tenhou-sanma-00b9.xml")], three, folder / "sanma",
                seed=seed, jobs=min(jobs, three))
    result = run(games(max(jobs, cuts // 40)), cuts - three, folder, seed=seed, jobs=jobs)
    for problem in (*sanma.problems, *result.problems)[:5]:
        print(f"  power cut: {problem}")
    return {"power_cuts": result.cuts + sanma.cuts,
            "resumed_exact": result.resumed_exact + sanma.resumed_exact,
            "events_lost": result.events_lost + sanma.events_lost,
            "torn_writes": result.torn_writes + sanma.torn_writes,
            "power_cut_games": result.games + sanma.games,
            "power_cuts_sanma": sanma.cuts, "resumed_exact_sanma": sanma.resumed_exact}


def journal_damage(folder: Path) -> dict:
    from harness.journal_damage import CASES, run_case, run_disk_full
    from tablekit.formats.tenhou import import_file

    events = import_file(games(1)[0]).events
    outcomes = [run_case(case, events, folder / f"case-{i}") for i, case in enumerate(CASES)]
    outcomes.append(run_disk_full(events, folder / "disk-full"))
    for outcome in outcomes:
        print(f"  journal: {outcome.name}: {'held' if outcome.held else outcome.problems}")
        if outcome.notice:
            print(f"    screen: {outcome.notice}")
    return {"journal_cases": len(outcomes),
            "journal_recovered": sum(outcome.held for outcome in outcomes)}


def bit_flips(count: int, seed: int, folder: Path) -> dict:
    from harness.bit_flips import flip_bits
    from tablekit.formats.tenhou import import_file

    events = import_file(fixture()).events[:150]  # two hands and a half
    report = flip_bits(events, count, folder, seed=seed)
    for problem in (report.missed + report.crashes)[:5]:
        print(f"  bit flips: {problem}")
    return {"bit_flips": report.flips, "bit_flips_caught": report.caught,
            "bit_flips_harmless": report.harmless, "bit_flips_missed": len(report.missed),
            "bit_flip_crashes": len(report.crashes)}


def presses(count: int, seed: int, folder: Path) -> dict:
    from harness.button_mash import MashReport, mash

    report = MashReport()
    for camera in (True, False):
        report.add(mash(count // 2, folder / f"camera-{camera}", seed=seed, camera=camera))
    for problem in report.problems[:5]:
        print(f"  presses: {problem}")
    return {"presses": report.presses, "press_crashes": report.crashes,
            "invariant_breaks": report.invariant_breaks, "undo_checks": report.undo_checks,
            "undo_restored": report.undo_restored,
            "undo_missed": sorted(set(report.undo_missed)),
            "replay_checks": report.replay_checks,
            "replay_mismatches": report.replay_mismatches,
            "stages_visited": len(report.stages)}


def camera_faults(quick: bool, seed: int, folder: Path) -> dict:
    from harness.camera_faults import run, schedule

    plan = schedule(arm=24, frozen=60, gap=6) if quick else schedule()
    result = run(fixture(), plan, folder, seed=seed)
    for problem in result.problems[:8]:
        print(f"  camera: {problem}")
    return {"camera_faults": result.faults, "camera_frames": result.frames,
            "camera_events": result.events, "wrong_events": result.wrong,
            "wrong_events_without_faults": result.clean_wrong,
            "wrong_events_by_fault": result.wrong_by_fault,
            "unreported_faults": result.unreported, "camera_crashes": result.crashes}


def long_evening(frames: int, folder: Path) -> dict:
    """Replayed frames through the app loop; resident memory after a minute and at the end."""
    from tablekit.sim.evening import play_evening

    result = play_evening(fixture(), frames, folder, progress=lambda done, mb: print(
        f"  evening: {done} frames ({done / 4 / 3600:.2f} h): {mb:.1f} MB resident", flush=True),
        every=3600)
    return {"evening_frames": result.frames, "rss_start_mb": round(result.rss_start_mb, 1),
            "rss_end_mb": round(result.rss_end_mb, 1),
            "rss_growth_mb": round(result.rss_end_mb - result.rss_start_mb, 1),
            "pipeline_warnings": result.pipeline_warnings, "evening_crashes": result.crashes}


def inputs(cases: int, seed: int, folder: Path) -> dict:
    """Fuzzed rules files and rosters (:mod:`harness.input_fuzz`), long text drawn."""
    from harness.input_fuzz import fuzz_inputs

    return fuzz_inputs(cases, folder, seed=seed)


def writes(folder: Path) -> dict:
    """Every write failing: full card, two writers, a locked league, racing migrations,
    damaged flow notes (:mod:`harness.write_faults`)."""
    from harness.write_faults import run

    figures, report = run(folder)
    for problem in report.problems[:8]:
        print(f"  writes: {problem}")
    return figures


def wire(messages: int, files: int, recordings: int, seed: int, folder: Path) -> dict:
    """Fuzzed MQTT payloads to the board and fuzzed outbox files (``wire_faults.py``), and
    damaged recordings through every recording command (``recording_fuzz.py``)."""
    from recording_fuzz import fuzz_recordings
    from wire_faults import fuzz_wire

    figures = fuzz_wire(messages, files, folder / "mqtt", seed=seed)
    report = fuzz_recordings(recordings, folder / "recordings", seed=seed)
    for problem in report["problems"][:8]:
        print(f"  wire: recording {problem}")
    figures["wire_crashes"] = figures.get("wire_crashes", 0) + report["crashes"]
    figures.update({"recordings": report["cases"], "recording_runs": report["runs"],
                    "recording_refused": report["refused"],
                    "recording_lines_not_one": report["lines_over_one"],
                    "recording_odd_exits": report["odd_status"],
                    "recording_outside_changed": report["outside_changed"]})
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small version (minutes)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1,
                        help="power cuts in this many processes at once")
    parser.add_argument("--json", type=Path, default=None, help="also write the JSON here")
    parser.add_argument("--only", default="", help="comma-separated: " + ",".join(STEPS))
    parser.add_argument("--cuts", type=int, default=None, help="power cuts (1,000; quick 20)")
    parser.add_argument("--presses", type=int, default=None,
                        help="button presses (10,000; quick 1,000)")
    parser.add_argument("--flips", type=int, default=None,
                        help="single bits flipped in a journal (10,000; quick 1,000)")
    parser.add_argument("--evening-frames", type=int, default=None,
                        help="frames of the long evening (57,600 = 4 h; quick 480)")
    args = parser.parse_args()
    quick = args.quick
    cuts = args.cuts or (20 if quick else 1000)
    count = args.presses or (1000 if quick else 10_000)
    flips = args.flips or (1000 if quick else 10_000)
    frames = args.evening_frames or (480 if quick else 4 * 3600 * 4)
    only = [name for name in args.only.split(",") if name]
    started = time.perf_counter()
    figures: dict = {"quick": quick}
    with tempfile.TemporaryDirectory(dir="/dev/shm" if os.path.isdir("/dev/shm") else None
                                     ) as tmp:
        folder = Path(tmp)
        steps = {
            "cuts": lambda: power_cuts(cuts, args.seed, folder / "cuts", args.jobs),
            "journal": lambda: journal_damage(folder / "journal"),
            "bitflips": lambda: bit_flips(flips, args.seed, folder / "bitflips"),
            "presses": lambda: presses(count, args.seed, folder / "presses"),
            "camera": lambda: camera_faults(quick, args.seed, folder / "camera"),
            "evening": lambda: long_evening(frames, folder / "evening"),
            "inputs": lambda: inputs(100 if quick else 1000, args.seed, folder / "inputs"),
            "writes": lambda: writes(folder / "writes"),
            "wire": lambda: wire(1000 if quick else 10_000, 100 if quick else 1000,
                                 30 if quick else 300, args.seed, folder / "wire"),
        }
        for name, step in steps.items():
            if only and name not in only:
                continue
            began = time.perf_counter()
            print(f"{name}...", flush=True)
            result = step()
            print(f"{name}: {json.dumps(result)} ({time.perf_counter() - began:.0f} s)",
                  flush=True)
            figures.update(result)
    figures["crashes"] = sum(figures.pop(key, 0) for key in (
        "press_crashes", "camera_crashes", "evening_crashes", "bit_flip_crashes",
        "input_crashes", "write_crashes", "wire_crashes"))
    figures["seconds"] = round(time.perf_counter() - started)
    text = json.dumps(figures)
    if args.json is not None:
        args.json.write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
