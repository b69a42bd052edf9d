"""Feature toggles (issue 15 item 3): the catalogue of what an administrator may switch at run time
(`_catalogue`) and the reads and writes of their choices (`_toggles`), which every process picks up
through app/flags.py without a restart.

Its public surface: the names below (`__all__`).
"""

from app.services.features._catalogue import FEATURES
from app.services.features._toggles import list_features, reset_feature, set_feature

__all__ = [
    "FEATURES",
    "list_features",
    "reset_feature",
    "set_feature",
]
