"""The forum's pages over HTTP: a category or a published topic is named in the page's title, and an
unknown one, or a topic still waiting for review, answers 404 (what a visitor may read decides)."""

from __future__ import annotations

from app import db as app_db
from app.services.forum import start_topic
from app.services.forum.internal import ensure_forum_categories
from models.account import Role
from models.forum import ForumTopicWrite
from tests.factories import person, run


async def test_forum_pages_name_what_they_show_and_unknown_ones_answer_404(client) -> None:
    async with app_db.unit_of_work() as session:
        await ensure_forum_categories(session=session)
    category = await client.get("/forum/c/lab-work")
    assert (
        category.status_code == 200
        and "<title>Lab work · Community Forum | MediVisit</title>" in category.text
    )
    assert (await client.get("/forum/c/no-such-category")).status_code == 404
    assert (await client.get("/forum/t/no-such-topic/anything")).status_code == 404
    hr = await person(Role.hr, "Harper Quinn")  # a moderator: published at once
    newcomer = await person(Role.patient, "Nia New")
    data = ForumTopicWrite(category="lab-work", title="Fasting before a blood draw", body="Is water fine?")
    published = await run(start_topic, actor=hr.actor, data=data)
    waiting = await run(start_topic, actor=newcomer.actor, data=data)
    topic = await client.get(f"/forum/t/{published.topic_id}/{published.topic_slug}")
    assert topic.status_code == 200 and "<title>Fasting before a blood draw | MediVisit</title>" in topic.text
    assert (await client.get(f"/forum/t/{waiting.topic_id}/{waiting.topic_slug}")).status_code == 404
