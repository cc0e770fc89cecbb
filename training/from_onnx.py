"""An exported classifier back in torch, to fine-tune it (training only).

The ONNX export folded each batch norm into its convolution, so the network comes back as
convolutions with biases and ReLUs, the mean pool and the linear layer: the same function,
logits out (before the temperature and the softmax).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import helper, numpy_helper
from torch import nn


def _attributes(node: onnx.NodeProto) -> dict:
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def _conv(node: onnx.NodeProto, weights: dict[str, np.ndarray]) -> nn.Conv2d:
    attrs = _attributes(node)
    weight = torch.from_numpy(weights[node.input[1]].copy())
    out_ch, in_per_group, k, _ = weight.shape
    groups = int(attrs.get("group", 1))
    conv = nn.Conv2d(in_per_group * groups, out_ch, k, int(attrs["strides"][0]),
                     int(attrs["pads"][0]), groups=groups, bias=True)
    conv.weight.data.copy_(weight)
    conv.bias.data.copy_(torch.from_numpy(weights[node.input[2]].copy()))
    return conv


class FusedClassifier(nn.Module):
    """The tile classifier with its batch norms folded: logits over the 39 classes."""

    def __init__(self, mean: torch.Tensor, std: torch.Tensor, convs: list[nn.Conv2d],
                 fc: nn.Linear) -> None:
        super().__init__()
        self.register_buffer("mean", mean)
        self.register_buffer("std", std)
        self.convs = nn.ModuleList(convs)
        self.drop = nn.Dropout(0.2)
        self.fc = fc

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = (x - self.mean) / self.std
        for conv in self.convs:
            x = torch.relu(conv(x))
        return self.fc(self.drop(x.mean(dim=(2, 3))))

    @classmethod
    def from_onnx(cls, path: Path) -> FusedClassifier:
        model = onnx.load(str(path))
        weights = {w.name: numpy_helper.to_array(w) for w in model.graph.initializer}
        convs = [_conv(node, weights) for node in model.graph.node if node.op_type == "Conv"]
        gemm = next(node for node in model.graph.node if node.op_type == "Gemm")
        fc_weight = torch.from_numpy(weights[gemm.input[1]].copy())
        fc = nn.Linear(fc_weight.shape[1], fc_weight.shape[0])
        fc.weight.data.copy_(fc_weight)
        fc.bias.data.copy_(torch.from_numpy(weights[gemm.input[2]].copy()))
        norm = "net.norm." if "net.norm.mean" in weights else "net."  # photo / fine-tuned
        mean = torch.from_numpy(weights[norm + "mean"].copy())
        std = torch.from_numpy(weights[norm + "std"].copy())
        return cls(mean, std, convs, fc)


def onnx_temperature(path: Path) -> float:
    model = onnx.load(str(path))
    weights = {w.name: numpy_helper.to_array(w) for w in model.graph.initializer}
    return float(weights["temperature"])


def fused_from_onnx(net: nn.Module, path: Path) -> nn.Module:
    """``net`` (a freshly built network of the exported kind) with the exported weights.

    Each batch norm becomes an identity and each convolution takes the folded weight and bias
    of the ONNX node named after it (``/net/c4/c4.0/c4.0.0/c4.0.0.0/Conv`` -> ``c4.0.0.0``).
    """
    model = onnx.load(str(path))
    weights = {w.name: numpy_helper.to_array(w) for w in model.graph.initializer}
    for name, module in list(net.named_modules()):
        if isinstance(module, nn.BatchNorm2d):
            parent, _, leaf = name.rpartition(".")
            setattr(net.get_submodule(parent) if parent else net, leaf, nn.Identity())
    for node in model.graph.node:
        if node.op_type != "Conv":
            continue
        conv = net.get_submodule(node.output[0].split("/")[-2])
        conv.weight.data.copy_(torch.from_numpy(weights[node.input[1]].copy()))
        conv.bias = nn.Parameter(torch.from_numpy(weights[node.input[2]].copy()))
    for name in ("mean", "std"):
        key = next(k for k in weights if k.endswith("norm." + name))
        getattr(net.norm, name).copy_(torch.from_numpy(weights[key].copy()))
    return net
