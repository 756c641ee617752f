"""Influence maps for game AI, numpy in and out.

A thin Python face over the Rust library ``influence``: grids, layers and stamping,
routes and flow fields that avoid danger, the compound maps (influence, tension,
vulnerability), queries (safest spots, front line, values and gradients), propagation
(diffusion, steady state, the chase flood fill), the grid-free field, and scenario files
run by the same engine as the ``influence`` command.

Coordinates follow python-sc2: arrays are indexed ``[y, x]`` with shape
``(height, width)``; points are ``(x, y)`` in world units; cell ``(x, y)`` covers
``[x, x+1) × [y, y+1)`` when ``cell_size`` is 1 (in general
``origin + [x, x+1) × [y, y+1) · cell_size``).

>>> import influence_maps as im, numpy as np
>>> grid = im.Grid(np.ones((176, 200), dtype=np.uint8))   # a pathing grid [y, x]
>>> danger = grid.layer()
>>> _ = danger.add([(50.2, 60.7), (55.0, 61.5)], strength=5.0, radius=10.0)
>>> route = grid.path((10.5, 60.5), (100.5, 60.5), avoid=danger, weight=1.0)
>>> bool(route.exposure < 5.0)
True
"""

# Every name of the extension, as it lists them in its own __all__ (PyO3 adds each class,
# function and constant there, __version__ too); __init__.pyi describes them for type
# checkers.
from ._native import *  # noqa: F403
from ._native import __all__
