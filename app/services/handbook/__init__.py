"""The staff handbook (issue 15 item 5): articles every staff member reads and searches, owners and admins
write (`_articles`); Markdown rendered to sanitised HTML (app/services/shared/markdown.py, also on this surface); the starting articles, one per staff
section, added by `python -m medivisit seed` as reference data (`_seed`, from the Markdown files in
`articles/`).

Its public surface: the names below (`__all__`).
"""

from app.services.handbook._articles import delete_article, get_article, list_articles, save_article
from app.services.shared.markdown import render_markdown

__all__ = [
    "delete_article",
    "get_article",
    "list_articles",
    "render_markdown",
    "save_article",
]
