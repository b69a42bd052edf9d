"""Markdown to HTML a browser may insert as is: CommonMark (markdown-it-py, raw HTML off) and then nh3's
allow-list, so neither a `<script>` in the text nor a `javascript:` link survives; links open outside the
portal with rel="noopener noreferrer"."""

from __future__ import annotations

from functools import lru_cache

import nh3
from markdown_it import MarkdownIt

_MARKDOWN = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
_TAGS = {
    "a", "blockquote", "br", "code", "em", "h2", "h3", "h4", "hr", "li", "ol", "p", "pre", "strong",
    "table", "tbody", "td", "th", "thead", "tr", "ul",
}  # fmt: skip
_ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}}  # no style: the CSP refuses inline styles


@lru_cache(maxsize=256)
def render_markdown(text: str) -> str:
    """`text` (Markdown) as sanitised HTML. An article's `# heading` becomes an h2: the page's h1 is the
    article's title."""
    html = _MARKDOWN.render(text)
    html = html.replace("<h1>", "<h2>").replace("</h1>", "</h2>")
    return nh3.clean(
        html,
        tags=_TAGS,
        attributes=_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer",
    )
