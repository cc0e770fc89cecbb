"""JSON as people read it: indented, with each point and each short list of numbers kept on
one line (calibration profiles, ground-truth files).

>>> print(compact_json({"polygon": [[1, 2], [3, 4]], "id": 0}))
{
 "polygon": [[1, 2], [3, 4]],
 "id": 0
}
"""

from __future__ import annotations

import json
import re
from typing import Any

_NUMBERS = re.compile(r"\[\s+([^\[\]{}\"]*?)\s+\]")
_POINTS = re.compile(r"\[\s+(\[[^\[\]]*\](?:,\s+\[[^\[\]]*\])*)\s+\]")


def compact_json(data: Any) -> str:
    """``json.dumps(data, indent=1)`` with lists of numbers and of points kept on a line."""
    text = json.dumps(data, indent=1)
    text = _NUMBERS.sub(lambda m: "[" + re.sub(r"\s*\n\s*", " ", m.group(1)) + "]", text)
    return _POINTS.sub(lambda m: "[" + re.sub(r"\s*\n\s*", " ", m.group(1)) + "]", text)
