"""The module against the Rust library, bit for bit: the same inputs written as a scenario
file and rendered by the `influence` command (its `.npy` arrays and `summary.json`), and
given to the module's own calls. Every comparison is of exact float32 bits."""

import pathlib

import numpy as np
import pytest

import influence_maps as im
from conftest import MAPS, SCENARIOS, same_bits

def walkable_points(grid, n, seed):
    """`n` points on walkable cells of `grid`: a third at cell centres (the stamper's cached
    kernels), the rest off them (its direct rows), near walls and in the open."""
    rng = np.random.default_rng(seed)
    ys, xs = np.nonzero(grid.walkable)
    pick = rng.choice(len(xs), size=n, replace=False)
    offsets = rng.uniform(0.05, 0.95, size=(n, 2)).astype(np.float32)
    offsets[: n // 3] = 0.5  # a third exactly at cell centres
    return np.stack([xs[pick] + offsets[:, 0], ys[pick] + offsets[:, 1]], axis=1).astype(np.float64)


def toml_number(v):
    return repr(float(v))


def toml_sources(team, points, strengths, radius, extra):
    out = []
    for (x, y), s in zip(points, strengths):
        out.append(
            f'[[source]]\nteam = "{team}"\nat = [{toml_number(x)}, {toml_number(y)}]\n'
            f"strength = {toml_number(s)}\n{extra}\n"
            + (f"radius = {toml_number(radius)}\n" if radius is not None else "")
        )
    return "\n".join(out)


FALLOFFS = [
    ("linear", {}, 'falloff = "linear"'),
    ("exponential", {"rate": 0.15}, 'falloff = "exponential"\nrate = 0.15'),
    ("halving", {"step": 3.0}, 'falloff = "halving"\nstep = 3.0'),
    ("polynomial", {"power": 2.5}, 'falloff = "polynomial"\npower = 2.5'),
    ("gaussian", {"sigma": 4.0}, 'falloff = "gaussian"\nsigma = 4.0'),
    ("constant", {}, 'falloff = "constant"'),
    ("point", {}, 'falloff = "point"'),
    (
        "band",
        {"band": [(0.0, 1.0), (4.0, 1.0), (8.0, 0.6), (12.0, 0.0)]},
        'falloff = "band"\npoints = [[0.0, 1.0], [4.0, 1.0], [8.0, 0.6], [12.0, 0.0]]',
    ),
]
TEAMS = {"euclid": "euclidean", "manhattan": "manhattan", "octile": "octile", "walking": "path"}


@pytest.mark.parametrize("falloff, params, toml", FALLOFFS, ids=[f[0] for f in FALLOFFS])
def test_stamping_matches_the_command_for_every_falloff_and_distance(render, den012d, falloff, params, toml):
    grid = im.Grid.load_movingai(den012d)
    points = walkable_points(grid, 24, 101)
    strengths = np.random.default_rng(7).uniform(-3.0, 8.0, size=len(points)).round(3)
    radius = None if falloff in ("point", "band") else 12.0
    text = f'[map]\nfile = "{den012d}"\n\n'
    for team, distance in TEAMS.items():
        text += toml_sources(team, points, strengths, radius, f'{toml}\ndistance = "{distance}"') + "\n"
    text += f"[output]\nlayers = {list(TEAMS)}\n".replace("'", '"')
    layers, _ = render(text)
    for team, distance in TEAMS.items():
        mine = grid.layer()
        mine.add(points, strength=strengths, radius=radius, falloff=falloff, distance=distance, **params)
        assert same_bits(mine.numpy(), layers[team]), f"{falloff} / {distance}"
        assert np.count_nonzero(layers[team]) > 0


def test_compound_maps_front_line_and_safest_spots_match_the_command(render, den012d):
    grid = im.Grid.load_movingai(den012d)
    red_at, blue_at = walkable_points(grid, 30, 102), walkable_points(grid, 30, 103)
    text = f'perspective = "red"\n[map]\nfile = "{den012d}"\n\n'
    text += toml_sources("red", red_at, [5.0] * 30, 40.0, 'falloff = "linear"') + "\n"
    text += toml_sources("blue", blue_at, [4.0] * 30, 30.0, 'falloff = "linear"\ndistance = "path"') + "\n"
    names = ["red", "blue", "mine", "theirs", "influence", "tension", "tension_product", "vulnerability",
             "directed_vulnerability", "frontline"]
    text += f"[output]\nlayers = {names}\n".replace("'", '"')
    layers, summary = render(text)

    red, blue = grid.layer(), grid.layer()
    red.add(red_at, strength=5.0, radius=40.0)
    blue.add(blue_at, strength=4.0, radius=30.0, distance="path")
    maps = im.analysis(red, [blue])
    for name in names[2:-1]:
        assert same_bits(getattr(maps, name).numpy(), layers[name]), name
    front = maps.influence.frontline()
    assert front.dtype == np.bool_ and np.array_equal(front, layers["frontline"] == 1.0)
    assert np.float32(summary["front_length"]) == np.float32(maps.influence.frontline_length())

    # The summary's safest cell of each team: the highest of its influence.
    for team, maps_t in [("red", maps), ("blue", im.analysis(blue, red))]:
        info = next(t for t in summary["teams"] if t["name"] == team)
        points, values = maps_t.influence.top(1)
        assert grid.cell_at(points[0]) == tuple(info["safest"]["cell"])
        assert np.float32(info["safest"]["value"]) == values[0]
        peak_points, _ = (red if team == "red" else blue).top(1)
        assert grid.cell_at(peak_points[0]) == tuple(info["peak"]["cell"])
    hottest, _ = maps.tension.top(1)
    assert grid.cell_at(hottest[0]) == tuple(summary["hottest_tension"]["cell"])


def test_routes_match_the_command(render, den012d):
    grid = im.Grid.load_movingai(den012d)
    enemies = walkable_points(grid, 20, 104)
    ends = walkable_points(grid, 6, 105)
    text = f'[map]\nfile = "{den012d}"\n\n'
    text += toml_sources("red", ends[:1], [1.0], 3.0, 'falloff = "linear"') + "\n"
    text += toml_sources("blue", enemies, [6.0] * 20, 25.0, 'falloff = "linear"') + "\n"
    weights = [0.0, 1.0, 4.0]
    for (a, b), w in zip([(ends[0], ends[1]), (ends[2], ends[3]), (ends[4], ends[5])], weights):
        text += f"[[path]]\nfrom = [{float(a[0])!r}, {float(a[1])!r}]\nto = [{float(b[0])!r}, {float(b[1])!r}]\nlayer = \"blue\"\nweight = {w}\n\n"
    text += '[output]\nlayers = ["blue"]\n'
    layers, summary = render(text)

    danger = grid.layer()
    danger.add(enemies, strength=6.0, radius=25.0)
    assert same_bits(danger.numpy(), layers["blue"])
    assert sum(plan["reachable"] for plan in summary["paths"]) >= 2
    for plan, (a, b), w in zip(summary["paths"], [(ends[0], ends[1]), (ends[2], ends[3]), (ends[4], ends[5])], weights):
        route = grid.path(tuple(a), tuple(b), avoid=danger, weight=w)
        if not plan["reachable"]:
            assert route is None
            continue
        assert route.cells.tolist() == plan["cells"]
        assert route.length == plan["length"] and route.exposure == plan["exposure"]
        assert np.array_equal(route.points, route.cells + 0.5)


DIFFUSIONS = [("exponential", 1.0, 8, 37), ("linear", 0.6, 4, 80), ("exponential", 0.3, 8, 1)]
SEEDS = [
    ("point", {}, 'falloff = "point"', None),
    ("linear", {"radius": 6.0, "mode": "max"}, 'falloff = "linear"\nmode = "max"', 6.0),
]


@pytest.mark.parametrize("decay_kind, momentum, neighbours, steps", DIFFUSIONS)
@pytest.mark.parametrize("falloff, kwargs, toml, radius", SEEDS, ids=[s[0] for s in SEEDS])
def test_diffusion_matches_the_command(render, den012d, decay_kind, momentum, neighbours, steps, falloff, kwargs, toml, radius):
    grid = im.Grid.load_movingai(den012d)
    at = walkable_points(grid, 6, 106)
    strengths = [3.0, 1.0, 2.0, 5.0, 0.5, 4.0]
    text = f'[map]\nfile = "{den012d}"\n\n[propagation]\nkind = "diffuse"\ndecay = 0.05\ndecay_kind = "{decay_kind}"\n'
    text += f"momentum = {momentum}\nsteps = {steps}\nneighbours = {neighbours}\n\n"
    text += toml_sources("red", at, strengths, radius, toml) + "\n"
    text += '[output]\nlayers = ["red"]\n'
    layers, summary = render(text)
    assert summary["propagation"]["steps"] == steps

    spread = grid.diffusion(decay=0.05, momentum=momentum, decay_kind=decay_kind, neighbours=neighbours)
    spread.set_sources(at, strength=strengths, falloff=falloff, **kwargs)
    # In two calls, to show that steps add up: the same bits as all at once.
    spread.step(steps // 2).step(steps - steps // 2)
    assert spread.steps == steps and spread.neighbours == neighbours
    assert same_bits(spread.layer().numpy(), layers["red"])


def test_steady_state_and_flood_match_the_command(render, den012d):
    grid = im.Grid.load_movingai(den012d)
    at = walkable_points(grid, 5, 107)
    text = f'[map]\nfile = "{den012d}"\n\n[propagation]\nkind = "steady"\ndecay = 0.08\n\n'
    text += toml_sources("red", at, [1.0, 2.0, 3.0, 4.0, 5.0], None, 'falloff = "point"') + "\n"
    text += '[output]\nlayers = ["red"]\n'
    layers, _ = render(text, name="steady")
    spread = grid.diffusion(decay=0.08).set_sources(at, strength=[1.0, 2.0, 3.0, 4.0, 5.0])
    assert same_bits(spread.steady_state().numpy(), layers["red"])

    seen = at[0]
    text = f'[map]\nfile = "{den012d}"\n\n[propagation]\nkind = "flood"\n'
    text += f"last_seen = [{float(seen[0])!r}, {float(seen[1])!r}]\nvelocity = [1.0, -0.5]\nbarrier_radius = 6.0\n"
    text += "heat = 2.0\ncooling = 0.15\nmax_steps = 25\nmax_new = 400\n\n"
    text += toml_sources("red", at[1:2], [1.0], 4.0, 'falloff = "linear"') + "\n"
    text += '[output]\nlayers = ["red", "heat"]\n'
    layers, summary = render(text, name="flood")
    chase = grid.chase(tuple(seen), direction=(1.0, -0.5), barrier_radius=6.0, heat=2.0, cooling=0.15, max_steps=25, max_new=400)
    assert same_bits(chase.heat.numpy(), layers["heat"])
    prediction = summary["propagation"]["prediction"]
    assert np.array_equal(chase.warm, layers["heat"] > 0)
    assert list(chase.predicted_cell) == prediction["cell"]
    assert chase.steps == summary["propagation"]["steps"]


def test_the_field_matches_the_command(render, den012d):
    grid = im.Grid.load_movingai(den012d)
    at = walkable_points(grid, 12, 108)
    text = f'[map]\nfile = "{den012d}"\n\n'
    for (x, y), s in zip(at, np.linspace(-2.0, 6.0, 12)):
        text += f'[[field.source]]\nteam = "blue"\nat = [{float(x)!r}, {float(y)!r}]\nstrength = {float(s)!r}\nradius = 20.0\nfalloff = "gaussian"\nsigma = 6.0\n\n'
    text += '[output]\nlayers = ["blue"]\n'
    layers, _ = render(text)
    field = im.Field(at, strength=np.linspace(-2.0, 6.0, 12), radius=20.0, curve="gaussian", sigma=6.0)
    assert same_bits(field.to_layer(grid).numpy(), layers["blue"])


@pytest.mark.parametrize("scenario", sorted(p.name for p in SCENARIOS.glob("*.toml")))
def test_run_scenario_gives_the_command_s_arrays_and_summary(render, scenario):
    path = SCENARIOS / scenario
    expected, expected_summary = render(path, name=pathlib.Path(scenario).stem)
    layers, summary = im.run_scenario(path)
    assert sorted(layers) == sorted(expected)
    for name, array in layers.items():
        assert same_bits(array, expected[name]), name
    # The same summary, but for the scenario's file name as given.
    summary.pop("scenario"), expected_summary.pop("scenario")
    assert summary == expected_summary
    every, _ = im.run_scenario(str(path), layers="all")
    for name in layers:
        assert same_bits(every[name], layers[name])
