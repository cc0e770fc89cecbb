"""The peer: the ``mahjong-detector`` package (YOLOv8 ONNX, 640 px), called the way its own
``detect_tiles`` does, but on a session pinned to the same thread count as tablekit's and
keeping its boxes and confidences. A benchmark-only dependency (``pip install -e .[bench]``).
"""

from __future__ import annotations

import numpy as np

from tablekit.vision.reader import TileReading

HONOURS = {"tou": "1z", "nan": "2z", "sha": "3z", "pe": "4z", "haku": "5z", "hatsu": "6z",
           "chun": "7z"}


def peer_code(name: str) -> str:
    """mahjong-detector's class name in mpsz.

    >>> peer_code("5p"), peer_code("pe")
    ('5p', '4z')
    """
    return HONOURS.get(name, name)


def load_peer(threads: int = 1):
    """A reader ``bgr image -> list[TileReading]`` running mahjong-detector."""
    import importlib

    import onnxruntime as ort
    from mahjong_detector.preprocess import preprocess_image
    from PIL import Image

    peer = importlib.import_module("mahjong_detector.predict")
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    session = ort.InferenceSession(str(peer.model_path), options,
                                   providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name

    def read(bgr: np.ndarray) -> list[TileReading]:
        img, padding = preprocess_image(Image.fromarray(bgr[:, :, ::-1]))
        output = session.run(None, {name: peer.create_input_tensor(img)})[0][0]
        found = peer.postprocess(output, padding, num_classes=len(peer.CLASS_NAMES))
        return [TileReading((d.x1, d.y1, d.x2, d.y2), peer_code(peer.CLASS_NAMES[d.class_id]),
                            d.confidence) for d in found]

    return read
