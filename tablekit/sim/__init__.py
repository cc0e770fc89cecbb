"""The simulated table: what a camera above a real Riichi table sees, with ground truth.

Stages, each a small module:

* :mod:`~tablekit.sim.geometry`: the default table layout
  (:mod:`tablekit.vision.layout`) under the names the drawing modules use,
* :mod:`~tablekit.sim.table`: what lies on the table at one moment of a recorded hand
  (engine state plus concealed hands, the break in the wall, revealed hands),
* :mod:`~tablekit.sim.scene`: tiles placed as players place them,
* :mod:`~tablekit.sim.camera_model`, :mod:`~tablekit.sim.look`, :mod:`~tablekit.sim.art`,
  :mod:`~tablekit.sim.background`, :mod:`~tablekit.sim.tile_geometry`,
  :mod:`~tablekit.sim.render`, :mod:`~tablekit.sim.occluders`, :mod:`~tablekit.sim.effects`:
  drawing (pinhole camera with distortion, felt, tiles as boxes, arms, camera effects),
* :mod:`~tablekit.sim.frame`, :mod:`~tablekit.sim.truth`: a frame and its ground truth,
* :mod:`~tablekit.sim.rig`: table, camera and players drawn from one seed,
* :mod:`~tablekit.sim.script`: a Tenhou game as moments and the button presses they need,
* :mod:`~tablekit.sim.source`: the ``sim`` frame source, :class:`SimulatedCamera`,
* :mod:`~tablekit.sim.snapshot`: ``tablekit sim snapshot``.
* :mod:`~tablekit.sim.simulate`: whole games played on the simulated table through the app's
  own loop (``tablekit simulate``, ``tablekit demo``, the benchmarks),
* :mod:`~tablekit.sim.demo`: ``tablekit demo``'s output: a line per hand, the screens.

Nothing here imports pygame or GPIO; everything random comes from seeded numpy generators.
Import the stage you need (``from tablekit.sim.source import SimulatedCamera``): the
package itself loads nothing, so drawing a table does not load the flow the script needs.
"""
