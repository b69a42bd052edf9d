"""The Help Center's starting articles: one Markdown file per article in `articles/`, its front matter
(title, category, summary, position) between `---` lines, published. `ensure_help_center` adds the ones
missing (by slug, the file's name) and never overwrites one: once seeded, the articles are the staff's."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from models.help_center import HelpArticle, HelpCategory, HelpStatus

ARTICLES = Path(__file__).with_name("articles")


def read_article(path: Path) -> dict[str, object]:
    """One article file as the row's values."""
    _, front, body = path.read_text(encoding="utf-8").split("---\n", 2)
    values: dict[str, object] = {"slug": path.stem, "body": body.strip(), "status": HelpStatus.published}
    for line in front.strip().splitlines():
        name, _, value = line.partition(":")
        name, value = name.strip(), value.strip()
        values[name] = (
            int(value) if name == "position" else HelpCategory(value) if name == "category" else value
        )
    return values


async def ensure_help_center(*, session: AsyncSession) -> list[str]:
    """Add the starting articles not in the Help Center yet; returns their titles."""
    present = set(await session.scalars(select(HelpArticle.slug)))
    added = []
    for path in sorted(ARTICLES.glob("*.md")):
        if path.stem not in present:
            values = read_article(path)
            session.add(HelpArticle(**values))
            added.append(str(values["title"]))
    return added
