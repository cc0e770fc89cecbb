"""The faces a recording's players confirmed, cut from its frames for enrollment
(``tablekit enroll --from-recording``).

For each hand won (:mod:`tablekit.recording.confirmed`), a few of the frames kept from the
winner's WIN press to :data:`WINDOW` seconds after it (the hand lies revealed) are read as
the game's reader read them (the recording's calibration, or one fitted from its first
frames as the camera pipeline does; its tile set). Each face read is given a kind that
the journal has there:

* **winning hands**: the faces in each winner's hand row, named as the winner's revealed
  hand (the win confirmed, or fixed, by the players) in the order it is laid
  (:func:`winner_pairs`), and its melds;
* **dora indicators**: the faces in the row of dora indicators and of ura indicators, named
  as the journal has them (corrections included), by :func:`assign`: the likeliest
  pairing of the faces with the confirmed kinds;
* **discards**: the faces in each seat's pond, named as its discards in force (those called
  away left out), kept only where the game's own reading agrees: the kind is among the
  reader's three likeliest for that face in that frame (the tracker had registered it
  from many frames and nobody corrected it), and the hand's tiles hold no more of its
  kind than a set does (:meth:`~tablekit.recording.confirmed.WonHand.too_many`); and only
  from a recording whose reader read the faces people confirmed (winning hands, dora
  indicators) as they confirmed them, at least :data:`TRUST` of them (:func:`trusted`).
  Nobody confirmed a discard: a game read badly registers misreads that the same reader
  reads again, surely (on the KDE default art, whose game's reader read 70% of the
  confirmed faces so, its discards taken anyway read the next game at F1 0.577 against
  0.606 without them; GNOME smooth 0.690 against 0.708: whole games, pull 1.0, 64 moments).

Enrolled on top of a set (``base``: one enrolled from the mat), the faces are read and
paired by that set's reader, which knows the tiles better than the game's did.

Each face is cut from the rectified view exactly where the reader cuts it (its face box in
the view), jittered and varied as enrollment does (:func:`tablekit.vision.enroll.cut_faces`),
with bare felt beside the tiles as not-a-tile.

>>> probs = np.array([[0.7, 0.2, 0.1], [0.6, 0.3, 0.1]])
>>> assign(probs, [0, 1])
[(0, 0), (1, 1)]
>>> assign(probs, [2], floor=0.5)
[]
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tablekit.errors import BadInput
from tablekit.game.events import Won
from tablekit.game.journal import read_journal
from tablekit.game.session import in_force
from tablekit.recording.confirmed import WonHand, when_won, won_hands
from tablekit.recording.hand_order import pair_in_order
from tablekit.recording.manifest import (
    CALIBRATION,
    JOURNAL,
    PRESSES,
    TILESET,
    journal_times,
    read_manifest,
)
from tablekit.untrusted.recording import check_frame_line, check_press, read_lines, recording_file
from tablekit.vision.classes import class_index
from tablekit.vision.frame_log import FRAMES

WINDOW = 3.0
"""Seconds after a WIN press whose frames show the hand revealed (the sim's person confirms
a tsumo 4 s after its WIN, a ron 1 s and 4 s after)."""
FRAMES_PER_HAND = 3
COPIES = 3
"""Jittered cuts of each face in each frame (each also upside down)."""
BACKGROUND = 20
"""Bare-felt patches (not a tile) cut from each frame."""
KINDS = ("winning hands", "dora indicators", "discards")
PULL = 0.2
"""The head is held near the trained one as the mat's is (photos' 0.01): the faces people
confirmed are named as surely as the mat's. On the simulated table, whole recorded games,
the confirmed faces alone, pulls 0.4 / 0.2 / 0.1 / 0.05 read the next game (64 moments) at
F1 0.618 / 0.613 / 0.611 / 0.619 on the KDE default art (the mat 0.582), 0.724 / 0.736 /
0.743 / 0.744 on GNOME smooth (0.733), 0.933 / 0.930 / 0.926 / 0.917 on Hong Kong (0.930):
0.2, the mat's, is at or above the mat on all three (each pull fitted by hand)."""
CONFIRMED_FLOOR = 1e-3
"""A confirmed kind is given to a face the reader found at least this likely for it."""
TRUST = 0.9
"""A recording's discards are used only when its reader read at least this share of the
faces people confirmed (winning hands, dora indicators) as they confirmed them: the one
check of the game's reading a recording holds."""


def trusted(read: int, confirmed: int, share: float = TRUST) -> bool:
    """Whether a reader that read ``read`` of ``confirmed`` faces as people confirmed them
    is trusted with the discards nobody confirmed.

    >>> trusted(88, 92), trusted(70, 92), trusted(0, 0)
    (True, False, False)
    """
    return confirmed > 0 and read >= share * confirmed


@dataclass
class Harvest:
    """Faces found in recordings: crops with their labels, faces used of each kind."""

    samples: Any   # tablekit.vision.enroll.FaceSamples
    used: Counter[str] = field(default_factory=Counter)
    hands: int = 0
    frames: int = 0
    read: int = 0
    """Faces people confirmed that the reader read first as they confirmed them..."""
    confirmed: int = 0
    """... of these confirmed faces (over all the recordings)."""
    left_out: list[str] = field(default_factory=list)
    """Why a recording's discards were left out, one phrase each."""

    def report(self) -> str:
        """One line: the faces used of each kind, the kinds that had none, and the
        recordings whose discards were left out (why).

        >>> from tablekit.vision.enroll import FaceSamples
        >>> line = Harvest(FaceSamples(), Counter({"winning hands": 77}), 2, 6,
        ...                left_out=["rec: 60 of 83 confirmed faces read so"]).report()
        >>> line.split("; ")   # doctest: +NORMALIZE_WHITESPACE
        ['2 hands won, 6 frames read', 'faces used: winning hands 77',
         'none from dora indicators, discards',
         'discards left out of rec: 60 of 83 confirmed faces read so (under 90%)']
        """
        used = ", ".join(f"{kind} {self.used[kind]}" for kind in KINDS if self.used[kind])
        none = [kind for kind in KINDS if not self.used[kind]]
        line = (f"{self.hands} hands won, {self.frames} frames read; faces used: "
                f"{used or 'none'}")
        line += f"; none from {', '.join(none)}" if none and used else ""
        return line + "".join(f"; discards left out of {why} (under {TRUST:.0%})"
                              for why in self.left_out)

    def take(self, other: Harvest, discards: Harvest, name: str) -> None:
        """Add one recording's confirmed faces (``other``) and its discards' faces
        (``discards``) when its reader is :func:`trusted` with them."""
        self.hands, self.frames = self.hands + other.hands, self.frames + other.frames
        self.read, self.confirmed = self.read + other.read, self.confirmed + other.confirmed
        kept = [other] + ([discards] if trusted(other.read, other.confirmed) else [])
        if discards.used and len(kept) == 1:
            self.left_out.append(f"{name}: {other.read} of {other.confirmed} confirmed faces "
                                 "read so")
        for part in kept:
            self.used.update(part.used)
            self.samples.crops += part.samples.crops
            self.samples.labels += part.samples.labels


def assign(probs: np.ndarray, labels: list[int], floor: float = 0.0
           ) -> list[tuple[int, int]]:
    """Pairs ``(face, label position)`` naming faces with ``labels`` (each used once): the
    likeliest pair first, then the likeliest of what is left, while its probability is at
    least ``floor``."""
    if not len(labels) or not len(probs):
        return []
    score = np.asarray(probs, np.float64)[:, labels].copy()
    pairs = []
    for _ in range(min(score.shape)):
        face, at = np.unravel_index(int(np.argmax(score)), score.shape)
        if score[face, at] < floor or score[face, at] < 0:
            break
        pairs.append((int(face), int(at)))
        score[face, :], score[:, at] = -1.0, -1.0
    return sorted(pairs)


def winner_pairs(probs: np.ndarray, xs: list[float], hand: WonHand, seat: int
                 ) -> list[tuple[int, int]]:
    """Pairs ``(face, position in hand.winners[seat])`` of a winner's hand-row faces
    (``probs``, places ``xs`` left to right) with its confirmed tiles: the revealed hand in
    the order it is laid (:func:`~tablekit.recording.hand_order.pair_in_order`), the melds
    with the faces left (:func:`assign`); pairs the reader finds under
    :data:`CONFIRMED_FLOOR` likely are left out.

    >>> hand = WonHand({0: ["2m", "1m", "3m", "5p", "5p", "5p"]}, win_tiles={0: "3m"},
    ...                revealed={0: 3})
    >>> probs = np.full((5, 38), 0.01); probs[range(5), [1, 0, 2, 13, 13]] = 0.6
    >>> winner_pairs(probs, [1.0, 0.0, 2.0, 5.0, 6.0], hand, 0)
    [(0, 0), (1, 1), (2, 2), (3, 3), (4, 4)]
    """
    codes = hand.winners[seat]
    columns = [class_index(code) for code in codes]
    concealed = hand.revealed.get(seat, len(codes))
    pairs = pair_in_order(probs, xs, codes[:concealed], hand.win_tiles.get(seat), columns)
    taken = {face for face, _ in pairs}
    left = [face for face in range(len(probs)) if face not in taken]
    melds = list(range(concealed, len(codes)))
    pairs += [(left[face], melds[at]) for face, at in
              assign(probs[left], [columns[k] for k in melds], CONFIRMED_FLOOR)]
    return sorted((face, at) for face, at in pairs
                  if probs[face, columns[at]] >= CONFIRMED_FLOOR)


def recorded_hands(folder: Path) -> list[tuple[WonHand, float]]:
    """The hands won while ``folder`` was recording, each with its WIN press's time."""
    start = int(read_manifest(folder).get("journal_start") or 0)
    journal = recording_file(folder, JOURNAL)
    if not journal.is_file():
        return []
    contents = read_journal(journal)
    offset_of = {id(event): at for event, at in zip(contents.events, contents.offsets,
                                                    strict=True)}
    wins = [offset_of[id(event)] for event in in_force(contents.events)[0]
            if isinstance(event, Won)]
    hands = won_hands(contents.events)   # one for each win in force, in order
    kept = [(hand, at) for hand, at in zip(hands, wins, strict=True) if at >= start]
    confirmed = written_at(journal_times(folder), [at for _, at in kept])
    presses = read_lines(recording_file(folder, PRESSES), folder, check_press)
    times = when_won(presses, [hand for hand, _ in kept], confirmed)
    return [(hand, t) for (hand, _), t in zip(kept, times, strict=True) if t is not None]


def written_at(times: list[tuple[int, float]], offsets: list[int]) -> list[float | None] | None:
    """When the journal's lines starting at ``offsets`` were written, from
    :func:`~tablekit.recording.manifest.journal_times` (None: a recording that does not keep
    them, format 1).

    >>> written_at([(100, 1.5), (180, 4.0)], [0, 120, 180])
    [1.5, 4.0, None]
    """
    if not times:
        return None
    sizes = [size for size, _ in times]
    return [times[i][1] if (i := bisect_right(sizes, at)) < len(times) else None
            for at in offsets]


def _profile(folder: Path, manifest: dict[str, Any], lines: list[dict[str, Any]]) -> Any:
    """The recording's calibration, or one fitted from its first frames."""
    from tablekit.vision.calibration import CalibrationError, Profile, calibrate

    if manifest.get("calibration"):
        return Profile.load(folder / CALIBRATION)
    images = [_image(folder, line) for line in lines[:8] if line.get("file")]
    if not any(image is not None for image in images):
        raise BadInput(f"{folder}: no frames kept at its start to find the table in")
    for first in range(0, max(len(images) - 1, 1), 2):
        try:
            return calibrate([im for im in images[first:first + 2] if im is not None],
                             source="recording")
        except CalibrationError:
            continue
    raise BadInput(f"{folder}: its first frames do not show the table's four markers")


def _image(folder: Path, line: dict[str, Any]) -> Any:
    import cv2

    return cv2.imread(str(recording_file(folder, line["file"])))


def pick_frames(lines: list[dict[str, Any]], start: float, count: int = FRAMES_PER_HAND,
                window: float = WINDOW) -> list[dict[str, Any]]:
    """Up to ``count`` kept frames spread over ``start`` .. ``start + window``.

    >>> lines = [{"t": t / 4, "file": f"{t}.jpg"} for t in range(40)]
    >>> [line["t"] for line in pick_frames(lines, 2.0)]
    [2.0, 3.5, 5.0]
    """
    inside = [line for line in lines if line.get("file") and start <= line["t"] <= start + window]
    if len(inside) <= count:
        return inside
    at = np.linspace(0, len(inside) - 1, count).round().astype(int)
    return [inside[i] for i in at]


def harvest(folders: list[Path], size: tuple[int, int], seed: int = 0,
            frames_per_hand: int = FRAMES_PER_HAND, base: Path | None = None) -> Harvest:
    """The confirmed faces of every recording in ``folders`` (crops of ``size``), read by
    the reader of the tile set ``base`` (default: each recording's own)."""
    from tablekit.vision.enroll import FaceSamples

    rng = np.random.default_rng(seed)
    found = Harvest(FaceSamples())
    for folder in folders:
        manifest = read_manifest(folder)
        hands = recorded_hands(folder)
        if not hands:
            continue
        lines = read_lines(recording_file(folder, FRAMES), folder, check_frame_line)
        profile = _profile(folder, manifest, lines)
        models = _models(folder, manifest, base)
        mine, discards = Harvest(FaceSamples()), Harvest(FaceSamples())
        for hand, start in hands:
            mine.hands += 1
            for line in pick_frames(lines, start, frames_per_hand):
                image = _image(folder, line)
                if image is None:
                    continue
                mine.frames += 1
                _from_frame(mine, discards, image, hand, profile, models, size, rng)
        found.take(mine, discards, str(folder))
    return found


def _models(folder: Path, manifest: dict[str, Any], base: Path | None = None) -> Any:
    from tablekit.vision.table_reader import TableModels
    kept = str(folder / TILESET) if manifest.get("tileset") else None
    return TableModels.load(tileset=base or kept)


def _from_frame(found: Harvest, discards: Harvest, image: np.ndarray, hand: WonHand,
                profile: Any, models: Any, size: tuple[int, int], rng: np.random.Generator
                ) -> None:
    """The faces of one frame: the confirmed ones (and not-a-tile) into ``found``, counting
    those the reader read as confirmed, the discards' into ``discards``."""
    from tablekit.vision.enroll import background_boxes, cut_faces
    from tablekit.vision.enroll_mat import ALIGNED_DEGREES
    from tablekit.vision.rectify import TableView
    from tablekit.vision.table_reader import read_frame
    from tablekit.vision.zones import TileZone, locate

    reading, tiles = read_frame(image, profile, models)
    view = TableView(profile.camera, layout=profile.layout)
    up = [i for i, tile in enumerate(tiles) if tile.face_up]
    if not up:
        return
    boxes = np.array([tiles[i].box for i in up], np.float32)
    probs = models.name_boxes(image, view, boxes)
    places = [reading.tiles[i].located or locate(reading.tiles[i].xy, profile.layout)
              for i in up]
    groups: list[tuple[str, list[int], list[str], list[tuple[int, int]], bool]] = []
    for seat, codes in hand.winners.items():
        faces = [k for k, p in enumerate(places) if p.zone is TileZone.HAND and p.seat == seat]
        pairs = winner_pairs(probs[faces], [places[k].x for k in faces], hand, seat)
        groups.append(("winning hands", faces, codes, pairs, False))
    for zone, codes in ((TileZone.INDICATOR, hand.dora), (TileZone.URA, hand.ura)):
        faces = [k for k, p in enumerate(places) if p.zone is zone]
        pairs = assign(probs[faces], [class_index(c) for c in codes], CONFIRMED_FLOOR)
        groups.append(("dora indicators", faces, codes, pairs, False))
    doubtful = hand.too_many()
    for seat, codes in hand.ponds.items():
        codes = [code for code in codes if code not in doubtful]
        faces = [k for k, p in enumerate(places) if p.zone is TileZone.POND and p.seat == seat]
        pairs = assign(probs[faces], [class_index(c) for c in codes])
        groups.append(("discards", faces, codes, pairs, True))
    view_image = view.warp(image)
    for kind, faces, codes, pairs, agree in groups:
        for face, at in pairs:
            k, label = faces[face], class_index(codes[at])
            candidates = [c for c, _ in tiles[up[k]].candidates]
            if agree and codes[at] not in candidates:
                continue
            if not agree:
                found.confirmed += 1
                found.read += candidates[:1] == [codes[at]]
            into = discards if agree else found
            into.used[kind] += 1
            into.samples.add(cut_faces(view_image, boxes[k][None], size, rng, copies=COPIES,
                                       degrees=ALIGNED_DEGREES), label)
    every = np.array([tile.box for tile in tiles], np.float32).reshape(-1, 4)
    felt = background_boxes(view_image.shape, every, rng, BACKGROUND)
    found.samples.add(cut_faces(view_image, felt, size, rng, copies=1),
                      class_index("none"))
