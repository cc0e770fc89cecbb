"""From table readings to engine events: the layer between perception and the game.

Perception (:mod:`tablekit.vision`) turns each frame into a
:class:`~tablekit.vision.table_reading.TableReading`, every tile already placed in its
seat and :class:`~tablekit.vision.zones.TileZone`. Tracking believes only what stays the
same over frames and compares it with the engine's state; it is plain Python (no numpy,
no OpenCV):

* :mod:`tablekit.tracking.tracker`: :class:`~tablekit.tracking.tracker.Tracker`, the
  readings -> events step (discards, calls, dora, corrections) and the reading of a win,
* :mod:`tablekit.tracking.hand_reading`: a revealed hand voted over frames and read under
  the rules,
* :mod:`tablekit.tracking.meld_reading`: melds laid beside the hand,
* :mod:`tablekit.tracking.faint_discards`: a discard the detector barely saw.

The camera side of ``tablekit run`` that feeds it frames at a steady rate is
:mod:`tablekit.vision.feed` (it looks at the frames; the tracker is passed in).
"""
