"""Flow fields (Grid.flow_field, FlowField): the cost and next step of every cell are those of
the module's own A* (Grid.path) to the nearest goal, on random grids with random danger; the
sentinels for cells no goal can be reached from; several goals; and a field recomputed in
place answers as a fresh one does."""

import math

import numpy as np
import pytest

import influence_maps as im


def close(a, b):
    """Within 1e-6 of each other, relative to the larger (the field sums a route's f32 steps
    from the goal, A* from the start)."""
    return abs(a - b) <= 1e-6 * max(abs(a), abs(b))


def random_case(seed):
    """A random grid (walls, cell size, origin, 4 or 8 neighbours), a random danger layer
    with negative values too, a weight and the walkable cells."""
    rng = np.random.default_rng(seed)
    h, w = rng.integers(6, 22, size=2)
    walkable = rng.random((h, w)) > rng.uniform(0.1, 0.35)
    cell_size = float(rng.choice([1.0, 1.5, 2.0]))
    origin = tuple(float(v) for v in rng.uniform(-20, 20, size=2).round(1))
    grid = im.Grid(walkable, cell_size=cell_size, neighbours=int(rng.choice([4, 8])), origin=origin)
    danger = grid.layer((rng.normal(size=(h, w)) * 3).astype(np.float32))
    weight = float(rng.choice([0.0, 0.5, 2.0, 7.25]))
    cells = [(x, y) for y, x in np.argwhere(walkable)]
    return rng, grid, danger, weight, cells


def step_cost(grid, danger, weight, a, b):
    """What entering cell b from cell a costs, in float32 as the library adds it."""
    diagonal = a[0] != b[0] and a[1] != b[1]
    length = np.float32(grid.cell_size) * (np.float32(math.sqrt(2)) if diagonal else np.float32(1))
    return np.float32(length + np.float32(weight) * max(np.float32(0), danger[b[1], b[0]]))


@pytest.mark.parametrize("seed", range(12))
def test_costs_are_the_a_star_costs_and_next_steps_reach_the_goal_at_that_cost(seed):
    rng, grid, danger, weight, cells = random_case(seed)
    if len(cells) < 2:
        pytest.skip("a map with fewer than two walkable cells")
    goal_cell = cells[rng.integers(len(cells))]
    goal = grid.center(goal_cell)
    avoid = danger if seed % 2 else danger.numpy()  # a Layer or an array alike
    field = grid.flow_field(goal, avoid=avoid, weight=weight)
    values = danger.numpy()
    costs, reachable, directions = field.costs, field.reachable, field.directions
    assert costs.shape == reachable.shape == grid.shape and directions.shape == grid.shape + (2,)
    assert costs.dtype == np.float32 and reachable.dtype == bool and directions.dtype == np.int8
    assert np.isfinite(costs).all()
    reached = 0
    for start_cell in cells:
        start = grid.center(start_cell)
        x, y = start_cell
        best = grid.path(start, goal, avoid=danger, weight=weight)
        if best is None:
            assert costs[y, x] == -1.0 and not reachable[y, x] and directions[y, x].tolist() == [0, 0]
            assert field.cost(start) == -1.0 and field.is_reachable(start) is False
            assert field.next_step(start) is None and field.path(start) is None
            continue
        reached += 1
        assert reachable[y, x] and field.is_reachable(start) is True
        assert close(field.cost(start), best.cost), (start_cell, field.cost(start), best.cost)
        assert field.cost(start) == costs[y, x]
        route = field.path(start)
        assert close(route.cost, best.cost)
        assert route.expanded == 0
        assert tuple(route.cells[0]) == start_cell and tuple(route.cells[-1]) == goal_cell
        assert tuple(route.points[-1]) == goal
        steps = np.abs(np.diff(route.cells, axis=0))
        assert (steps.max(axis=1, initial=1) == 1).all() and grid.walkable[route.cells[:, 1], route.cells[:, 0]].all()
        assert close(route.exposure, float(values[route.cells[:, 1], route.cells[:, 0]].astype(np.float64).sum()))
        # Walk the next steps as a unit would: to the goal, at the optimal cost.
        at, walked, total = start_cell, 0, np.float32(0)
        while True:
            nxt = grid.cell_at(field.next_step(grid.center(at)))
            assert tuple(directions[at[1], at[0]]) == (nxt[0] - at[0], nxt[1] - at[1])
            if nxt == at:
                break
            total = np.float32(total + step_cost(grid, values, weight, at, nxt))
            at, walked = nxt, walked + 1
            assert walked <= len(cells), "next_step went round in a circle"
        assert at == goal_cell
        assert close(float(total), best.cost), (start_cell, total, best.cost)
    assert reached >= 1  # the goal itself
    assert int(reachable.sum()) == reached and (costs[~reachable] == -1.0).all()


def test_batch_reads_are_the_single_reads():
    rng, grid, danger, weight, cells = random_case(100)
    field = grid.flow_field(grid.center(cells[0]), avoid=danger, weight=weight)
    points = rng.uniform(grid.origin, np.add(grid.origin, np.multiply(grid.shape[::-1], grid.cell_size)), size=(200, 2))
    costs, flags, steps = field.cost(points), field.is_reachable(points), field.next_step(points)
    assert costs.dtype == np.float32 and costs.shape == (200,) and flags.shape == (200,) and steps.shape == (200, 2)
    assert 0 < flags.sum() < 200
    for p, c, f, s in zip(points, costs, flags, steps):
        p = tuple(p)
        assert field.cost(p) == c and field.is_reachable(p) == f and (c >= 0) == f
        one = field.next_step(p)
        # A point no goal can be reached from stays on its own cell in a batch, None alone.
        assert tuple(s) == (one if f else grid.center(grid.cell_at(p)))


def test_several_goals_lead_to_the_nearest():
    rng, grid, danger, weight, cells = random_case(7)
    goals = [grid.center(cells[i]) for i in rng.choice(len(cells), size=4, replace=False)]
    field = grid.flow_field(goals, avoid=danger, weight=weight)
    singles = [grid.flow_field(g, avoid=danger, weight=weight).costs for g in goals]
    costs = field.costs
    for x, y in cells:
        each = [s[y, x] for s in singles if s[y, x] >= 0]
        if not each:
            assert costs[y, x] == -1.0
            continue
        assert close(costs[y, x], min(each))
        start = grid.center((x, y))
        best = min(r.cost for r in (grid.path(start, g, avoid=danger, weight=weight) for g in goals) if r is not None)
        assert close(field.path(start).cost, best)
        assert tuple(field.path(start).points[-1]) in goals
    for g in goals:
        assert field.cost(g) == 0.0 and field.next_step(g) == g and field.directions[grid.cell_at(g)[::-1]].tolist() == [0, 0]
    # The same goal twice is one goal.
    twice = grid.flow_field([goals[0], goals[0]], avoid=danger, weight=weight)
    assert np.array_equal(twice.costs, singles[0])


def test_cells_walled_off_from_every_goal():
    grid = im.Grid.from_rows([
        "....@...",
        "....@.@.",
        "@@@@@.@.",
        "......@.",
    ])
    field = grid.flow_field((0.5, 0.5))
    pocket = np.zeros(grid.shape, dtype=bool)
    pocket[0:2, 0:4] = True
    assert (field.reachable == pocket).all()
    assert (field.costs[~pocket] == -1.0).all() and (field.costs[pocket] >= 0).all()
    assert (field.directions[~pocket] == 0).all()
    for p in [(7.5, 3.5), (5.5, 0.5), (4.5, 0.5)]:  # walkable, walkable, a wall
        assert field.cost(p) == -1.0 and field.is_reachable(p) is False and field.next_step(p) is None
    assert field.path((7.5, 3.5)) is None
    assert field.next_step([(7.5, 3.5), (1.5, 1.5)]).tolist() == [[7.5, 3.5], [0.5, 0.5]]
    # From a goal in the other region the pocket is out of reach instead.
    other = grid.flow_field([(0.5, 3.5), (7.5, 0.5)])
    assert (other.reachable == (grid.walkable & ~pocket)).all()
    # Walls are never reachable, even next to a goal.
    assert (~field.reachable[~grid.walkable]).all()


def test_a_recomputed_field_answers_as_a_fresh_one():
    rng, grid, danger, weight, cells = random_case(3)
    field = grid.flow_field(grid.center(cells[0]), avoid=danger, weight=weight)
    frames = []
    for i in range(8):
        goal = [grid.center(cells[j]) for j in rng.choice(len(cells), size=1 + i % 3, replace=False)]
        layer = grid.layer((rng.normal(size=grid.shape) * 4).astype(np.float32))
        kwargs = {} if i % 4 == 3 else {"avoid": layer if i % 2 else layer.numpy(), "weight": float(rng.uniform(0, 5))}
        frames.append((goal, kwargs))
    for goal, kwargs in frames + frames[::-1]:
        assert field.compute(goal, **kwargs) is field
        fresh = grid.flow_field(goal, **kwargs)
        assert np.array_equal(field.costs.view(np.uint32), fresh.costs.view(np.uint32))
        assert np.array_equal(field.directions, fresh.directions)
        assert np.array_equal(field.reachable, fresh.reachable)
        start = grid.center(cells[-1])
        a, b = field.path(start), fresh.path(start)
        assert (a is None) == (b is None)
        if a is not None:
            assert (a.cost, a.length, a.exposure, a.cells.tolist()) == (b.cost, b.length, b.exposure, b.cells.tolist())
            if "avoid" not in kwargs:
                assert a.exposure == 0.0 and a.cost == a.length


def test_the_field_keeps_the_danger_it_was_computed_with():
    grid = im.Grid.from_rows(["....."])
    danger = grid.layer([[0, 0, 0, 5, 0]])
    field = grid.flow_field((4.5, 0.5), avoid=danger, weight=2.0)
    before = field.path((0.5, 0.5))
    danger.fill(100.0)  # changed after the search: the field's routes do not see it
    after = field.path((0.5, 0.5))
    assert (before.cost, before.exposure) == (after.cost, after.exposure) == (14.0, 5.0)
    assert field.cost((0.5, 0.5)) == 14.0


def test_a_failed_compute_changes_nothing():
    grid = im.Grid.from_rows(["....", ".@..", "...."])
    field = grid.flow_field((3.5, 2.5), avoid=grid.layer(1.0), weight=2.0)
    before = field.costs, field.directions, field.path((0.5, 0.5)).cost
    for bad in [
        lambda: field.compute([(0.5, 0.5), (1.5, 1.5)]),  # the second goal is on a wall
        lambda: field.compute([]),
        lambda: field.compute((0.5, 0.5), avoid=np.ones((2, 2))),
        lambda: field.compute((0.5, 0.5), avoid=grid.layer(), weight=-1.0),
        lambda: field.compute((0.5, 0.5), weight="1"),
    ]:
        with pytest.raises((ValueError, TypeError)):
            bad()
        assert np.array_equal(field.costs, before[0]) and np.array_equal(field.directions, before[1])
        assert field.path((0.5, 0.5)).cost == before[2]


def test_a_one_cell_grid_and_4_neighbours():
    one = im.Grid.from_rows(["."]).flow_field((0.5, 0.5))
    assert one.costs.tolist() == [[0.0]] and one.next_step((0.5, 0.5)) == (0.5, 0.5) and len(one.path((0.5, 0.5))) == 1
    four = im.Grid.from_rows(["...", "..."], neighbours=4).flow_field((2.5, 0.5))
    assert four.costs.tolist() == [[2.0, 1.0, 0.0], [3.0, 2.0, 1.0]]
    assert (np.abs(four.directions).sum(axis=2) <= 1).all()  # never a diagonal
