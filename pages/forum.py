"""Community Forum (/forum, issue 16): the categories with their topic counts, the latest topics (latest
activity first, paginated in the URL), one category's topics (/forum/c/<slug>), the member's bookmarked
topics (?view=bookmarks), the not-medical-advice notice and the community guidelines. Reading is public;
starting a topic (/forum/new) needs an account. app/services/forum decides what each person sees (a new
member's waiting topic is listed for its author only)."""

from __future__ import annotations

from urllib.parse import quote, urlencode

from reactpy import component, html
from reactpy.types import Component, VdomDict
from reactpy_router import use_params, use_search_params

from app.auth.web import with_redirect
from app.flags import forum_posting_open
from app.services.forum import list_topics
from components.context import use_session
from components.forum_ui import author_line, medical_notice, when
from components.hooks import use_query
from components.kit import (
    Badge,
    PageLinks,
    QueryView,
    UserText,
    button_link,
    feature_grid,
    notice,
    page_param,
    page_title,
    public_page,
    section,
)
from models.forum import TOPICS_PAGE, ForumTopicListRead, ForumTopicSummaryRead, PostStatus

PATH = "/forum"
GUIDELINES = (
    (
        "heart",
        "Be kind",
        "People come here with worries about their health or a loved one. Disagree respectfully and never "
        "mock, shame or harass anyone.",
    ),
    (
        "shield",
        "Protect privacy",
        "Don't post your full name, address, date of birth or test results, and never share details about "
        "someone else's health.",
    ),
    (
        "alert",
        "It's not medical advice",
        "Posts share experiences, not diagnoses. Talk to your clinician before changing any treatment. In an "
        "emergency, call 911.",
    ),
    (
        "briefcase",
        "Providers: be clear",
        "Say when you're posting as a provider, speak in general terms, and don't treat or advise individual "
        "patients in public threads.",
    ),
    (
        "x",
        "No spam or selling",
        "No advertising, referral links or product promotion. Sponsored content belongs in labelled ad "
        "spaces.",
    ),
    (
        "flag",
        "Flag problems",
        "Flag posts that break these rules. Moderators review them, may edit or hide posts and pause the "
        "posting of members who repeatedly break them.",
    ),
)


def new_topic_href(category: str = "") -> str:
    return f"{PATH}/new?{urlencode({'category': category})}" if category else f"{PATH}/new"


@component
def ForumPage() -> Component:
    """All categories' latest topics, or the member's bookmarks."""
    params = use_search_params()
    bookmarks = (params.get("view") or [""])[0] == "bookmarks"
    page = page_param(params, last=1_000)
    return _Forum(None, page, bookmarks, key=f"all:{bookmarks}:{page}")


@component
def ForumCategoryPage() -> Component:
    slug = use_params().get("slug", "")[:80]
    page = page_param(use_search_params(), last=1_000)
    return _Forum(slug, page, False, key=f"c:{slug}:{page}")


@component
def _Forum(category: str | None, page: int, bookmarks: bool) -> VdomDict:
    session = use_session()
    query = use_query(list_topics, category=category, page=page, bookmarks=bookmarks)
    signed_in = session.user is not None
    here = f"{PATH}/c/{quote(category)}" if category else PATH
    return public_page(
        "Community Forum",
        html.div(
            {"class_name": "container forum-intro"},
            medical_notice(),
            ""
            if forum_posting_open()
            else notice("Posting is paused for now. You can still read every discussion.", tone="warning"),
        ),
        section(
            QueryView(
                query,
                lambda found: _layout(found, signed_in, here),
                loading_label="Loading the forum…",
                is_empty=lambda _found: False,
            )
        ),
        section(
            html.p(
                {"class_name": "section-intro"},
                "Everyone who posts agrees to these guidelines. They keep the forum safe and useful.",
            ),
            feature_grid(GUIDELINES, columns=3),
            title="Community guidelines",
            muted=True,
        ),
        lead="Patients, caregivers and providers share experiences of care at home: preparing for a visit, "
        "recovering, caring for a family member.",
        eyebrow="Community",
    )


def _layout(found: ForumTopicListRead, signed_in: bool, here: str) -> VdomDict:
    chosen = found.category
    heading = "Your bookmarks" if found.bookmarks else chosen.name if chosen else "Latest topics"
    return html.div(
        {"class_name": "forum-layout"},
        page_title(f"{chosen.name} · Community Forum" if chosen else "Community Forum"),
        _categories(found, signed_in),
        html.div(
            {"class_name": "forum-main"},
            html.div(
                {"class_name": "forum-main-head"},
                html.div(
                    html.h2({"class_name": "forum-heading"}, heading),
                    html.p({"class_name": "text-muted"}, chosen.description) if chosen else "",
                ),
                button_link("New topic", new_topic_href(chosen.slug if chosen else ""), icon_name="plus")
                if signed_in
                else button_link(
                    "Sign in to post", with_redirect("/login", here), variant="outline", icon_name="log-in"
                ),
            ),
            _topics(found),
            PageLinks(
                found.page,
                found.total,
                TOPICS_PAGE,
                href=lambda n: (
                    f"{here}?{urlencode({'page': n, **({'view': 'bookmarks'} if found.bookmarks else {})})}"
                ),
                label="Pages of topics",
            ),
        ),
    )


def _categories(found: ForumTopicListRead, signed_in: bool) -> VdomDict:
    chosen = found.category.slug if found.category else ("bookmarks" if found.bookmarks else "")

    def link(key: str, href: str, label: str, count: int | None = None) -> VdomDict:
        current = key == chosen
        return html.li(
            {"key": key},
            html.a(
                {
                    "href": href,
                    "class_name": "forum-category" + (" is-active" if current else ""),
                    **({"aria-current": "page"} if current else {}),
                },
                html.span(label),
                html.span({"class_name": "forum-count", "aria-label": f"{count} topics"}, str(count))
                if count is not None
                else "",
            ),
        )

    return html.nav(
        {"class_name": "forum-categories", "aria-label": "Forum categories"},
        html.ul(
            link("", PATH, "All topics", sum(c.topic_count for c in found.categories)),
            *(link(c.slug, f"{PATH}/c/{quote(c.slug)}", c.name, c.topic_count) for c in found.categories),
            link("bookmarks", f"{PATH}?view=bookmarks", "Your bookmarks") if signed_in else "",
        ),
    )


def _topics(found: ForumTopicListRead) -> VdomDict:
    if not found.topics:
        text = (
            "You have not bookmarked any topic yet: use Bookmark on a topic to keep it here."
            if found.bookmarks
            else "No topics here yet. Start the first conversation."
        )
        return html.p({"class_name": "forum-empty text-muted", "role": "status"}, text)
    return html.ol({"class_name": "forum-topics", "aria-label": "Topics"}, *(_topic(t) for t in found.topics))


def _topic(topic: ForumTopicSummaryRead) -> VdomDict:
    replies = "1 reply" if topic.reply_count == 1 else f"{topic.reply_count} replies"
    return html.li(
        {"key": topic.id, "class_name": "forum-topic"},
        html.div(
            {"class_name": "forum-topic-main"},
            html.a({"href": topic.href, "class_name": "forum-topic-title"}, UserText(topic.title)),
            html.div(
                {"class_name": "forum-topic-meta"},
                html.span({"class_name": "forum-chip"}, topic.category_name),
                Badge("Answered", tone="success", icon="check") if topic.answered else "",
                Badge("Waiting for review", tone="warning") if topic.status == PostStatus.pending else "",
                Badge("Hidden", tone="danger")
                if topic.status in (PostStatus.hidden, PostStatus.rejected)
                else "",
                author_line(topic.author),
            ),
        ),
        html.div(
            {"class_name": "forum-topic-stats"},
            html.span(replies),
            html.span({"class_name": "text-muted"}, "Active ", when(topic.last_activity_at)),
        ),
    )
