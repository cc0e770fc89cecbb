"""From table readings to engine events: the layer between perception and the game.

Perception (:mod:`tablekit.vision`) turns each frame into a
:class:`~tablekit.vision.table_reading.TableReading`, every tile already placed in its
seat and :class:`~tablekit.vision.zones.TileZone`. Tracking believes only what stays the
same over frames and compares it with the engine's state; it is plain Python (no numpy,
no OpenCV):

* :mod:`tablekit.tracking.camera`: :class:`~tablekit.tracking.camera.Camera`, the app's
  one camera side: the camera feed and the tracker as one object, handed the state,
* :mod:`tablekit.tracking.tracker`: :class:`~tablekit.tracking.tracker.Tracker`, the
  readings -> events step, made of the parts below, and what the flow asks of it,
* :mod:`tablekit.tracking.stable_view`: each frame sorted into zones, and what the last
  frames agree on,
* :mod:`tablekit.tracking.discards` and :mod:`tablekit.tracking.faint_discards`: draws
  and discards, one the detector barely saw,
* :mod:`tablekit.tracking.calls`, :mod:`tablekit.tracking.meld_events` and
  :mod:`tablekit.tracking.meld_reading`: CALL presses, and the melds laid beside the hand,
* :mod:`tablekit.tracking.pond_votes`: second looks at the ponds (corrections),
* :mod:`tablekit.tracking.dora_watch`: dora indicators revealed or corrected,
* :mod:`tablekit.tracking.revealed_hands` and :mod:`tablekit.tracking.hand_reading`: a
  revealed hand voted over frames and read under the rules.

Every time is in seconds (readings carry their timestamps); only the camera feed counts
frames.

The feed that reads the frames at a steady rate into readings is
:mod:`tablekit.vision.feed` (it looks at the frames; the camera side holds it).
"""
