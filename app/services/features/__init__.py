"""Feature toggles (issue 15 item 3): the catalogue of what an administrator may switch at run time
(`_catalogue`) and the reads and writes of their choices (`_toggles`), which every process picks up
through app/flags.py without a restart.

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_catalogue": ("FEATURES",),
    "_keeper": ("keep_toggles_fresh", "load_toggles"),
    "_toggles": ("list_features", "reset_feature", "set_feature"),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
