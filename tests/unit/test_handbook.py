"""The staff handbook (`app.services.handbook`, /staff/documentation) on SQLite and, with TEST_DATABASE_URL,
PostgreSQL: every staff role reads and searches, only owners and admins write (audited), patients and
providers are refused; the Markdown comes back as HTML with scripts and `javascript:` links gone; the
starting articles are added once and never overwrite the team's edits."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app import db as app_db
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.handbook import delete_article, get_article, list_articles, render_markdown, save_article
from app.services.handbook._seed import ARTICLES
from app.services.handbook.internal import ensure_handbook
from app.services.shared.articles import slugify
from models.account import Role
from models.audit import AuditAction, AuditEntry
from models.handbook import MAX_BODY, ArticleWrite
from tests.factories import person, run

REFUNDS = ArticleWrite(
    title="Refunds: the 24-hour rule",
    topic="Revenue Reports",
    summary="When a refund needs a staff exception.",
    body="## Inside 24 hours\n\nA refund needs **process payments** and a reason.",
)


async def seeded() -> list[str]:
    async with app_db.unit_of_work() as session:
        return await ensure_handbook(session=session)


async def test_every_staff_role_reads_and_searches_the_seeded_handbook(identity) -> None:
    added = await seeded()
    assert len(added) == len(list(ARTICLES.glob("*.md"))) >= 10
    assert await seeded() == []  # idempotent
    for role in (Role.owner, Role.management, Role.hr, Role.support):
        reader = await person(role)
        handbook = await run(list_articles, actor=reader.actor)
        assert {a.title for a in handbook.articles} == set(added)
        topics = [a.topic for a in handbook.articles]
        assert topics[0] == "Getting started" and topics[2:] == sorted(topics[2:])
        assert handbook.can_edit is (role == Role.owner)
    support = await person(Role.support)
    found = await run(list_articles, actor=support.actor, query="  SECOND approver ")
    assert [a.slug for a in found.articles] == ["revenue-and-payouts"]
    assert found.query == "SECOND approver"
    assert (await run(list_articles, actor=support.actor, query="100%_")).articles == []  # wildcards are text
    article = await run(get_article, actor=support.actor, slug="help-desk")
    assert "<table>" in article.body_html and "<td>1 hour</td>" in article.body_html
    assert article.updated_by_name is None and not article.can_edit
    for outsider in (await person(Role.patient), await person(Role.provider)):
        with pytest.raises(PermissionDenied):
            await run(list_articles, actor=outsider.actor)
        with pytest.raises(PermissionDenied):
            await run(get_article, actor=outsider.actor, slug="help-desk")


async def test_owners_write_edit_and_delete_with_an_audit_trail(identity) -> None:
    owner, support = await person(Role.owner, "Olive Owner"), await person(Role.support)
    with pytest.raises(PermissionDenied):
        await run(save_article, actor=support.actor, data=REFUNDS)
    created = await run(save_article, actor=owner.actor, data=REFUNDS)
    assert created.slug == "refunds-the-24-hour-rule"
    assert created.updated_by_name == "Olive Owner" and created.can_edit
    assert "<h2>Inside 24 hours</h2>" in created.body_html
    again = await run(save_article, actor=owner.actor, data=REFUNDS)  # the same title: its own slug
    assert again.slug == "refunds-the-24-hour-rule-2"

    changed = REFUNDS.model_copy(update={"summary": "Who may refund inside the window."})
    edited = await run(save_article, actor=owner.actor, data=changed, slug=created.slug)
    assert edited.summary == "Who may refund inside the window." and edited.slug == created.slug
    read = await run(get_article, actor=support.actor, slug=created.slug)
    assert read.summary == edited.summary

    with pytest.raises(PermissionDenied):
        await run(delete_article, actor=support.actor, slug=created.slug)
    await run(delete_article, actor=owner.actor, slug=created.slug)
    with pytest.raises(NotFound):
        await run(get_article, actor=support.actor, slug=created.slug)
    with pytest.raises(NotFound):
        await run(save_article, actor=owner.actor, data=REFUNDS, slug=created.slug)

    async with app_db.unit_of_work() as session:
        trail = (
            await session.execute(
                select(AuditEntry.action, AuditEntry.target, AuditEntry.details)
                .where(AuditEntry.action.in_((AuditAction.handbook_edit, AuditAction.handbook_delete)))
                .order_by(AuditEntry.created_at)
            )
        ).all()
    assert [(action, target) for action, target, _ in trail] == [
        ("handbook_edit", "article refunds-the-24-hour-rule"),
        ("handbook_edit", "article refunds-the-24-hour-rule-2"),
        ("handbook_edit", "article refunds-the-24-hour-rule"),
        ("handbook_delete", "article refunds-the-24-hour-rule"),
    ]
    assert trail[0][2]["created"] is True and trail[2][2] == {
        "title": REFUNDS.title,
        "fields": ["summary"],
        "created": False,
    }


async def test_seeding_never_overwrites_the_teams_edits(identity) -> None:
    await seeded()
    owner = await person(Role.owner)
    mine = REFUNDS.model_copy(update={"title": "Our help desk"})
    await run(save_article, actor=owner.actor, data=mine, slug="help-desk")
    await seeded()
    assert (await run(get_article, actor=owner.actor, slug="help-desk")).title == "Our help desk"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (REFUNDS.model_copy(update={"title": "   "}), "Give the article a title."),
        (REFUNDS.model_copy(update={"body": "\n \n"}), "Write the article's text."),
        (
            REFUNDS.model_copy(update={"body": "x" * (MAX_BODY + 1)}),
            "Keep the article under 20,000 characters",
        ),
    ],
)
async def test_bad_articles_are_refused_with_a_clear_message(identity, data, message) -> None:
    owner = await person(Role.owner)
    with pytest.raises(ValidationFailed, match=message):
        await run(save_article, actor=owner.actor, data=data)


def test_markdown_is_rendered_without_scripts_or_dangerous_links() -> None:
    html = render_markdown(
        "# Title\n\n<script>alert(1)</script> <img src=x onerror=alert(1)>\n\n"
        "[bad](javascript:alert(1)) [good](https://medivisit.test/a) [mail](mailto:help@medivisit.test)"
    )
    assert "<h2>Title</h2>" in html  # the page's h1 is the article's title
    assert "<script" not in html and "<img" not in html and "&lt;script&gt;" in html  # shown as text
    assert 'href="javascript' not in html
    assert '<a href="https://medivisit.test/a" rel="noopener noreferrer">good</a>' in html
    assert 'href="mailto:help@medivisit.test"' in html
    assert slugify("Refunds & payouts — ÉTÉ") == "refunds-payouts-ete"
    assert slugify("!!!") == "article"
