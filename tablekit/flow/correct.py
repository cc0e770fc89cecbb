"""A registered tile put right from the menu without undoing what came after it: whose
tile (a seat, or the dora indicators), which one (a discard, a meld, an indicator), its
suit, the tile it really is. Each step is a menu of its own (the same buttons); the last
submits the correction, one action (UNDO takes it back).

The step is the item's argument: ``""`` (whose), ``"seat:2"`` or ``"dora"`` (which tile),
then the tile's place (``"d:SEAT:INDEX"`` a discard, ``"m:SEAT:MELD:TILE"`` a meld's tile,
TILE -1 a pon or kan whole, ``"i:INDEX"`` an indicator), then ``"|SUIT"`` and ``"|CODE"``.

>>> from tablekit.game.events import Discard, Draw, GameStarted, HandStarted
>>> from tablekit.game.reducer import replay
>>> state = replay([GameStarted(), HandStarted(Tile.from_code("1m")), Draw(0),
...                 Discard(0, Tile.from_code("1z"))])
>>> [item.label for item in step(state, "")]
['Back', 'East: 1 discard', 'Dora indicators: 1m']
>>> [item.label for item in step(state, "seat:0")]
['Back', "East's 1st discard: 1z"]
>>> [item.label for item in step(state, "d:0:0")]
['Back', 'man (m)', 'pin (p)', 'sou (s)', 'honours (z)']
>>> [item.label for item in step(state, "d:0:0|z")][:3]
['Back', '1z East', '2z South']
>>> correction(state, "d:0:0|2z")
DiscardCorrected(seat=0, index=0, tile=Tile('2z'))
"""

from __future__ import annotations

from tablekit.flow.menu import Action, MenuItem
from tablekit.game.events import DiscardCorrected, DoraCorrected, Event, MeldCorrected
from tablekit.game.state import TableState, ordinal, seat_name
from tablekit.rules.hand import Meld
from tablekit.tiles import Tile, to_mpsz

SUITS = {"m": "man (m)", "p": "pin (p)", "s": "sou (s)", "z": "honours (z)"}
HONOURS = ("East", "South", "West", "North", "White", "Green", "Red")
BACK = MenuItem("Back", Action.CLOSE)


def title(state: TableState, argument: str) -> str:
    """The submenu's title for a step."""
    place, _, suit = argument.partition("|")
    if not place:
        return "Put right: whose tile?"
    if place == "dora" or place.startswith("seat:"):
        return "Put right: which tile?"
    return f"{where(state, place)} is really" + (":" if suit else " (suit)?")


def step(state: TableState, argument: str) -> tuple[MenuItem, ...]:
    """The items of the step ``argument`` names (the last step submits, has none)."""
    place, _, suit = argument.partition("|")
    if not place:
        return (BACK, *_whose(state))
    if place == "dora":
        return (BACK, *(MenuItem(f"Dora indicator {i + 1}: {tile.code}", Action.CORRECT,
                                 f"i:{i}") for i, tile in enumerate(state.dora)))
    if place.startswith("seat:"):
        return (BACK, *_tiles(state, int(place.removeprefix("seat:"))))
    if not suit:
        return (BACK, *(MenuItem(label, Action.CORRECT, f"{place}|{s}")
                        for s, label in SUITS.items()))
    return (BACK, *(MenuItem(_tile_label(tile), Action.CORRECT, f"{place}|{tile.code}")
                    for tile in _suit_tiles(suit)))


def correction(state: TableState, argument: str) -> Event:
    """The correction the last step chose (``PLACE|CODE``)."""
    place, _, code = argument.partition("|")
    tile = Tile.from_code(code)
    kind, *numbers = place.split(":")
    at = [int(n) for n in numbers]
    if kind == "d":
        return DiscardCorrected(at[0], at[1], tile)
    if kind == "i":
        return DoraCorrected(at[0], tile)
    seat, number, index = at
    tiles = state.seats[seat].melds[number].tiles
    if index < 0:  # a pon or kan: all alike, one of them red when a red five is chosen
        return MeldCorrected(seat, number, (tile, *(tile.plain,) * (len(tiles) - 1)))
    return MeldCorrected(seat, number, (*tiles[:index], tile, *tiles[index + 1:]))


def is_last(argument: str) -> bool:
    """Whether the step ``argument`` names a tile chosen (the correction to submit)."""
    return argument.count("|") == 1 and len(argument.partition("|")[2]) == 2


def where(state: TableState, place: str) -> str:
    """A tile's place as players say it: ``South's 3rd discard``, ``West's pon 111z``."""
    kind, *numbers = place.split(":")
    at = [int(n) for n in numbers]
    if kind == "i":
        return f"dora indicator {at[0] + 1}"
    who = seat_name(state, at[0])
    if kind == "d":
        return f"{who}'s {ordinal(at[1] + 1)} discard"
    meld = state.seats[at[0]].melds[at[1]]
    return f"{who}'s {_meld_label(meld)}" + ("" if at[2] < 0 else f" tile {at[2] + 1}")


def _whose(state: TableState) -> list[MenuItem]:
    items = []
    for seat in range(state.players):
        lying = sum(1 for p in state.seats[seat].pond if not p.claimed)
        melds = len(state.seats[seat].melds)
        if lying or melds:
            parts = [_count(lying, "discard")] if lying else []
            parts += [_count(melds, "meld")] if melds else []
            items.append(MenuItem(f"{seat_name(state, seat)}: {', '.join(parts)}",
                                  Action.CORRECT, f"seat:{seat}"))
    if state.dora:
        items.append(MenuItem(f"Dora indicators: {to_mpsz(state.dora)}", Action.CORRECT,
                              "dora"))
    return items


def _tiles(state: TableState, seat: int) -> list[MenuItem]:
    who = seat_name(state, seat)
    items = [MenuItem(f"{who}'s {ordinal(i + 1)} discard: {p.tile.code}", Action.CORRECT,
                      f"d:{seat}:{i}")
             for i, p in enumerate(state.seats[seat].pond) if not p.claimed]
    for number, meld in enumerate(state.seats[seat].melds):
        if meld.kind == "chi":
            items += [MenuItem(f"{who}'s {_meld_label(meld)}: {tile.code}", Action.CORRECT,
                               f"m:{seat}:{number}:{i}") for i, tile in enumerate(meld.tiles)]
        else:
            items.append(MenuItem(f"{who}'s {_meld_label(meld)}", Action.CORRECT,
                                  f"m:{seat}:{number}:-1"))
    return items


def _meld_label(meld: Meld) -> str:
    return f"{meld.kind} {to_mpsz(meld.tiles)}"


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _suit_tiles(suit: str) -> list[Tile]:
    if suit == "z":
        return [Tile.from_code(f"{n}z") for n in range(1, 8)]
    return [Tile.from_code(f"{n}{suit}") for n in (1, 2, 3, 4, 5, 0, 6, 7, 8, 9)]


def _tile_label(tile: Tile) -> str:
    if tile.kind >= 27:
        return f"{tile.code} {HONOURS[tile.kind - 27]}"
    return f"{tile.code} (red five)" if tile.red else tile.code
