"""Reading tiles from camera frames: find each tile, then name its face.

The pipeline is stages of plain functions (STYLE.md lesson 14). Two paths share the
classifier:

Generic (any photo, no calibration):

* :mod:`tablekit.vision.detect` finds tile boxes (a small CenterNet-style ONNX model),
* :mod:`tablekit.vision.classify` names each face (a small CNN, 39 classes),
* :mod:`tablekit.vision.postprocess` holds the numpy steps both share (peaks, NMS, scaling),
* :mod:`tablekit.vision.reader` ties them together: ``TileReader.read(image)``.

Calibrated (the camera over the table):

* :mod:`tablekit.vision.camera`: frame sources (picamera2, OpenCV, folder, sim),
  ``open_camera(spec)``,
* :mod:`tablekit.vision.markers`: the four ArUco corner markers, found and printed,
* :mod:`tablekit.vision.table_camera`: the camera model fitted to them (lens distortion),
* :mod:`tablekit.vision.table_zones`: ponds, hands and the wall ring in table mm,
* :mod:`tablekit.vision.calibration`: profiles (fit, save, load, check for a bumped camera),
* :mod:`tablekit.vision.rectify`: the top-down view at a fixed scale,
* :mod:`tablekit.vision.table_detect`: tiles in that view (face up or down),
* :mod:`tablekit.vision.busy`: where arms cover the table,
* :mod:`tablekit.vision.table_reader`: ``read_table(image, profile, models)``, a
  :class:`~tablekit.vision.table_reading.TableReading` in table mm for the tracker.

Nothing here imports torch; training lives in ``tools/train_vision.py`` (photo models) and
``tools/train_table.py`` (the rectified-view detector, the classifier's sim fine-tuning).
"""
