"""Loading the ONNX models: one onnxruntime session on the CPU, input read from the model.

onnxruntime is imported here, so only code that runs a model pays for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tablekit.errors import TablekitError
from tablekit.files.resources import packaged

MODELS_DIR = packaged("models")
DETECTOR_PATH = MODELS_DIR / "tile_detector.onnx"
CLASSIFIER_PATH = MODELS_DIR / "tile_classifier.onnx"
PHOTO_CLASSIFIER_PATH = MODELS_DIR / "photo_classifier.onnx"
"""The classifier fine-tuned on photos' faces at any slant, read by the photo path alone
(``tablekit detect``, enrollment from labelled photos); the table path reads
:data:`CLASSIFIER_PATH`."""


class ModelNotFound(TablekitError, FileNotFoundError):
    """An ONNX model file that is not where it was looked for."""


@dataclass(frozen=True)
class OnnxModel:
    """A loaded model: the session, its input's name and shape, and its output names."""

    session: Any
    input_name: str
    input_shape: tuple[int | str | None, ...]
    output_names: tuple[str, ...]

    def run(self, batch: np.ndarray) -> dict[str, np.ndarray]:
        """Run one batch; the outputs by name."""
        outputs = self.session.run(list(self.output_names), {self.input_name: batch})
        return dict(zip(self.output_names, outputs, strict=True))


def load_model(path: Path, threads: int = 1) -> OnnxModel:
    """An :class:`OnnxModel` for ``path``, running on ``threads`` CPU threads."""
    import onnxruntime as ort

    if not Path(path).is_file():
        raise ModelNotFound(f"no ONNX model at {path}")
    options = ort.SessionOptions()
    options.intra_op_num_threads = max(1, threads)
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.log_severity_level = 3
    session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    model_input = session.get_inputs()[0]
    outputs = tuple(output.name for output in session.get_outputs())
    return OnnxModel(session, model_input.name, tuple(model_input.shape), outputs)
