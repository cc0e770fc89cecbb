"""The rules a Tenhou lobby played by, read from its ``GO type`` bit field.

Standard lobbies play the ``tenhou`` preset, three-player ones (bit 0x10) ``tenhou-sanma``.
Some special lobbies set higher bits; the ones seen in the records are mapped here from
their recorded payments (a bit whose effect is not known is refused rather than guessed).

>>> lobby_rules(169).name, lobby_rules(169).length
('tenhou', 'hanchan')
>>> lobby_rules(553).kiriage
True
>>> lobby_rules(1569).honba_value
1500
>>> sanma = lobby_rules(0xB9)  # the three-player bit 0x10: Tenhou's sanma lobbies
>>> sanma.name, sanma.players, sanma.length
('tenhou-sanma', 3, 'hanchan')
"""

from __future__ import annotations

from tablekit.errors import RulesError
from tablekit.formats.mjlog import SANMA
from tablekit.rules.presets import TENHOU, TENHOU_SANMA, Rules, with_options

NO_RED_FIVES = 0x02
NO_OPEN_TANYAO = 0x04
HANCHAN = 0x08
KNOWN_LOW_BITS = 0xFF
KIRIAGE = 0x200
HONBA_1500 = 0x400
# Seen in records, no effect on any recorded payment.
NO_PAYMENT_EFFECT = 0x100 | 0x800


def lobby_rules(go_type: int) -> Rules:
    """The :class:`Rules` for a game of this ``GO type``: ``tenhou``, or ``tenhou-sanma``
    when the three-player bit is set, with the lobby's options."""
    unknown = go_type & ~(KNOWN_LOW_BITS | KIRIAGE | HONBA_1500 | NO_PAYMENT_EFFECT)
    if unknown:
        raise RulesError(f"Tenhou lobby type {go_type:#x} has rule bits {unknown:#x} "
                         "whose effect is not known")
    options: dict[str, object] = {"length": "hanchan" if go_type & HANCHAN else "tonpuusen"}
    if go_type & (KIRIAGE | HONBA_1500 | NO_PAYMENT_EFFECT):
        options["name"] = f"tenhou-{go_type:#x}"
        options["title"] = f"Tenhou special lobby {go_type:#x}"
    if go_type & KIRIAGE:
        options["kiriage"] = True
    if go_type & HONBA_1500:
        options["honba_value"] = 1500
    if go_type & NO_RED_FIVES:
        options["red_fives"] = False
    if go_type & NO_OPEN_TANYAO:
        options["open_tanyao"] = False
    return with_options(TENHOU_SANMA if go_type & SANMA else TENHOU, **options)
