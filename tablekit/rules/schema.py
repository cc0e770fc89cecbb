"""The declared schema of a rule set, checked by pydantic: every option's type and range,
and the relations between options. Every refusal is one line naming the option.

>>> from tablekit.rules.presets import TENHOU, rules_to_dict
>>> def refused(**options):
...     try:
...         check_rules({**rules_to_dict(TENHOU), **options}, "club.toml")
...     except RulesError as error:
...         return str(error)
>>> refused(uma=[50, 50, 50, 50])
'club.toml: uma must sum to 0 (oka comes from the return points), not +200'
>>> refused(honba_value=7)  # doctest: +ELLIPSIS
'club.toml: honba_value must be a multiple of 300 (three players pay a third ...), not 7'
>>> refused(uma=[True, False, False, False])
'club.toml: uma[0] must be a whole number, not True'

Text (names, titles, notes) is NFC-normalised; control and invisible format characters are
refused, since they would reach the terminal and the screen as they are:

>>> clean_text("Jose\\u0301")
'José'
>>> text_problem("Aki\\x1b[2J"), text_problem("Aki")
('a control character (U+001B)', None)
"""

from __future__ import annotations

import difflib
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    StrictBool,
    StrictInt,
    ValidationError,
    ValidationInfo,
    model_validator,
)
from pydantic_core import PydanticCustomError

from tablekit.errors import RulesError
from tablekit.untrusted.fields import (  # noqa: F401  (the names rules and roster use)
    POINTS_LIMIT,
    Points,
    Text,
    clean_text,
    text_problem,
)
from tablekit.untrusted.shapes import shown

Kazoe = Literal["yakuman", "sanbaiman"]
MultiRon = Literal["all", "double", "head_bump"]
Length = Literal["hanchan", "tonpuusen"]
Rounding = Literal["tenhou", "none"]
TsumoPayment = Literal["loss", "bisection", "full"]
North = Literal["kita", "yakuhai"]
COUNTS = {3: "three", 4: "four"}
# Options of three-player rules alone: a four-player rule set leaves them out (its journal
# and the options listed on a typo read as before; a near miss is still suggested).
THREE_PLAYER_OPTIONS = ("players", "tsumo_payment", "north")
REASONS = {("honba_value", 300): "three players pay a third each on a tsumo",
           ("noten_payment", 300): "it is shared among one, two or three players",
           ("honba_value", 200): "two players pay half each on a tsumo; Tenhou's is 200",
           ("noten_payment", 200): "it is shared among one or two; Tenhou's is 2,000"}



def in_payer_steps(value: int, info: ValidationInfo) -> int:
    """A value the tsumo payers share evenly: in 300s for four players, 200s for three."""
    step = 200 if info.data.get("players") == 3 else 300
    if value % step:
        raise PydanticCustomError("multiple_of", "not a multiple", {"multiple_of": step})
    return value


PayerPoints = Annotated[StrictInt, Field(ge=0, le=POINTS_LIMIT), AfterValidator(in_payer_steps)]


Uma = Annotated[StrictInt, Field(ge=-1000, le=1000)]  # thousands of points by place


class RulesSchema(BaseModel):
    """Every option of :class:`tablekit.rules.presets.Rules`: the whole set, not overrides."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    name: Text(60)
    title: Text(120)
    source: Text(300, shortest=0)
    players: Literal[3, 4] = 4  # before the options whose steps depend on it
    tsumo_payment: TsumoPayment | None = None
    north: North | None = None
    red_fives: StrictBool
    open_tanyao: StrictBool
    kiriage: StrictBool
    kazoe: Kazoe
    yakuman_stacking: StrictBool
    double_yakuman_hands: StrictBool
    double_wind_fu: Literal[2, 4]
    honba_value: PayerPoints
    noten_payment: PayerPoints
    riichi_deposit: Points(100)
    pao: StrictBool
    multi_ron: MultiRon
    multi_ron_honba: Literal["nearest", "each"]
    start_points: Points(100)
    return_points: Points(100)
    uma: Annotated[tuple[Uma, ...], Strict(False)]  # a TOML list will do; one per place
    final_rounding: Rounding
    tied_places_share: StrictBool
    busting: StrictBool
    length: Length
    agari_yame: StrictBool
    tenpai_yame: StrictBool
    sudden_death_extension: StrictBool
    leftover_sticks_to_first: StrictBool
    abortive_draws: StrictBool
    nagashi_mangan: StrictBool
    time_limit: Annotated[StrictInt, Field(ge=0, le=24 * 60)]  # minutes (0: none)
    end_of_time: Literal["finish_hand", "one_more_hand"]
    chombo: Literal["mangan", "penalty", "end_game"]
    chombo_penalty: Points()
    penalties_shared: StrictBool
    notes: Annotated[tuple[Text(1000), ...], Strict(False), Field(max_length=20)]

    @model_validator(mode="after")
    def _relations(self) -> RulesSchema:
        if self.return_points < self.start_points:
            raise ValueError(f"return_points ({self.return_points:,}) cannot be below "
                             f"start_points ({self.start_points:,})")
        self._three_players()
        if len(self.uma) != self.players:
            per_place = " (one per place with players = 3)" if self.players == 3 else ""
            raise ValueError(f"uma must be {COUNTS[self.players]} whole numbers{per_place}, "
                             f"not {shown(self.uma)}")
        if sum(self.uma):
            raise ValueError("uma must sum to 0 (oka comes from the return points), "
                             f"not {sum(self.uma):+d}")
        if list(self.uma) != sorted(self.uma, reverse=True):
            raise ValueError(f"uma must fall from first place to last, not {list(self.uma)}")
        return self

    def _three_players(self) -> None:
        """The sanma options: given with ``players = 3``, refused with four."""
        if self.players == 4:
            for option in ("tsumo_payment", "north"):
                if getattr(self, option) is not None:
                    raise ValueError(f"{option} is a three-player option: it needs "
                                     "players = 3 (or base = \"tenhou-sanma\")")
            return
        for option, values in (("tsumo_payment", '"loss", "bisection" or "full"'),
                               ("north", '"kita" or "yakuhai"')):
            if getattr(self, option) is None:
                raise ValueError(f"players = 3 needs {option} ({values}), or start from "
                                 "base = \"tenhou-sanma\"")


def check_rules(data: dict[str, Any], where: str) -> dict[str, Any]:
    """``data`` (every option) checked against :class:`RulesSchema`: the options cleaned,
    or :class:`RulesError`, one line naming the first option at fault."""
    try:
        return dict(RulesSchema.model_validate(data))
    except ValidationError as error:
        raise RulesError(f"{where}: {refusal(error.errors(include_url=False)[0])}") from None


def refusal(error: Any) -> str:
    """One pydantic error as a line that names the option and the value refused."""
    loc = error["loc"]
    field = str(loc[0]) + "".join(f"[{part}]" for part in loc[1:]) if loc else ""
    kind, value, ctx = error["type"], shown(error.get("input")), error.get("ctx", {})
    if kind == "value_error":
        reason = str(ctx.get("error", error["msg"]))
        return f"{field} {reason}" if field else reason
    if kind == "extra_forbidden":
        close = difflib.get_close_matches(field.lower(), RulesSchema.model_fields, 1, 0.7)
        hint = f"did you mean {close[0]}?" if close else "known: " + ", ".join(
            f for f in RulesSchema.model_fields if f not in THREE_PLAYER_OPTIONS)
        return f"unknown rule option {shown(field)} ({hint})"
    if loc[:1] == ("uma",) and len(loc) == 1:
        return f"uma must be four whole numbers, not {value}"
    if kind == "multiple_of":
        reason = REASONS.get((field, ctx["multiple_of"]))
        why = f" ({reason})" if reason else ""
        return f"{field} must be a multiple of {ctx['multiple_of']}{why}, not {value}"
    if kind == "greater_than_equal" and ctx["ge"] == 0:
        return f"{field} cannot be negative ({value})"
    phrases = {
        "bool_type": "must be bool (true or false)",
        "int_type": "must be a whole number",
        "string_type": "must be text in quotes",
        "tuple_type": "must be a list",
        "literal_error": f"must be one of {ctx.get('expected')}",
        "greater_than_equal": f"must be at least {ctx.get('ge')}",
        "less_than_equal": f"must be at most {ctx.get('le'):,}" if "le" in ctx else "",
        "string_too_short": "cannot be empty",
        "string_too_long": f"must be at most {ctx.get('max_length')} characters",
        "too_long": f"must have at most {ctx.get('max_length')} entries",
    }
    return f"{field} {phrases.get(kind, error['msg'].lower())}, not {value}"
