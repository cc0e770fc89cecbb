"""Recordings of games (docs/recordings.md): a folder of plain files that a game played
through the app's loop leaves behind (:mod:`tablekit.recording.recorder`) and that plays
back through the same loop (:mod:`tablekit.recording.play`). The frames themselves are
written and read by :mod:`tablekit.vision.frame_log`."""
