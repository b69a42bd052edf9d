"""Help Center (/help-center, issue 16): answers to common questions in five categories (booking, payments,
visits, accounts, providers), written by staff in the portal (/staff/help-center) and read here by anyone,
signed in or not; a full-text search (`?q=` in the URL) with the matched words marked in each snippet; an
article's own page (/help-center/<slug>) with 'Was this helpful?'; and 'Contact support': the support
request form in the dashboard (/dashboard/support?new=1), prefilled with the article or the search that
found nothing, through sign-in for a signed-out visitor (the prefill rides in the redirect).

app/services/help_center decides what each person may read (drafts only for editors), renders the Markdown
and sanitises it, so the article's HTML is inserted as given.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urlencode

from reactpy import component, html, use_state
from reactpy.types import VdomDict
from reactpy_router import use_params, use_search_params

from app.auth.web import with_redirect
from app.services.help_center import (
    get_help_article,
    list_help_center,
    search_help_center,
    vote_on_help_article,
)
from components.browser import client_get_form
from components.context import use_session
from components.forms import use_form
from components.hooks import Query, use_action, use_query
from components.icons import icon
from components.kit import (
    Button,
    Field,
    QueryView,
    Region,
    back_link,
    button_link,
    button_row,
    cta_band,
    detail_header,
    no_results,
    notice,
    page_title,
    public_page,
    section,
)
from models.help_center import (
    CATEGORY_LABELS,
    MARK_END,
    MARK_START,
    MAX_QUERY,
    MAX_SLUG,
    HelpArticleRead,
    HelpArticleSummaryRead,
    HelpCategory,
    HelpCenterRead,
    HelpSearchHit,
    HelpSearchRead,
    HelpStatus,
)

PATH = "/help-center"
SUPPORT_REQUEST = "/dashboard/support?new=1"
CATEGORY_ICONS = {
    HelpCategory.booking: "calendar",
    HelpCategory.payments: "cart",
    HelpCategory.visits: "map-pin",
    HelpCategory.accounts: "user",
    HelpCategory.providers: "shield",
}
# The help desk's ticket category for each Help Center category (models/support.py TicketCategory).
TICKET_CATEGORY = {
    HelpCategory.booking: "booking",
    HelpCategory.payments: "payment",
    HelpCategory.visits: "booking",
    HelpCategory.accounts: "account",
    HelpCategory.providers: "services",
}


def article_href(slug: str) -> str:
    return f"{PATH}/{quote(slug)}"


def support_request(*, subject: str = "", description: str = "", category: str = "") -> str:
    """The support request form, prefilled when given a subject (the dashboard reads these parameters)."""
    if not subject:
        return SUPPORT_REQUEST
    params = {"category": category or "other", "subject": subject[:150], "description": description[:1000]}
    return f"{SUPPORT_REQUEST}&{urlencode(params)}"


def contact_support_href(signed_in: bool, request: str = SUPPORT_REQUEST) -> str:
    """`request` (a support form address), through sign-in for a signed-out visitor."""
    return request if signed_in else with_redirect("/login", request)


def about_article(article: HelpArticleRead) -> str:
    return support_request(
        subject=f"Question about “{article.title}”",
        description=f"I read the Help Center article “{article.title}” ({article_href(article.slug)}) "
        "and still need help: ",
        category=TICKET_CATEGORY[article.category],
    )


def about_search(query: str) -> str:
    return support_request(
        subject=f"Help with: {query}",
        description=f"I searched the Help Center for “{query}” and did not find an answer. ",
    )


def still_need_help(href: str, lead: str) -> VdomDict:
    return section(
        cta_band("Still need help?", lead, button_link("Contact support", href, icon_name="arrow-right")),
    )


STILL_NEED_HELP = (
    "Send a support request and follow our team's answers in your dashboard. For problems with the "
    "website, use Report Bug."
)


# ---- the index and the search --------------------------------------------------------------------------
@component
def HelpCenterPage() -> VdomDict:
    signed_in = use_session().user is not None
    search = " ".join(((use_search_params().get("q") or [""])[0]).split())[:MAX_QUERY]
    return public_page(
        "How can we help?",
        section(
            _SearchForm(search, key=f"form:{search}"),
            _Results(search, key=f"results:{search}") if search else _Topics(),
        ),
        still_need_help(
            contact_support_href(signed_in, about_search(search) if search else SUPPORT_REQUEST),
            STILL_NEED_HELP,
        ),
        lead="Search our answers about booking, payments, visits, accounts and providers, or browse by topic.",
        eyebrow="Help Center",
    )


@component
def _SearchForm(search: str) -> VdomDict:
    form = use_form(q=search)
    return html.form(
        {
            "class_name": "form help-search",
            "method": "get",
            "action": PATH,
            "role": "search",
            "aria-label": "Help Center",
            **client_get_form(),
        },
        Field(
            "Search the Help Center",
            "q",
            form=form,
            id="help-search",
            type="search",
            max_length=MAX_QUERY,
            placeholder="e.g. refund, cancel, two-factor",
        ),
        html.div(
            {"class_name": "help-search-actions"},
            Button("Search", type="submit", icon="search"),
            button_link("Clear", PATH, variant="outline") if search else "",
        ),
    )


@component
def _Topics() -> VdomDict:
    query = use_query(list_help_center)
    return QueryView(query, _topics, loading_label="Loading the Help Center…", is_empty=lambda _h: False)


def _topics(center: HelpCenterRead) -> VdomDict:
    if not center.articles:
        return html.p({"class_name": "text-muted", "role": "status"}, "No articles are published yet.")
    by_category: dict[HelpCategory, list[HelpArticleSummaryRead]] = {}
    for article in center.articles:
        by_category.setdefault(article.category, []).append(article)
    return html.div(
        {"class_name": "help-topics"},
        *(
            Region(
                (
                    html.span({"class_name": "faq-group-icon"}, icon(CATEGORY_ICONS[category], size=18)),
                    CATEGORY_LABELS[category],
                ),
                html.ul(
                    {"class_name": "help-articles"},
                    *(
                        html.li(
                            {"key": article.slug},
                            html.a(
                                {"href": article_href(article.slug), "class_name": "help-link"}, article.title
                            ),
                            html.p({"class_name": "text-muted"}, article.summary) if article.summary else "",
                        )
                        for article in by_category[category]
                    ),
                ),
                title_id=f"topic-{category.value}",
                class_name="help-topic",
                title_class="help-topic-title",
                key=category.value,
            )
            for category in HelpCategory
            if category in by_category
        ),
    )


@component
def _Results(search: str) -> VdomDict:
    query = use_query(search_help_center, query=search)
    return QueryView(query, _results, loading_label="Searching…", is_empty=lambda _r: False)


def marked(snippet: str) -> list[Any]:
    """The snippet's text with its matched words in <mark> (text only: nothing is parsed as HTML)."""
    parts: list[Any] = []
    for index, piece in enumerate(snippet.split(MARK_START)):
        word, _, rest = piece.partition(MARK_END) if index else ("", "", piece)
        if word:
            parts.append(html.mark({"key": f"m{index}"}, word))
        if rest:
            parts.append(rest)
    return parts


def _results(found: HelpSearchRead) -> VdomDict:
    if not found.hits:
        return no_results(
            f"No article matches “{found.query}”",
            html.p(
                "Try other words, check the spelling, or browse ",
                html.a({"href": PATH}, "all topics"),
                ". You can also contact support below: we'll include your search in the request.",
            ),
            heading="h2",
            class_name="help-no-results",
            status=True,
        )
    count = len(found.hits)
    return html.div(
        {"class_name": "help-results"},
        html.p(
            {"class_name": "text-muted", "role": "status"},
            f"1 article matches “{found.query}”."
            if count == 1
            else f"{count} articles match “{found.query}”.",
        ),
        html.ol(
            {"class_name": "help-hits", "aria-label": "Search results"}, *(_hit(hit) for hit in found.hits)
        ),
    )


def _hit(hit: HelpSearchHit) -> VdomDict:
    return html.li(
        {"key": hit.slug, "class_name": "help-hit"},
        html.a({"href": hit.url, "class_name": "help-link"}, hit.title),
        html.span({"class_name": "help-hit-category"}, CATEGORY_LABELS[hit.category]),
        html.p({"class_name": "help-snippet"}, *marked(hit.snippet)) if hit.snippet else "",
    )


# ---- one article ---------------------------------------------------------------------------------------
@component
def HelpArticlePage() -> VdomDict:
    slug = use_params().get("slug", "")[:MAX_SLUG]
    query = use_query(get_help_article, slug=slug)
    return html.div(
        {"class_name": "help-article-page"},
        QueryView(
            query,
            lambda article: _ArticleView(article, query, key=article.slug),
            loading_label="Loading the article…",
        ),
    )


@component
def _ArticleView(article: HelpArticleRead, query: Query) -> VdomDict:
    signed_in = use_session().user is not None
    return html._(
        page_title(f"{article.title} · Help Center"),
        detail_header(
            trail=(("Help Center", PATH), (CATEGORY_LABELS[article.category], None)),
            title=article.title,
            lead=article.summary,
        ),
        section(
            notice(
                "Draft: only Help Center editors can see this article until it is published.", tone="warning"
            )
            if article.status == HelpStatus.draft
            else "",
            html.article(
                {
                    "class_name": "help-article prose",
                    "aria-label": article.title,
                    "dangerouslySetInnerHTML": {"__html": article.body_html},
                }
            ),
            _Helpful(article, query) if article.status == HelpStatus.published else "",
            back_link("All help topics", PATH),
        ),
        still_need_help(
            contact_support_href(signed_in, about_article(article)),
            "Send a support request about this article and follow our team's answers in your dashboard.",
        ),
    )


@component
def _Helpful(article: HelpArticleRead, query: Query) -> VdomDict:
    answered, set_answered = use_state(article.my_vote is not None)
    vote = use_action(vote_on_help_article, refetch=[query], on_success=lambda _kept: set_answered(True))

    async def answer(helpful: bool) -> None:
        await vote.run(slug=article.slug, helpful=helpful)

    def choice(label: str, helpful: bool, icon_name: str) -> VdomDict:
        return Button(
            label,
            variant="primary" if article.my_vote is helpful else "outline",
            icon=icon_name,
            on_click=lambda: answer(helpful),
            pending=vote.pending,
        )

    return Region(
        "Was this helpful?",
        button_row(choice("Yes", True, "check"), choice("No", False, "x")),
        html.p(
            {"class_name": "text-muted", "role": "status"},
            f"Thanks for your feedback: you answered “{'Yes' if article.my_vote else 'No'}”. "
            "You can change your answer."
            if answered and article.my_vote is not None
            else "",
        ),
        html.p(
            {"class_name": "text-muted help-counts"},
            f"Editors see: {article.helpful_yes} found this helpful, {article.helpful_no} did not.",
        )
        if article.can_edit
        else "",
        title_id="help-feedback-title",
        class_name="help-feedback",
        title_class="help-feedback-title",
    )
