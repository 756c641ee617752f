"""Every bad input raises ValueError or TypeError naming the argument and the value (a
missing file FileNotFoundError), before anything changes; nothing panics or crashes."""

import re

import numpy as np
import pytest

import influence_maps as im
from conftest import SCENARIOS

GRID = im.Grid.from_rows(["....", ".@..", "...."])
OTHER = im.Grid(np.ones((2, 2)))
CHASE = str(SCENARIOS / "chase.toml")


def layer():
    return GRID.layer()


def bad_band(points):
    return lambda: layer().add((0.5, 0.5), falloff="band", band=points)


# (call, exception, message pattern): the pattern names the argument and shows the value.
CASES = {
    # Grid
    "walkable dtype": (lambda: im.Grid(np.zeros((2, 2), dtype=complex)), TypeError, r"walkable must be .* dtype complex128"),
    "walkable strings": (lambda: im.Grid("abc"), TypeError, r"walkable must be .*dtype <U3 \('abc'\)"),
    "walkable None": (lambda: im.Grid(None), TypeError, r"walkable must be .*dtype object \(None\)"),
    "walkable 1-D": (lambda: im.Grid(np.ones(5)), ValueError, r"walkable must be a non-empty 2-D array .* got shape \(5,\)"),
    "walkable 3-D": (lambda: im.Grid(np.ones((2, 2, 2))), ValueError, r"walkable .* got shape \(2, 2, 2\)"),
    "walkable empty": (lambda: im.Grid(np.ones((0, 4))), ValueError, r"walkable must be a non-empty .* got shape \(0, 4\)"),
    "walkable ragged": (lambda: im.Grid([[1, 2], [3]]), ValueError, r"walkable must be .* got \[\[1, 2\], \[3\]\]"),
    "walkable NaN": (lambda: im.Grid([[1.0, np.nan]]), ValueError, r"walkable must not hold NaN, got one at \[0, 1\]"),
    "walkable too big": (lambda: im.Grid(np.broadcast_to(np.uint8(1), (1 << 15, 1 << 14))), ValueError, r"walkable has 32768 × 16384 cells"),
    "cell_size zero": (lambda: im.Grid(np.ones((2, 2)), cell_size=0), ValueError, r"cell_size must be a finite number greater than 0, got 0"),
    "cell_size NaN": (lambda: im.Grid(np.ones((2, 2)), cell_size=float("nan")), ValueError, r"cell_size must be a finite number greater than 0, got nan"),
    "cell_size str": (lambda: im.Grid(np.ones((2, 2)), cell_size="1"), TypeError, r"cell_size must be a number, got '1'"),
    "cell_size bool": (lambda: im.Grid(np.ones((2, 2)), cell_size=True), TypeError, r"cell_size must be a number, got True"),
    "neighbours 6": (lambda: im.Grid(np.ones((2, 2)), neighbours=6), ValueError, r"neighbours must be 4 or 8, got 6"),
    "neighbours str": (lambda: im.Grid(np.ones((2, 2)), neighbours="8"), TypeError, r"neighbours must be an integer, got '8'"),
    "neighbours float": (lambda: im.Grid(np.ones((2, 2)), neighbours=8.0), TypeError, r"neighbours must be an integer, got 8.0"),
    "origin NaN": (lambda: im.Grid(np.ones((2, 2)), origin=(np.nan, 0)), ValueError, r"origin must be finite, got \(nan, 0.0\)"),
    "origin shape": (lambda: im.Grid(np.ones((2, 2)), origin=(1, 2, 3)), ValueError, r"origin must be .* got shape \(3,\)"),
    "map missing": (lambda: im.Grid.load_movingai("/no/such.map"), FileNotFoundError, r"path: no map file at /no/such.map"),
    "map path type": (lambda: im.Grid.load_movingai(5), TypeError, r"path must be a str or os.PathLike, got 5"),
    "rows ragged": (lambda: im.Grid.from_rows(["..", "."]), ValueError, r"rows: line 2: row has 1 cells, expected 2"),
    "rows character": (lambda: im.Grid.from_rows([".x"]), ValueError, r"rows: line 1: unknown map character 'x' at column 2"),
    "rows empty": (lambda: im.Grid.from_rows([]), ValueError, r"rows: map size 0×0 is not allowed"),
    "rows str": (lambda: im.Grid.from_rows(".."), TypeError, r"rows must be a list of strings, got '..'"),
    # Grid queries
    "layer values shape": (lambda: GRID.layer(np.ones((4, 3))), ValueError, r"values must be .* shape \(3, 4\), got shape \(4, 3\) \(transposed\?"),
    "layer values dtype": (lambda: GRID.layer(np.ones((3, 4), dtype=complex)), TypeError, r"values must be .* dtype complex128"),
    "layer values inf": (lambda: GRID.layer(np.full((3, 4), np.inf)), ValueError, r"values must hold finite float32 values, got inf at \[0, 0\]"),
    "layer values overflow": (lambda: GRID.layer(np.full((3, 4), 1e300)), ValueError, r"values must hold finite float32 values, got 1e\+300 at \[0, 0\]"),
    "layer fill NaN": (lambda: GRID.layer(np.nan), ValueError, r"values must be a finite number, got nan"),
    "cell_at outside": (lambda: GRID.cell_at((10, 1)), ValueError, r"points must lie on the grid \(x in \[0.0, 4.0\), y in \[0.0, 3.0\)\), got \(10.0, 1.0\)"),
    "center outside": (lambda: GRID.center((5, 1)), ValueError, r"cells must be a cell of the grid .* got \(5, 1\)"),
    "center floats": (lambda: GRID.center((0.5, 1)), TypeError, r"cells must be .* integer .* dtype float64"),
    "is_walkable outside": (lambda: GRID.is_walkable([(0.5, 0.5), (-1, 0)]), ValueError, r"points\[1\] must lie on the grid .* got \(-1.0, 0.0\)"),
    "nearest none walkable": (lambda: im.Grid.from_rows(["@@"]).nearest_walkable((0, 0)), ValueError, r"no cell of the grid is walkable"),
    # Layer.add
    "points shape": (lambda: layer().add([(1, 2, 3)], radius=1), ValueError, r"points must be an \(N, 2\) array .* got shape \(1, 3\)"),
    "points dtype": (lambda: layer().add(["ab"], radius=1), TypeError, r"points must be .* dtype <U2"),
    "points bool": (lambda: layer().add(np.ones((2, 2), dtype=bool), radius=1), TypeError, r"points must be .* dtype bool"),
    "points NaN": (lambda: layer().add([(np.nan, 1)], radius=1), ValueError, r"points\[0\] must be finite, got \(nan, 1.0\)"),
    "points overflow": (lambda: layer().add([(1.5, 1.5), (1e40, 1)], radius=1), ValueError, r"points\[1\] must be finite, got \(1e\+40, 1.0\)"),
    "points outside": (lambda: layer().add((10, 1), radius=1), ValueError, r"points must lie on the grid .* got \(10.0, 1.0\)"),
    "points on a wall": (lambda: layer().add((1.5, 1.5), radius=1), ValueError, r"points = \(1.5, 1.5\) is on blocked cell \(1, 1\); the nearest walkable cell is \(1, 0\), centre \(1.5, 0.5\)"),
    "strength length": (lambda: layer().add((0.5, 0.5), strength=[1, 2], radius=1), ValueError, r"strength must be a number or an array of 1 numbers .* got shape \(2,\)"),
    "strength NaN": (lambda: layer().add((0.5, 0.5), strength=np.nan, radius=1), ValueError, r"strength must be a finite number, got nan"),
    "strength item NaN": (lambda: layer().add([(0.5, 0.5)] * 2, strength=[1, np.nan], radius=1), ValueError, r"strength\[1\] must be a finite number, got nan"),
    "strength str": (lambda: layer().add((0.5, 0.5), strength="5", radius=1), TypeError, r"strength must be a number or an array .* dtype <U1"),
    "radius zero": (lambda: layer().add((0.5, 0.5), radius=0), ValueError, r"radius must be a finite number greater than 0, got 0.0"),
    "radius item": (lambda: layer().add([(0.5, 0.5)] * 2, radius=[1, -2]), ValueError, r"radius\[1\] must be a finite number greater than 0, got -2.0"),
    "radius length": (lambda: layer().add((0.5, 0.5), radius=[1, 2]), ValueError, r"radius must be a number or an array of 1 numbers .* got shape \(2,\)"),
    "radius missing": (lambda: layer().add((0.5, 0.5)), ValueError, r"radius is required for falloff 'linear'"),
    "falloff unknown": (lambda: layer().add((0.5, 0.5), radius=1, falloff="lin"), ValueError, r"falloff must be one of 'linear', .*; got 'lin'"),
    "falloff type": (lambda: layer().add((0.5, 0.5), radius=1, falloff=3), TypeError, r"falloff must be a string, .*; got 3"),
    "parameter not of the curve": (lambda: layer().add((0.5, 0.5), radius=1, sigma=2), ValueError, r"sigma does not apply to falloff 'linear': it takes no parameters"),
    "parameter missing": (lambda: layer().add((0.5, 0.5), radius=1, falloff="gaussian"), ValueError, r"falloff 'gaussian' needs sigma"),
    "sigma zero": (lambda: layer().add((0.5, 0.5), radius=1, falloff="gaussian", sigma=0), ValueError, r"sigma must be a finite number greater than 0, got 0"),
    "rate negative": (lambda: layer().add((0.5, 0.5), radius=1, falloff="exponential", rate=-1), ValueError, r"rate must be a finite number, 0 or more, got -1"),
    "step zero": (lambda: layer().add((0.5, 0.5), radius=1, falloff="halving", step=0.0), ValueError, r"step must be a finite number greater than 0, got 0.0"),
    "power NaN": (lambda: layer().add((0.5, 0.5), radius=1, falloff="polynomial", power=float("nan")), ValueError, r"power must be a finite number greater than 0, got nan"),
    "band unsorted": (bad_band([(1, 1), (0.5, 0)]), ValueError, r"band: band falloff: distances must not decrease"),
    "band factor": (bad_band([(0, 2)]), ValueError, r"band: band falloff: .*factors numbers from -1 to 1"),
    "band empty": (bad_band([]), ValueError, r"band: band falloff: needs at least one point"),
    "band type": (bad_band("x"), ValueError, r"band must be a list of \(distance, factor\) pairs"),
    "distance unknown": (lambda: layer().add((0.5, 0.5), radius=1, distance="eucl"), ValueError, r"distance must be one of 'euclidean', 'manhattan', 'octile', 'path'; got 'eucl'"),
    "mode unknown": (lambda: layer().add((0.5, 0.5), radius=1, mode="sum"), ValueError, r"mode must be one of 'add', 'set', 'max'; got 'sum'"),
    "on_blocked unknown": (lambda: layer().add((0.5, 0.5), radius=1, on_blocked="ignore"), ValueError, r"on_blocked must be one of 'error', 'snap', 'skip'; got 'ignore'"),
    "custom result": (lambda: layer().add((0.5, 0.5), radius=2, falloff=lambda d, r: "x"), TypeError, r"the falloff's result must be a number, got 'x'"),
    # Layer algebra
    "other shape": (lambda: layer() + np.ones((4, 3)), ValueError, r"other must be .* shape \(3, 4\), got shape \(4, 3\)"),
    "other str": (lambda: layer() + "x", TypeError, r"other must be a Layer, an array of shape \(3, 4\) or a number, got 'x'"),
    "other dtype": (lambda: layer() - np.ones((3, 4), dtype=complex), TypeError, r"other must be .* dtype complex128"),
    "other layer shape": (lambda: layer() * OTHER.layer(), ValueError, r"other must be a layer of shape \(3, 4\), got one of shape \(2, 2\)"),
    "other NaN": (lambda: layer() * np.nan, ValueError, r"other must be a finite number, got nan"),
    "other NaN array": (lambda: layer() + np.full((3, 4), np.nan), ValueError, r"other must hold finite float32 values, got nan at \[0, 0\]"),
    "divisor zero": (lambda: layer() / 0, ValueError, r"divisor must not be zero, got 0"),
    "divisor layer": (lambda: layer() / layer(), TypeError, r"divisor must be a number, got Layer"),
    "clamp order": (lambda: layer().clamp(2, 1), ValueError, r"lo must not exceed hi, got lo=2 and hi=1"),
    "fill NaN": (lambda: layer().fill(np.nan), ValueError, r"value must be a finite number, got nan"),
    "scale inf": (lambda: layer().scale(np.inf), ValueError, r"factor must be a finite number, got inf"),
    "maximum None": (lambda: layer().maximum(None), TypeError, r"other must be a Layer, .* got None"),
    # Layer queries
    "value outside": (lambda: layer().value((10, 1)), ValueError, r"points must lie on the grid .* got \(10.0, 1.0\)"),
    "value NaN": (lambda: layer().value((np.nan, 1)), ValueError, r"points must be finite, got \(nan, 1.0\)"),
    "bilinear type": (lambda: layer().value((1, 1), bilinear=1), TypeError, r"bilinear must be True or False, got 1"),
    "gradient outside": (lambda: layer().gradient((1, 10)), ValueError, r"points must lie on the grid .* got \(1.0, 10.0\)"),
    "top n negative": (lambda: layer().top(-1), ValueError, r"n must be an integer from 0 to 2\*\*63 - 1, got -1"),
    "top n float": (lambda: layer().top(1.5), TypeError, r"n must be an integer, got 1.5"),
    "top n huge": (lambda: layer().top(10**30), ValueError, r"n must be an integer from 0 to 2\*\*63 - 1, got 10{30}"),
    "top spacing": (lambda: layer().top(spacing=-1), ValueError, r"spacing must be a finite number, 0 or more, got -1"),
    "top highest": (lambda: layer().top(highest="yes"), TypeError, r"highest must be True or False, got 'yes'"),
    "top near alone": (lambda: layer().top(near=(1, 1)), ValueError, r"near needs radius or path_distance"),
    "top radius alone": (lambda: layer().top(radius=2), ValueError, r"radius needs near=\(x, y\)"),
    "top path alone": (lambda: layer().top(path_distance=2), ValueError, r"path_distance needs near=\(x, y\)"),
    "top near outside": (lambda: layer().top(near=(10, 1), radius=1), ValueError, r"near must lie on the grid .* got \(10.0, 1.0\)"),
    "top near on a wall": (lambda: layer().top(near=(1.5, 1.5), path_distance=2), ValueError, r"near = \(1.5, 1.5\) is on blocked cell \(1, 1\)"),
    "top radius negative": (lambda: layer().top(near=(0.5, 0.5), radius=-1), ValueError, r"radius must be a finite number, 0 or more, got -1"),
    "centroid threshold": (lambda: layer().centroid(np.nan), ValueError, r"threshold must be a finite number, got nan"),
    # Routes
    "start outside": (lambda: GRID.path((10, 1), (0.5, 0.5)), ValueError, r"start must lie on the grid .* got \(10.0, 1.0\)"),
    "goal on a wall": (lambda: GRID.path((0.5, 0.5), (1.5, 1.5)), ValueError, r"goal = \(1.5, 1.5\) is on blocked cell \(1, 1\); the nearest walkable cell is \(1, 0\)"),
    "start many": (lambda: GRID.path([(0.5, 0.5), (1, 1)], (2.5, 2.5)), ValueError, r"start must be one point \(x, y\), got \[\(0.5, 0.5\), \(1, 1\)\]"),
    "weight negative": (lambda: GRID.path((0.5, 0.5), (2.5, 2.5), avoid=layer(), weight=-1), ValueError, r"weight must be a finite number, 0 or more, got -1"),
    "weight NaN": (lambda: GRID.path((0.5, 0.5), (2.5, 2.5), avoid=layer(), weight=np.nan), ValueError, r"weight must be a finite number, 0 or more, got nan"),
    "avoid shape": (lambda: GRID.path((0.5, 0.5), (2.5, 2.5), avoid=np.ones((2, 2))), ValueError, r"avoid must be .* got shape \(2, 2\)"),
    "avoid layer shape": (lambda: GRID.path((0.5, 0.5), (2.5, 2.5), avoid=OTHER.layer()), ValueError, r"avoid must be a layer of shape \(3, 4\), got one of shape \(2, 2\)"),
    # Flow fields
    "flow goal outside": (lambda: GRID.flow_field((10, 1)), ValueError, r"goal must lie on the grid \(x in \[0.0, 4.0\), y in \[0.0, 3.0\)\), got \(10.0, 1.0\)"),
    "flow goal on a wall": (lambda: GRID.flow_field((1.5, 1.5)), ValueError, r"goal = \(1.5, 1.5\) is on blocked cell \(1, 1\); the nearest walkable cell is \(1, 0\)"),
    "flow goal item on a wall": (lambda: GRID.flow_field([(0.5, 0.5), (1.5, 1.5)]), ValueError, r"goal\[1\] = \(1.5, 1.5\) is on blocked cell \(1, 1\)"),
    "flow goal item outside": (lambda: GRID.flow_field([(0.5, 0.5), (-1, 0)]), ValueError, r"goal\[1\] must lie on the grid .* got \(-1.0, 0.0\)"),
    "flow goal none": (lambda: GRID.flow_field([]), ValueError, r"goal must be one point \(x, y\) or a non-empty list of them, got \[\]"),
    "flow goal NaN": (lambda: GRID.flow_field((np.nan, 0.5)), ValueError, r"goal must be finite, got \(nan, 0.5\)"),
    "flow goal shape": (lambda: GRID.flow_field([(1, 2, 3)]), ValueError, r"goal must be an \(N, 2\) array .* got shape \(1, 3\)"),
    "flow goal str": (lambda: GRID.flow_field("x"), TypeError, r"goal must be .* dtype <U1"),
    "flow goal None": (lambda: GRID.flow_field(None), TypeError, r"goal must be .* dtype object \(None\)"),
    "flow weight negative": (lambda: GRID.flow_field((0.5, 0.5), avoid=layer(), weight=-1), ValueError, r"weight must be a finite number, 0 or more, got -1"),
    "flow weight NaN": (lambda: GRID.flow_field((0.5, 0.5), avoid=layer(), weight=np.nan), ValueError, r"weight must be a finite number, 0 or more, got nan"),
    "flow weight inf": (lambda: GRID.flow_field((0.5, 0.5), avoid=layer(), weight=np.inf), ValueError, r"weight must be a finite number, 0 or more, got inf"),
    "flow weight str": (lambda: GRID.flow_field((0.5, 0.5), avoid=layer(), weight="1"), TypeError, r"weight must be a number, got '1'"),
    "flow weight bool": (lambda: GRID.flow_field((0.5, 0.5), avoid=layer(), weight=True), TypeError, r"weight must be a number, got True"),
    "flow avoid shape": (lambda: GRID.flow_field((0.5, 0.5), avoid=np.ones((4, 3))), ValueError, r"avoid must be .* shape \(3, 4\), got shape \(4, 3\) \(transposed\?"),
    "flow avoid layer shape": (lambda: GRID.flow_field((0.5, 0.5), avoid=OTHER.layer()), ValueError, r"avoid must be a layer of shape \(3, 4\), got one of shape \(2, 2\)"),
    "flow avoid NaN": (lambda: GRID.flow_field((0.5, 0.5), avoid=np.full((3, 4), np.nan)), ValueError, r"avoid must hold finite float32 values, got nan at \[0, 0\]"),
    "flow avoid str": (lambda: GRID.flow_field((0.5, 0.5), avoid="x"), TypeError, r"avoid must be .* dtype <U1"),
    "flow compute goal on a wall": (lambda: GRID.flow_field((0.5, 0.5)).compute((1.5, 1.5)), ValueError, r"goal = \(1.5, 1.5\) is on blocked cell \(1, 1\)"),
    "flow compute weight": (lambda: GRID.flow_field((0.5, 0.5)).compute((0.5, 0.5), weight=-0.5), ValueError, r"weight must be a finite number, 0 or more, got -0.5"),
    "flow compute avoid": (lambda: GRID.flow_field((0.5, 0.5)).compute((0.5, 0.5), avoid=OTHER.layer()), ValueError, r"avoid must be a layer of shape \(3, 4\)"),
    "flow cost outside": (lambda: GRID.flow_field((0.5, 0.5)).cost((10, 1)), ValueError, r"points must lie on the grid .* got \(10.0, 1.0\)"),
    "flow next_step item outside": (lambda: GRID.flow_field((0.5, 0.5)).next_step([(0.5, 0.5), (-1, 0)]), ValueError, r"points\[1\] must lie on the grid .* got \(-1.0, 0.0\)"),
    "flow is_reachable NaN": (lambda: GRID.flow_field((0.5, 0.5)).is_reachable([(np.nan, 1)]), ValueError, r"points\[0\] must be finite, got \(nan, 1.0\)"),
    "flow next_step str": (lambda: GRID.flow_field((0.5, 0.5)).next_step("x"), TypeError, r"points must be .* dtype <U1"),
    "flow path start on a wall": (lambda: GRID.flow_field((0.5, 0.5)).path((1.5, 1.5)), ValueError, r"start = \(1.5, 1.5\) is on blocked cell \(1, 1\); the nearest walkable cell is \(1, 0\)"),
    "flow path start outside": (lambda: GRID.flow_field((0.5, 0.5)).path((0.5, 9)), ValueError, r"start must lie on the grid .* got \(0.5, 9.0\)"),
    "flow path start many": (lambda: GRID.flow_field((0.5, 0.5)).path([(0.5, 0.5), (1, 1)]), ValueError, r"start must be one point \(x, y\), got \[\(0.5, 0.5\), \(1, 1\)\]"),
    # Analysis
    "mine type": (lambda: im.analysis("x", layer()), TypeError, r"mine must be a Layer, got 'x'"),
    "theirs type": (lambda: im.analysis(layer(), "x"), TypeError, r"theirs must be a Layer or a list of Layers, got 'x'"),
    "theirs item": (lambda: im.analysis(layer(), [layer(), 3]), TypeError, r"theirs\[1\] must be a Layer, got 3"),
    "theirs shape": (lambda: im.analysis(layer(), OTHER.layer()), ValueError, r"theirs must have the shape of mine, \(3, 4\), got \(2, 2\)"),
    # Diffusion
    "decay negative": (lambda: GRID.diffusion(decay=-1), ValueError, r"decay must be a finite number, 0 or more, got -1"),
    "momentum": (lambda: GRID.diffusion(decay=0.1, momentum=2), ValueError, r"momentum must be a number from 0 to 1, got 2"),
    "decay_kind": (lambda: GRID.diffusion(decay=0.1, decay_kind="quad"), ValueError, r"decay_kind must be one of 'exponential', 'linear'; got 'quad'"),
    "threshold": (lambda: GRID.diffusion(decay=0.1, threshold=-1), ValueError, r"threshold must be a finite number, 0 or more, got -1"),
    "diffusion neighbours": (lambda: GRID.diffusion(decay=0.1, neighbours=5), ValueError, r"neighbours must be 4 or 8, got 5"),
    "sources on a wall": (lambda: GRID.diffusion(decay=0.1).set_sources((1.5, 1.5)), ValueError, r"points = \(1.5, 1.5\) is on blocked cell \(1, 1\)"),
    "sources callable": (lambda: GRID.diffusion(decay=0.1).set_sources((0.5, 0.5), falloff=lambda d, r: 1, radius=1), ValueError, r"falloff must be a name"),
    "steps negative": (lambda: GRID.diffusion(decay=0.1).step(-1), ValueError, r"steps must be an integer from 0 to 2\*\*63 - 1, got -1"),
    "no steady state": (lambda: GRID.diffusion(decay=0.1).set_sources((0.5, 0.5), mode="add").steady_state(), ValueError, r"steady_state: additive seed at cell 0 has no steady state"),
    # Chase
    "last_seen outside": (lambda: GRID.chase((10, 1)), ValueError, r"last_seen must lie on the grid .* got \(10.0, 1.0\)"),
    "last_seen on a wall": (lambda: GRID.chase((1.5, 1.5)), ValueError, r"last_seen = \(1.5, 1.5\) is on blocked cell \(1, 1\)"),
    "direction NaN": (lambda: GRID.chase((0.5, 0.5), direction=(np.nan, 0)), ValueError, r"direction must be finite, got \(nan, 0.0\)"),
    "heat zero": (lambda: GRID.chase((0.5, 0.5), heat=0), ValueError, r"heat must be a finite number greater than 0, got 0"),
    "cooling negative": (lambda: GRID.chase((0.5, 0.5), cooling=-1), ValueError, r"cooling must be a finite number, 0 or more, got -1"),
    "max_steps negative": (lambda: GRID.chase((0.5, 0.5), max_steps=-1), ValueError, r"max_steps must be an integer from 0 to 2\*\*63 - 1, got -1"),
    "max_new float": (lambda: GRID.chase((0.5, 0.5), max_new=2.5), TypeError, r"max_new must be an integer, got 2.5"),
    "barrier_radius NaN": (lambda: GRID.chase((0.5, 0.5), barrier_radius=np.nan), ValueError, r"barrier_radius must be a finite number, 0 or more, got nan"),
    "chase neighbours": (lambda: GRID.chase((0.5, 0.5), neighbours=3), ValueError, r"neighbours must be 4 or 8, got 3"),
    # Field
    "field radius missing": (lambda: im.Field([(0, 0)]), ValueError, r"radius is required"),
    "field curve": (lambda: im.Field([(0, 0)], radius=1, curve="cone"), ValueError, r"curve must be one of 'linear', 'smooth', .*; got 'cone'"),
    "field parameter": (lambda: im.Field([(0, 0)], radius=1, sigma=1), ValueError, r"sigma does not apply to curve 'smooth'"),
    "field parameter missing": (lambda: im.Field([(0, 0)], radius=1, curve="gaussian"), ValueError, r"curve 'gaussian' needs sigma"),
    "field point inf": (lambda: im.Field([(np.inf, 0)], radius=1), ValueError, r"points\[0\] must be finite, got \(inf, 0.0\)"),
    "field radius zero": (lambda: im.Field([(0, 0)], radius=0), ValueError, r"radius must be a finite number greater than 0, got 0.0"),
    "field start NaN": (lambda: im.Field([(0, 0)], radius=1).descend((np.nan, 0)), ValueError, r"start must be finite, got \(nan, 0.0\)"),
    "field search radius": (lambda: im.Field([(0, 0)], radius=1).ascend((0, 0), radius=0), ValueError, r"radius must be a finite number greater than 0, got 0"),
    "field max_steps": (lambda: im.Field([(0, 0)], radius=1).ascend((0, 0), max_steps=-3), ValueError, r"max_steps must be an integer .* got -3"),
    "field grid type": (lambda: im.Field([(0, 0)], radius=1).to_layer("g"), TypeError, r"grid must be a Grid, got 'g'"),
    "field sample shape": (lambda: im.Field([(0, 0)], radius=1).sample([[1, 2, 3]]), ValueError, r"points must be .* got shape \(1, 3\)"),
    # Scenarios
    "scenario missing": (lambda: im.run_scenario("/no/such.toml"), FileNotFoundError, r"path: no scenario file at /no/such.toml"),
    "scenario path type": (lambda: im.run_scenario(3), TypeError, r"path must be a str or os.PathLike, got 3"),
    "scenario layer name": (lambda: im.run_scenario(CHASE, layers=["nope"]), ValueError, r'layers\[0\] = "nope" is not a layer of this scenario; known: guards, '),
    "scenario layers type": (lambda: im.run_scenario(CHASE, layers=3), TypeError, r'layers must be None, "all" or a list of layer names, got 3'),
    "scenario layers item": (lambda: im.run_scenario(CHASE, layers=[3]), TypeError, r"layers\[0\] must be a layer name, got 3"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_raises_naming_the_argument_and_value(case):
    call, error, pattern = CASES[case]
    with pytest.raises(error) as raised:
        call()
    assert type(raised.value) is error or issubclass(type(raised.value), error)
    assert re.search(pattern, str(raised.value)), f"{case}: {raised.value}"


def test_a_bad_scenario_names_file_line_and_key(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[map]\nwidth = 4\nheight = 2\n\n[[source]]\nteam = "red"\nat = [1, 1]\nstrength = 1\nfalloff = "linear"\nradius = -4\n')
    with pytest.raises(ValueError, match=r"bad.toml:10:1: source\[0\].radius: "):
        im.run_scenario(path)


def test_a_failed_call_changes_nothing():
    target = GRID.layer(1.0)
    before = target.numpy().copy()
    for call in [
        lambda: target.add([(0.5, 0.5), (1.5, 1.5)], radius=2.0),  # the second is on a wall
        lambda: target.add([(0.5, 0.5), (np.nan, 0.5)], radius=2.0),
        lambda: target.add([(0.5, 0.5), (2.5, 2.5)], radius=2.0, falloff=lambda d, r: 1 / (2.0 - d)),  # 1/0 at the rim
        lambda: target.__iadd__(np.full((3, 4), np.nan)),
    ]:
        with pytest.raises((ValueError, ZeroDivisionError)):
            call()
        assert np.array_equal(target.numpy(), before)


def test_a_custom_falloff_s_exception_reaches_the_caller():
    class Boom(Exception):
        pass

    def curve(d, r):
        raise Boom("from the curve")

    with pytest.raises(Boom, match="from the curve"):
        layer().add((0.5, 0.5), radius=2.0, falloff=curve)


WEIRD = [None, "x", b"x", [], [[]], (), np.nan, -1, 0, 1e40, -1e40, float("inf"), object(), np.zeros((0,)),
         np.zeros((2, 3, 4)), np.array([1 + 2j]), {"a": 1}, True, 10**40, np.float32(np.nan), [(0.5, 0.5)], (0.5, 0.5)]


def _every_call():
    g, lay = GRID, GRID.layer()
    field = im.Field([(1.0, 1.0)], radius=2.0)
    spread = GRID.diffusion(decay=0.1)
    flow = GRID.flow_field((0.5, 0.5))
    return {
        "Grid": lambda v: im.Grid(v),
        "Grid cell_size": lambda v: im.Grid(np.ones((2, 2)), cell_size=v),
        "Grid origin": lambda v: im.Grid(np.ones((2, 2)), origin=v),
        "layer": lambda v: g.layer(v),
        "cell_at": lambda v: g.cell_at(v),
        "center": lambda v: g.center(v),
        "nearest_walkable": lambda v: g.nearest_walkable(v),
        "add points": lambda v: lay.add(v, radius=1.0),
        "add strength": lambda v: lay.add((0.5, 0.5), strength=v, radius=1.0),
        "add radius": lambda v: lay.add((0.5, 0.5), radius=v),
        "add falloff": lambda v: lay.add((0.5, 0.5), radius=1.0, falloff=v),
        "add band": lambda v: lay.add((0.5, 0.5), falloff="band", band=v),
        "add distance": lambda v: lay.add((0.5, 0.5), radius=1.0, distance=v),
        "iadd": lambda v: lay.__iadd__(v),
        "mul": lambda v: lay * v,
        "truediv": lambda v: lay / v,
        "clamp": lambda v: lay.clamp(v),
        "maximum": lambda v: lay.maximum(v),
        "value": lambda v: lay.value(v),
        "gradient": lambda v: lay.gradient(v),
        "top n": lambda v: lay.top(v),
        "top near": lambda v: lay.top(near=v, radius=1.0),
        "top spacing": lambda v: lay.top(2, spacing=v),
        "path start": lambda v: g.path(v, (0.5, 0.5)),
        "path avoid": lambda v: g.path((0.5, 0.5), (3.5, 2.5), avoid=v),
        "path weight": lambda v: g.path((0.5, 0.5), (3.5, 2.5), avoid=lay, weight=v),
        "flow_field goal": lambda v: g.flow_field(v),
        "flow_field avoid": lambda v: g.flow_field((0.5, 0.5), avoid=v),
        "flow_field weight": lambda v: g.flow_field((0.5, 0.5), avoid=lay, weight=v),
        "flow compute": lambda v: flow.compute(v),
        "flow cost": lambda v: flow.cost(v),
        "flow next_step": lambda v: flow.next_step(v),
        "flow is_reachable": lambda v: flow.is_reachable(v),
        "flow path": lambda v: flow.path(v),
        "analysis": lambda v: im.analysis(lay, v),
        "diffusion decay": lambda v: g.diffusion(decay=v),
        "set_sources": lambda v: spread.set_sources(v),
        "step": lambda v: spread.step(v),
        "chase": lambda v: g.chase(v),
        "chase direction": lambda v: g.chase((0.5, 0.5), direction=v, max_steps=2),
        "Field": lambda v: im.Field(v, radius=1.0),
        "Field radius": lambda v: im.Field([(0, 0)], radius=v),
        "sample": lambda v: field.sample(v),
        "descend": lambda v: field.descend(v),
        "to_layer": lambda v: field.to_layer(v),
        "run_scenario": lambda v: im.run_scenario(v),
        "run_scenario layers": lambda v: im.run_scenario(CHASE, layers=v),
    }


@pytest.mark.parametrize("name", sorted(_every_call()))
def test_odd_values_raise_only_value_or_type_errors(name):
    """Each argument given values of every odd kind: the call works, or raises ValueError,
    TypeError (or FileNotFoundError for paths); never a panic (pyo3's PanicException is a
    BaseException, which this would not catch) or a crash."""
    call = _every_call()[name]
    for v in WEIRD:
        try:
            call(v)
        except (ValueError, TypeError, FileNotFoundError):
            pass
