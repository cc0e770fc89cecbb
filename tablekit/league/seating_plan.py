"""A tournament's seating plan: who plays at which table in each round, and in which wind.

Players are numbers ``0 .. P-1`` here (the command puts names on them); a plan is a list of
rounds, each a list of tables of four, each in seat order East, South, West, North.

>>> plan = seating_plan(16, 5, seed=1)
>>> repeated_pairs(plan), lower_bound(16, 5), wind_imbalance(plan)
(0, 0, 1)
>>> sorted(p for table in plan[0] for p in table) == list(range(16))
True

No pair meets twice where a construction gives such a plan (:func:`constructed`); otherwise a
seeded local search brings the repeats down towards :func:`lower_bound`, and
:func:`seat_winds` seats each table so that every player's wind counts differ by one at most.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import cache
from itertools import combinations, product

from tablekit.league.roster import SEATS

Table = tuple[int, ...]
Plan = list[list[Table]]

STEPS = 300_000  # steps of the search at most
HOT, COOL = 3.0, 0.2  # the search's temperature at its start and at its end
WEIGHT = 8  # a repeated pair costs this much more than the pairs' spread (C(m, 2)) counts


def lower_bound(players: int, rounds: int) -> int:
    """The fewest repeated pairs any plan can have, the larger of two counts.

    Each player meets three others a round, ``3 * rounds`` over the plan among
    ``players - 1``: at least ``3 * rounds - (players - 1)`` of them again, each repeat
    counted by both of its players. And with fewer than four tables a round, every table of
    a later round holds two players who shared a table in the first round (four players
    from at most three tables), so each later round brings at most ``6 - shared`` new pairs
    a table, ``shared`` being the fewest such pairs (1 with three tables, 2 with two, 6 with
    one).

    >>> lower_bound(16, 5), lower_bound(12, 3), lower_bound(12, 4), lower_bound(24, 8)
    (0, 6, 9, 12)
    """
    each = max(0, (SEATS - 1) * rounds - (players - 1))
    tables = players // SEATS
    pairs = SEATS * (SEATS - 1) // 2  # at a table
    shared = {1: 6, 2: 2, 3: 1}.get(tables, 0)
    fresh = min(players * (players - 1) // 2, tables * (pairs + (rounds - 1) * (pairs - shared)))
    return max((players * each + 1) // 2, tables * pairs * rounds - fresh)


def repeated_pairs(plan: Plan) -> int:
    """How many times pairs meet again: a pair that sits together ``m`` times counts ``m - 1``.

    >>> repeated_pairs([[(0, 1, 2, 3)], [(0, 1, 2, 3)], [(3, 2, 1, 0)]])
    12
    """
    met: set[tuple[int, int]] = set()
    meetings = 0
    for table in (table for round_ in plan for table in round_):
        for pair in combinations(sorted(table), 2):
            met.add(pair)
            meetings += 1
    return meetings - len(met)


def wind_counts(plan: Plan, players: int) -> list[tuple[int, int, int, int]]:
    """Each player's count of rounds in East, South, West and North.

    >>> wind_counts([[(0, 1, 2, 3)], [(1, 2, 3, 0)]], 4)[0]
    (1, 0, 0, 1)
    """
    counts = [[0] * SEATS for _ in range(players)]
    for table in (table for round_ in plan for table in round_):
        for seat, player in enumerate(table):
            counts[player][seat] += 1
    return [(c[0], c[1], c[2], c[3]) for c in counts]


def wind_imbalance(plan: Plan) -> int:
    """The largest difference between a player's most and least played wind."""
    players = sum(len(table) for table in plan[0]) if plan else 0
    return max((max(c) - min(c) for c in wind_counts(plan, players)), default=0)


def seating_plan(players: int, rounds: int, seed: int = 0, steps: int | None = None) -> Plan:
    """A plan for ``players`` (a multiple of four) over ``rounds`` rounds: constructed when
    a construction reaches that many rounds without a repeated pair, else searched (``steps``
    steps at most, by default 2,000 per player and round up to ``STEPS``; the same seed,
    the same plan), then seated by :func:`seat_winds`.

    >>> plan = seating_plan(12, 4, seed=3, steps=2000)
    >>> len(plan), [len(round_) for round_ in plan], repeated_pairs(plan) >= lower_bound(12, 4)
    (4, [3, 3, 3, 3], True)
    """
    if players < SEATS or players % SEATS or rounds < 1:
        raise ValueError(f"no plan for {players} players over {rounds} rounds")
    rng = random.Random(seed)
    built = constructed(players)
    if rounds <= len(built):
        chosen = rng.sample(range(len(built)), rounds)  # the seed picks which classes
        plan = [list(built[i]) for i in sorted(chosen)]
    else:
        plan = [list(round_) for round_ in built]
        while len(plan) < rounds:
            order = rng.sample(range(players), players)
            plan.append([tuple(order[i:i + SEATS]) for i in range(0, players, SEATS)])
        budget = steps if steps is not None else min(STEPS, 2000 * rounds * players)
        plan = _search(plan, players, rng, budget, lower_bound(players, rounds))
    return seat_winds(plan)


# --- constructions ---------------------------------------------------------------------------

def _prime_power(q: int) -> tuple[int, int] | None:
    """``(p, k)`` with ``q == p ** k`` for a prime ``p``, or None.

    >>> _prime_power(9), _prime_power(6), _prime_power(2)
    ((3, 2), None, (2, 1))
    """
    p = next((d for d in range(2, q + 1) if q % d == 0), None)
    if p is None:
        return None
    k, rest = 0, q
    while rest % p == 0:
        rest, k = rest // p, k + 1
    return (p, k) if rest == 1 else None


@cache
def field(q: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]] | None:
    """The addition and multiplication tables of GF(q), its elements numbered ``0 .. q-1``
    (the base-p digits of a number are its polynomial's coefficients), or None when ``q`` is
    not a prime power. The modulus is the first monic polynomial of degree ``k`` whose
    quotient ring has no zero divisors, that is an irreducible one.

    >>> add, mul = field(4)
    >>> mul[2][2], mul[2][3], add[2][3]
    (3, 1, 1)
    """
    found = _prime_power(q)
    if found is None:
        return None
    p, k = found

    def digits(n: int) -> list[int]:
        return [n // p ** i % p for i in range(k)]

    def number(coefficients: Sequence[int]) -> int:
        return sum(c * p ** i for i, c in enumerate(coefficients))

    add = tuple(tuple(number([(x + y) % p for x, y in zip(digits(a), digits(b), strict=True)])
                      for b in range(q)) for a in range(q))
    for modulus in product(range(p), repeat=k):  # x**k + modulus[k-1] x**(k-1) + ... + modulus[0]
        def times(a: int, b: int, modulus: tuple[int, ...] = modulus) -> int:
            product_ = [0] * (2 * k - 1)
            for i, x in enumerate(digits(a)):
                for j, y in enumerate(digits(b)):
                    product_[i + j] += x * y
            for top in range(2 * k - 2, k - 1, -1):  # x**top = -modulus . x**(top-k)
                carry, product_[top] = product_[top], 0
                for i, c in enumerate(modulus):
                    product_[top - k + i] -= carry * c
            return number([c % p for c in product_[:k]])

        mul = tuple(tuple(times(a, b) for b in range(q)) for a in range(q))
        if all(mul[a][b] for a in range(1, q) for b in range(1, q)):
            return add, mul
    raise AssertionError(f"no irreducible polynomial of degree {k} over GF({p})")


@cache
def constructed(players: int) -> tuple[tuple[Table, ...], ...]:
    """Rounds in which no pair meets twice, as many as a construction gives for ``players``
    (a multiple of four; at least the one round that splits them in order).

    For ``players == 4q`` with ``q`` a prime power of at least 4, the resolvable transversal
    design over GF(q): player ``(g, x)`` (number ``g*q + x``, ``g`` in 0..3) sits in round
    ``a`` at table ``b`` with the player ``(h, a*h + b)`` of each other group ``h``; two
    players of different groups meet once, those of one group never, which ``q`` more
    rounds, the groups' own plans side by side, then use. For 16 players this is the affine
    plane of order 4: its lines of slope ``a`` and its vertical lines are the 5 rounds.

    >>> [len(constructed(n)) for n in (4, 8, 12, 16, 20, 24, 28, 32, 36, 64)]
    [1, 1, 1, 5, 5, 1, 7, 9, 9, 21]
    >>> constructed(16)[4]
    ((0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11), (12, 13, 14, 15))
    """
    split = ((tuple(tuple(range(i, i + SEATS)) for i in range(0, players, SEATS)),))
    q, tables = divmod(players, SEATS)
    tables_ = field(q) if q >= SEATS and not tables else None
    if tables_ is None:
        return split
    add, mul = tables_
    design = tuple(tuple(tuple(g * q + add[mul[a][g]][b] for g in range(SEATS))
                         for b in range(q)) for a in range(q))
    inner = constructed(q) if q % SEATS == 0 else ()
    groups = tuple(tuple(tuple(g * q + p for p in table) for g in range(SEATS)
                         for table in round_) for round_ in inner)
    return design + groups


# --- local search ----------------------------------------------------------------------------

class _Meetings:
    """The plan being searched: its tables, who sits where, how often each pair meets, and
    the pairs that meet more than once (a list to draw from, kept as pairs change)."""

    def __init__(self, plan: Plan, players: int) -> None:
        self.tables = [[list(table) for table in round_] for round_ in plan]
        self.where = [[0] * players for _ in plan]
        self.meet = [[0] * players for _ in range(players)]
        self.again: list[tuple[int, int]] = []
        self.slot: dict[tuple[int, int], int] = {}
        self.repeats = 0
        for r, round_ in enumerate(self.tables):
            for i, table in enumerate(round_):
                for a in table:
                    self.where[r][a] = i
                for a, b in combinations(table, 2):
                    self._change(a, b, +1)

    def _change(self, a: int, b: int, by: int) -> None:
        pair = (a, b) if a < b else (b, a)
        before = self.meet[a][b]
        after = self.meet[a][b] = self.meet[b][a] = before + by
        self.repeats += max(0, after - 1) - max(0, before - 1)
        if before < 2 <= after:
            self.slot[pair] = len(self.again)
            self.again.append(pair)
        elif after < 2 <= before:
            last = self.again.pop()
            if last != pair:
                self.again[self.slot[pair]] = last
                self.slot[last] = self.slot[pair]
            del self.slot[pair]

    def swap(self, r: int, a: int, b: int) -> None:
        """``a`` and ``b`` change tables in round ``r``."""
        i, j = self.where[r][a], self.where[r][b]
        here, there = self.tables[r][i], self.tables[r][j]
        for x in here:
            if x != a:
                self._change(a, x, -1)
                self._change(b, x, +1)
        for y in there:
            if y != b:
                self._change(b, y, -1)
                self._change(a, y, +1)
        here[here.index(a)], there[there.index(b)] = b, a
        self.where[r][a], self.where[r][b] = j, i

    def plan(self) -> Plan:
        return [[tuple(table) for table in round_] for round_ in self.tables]


def _search(plan: Plan, players: int, rng: random.Random, steps: int, floor: int) -> Plan:
    """Fewer repeated pairs by swaps of two players between tables of one round, simulated
    annealing: each step takes a pair that meets again, a round where it sits together, one
    of the two and a player at another table of that round, and swaps them when that costs
    nothing, or with a chance that shrinks with its cost and as the search cools. It stops
    at ``floor`` repeats or after ``steps`` steps (a step costs about the same whatever the
    plan's size) and ends on the best plan seen, the swaps made after it undone."""
    state = _Meetings(plan, players)
    meet, tables, where = state.meet, state.tables, state.where
    most = len(tables) + 2
    cost_of = [WEIGHT * max(0, m - 1) + m * (m - 1) // 2 for m in range(most)]
    up = [cost_of[m + 1] - cost_of[m] for m in range(most - 1)]
    down = [0] + [cost_of[m - 1] - cost_of[m] for m in range(1, most)]
    best, since = state.repeats, []  # the fewest repeats seen, the swaps made since
    for step in range(steps):
        if best <= floor:
            break
        x, y = state.again[rng.randrange(len(state.again))]
        r = rng.choice([r for r in range(len(tables)) if where[r][x] == where[r][y]])
        a, b = (x if rng.random() < 0.5 else y), rng.randrange(players)
        if where[r][b] == where[r][a]:
            continue
        here, there = tables[r][where[r][a]], tables[r][where[r][b]]
        change = (sum(down[meet[a][p]] + up[meet[b][p]] for p in here if p != a)
                  + sum(down[meet[b][p]] + up[meet[a][p]] for p in there if p != b))
        heat = HOT * (COOL / HOT) ** (step / steps)
        if change <= 0 or rng.random() < math.exp(-change / heat):
            state.swap(r, a, b)
            since.append((r, a, b))
            if state.repeats < best:
                best, since = state.repeats, []
    for r, a, b in reversed(since):  # back to the best plan: a swap undoes itself
        state.swap(r, a, b)
    return state.plan()


# --- winds -----------------------------------------------------------------------------------

def seat_winds(plan: Plan) -> Plan:
    """The same tables, each in the order East, South, West, North, so that each player's
    counts of the four winds differ by one at most (by none when the rounds are a multiple
    of four).

    It is de Werra's equitable edge colouring of a bipartite graph: each table of each round
    is a vertex joined to its four players; each player is split into one vertex per four
    rounds, so every vertex has four edges at most, and König's proper colouring in four
    colours (an edge at a time, swapping the two colours along an alternating path when
    needed) gives each table four different winds and each player each wind once in each
    block of four rounds.

    >>> plan = seat_winds([[(0, 1, 2, 3)]] * 6)
    >>> sorted(wind_counts(plan, 4))
    [(1, 1, 2, 2), (1, 2, 2, 1), (2, 1, 1, 2), (2, 2, 1, 1)]
    """
    at: dict[tuple[int, ...], dict[int, tuple[int, ...]]] = {}
    for r, round_ in enumerate(plan):
        for i, table in enumerate(round_):
            for p in table:
                _colour(at, (0, p, r // SEATS), (1, r, i))
    return [[tuple(sorted(table, key=lambda p, r=r, i=i: _wind(at, p, r, i)))
             for i, table in enumerate(round_)] for r, round_ in enumerate(plan)]


def _wind(at: dict[tuple[int, ...], dict[int, tuple[int, ...]]], player: int, r: int,
          i: int) -> int:
    """The colour of the edge between ``player`` and table ``i`` of round ``r``."""
    colours = at[(1, r, i)]
    return next(c for c, other in colours.items() if other == (0, player, r // SEATS))


def _colour(at: dict[tuple[int, ...], dict[int, tuple[int, ...]]], u: tuple[int, ...],
            v: tuple[int, ...]) -> None:
    """Colour the edge ``u - v`` with one of four colours, none used twice at a vertex."""
    at_u, at_v = at.setdefault(u, {}), at.setdefault(v, {})
    a = next(c for c in range(SEATS) if c not in at_u)
    b = next(c for c in range(SEATS) if c not in at_v)
    if a in at_v:  # flip a and b along the path from v that alternates them: a frees at v
        path, x, c = [], v, a
        while c in at[x]:
            y = at[x][c]
            path.append((x, y, c))
            x, c = y, (b if c == a else a)
        for x, y, c in path:
            del at[x][c], at[y][c]
        for x, y, c in path:
            at[x][b if c == a else a], at[y][b if c == a else a] = y, x
    at_u[a], at_v[a] = v, u
