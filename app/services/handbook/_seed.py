"""The handbook's starting articles: one Markdown file per article in `articles/`, its front matter (title,
topic, summary, position) between `---` lines. `ensure_handbook` adds the ones missing (by slug, the file's
name) and never overwrites an article: once seeded, the handbook is the team's to edit."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from models.handbook import HandbookArticle

ARTICLES = Path(__file__).with_name("articles")


def read_article(path: Path) -> dict[str, str | int]:
    """One article file as the row's values."""
    _, front, body = path.read_text(encoding="utf-8").split("---\n", 2)
    values: dict[str, str | int] = {"slug": path.stem, "body": body.strip()}
    for line in front.strip().splitlines():
        name, _, value = line.partition(":")
        values[name.strip()] = int(value) if name.strip() == "position" else value.strip()
    return values


async def ensure_handbook(*, session: AsyncSession) -> list[str]:
    """Add the starting articles not in the handbook yet; returns their titles."""
    present = set(await session.scalars(select(HandbookArticle.slug)))
    added = []
    for path in sorted(ARTICLES.glob("*.md")):
        if path.stem not in present:
            values = read_article(path)
            session.add(HandbookArticle(**values))
            added.append(str(values["title"]))
    return added
