"""influence_maps against the numpy loop bots write, and one whole bot frame.

    python crates/influence-py/bench/bench.py            # after `pip install ./crates/influence-py`
    python crates/influence-py/bench/bench.py --quick    # fewer repeats

On a 200 × 176 map (a StarCraft II map's pathing grid size, with cliffs) and 200 enemy
units with radius 10 and linear falloff:

* ``layer.add`` stamps all of them in one call;
* the numpy loop does what python-sc2 helper libraries do, one unit at a time, written as
  well as numpy allows: one bounding-box slice per unit, its distances from precomputed
  cell-centre coordinates, the linear falloff, and an in-place add into the slice (walls
  zeroed once at the end). Both give the same map (checked);
* for reference, a loop-free numpy version (every unit's box at once, summed with
  ``np.bincount``), which bots rarely write.

It prints the median time of each and the ratio of the loop to ``layer.add`` (the goal is
>= 10x), then times one bot frame: stamp two teams, the analysis, the top-5 safest spots
near the army, and one danger-avoiding route across the map; and ten spot queries of one
layer, one ``Layer.top`` call each against one ``SpotIndex`` built for them (same answers).
"""

import argparse
import os
import platform
import statistics
import sys
import time

import numpy as np

import influence_maps as im

WIDTH, HEIGHT = 200, 176
UNITS, RADIUS = 200, 10.0


def sc2_like_map(seed=7):
    """A 176 × 200 pathing grid [y, x]: open ground with cliffs and rocks, unwalkable border."""
    rng = np.random.default_rng(seed)
    walkable = np.ones((HEIGHT, WIDTH), dtype=np.uint8)
    walkable[:6, :] = walkable[-6:, :] = 0
    walkable[:, :6] = walkable[:, -6:] = 0
    for _ in range(40):
        h, w = rng.integers(3, 14, size=2)
        y, x = rng.integers(6, HEIGHT - 20), rng.integers(6, WIDTH - 20)
        walkable[y : y + h, x : x + w] = 0
    return walkable


def units_on(walkable, n, centre, spread, rng):
    """`n` unit positions (x, y), float64 like python-sc2's, on walkable cells around `centre`."""
    out = []
    while len(out) < n:
        x, y = rng.normal(centre, spread)
        if 0 <= x < WIDTH and 0 <= y < HEIGHT and walkable[int(y), int(x)]:
            out.append((x, y))
    return np.array(out)


def numpy_loop(points, strengths, radius, walkable):
    """The loop bots write: per unit, a bounding-box slice, distances, falloff, add."""
    layer = np.zeros((HEIGHT, WIDTH), dtype=np.float32)
    cx = np.arange(WIDTH, dtype=np.float32) + np.float32(0.5)  # cell centres, precomputed
    cy = np.arange(HEIGHT, dtype=np.float32) + np.float32(0.5)
    inv_r = np.float32(1.0 / radius)
    for (px, py), s in zip(points, strengths):
        # Cells whose centre can lie within the radius.
        x0, x1 = max(int(px - radius - 0.5), 0), min(int(px + radius + 0.5) + 1, WIDTH)
        y0, y1 = max(int(py - radius - 0.5), 0), min(int(py + radius + 0.5) + 1, HEIGHT)
        dx = cx[x0:x1] - np.float32(px)
        dy = cy[y0:y1] - np.float32(py)
        dx *= dx
        dy *= dy
        v = dy[:, None] + dx[None, :]  # squared distances of the box: the one allocation
        np.sqrt(v, out=v)
        v *= -inv_r  # linear falloff 1 − d/r, in place; negative beyond the radius
        v += np.float32(1.0)
        np.maximum(v, np.float32(0.0), out=v)
        v *= np.float32(s)
        layer[y0:y1, x0:x1] += v
    layer *= walkable  # walls hold no influence
    return layer


def numpy_vectorised(points, strengths, radius, walkable):
    """No Python loop: every unit's box of cells at once, summed into the map by bincount."""
    k = int(np.ceil(radius + 0.5)) * 2 + 1
    offsets = np.arange(k) - k // 2
    px, py = points[:, 0].astype(np.float32), points[:, 1].astype(np.float32)
    bx = px.astype(np.int64)[:, None] + offsets[None, :]  # (N, k) columns
    by = py.astype(np.int64)[:, None] + offsets[None, :]  # (N, k) rows
    dx = bx.astype(np.float32) + np.float32(0.5) - px[:, None]
    dy = by.astype(np.float32) + np.float32(0.5) - py[:, None]
    d = np.sqrt(dy[:, :, None] ** 2 + dx[:, None, :] ** 2)  # (N, k, k)
    v = np.maximum(np.float32(1.0) - d / np.float32(radius), np.float32(0.0)) * strengths.astype(np.float32)[:, None, None]
    inside = ((bx >= 0) & (bx < WIDTH))[:, None, :] & ((by >= 0) & (by < HEIGHT))[:, :, None]
    flat = (np.clip(by, 0, HEIGHT - 1)[:, :, None] * WIDTH + np.clip(bx, 0, WIDTH - 1)[:, None, :])[inside]
    layer = np.bincount(flat, weights=v[inside], minlength=WIDTH * HEIGHT).astype(np.float32)
    return layer.reshape(HEIGHT, WIDTH) * walkable


def timed(fn, repeats, warmup=3):
    """(median, best) seconds of `repeats` calls: the median for the ratio, the best as the
    time on an unloaded machine."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats")
    args = parser.parse_args()
    repeats = 30 if args.quick else 200

    rng = np.random.default_rng(1)
    walkable = sc2_like_map()
    grid = im.Grid(walkable, cell_size=1.0, neighbours=8)
    enemies = units_on(walkable, UNITS, (140.0, 60.0), 25.0, rng)
    enemy_dps = rng.uniform(5.0, 30.0, UNITS)
    army = units_on(walkable, UNITS, (60.0, 120.0), 25.0, rng)
    army_dps = rng.uniform(5.0, 30.0, UNITS)

    # The same map from all three.
    ours = grid.layer().add(enemies, strength=enemy_dps, radius=RADIUS, falloff="linear").numpy()
    loop = numpy_loop(enemies, enemy_dps, RADIUS, walkable)
    flat = numpy_vectorised(enemies, enemy_dps, RADIUS, walkable)
    assert np.allclose(ours, loop, rtol=1e-5, atol=1e-4), np.abs(ours - loop).max()
    assert np.allclose(ours, flat, rtol=1e-5, atol=1e-3), np.abs(ours - flat).max()

    t_add = timed(lambda: grid.layer().add(enemies, strength=enemy_dps, radius=RADIUS, falloff="linear"), repeats)
    t_loop = timed(lambda: numpy_loop(enemies, enemy_dps, RADIUS, walkable), max(repeats // 4, 10))
    t_flat = timed(lambda: numpy_vectorised(enemies, enemy_dps, RADIUS, walkable), max(repeats // 4, 10))

    army_at = tuple(army.mean(axis=0))
    army_cell = grid.nearest_walkable(army_at)
    target = grid.nearest_walkable((170.0, 40.0))  # the enemy's side of the map

    def frame():
        mine = grid.layer().add(army, strength=army_dps, radius=RADIUS, falloff="linear")
        theirs = grid.layer().add(enemies, strength=enemy_dps, radius=RADIUS, falloff="linear")
        maps = im.analysis(mine, theirs)
        spots, values = maps.influence.top(5, spacing=6.0, near=army_cell, radius=40.0)
        route = grid.path(army_cell, target, avoid=theirs, weight=1.0)
        return spots, route

    spots, route = frame()
    assert len(spots) == 5 and route is not None
    t_frame = timed(frame, repeats)
    parts = {
        "stamp two teams": lambda: (
            grid.layer().add(army, strength=army_dps, radius=RADIUS),
            grid.layer().add(enemies, strength=enemy_dps, radius=RADIUS),
        ),
    }
    mine = grid.layer().add(army, strength=army_dps, radius=RADIUS)
    theirs = grid.layer().add(enemies, strength=enemy_dps, radius=RADIUS)
    maps = im.analysis(mine, theirs)
    parts["analysis"] = lambda: im.analysis(mine, theirs)
    parts["top-5 safest spots"] = lambda: maps.influence.top(5, spacing=6.0, near=army_cell, radius=40.0)
    parts["danger-avoiding route"] = lambda: grid.path(army_cell, target, avoid=theirs, weight=1.0)

    # Ten spot queries of one layer (top-5, spacings 1 to 10): one Layer.top call each, or one
    # SpotIndex built for the frame and asked all ten (the build counted). Same answers.
    spacings = range(1, 11)
    index = im.SpotIndex(grid)

    def ten_one_shot():
        return [maps.influence.top(5, spacing=float(s)) for s in spacings]

    def ten_indexed():
        index.build(maps.influence)
        return [index.top(5, spacing=float(s)) for s in spacings]

    for (p1, v1), (p2, v2) in zip(ten_one_shot(), ten_indexed()):
        assert np.array_equal(p1, p2) and np.array_equal(v1.view(np.uint32), v2.view(np.uint32))
    parts["ten top-5, Layer.top"] = ten_one_shot
    parts["ten top-5, one SpotIndex"] = ten_indexed
    part_times = {name: timed(fn, repeats) for name, fn in parts.items()}

    ms = lambda t: f"{t[0] * 1e3:8.3f} ms (best {t[1] * 1e3:7.3f})"
    ratio = t_loop[0] / t_add[0]
    print(f"influence_maps {im.__version__}, numpy {np.__version__}, Python {platform.python_version()}, "
          f"{platform.machine()} with {os.cpu_count()} CPUs, {platform.system()}")
    print(f"map {WIDTH} x {HEIGHT} ({int(walkable.sum())} walkable cells), {UNITS} units, radius {RADIUS:g}, "
          "linear falloff; median of repeated runs (and the best run)")
    print(f"  layer.add (one call)               {ms(t_add)}")
    print(f"  numpy loop (bounding-box slices)   {ms(t_loop)}   {ratio:5.1f}x the time of layer.add")
    print(f"  numpy vectorised (bincount)        {ms(t_flat)}   {t_flat[0] / t_add[0]:5.1f}x the time of layer.add")
    print(f"ratio numpy loop / layer.add: {ratio:.1f}x (goal >= 10x)")
    print(f"one bot frame (stamp two teams of {UNITS}, analysis, top-5 safest spots, one route of {len(route)} cells): "
          f"{ms(t_frame).strip()}")
    for name, t in part_times.items():
        print(f"  {name:<24} {ms(t)}")
    return 0 if ratio >= 10 else 1


if __name__ == "__main__":
    sys.exit(main())
