"""The scoreboard: pygame-ce screens drawn from a :class:`~tablekit.display.model.ScreenModel`.

Only this package imports pygame, and this ``__init__`` does not, so the app can build
screen models without a display. Draw a model with :func:`tablekit.display.render.render`
onto any Surface, or show it through a back end (:mod:`tablekit.display.backends`): a window,
KMSDRM full screen on the Pi, or PNG files.
"""

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
