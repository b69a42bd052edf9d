"""The staff handbook (issue 15 item 5): articles every staff member reads and searches, owners and admins
write (`_articles`); Markdown rendered to sanitised HTML (`_render`); the starting articles, one per staff
section, added by `python -m medivisit seed` as reference data (`_seed`, from the Markdown files in
`articles/`).

Its public surface: the names below (`__all__`).
"""

from app.services.handbook._articles import delete_article, get_article, list_articles, save_article
from app.services.handbook._render import render_markdown
from app.services.handbook._seed import ensure_handbook
from app.services.handbook._writing import apply_changes, free_slug, one_line, slugify, write_article_row

__all__ = [
    "apply_changes",
    "delete_article",
    "ensure_handbook",
    "free_slug",
    "get_article",
    "list_articles",
    "one_line",
    "render_markdown",
    "save_article",
    "slugify",
    "write_article_row",
]
