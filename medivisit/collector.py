"""Python's garbage collector, set for a server that holds hundreds of open tabs.

A tab is some 3,000 objects (its components, their state, the page's model) that live as long as the tab.
With Python's defaults a full collection runs whenever the objects that survived the younger generations
grow by a quarter, so opening tabs triggers full passes again and again, each walking every open tab: in
the load gate (a storm of 1,000 tabs, then 300 open tabs twice) they took 17 s of the worker's ~55 s, with
single passes of up to 1.7 s during which no tab got an answer. A larger first threshold lets far fewer
young collections run, so fewer short-lived objects are promoted and the full passes come less often: 9 s
in the same run.
"""

from __future__ import annotations

import gc

YOUNG_THRESHOLD = 5_000  # Python's default is 700 allocations between young collections


def tune() -> None:
    """Set the collector's thresholds for this process (once, at start-up)."""
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
