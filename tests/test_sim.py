"""The simulated table: ground truth against the pixels, seeds, placement, script, CLI."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablekit.cli import main
from tablekit.formats.tenhou import import_file
from tablekit.game.events import RiichiDeclared, Won
from tablekit.io.presses import ButtonName
from tablekit.rules.hand import Meld
from tablekit.sim.art import FACE_CODES, available_art, load_art
from tablekit.sim.camera_model import Camera
from tablekit.sim.frame import TableRenderer
from tablekit.sim.geometry import MARKER_CORNERS_MM, MARKER_IDS
from tablekit.sim.look import random_look
from tablekit.sim.occluders import random_arm
from tablekit.sim.scene import PlacedTile, Scene, meld_slots, pond_entries
from tablekit.sim.script import Script
from tablekit.sim.source import ReplayedFrames, SimulatedCamera
from tablekit.sim.table import table_view
from tablekit.tiles import Tile, parse_tiles

LOG = Path(__file__).parents[1] / "tablekit" / "data" / "tenhou-python-bot-28.xml"
SIZE = (1280, 720)


@pytest.fixture(scope="module")
def script() -> Script:
    return Script.from_log(LOG)


def clean_camera(script: Script, seed: int = 11, **options: object) -> SimulatedCamera:
    return SimulatedCamera(script, seed=seed, size=SIZE, art="fallback", clean=True,
                           **options)  # type: ignore[arg-type]


def rectified(image: np.ndarray, polygon: list, size: tuple[int, int] = (12, 16)) -> np.ndarray:
    """The face inside ``polygon`` warped back to an upright rectangle (about the size it
    was drawn at, so both sides are equally sharp)."""
    w, h = size
    target = np.float32([[0, 0], [w, 0], [w, h], [0, h]]) - 0.5
    matrix = cv2.getPerspectiveTransform(np.float32(polygon), target)
    return cv2.warpPerspective(image, matrix, size, flags=cv2.INTER_AREA)


def inner_mask(shape: tuple[int, ...], polygon: list, share: float = 0.8) -> np.ndarray:
    points = np.asarray(polygon, np.float64)
    centre = points.mean(0)
    inner = centre + (points - centre) * share
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(inner).astype(np.int32), 1)
    return mask.astype(bool)


# --- seeds --------------------------------------------------------------------------------

def frames(script: Script, seed: int, count: int = 3) -> list[np.ndarray]:
    camera = SimulatedCamera(script, seed=seed, size=(640, 360), art="fallback",
                             start=script.moments[60].start)
    return [camera.read().image for _ in range(count)]  # type: ignore[union-attr]


def test_same_seed_gives_identical_frames_and_another_seed_does_not(script: Script) -> None:
    first, again, other = frames(script, 5), frames(script, 5), frames(script, 6)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not any(np.array_equal(a, b) for a, b in zip(first, other, strict=True))


# --- ground truth against the pixels --------------------------------------------------------

def test_each_face_polygon_covers_its_rendered_face(script: Script) -> None:
    camera = clean_camera(script, arms=False)
    frame = camera.render_moment(script.index_of(0, 80))
    image, art = frame.image, load_art("fallback")
    background = camera.rig.renderer.background
    up = [t for t in frame.truth.tiles if t.face_up and t.visible > 0.9]
    assert len(up) > 40
    right, turned = [], []
    for tile in up:
        mask = inner_mask(image.shape, tile.polygon)
        drawn = image[mask].mean(0)
        assert np.abs(drawn - background[mask].mean(0)).max() > 40, tile
        face = cv2.resize(art.faces[tile.code], (12, 16), interpolation=cv2.INTER_AREA)
        seen = rectified(image, tile.polygon).astype(np.float32)
        inner = (slice(2, -2), slice(2, -2))  # leave out the tile's rim
        right.append(np.abs(seen - face)[inner].mean())
        turned.append(np.abs(seen - face[::-1, ::-1])[inner].mean())
    assert np.median(right) < 14 and max(right) < 24
    assert np.mean(right) < 0.5 * np.mean(turned)


def red_share(image: np.ndarray, polygon: list) -> float:
    mask = inner_mask(image.shape, polygon, 0.6)
    b, g, r = (image[mask][:, i].astype(int) for i in range(3))
    return float(np.mean((r > 120) & (r > g + 50) & (r > b + 50)))


def test_red_fives_are_red_in_the_middle_of_their_polygon() -> None:
    rng = np.random.default_rng(2)
    look = replace(random_look(rng, art="fallback"), felt=(120, 60, 20))
    renderer = TableRenderer(look, Camera.overhead(*SIZE), rng)
    codes = ["0m", "5m", "0p", "5p", "0s", "5s"]
    tiles = tuple(PlacedTile(code, -90.0 + 36 * i, -130.0, 0.0, math.pi / 2 + 0.2 * i, "up",
                             "pond", 0) for i, code in enumerate(codes))
    truth = {t.code: t for t in renderer.render(Scene(tiles), rng).truth.tiles}
    image = renderer.render(Scene(tiles), rng).image
    shares = {code: red_share(image, truth[code].polygon) for code in codes}
    for suit in "mps":
        assert shares[f"0{suit}"] > 0.08, shares
        assert shares[f"0{suit}"] > 1.5 * shares[f"5{suit}"], shares


def test_truth_lists_every_visible_face_and_leaves_out_hidden_ones(script: Script) -> None:
    rng = np.random.default_rng(4)
    look = replace(random_look(rng, art="fallback"), shadow=0.0)
    camera = clean_camera(script, arms=False)
    renderer = TableRenderer(look, camera.rig.camera, rng)
    scene = camera.scene(script.index_of(0, 60))
    arm = replace(random_arm(np.random.default_rng(1), seat=0, target=(30.0, -120.0)),
                  motion=0.0)
    bare, covered = renderer.render(scene, rng), renderer.render(scene, rng, arms=[arm])
    before = {(*t.table_xy, t.zone): t for t in bare.truth.tiles}
    after = {(*t.table_xy, t.zone): t for t in covered.truth.tiles}
    changed = np.abs(bare.image.astype(int) - covered.image.astype(int)).max(2) > 8
    hidden = {key for key in set(before) - set(after) if before[key].visible > 0.9}
    assert hidden and set(after) <= set(before)
    for key in hidden:  # wholly under the arm: every pixel of the face changed
        assert changed[inner_mask(changed.shape, before[key].polygon, 0.9)].mean() > 0.98
    partly = 0
    for key, tile in after.items():
        if before[key].visible < 0.9:
            continue  # mostly hidden by other tiles already (the lower tile of a stack)
        share = changed[inner_mask(changed.shape, tile.polygon, 0.9)].mean()
        covered_share = 1 - tile.visible / before[key].visible
        assert abs(share - covered_share) < 0.15, (share, tile)
        partly += 0.05 < covered_share < 0.95
    assert partly
    zones = [t.zone for t in scene.tiles if t.zone != "wall"]
    assert len([t for t in bare.truth.tiles if t.zone != "wall"]) == len(zones)


def test_markers_in_the_truth_are_where_aruco_finds_them(script: Script) -> None:
    frame = clean_camera(script).render_moment(0)
    gray = cv2.cvtColor(frame.image, cv2.COLOR_BGR2GRAY)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    corners, ids, _ = cv2.aruco.ArucoDetector(dictionary).detectMarkers(gray)
    assert ids is not None and sorted(ids.ravel().tolist()) == list(MARKER_IDS)
    for found, marker_id in zip(corners, ids.ravel(), strict=True):
        expected = np.asarray(frame.truth.markers[int(marker_id)])
        assert np.abs(found.reshape(4, 2) - expected).max() < 1.5
    assert set(MARKER_CORNERS_MM) == set(MARKER_IDS)


# --- scenes from game state -----------------------------------------------------------------

def test_a_won_hand_is_revealed_face_up_with_the_winning_tile_apart(script: Script) -> None:
    hand = 1
    turn = len(script.game.hands[hand].events)
    won = script.game.hands[hand].events[-1]
    assert isinstance(won, Won) and won.from_seat is None
    winner = won.winners[0]
    frame = clean_camera(script, arms=False).render_moment(script.index_of(hand, turn))
    shown = [t for t in frame.truth.tiles if t.zone == "hand" and t.seat == winner.seat]
    assert all(t.face_up for t in shown)
    assert sorted(t.code for t in shown) == sorted(t.code for t in winner.hand)
    assert [t.code for t in shown if t.role == "win"] == [winner.win_tile.code]
    others = [t for t in frame.truth.tiles if t.zone == "hand" and t.seat != winner.seat]
    assert others and not any(t.face_up for t in others)
    ura = [t.code for t in frame.truth.tiles if t.role == "ura"]
    assert ura == [t.code for t in won.ura] and ura


def test_tenpai_hands_are_shown_at_an_exhaustive_draw(script: Script) -> None:
    view = table_view(script.game, 0, len(script.game.hands[0].events))
    frame = clean_camera(script, arms=False).render_moment(script.index_of(0, len(
        script.game.hands[0].events)))
    for seat in range(4):
        tiles = [t for t in frame.truth.tiles if t.zone == "hand" and t.seat == seat]
        assert all(t.face_up == (seat in view.tenpai_shown) for t in tiles)
    assert view.tenpai_shown == (2, 3)


def test_the_riichi_discard_lies_sideways(script: Script) -> None:
    hand = script.game.hands[1]
    turn = next(i for i, e in enumerate(hand.events) if isinstance(e, RiichiDeclared)) + 2
    view = table_view(script.game, 1, turn)
    seat = hand.events[turn - 2].seat  # type: ignore[attr-defined]
    assert pond_entries(view, seat)[-1][1] is True
    frame = clean_camera(script, arms=False).render_moment(script.index_of(1, turn))
    sideways = [t for t in frame.truth.tiles if t.zone == "pond" and t.role == "riichi"]
    assert len(sideways) == 1 and sideways[0].sideways


@pytest.mark.parametrize(("text", "from_seat", "expected"), [
    ("chi:345m", 0, ["3m*", "4m", "5m"]),   # seat 1 calls: 0 is on its left
    ("pon:777z", 3, ["7z", "7z*", "7z"]),   # 3 sits across
    ("pon:550p", 2, ["5p", "0p", "5p*"]),   # 2 is on its right
    ("kan:1111s", 3, ["1s", "1s*", "1s", "1s"]),
])
def test_the_claimed_tile_turns_on_the_side_it_came_from(text: str, from_seat: int,
                                                        expected: list[str]) -> None:
    kind, tiles = text.split(":")
    parsed = parse_tiles(tiles)
    meld = Meld(kind, tuple(parsed), from_seat=from_seat, called=parsed[0])  # type: ignore[arg-type]
    slots = meld_slots(meld, seat=1)
    assert [t.code + ("*" if side else "") for t, _, side, _ in slots] == expected


def test_added_kan_has_two_rotated_tiles_and_closed_kan_two_backs() -> None:
    added = Meld("shouminkan", tuple(parse_tiles("2222z")), from_seat=0,
                 called=Tile.from_code("2z"))
    slots = meld_slots(added, seat=2, added=(Tile.from_code("2z"),))
    assert [role for *_, role in slots if role] == ["called", "added"]
    closed = meld_slots(Meld("ankan", tuple(parse_tiles("5550p"))), seat=0)
    assert [posture for _, posture, *_ in closed] == ["down", "up", "up", "down"]
    assert "0p" in [t.code for t, posture, *_ in closed if posture == "up"]


# --- the script and the frame source --------------------------------------------------------

def test_the_script_asks_for_the_presses_each_moment_needs(script: Script) -> None:
    game = import_file(LOG)
    presses = [(p.name, p.seat, p.long) for m in script.moments for p in m.presses]
    riichi = sum(isinstance(e, RiichiDeclared) for h in game.hands for e in h.events)
    calls = sum(type(e).__name__ == "Call" for h in game.hands for e in h.events)
    assert sum(name is ButtonName.RIICHI for name, _, _ in presses) == riichi
    assert sum(name is ButtonName.CALL for name, _, _ in presses) == calls
    assert (ButtonName.WIN, 1, True) in presses  # hand 1 is a tsumo by seat 1
    camera = SimulatedCamera(script, seed=0, size=(320, 180), art="fallback")
    due = camera.presses_between(0.0, script.moments[1].start)
    assert [(p.name, p.seat) for p in due] == [(ButtonName.OK, None)]
    assert camera.history[-1][0] == "presses_between"


def test_the_camera_plays_the_script_to_its_end(script: Script) -> None:
    camera = SimulatedCamera(script, seed=1, size=(160, 90), art="fallback", fps=2.0,
                             start=script.length - 2.0)
    seen = list(camera)
    assert len(seen) == 4 and seen[0].timestamp == 0.0
    assert camera.read() is None and camera.history[-1] == ("read", 4, None)


def test_kept_frames_play_again_with_the_script_s_presses(script: Script,
                                                         tmp_path: Path) -> None:
    for number in (1, 2, 3):
        image = np.full((9, 16, 3), 40 * number, np.uint8)
        cv2.imwrite(str(tmp_path / f"frame-{number:05d}.jpg"), image)
    camera = ReplayedFrames(script, tmp_path, fps=2.0)
    frames = [camera.read() for _ in range(4)]
    assert frames[3] is None and [f.timestamp for f in frames[:3]] == [0.0, 0.5, 1.0]
    assert [round(f.image.mean() / 40) for f in frames[:3]] == [1, 2, 3]
    end = script.moments[1].start
    assert camera.presses_between(0.0, end) == script.presses_between(0.0, end) != []


def test_snapshot_writes_a_frame_and_its_truth(tmp_path: Path) -> None:
    assert main(["sim", "snapshot", str(LOG), "--hand", "2", "--turn", "30", "--out",
                 str(tmp_path), "--seed", "4"]) == 0
    image = cv2.imread(str(tmp_path / "frame.png"))
    assert image.shape[1] >= 1280 and image.shape[0] >= 720
    truth = json.loads((tmp_path / "truth.json").read_text())
    assert (truth["width"], truth["height"]) == (image.shape[1], image.shape[0])
    assert truth["moment"]["hand"] == 2 and truth["moment"]["turn"] == 30
    assert {t["zone"] for t in truth["tiles"]} >= {"pond", "wall", "dora", "hand"}
    assert all(len(t["polygon"]) == 4 for t in truth["tiles"])


def test_snapshot_refuses_a_turn_the_hand_does_not_have(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture) -> None:
    assert main(["sim", "snapshot", str(LOG), "--hand", "1", "--turn", "999", "--out",
                 str(tmp_path)]) == 2
    assert "turn 999" in capsys.readouterr().err


# --- art ------------------------------------------------------------------------------------

def test_the_shared_art_sets_load_when_present(shared_data: Path) -> None:
    for name in available_art():
        art = load_art(name)
        assert set(art.faces) == set(FACE_CODES)
        assert len({f.shape for f in art.faces.values()}) == 1


@pytest.mark.slow
def test_simulate_runs_the_app_s_loop_keeps_its_journal_and_draws_the_screen(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A hand played through App: buttons on mock pins, the camera feed, a driven clock;
    the screens it drew and the journal it wrote are the app's."""
    from tablekit.display.backends import PngDisplay
    from tablekit.sim.simulate import Hooks, simulate_game

    journal = tmp_path / "game.jsonl"
    assert main(["simulate", str(LOG), "--hands", "1", "--check", "--journal",
                 str(journal)]) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert summary["reader"] == "truth" and summary["hands_ok"] == summary["hands"] == 1
    discards = sum(type(e).__name__ == "Discard" for e in import_file(LOG).hands[0].events)
    shown = summary["latency"]["placed_to_shown"]   # the stopwatch of every simulated game
    assert shown["n"] + summary["discards_never_shown"] == discards
    assert 0.25 <= shown["p50"] <= shown["p95"] <= 0.75
    kinds = [json.loads(line)["type"] for line in journal.read_text().splitlines()]
    assert kinds[:2] == ["journal", "game_started"]
    assert "exhaustive_draw" in kinds and "discard" in kinds

    display, steps = PngDisplay(tmp_path / "png"), []
    report = simulate_game(LOG, max_hands=1, display=display,
                           hooks=Hooks(on_step=lambda app, table: steps.append(app.clock())))
    assert report.hands_ok == 1 and len(display.saved) > 10
    assert steps[:3] == [0.0, 0.05, 0.1]   # the loop's own rate, on the table's clock
    assert report.frames == pytest.approx(steps[-1] * 4, abs=2)   # 4 camera frames a second
