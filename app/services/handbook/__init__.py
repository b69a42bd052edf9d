"""The staff handbook (issue 15 item 5): articles every staff member reads and searches, owners and admins
write (`_articles`); Markdown rendered to sanitised HTML (`_render`); the starting articles, one per staff
section, added by `python -m medivisit seed` as reference data (`_seed`, from the Markdown files in
`articles/`).

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_articles": ("delete_article", "get_article", "list_articles", "save_article"),
    "_render": ("render_markdown",),
    "_seed": ("ensure_handbook",),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
