"""pytest's doctests of this package: the modules that import torch at their top are left out
where torch (the ``train`` extra) is not installed."""

from importlib.util import find_spec

collect_ignore = [] if find_spec("torch") else [
    "nets.py", "from_onnx.py", "photo_batches.py", "sim_batches.py"]
