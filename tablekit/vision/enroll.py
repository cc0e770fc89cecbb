"""Adapting the classifier to a club's own tile set: faces in, a new head out.

The classifier's body stays as trained; only its last layer (a linear head over the 256
pooled features, see :mod:`tablekit.vision.classifier_graph`) is refitted on this set's
faces. Each face is cut several times with the box jittered (the detector's boxes are never
exact), in both the orientations the classifier sees (every crop is turned tall, so a tile
lying any of four ways is upright or upside down), with light, contrast, blur and noise
varied. Not-a-tile crops (the table or mat around the faces) keep the head's sense of what
is no tile. The fit is softmax regression started from the trained head and pulled back to
it (an L2 penalty), so kinds the set did not show keep their trained weights nearly as
they were. A mat's 38 faces fit in a few seconds on one core.

>>> rng = np.random.default_rng(0)
>>> jittered = jitter_boxes(np.array([[10.0, 10.0, 30.0, 40.0]]), rng, 3)
>>> jittered.shape, bool(np.all(np.abs(jittered - [10, 10, 30, 40]) < 4))
((3, 4), True)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tablekit.vision.classes import CLASSES, class_index
from tablekit.vision.classifier_graph import FEATURES, Head, read_head, with_features
from tablekit.vision.classify import upright_crop
from tablekit.vision.onnx_model import CLASSIFIER_PATH

COPIES = 6
"""Jittered cuts of each face, each in both orientations."""
SHIFT, SCALE = 0.06, 0.08
"""Box jitter: centre moved up to this fraction of the box's size, sides scaled by up to this."""
TURN = 40.0
"""Faces are turned by up to this many degrees either way (tiles lie at any angle)."""
STEPS = 300
OnStep = Callable[[int, int, str], None]
"""Told ``(done, total, what)`` as a long step goes (a progress line)."""
PULL = 1e-2
"""L2 pull of the new head's weights towards the trained head's."""


@dataclass
class FaceSamples:
    """Crops (NCHW float in [0, 1]) and their class indices, gathered from many images."""

    crops: list[np.ndarray] = field(default_factory=list)
    labels: list[int] = field(default_factory=list)

    def add(self, crops: np.ndarray, label: int) -> None:
        self.crops.append(crops)
        self.labels += [label] * len(crops)

    def batch(self) -> tuple[np.ndarray, np.ndarray]:
        if not self.crops:
            return np.zeros((0, 3, 1, 1), np.float32), np.zeros(0, np.int64)
        return np.concatenate(self.crops), np.array(self.labels, np.int64)

    def counts(self) -> dict[str, int]:
        """Crops per class code."""
        found = np.bincount(np.array(self.labels, np.int64), minlength=len(CLASSES))
        return {CLASSES[i]: int(n) for i, n in enumerate(found) if n}


def jitter_boxes(boxes: np.ndarray, rng: np.random.Generator, copies: int) -> np.ndarray:
    """``copies`` jittered versions of each box (rows grouped box by box)."""
    boxes = np.repeat(np.asarray(boxes, np.float32).reshape(-1, 4), copies, axis=0)
    size = boxes[:, 2:] - boxes[:, :2]
    centre = (boxes[:, :2] + boxes[:, 2:]) / 2 + rng.uniform(-SHIFT, SHIFT, size.shape) * size
    half = size / 2 * rng.uniform(1 - SCALE, 1 + SCALE, size.shape)
    return np.concatenate([centre - half, centre + half], axis=1)


def vary_look(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A crop (HWC uint8) with light, contrast, colour, blur and noise varied a little.

    >>> out = vary_look(np.full((8, 6, 3), 128, np.uint8), np.random.default_rng(1))
    >>> out.shape, out.dtype.name
    ((8, 6, 3), 'uint8')
    """
    import cv2

    image = crop.astype(np.float32)
    image = (image - 128) * rng.uniform(0.75, 1.25) + 128 + rng.uniform(-25, 25)
    image *= rng.uniform(0.9, 1.1, 3).astype(np.float32)
    if rng.random() < 0.3:
        image = cv2.GaussianBlur(image, (3, 3), rng.uniform(0.3, 1.0))
    image += rng.normal(0, rng.uniform(0, 6), image.shape).astype(np.float32)
    return np.clip(image, 0, 255).astype(np.uint8)


def turned_about(image_bgr: np.ndarray, box: np.ndarray, rng: np.random.Generator,
                 max_degrees: float = TURN) -> tuple[np.ndarray, np.ndarray]:
    """The patch around ``box`` turned by a random angle about the box's centre, and the box
    in that patch (tiles lie at any angle on a table; the box stays upright).

    >>> patch, box = turned_about(np.zeros((50, 50, 3), np.uint8), np.array([10, 10, 20, 30]),
    ...                           np.random.default_rng(0))
    >>> patch.shape[2], [round(float(v)) for v in box[2:] - box[:2]]
    (3, [10, 20])
    """
    import cv2

    x1, y1, x2, y2 = (float(v) for v in box)
    reach = max(x2 - x1, y2 - y1)
    left, top = int(max((x1 + x2) / 2 - reach, 0)), int(max((y1 + y2) / 2 - reach, 0))
    patch = image_bgr[top:int((y1 + y2) / 2 + reach) + 1, left:int((x1 + x2) / 2 + reach) + 1]
    centre = ((x1 + x2) / 2 - left, (y1 + y2) / 2 - top)
    turn = cv2.getRotationMatrix2D(centre, float(rng.uniform(-max_degrees, max_degrees)), 1.0)
    turned = cv2.warpAffine(patch, turn, (patch.shape[1], patch.shape[0]),
                            borderMode=cv2.BORDER_REFLECT)
    return turned, np.array([x1 - left, y1 - top, x2 - left, y2 - top], np.float32)


def cut_faces(image_bgr: np.ndarray, boxes: np.ndarray, size: tuple[int, int],
              rng: np.random.Generator, copies: int = COPIES, turn: bool = True,
              degrees: float = TURN) -> np.ndarray:
    """Jittered, varied crops of each box (NCHW float), each turned by up to ``degrees``;
    ``2 * copies`` a box with ``turn`` (each also upside down)."""
    crops = []
    for box in jitter_boxes(boxes, rng, copies):
        crop = vary_look(upright_crop(*turned_about(image_bgr, box, rng, degrees), size), rng)
        crops.append(crop)
        if turn:
            crops.append(crop[::-1, ::-1])
    if not crops:
        return np.zeros((0, 3, *size), np.float32)
    return np.stack(crops).transpose(0, 3, 1, 2).astype(np.float32) / np.float32(255)


def background_boxes(shape: tuple[int, ...], faces: np.ndarray, rng: np.random.Generator,
                     count: int) -> np.ndarray:
    """Up to ``count`` face-sized boxes of ``shape`` meeting no face in ``faces``."""
    from tablekit.vision.postprocess import box_iou

    faces = np.asarray(faces, np.float32).reshape(-1, 4)
    if not len(faces):
        return np.zeros((0, 4), np.float32)
    size = np.median(faces[:, 2:] - faces[:, :2], axis=0)
    height, width = shape[:2]
    if width <= size[0] or height <= size[1]:
        return np.zeros((0, 4), np.float32)
    corner = rng.uniform((0, 0), (width - size[0], height - size[1]), (count * 4, 2))
    boxes = np.concatenate([corner, corner + size], axis=1).astype(np.float32)
    clear = box_iou(boxes, faces).max(axis=1) < 0.05
    return boxes[clear][:count]


def straddling_boxes(boxes: np.ndarray, rng: np.random.Generator, count: int,
                     most_iou: float = 0.3) -> np.ndarray:
    """Up to ``count`` boxes the size of one of ``boxes`` moved half a tile or more off it,
    meeting none of ``boxes`` by IoU ``most_iou`` or more: boxes that fall between tiles
    (enrollment's not-a-tile crops, from labelled photos and from the table's spread)."""
    from tablekit.vision.postprocess import box_iou

    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    out: list[np.ndarray] = []
    for _ in range(count * 6 if len(boxes) else 0):
        if len(out) >= count:
            break
        near = boxes[int(rng.integers(len(boxes)))]
        half = (near[2:] - near[:2]) / 2
        half = half[::-1] if rng.random() < 0.5 else half
        centre = (near[:2] + near[2:]) / 2 + rng.choice([-1, 1], 2) * half * \
            rng.uniform(0.55, 1.0, 2) * (rng.random(2) < 0.7)
        box = np.concatenate([centre - half, centre + half]).astype(np.float32)
        if box_iou(box[None], boxes).max() < most_iou:
            out.append(box)
    return np.array(out, np.float32).reshape(-1, 4)


class FeatureModel:
    """The classifier with its features exposed, for enrollment (onnxruntime, one thread)."""

    def __init__(self, classifier: Path = CLASSIFIER_PATH, threads: int = 1) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = max(1, threads)
        options.log_severity_level = 3
        self.path = Path(classifier)
        self.session = ort.InferenceSession(with_features(self.path), options,
                                            providers=["CPUExecutionProvider"])
        self.input_name = self.session.get_inputs()[0].name
        shape = self.session.get_inputs()[0].shape
        self.size = (int(shape[2]), int(shape[3]))
        self.head = read_head(self.path)

    def features(self, crops: np.ndarray, batch: int = 256, on_step: OnStep | None = None
                 ) -> np.ndarray:
        """Penultimate features ``(N, 256)`` of a crop batch (``on_step``: told the crops
        done after each batch)."""
        out = []
        for i in range(0, len(crops), batch):
            out.append(self.session.run([FEATURES], {self.input_name: crops[i:i + batch]})[0])
            if on_step is not None:
                on_step(min(i + batch, len(crops)), len(crops), "reading the faces")
        return np.concatenate(out) if out else np.zeros((0, self.head.weight.shape[1]))


def _softmax(logits: np.ndarray) -> np.ndarray:
    logits = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(logits)
    return exp / exp.sum(axis=1, keepdims=True)


def fit_head(features: np.ndarray, labels: np.ndarray, base: Head, steps: int = STEPS,
             pull: float = PULL, rate: float = 0.01, on_step: OnStep | None = None,
             keep_unshown: bool = False) -> Head:
    """Softmax regression from ``base`` on these features, balanced over classes
    (``on_step``: told each step done, for a progress line). ``keep_unshown``: the classes
    no face is labelled with are left out of the fit (out of the softmax's sum), so their
    rows stay as ``base`` has them and those kinds are read as trained. That pays where the
    trained classifier reads the set fairly well (a set's labelled photos that show no 2z:
    its 2z were read 3z after a fit that pushed the 2z row down); on a set it reads badly
    (a recording of a simulated never-seen set) the kinds pushed down are the better bet.

    >>> rng = np.random.default_rng(0)
    >>> base = Head(np.zeros((3, 2), np.float32), np.zeros(3, np.float32), 1.0)
    >>> x = np.concatenate([rng.normal([3, 0], 0.3, (20, 2)), rng.normal([0, 3], 0.3, (20, 2))])
    >>> y = np.array([0] * 20 + [2] * 20)
    >>> head = fit_head(x.astype(np.float32), y, base, steps=200, pull=0.0, rate=0.1)
    >>> head.logits(np.array([[3.0, 0.0], [0.0, 3.0]], np.float32)).argmax(axis=1).tolist()
    [0, 2]
    >>> bool((head.weight[1] == base.weight[1]).all())  # no face of class 1, pushed down
    False
    >>> kept = fit_head(x.astype(np.float32), y, base, steps=200, pull=0.0, rate=0.1,
    ...                 keep_unshown=True)
    >>> bool((kept.weight[1] == base.weight[1]).all())  # left out of the fit: as it was
    True
    """
    weight, bias = base.weight.astype(np.float64), base.bias.astype(np.float64)
    x = features.astype(np.float64)
    onehot = np.eye(len(bias))[labels]
    per_class = np.bincount(labels, minlength=len(bias)).astype(np.float64)
    sample_weight = (1.0 / per_class[labels])[:, None] / np.count_nonzero(per_class)
    scale = 1.0 / base.temperature
    shown = per_class > 0 if keep_unshown else np.ones(len(bias), bool)
    moments = [np.zeros_like(weight), np.zeros_like(weight), np.zeros_like(bias),
               np.zeros_like(bias)]
    for step in range(1, steps + 1):
        probs = _softmax(np.where(shown, (x @ weight.T + bias) * scale, -np.inf))
        grad_logits = (probs - onehot) * sample_weight * scale
        grads = (grad_logits.T @ x + pull * (weight - base.weight),
                 grad_logits.sum(axis=0) + pull * (bias - base.bias))
        for i, (param, grad) in enumerate(zip((weight, bias), grads, strict=True)):
            first, second = moments[2 * i], moments[2 * i + 1]
            first[:] = 0.9 * first + 0.1 * grad
            second[:] = 0.999 * second + 0.001 * grad**2
            lr = rate * np.sqrt(1 - 0.999**step) / (1 - 0.9**step)
            param -= lr * first / (np.sqrt(second) + 1e-8)
        if on_step is not None:
            on_step(step, steps, "fitting the classifier to the faces")
    return Head(weight.astype(np.float32), bias.astype(np.float32), base.temperature)


@dataclass(frozen=True)
class Enrollment:
    """A fitted head with what it was fitted on."""

    head: Head
    counts: dict[str, int]
    seconds: float
    train_accuracy: float
    trained_accuracy: float
    """The trained head's accuracy on the same crops (near 1: the set was read well already)."""
    feature_mean: np.ndarray
    feature_std: np.ndarray


def keep_red_split(head: Head, base: Head, labels: np.ndarray) -> Head:
    """``head`` with each suit's split between its five and red five as ``base`` has it,
    where ``labels`` hold that suit's plain five and not its red one: a head fitted on
    plain fives alone learns that every five is plain (the faces differ by their ink only).

    >>> rng = np.random.default_rng(0)
    >>> base = Head(rng.normal(size=(len(CLASSES), 2)), np.zeros(len(CLASSES)), 1.0)
    >>> fitted = Head(base.weight + rng.normal(size=base.weight.shape), base.bias, 1.0)
    >>> kept = keep_red_split(fitted, base, np.array([class_index("5m")]))
    >>> def split(head):
    ...     logits = head.logits(np.ones((1, 2)))[0]
    ...     return float(logits[class_index("0m")] - logits[class_index("5m")])
    >>> round(split(kept) - split(base), 6), round(split(fitted) - split(base), 2) != 0
    (0.0, True)
    """
    weight, bias = head.weight.copy(), head.bias.copy()
    for suit in "mps":
        red, plain = class_index(f"0{suit}"), class_index(f"5{suit}")
        if plain in labels and red not in labels:
            weight[red] = weight[plain] + base.weight[red] - base.weight[plain]
            bias[red] = bias[plain] + base.bias[red] - base.bias[plain]
    return Head(weight, bias, head.temperature)


def enroll(samples: FaceSamples, model: FeatureModel, steps: int = STEPS,
           pull: float = PULL, red_split: bool = False, on_step: OnStep | None = None,
           keep_unshown: bool = False) -> Enrollment:
    """Fit a head for this set's faces (and not-a-tile crops) in ``samples``;
    ``red_split``: each five's red-or-plain split kept as trained where the faces show no
    red five of its suit (:func:`keep_red_split`); ``on_step``: told how far the faces'
    features and the fit have got (``done, total, what``); ``keep_unshown``: see
    :func:`fit_head`."""
    start = time.perf_counter()
    crops, labels = samples.batch()
    features = model.features(crops, on_step=on_step)
    head = fit_head(features, labels, model.head, steps, pull, on_step=on_step,
                    keep_unshown=keep_unshown)
    if red_split:
        head = keep_red_split(head, model.head, labels)
    accuracy = float(np.mean(head.logits(features).argmax(axis=1) == labels))
    before = float(np.mean(model.head.logits(features).argmax(axis=1) == labels))
    return Enrollment(head, samples.counts(), time.perf_counter() - start, accuracy, before,
                      features.mean(axis=0), features.std(axis=0))

