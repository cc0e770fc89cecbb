"""The two networks, in torch (training only; run time uses their ONNX exports)."""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

MEAN = (0.485, 0.456, 0.406)
STD = (0.229, 0.224, 0.225)


def conv_bn(cin: int, cout: int, k: int = 3, stride: int = 1, groups: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


def separable(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    """Depthwise 3x3 then pointwise 1x1, each with batch norm and ReLU."""
    return nn.Sequential(conv_bn(cin, cin, 3, stride, groups=cin), conv_bn(cin, cout, 1))


class Normalise(nn.Module):
    """RGB in [0, 1] to ImageNet-normalised values (so the ONNX input stays plain)."""

    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("mean", torch.tensor(MEAN).view(1, 3, 1, 1))
        self.register_buffer("std", torch.tensor(STD).view(1, 3, 1, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return (x - self.mean) / self.std


class TileDetector(nn.Module):
    """CenterNet-style: stride-4 heat map of tile centres, log box size and centre offset."""

    stride = 4

    def __init__(self, width: int = 48) -> None:
        super().__init__()
        self.norm = Normalise()
        self.stem = conv_bn(3, 16, 3, 2)
        self.c4 = nn.Sequential(separable(16, 32, 2), separable(32, 32))
        self.c8 = nn.Sequential(separable(32, 64, 2), separable(64, 64))
        self.c16 = nn.Sequential(separable(64, 96, 2), separable(96, 96), separable(96, 96))
        self.c32 = nn.Sequential(separable(96, 128, 2), separable(128, 128))
        self.lat32, self.lat16 = conv_bn(128, width, 1), conv_bn(96, width, 1)
        self.lat8, self.lat4 = conv_bn(64, width, 1), conv_bn(32, width, 1)
        self.mix16, self.mix8 = separable(width, width), separable(width, width)
        self.mix4 = separable(width, width)
        self.head = nn.Sequential(conv_bn(width, 32, 1), nn.Conv2d(32, 5, 1))
        nn.init.constant_(self.head[-1].bias, 0.0)
        with torch.no_grad():
            self.head[-1].bias[0] = -4.0

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        c4 = self.c4(self.stem(self.norm(x)))
        c8 = self.c8(c4)
        c16 = self.c16(c8)
        c32 = self.c32(c16)
        up = F.interpolate(self.lat32(c32), scale_factor=2.0, mode="nearest")
        p16 = self.mix16(self.lat16(c16) + up)
        p8 = self.mix8(self.lat8(c8) + F.interpolate(p16, scale_factor=2.0, mode="nearest"))
        p4 = self.mix4(self.lat4(c4) + F.interpolate(p8, scale_factor=2.0, mode="nearest"))
        out = self.head(p4)
        return out[:, :1], out[:, 1:3], out[:, 3:5]


class TileClassifier(nn.Module):
    """A small CNN over 48x36 upright crops; logits over the 39 classes."""

    def __init__(self, classes: int = 39) -> None:
        super().__init__()
        self.norm = Normalise()
        self.features = nn.Sequential(
            conv_bn(3, 24), separable(24, 48, 2), separable(48, 48),
            separable(48, 96, 2), separable(96, 96), separable(96, 160, 2), separable(160, 160),
            conv_bn(160, 256, 1),
        )
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(256, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        pooled = self.features(self.norm(x)).mean(dim=(2, 3))
        return self.fc(self.drop(pooled))


class ExportDetector(nn.Module):
    """The detector as exported: sigmoid heat and offset, named outputs."""

    def __init__(self, net: TileDetector) -> None:
        super().__init__()
        self.net = net

    def forward(self, image: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        heat, size, offset = self.net(image)
        return torch.sigmoid(heat), size, torch.sigmoid(offset)


class ExportClassifier(nn.Module):
    """The classifier as exported: temperature-scaled softmax."""

    def __init__(self, net: TileClassifier, temperature: float) -> None:
        super().__init__()
        self.net = net
        self.register_buffer("temperature", torch.tensor(float(temperature)))

    def forward(self, crops: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(crops) / self.temperature, dim=1)


class TableDetector(nn.Module):
    """The rectified-view detector: plain convolutions (quick to train on a CPU), stride 4
    with a stride-8 context branch; heat for face-up and face-down tiles, log size, offset."""

    stride = 4

    def __init__(self, width: int = 16, context: int = 48) -> None:
        super().__init__()
        self.norm = Normalise()
        self.stem = nn.Sequential(conv_bn(3, 16, 3, 2), conv_bn(16, width, 3, 2))
        self.down = nn.Sequential(conv_bn(width, context, 3, 2), conv_bn(context, context),
                                  conv_bn(context, context))
        self.mix = conv_bn(width + context, width, 3, 1)
        self.head = nn.Conv2d(width, 6, 1)
        nn.init.constant_(self.head.bias, 0.0)
        with torch.no_grad():
            self.head.bias[:2] = -4.0

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        near = self.stem(self.norm(x))
        far = F.interpolate(self.down(near), scale_factor=2.0, mode="nearest")
        out = self.head(self.mix(torch.cat([near, far], dim=1)))
        return out[:, :2], out[:, 2:4], out[:, 4:6]


class BoxRefiner(nn.Module):
    """A window twice a box's size around it (64x64) to where the tile's edges are: centre
    shift in box widths and heights, log width and height ratios
    (:mod:`tablekit.vision.refine`)."""

    def __init__(self, widths: tuple[int, ...] = (16, 32, 48, 64), hidden: int = 64) -> None:
        super().__init__()
        self.norm = Normalise()
        layers: list[nn.Module] = []
        cin = 3
        for width in widths:
            layers += [conv_bn(cin, width, 3, 2), conv_bn(width, width)]
            cin = width
        self.features = nn.Sequential(*layers)
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(cin * 16, hidden),
                                  nn.ReLU(inplace=True), nn.Linear(hidden, 4))

    def forward(self, window: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(self.norm(window)))
