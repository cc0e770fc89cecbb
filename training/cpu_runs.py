"""What the commands that train on the CPU alone share (``refiner``, ``photo-classifier``):
their common options and the log written beside the model they export."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def add_run_arguments(parser: argparse.ArgumentParser, seconds: float, out: str,
                      devices: tuple[str, ...] = ("cpu",)) -> None:
    """``--data``, ``--seconds``, ``--threads``, ``--seed``, ``--device`` and ``--out``
    (``out``: the model's file name under ``tablekit/models``).

    >>> parser = argparse.ArgumentParser()
    >>> add_run_arguments(parser, 600.0, "box_refiner.onnx")
    >>> args = parser.parse_args([])
    >>> args.seconds, args.threads, args.device, args.out.name
    (600.0, 2, 'cpu', 'box_refiner.onnx')
    """
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared/data")
    parser.add_argument("--seconds", type=float, default=seconds,
                        help="stop training after this long")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="cpu", choices=devices,
                        help="made on the CPU" + (": a GPU only speeds it up"
                                                  if "cuda" in devices else ""))
    parser.add_argument("--out", type=Path, default=ROOT / "tablekit/models" / out)


def command() -> str:
    """The command line that runs now, as the entry point's."""
    return "python -m training " + " ".join(sys.argv[1:])


def write_log(model: Path, name: str, log: dict) -> None:
    """Print ``log`` and write it as ``name`` beside the exported ``model``."""
    print(json.dumps(log, indent=1))
    (model.parent / name).write_text(json.dumps(log, indent=1) + "\n")
