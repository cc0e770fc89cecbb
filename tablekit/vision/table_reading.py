"""What one frame shows of the table, in table millimetres: the seam between the
camera pipeline (which fills it) and the tracker (which turns it into events).

Coordinates are the table layout's (:mod:`tablekit.vision.layout`): the origin at
the felt's centre, seat 0 at the bottom, seats counter-clockwise. Each seen tile
carries its candidate readings, best first, so that rules-aware reading can
choose among them, and its place (:func:`tablekit.vision.zones.locate`), found once:
by the pipeline under its profile's layout, else under the default layout.

>>> from tablekit.tiles import Tile
>>> tile = SeenTile((0.0, -120.0), 0.0, True, ((Tile.from_code("5m"), 0.9),))
>>> tile.best.code, tile.seat, tile.place.zone
('5m', 0, <TileZone.POND: 'pond'>)
"""

from __future__ import annotations

from dataclasses import dataclass

from tablekit.tiles import Tile
from tablekit.vision.layout import DEFAULT_LAYOUT, TableLayout, table_to_seat
from tablekit.vision.zones import Place, TileZone, locate  # noqa: F401 (doctest)

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class SeenTile:
    """One tile face (or back) on the table plane.

    ``angle`` is the direction of the face's top in degrees counter-clockwise from
    the table's +y axis (0 = upright for seat 0, 90 = upright for seat 1 ...).
    """

    xy: tuple[float, float]
    angle: float
    face_up: bool
    candidates: tuple[tuple[Tile, float], ...] = ()
    located: Place | None = None
    """Its place; None: located here under the default layout."""

    def __post_init__(self) -> None:
        if self.located is None:
            object.__setattr__(self, "located", locate(self.xy))

    @property
    def place(self) -> Place:
        """The seat, zone and slot the tile lies in."""
        assert self.located is not None  # set in __post_init__
        return self.located

    @property
    def best(self) -> Tile:
        return self.candidates[0][0]

    @property
    def score(self) -> float:
        return self.candidates[0][1] if self.candidates else 0.0

    @property
    def seat(self) -> int:
        """The seat whose side of the table the tile lies on."""
        return self.place.seat

    def local(self) -> tuple[float, float]:
        """The position in its seat's own frame (the player at the bottom)."""
        return table_to_seat(self.seat, *self.xy)

    def sideways_for(self, seat: int) -> bool:
        """Whether the tile lies turned a quarter for ``seat`` (riichi, called tiles)."""
        relative = (self.angle - 90 * seat) % 180
        return 45 <= relative < 135


@dataclass(frozen=True)
class TableReading:
    """One frame's reading: the tiles seen and the places something hides the table."""

    tiles: tuple[SeenTile, ...]
    busy: tuple[Box, ...] = ()       # table boxes (mm) covered by arms or hands
    timestamp: float = 0.0
    calibrated: bool = True          # False: markers lost, nothing here can be trusted
    faint: tuple[SeenTile, ...] = ()  # pond tiles the detector was unsure of, read apart
    gaps: tuple[SeenTile, ...] = ()   # faces named in a hand row's gaps, read apart
    layout: TableLayout = DEFAULT_LAYOUT  # the table read (its profile's)
    moved: tuple[SeenTile, ...] = ()
    """Faces of ``tiles`` found off their places in a hand row whose reads at their places
    are in ``gaps`` (:mod:`tablekit.vision.row_gaps`): left out where ``gaps`` count."""

    def in_busy(self, xy: tuple[float, float], margin: float = 20.0) -> bool:
        x, y = xy
        return any(x0 - margin <= x <= x1 + margin and y0 - margin <= y <= y1 + margin
                   for x0, y0, x1, y1 in self.busy)
