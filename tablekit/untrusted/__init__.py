"""Everything that comes from outside tablekit passes through here first: MQTT payloads,
outbox files, recordings, plans, rosters, journals and rules files.

- :mod:`~tablekit.untrusted.json_text` parses JSON with a size and a depth bound, and with no
  NaN or Infinity, in one place.
- :mod:`~tablekit.untrusted.files` opens a file only if it is a regular file, reads it with a
  size bound, and never follows a symlink out of a folder it was asked to stay in.
- :mod:`~tablekit.untrusted.fields` holds the pydantic field types with their limits (text,
  points), shared by the rules' schema and every payload's model.
- :mod:`~tablekit.untrusted.wire` holds the models of what the club's tables send (a live
  state, a finished game and its events, an outbox file), built from those field types.
- :mod:`~tablekit.untrusted.names` finds names that look alike ("Аki" with a Cyrillic "А"
  and "Aki"): a warning, not a refusal.

A refusal is an :class:`Untrusted` error: one line, never a traceback.
"""

from tablekit.errors import TablekitError


class Untrusted(TablekitError, ValueError):
    """Input from outside that is refused: too large, too deep, not a regular file, not
    the shape expected. Its text is one line saying why."""
