"""Rules: presets, hand scoring (around the ``mahjong`` package) and payments.

Pure Python: nothing here imports OpenCV, GPIO or pygame.
"""

from tablekit.rules.hand import Meld, Win
from tablekit.rules.payments import Claim, Payment, hand_payment, settle_ron, settle_win
from tablekit.rules.presets import (
    EMA2016,
    PRESETS,
    TENHOU,
    TENHOU_SANMA,
    WRC2025,
    Rules,
    load_rules,
    with_options,
)
from tablekit.rules.scoring import HandValue, YakuItem, score_hand

__all__ = [
    "EMA2016", "PRESETS", "TENHOU", "TENHOU_SANMA", "WRC2025", "Claim", "HandValue", "Meld",
    "Payment", "Rules", "Win", "YakuItem", "hand_payment", "load_rules", "score_hand",
    "settle_ron", "settle_win", "with_options",
]
