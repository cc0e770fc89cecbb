"""The app's flow: an explicit state machine from button presses and camera events to
engine events, and to the screen the display draws.

Stages (pibooth's states: an Enum names them, and the flow is at one frozen value per
stage holding only that stage's data, :mod:`~tablekit.flow.stages`): between hands, in
play, collecting wins (a short window so that simultaneous WIN presses make a multiple
ron), entering a value by hand (no camera), choosing who dealt in (no camera), confirming
a win, tenpai declarations, the menu, and the final standings. Points never move before
OK: a win is scored on a copy of the state and shown first.

Buttons: RIICHI declares riichi; WIN claims ron, held WIN is tsumo; CALL held shows
the seat's point differences; OK starts a hand, confirms, or (at an empty wall, or
without a camera) opens the tenpai declarations; UNDO takes back the last action (a
discard with its draw, a call, a win with its corrections, a draw with its tenpai
declarations), held UNDO opens the menu. On a win read by the camera, CALL opens the
tiles to be put right by hand (:mod:`tablekit.flow.tile_fix`): RIICHI moves, CALL and WIN
change the tile; held CALL enters the han and fu by hand instead.

Three players (sanma) press three of the four seat boxes (:mod:`~tablekit.flow.boxes`:
East, South and West unless ``tablekit run --seat-boxes`` says otherwise); without a
camera CALL sets a North aside (kita, an action of its own), with one the camera sees it.

The camera may lag the buttons: the discard a WIN claims may arrive in the WIN window,
the turns before a tsumo while it waits for OK, and OK declares the draw while the
camera still counts a few tiles in the wall (its last discards missed; shown).

The pieces: :mod:`~tablekit.flow.model` (the flow's value, the table as a handler reads it,
the effects: the flow as a reducer, like the engine), :mod:`~tablekit.flow.core` (the
:class:`Flow`, the shell that runs the handlers of its table and their effects),
:mod:`~tablekit.flow.screen` (the screen, a function of the value),
:mod:`~tablekit.flow.stages` (where the flow is, as frozen data) and
:mod:`~tablekit.flow.pending` (the presses waiting for the camera), :mod:`~tablekit.flow.steps`
(what the handlers share),
:mod:`~tablekit.flow.play` (outside a win), :mod:`~tablekit.flow.claims`,
:mod:`~tablekit.flow.confirm` and :mod:`~tablekit.flow.by_hand` (a win, held in one
:class:`~tablekit.flow.win.WinInProgress`), :mod:`~tablekit.flow.menu`,
:mod:`~tablekit.flow.camera_side` (all the flow asks of the camera) and
:mod:`~tablekit.flow.saved` (what survives a power cut beside the journal).
"""

from tablekit.flow.camera_side import CameraSide
from tablekit.flow.core import HANDLERS, Flow
from tablekit.flow.menu import Action, MenuItem, abort_item, menu_items
from tablekit.flow.stage import (
    CATCH_UP_WAIT,
    DIFFERENCES_SHOWN,
    MISSED_AT_END,
    REREAD,
    SETTLE,
    WIN_WINDOW,
    Stage,
)
from tablekit.flow.win import FU_STEPS, HAN_STEPS, Entry, WinInProgress

__all__ = [
    "CATCH_UP_WAIT", "DIFFERENCES_SHOWN", "FU_STEPS", "HANDLERS", "HAN_STEPS", "MISSED_AT_END",
    "REREAD", "SETTLE", "WIN_WINDOW", "Action", "CameraSide", "Entry", "Flow", "MenuItem",
    "Stage", "WinInProgress", "abort_item", "menu_items",
]
