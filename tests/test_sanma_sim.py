"""The simulated table for three players (sanma): three hands and ponds, the 108 tiles'
wall, and each seat's Norths set aside (kita) face up to the right of its hand."""

from __future__ import annotations

from collections import Counter

import numpy as np
from conftest import FIXTURES

from tablekit.formats.tenhou import import_file
from tablekit.game.events import Kita
from tablekit.sim.scene import Jitter, build_scene
from tablekit.sim.table import table_view
from tablekit.vision.layout import table_to_seat

GAME = FIXTURES / "mjlog" / "sanma-2022010814gm-00b9-0000-c378f5c4.xml"


def game():
    return import_file(GAME, three_players=True)


def first_kita(imported):
    return next((h, i) for h, hand in enumerate(imported.hands)
                for i, e in enumerate(hand.events) if isinstance(e, Kita))


def test_a_north_set_aside_leaves_its_players_hand():
    imported = game()
    hand, index = first_kita(imported)
    seat = imported.hands[hand].events[index].seat
    before = table_view(imported, hand, index)  # the North drawn, not yet set aside
    after = table_view(imported, hand, index + 1)
    held = Counter(before.concealed[seat]) + Counter([before.drawn[seat]])
    assert sum(t.kind == 30 for t in held.elements()) >= 1
    assert len(after.concealed) == 3 and len(after.concealed[seat]) == 13
    assert after.drawn[seat] is None and after.state.seats[seat].kita == 1
    assert table_view(imported, hand, 1).live_taken == 39  # three hands of 13 dealt


def test_the_deal_of_three_places_108_tiles_and_no_fourth_hand():
    scene = build_scene(table_view(game(), 0, 1), Jitter(np.random.default_rng(1)))
    assert len(scene.tiles) == 108
    assert {t.seat for t in scene.tiles if t.zone == "hand"} == {0, 1, 2}
    counts = Counter(t.code for t in scene.tiles if t.code)
    assert max(counts.values()) <= 4


def test_kita_lie_face_up_to_the_right_of_their_owners_hand():
    imported = game()
    hand = first_kita(imported)[0]
    view = table_view(imported, hand, len(imported.hands[hand].events))
    scene = build_scene(view, Jitter(np.random.default_rng(2)))
    kita = [t for t in scene.tiles if t.zone == "kita"]
    assert Counter(t.seat for t in kita) == Counter(
        {s: seat.kita for s, seat in enumerate(view.state.seats) if seat.kita})
    assert kita and all(t.code == "4z" and t.posture == "up" for t in kita)
    for tile in kita:
        x = table_to_seat(tile.seat, tile.x, tile.y)[0]
        hand_xs = [table_to_seat(t.seat, t.x, t.y)[0] for t in scene.tiles
                   if t.zone == "hand" and t.seat == tile.seat]
        assert x > max(hand_xs)


def test_the_player_setting_a_north_aside_reaches_for_its_kita():
    from tablekit.sim.script import Script, actor_of
    from tablekit.sim.source import reach_target

    assert actor_of(Kita(2)) == 2
    script = Script.from_game(game())
    index = next(i for i, m in enumerate(script.moments) if isinstance(m.event, Kita))
    moment = script.moments[index]
    scene = build_scene(script.view(index), Jitter(np.random.default_rng(3)))
    kita = [t for t in scene.tiles if t.zone == "kita" and t.seat == moment.actor]
    assert reach_target(scene, moment) == (kita[-1].x, kita[-1].y)
