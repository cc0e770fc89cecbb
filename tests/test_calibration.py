"""Calibration: markers, the camera fit's round trip on simulated frames, profiles, checks."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tablekit.cli import main
from tablekit.sim.geometry import MARKER_IDS, TABLE_HALF
from tablekit.sim.script import Script
from tablekit.sim.source import SimulatedCamera
from tablekit.sim.table import DEMO_GAME
from tablekit.vision.calibration import (
    EXAMPLE_PROFILE,
    CalibrationError,
    Profile,
    calibrate,
    check_profile,
)
from tablekit.vision.layout import DEFAULT_LAYOUT, TableLayout
from tablekit.vision.markers import find_markers, marker_sheet, mm_to_px
from tablekit.vision.table_zones import table_zones
from tablekit.vision.zones import TileZone, locate

EXAMPLE = EXAMPLE_PROFILE


@pytest.fixture(scope="module")
def script() -> Script:
    return Script.from_log(DEMO_GAME)


def sim_camera(script: Script, seed: int) -> SimulatedCamera:
    return SimulatedCamera(script, seed=seed, art="fallback", start=script.moments[30].start)


def zone_points() -> np.ndarray:
    """Every zone corner and a grid over the felt, in table mm."""
    corners = np.concatenate([zone.corners() for zone in table_zones()])
    edge = np.linspace(-TABLE_HALF + 40, TABLE_HALF - 40, 7)
    grid = np.stack(np.meshgrid(edge, edge), -1).reshape(-1, 2)
    return np.concatenate([corners, grid])


@pytest.mark.parametrize("seed", [0, 3, 11])
def test_calibration_round_trips_table_points_within_2_mm(script: Script, seed: int) -> None:
    camera = sim_camera(script, seed)
    profile = calibrate([camera.read().image for _ in range(3)])
    points = zone_points()
    truth = camera.rig.camera.project(np.concatenate([points, np.zeros((len(points), 1))], 1))
    error = np.linalg.norm(profile.camera.to_table(truth) - points, axis=1)
    assert error.max() < 2.0, (seed, error.max())
    assert profile.rms_px < 1.0


def test_marker_sheet_prints_each_marker_at_60_mm() -> None:
    sheet = marker_sheet("A4", dpi=300)
    assert sheet.shape == (mm_to_px(297, 300), mm_to_px(210, 300))
    found = find_markers(sheet)
    assert sorted(found) == list(MARKER_IDS)
    for quad in found.values():
        sides = np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)
        assert np.abs(sides - mm_to_px(60, 300)).max() < 2.0
    assert marker_sheet("A3", dpi=60).shape == (mm_to_px(420, 60), mm_to_px(297, 60))


def test_profile_saves_and_loads_the_same(tmp_path: Path) -> None:
    profile = Profile.load(EXAMPLE)
    again = Profile.load(profile.save(tmp_path / "p.json"))
    assert again == profile
    data = json.loads((tmp_path / "p.json").read_text())
    assert data["version"] == 1 and len(data["zone_outlines_px"]) == len(profile.zones)


@pytest.mark.parametrize("text, message", [
    ("{not json", "corrupt"), ('{"version": 1}', "corrupt"), ('{"version": 99}', "version 99"),
])
def test_a_broken_profile_is_a_clear_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "broken.json"
    path.write_text(text)
    with pytest.raises(CalibrationError, match=message):
        Profile.load(path)


def test_missing_markers_name_the_ids(script: Script) -> None:
    image = sim_camera(script, 2).read().image
    quad = np.asarray(find_markers(image)[2]).round().astype(np.int32)
    x0, y0 = quad.min(0) - 6
    x1, y1 = quad.max(0) + 6
    image[y0:y1, x0:x1] = 128
    with pytest.raises(CalibrationError, match=r"markers \[2\] not found"):
        calibrate([image])
    with pytest.raises(CalibrationError, match="no frames"):
        calibrate([])


def test_a_bumped_camera_is_noticed(script: Script) -> None:
    camera = sim_camera(script, 4)
    frames = [camera.read().image for _ in range(3)]
    profile = calibrate(frames[:2])
    still = check_profile(frames[2], profile)
    assert still.ok and still.shift_px < 1.0 and not still.missing
    turn = cv2.getRotationMatrix2D((640, 360), 0.6, 1.0)
    bumped = cv2.warpAffine(frames[2], turn, (1280, 720))
    moved = check_profile(bumped, profile)
    assert moved.moved and not moved.ok and "recalibrate" in str(moved)
    dark = check_profile(np.zeros_like(frames[2]), profile)
    assert not dark.ok and dark.missing == MARKER_IDS


def test_the_example_profile_matches_its_sim_camera() -> None:
    profile = Profile.load(EXAMPLE)
    assert profile.size == (1280, 720) and profile.rms_px < 1.0
    assert {zone.kind for zone in profile.zones} == {"pond", "hand", "wall"}


def test_calibrate_command_writes_checks_and_prints_markers(tmp_path: Path, capsys) -> None:
    out = tmp_path / "cal" / "table.json"
    assert main(["calibrate", "--camera", "sim", "--frames", "2", "--out", str(out)]) == 0
    assert "markers over 2 frames" in capsys.readouterr().out
    assert main(["calibrate", "--camera", "sim", "--frames", "1", "--out", str(out),
                 "--check"]) == 0
    assert ": ok (markers seen" in capsys.readouterr().out
    sheet = tmp_path / "markers.png"
    assert main(["calibrate", "--markers", str(sheet), "--dpi", "100"]) == 0
    assert cv2.imread(str(sheet)) is not None
    assert main(["calibrate", "--camera", f"folder:{tmp_path / 'none'}"]) == 2
    assert "no such folder" in capsys.readouterr().err


def test_a_profile_without_a_layout_loads_with_the_default_one() -> None:
    data = json.loads(EXAMPLE.read_text())
    assert "layout" not in data  # saved before layouts were stored
    assert Profile.from_dict(data).layout == DEFAULT_LAYOUT


def test_a_club_table_layout_is_kept_by_its_profile_and_places_tiles(tmp_path: Path) -> None:
    club = TableLayout.measured(felt_size=860.0, marker_inset=40.0)
    profile = replace(Profile.load(EXAMPLE), zones=(), layout=club)  # zones: the club's
    again = Profile.load(profile.save(tmp_path / "club.json"))
    assert again.layout == club and again.layout.marker_corners[1][0] == (360.0, -360.0)
    hand = next(zone for zone in again.zones if zone.name == "hand:0")
    assert min(y for _, y in hand.polygon) == -430.0  # the club's felt edge, not 480 mm
    # 50 mm in from the club's felt edge lies its hand row; on the default table, no zone
    assert locate((0.0, -380.0), club).zone == TileZone.HAND
    assert locate((0.0, -380.0)).zone == TileZone.OTHER
    data = json.loads((tmp_path / "club.json").read_text())
    data["layout"]["legs"] = 4
    (tmp_path / "bad.json").write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match="corrupt"):
        Profile.load(tmp_path / "bad.json")


def test_calibrate_command_takes_a_measured_table(tmp_path: Path) -> None:
    out = tmp_path / "table.json"
    assert main(["calibrate", "--camera", "sim", "--frames", "1", "--out", str(out),
                 "--felt-mm", "960", "--marker-inset-mm", "45"]) == 0  # the sim's table
    assert json.loads(out.read_text())["layout"]["felt_size"] == 960.0
    assert Profile.load(out).layout == TableLayout.measured(960.0, 45.0) == DEFAULT_LAYOUT


def test_the_pipeline_calibrates_under_its_tables_layout(script: Script, tmp_path: Path) -> None:
    from tablekit.vision.calibration import table_layout
    from tablekit.vision.pipeline import CameraPipeline

    other_markers = TableLayout(marker_ids=(4, 5, 6, 7))
    saved = replace(Profile.load(EXAMPLE), zones=(), layout=other_markers)
    assert table_layout(saved.save(tmp_path / "club.json")) == other_markers
    layout = table_layout(tmp_path / "club.json")
    pipeline = CameraPipeline(models=None, layout=layout)  # no models: it never gets to read
    camera = sim_camera(script, 0)
    readings = [pipeline.read(camera.read().image, t) for t in range(3)]
    assert not any(r.calibrated for r in readings) and pipeline.profile is None
    assert pipeline.warnings == [
        "camera can't see corner markers 4, 5, 6 and 7: clear the table's corners"]
    assert pipeline.detail == ("markers [4, 5, 6, 7] not found in 3 frame(s): each table corner "
                               "needs its marker in view (tablekit calibrate --markers)")
