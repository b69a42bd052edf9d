"""The public Help Center (issue 16): articles in five categories that anyone reads once published, and
that owners, admins, master admins and HR write, as drafts first (`_articles`); 'Was this helpful?' votes,
one per visitor or user per article (`_votes`); full-text search behind one function, FTS5 with bm25 on
SQLite and a tsvector with ts_rank on PostgreSQL, also giving ranked passages to the AI assistant
(`_search`); the starting articles, reference data added by `python -m medivisit seed` (`_seed`, from the
Markdown files in `articles/`). Markdown is rendered by the handbook's renderer (one sanitiser for both).

Its public surface: the names below (`__all__`).
"""

from app.services.help_center._access import can_edit_help_center
from app.services.help_center._articles import (
    delete_help_article,
    get_help_article,
    list_help_articles,
    list_help_center,
    save_help_article,
)
from app.services.help_center._search import plain_snippet, search_help_center
from app.services.help_center._votes import vote_on_help_article

__all__ = [
    "can_edit_help_center",
    "delete_help_article",
    "get_help_article",
    "list_help_articles",
    "list_help_center",
    "plain_snippet",
    "save_help_article",
    "search_help_center",
    "vote_on_help_article",
]
