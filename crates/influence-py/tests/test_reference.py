"""The module against numpy references of the seed formulas, written from the articles'
definitions rather than the library's code: the linear falloff sum, the diffusion step, its
steady state, and shortest routes against the MovingAI benchmark's optimal lengths."""

import numpy as np
import pytest

import influence_maps as im
from conftest import MAPS


def walled(h, w, seed, fraction=0.15):
    rng = np.random.default_rng(seed)
    walkable = rng.random((h, w)) > fraction
    return walkable


def linear_reference(walkable, points, strengths, radius, cell_size=1.0, origin=(0.0, 0.0)):
    """Σ strength · (1 − d/r) over the sources within r of each walkable cell centre; d in
    world units from the point to the centre, cells indexed [y, x]."""
    h, w = walkable.shape
    cy = origin[1] + (np.arange(h) + 0.5) * cell_size
    cx = origin[0] + (np.arange(w) + 0.5) * cell_size
    out = np.zeros((h, w))
    for (px, py), s in zip(points, strengths):
        d = np.hypot(cx[None, :] - px, cy[:, None] - py)
        out += np.where(d <= radius, s * (1.0 - d / radius), 0.0)
    return np.where(walkable, out, 0.0)


@pytest.mark.parametrize("cell_size, origin", [(1.0, (0.0, 0.0)), (2.5, (-20.0, 7.0))])
def test_linear_stamping_is_the_sum_of_the_linear_falloffs(cell_size, origin):
    h, w = 37, 53  # not square: a transposed index would show
    walkable = walled(h, w, 1)
    grid = im.Grid(walkable, cell_size=cell_size, origin=origin)
    rng = np.random.default_rng(2)
    ys, xs = np.nonzero(walkable)
    pick = rng.choice(len(xs), 40, replace=False)
    points = np.stack(
        [origin[0] + (xs[pick] + rng.random(40)) * cell_size, origin[1] + (ys[pick] + rng.random(40)) * cell_size], axis=1
    )
    strengths = rng.uniform(-2.0, 6.0, 40)
    radius = 7.0 * cell_size
    layer = grid.layer().add(points, strength=strengths, radius=radius, falloff="linear")
    expected = linear_reference(walkable, points, strengths, radius, cell_size, origin)
    np.testing.assert_allclose(layer.numpy(), expected, rtol=1e-5, atol=1e-4)
    assert np.all(layer.numpy()[~walkable] == 0.0)


def test_one_unit_lands_at_array_index_y_x():
    grid = im.Grid(np.ones((4, 6)))
    layer = grid.layer().add((3.5, 1.5), strength=2.0, radius=0.5)
    assert layer.numpy()[1, 3] == 2.0 and layer.sum() == 2.0
    # python-sc2: cell (x, y) covers [x, x+1) × [y, y+1).
    assert grid.cell_at((3.99, 1.0)) == (3, 1)
    assert grid.center((3, 1)) == (3.5, 1.5)


def diffusion_reference(walkable, seeds, decay, momentum, steps, threshold=1e-4, neighbours=8):
    """Champandard's / "Influence Maps: Part 1"'s step, in float32 like the library: the seeds
    (cell -> value, set) written at rest, then `steps` rounds of "every walkable cell moves by
    momentum towards max(0, max over walkable neighbours of v·exp(−decay·d)); magnitudes
    below the threshold become 0; write the seeds again". 8 neighbours never cut corners."""
    f = np.float32
    h, w = walkable.shape
    v = np.zeros((h, w), dtype=f)

    def write(v):
        for (x, y), s in seeds.items():
            if walkable[y, x]:
                v[y, x] = f(s)

    write(v)
    pad = np.pad(walkable, 1)
    padded = lambda a: np.pad(a, 1)
    moves = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0)]
    if neighbours == 4:
        moves = [(dx, dy) for dx, dy in moves if dx == 0 or dy == 0]
    for _ in range(steps):
        pv = padded(v)
        m = np.zeros((h, w), dtype=f)
        for dx, dy in moves:
            shifted = pv[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w]
            ok = pad[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w].copy()
            if dx and dy:  # both orthogonal cells beside the diagonal must be walkable
                ok &= pad[1 + dy : 1 + dy + h, 1 : 1 + w] & pad[1 : 1 + h, 1 + dx : 1 + dx + w]
            carry = (shifted * np.exp(f(-decay) * f(np.sqrt(2.0) if dx and dy else 1.0), dtype=f)).astype(f)
            m = np.maximum(m, np.where(ok, carry, f(0)))
        new = (v + f(momentum) * (m - v)).astype(f)
        new[np.abs(new) < f(threshold)] = 0
        v = np.where(walkable, new, f(0)).astype(f)
        write(v)
    return v


@pytest.mark.parametrize("momentum, neighbours, steps", [(1.0, 8, 25), (0.4, 8, 40), (0.7, 4, 30)])
def test_diffusion_is_the_articles_step(momentum, neighbours, steps):
    walkable = walled(30, 41, 3, fraction=0.2)
    cells = [(3, 4), (30, 20), (15, 25)]
    for x, y in cells:
        walkable[y, x] = True
    seeds = {(3, 4): 1.0, (30, 20): 2.5, (15, 25): 0.7}
    grid = im.Grid(walkable)
    spread = grid.diffusion(decay=0.15, momentum=momentum, neighbours=neighbours)
    spread.set_sources([(x + 0.5, y + 0.5) for x, y in seeds], strength=list(seeds.values()))
    spread.step(steps)
    expected = diffusion_reference(walkable, seeds, 0.15, momentum, steps, neighbours=neighbours)
    np.testing.assert_allclose(spread.layer().numpy(), expected, rtol=1e-5, atol=1e-6)


def test_the_steady_state_is_where_the_steps_end_up():
    walkable = walled(25, 30, 4)
    seeds = {(2, 2): 1.0, (27, 20): 3.0}
    for x, y in seeds:
        walkable[y, x] = True
    grid = im.Grid(walkable)
    spread = grid.diffusion(decay=0.2).set_sources([(x + 0.5, y + 0.5) for x, y in seeds], strength=list(seeds.values()))
    steady = spread.steady_state().numpy()
    iterated = diffusion_reference(walkable, seeds, 0.2, 1.0, 200)
    np.testing.assert_allclose(steady, iterated, rtol=1e-5, atol=1e-6)
    # With momentum 1 the library's own steps reach the steady state's very bits.
    assert np.array_equal(spread.step(200).layer().numpy(), steady)


def test_shortest_routes_have_the_movingai_benchmark_lengths():
    grid = im.Grid.load_movingai(MAPS / "London_0_512.map")
    lines = (MAPS / "London_0_512.map.scen").read_text().splitlines()[1:]
    problems = [line.split("\t") for line in lines[::97]]
    assert len(problems) > 20
    for _, _, _, _, sx, sy, gx, gy, optimal in problems:
        route = grid.path((int(sx) + 0.5, int(sy) + 0.5), (int(gx) + 0.5, int(gy) + 0.5))
        assert route is not None
        assert route.length == pytest.approx(float(optimal), rel=1e-5)
        assert tuple(route.cells[0]) == (int(sx), int(sy)) and tuple(route.cells[-1]) == (int(gx), int(gy))
