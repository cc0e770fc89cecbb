"""Editing the classifier's ONNX graph for enrollment (needs the ``onnx`` package).

The classifier ends ``... ReduceMean -> Gemm -> Div(temperature) -> Softmax``: the mean-pooled
vector is its penultimate feature (256 numbers a face), the Gemm its head.
:func:`with_features` adds that vector as a second output (``features``) so enrollment can
fit a new head; :func:`with_head` writes a copy whose Gemm weights and temperature are
replaced, a whole classifier that onnxruntime alone runs (the reader needs nothing else).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

FEATURES = "features"


@dataclass(frozen=True)
class Head:
    """A linear head over the features: ``probs = softmax((features @ weight.T + bias) / T)``."""

    weight: np.ndarray
    bias: np.ndarray
    temperature: float

    def logits(self, features: np.ndarray) -> np.ndarray:
        """Temperature-scaled logits ``(N, classes)``.

        >>> head = Head(np.eye(2, dtype=np.float32), np.zeros(2, np.float32), 2.0)
        >>> head.logits(np.array([[2.0, 4.0]], np.float32)).tolist()
        [[1.0, 2.0]]
        """
        return (features @ self.weight.T + self.bias) / np.float32(self.temperature)


def _load(path: Path) -> Any:  # an onnx ModelProto (onnx is imported only here)
    import onnx

    return onnx.load(str(path))


def _gemm(model: Any) -> Any:
    return next(node for node in model.graph.node if node.op_type == "Gemm")


def _temperature_div(model: Any, gemm: Any) -> Any:
    return next(node for node in model.graph.node
                if node.op_type == "Div" and node.input[0] == gemm.output[0])


def _initializers(model: Any) -> dict[str, Any]:
    return {init.name: init for init in model.graph.initializer}


def read_head(path: Path) -> Head:
    """The head of the classifier at ``path`` (its Gemm and temperature)."""
    from onnx import numpy_helper

    model = _load(path)
    gemm, inits = _gemm(model), _initializers(model)
    div = _temperature_div(model, gemm)
    weight = numpy_helper.to_array(inits[gemm.input[1]]).astype(np.float32)
    bias = numpy_helper.to_array(inits[gemm.input[2]]).astype(np.float32)
    temperature = float(numpy_helper.to_array(inits[div.input[1]]).reshape(-1)[0])
    return Head(weight, bias, temperature)


def with_features(path: Path) -> bytes:
    """The classifier at ``path`` with its penultimate features as a second output (as it
    is, when it has them already)."""
    from onnx import TensorProto, helper

    model = _load(path)
    if any(output.name == FEATURES for output in model.graph.output):
        return model.SerializeToString()
    gemm = _gemm(model)
    model.graph.node.append(helper.make_node("Identity", [gemm.input[0]], [FEATURES]))
    model.graph.output.append(
        helper.make_tensor_value_info(FEATURES, TensorProto.FLOAT, ["N", None]))
    return model.SerializeToString()


NEAR_SIMILARITY, NEAR_INDEX = "near_similarity", "near_index"


def with_bank(path: Path, bank: np.ndarray, k: int) -> bytes:
    """The classifier at ``path`` that also finds each face's ``k`` nearest rows of
    ``bank`` (unit-length rows ``(M, 256)`` of features, or ``(M, 556)`` of features and
    pixels, :func:`tablekit.vision.nearest.embed`): outputs :data:`NEAR_SIMILARITY` (cosine,
    best first) and :data:`NEAR_INDEX` (rows of ``bank``), both ``(N, k)``. onnxruntime
    does the search on the reader's one thread (numpy's own would use every core)."""
    from onnx import TensorProto, helper, numpy_helper

    from tablekit.vision.face_pixels import PIXEL_BLOCK, PIXEL_CUT, PIXEL_WEIGHT, with_pixels

    model = _parse(with_features(path))
    bank = np.asarray(bank, np.float32)
    model.graph.initializer.extend([
        numpy_helper.from_array(np.ascontiguousarray(bank.T), "bank_t"),
        numpy_helper.from_array(np.array([min(k, len(bank))], np.int64), "near_k")])
    model.graph.node.append(
        helper.make_node("LpNormalization", [FEATURES], ["unit_features"], axis=1, p=2))
    query = "unit_features"
    if with_pixels(bank):  # the faces' pixels beside the features (nearest.embed)
        scale = 1.0 / np.sqrt(1.0 + PIXEL_WEIGHT ** 2)
        top, bottom, left, right = PIXEL_CUT
        crops = model.graph.input[0].name
        model.graph.initializer.extend([
            numpy_helper.from_array(np.array([top, left], np.int64), "pixel_starts"),
            numpy_helper.from_array(np.array([bottom, right], np.int64), "pixel_ends"),
            numpy_helper.from_array(np.array([2, 3], np.int64), "pixel_axes"),
            numpy_helper.from_array(np.array(1e-6, np.float32), "pixel_floor"),
            numpy_helper.from_array(np.array(scale, np.float32), "features_scale"),
            numpy_helper.from_array(np.array(PIXEL_WEIGHT * scale, np.float32),
                                    "pixels_scale")])
        model.graph.node.extend([
            helper.make_node("ReduceMean", [crops], ["grey"], axes=[1], keepdims=1),
            helper.make_node("Slice", ["grey", "pixel_starts", "pixel_ends", "pixel_axes"],
                             ["grey_middle"]),
            helper.make_node("AveragePool", ["grey_middle"], ["grey_blocks"],
                             kernel_shape=[PIXEL_BLOCK] * 2, strides=[PIXEL_BLOCK] * 2),
            helper.make_node("Flatten", ["grey_blocks"], ["pixels"], axis=1),
            helper.make_node("ReduceMean", ["pixels"], ["pixels_mean"], axes=[1], keepdims=1),
            helper.make_node("Sub", ["pixels", "pixels_mean"], ["pixels_centred"]),
            helper.make_node("ReduceL2", ["pixels_centred"], ["pixels_norm"], axes=[1],
                             keepdims=1),
            helper.make_node("Max", ["pixels_norm", "pixel_floor"], ["pixels_length"]),
            helper.make_node("Div", ["pixels_centred", "pixels_length"], ["unit_pixels"]),
            helper.make_node("Mul", ["unit_features", "features_scale"], ["features_part"]),
            helper.make_node("Mul", ["unit_pixels", "pixels_scale"], ["pixels_part"]),
            helper.make_node("Concat", ["features_part", "pixels_part"], ["face_row"],
                             axis=1)])
        query = "face_row"
    model.graph.node.extend([
        helper.make_node("MatMul", [query, "bank_t"], ["similarity"]),
        helper.make_node("TopK", ["similarity", "near_k"], [NEAR_SIMILARITY, NEAR_INDEX],
                         axis=1, largest=1, sorted=1)])
    model.graph.output.extend([
        helper.make_tensor_value_info(NEAR_SIMILARITY, TensorProto.FLOAT, ["N", None]),
        helper.make_tensor_value_info(NEAR_INDEX, TensorProto.INT64, ["N", None])])
    return model.SerializeToString()


def bank_rows(path: Path) -> int | None:
    """How many faces the nearest-face search of the classifier at ``path`` holds (None:
    it has none, :func:`with_bank`)."""
    model = _load(path)
    for init in model.graph.initializer:
        if init.name == "bank_t":
            return int(init.dims[1])
    return None


def _parse(data: bytes) -> Any:
    import onnx

    return onnx.load_from_string(data)


def with_head(path: Path, head: Head) -> bytes:
    """The classifier at ``path`` with ``head`` in place of its own."""
    from onnx import numpy_helper

    model = _load(path)
    gemm, inits = _gemm(model), _initializers(model)
    div = _temperature_div(model, gemm)
    temperature = numpy_helper.to_array(inits[div.input[1]])
    for name, value in ((gemm.input[1], head.weight), (gemm.input[2], head.bias),
                        (div.input[1], np.full_like(temperature, head.temperature))):
        inits[name].CopyFrom(numpy_helper.from_array(np.asarray(value, np.float32), name))
    return model.SerializeToString()
