"""Writing the table's own files so that a power cut, a full card or a crash at any moment
leaves either the old file or the new one, never half of one (:mod:`tablekit.files.atomic`).

Standard library only, at the bottom of tablekit: every layer (the game, perception, the
club, the flow, recordings) may import it, and it imports none of them."""
