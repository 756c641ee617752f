"""SpotIndex: the same answers as Layer.top, bit for bit, for the layer it was built from;
new answers after a rebuild; bad arguments raise the module's errors naming the argument."""

import numpy as np
import pytest

import influence_maps as im


def same_answer(a, b):
    """Whether two (points, values) answers hold the same bits."""
    (pa, va), (pb, vb) = a, b
    return (
        pa.dtype == pb.dtype == np.float64
        and va.dtype == vb.dtype == np.float32
        and pa.shape == pb.shape
        and va.shape == vb.shape
        and np.array_equal(pa.view(np.uint64), pb.view(np.uint64))
        and np.array_equal(va.view(np.uint32), vb.view(np.uint32))
    )


def random_case(rng):
    """A grid with walls (random size, cell size and origin) and a layer of few distinct
    values (ties), NaN, infinities and both zeros."""
    h, w = rng.integers(1, 70, size=2)
    walkable = rng.random((h, w)) > rng.uniform(0.0, 0.5)
    grid = im.Grid(walkable, cell_size=float(rng.choice([1.0, 0.5, 2.5])),
                   origin=tuple(rng.uniform(-20, 20, size=2).round(2)), neighbours=int(rng.choice([4, 8])))
    values = rng.integers(-4, 5, size=(h, w)).astype(np.float32)
    values[rng.random((h, w)) < 0.1] = -0.0
    layer = grid.layer(values)
    view = layer.numpy()  # NaN and infinities only through the view: the module's inputs refuse them
    view[rng.random((h, w)) < 0.1] = np.nan
    if rng.random() < 0.3:
        view[rng.random((h, w)) < 0.01] = np.inf
        view[rng.random((h, w)) < 0.01] = -np.inf
    return grid, layer


def random_point(rng, grid, walkable_only=False):
    """A point on the grid: a cell centre (ties of distance) or anywhere."""
    cs, (ox, oy) = grid.cell_size, grid.origin
    while True:
        if rng.random() < 0.5:
            x, y = rng.integers(grid.width), rng.integers(grid.height)
            p = (ox + (x + 0.5) * cs, oy + (y + 0.5) * cs)
        else:
            p = (ox + rng.uniform(0, grid.width * cs * 0.999), oy + rng.uniform(0, grid.height * cs * 0.999))
        if not walkable_only or grid.is_walkable(p):
            return p


def random_query(rng, grid):
    """Keyword arguments of a top query: any n and spacing, both ends, with and without a
    region."""
    kw = {"n": int(rng.choice([0, 1, 1, 1, 2, 5, int(rng.integers(0, 200))])), "highest": bool(rng.random() < 0.5)}
    if rng.random() < 0.7:
        kw["spacing"] = float(rng.choice([0.0, grid.cell_size, rng.uniform(0, 15), 1e6]))
    region = rng.choice(["none", "radius", "walk", "both"], p=[0.4, 0.3, 0.2, 0.1])
    if region in ("radius", "both"):
        kw["radius"] = float(rng.choice([0.0, grid.cell_size, rng.uniform(0, 30)]))
    if region in ("walk", "both"):
        kw["path_distance"] = float(rng.choice([0.0, rng.uniform(0, 30)]))
    if region != "none":
        walkable = grid.walkable.any()
        if region in ("walk", "both") and not walkable:
            del kw["path_distance"]
            kw.setdefault("radius", 3.0)
        kw["near"] = random_point(rng, grid, walkable_only="path_distance" in kw)
    return kw


@pytest.mark.parametrize("seed", range(40))
def test_the_index_answers_as_layer_top(seed):
    rng = np.random.default_rng(seed)
    grid, layer = random_case(rng)
    spots = layer.spot_index() if seed % 2 else im.SpotIndex(grid, layer)
    kinds = set()
    for _ in range(60):
        kw = random_query(rng, grid)
        want, got = layer.top(**kw), spots.top(**kw)
        assert same_answer(want, got), kw
        kinds.add(("near" in kw, kw["n"] == 1, kw["highest"]))
    # Whole-layer, n = 1 in a region (the index's own answers) and the rest, both ends.
    assert len(kinds) >= 6, kinds


def test_the_index_answers_on_a_larger_map_with_many_queries_per_frame():
    rng = np.random.default_rng(99)
    walkable = np.ones((180, 200), dtype=bool)
    walkable[rng.random((180, 200)) < 0.15] = False
    walkable[40:140, 100:103] = False
    grid = im.Grid(walkable)
    spots = im.SpotIndex(grid)
    layer = grid.layer()
    for frame in range(4):
        layer.fill(0.0)
        layer.add(rng.uniform((0, 0), (200, 180), size=(30, 2)), strength=rng.uniform(-5, 5, 30),
                  radius=rng.uniform(3, 20, 30), on_blocked="skip")
        spots.build(layer)
        for spacing in range(1, 11):
            for highest in (True, False):
                kw = {"n": 5, "spacing": float(spacing), "highest": highest}
                assert same_answer(layer.top(**kw), spots.top(**kw)), kw
        for _ in range(20):
            near = random_point(rng, grid, walkable_only=True)
            for kw in ({"radius": float(rng.uniform(0, 40))}, {"path_distance": float(rng.uniform(0, 40))}):
                kw.update(n=1, near=near, highest=bool(rng.random() < 0.5))
                assert same_answer(layer.top(**kw), spots.top(**kw)), kw


def test_a_rebuild_answers_for_the_new_layer_and_not_before():
    grid = im.Grid.from_rows(["......", ".@@...", "......"])
    layer = grid.layer()
    layer.add((0.5, 0.5), strength=9.0, radius=0.5)
    spots = im.SpotIndex(grid)
    assert spots.build(layer) is spots
    first = spots.top(3, spacing=2.0)
    assert first[0][0].tolist() == [0.5, 0.5] and first[1][0] == 9.0
    # The layer changes in every way the module allows: the index still answers for the
    # values it was built from (its own copy), whatever the layer now holds.
    layer.fill(-1.0)
    layer.numpy()[2, 5] = 50.0
    layer += 1.0
    assert same_answer(spots.top(3, spacing=2.0), first)
    assert spots.top(1, near=(0.5, 0.5), radius=1.0)[1].tolist() == [9.0]
    # Rebuilt: the new values, as Layer.top gives them.
    spots.build(layer)
    assert spots.top(1)[0].tolist() == [[5.5, 2.5]] and spots.top(1)[1].tolist() == [51.0]
    for kw in ({"n": 3, "spacing": 2.0}, {"n": 1, "near": (0.5, 0.5), "radius": 1.0},
               {"n": 1, "near": (0.5, 0.5), "path_distance": 3.0, "highest": False}):
        assert same_answer(spots.top(**kw), layer.top(**kw)), kw
    # Another layer of the same grid.
    other = grid.layer(np.arange(18, dtype=np.float32).reshape(3, 6))
    assert same_answer(spots.build(other).top(4, spacing=1.5), other.top(4, spacing=1.5))
    # A layer dropped after the build: the answers live on in the copy.
    answer = other.top(2)
    del other
    assert same_answer(spots.top(2), answer)


def test_properties_and_repr():
    grid = im.Grid(np.ones((3, 5)))
    spots = im.SpotIndex(grid)
    assert (spots.grid is grid, spots.shape, spots.built) == (True, (3, 5), False)
    assert repr(spots) == "SpotIndex(shape=(3, 5), built=False)"
    spots.build(grid.layer())
    assert spots.built and repr(spots) == "SpotIndex(shape=(3, 5), built=True)"
    assert im.SpotIndex(grid, None).built is False


GRID = im.Grid.from_rows(["....", ".@..", "...."])
OTHER = im.Grid(np.ones((3, 4)))  # the same shape, another grid


def built():
    return GRID.layer().spot_index()


CASES = {
    "grid type": (lambda: im.SpotIndex("grid"), TypeError, r"grid must be a Grid, got 'grid'"),
    "grid layer": (lambda: im.SpotIndex(GRID.layer()), TypeError, r"grid must be a Grid, got Layer\(shape=\(3, 4\)"),
    "layer type": (lambda: im.SpotIndex(GRID, np.ones((3, 4))), TypeError, r"layer must be a Layer, got array\("),
    "build type": (lambda: built().build([[1.0]]), TypeError, r"layer must be a Layer, got \[\[1.0\]\]"),
    "build None": (lambda: built().build(None), TypeError, r"layer must be a Layer, got None"),
    "build other grid": (lambda: built().build(OTHER.layer()), ValueError,
                         r"layer must be a layer of the index's grid \(Grid\(.*\)\), got one of another grid"),
    "new other grid": (lambda: im.SpotIndex(GRID, OTHER.layer()), ValueError, r"layer must be a layer of the index's grid"),
    "not built": (lambda: im.SpotIndex(GRID).top(1), ValueError, r"the index has not been built: call build\(layer\) first"),
}

# (args, kwargs, exception, message pattern) of top: SpotIndex.top raises what Layer.top does.
TOP_CASES = {
    "n negative": ((-1,), {}, ValueError, r"n must be an integer from 0 to 2\*\*63 - 1, got -1"),
    "n float": ((1.5,), {}, TypeError, r"n must be an integer, got 1.5"),
    "spacing": ((), {"spacing": -1}, ValueError, r"spacing must be a finite number, 0 or more, got -1"),
    "spacing NaN": ((), {"spacing": np.nan}, ValueError, r"spacing must be a finite number, 0 or more, got nan"),
    "highest": ((), {"highest": "yes"}, TypeError, r"highest must be True or False, got 'yes'"),
    "near alone": ((), {"near": (1, 1)}, ValueError, r"near needs radius or path_distance"),
    "radius alone": ((), {"radius": 2}, ValueError, r"radius needs near=\(x, y\)"),
    "path alone": ((), {"path_distance": 2}, ValueError, r"path_distance needs near=\(x, y\)"),
    "near outside": ((), {"near": (10, 1), "radius": 1}, ValueError, r"near must lie on the grid .* got \(10.0, 1.0\)"),
    "near NaN": ((), {"near": (np.nan, 1), "radius": 1}, ValueError, r"near must be finite, got \(nan, 1.0\)"),
    "near many": ((), {"near": [(1, 1), (2, 2)], "radius": 1}, ValueError, r"near must be one point \(x, y\)"),
    "near on a wall": ((), {"near": (1.5, 1.5), "path_distance": 2}, ValueError, r"near = \(1.5, 1.5\) is on blocked cell \(1, 1\)"),
    "radius negative": ((), {"near": (0.5, 0.5), "radius": -1}, ValueError, r"radius must be a finite number, 0 or more, got -1"),
    "path_distance inf": ((), {"near": (0.5, 0.5), "path_distance": np.inf}, ValueError,
                          r"path_distance must be a finite number, 0 or more, got inf"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_arguments_raise_naming_the_argument(name):
    call, error, pattern = CASES[name]
    with pytest.raises(error, match=pattern):
        call()


@pytest.mark.parametrize("name", sorted(TOP_CASES))
def test_top_s_bad_arguments_raise_as_layer_top_s(name):
    args, kwargs, error, pattern = TOP_CASES[name]
    layer = GRID.layer()
    spots = layer.spot_index()
    with pytest.raises(error, match=pattern) as from_index:
        spots.top(*args, **kwargs)
    with pytest.raises(error) as from_layer:
        layer.top(*args, **kwargs)
    assert str(from_index.value) == str(from_layer.value)


WEIRD = [None, "x", [], np.nan, -1, 0, 1e40, float("inf"), object(), np.zeros((0,)), np.zeros((2, 3, 4)),
         True, 10**40, np.float32(np.nan), [(0.5, 0.5)], (0.5, 0.5), GRID, GRID.layer()]


@pytest.mark.parametrize("arg", ["grid", "layer", "build", "n", "spacing", "highest", "near", "radius", "path_distance"])
def test_odd_values_raise_only_value_or_type_errors(arg):
    """Never a panic (a BaseException, which this would not catch) or a crash."""
    spots = built()
    calls = {
        "grid": lambda v: im.SpotIndex(v),
        "layer": lambda v: im.SpotIndex(GRID, v),
        "build": lambda v: spots.build(v),
        "n": lambda v: spots.top(v),
        "spacing": lambda v: spots.top(2, spacing=v),
        "highest": lambda v: spots.top(2, highest=v),
        "near": lambda v: spots.top(2, near=v, radius=1.0, path_distance=2.0),
        "radius": lambda v: spots.top(1, near=(0.5, 0.5), radius=v),
        "path_distance": lambda v: spots.top(1, near=(0.5, 0.5), path_distance=v),
    }
    for v in WEIRD:
        try:
            calls[arg](v)
        except (ValueError, TypeError):
            pass


def test_a_failed_build_leaves_the_old_answers():
    grid = im.Grid(np.ones((2, 3)))
    layer = grid.layer([[1.0, 5.0, 2.0], [0.0, 0.0, 0.0]])
    spots = layer.spot_index()
    before = spots.top(2)
    with pytest.raises(ValueError):
        spots.build(im.Grid(np.ones((2, 3))).layer())
    with pytest.raises(TypeError):
        spots.build(np.zeros((2, 3)))
    assert spots.built and same_answer(spots.top(2), before)
