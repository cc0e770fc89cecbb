"""Learn from play: the faces people confirmed in recorded games join the nearest faces of a
tile set enrolled from the table (:mod:`tablekit.vision.nearest`).

Two ways in, one enrollment:

* ``tablekit enroll --from-recording DIR... --on SET --out NEW``: recordings made any time;
* ``tablekit run --tileset SET --record DIR --learn``: the evening's own recording, learned
  into ``SET`` itself when the evening ends (the next evening reads with it).

The faces are those :func:`~tablekit.recording.faces.harvest` cuts (winning hands, dora and
ura indicators people confirmed, and the discards of a game read well enough to trust). Each
is named by its confirmed kind and added to the set's bank, so the set then knows the tiles
as they looked in play, in that light, at those places. Written in place, the set is
replaced whole (:func:`~tablekit.files.atomic.replace_folder`): a power cut while it learns
leaves the set as it was or as it became, never a mix.

>>> Learned(None, 12, {"1m": 20, "2m": 4}, ("3m",)).faces_line()
"the set's faces now: 1m 20, 2m 4; still lacking: 3m"
>>> Learned(None, 12, {"1m": 20}, ()).faces_line()
"the set's faces now: 1m 20; no kind lacking"
"""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from tablekit.files.atomic import replace_folder
from tablekit.recording.faces import Harvest, harvest
from tablekit.vision.classes import CLASSES
from tablekit.vision.tileset import TileSet, TileSetError

LEARNING = ".learning"
"""The new set is written beside the old one, ``SET.learning``, then moved in."""


@dataclass(frozen=True)
class Learned:
    """What a set learned: the set as written, the faces added, the faces it now has of
    each kind and the kinds (of the 34, red fives apart) it still has none of."""

    tileset: Any  # TileSet
    added: int
    counts: dict[str, int]
    lacking: tuple[str, ...]

    def faces_line(self) -> str:
        """One line: the faces of each kind, the kinds lacking."""
        faces = ", ".join(f"{code} {self.counts[code]}" for code in CLASSES
                          if self.counts.get(code))
        return (f"the set's faces now: {faces}" +
                (f"; still lacking: {' '.join(self.lacking)}" if self.lacking
                 else "; no kind lacking"))


def learnable(on: TileSet) -> None:
    """Refuse, in one line, a set that cannot learn from play: only a set named by its
    nearest faces (enrolled from the table) adds faces; a refitted head is fitted anew."""
    if not on.nearest:
        raise TileSetError(f"{on.folder}: tile set {on.name!r} was not enrolled from the "
                           "table (enroll --from-table); only such a set learns from play "
                           "(or enroll --from-recording DIR --out NEW to fit a new one)")


def learn(folders: list[Path], on: TileSet, out: Path | None = None,
          on_step: Callable[[int, int], None] | None = None) -> tuple[Harvest, Learned]:
    """Cut the confirmed faces of the recordings ``folders`` and add them to ``on``
    (written to ``out``, or in place when ``out`` is None); a one-line
    :class:`TileSetError` when there is nothing to learn from."""
    from tablekit.vision.enroll import FeatureModel

    learnable(on)
    model = FeatureModel(on.classifier)
    found = harvest(folders, model.size, base=on.folder)
    return found, add_faces(on, found, model, out, on_step)


def add_faces(on: TileSet, found: Harvest, model: Any, out: Path | None = None,
              on_step: Callable[[int, int], None] | None = None, source: str | None = None
              ) -> Learned:
    """Add the harvested faces ``found`` (their features from ``model``) to the bank of
    ``on``, a set enrolled from the table; written to ``out``, or in place (None);
    ``source``: where the set now comes from, for its description (default: where it came
    from, learned from play)."""
    from tablekit.vision.enroll_table import missing_kinds
    from tablekit.vision.nearest import embed, with_pixels
    from tablekit.vision.onnx_model import CLASSIFIER_PATH
    from tablekit.vision.tileset import save_nearest_tileset

    learnable(on)
    if not sum(found.used.values()):
        raise TileSetError("no confirmed faces to learn from (a hand won with its hand "
                           "revealed, its WIN pressed while recording)")
    crops, labels = found.samples.batch()
    known = on.load_classifier()  # its bank, checked (a damaged one: one line)
    features = embed(model.features(crops, on_step=on_step),
                     crops if with_pixels(known.bank) else None)  # as its bank holds faces
    counts = Counter(on.info.get("faces", {})) + Counter(found.samples.counts())
    recorded = Counter(on.info.get("recorded_faces", {})) + Counter(found.used)
    if source is None:
        source = str(on.info.get("source", on.name))
        source += "" if source.endswith(", learned from play") else ", learned from play"
    in_place = out is None or Path(out).resolve() == on.folder.resolve()
    target = on.folder if in_place else Path(out)  # type: ignore[arg-type]
    write = target.with_name(target.name + LEARNING) if in_place else target
    if in_place:
        shutil.rmtree(write, ignore_errors=True)  # one a power cut left half written
    tileset = save_nearest_tileset(
        write, np.concatenate([known.bank, features]), np.concatenate([known.labels, labels]),
        dict(counts), CLASSIFIER_PATH, source,
        {"spread": on.info.get("spread", []), "recorded_faces": dict(recorded),
         "on": on.info.get("on", on.info.get("source", on.name))},
        name=target.name)
    if in_place:
        replace_folder(target, write)
        tileset = TileSet.load(target)
    lacking = tuple(code for code in missing_kinds(dict(counts))
                    if code not in ("back", "none"))
    return Learned(tileset, len(labels), dict(counts), lacking)
