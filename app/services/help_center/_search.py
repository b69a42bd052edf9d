"""Full-text search of the published articles, one interface over two engines:

- SQLite: the FTS5 table `help_articles_fts` (porter stemming; triggers keep it in step with the articles,
  migration 0036), ranked by bm25 with the title weighing most; the query is split into words and each word
  quoted, so FTS5's syntax (NEAR, *, ", column filters) in what someone typed can never break the query.
- PostgreSQL: the generated `search_vector` column (english configuration, title A, summary B, body C) under
  a GIN index, matched with websearch_to_tsquery (which accepts any text) and ranked by ts_rank.

Both return a short plain-text snippet around the match, the matched words between MARK_START and MARK_END
(the screen turns them into <mark>). `find_help_passages` is the same search for the AI assistant.
"""

from __future__ import annotations

import re
import unicodedata

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from app.principal import Principal
from models.help_center import (
    MARK_END,
    MARK_START,
    MAX_QUERY,
    MAX_RESULTS,
    HelpCategory,
    HelpSearchHit,
    HelpSearchRead,
)

MAX_WORDS = 12  # words of a query kept
_WORD = re.compile(r"\w+", re.UNICODE)
_MARKUP = re.compile(r"\[([^\]]*)\]\([^)]*\)|[*_`#>|]+|^\s*[-+]\s+|\s-{3,}\s")

_SQLITE = text(
    "SELECT a.id, a.slug, a.title, a.category, "
    "-bm25(help_articles_fts, 0.0, 10.0, 4.0, 1.0) AS rank, "
    "snippet(help_articles_fts, -1, :mark_start, :mark_end, '…', 24) AS snippet "
    "FROM help_articles_fts JOIN help_articles a ON a.id = help_articles_fts.article_id "
    "WHERE help_articles_fts MATCH :match AND a.status = 'published' "
    "ORDER BY bm25(help_articles_fts, 0.0, 10.0, 4.0, 1.0), a.title LIMIT :limit"
)
_POSTGRES = text(
    "SELECT a.id, a.slug, a.title, a.category, ts_rank(a.search_vector, q) AS rank, "
    "ts_headline('english', a.summary || ' ' || a.body, q, :options) AS snippet "
    "FROM help_articles a, websearch_to_tsquery('english', :query) q "
    "WHERE a.search_vector @@ q AND a.status = 'published' "
    "ORDER BY rank DESC, a.title LIMIT :limit"
)
_HEADLINE = f'StartSel="{MARK_START}", StopSel="{MARK_END}", MaxWords=30, MinWords=12, MaxFragments=1'


def clean_query(raw: str) -> str:
    """What is searched, the same on both engines: one line of at most MAX_WORDS words and MAX_QUERY
    characters, a word cut by the limit left out."""
    line = " ".join(unicodedata.normalize("NFKC", raw or "").split()[:MAX_WORDS])
    if len(line) > MAX_QUERY:
        line = line[: MAX_QUERY + 1].rsplit(" ", 1)[0] if " " in line[:MAX_QUERY] else line[:MAX_QUERY]
    return line


def fts5_match(query: str, *, any_word: bool = False) -> str:
    """'refund "wallet' → '"refund" "wallet"': every word a quoted FTS5 string (all of them must match, or
    with `any_word` any of them: '"refund" OR "wallet"')."""
    words = _WORD.findall(query)[:MAX_WORDS]
    return (" OR " if any_word else " ").join('"' + word.replace('"', '""') + '"' for word in words)


def plain_snippet(snippet: str) -> str:
    """The snippet without Markdown's marks (links keep their text)."""
    lines = (_MARKUP.sub(lambda m: m.group(1) or " ", line) for line in snippet.splitlines())
    return " ".join(" ".join(lines).split())


def article_url(slug: str) -> str:
    return f"/help-center/{slug}"


async def find_help_passages(
    *, session: AsyncSession, query: str, limit: int = 5, any_word: bool = False
) -> list[HelpSearchHit]:
    """Ranked passages of published articles for `query` (best first): article id, title, url, snippet.
    Public text only, so no actor: the AI assistant and the search page both call it. `any_word`: an
    article matching any of the words counts (the assistant passes a question's key words and ranks)."""
    query = clean_query(query)
    limit = max(1, min(int(limit), MAX_RESULTS))
    if not _WORD.search(query):
        return []
    if session.get_bind().dialect.name == "postgresql":
        if any_word:  # websearch_to_tsquery reads "or" between words as OR
            query = " or ".join(_WORD.findall(query)[:MAX_WORDS])
        found = await session.execute(_POSTGRES, {"query": query, "options": _HEADLINE, "limit": limit})
    else:
        match = fts5_match(query, any_word=any_word)
        found = await session.execute(
            _SQLITE, {"match": match, "mark_start": MARK_START, "mark_end": MARK_END, "limit": limit}
        )
    return [
        HelpSearchHit(
            article_id=article_id,
            slug=slug,
            title=title,
            category=HelpCategory(category),
            url=article_url(slug),
            snippet=plain_snippet(snippet or ""),
            rank=float(rank or 0.0),
        )
        for article_id, slug, title, category, rank, snippet in found.tuples()
    ]


async def search_help_center(
    *, session: AsyncSession, actor: Principal, query: str, limit: int = MAX_RESULTS
) -> HelpSearchRead:
    """The search page: anyone (a visitor too) searches published articles."""
    del actor  # public text: every principal may search
    query = clean_query(query)
    return HelpSearchRead(
        query=query, hits=await find_help_passages(session=session, query=query, limit=limit)
    )
