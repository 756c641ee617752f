"""The API's behaviour: zero copy, the coordinate convention, algebra with numpy, queries,
routes, propagation, the field, scenarios, and the GIL released during long calls."""

import gc
import threading
import time

import numpy as np
import pytest

import influence_maps as im
from conftest import SCENARIOS, same_bits


@pytest.fixture
def grid():
    walkable = np.ones((20, 30), dtype=np.uint8)  # python-sc2's pathing grid: uint8 [y, x]
    walkable[5:15, 12] = 0
    return im.Grid(walkable)


# --- zero copy ------------------------------------------------------------------------------


def test_numpy_is_a_view_of_the_layer(grid):
    layer = grid.layer()
    assert np.shares_memory(layer.numpy(), layer.numpy())
    view = layer.numpy()
    assert view.dtype == np.float32 and view.shape == (20, 30) and view.flags.c_contiguous and view.flags.writeable
    view[3, 4] = 7.0
    assert layer.sum() == 7.0 and layer.value((4.5, 3.5)) == 7.0
    layer.add((10.5, 10.5), strength=1.0, radius=3.0)
    assert view[10, 10] == 1.0  # the layer's writes show in the view
    layer += 1.0
    assert view[0, 0] == 1.0
    assert np.shares_memory(np.asarray(layer), view)
    assert not np.shares_memory(np.array(layer), view)  # np.array copies


def test_a_view_keeps_its_layer_alive(grid):
    layer = grid.layer(2.0)
    view = layer.numpy()
    del layer
    gc.collect()
    assert view.sum() == 2.0 * 600
    view[:] = 3.0
    assert view.base is not None


def test_analysis_layers_and_chase_heat_are_layers_with_views(grid):
    red = grid.layer().add((3.5, 3.5), strength=2.0, radius=5.0)
    maps = im.analysis(red, grid.layer())
    assert maps.influence is maps.influence  # the same object every time
    assert np.shares_memory(maps.influence.numpy(), maps.influence.numpy())
    assert not np.shares_memory(maps.mine.numpy(), red.numpy())


# --- coordinates ----------------------------------------------------------------------------


def test_points_are_x_y_and_arrays_are_y_x():
    walkable = np.ones((3, 7), dtype=bool)
    walkable[2, 6] = False  # cell (x=6, y=2)
    grid = im.Grid(walkable)
    assert (grid.width, grid.height, grid.shape) == (7, 3, (3, 7))
    assert not grid.is_walkable((6.5, 2.5)) and grid.is_walkable((2.5, 6.5 - 4.0))
    layer = grid.layer().add([(5.5, 0.5)], strength=3.0, radius=0.5)
    assert layer.numpy()[0, 5] == 3.0
    assert grid.cell_at([(5.2, 0.7), (0.0, 2.99)]).tolist() == [[5, 0], [0, 2]]
    route = grid.path((0.5, 0.5), (6.5, 0.5))
    assert route.cells[:, 1].tolist() == [0] * 7


def test_cell_size_and_origin_scale_world_units():
    grid = im.Grid(np.ones((4, 4)), cell_size=2.0, origin=(100.0, -8.0))
    assert grid.center((0, 0)) == (101.0, -7.0)
    assert grid.cell_at((107.9, -0.1)) == (3, 3)
    layer = grid.layer().add((103.0, -5.0), strength=1.0, radius=2.0)  # centre of cell (1, 1)
    assert layer.numpy()[1, 1] == 1.0 and layer.numpy()[1, 2] == 0.0  # 2 units away: 1 − 2/2
    assert grid.path((101.0, -7.0), (107.0, -7.0)).length == 6.0


def test_walkable_accepts_bool_int_and_float_arrays_and_lists():
    a = im.Grid([[1, 0], [1, 1]])
    b = im.Grid(np.array([[True, False], [True, True]]))
    c = im.Grid(np.array([[0.5, 0.0], [2.0, -1.0]]))
    for g in (a, b, c):
        assert g.walkable.tolist() == [[True, False], [True, True]]
    assert im.Grid(np.ones((3, 3)), neighbours=4).neighbours == 4


def test_points_accept_lists_tuples_arrays_and_point_like_tuples(grid):
    class Point2(tuple):  # python-sc2's Point2 is a tuple of (x, y)
        pass

    a = grid.layer().add([Point2((3.2, 4.1)), Point2((8.0, 9.5))], radius=4.0)
    b = grid.layer().add(np.array([[3.2, 4.1], [8.0, 9.5]], dtype=np.float32), radius=4.0)
    c = grid.layer().add(((3.2, 4.1), (8.0, 9.5)), radius=4.0)
    d = grid.layer().add([], radius=4.0).add([], strength=[], radius=[])  # no unit in sight
    assert same_bits(a.numpy(), b.numpy()) and same_bits(a.numpy(), c.numpy())
    assert d.sum() == 0.0


# --- stamping -------------------------------------------------------------------------------


def test_strength_and_radius_may_be_per_point(grid):
    pts = [(3.5, 3.5), (20.5, 10.5)]
    both = grid.layer().add(pts, strength=[1.0, 2.0], radius=np.array([2.0, 5.0]))
    one = grid.layer().add(pts[0], strength=1.0, radius=2.0).add(pts[1], strength=2.0, radius=5.0)
    assert same_bits(both.numpy(), one.numpy())


def test_modes_set_and_max(grid):
    layer = grid.layer(1.0)
    layer.add((3.5, 3.5), strength=5.0, radius=2.0, mode="set")
    assert layer.value((3.5, 3.5), bilinear=False) == 5.0
    assert layer.value((25.5, 3.5), bilinear=False) == 1.0
    layer.add((3.5, 3.5), strength=2.0, radius=2.0, mode="max")
    assert layer.value((3.5, 3.5), bilinear=False) == 5.0


def test_on_blocked_snaps_or_skips(grid):
    wall = (12.5, 9.5)
    with pytest.raises(ValueError, match=r"points = \(12.5, 9.5\) is on blocked cell \(12, 9\); the nearest walkable cell is"):
        grid.layer().add(wall, radius=2.0)
    snapped = grid.layer().add(wall, radius=2.0, on_blocked="snap")
    nearest = grid.nearest_walkable(wall)
    assert same_bits(snapped.numpy(), grid.layer().add(nearest, radius=2.0).numpy())
    assert grid.layer().add([wall, (1.5, 1.5)], radius=2.0, on_blocked="skip").sum() == grid.layer().add((1.5, 1.5), radius=2.0).sum()


def test_path_distance_does_not_pass_walls(grid):
    straight = grid.layer().add((10.5, 10.5), radius=6.0, distance="euclidean")
    walking = grid.layer().add((10.5, 10.5), radius=6.0, distance="path")
    assert straight.value((14.5, 10.5), bilinear=False) > walking.value((14.5, 10.5), bilinear=False)


def test_a_custom_falloff_is_a_python_callable(grid):
    custom = grid.layer().add([(5.2, 5.7)], strength=3.0, radius=4.0, falloff=lambda d, r: 1.0 - d / r)
    linear = grid.layer().add([(5.2, 5.7)], strength=3.0, radius=4.0, falloff="linear")
    np.testing.assert_allclose(custom.numpy(), linear.numpy(), rtol=1e-6, atol=1e-6)


# --- algebra --------------------------------------------------------------------------------


def test_operators_make_new_layers_and_match_numpy(grid):
    rng = np.random.default_rng(0)
    a_values, b_values = rng.normal(size=(2, 20, 30)).astype(np.float32)
    a, b = grid.layer(a_values), grid.layer(b_values)
    for result, expected in [
        (a + b, a_values + b_values),
        (a - b, a_values - b_values),
        (a * b, a_values * b_values),
        (a + b_values, a_values + b_values),
        (2.0 - a, 2.0 - a_values),
        (a * 3, a_values * 3),
        (3 * a, 3 * a_values),
        (a / 4.0, a_values / np.float32(4.0)),
        (-a, -a_values),
    ]:
        assert isinstance(result, im.Layer) and result.grid is grid
        assert same_bits(result.numpy(), expected.astype(np.float32))
    assert same_bits(a.numpy(), a_values)  # untouched
    # numpy first: numpy's own result, through the array protocol.
    assert isinstance(b_values - a, np.ndarray) and same_bits(b_values - a, b_values - a_values)
    assert np.sum(a) == pytest.approx(a_values.sum()) and np.max(a) == a_values.max()


def test_in_place_operations(grid):
    rng = np.random.default_rng(1)
    values = rng.normal(size=(20, 30)).astype(np.float32) * 4
    layer = grid.layer(values)
    view = layer.numpy()
    layer += layer  # itself
    layer -= 1.0
    layer *= grid.layer(0.5)
    layer /= 2.0
    expected = ((values + values - np.float32(1.0)) * np.float32(0.5)) / np.float32(2.0)
    assert same_bits(view, expected)
    layer += layer.numpy()  # its own view, aliased
    assert same_bits(view, expected + expected)
    assert same_bits(layer.copy().clamp(-1.0, 0.5).numpy(), np.clip(view, -1.0, 0.5))
    assert same_bits(layer.copy().clamp(hi=0.0).numpy(), np.minimum(view, 0.0))
    assert same_bits(layer.copy().maximum(0.0).numpy(), np.maximum(view, 0.0))
    assert same_bits(layer.copy().minimum(grid.layer(0.25)).numpy(), np.minimum(view, 0.25))
    assert same_bits(layer.copy().scale(-2.0).numpy(), view * np.float32(-2.0))
    assert same_bits(layer.copy().abs().numpy(), np.abs(view))
    normal = layer.copy().normalize().numpy()
    assert np.abs(normal).max() == 1.0 and np.array_equal(np.sign(normal), np.sign(view))
    assert layer.min() == view.min() and layer.max() == view.max() and layer.sum() == pytest.approx(view.sum(dtype=np.float64))


def test_analysis_takes_one_layer_or_many(grid):
    red = grid.layer().add((5.5, 5.5), strength=4.0, radius=8.0)
    blue = grid.layer().add((20.5, 5.5), strength=3.0, radius=8.0)
    green = grid.layer().add((20.5, 15.5), strength=1.0, radius=8.0)
    maps = im.analysis(red, [blue, green])
    theirs = blue.numpy() + green.numpy()
    assert same_bits(maps.theirs.numpy(), theirs)
    assert same_bits(maps.influence.numpy(), red.numpy() - theirs)
    assert same_bits(maps.tension.numpy(), red.numpy() + theirs)
    assert same_bits(maps.vulnerability.numpy(), (red.numpy() + theirs) - np.abs(red.numpy() - theirs))
    assert same_bits(maps.directed_vulnerability.numpy(), (red.numpy() + theirs) + (red.numpy() - theirs))
    assert same_bits(im.analysis(red, blue).influence.numpy(), (red - blue).numpy())


# --- queries --------------------------------------------------------------------------------


def test_top_with_spacing_radius_and_path_distance(grid):
    values = np.random.default_rng(2).random((20, 30)).astype(np.float32)
    layer = grid.layer(values)
    walkable = grid.walkable
    points, got = layer.top(5)
    order = np.argsort(-np.where(walkable, values, -np.inf), axis=None, kind="stable")[:5]
    assert got.tolist() == values.flat[order].tolist()
    assert points.dtype == np.float64 and points.shape == (5, 2)
    points, got = layer.top(5, spacing=6.0)
    d = np.hypot(*(points[:, None, :] - points[None, :, :]).transpose(2, 0, 1))
    assert (d[np.triu_indices(5, 1)] >= 6.0).all()
    # Within a radius: a brute-force check.
    points, got = layer.top(3, highest=False, near=(5.5, 5.5), radius=4.0)
    cy, cx = np.mgrid[0:20, 0:30] + 0.5
    inside = walkable & (np.hypot(cx - 5.5, cy - 5.5) <= 4.0)
    assert got.tolist() == np.sort(values[inside])[:3].tolist()
    # Within a walk of 3 cells of (11.5, 10.5): nothing beyond the wall at x = 12.
    points, _ = layer.top(400, near=(11.5, 10.5), path_distance=3.0)
    assert (points[:, 0] < 12.0).all()
    both, _ = layer.top(400, near=(11.5, 10.5), path_distance=3.0, radius=1.0)
    assert len(both) <= 5


def test_value_gradient_front_and_centroid(grid):
    layer = grid.layer(np.tile(np.arange(30, dtype=np.float32) - 14.5, (20, 1)))
    assert layer.value((3.5, 7.5)) == -11.5
    assert layer.value((3.0, 7.5)) == -12.0  # halfway between two centres
    assert layer.value([(3.5, 1.5), (4.5, 1.5)]).tolist() == [-11.5, -10.5]
    assert layer.gradient((5.0, 5.0)) == (1.0, 0.0)
    assert layer.gradient([(5.0, 5.0)]).shape == (1, 2)
    front = layer.frontline()
    assert front.shape == (20, 30) and front[:, 14:16].all() and front.sum() == 40
    assert layer.frontline_length() == 19.0  # the zero contour between the first and last row of centres
    assert layer.copy().clamp(lo=0.0).centroid()[1] == pytest.approx(10.0)
    assert grid.layer().centroid() is None


def test_nearest_walkable(grid):
    assert grid.nearest_walkable((12.5, 9.5)) in [(11.5, 9.5), (13.5, 9.5)]
    assert grid.nearest_walkable((-5.0, -5.0)) == (0.5, 0.5)  # off the grid is fine here
    assert grid.nearest_walkable([(1.2, 1.7)]).tolist() == [[1.5, 1.5]]


# --- routes ---------------------------------------------------------------------------------


def test_routes_avoid_danger_and_report_none_when_unreachable():
    grid = im.Grid.from_rows(["......", "......", "......", "..@@@@", "..@..."])
    danger = grid.layer().add((2.5, 1.5), strength=10.0, radius=1.5)
    short = grid.path((0.5, 1.5), (5.5, 1.5), avoid=danger, weight=0.0)
    safe = grid.path((0.5, 1.5), (5.5, 1.5), avoid=danger, weight=5.0)
    assert safe.exposure < short.exposure and safe.length > short.length
    as_array = grid.path((0.5, 1.5), (5.5, 1.5), avoid=danger.numpy(), weight=5.0)
    assert as_array.cells.tolist() == safe.cells.tolist()
    assert grid.path((0.5, 0.5), (4.5, 4.5)) is None
    assert len(grid.path((0.5, 0.5), (0.5, 0.5))) == 1


# --- propagation ----------------------------------------------------------------------------


def test_diffusion_layer_is_a_copy_and_sources_move(grid):
    spread = grid.diffusion(decay=0.3, momentum=0.5)
    spread.set_sources((2.5, 2.5), strength=2.0)
    first = spread.step(5).layer()
    second = spread.layer()
    assert not np.shares_memory(first.numpy(), second.numpy())
    spread.set_sources((25.5, 15.5), strength=2.0)  # the unit moved: the old trail fades
    later = spread.step(10).layer()
    assert later.value((2.5, 2.5), bilinear=False) < first.value((2.5, 2.5), bilinear=False)
    assert later.value((25.5, 15.5), bilinear=False) == 2.0
    assert "Diffusion(" in repr(spread)


def test_chase_predicts_ahead_of_the_target():
    grid = im.Grid.from_rows(["@" * 20, "@" + "." * 18 + "@", "@" * 20])
    chase = grid.chase((8.5, 1.5), direction=(1.0, 0.0), barrier_radius=4.0, cooling=0.1, max_steps=6)
    assert chase.predicted[0] > 8.5
    assert not chase.warm[1, :8].any() and chase.warm[1, 9:15].all()
    assert chase.heat.numpy()[1, 14] == 1.0
    everywhere = grid.chase((8.5, 1.5), max_steps=100)
    assert everywhere.stopped == "front_empty"


# --- the field ------------------------------------------------------------------------------


def test_field_values_gradients_and_search():
    field = im.Field([(0.0, 0.0), (10.0, 0.0)], strength=[2.0, 1.0], radius=6.0, curve="linear")
    assert field.sample((3.0, 0.0)) == pytest.approx(2.0 * 0.5)
    xs = np.array([[1.0, 0.3], [7.0, 0.5], [20.0, 20.0]])
    expected = [2.0 * (1 - np.hypot(1.0, 0.3) / 6.0), 1.0 * (1 - np.hypot(3.0, 0.5) / 6.0), 0.0]
    np.testing.assert_allclose(field.sample(xs), expected, rtol=1e-6)
    g = np.array(field.gradient((2.0, 1.0)))
    h = 1e-2
    numeric = [(field.sample((2.0 + h, 1.0)) - field.sample((2.0 - h, 1.0))) / (2 * h),
               (field.sample((2.0, 1.0 + h)) - field.sample((2.0, 1.0 - h))) / (2 * h)]
    np.testing.assert_allclose(g, numeric, rtol=1e-3)
    (x, y), value, _ = field.descend((4.0, 0.0), radius=3.0)
    assert value < field.sample((4.0, 0.0))
    (x, y), value, _ = field.ascend((8.0, 1.0))
    assert abs(x - 10.0) < 0.05 and value == pytest.approx(1.0, abs=0.01)
    assert len(field) == 2 and field.total_strength == 3.0


# --- scenarios ------------------------------------------------------------------------------


def test_run_scenario_picks_layers():
    layers, summary = im.run_scenario(SCENARIOS / "chase.toml", layers=["heat"])
    assert list(layers) == ["heat"] and layers["heat"].dtype == np.float32
    assert summary["propagation"]["kind"] == "flood"


# --- the GIL --------------------------------------------------------------------------------


def test_long_calls_release_the_gil():
    """Another Python thread runs while a long diffusion steps."""
    grid = im.Grid(np.ones((512, 512), dtype=bool))
    spread = grid.diffusion(decay=0.01).set_sources((256.5, 256.5))
    spread.step(5)  # warm up
    started = time.perf_counter()
    spread.step(50)
    one_call = time.perf_counter() - started
    steps = max(50, int(50 * 0.3 / max(one_call, 1e-4)))  # about 0.3 s of stepping
    ticks = []
    running = threading.Event()

    def work():
        running.set()
        spread.step(steps)
        running.clear()

    worker = threading.Thread(target=work)
    worker.start()
    running.wait()
    while worker.is_alive():
        if running.is_set():
            ticks.append(time.perf_counter())
    worker.join()
    assert len(ticks) > 100, f"only {len(ticks)} ticks of the main thread during {steps} steps"


def test_layers_of_one_grid_stamp_in_parallel_threads():
    grid = im.Grid(np.ones((200, 200), dtype=bool))
    rng = np.random.default_rng(5)
    batches = [rng.uniform(0, 200, size=(300, 2)) for _ in range(4)]
    expected = [grid.layer().add(b, strength=2.0, radius=9.0).add(b, strength=2.0, radius=9.0).add(b, strength=2.0, radius=9.0) for b in batches]
    layers = [grid.layer() for _ in batches]
    threads = [threading.Thread(target=lambda l=l, b=b: [l.add(b, strength=2.0, radius=9.0) for _ in range(3)]) for l, b in zip(layers, batches)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for layer, e in zip(layers, expected):
        assert same_bits(layer.numpy(), e.numpy())
