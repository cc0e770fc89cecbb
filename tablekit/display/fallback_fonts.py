"""System fonts for the characters the bundled font lacks: players' names can be in any script.

The bundled font (pygame's freesansbold) draws Latin, Greek and Cyrillic. A character it
lacks (a Japanese, Chinese or Korean name, say) is drawn with the first installed font that
has it, found once with pygame's sysfont over known families, the CJK ones first: Noto Sans
CJK (the Debian and Raspberry Pi OS package ``fonts-noto-cjk``), Source Han Sans, Droid Sans
Fallback, IPAGothic and others; then broad ones (Noto Sans, DejaVu Sans, Unifont). When no
installed font has a character it is drawn as it is (a box), and the log says once which
package to install; so does ``tablekit doctor``.

>>> lacking("Zoë Ana-Maria", BUNDLED)
''
>>> lacking("麻雀 Aki", BUNDLED)
'麻雀'
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from contextlib import suppress
from functools import cache

import pygame

PACKAGE = "fonts-noto-cjk"
CJK_FAMILIES = (  # pygame's names: lower case, no spaces
    "notosanscjkjp", "notosanscjk", "notosanscjksc", "notosanscjktc", "notosanscjkkr",
    "sourcehansansjp", "sourcehansans", "droidsansfallback", "ipagothic", "ipapgothic",
    "takaogothic", "vlgothic", "wenquanyizenhei", "wenquanyimicrohei", "nanumgothic")
BROAD_FAMILIES = ("notosans", "dejavusans", "freesans", "unifont")
CJK_FILES = (  # where Debian and Raspberry Pi OS put them, should fontconfig be missing
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf")
BUNDLED = os.path.join(os.path.dirname(pygame.__file__), pygame.font.get_default_font())
NOTE = (f"some name has characters no installed font draws (shown as boxes): sudo apt "
        f"install {PACKAGE} for Japanese, Chinese and Korean names")

_drawn: dict[str, dict[str, bool]] = {}   # font file -> character -> whether it draws it
_noted: list[str] = []                    # the note, once written


def lacking(text: str, path: str) -> str:
    """The characters of ``text`` (each once, in order) that the font file ``path`` does not
    draw. A font that cannot be asked (no FreeType, a broken file) draws none of them, but
    the bundled one draws them all (as it did before there were fallback fonts)."""
    if text.isascii() and path == BUNDLED:
        return ""
    known = _drawn.setdefault(path, {})
    new = "".join(dict.fromkeys(c for c in text if c not in known))
    if new:
        metrics = _metrics(path, new)
        if metrics is None:   # cannot be asked
            metrics = [() if path == BUNDLED else None] * len(new)
        known.update((c, m is not None) for c, m in zip(new, metrics, strict=True))
    return "".join(dict.fromkeys(c for c in text if not known[c] and c.isprintable()))


def _metrics(path: str, text: str) -> list | None:
    """FreeType's metrics of each character of ``text`` in ``path`` (None: one it lacks);
    None when FreeType or the file cannot be used."""
    try:
        import pygame.freetype as freetype

        if not freetype.get_init():
            freetype.init()
        return freetype.Font(path, 12).get_metrics(text)
    except (ImportError, OSError, pygame.error):
        return None


def fallback_fonts() -> tuple[str, ...]:
    """The installed fonts to draw what the bundled font lacks, in the order tried."""
    return installed(CJK_FAMILIES + BROAD_FAMILIES, CJK_FILES)


def cjk_font() -> str | None:
    """The first installed font for Japanese and Chinese names (None: none is)."""
    found = installed(CJK_FAMILIES, CJK_FILES)
    return next((path for path in found if not lacking("麻雀ふ", path)), None)


@cache
def installed(families: Sequence[str], files: Sequence[str] = ()) -> tuple[str, ...]:
    """The files of ``families`` that pygame's sysfont finds (the bold face where there is
    one), then those of ``files`` that exist; each once."""
    found = []
    for family in families:
        with suppress(Exception):  # sysfont asks fontconfig: missing, it finds nothing
            found.append(pygame.font.match_font(family, bold=True))
    found.extend(path for path in files if os.path.isfile(path))
    return tuple(dict.fromkeys(path for path in found if path))


def font_of(character: str, fonts: Sequence[str]) -> int:
    """Which font draws ``character``: 0 the bundled one, N ``fonts[N - 1]``; a character
    none draws is the bundled font's (a box), and the log says once what to install."""
    if not lacking(character, BUNDLED):
        return 0
    for index, path in enumerate(fonts, 1):
        if not lacking(character, path):
            return index
    note()
    return 0


def note() -> None:
    """Say once in the log (standard error) which package draws the names."""
    if not _noted:
        _noted.append(NOTE)
        with suppress(OSError, ValueError):
            print(f"tablekit: fonts: {NOTE}", file=sys.stderr, flush=True)


def synthetic_bold(path: str) -> bool:
    """Whether the font file ``path`` is no bold face (it is drawn emboldened, as the
    bundled font is bold).

    >>> synthetic_bold("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc")
    False
    """
    return "bold" not in os.path.basename(path).lower()
