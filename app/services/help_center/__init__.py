"""The public Help Center (issue 16): articles in five categories that anyone reads once published, and
that owners, admins, master admins and HR write, as drafts first (`_articles`); 'Was this helpful?' votes,
one per visitor or user per article (`_votes`); full-text search behind one function, FTS5 with bm25 on
SQLite and a tsvector with ts_rank on PostgreSQL, also giving ranked passages to the AI assistant
(`_search`); the starting articles, reference data added by `python -m medivisit seed` (`_seed`, from the
Markdown files in `articles/`). Markdown is rendered by the handbook's renderer (one sanitiser for both).

Its public surface: see app/services/__init__.py.
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_access": ("can_edit_help_center",),
    "_articles": (
        "delete_help_article",
        "get_help_article",
        "list_help_articles",
        "list_help_center",
        "save_help_article",
    ),
    "_search": ("find_help_passages", "search_help_center"),
    "_seed": ("ensure_help_center",),
    "_votes": ("vote_on_help_article",),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
