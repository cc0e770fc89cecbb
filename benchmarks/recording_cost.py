"""What recording a game costs: the loop's step time with and without a recorder, and the
size of a recording per hour of play.

Usage: python benchmarks/recording_cost.py [RECORDING] [--images jpg|png] [--log LOG]

The same recorded game is played back twice through the app's loop
(:func:`tablekit.recording.play.play_recording`, the vision models reading its frames):
once as it is, once with a :class:`~tablekit.recording.recorder.Recorder` tapping the loop
and recording it again into a scratch folder (``--images``). Each step of the loop is timed
(``time.perf_counter`` around ``App.step``, and the loop thread's own CPU time,
``time.thread_time``, which a busy machine disturbs less), the steps that read a camera
frame apart from the others; the hand-off of a frame to the writer thread is timed alone
too, and the CPU the other threads used (the writer's encoding, onnxruntime's) is the
process's less the loop thread's. The size per
hour is the recording's image bytes over its length on the loop's clock. Without
RECORDING, one is made first: the first hand of ``--log`` (the bundled game) on the
simulated table (``tablekit simulate --hands 1 --reader vision --record``; minutes).
Prints one JSON object per run, then the totals.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def step_figures(times: list[float]) -> dict[str, Any]:
    """Milliseconds: mean, p50, p95, max of ``times`` (seconds).

    >>> step_figures([0.001, 0.002, 0.003])["p50"]
    2.0
    """
    if not times:
        return {"n": 0}
    ordered = sorted(times)
    return {"n": len(times), "mean": round(1000 * statistics.fmean(times), 3),
            "p50": round(1000 * ordered[len(ordered) // 2], 3),
            "p95": round(1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 3),
            "max": round(1000 * ordered[-1], 3)}


def timed_playback(folder: Path, record_into: Path | None, images: str) -> dict[str, Any]:
    """Play ``folder`` back, timing each step; with ``record_into``, recorded again."""
    from tablekit.recording.play import play_recording
    from tablekit.recording.recorder import Recorder

    frame_steps: list[float] = []
    other_steps: list[float] = []
    frame_cpu: list[float] = []
    other_cpu: list[float] = []
    handoffs: list[float] = []
    recorder = Recorder(record_into, {"source": "benchmark"}, images) if record_into else None

    def on_start(app: Any) -> None:
        if recorder is not None:
            recorder.attach(app)
            hand = recorder.writer.frame

            def frame(image: Any, t: float) -> None:
                started = time.perf_counter()
                hand(image, t)
                handoffs.append(time.perf_counter() - started)

            recorder.writer.frame = frame  # type: ignore[method-assign]
        source, read = app.camera.feed.source, app.camera.feed.source.read
        seen = [False]

        def reading() -> Any:
            seen[0] = True
            return read()

        source.read = reading
        step = app.step

        def timed_step() -> None:
            seen[0] = False
            started, cpu = time.perf_counter(), time.thread_time()
            step()
            (frame_steps if seen[0] else other_steps).append(time.perf_counter() - started)
            (frame_cpu if seen[0] else other_cpu).append(time.thread_time() - cpu)

        app.step = timed_step

    process = time.process_time()
    with tempfile.TemporaryDirectory() as scratch:
        playback = play_recording(folder, Path(scratch) / "game.jsonl", on_start=on_start)
    kept = recorder.close() if recorder is not None else {}
    process = time.process_time() - process
    return {"recording": recorder is not None, "same_journal": playback.same,
            "steps_with_frame_ms": step_figures(frame_steps),
            "steps_without_frame_ms": step_figures(other_steps),
            "all_steps_ms": step_figures(frame_steps + other_steps),
            "loop_cpu_with_frame_ms": step_figures(frame_cpu),
            "loop_cpu_without_frame_ms": step_figures(other_cpu),
            "process_cpu_s": round(process, 2),
            "other_threads_cpu_s": round(process - sum(frame_cpu) - sum(other_cpu), 2),
            **({"handoff_ms": step_figures(handoffs), **kept} if recorder else {})}


def size_per_hour(folder: Path) -> dict[str, Any]:
    """A recording's size per minute and per hour of the loop's clock."""
    manifest = json.loads((folder / "recording.json").read_text())
    seconds = manifest["end"]["t"]
    total = sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())
    return {"images": manifest["images"], "frame_size": manifest["frame_size"],
            "fps": manifest["fps"], "loop_seconds": seconds,
            "frames_kept": manifest["frames_kept"],
            "kb_per_frame": round(manifest["image_bytes"] / max(manifest["frames_kept"], 1)
                                  / 1e3, 1),
            "mb_per_minute": round(total / seconds * 60 / 1e6, 1),
            "gb_per_hour": round(total / seconds * 3600 / 1e9, 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("recording", type=Path, nargs="?")
    parser.add_argument("--images", choices=("jpg", "png"), default="jpg")
    parser.add_argument("--log", type=Path,
                        default=ROOT / "tablekit" / "data" / "tenhou-python-bot-28.xml")
    args = parser.parse_args()
    from tablekit.cli import main as tablekit

    with tempfile.TemporaryDirectory(prefix="tablekit-recording-cost-") as scratch:
        folder = args.recording
        if folder is None:
            folder = Path(scratch) / "made"
            if tablekit(["simulate", str(args.log), "--hands", "1", "--reader", "vision",
                         "--record", str(folder), "--record-images", args.images]) != 0:
                return 1
        print(json.dumps({"size": size_per_hour(folder)}), flush=True)
        plain = timed_playback(folder, None, args.images)
        print(json.dumps(plain), flush=True)
        recorded = timed_playback(folder, Path(scratch) / "again", args.images)
        print(json.dumps(recorded), flush=True)
    print(json.dumps({
        "step_ms_mean": {"without": plain["all_steps_ms"]["mean"],
                         "with": recorded["all_steps_ms"]["mean"]},
        "frame_step_ms_p50": {"without": plain["steps_with_frame_ms"]["p50"],
                              "with": recorded["steps_with_frame_ms"]["p50"]},
        "loop_cpu_ms_mean_frame_steps": {"without": plain["loop_cpu_with_frame_ms"]["mean"],
                                         "with": recorded["loop_cpu_with_frame_ms"]["mean"]},
        "loop_cpu_ms_mean_other_steps": {
            "without": plain["loop_cpu_without_frame_ms"]["mean"],
            "with": recorded["loop_cpu_without_frame_ms"]["mean"]},
        "other_threads_cpu_s": {"without": plain["other_threads_cpu_s"],
                                "with": recorded["other_threads_cpu_s"]},
        "handoff_ms_max": recorded["handoff_ms"]["max"],
        "frames_dropped": recorded["frames_dropped"]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
