"""Reading tiles from camera frames: find each tile, then name its face.

The pipeline is stages of plain functions (STYLE.md lesson 14). Two paths share the
classifier:

Generic (any photo, no calibration):

* :mod:`tablekit.vision.detect` finds tile boxes (a small CenterNet-style ONNX model),
* :mod:`tablekit.vision.classify` names each face (a small CNN, 39 classes),
* :mod:`tablekit.vision.postprocess` holds the numpy steps both share (peaks, NMS, scaling),
* :mod:`tablekit.vision.reader` ties them together: ``TileReader.read(image)``.

Calibrated (the camera over the table):

* :mod:`tablekit.vision.camera`: frame sources (picamera2, OpenCV, folder),
  ``open_camera(spec)`` (the simulated camera is added by
  :func:`tablekit.commands.devices.open_camera`),
* :mod:`tablekit.vision.layout`: the table in mm (:class:`~tablekit.vision.layout.TableLayout`:
  felt, markers, where each seat's tiles go), the default one or a club's, measured,
* :mod:`tablekit.vision.markers`: the four ArUco corner markers, found and printed,
* :mod:`tablekit.vision.table_camera`: the camera model fitted to them (lens distortion),
* :mod:`tablekit.vision.table_zones`: ponds, hands and the wall ring in table mm,
* :mod:`tablekit.vision.calibration`: profiles (fit, save, load, check for a bumped camera),
* :mod:`tablekit.vision.rectify`: the top-down view at a fixed scale,
* :mod:`tablekit.vision.table_detect`: tiles in that view (face up or down),
* :mod:`tablekit.vision.busy`: where arms cover the table,
* :mod:`tablekit.vision.zones`: where a tile lies (seat, :class:`~tablekit.vision.zones.TileZone`,
  slot), found once per tile,
* :mod:`tablekit.vision.table_reader`: ``read_table(image, profile, models)``, a
  :class:`~tablekit.vision.table_reading.TableReading` in table mm for the tracker
  (:mod:`tablekit.tracking`, the layer above; nothing here imports it, the game, the
  simulator, the flow, the display or the buttons),
* :mod:`tablekit.vision.pipeline`: :class:`~tablekit.vision.pipeline.CameraPipeline`, a game's
  frames in (calibrating, noticing a bumped camera), readings out.

Nothing here imports torch; training lives outside the package, in ``training/`` beside it
(``python -m training``; never in the wheel, never imported from here).
"""
