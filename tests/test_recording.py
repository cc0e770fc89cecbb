"""Recordings: a game recorded through the app's loop plays back to the same journal; a
recording cut by a power cut plays up to the cut; the writer never holds the loop up; a
full card stops the frames with one line; every refusal is one line."""

from __future__ import annotations

import json
import shutil
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
from conftest import DATA

from tablekit.app.loop import App, DrivenClock
from tablekit.cli import main
from tablekit.flow import Flow
from tablekit.game.journal import read_journal
from tablekit.game.session import Session
from tablekit.io.presses import ButtonName, ButtonPress
from tablekit.recording.manifest import FORMAT, read_manifest, write_manifest
from tablekit.recording.play import play_recording
from tablekit.recording.recorder import Recorder
from tablekit.rules.presets import load_rules
from tablekit.vision.frame_log import FrameWriter, RecordedFrames, read_lines
from tablekit.vision.frames import CameraFrame

GAME = DATA / "tenhou-python-bot-28.xml"

# A hand without a camera: dealt, seat 2's riichi, seat 2 wins off seat 0 (2 han 30 fu,
# entered by hand), confirmed; then the next hand is dealt.
PRESSES = [(0.5, ButtonName.OK, None), (1.0, ButtonName.RIICHI, 2), (1.5, ButtonName.WIN, 2),
           (4.0, ButtonName.CALL, 0), (4.5, ButtonName.RIICHI, 2), (5.0, ButtonName.OK, None),
           (5.5, ButtonName.OK, None), (6.5, ButtonName.OK, None)]


class ScriptedButtons:
    """Presses put on the app's inbox at their times (as a button board does)."""

    def __init__(self, app: App, presses: list[tuple[float, ButtonName, int | None]]) -> None:
        self.app, self.presses = app, list(presses)

    def poll(self) -> None:
        while self.presses and self.presses[0][0] <= self.app.clock() + 1e-9:
            at, name, seat = self.presses.pop(0)
            self.app.inbox.put(ButtonPress(name, seat, time=at))

    def close(self) -> None:
        pass


class Source:
    """A camera that always sees the same dark picture."""

    def read(self) -> CameraFrame:
        return CameraFrame(np.zeros((36, 64, 3), np.uint8), 0.0)

    def close(self) -> None:
        pass


@dataclass
class Camera:
    """What the app and a recorder ask of the camera side: its feed reads its source at
    ``fps``."""

    source: Source
    fps: float = 4.0
    warnings: list[str] = field(default_factory=list)

    @property
    def feed(self) -> Camera:
        return self

    def poll(self, state: object) -> list:
        self.source.read()
        return []


def record_by_hand(tmp_path: Path, until: float = 8.0, names: tuple[str, ...] = ()
                   ) -> tuple[Path, Path]:
    """A camera-less hand played through App on a driven clock and recorded."""
    journal, folder = tmp_path / "live.jsonl", tmp_path / "rec"
    session = Session.open(journal)
    clock = DrivenClock()
    flow = Flow(session, clock=clock)
    flow.start_game(load_rules("tenhou"), names)
    app = App(flow, None, clock=clock, sleep=clock.sleep)
    app.buttons = ScriptedButtons(app, PRESSES)
    recorder = Recorder(folder, {"source": "test"})
    recorder.attach(app)
    app.run(until=lambda app: clock() >= until)
    recorder.close()
    session.close()
    return folder, journal


def test_a_game_recorded_through_the_loop_plays_back_to_the_same_journal(tmp_path):
    folder, journal = record_by_hand(tmp_path)
    live = read_journal(journal).events
    assert read_journal(folder / "journal.jsonl").events == live   # the copy as it went
    kinds = [type(event).__name__ for event in live]
    assert kinds.count("HandStarted") == 2 and "Won" in kinds
    presses = read_lines(folder / "presses.jsonl")
    assert [(p["t"], p["button"], p["seat"]) for p in presses][:2] == [
        (0.5, "ok", None), (1.0, "riichi", 2)]
    written = read_lines(folder / "journal_times.jsonl")   # when each line was written
    sizes, times = [line["bytes"] for line in written], [line["t"] for line in written]
    assert sizes == sorted(set(sizes)) and times == sorted(times)
    assert sizes[-1] == (folder / "journal.jsonl").stat().st_size
    playback = play_recording(folder, tmp_path / "played.jsonl")
    assert playback.same and playback.played == live
    summary = playback.summary()
    assert summary["hands"] == 2 and summary["wins"] == 1 and summary["presses"] == 8
    assert summary["same_journal"] and summary["cut"] is False


def test_a_recording_cut_by_a_power_cut_plays_up_to_the_cut(tmp_path):
    folder, journal = record_by_hand(tmp_path)
    manifest = read_manifest(folder)
    del manifest["end"]                        # the manifest as written at the start
    write_manifest(folder, manifest)
    lines = (folder / "presses.jsonl").read_text().splitlines(keepends=True)
    (folder / "presses.jsonl").write_text("".join(lines[:4]) + lines[4][:20])  # torn
    playback = play_recording(folder, tmp_path / "played.jsonl")
    live = read_journal(journal).events
    assert playback.cut and 2 < len(playback.played) < len(live)
    assert playback.played == live[: len(playback.played)]   # the same up to the cut


def test_the_frames_cut_by_a_power_cut_end_at_the_last_whole_one(tmp_path):
    writer = FrameWriter(tmp_path)
    for number in range(6):
        writer.frame(np.full((36, 64, 3), number * 40, np.uint8), number * 0.25)
    writer.close()
    assert writer.written == 6 and writer.size == (64, 36)
    (tmp_path / "frames" / "000005.jpg").write_bytes(b"\xff\xd8 torn")   # a torn image
    (tmp_path / "frames" / "000006.jpg").unlink()                        # never written
    with open(tmp_path / "frames.jsonl", "a") as file:
        file.write('{"frame": 7, "t"')                                   # a torn line
    now = [0.0]
    frames = RecordedFrames(tmp_path, lambda: now[0])
    assert len(frames.lines) == 5 and frames.last == 1.0
    seen = []
    for step in range(8):
        now[0] = step * 0.25
        frame = frames.read()
        seen.append(int(frame.image.mean() / 40 + 0.5))
    assert seen == [0, 1, 2, 3, 3, 3, 3, 3]   # the torn fifth image ends the frames


def test_the_writer_never_blocks_the_loop_it_drops_frames_and_counts_them(tmp_path):
    gate = threading.Event()

    def slow(path: Path, data: bytes) -> None:   # a card that stalls until let go
        gate.wait(5)
        path.write_bytes(data)

    writer = FrameWriter(tmp_path, max_pending=2, write=slow)
    image = np.zeros((36, 64, 3), np.uint8)
    started = time.perf_counter()
    for number in range(20):
        writer.frame(image.copy(), number * 0.25)
        writer.line("presses.jsonl", {"n": number})   # lines are never dropped
    handed = time.perf_counter() - started
    gate.set()
    writer.close()
    assert handed < 0.5                                  # the loop never waited
    assert writer.dropped >= 10 and writer.written + writer.dropped == 20
    records = read_lines(tmp_path / "frames.jsonl")
    assert len(records) == 20 and sum(r["file"] is None for r in records) == writer.dropped
    assert len(read_lines(tmp_path / "presses.jsonl")) == 20


def test_a_card_running_out_of_room_stops_the_frames_with_one_line(tmp_path):
    lines: list[str] = []
    journal = tmp_path / "live.jsonl"
    session = Session.open(journal)
    clock = DrivenClock()
    flow = Flow(session, clock=clock)
    flow.start_game(load_rules("tenhou"))
    app = App(flow, None, clock=clock, sleep=clock.sleep)

    app.camera = Camera(Source())  # type: ignore[assignment]
    app.buttons = ScriptedButtons(app, PRESSES)
    recorder = Recorder(tmp_path / "rec", min_free=1 << 62, report=lines.append)
    recorder.attach(app)
    app.run(until=lambda app: clock() >= 8.0)
    kept = recorder.close()
    session.close()
    assert len(lines) == 1 and lines[0].startswith("recording: frames stopped")
    assert "journal" in lines[0] and "\n" not in lines[0]
    assert kept["frames_kept"] == 0 and kept["frames_not_kept"] > 0
    copy = read_journal(tmp_path / "rec" / "journal.jsonl").events
    assert copy == read_journal(journal).events and len(copy) > 3   # the journal has room
    assert read_manifest(tmp_path / "rec")["stopped"] == lines[0]


def refusal(capsys, argv: list[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    return err


def test_each_refusal_is_one_line(tmp_path, capsys):
    assert "no such recording" in refusal(capsys, ["recording", "play",
                                                   str(tmp_path / "nowhere")])
    folder, _ = record_by_hand(tmp_path)
    assert "--reader vision" in refusal(capsys, ["recording", "play", str(folder),
                                                 "--reader", "truth"])
    taken = tmp_path / "taken.jsonl"
    taken.write_text("")
    assert "new journal" in refusal(capsys, ["recording", "play", str(folder), "--journal",
                                             str(taken)])
    assert "record into a new folder" in refusal(capsys, [
        "simulate", str(GAME), "--hands", "1", "--record", str(folder)])
    manifest = read_manifest(folder)
    write_manifest(folder, {**manifest, "format": FORMAT + 1})
    assert "newer than this tablekit" in refusal(capsys, ["recording", "play", str(folder)])
    (folder / "recording.json").write_text("{not json")
    assert "not a recording" in refusal(capsys, ["recording", "play", str(folder)])


def test_recording_play_prints_the_summary_as_its_last_line(tmp_path, capsys):
    folder, _ = record_by_hand(tmp_path)
    assert main(["recording", "play", str(folder), "--check"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["recording"] == str(folder) and summary["reader"] == "vision"
    assert summary["hands"] == 2 and summary["same_journal"] is True


@pytest.mark.slow
def test_a_simulated_hand_recorded_plays_back_through_the_vision_models_event_for_event(
        tmp_path, capsys):
    """``simulate --record`` then ``recording play``: the same journal, the same hand."""
    folder, journal = tmp_path / "rec", tmp_path / "live.jsonl"
    assert main(["simulate", str(GAME), "--hands", "1", "--reader", "vision", "--check",
                 "--record", str(folder), "--journal", str(journal)]) == 0
    live = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    manifest = read_manifest(folder)
    assert manifest["frame_size"] == [1280, 720] and manifest["frames_dropped"] == 0
    assert main(["recording", "play", str(folder), "--check"]) == 0
    played = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert played["same_journal"] and played["events"] == len(read_journal(journal).events)
    assert played["hands"] == live["hands"] == 1
    assert main(["recording", "check", str(folder), "--against", str(GAME), "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    exact = json.loads(lines[-1])          # the hand played is exact; the log's others named
    assert exact["hands_read"] == exact["hands_exact"] == exact["hands"] == 1
    assert len(exact["not_recorded"]) == 5 and exact["differences"] == len(lines) - 1 == 0

    misread = tmp_path / "misread.jsonl"   # played again, made to misread
    assert main(["recording", "play", str(folder), "--misread", "0.05", "--seed", "1",
                 "--journal", str(misread)]) == 0
    capsys.readouterr()
    found = []
    for record in (GAME, folder / "journal.jsonl"):   # the log, and the game as recorded
        assert main(["recording", "check", str(folder), "--against", str(record),
                     "--journal", str(misread), "--json"]) == 0
        found.append(capsys.readouterr().out.strip().splitlines())
    misread_lines = [line for line in found[0][:-1] if not line.endswith("not read")]
    assert misread_lines and misread_lines == found[1][:-1]   # the same differences
    summary = json.loads(found[1][-1])
    assert summary["hands_exact"] == 0 and summary["differences"] == len(misread_lines)
    assert summary["tiles_right"] < summary["tiles"]

    cut = tmp_path / "cut"                       # a power cut in the middle of the hand
    shutil.copytree(folder, cut)
    manifest = read_manifest(cut)
    del manifest["end"]
    write_manifest(cut, manifest)
    frames = (cut / "frames.jsonl").read_text().splitlines(keepends=True)
    half = len(frames) // 2
    middle = json.loads(frames[half])["t"]
    (cut / "frames.jsonl").write_text("".join(frames[: half + 1]) + frames[half + 1][:9])
    for line in frames[half + 1:]:
        name = json.loads(line)["file"]
        if name:
            (cut / name).unlink(missing_ok=True)
    presses = [line for line in (cut / "presses.jsonl").read_text().splitlines(keepends=True)
               if json.loads(line)["t"] <= middle]
    (cut / "presses.jsonl").write_text("".join(presses))
    playback = play_recording(cut, tmp_path / "cut.jsonl")
    recorded = read_journal(journal).events
    assert playback.cut and 3 < len(playback.played) < len(recorded)
    assert playback.played == recorded[: len(playback.played)]


def test_run_records_its_camera_presses_and_journal_the_same_way(tmp_path, capsys):
    """``tablekit run --record``: the same recorder on the real loop (a folder camera)."""
    import cv2

    images = tmp_path / "images"
    images.mkdir()
    for number in range(3):
        cv2.imwrite(str(images / f"{number}.png"), np.full((180, 320, 3), 60 * number,
                                                            np.uint8))
    folder, journal = tmp_path / "rec", tmp_path / "game.jsonl"
    assert main(["run", "--camera", f"folder:{images}", "--buttons", "none", "--display",
                 f"headless:{tmp_path / 'screens'}", "--frames", "30", "--journal",
                 str(journal), "--record", str(folder)]) == 0
    err = capsys.readouterr().err
    assert f"recording the game into {folder}" in err and "3 frames kept" in err
    manifest = read_manifest(folder)
    assert manifest["source"] == "run" and manifest["frame_size"] == [320, 180]
    assert manifest["end"]["steps"] == 30 and manifest["fps"] == 4.0
    records = read_lines(folder / "frames.jsonl")
    assert [r["file"] for r in records] == [f"frames/00000{n}.jpg" for n in (1, 2, 3)]
    assert records[0]["t"] < 0.1 and records[0]["t"] < records[1]["t"] < records[2]["t"]
    assert read_journal(folder / "journal.jsonl").events == read_journal(journal).events
    assert main(["recording", "play", str(folder), "--check"]) == 0
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["frames"] == 3
    assert "record into a new folder" in refusal(capsys, [
        "run", "--camera", "none", "--buttons", "none", "--frames", "1", "--journal",
        str(journal), "--record", str(folder)])


def test_presses_taken_ahead_of_a_step_s_camera_are_played_ahead_of_it():
    """The simulated person's own presses reach the flow between steps, before the next
    step's camera looks: played back, they come before that camera's events again."""
    from tablekit.recording.play import PressPlayer

    order: list[str] = []

    class Flow:
        session = SimpleNamespace(state=None)   # (its state is handed to the camera)

        def handle(self, item):
            order.append(f"{item.name.value} {item.seat}")

        def tick(self):
            pass

        def screen(self):
            return None

        def warn(self, *lines):
            pass

    class Camera:
        warnings: tuple = ()

        def poll(self, state):
            order.append("camera")
            return []

    clock = DrivenClock()
    app = App(Flow(), None, clock=clock, sleep=clock.sleep)  # type: ignore[arg-type]
    app.camera = Camera()  # type: ignore[assignment]
    press = {"long": False, "pressed": 0.0, "t": 0.05}
    app.buttons = PressPlayer([{**press, "button": "win", "seat": 1, "early": True},
                               {**press, "button": "ok", "seat": None, "early": False}], app)
    app.run(max_frames=2)
    assert order == ["camera", "win 1", "camera", "ok None"]


def misread_discards(events: list, every: int) -> tuple[list, int]:
    """The events with every ``every``-th discard (not one claimed next) read as another
    tile the game still allows; how many were changed."""
    from dataclasses import replace

    from tablekit.errors import BadInput
    from tablekit.game.events import Call, Discard, Won
    from tablekit.recording.check import hands_seen
    from tablekit.tiles import Tile

    events, changed = list(events), 0
    for index, event in enumerate(events):
        if not isinstance(event, Discard) or index % every or isinstance(
                events[index + 1], (Call, Won)):
            continue
        for shift in range(1, 34):
            trial = [*events[:index], replace(event, tile=Tile((event.tile.kind + shift) % 34)),
                     *events[index + 1:]]
            try:
                hands_seen(trial)
            except (BadInput, ValueError):
                continue
            events, changed = trial, changed + 1
            break
    return events, changed


def test_a_game_checked_against_its_own_record_is_exact_and_each_misread_is_one_line():
    from tablekit.formats.replay_check import read_game
    from tablekit.recording.check import compare

    record = read_game(GAME).events
    exact = compare(record, record)
    assert exact.hands == exact.hands_exact == 6 and exact.lines == []
    assert exact.tiles == exact.tiles_right == 446   # discards, calls, dora, winning hands
    misread, changed = misread_discards(record, 23)
    check = compare(misread, record)
    assert changed >= 5 and len(check.lines) == changed   # the right number of them
    assert check.tiles_right == check.tiles - changed and check.hands_exact < 6
    assert all("discard read" in line and ", record " in line for line in check.lines)
    starts = [i for i, event in enumerate(record) if type(event).__name__ == "HandStarted"]
    shorter = compare(record, record[: starts[3]])   # a record kept for three hands only
    assert (shorter.hands, shorter.hands_exact, shorter.hands_read) == (3, 3, 6)
    assert shorter.lines == [f"{label}: read, not in the record" for label in
                             ("E2-3", "E3-0", "E4-0")]


def test_recording_play_says_in_one_line_that_a_recording_was_cut(tmp_path, capsys):
    """A power cut: no end in the manifest, the presses' and the journal copy's last lines
    half written (torn frames: the tests above); played up to the cut, said in one line."""
    folder, journal = record_by_hand(tmp_path)
    manifest = read_manifest(folder)
    del manifest["end"]
    write_manifest(folder, manifest)
    lines = (folder / "presses.jsonl").read_text().splitlines(keepends=True)
    (folder / "presses.jsonl").write_text("".join(lines[:5]) + lines[5][:11])
    copy = (folder / "journal.jsonl").read_bytes()
    (folder / "journal.jsonl").write_bytes(copy[: len(copy) - 9])
    assert main(["recording", "play", str(folder), "--check"]) == 0
    out, err = capsys.readouterr()
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "cut off while recording" in err and "played up to 4.5 s" in err
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["cut"] is True and summary["until"] == 4.5
    assert f"the same as the recording's first {summary['events']}" in err
    assert 2 < summary["events"] < len(read_journal(journal).events)


def test_recording_check_of_a_part_counts_the_hands_recorded_and_names_the_rest(
        tmp_path, capsys):
    from tablekit.game.events import AbortiveDraw, HandStarted

    folder, journal = record_by_hand(tmp_path)   # one hand read, the next one begun
    record = tmp_path / "record.jsonl"           # the evening's record goes on
    shutil.copy(journal, record)
    session = Session.open(record)
    for event in (AbortiveDraw("nine_terminals"), HandStarted(),
                  AbortiveDraw("nine_terminals")):
        session.submit(event)
    session.close()
    assert main(["recording", "check", str(folder), "--against", str(record)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out == [f"{folder}: 1/1 hands exact, 1/1 tiles right, 0 differences (1 hand "
                   "read; not recorded: E2-0, E2-1)"]
    assert main(["recording", "check", str(folder), "--against", str(record), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (summary["hands"], summary["hands_exact"], summary["differences"]) == (1, 1, 0)
    assert summary["not_recorded"] == ["E2-0", "E2-1"]


def test_recording_check_against_the_record_kept(tmp_path, capsys):
    folder, journal = record_by_hand(tmp_path)
    assert main(["recording", "check", str(folder), "--against", str(journal),
                 "--json"]) == 0
    out, err = capsys.readouterr()
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["hands"] == summary["hands_exact"] == 1 and summary["differences"] == 0
    assert "1/1 hands exact" in err
    mjai = tmp_path / "game.mjai"
    mjai.write_text('{"type": "start_game", "names": ["A", "B", "C", "D"]}\n')
    assert "mjai" in refusal(capsys, ["recording", "check", str(folder), "--against",
                                      str(mjai)])
    assert "no such file" in refusal(capsys, ["recording", "check", str(folder),
                                              "--against", str(tmp_path / "none.json")])
    assert "no such recording" in refusal(capsys, ["recording", "check", str(tmp_path),
                                                   "--against", str(journal)])


def test_the_game_as_read_exported_and_corrected_by_hand_is_the_record_checked(
        tmp_path, capsys):
    """``recording export`` writes the game as read as plain lines; a tile corrected in them
    is one difference, the seat named by its wind in that hand."""
    from tablekit.formats.replay_check import read_game

    folder, journal = tmp_path / "rec", tmp_path / "live.jsonl"
    session = Session.open(journal)
    for event in read_game(GAME).events[:200]:       # the log's first hands, as if read
        session.submit(event)
    session.close()
    manifest = {"format": FORMAT, "journal_start": 0}
    folder.mkdir()
    shutil.copyfile(journal, folder / "journal.jsonl")
    write_manifest(folder, manifest)
    record = tmp_path / "record.jsonl"
    assert main(["recording", "export", str(folder), "--out", str(record)]) == 0
    capsys.readouterr()
    lines = record.read_text().splitlines()
    assert not any('"crc"' in line or '"n":' in line for line in lines)
    first = next(i for i, line in enumerate(lines) if '"discard", "seat": 1' in line)
    assert main(["recording", "check", str(folder), "--against", str(record)]) == 0
    assert ", 0 differences" in capsys.readouterr().out
    event = json.loads(lines[first])
    wrong = "1z" if event["tile"] != "1z" else "2z"
    lines[first] = json.dumps({**event, "tile": wrong})
    record.write_text("\n".join(lines) + "\n")
    assert main(["recording", "check", str(folder), "--against", str(record), "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[:-1] == [f"E1-0: South's 1st discard read {event['tile']}, record {wrong}"]
    summary = json.loads(out[-1])
    assert summary["differences"] == 1 and summary["tiles_right"] == summary["tiles"] - 1
    assert "exists" in refusal(capsys, ["recording", "export", str(folder), "--out",
                                        str(record)])


def test_misread_reads_a_seeded_share_of_tiles_as_another_kind_the_same_in_every_frame():
    from tablekit.recording.misread import MisreadingPipeline
    from tablekit.tiles import Tile
    from tablekit.vision.table_reading import SeenTile, TableReading

    tiles = tuple(SeenTile((-200.0 + 26.0 * (i % 16), -300.0 + 40.0 * (i // 16)), 0.0, True,
                           ((Tile(i % 34), 0.9),)) for i in range(160))

    class Models:
        def read_frame(self, frame, timestamp, faint=False, gaps=False):
            return TableReading(tiles, timestamp=timestamp)

        def notices(self):
            return ["seen"]

    pipeline = MisreadingPipeline(Models(), 0.1, seed=3)
    first, again = pipeline.read_frame(None, 0.0), pipeline.read_frame(None, 0.25)
    wrong = [i for i, (a, b) in enumerate(zip(first.tiles, tiles, strict=True)) if a != b]
    assert 6 <= len(wrong) <= 28 and first.tiles == again.tiles   # ~10%, alike each frame
    assert pipeline.misread == 2 * len(wrong) and pipeline.notices() == ["seen"]
    for i in wrong:
        assert first.tiles[i].best != tiles[i].best
        assert first.tiles[i].candidates[1][0] == tiles[i].best and first.tiles[i].xy == tiles[i].xy
    other = MisreadingPipeline(Models(), 0.1, seed=4).read_frame(None, 0.0)
    assert other.tiles != first.tiles                              # another seed, others
    assert MisreadingPipeline(Models(), 0.0).read_frame(None, 0.0).tiles == tiles


def test_recording_play_refuses_a_misread_share_out_of_range(tmp_path, capsys):
    folder, _ = record_by_hand(tmp_path)
    assert "from 0 to 1" in refusal(capsys, ["recording", "play", str(folder),
                                             "--misread", "1.5"])


def test_anonymise_replaces_the_players_names_and_the_recording_plays_the_same(
        tmp_path, capsys):
    names = ("Ann Lee", "Bo", "Chidi", "Dana Ó")
    folder, _ = record_by_hand(tmp_path, names=names)
    before = read_journal(folder / "journal.jsonl").events
    def lines_written() -> list[tuple[float, int]]:   # the journal's lines by each time
        text = (folder / "journal.jsonl").read_bytes()
        return [(line["t"], text[:line["bytes"]].count(b"\n"))
                for line in read_lines(folder / "journal_times.jsonl")]
    written = lines_written()
    assert main(["recording", "anonymise", str(folder)]) == 0
    assert lines_written() == written   # the lines' times moved with them
    assert "4 names replaced by Player 1 to Player 4" in capsys.readouterr().out
    for path in folder.rglob("*"):
        if path.is_file():
            assert not any(name.encode() in path.read_bytes() for name in names), path
    after = read_journal(folder / "journal.jsonl").events   # the checksums hold
    assert after[0].names == ("Player 1", "Player 2", "Player 3", "Player 4")
    assert after[1:] == before[1:]
    playback = play_recording(folder, tmp_path / "played.jsonl")
    assert playback.same and playback.played == after
    assert main(["recording", "anonymise", str(folder)]) == 0
    assert "no players' names" in capsys.readouterr().out


def test_anonymise_keeps_journal_start_at_the_same_line(tmp_path):
    from tablekit.recording.anonymise import anonymise

    folder = tmp_path / "rec"
    folder.mkdir()
    lines = ['{"type": "game_started", "names": ["Zoë Long Name", "B", "C", "D"]}\n',
             '{"type": "game_ended", "reason": "time"}\n']
    (folder / "journal.jsonl").write_text("".join(lines), encoding="utf-8")
    write_manifest(folder, {"format": FORMAT, "journal_start": len(lines[0].encode())})
    assert anonymise(folder) == (4, 0)
    text = (folder / "journal.jsonl").read_bytes()
    start = read_manifest(folder)["journal_start"]
    assert text[:start].endswith(b'"Player 4"]}\n')
    assert text[start:].startswith(b'{"type": "game_ended"')


def test_a_damaged_journal_times_file_gives_what_it_can(tmp_path):
    from tablekit.recording.manifest import journal_times

    assert journal_times(tmp_path) == []   # format 1: none kept
    (tmp_path / "journal_times.jsonl").write_text(
        '{"t": 1.5, "step": 30, "bytes": 100}\n{"t": "soon", "bytes": 150}\n[1, 2]\n'
        '{"t": 2.0, "bytes": 90}\n{"t": 4, "step": 80, "bytes": 180}\n{"t": 5.0, "by')
    assert journal_times(tmp_path) == [(100, 1.5), (180, 4.0)]
