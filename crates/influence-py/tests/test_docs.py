"""Every public function, method and property has a docstring with an example, and every
example runs and gives what it shows."""

import doctest
import inspect
import pathlib
import sys

import numpy as np
import pytest

import influence_maps as im

PUBLIC = [name for name in im.__all__ if not name.isupper() and name != "__version__"]


def documented():
    """(qualified name, docstring) of the module, every public class, function, method and
    property."""
    yield "influence_maps", im.__doc__
    for name in PUBLIC:
        obj = getattr(im, name)
        yield name, obj.__doc__
        if inspect.isclass(obj):
            for member in sorted(vars(obj)):
                if member.startswith("_"):
                    continue
                yield f"{name}.{member}", getattr(obj, member).__doc__


DOCS = list(documented())


def test_the_public_names_are_the_issue_s():
    for name in ["Grid", "Layer", "Route", "FlowField", "Analysis", "Diffusion", "Chase", "Field", "analysis", "run_scenario"]:
        assert name in im.__all__
    assert callable(im.Grid.load_movingai)
    assert set(im.FALLOFFS) >= {"linear", "exponential", "halving", "polynomial", "gaussian", "constant", "point", "band"}
    assert set(im.DISTANCES) == {"euclidean", "manhattan", "octile", "path"}


@pytest.mark.parametrize("name, doc", DOCS, ids=[n for n, _ in DOCS])
def test_docstring_has_a_passing_example(name, doc):
    assert doc and doc.strip(), f"{name} has no docstring"
    test = doctest.DocTestParser().get_doctest(doc, {"np": np}, name, None, 0)
    assert test.examples, f"{name}'s docstring has no example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed (output above)"


def test_signatures_show_the_defaults():
    if sys.version_info >= (3, 10):  # classes of the stable ABI carry no signature before 3.10
        assert str(inspect.signature(im.Grid)) == "(walkable, cell_size=1.0, neighbours=8, origin=(0.0, 0.0))"
    add = str(inspect.signature(im.Layer.add))
    assert "strength=1.0" in add and "falloff='linear'" in add and "distance='euclidean'" in add
    assert "avoid=None, weight=1.0" in str(inspect.signature(im.Grid.path))
    assert str(inspect.signature(im.Grid.flow_field)) == "(self, goal, avoid=None, weight=1.0)"
    assert str(inspect.signature(im.FlowField.compute)) == "(self, goal, avoid=None, weight=1.0)"


def test_the_guide_s_examples_run(root):
    """docs/python.md: its `>>>` examples give what they show."""
    # Fences end an example's expected output, as a blank line does.
    text = "\n".join("" if line.startswith("```") else line for line in (root / "docs" / "python.md").read_text().splitlines())
    test = doctest.DocTestParser().get_doctest(text, {}, "docs/python.md", None, 0)
    assert test.examples
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_the_guide_s_on_step_walkthrough(root):
    """docs/python.md's on_step, with python-sc2's objects replaced by plain data."""
    walkable = np.ones((60, 80), dtype=np.uint8)  # game_info.pathing_grid.data_numpy
    walkable[20:40, 40:43] = 0
    grid = im.Grid(walkable, cell_size=1.0, neighbours=8)
    rng = np.random.default_rng(3)
    enemies = rng.uniform((50, 10), (75, 50), size=(30, 2))
    army = rng.uniform((5, 20), (25, 40), size=(20, 2))
    danger = grid.layer()
    danger.add(list(map(tuple, enemies)), strength=rng.uniform(5, 20, 30), radius=rng.uniform(6, 10, 30),
               falloff="linear", on_blocked="snap")
    mine = grid.layer()
    mine.add(list(map(tuple, army)), strength=rng.uniform(5, 20, 20), radius=8.0, on_blocked="snap")
    maps = im.analysis(mine, danger)
    centre = grid.nearest_walkable(tuple(army.mean(axis=0)))
    spots, values = maps.influence.top(5, spacing=5.0, near=centre, radius=20.0)
    assert len(spots) == 5 and (np.diff(values) <= 0).all()
    route = grid.path(centre, spots[0], avoid=danger, weight=1.0)
    assert route is not None and tuple(route.points[0]) == centre and tuple(route.points[-1]) == tuple(spots[0])
    spread = grid.diffusion(decay=0.2, momentum=0.6)
    spread.set_sources(list(map(tuple, enemies)), strength=1.0, on_blocked="skip")
    assert spread.step(3).layer().max() == 1.0


def test_the_guide_s_flow_field_walkthrough(root):
    """docs/python.md's SwarmBot, with python-sc2's objects replaced by plain data: one field,
    recomputed every frame around moving danger, moves a group of units to the target."""
    assert "class SwarmBot(BotAI):" in (root / "docs" / "python.md").read_text()
    walkable = np.ones((40, 60), dtype=np.uint8)  # game_info.pathing_grid.data_numpy
    walkable[5:35, 28:31] = 0  # a ridge with a gap at each end
    walkable[0:3, 10] = 0  # a blocked cell a unit may stand on
    grid = im.Grid(walkable)
    rng = np.random.default_rng(11)
    lings = np.column_stack([rng.uniform(1, 20, 25), rng.uniform(1, 39, 25)])
    lings[0] = (10.5, 1.5)  # on the blocked cell
    target = grid.nearest_walkable((55.0, 20.0))
    flow = None
    for frame in range(120):
        enemies = [(45.0 + 5 * np.sin(frame / 5), 20.0)]
        danger = grid.layer()
        danger.add(enemies, strength=[10.0], radius=[8.0], falloff="linear", on_blocked="snap")
        if flow is None:
            flow = grid.flow_field(target, avoid=danger, weight=1.0)
        else:
            assert flow.compute(target, avoid=danger, weight=1.0) is flow
        here = grid.nearest_walkable([tuple(p) for p in lings])
        ahead = here
        for _ in range(3):
            ahead = flow.next_step(ahead)
        going = flow.is_reachable(here)
        assert going.all()
        before = flow.cost(here)
        # The waypoint three cells ahead is cheaper to the target, or the target itself.
        assert ((flow.cost(ahead) < before) | (before == 0)).all()
        # unit.move(Point2(waypoint)): each unit walks a cell's length towards it per frame.
        for i, (waypoint, ok) in enumerate(zip(ahead, going)):
            if ok:
                d = waypoint - lings[i]
                lings[i] += d / max(1.0, float(np.hypot(*d)))
    assert (np.hypot(*(lings - target).T) < 1.5).all()


def _stub_names():
    import ast

    stub = ast.parse((pathlib.Path(im.__file__).parent / "__init__.pyi").read_text())
    names = {}
    for node in stub.body:
        if isinstance(node, ast.ClassDef):
            names[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        elif isinstance(node, ast.FunctionDef):
            names[node.name] = set()
    return names


def test_the_stubs_describe_every_public_name():
    stubs = _stub_names()
    for name in PUBLIC:
        assert name in stubs, f"{name} is missing from __init__.pyi"
        obj = getattr(im, name)
        if inspect.isclass(obj):
            public = {m for m in vars(obj) if not m.startswith("_")}
            assert public <= stubs[name], f"{name}: {sorted(public - stubs[name])} missing from __init__.pyi"
            assert stubs[name] - {"__init__"} <= set(dir(obj)), f"{name}: the stubs name what it lacks"
    assert (pathlib.Path(im.__file__).parent / "py.typed").is_file()
