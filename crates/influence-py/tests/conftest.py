"""Shared fixtures: the repository's data, and the `influence` command (the Rust library's
own front end), whose `.npy` outputs the tests compare with the module bit for bit.

The command is found from `INFLUENCE_CLI` (a path; CI sets it to the binary `cargo test`
built), else built with `cargo build -p influence-cli`; without cargo those tests skip.
"""

import json
import os
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
MAPS = ROOT / "data" / "maps"
SCENARIOS = ROOT / "examples" / "scenarios"


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def den012d():
    path = MAPS / "den012d.map"
    assert path.is_file(), f"the MovingAI map the tests use is missing: {path}"
    return path


def _build_cli():
    cargo = shutil.which("cargo")
    if cargo is None:
        return None
    out = subprocess.run(
        [cargo, "build", "-q", "-p", "influence-cli", "--message-format=json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    for line in out.stdout.splitlines():
        message = json.loads(line)
        if message.get("reason") == "compiler-artifact" and message.get("executable"):
            if message["target"]["name"] == "influence":
                return pathlib.Path(message["executable"])
    return None


@pytest.fixture(scope="session")
def influence_cli():
    given = os.environ.get("INFLUENCE_CLI")
    if given:
        path = pathlib.Path(given)
        assert path.is_file(), f"INFLUENCE_CLI={given} is not a file"
        return path
    path = _build_cli()
    if path is None:
        pytest.skip("neither INFLUENCE_CLI nor cargo: cannot run the influence command")
    return path


@pytest.fixture
def render(influence_cli, tmp_path):
    """render(toml_text or path) -> (layers: dict name -> array, summary: dict), as the
    `influence render` command writes them."""

    def run(scenario, name="scenario"):
        if isinstance(scenario, str):
            path = tmp_path / f"{name}.toml"
            path.write_text(scenario)
        else:
            path = pathlib.Path(scenario)
        out = tmp_path / f"{name}-out"
        done = subprocess.run(
            [str(influence_cli), "--quiet", "render", str(path), "--out", str(out), "--plain"],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, f"influence render failed:\n{done.stderr}"
        layers = {p.stem: np.load(p) for p in out.glob("*.npy")}
        summary = json.loads((out / "summary.json").read_text())
        return layers, summary

    return run


def same_bits(a, b):
    """Whether two float32 arrays hold the same bits (NaN and -0.0 included)."""
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype == np.float32 and a.shape == b.shape and np.array_equal(a.view(np.uint32), b.view(np.uint32))
