"""What every frame source is: a ``read()`` that gives a :class:`CameraFrame` (or None when
nothing more comes) and a ``close()``; :class:`Source` adds the context manager and the
iterator. The sources themselves are in :mod:`tablekit.vision.camera` and
:mod:`tablekit.vision.rpicam`.

>>> import numpy as np
>>> CameraFrame(np.zeros((2, 2, 3), np.uint8), 0.25).timestamp
0.25
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from tablekit.errors import TablekitError

if TYPE_CHECKING:
    import numpy as np


class CameraError(TablekitError, RuntimeError):
    """A camera that cannot be opened or read: unplugged, not installed, nothing to show."""


@dataclass(frozen=True)
class CameraFrame:
    image: np.ndarray
    timestamp: float


class FrameSource(Protocol):
    def read(self) -> Any: ...

    def close(self) -> None: ...


class Source:
    """The shared part of every source: context manager and iterator over ``read()``."""

    def read(self) -> CameraFrame | None:
        raise NotImplementedError

    def close(self) -> None:
        """Release the device (nothing to do by default)."""

    def __enter__(self) -> Source:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[CameraFrame]:
        while (frame := self.read()) is not None:
            yield frame
