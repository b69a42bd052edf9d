"""The forum's categories: reference data added by `python -m medivisit seed` (never overwritten: once
seeded, their names and descriptions are the staff's)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from models.forum import ForumCategory

CATEGORIES: tuple[tuple[str, str, str], ...] = (
    (
        "preparing-for-a-visit",
        "Preparing for a visit",
        "Getting your home ready, what to have at hand, questions to ask before a provider arrives.",
    ),
    (
        "iv-therapy",
        "IV therapy",
        "Experiences of IV hydration and infusions at home: comfort, timing, aftercare.",
    ),
    ("lab-work", "Lab work", "At-home blood draws and tests: fasting, collection, waiting for results."),
    (
        "caregiving",
        "Caregiving",
        "Looking after a family member at home: routines, support and looking after yourself.",
    ),
    (
        "providers-corner",
        "Providers' corner",
        "Providers share practical tips on home visits. General information only, never individual advice.",
    ),
)


async def ensure_forum_categories(*, session: AsyncSession) -> list[str]:
    """Add the categories not in the forum yet; returns their names."""
    present = set(await session.scalars(select(ForumCategory.slug)))
    added = []
    for position, (slug, name, description) in enumerate(CATEGORIES):
        if slug not in present:
            session.add(ForumCategory(slug=slug, name=name, description=description, position=position))
            added.append(name)
    await session.flush()
    return added
