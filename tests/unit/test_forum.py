"""The forum and its moderation (`app.services.forum`, issue 16) on SQLite and, with TEST_DATABASE_URL,
PostgreSQL: a new member's first posts wait for a moderator; watchers hear of replies, the muted never; a
post flagged by enough members hides itself and waits in the queue (one flag per member); a post with a red
flag shows its author the 911 message and waits; moderators' actions need reasons, are logged and audited;
a silenced member cannot post; the "Forum posting" toggle closes posting but not reading; the accepted
answer and the "Verified provider" badge."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app import db as app_db
from app import flags
from app.principal import Principal
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.features import set_feature
from app.services.features.internal import load_toggles
from app.services.forum import (
    accept_answer,
    flag_post,
    get_topic,
    list_topics,
    moderate_post,
    moderation_log,
    moderation_queue,
    reply_to_topic,
    silence_member,
    start_topic,
    unsilence_member,
    watch_topic,
)
from app.services.forum.internal import ensure_forum_categories
from app.services.notifications import list_notifications
from models.account import Role
from models.audit import AuditAction, AuditEntry
from models.forum import ForumMember, ForumPost, ForumTopicWrite, PostStatus, ReviewReason
from models.notification import NotificationKind
from tests.factories import person, provider, run

VISITOR = Principal.visitor("visitor-forum")
QUESTION = ForumTopicWrite(
    category="lab-work",
    title="How long should I fast before a home blood draw?",
    body="My provider comes at 8 am. Is **water** fine?",
)


@pytest.fixture
async def forum(identity):  # noqa: ANN201 - seeds the categories
    async with app_db.unit_of_work() as session:
        await ensure_forum_categories(session=session)


async def trusted(who) -> None:  # noqa: ANN001 - a Person
    """Give `who` the standing of a member whose posts are published at once."""
    async with app_db.unit_of_work() as session:
        session.add(ForumMember(user_id=who.id, approved_posts=2, silence_reason=""))


async def kinds(who) -> list[NotificationKind]:  # noqa: ANN001
    return [n.kind for n in (await run(list_notifications, actor=who.actor)).items]


async def test_a_new_members_first_post_waits_for_a_moderator(forum) -> None:
    newcomer = await person(Role.patient, "Nia New")
    hr = await person(Role.hr, "Harper Quinn")  # HR holds moderate_content
    posted = await run(start_topic, actor=newcomer.actor, data=QUESTION)
    assert posted.status is PostStatus.pending and not posted.emergency_message
    # nobody else sees it; its author sees it waiting
    assert (await run(list_topics, actor=VISITOR)).topics == []
    with pytest.raises(NotFound):
        await run(get_topic, actor=VISITOR, topic_id=posted.topic_id)
    mine = await run(get_topic, actor=newcomer.actor, topic_id=posted.topic_id)
    assert [p.status for p in mine.posts] == [PostStatus.pending]
    queue = await run(moderation_queue, actor=hr.actor)
    assert [(i.post_id, i.review_reason) for i in queue.items] == [(posted.post_id, ReviewReason.new_member)]
    await run(moderate_post, actor=hr.actor, post_id=posted.post_id, action="approve")
    public = await run(list_topics, actor=VISITOR, category="lab-work")
    assert [t.title for t in public.topics] == [QUESTION.title]
    assert public.category is not None and public.category.topic_count == 1
    assert (await run(moderation_queue, actor=hr.actor)).items == []
    # a second approved post makes the member trusted: the third is published at once
    second = await run(reply_to_topic, actor=newcomer.actor, topic_id=posted.topic_id, body="Thanks all.")
    await run(moderate_post, actor=hr.actor, post_id=second.post_id, action="approve")
    third = await run(reply_to_topic, actor=newcomer.actor, topic_id=posted.topic_id, body="It went fine.")
    assert third.status is PostStatus.published
    log = await run(moderation_log, actor=hr.actor)
    assert [(e.action.value, e.moderator_name) for e in log.entries] == [("approve", "Harper Quinn")] * 2


async def test_watchers_hear_of_replies_and_the_muted_never(forum) -> None:
    asker, helper, quiet = [await person(Role.patient, n) for n in ("Asker One", "Helper Two", "Quiet Three")]
    for who in (asker, helper, quiet):
        await trusted(who)
    topic = await run(start_topic, actor=asker.actor, data=QUESTION)
    await run(reply_to_topic, actor=quiet.actor, topic_id=topic.topic_id, body="Following this.")
    await run(watch_topic, actor=quiet.actor, topic_id=topic.topic_id, level="muted")
    answer = await run(reply_to_topic, actor=helper.actor, topic_id=topic.topic_id, body="Water is fine.")
    assert NotificationKind.forum_reply in await kinds(asker)
    assert await kinds(quiet) == []
    # only the topic's author accepts an answer; its author hears of it
    with pytest.raises(PermissionDenied):
        await run(accept_answer, actor=quiet.actor, post_id=answer.post_id)
    assert await run(accept_answer, actor=asker.actor, post_id=answer.post_id) is True
    assert NotificationKind.forum_answer_accepted in await kinds(helper)
    shown = await run(get_topic, actor=VISITOR, topic_id=topic.topic_id)
    assert shown.topic.answered and [p.accepted for p in shown.posts] == [False, False, True]
    assert shown.topic.reply_count == 2


async def test_a_post_flagged_by_enough_members_hides_itself(forum) -> None:
    author = await person(Role.patient, "Sam Seller")
    await trusted(author)
    hr = await person(Role.hr, "Harper Quinn")
    posted = await run(start_topic, actor=author.actor, data=QUESTION)
    flaggers = [await person(Role.patient, f"Flagger {n}") for n in range(3)]
    assert await run(flag_post, actor=flaggers[0].actor, post_id=posted.post_id, reason="spam") == 1
    with pytest.raises(ValidationFailed, match="already flagged"):
        await run(flag_post, actor=flaggers[0].actor, post_id=posted.post_id, reason="other")
    with pytest.raises(ValidationFailed):
        await run(flag_post, actor=author.actor, post_id=posted.post_id, reason="spam")
    await run(flag_post, actor=flaggers[1].actor, post_id=posted.post_id, reason="spam")
    assert (await run(list_topics, actor=VISITOR)).total == 1  # two flags: still public
    await run(
        flag_post, actor=flaggers[2].actor, post_id=posted.post_id, reason="misinformation", note="Wrong"
    )
    assert (await run(list_topics, actor=VISITOR)).total == 0
    assert NotificationKind.forum_post_moderated in await kinds(author)
    [item] = (await run(moderation_queue, actor=hr.actor)).items
    assert item.review_reason is ReviewReason.flags and item.flag_reasons == {"spam": 2, "misinformation": 1}
    assert item.flag_notes == ["Wrong"]
    # hiding needs a reason; the flags then leave the queue for the hidden list
    with pytest.raises(ValidationFailed, match="Say why"):
        await run(moderate_post, actor=hr.actor, post_id=posted.post_id, action="hide", reason=" ")
    await run(moderate_post, actor=hr.actor, post_id=posted.post_id, action="hide", reason="Advertising")
    assert (await run(moderation_queue, actor=hr.actor)).items == []
    assert [i.post_id for i in (await run(moderation_queue, actor=hr.actor, view="hidden")).items] == [
        posted.post_id
    ]
    await run(moderate_post, actor=hr.actor, post_id=posted.post_id, action="unhide", reason="Second look")
    assert (await run(list_topics, actor=VISITOR)).total == 1
    async with app_db.unit_of_work() as session:
        audited = (await session.scalars(select(AuditEntry.action).where(AuditEntry.actor_id == hr.id))).all()
    assert audited.count(AuditAction.forum_moderation.value) == 2


async def test_owners_set_how_many_flags_hide_a_post(forum) -> None:
    owner = await person(Role.owner, "Olivia Owner")
    with pytest.raises(ValidationFailed, match="from 1 to 20"):
        await run(set_feature, actor=owner.actor, key="forum_flag_threshold", value="0")
    await run(set_feature, actor=owner.actor, key="forum_flag_threshold", value="1")
    await load_toggles()
    try:
        author = await person(Role.patient, "Ann Author")
        await trusted(author)
        posted = await run(start_topic, actor=author.actor, data=QUESTION)
        flagger = await person(Role.patient, "Fred Flagger")
        await run(flag_post, actor=flagger.actor, post_id=posted.post_id, reason="off_topic")
        assert (await run(list_topics, actor=VISITOR)).total == 0
    finally:
        flags.replace({})


async def test_a_red_flag_shows_the_911_message_and_waits_for_review(forum) -> None:
    member = await person(Role.patient, "Pat Pain")
    await trusted(member)
    posted = await run(
        start_topic,
        actor=member.actor,
        data=ForumTopicWrite(
            category="caregiving", title="Feeling unwell tonight", body="I have crushing chest pain"
        ),
    )
    assert posted.status is PostStatus.pending and "911" in posted.emergency_message
    async with app_db.unit_of_work() as session:
        row = await session.get(ForumPost, posted.post_id)
        assert row is not None and row.review_reason is ReviewReason.safety and row.safety_category
    assert (await run(list_topics, actor=VISITOR)).total == 0


async def test_silenced_members_cannot_post_until_lifted(forum) -> None:
    member = await person(Role.patient, "Loud Member")
    await trusted(member)
    hr = await person(Role.hr, "Harper Quinn")
    patient = await person(Role.patient, "Not Staff")
    topic = await run(start_topic, actor=member.actor, data=QUESTION)
    with pytest.raises(PermissionDenied):
        await run(silence_member, actor=patient.actor, user_id=member.id, days=3, reason="Spam")
    with pytest.raises(ValidationFailed, match="Say why"):
        await run(silence_member, actor=hr.actor, user_id=member.id, days=3, reason="")
    await run(silence_member, actor=hr.actor, user_id=member.id, days=3, reason="Repeated advertising")
    with pytest.raises(PermissionDenied, match="paused your posting until .*Repeated advertising"):
        await run(reply_to_topic, actor=member.actor, topic_id=topic.topic_id, body="Buy my vitamins")
    await run(unsilence_member, actor=hr.actor, user_id=member.id)
    reply = await run(reply_to_topic, actor=member.actor, topic_id=topic.topic_id, body="Sorry, everyone.")
    assert reply.status is PostStatus.published
    actions = [e.action.value for e in (await run(moderation_log, actor=hr.actor)).entries]
    assert actions == ["unsilence", "silence"]


async def test_the_posting_toggle_closes_posting_but_not_reading(forum) -> None:
    member = await person(Role.patient, "Reader Writer")
    await trusted(member)
    topic = await run(start_topic, actor=member.actor, data=QUESTION)
    with pytest.raises(PermissionDenied, match="Sign in"):
        await run(start_topic, actor=VISITOR, data=QUESTION)
    flags.replace({"forum_posting": False})
    try:
        with pytest.raises(PermissionDenied, match="paused"):
            await run(reply_to_topic, actor=member.actor, topic_id=topic.topic_id, body="More")
        shown = await run(get_topic, actor=VISITOR, topic_id=topic.topic_id)
        assert shown.topic.title == QUESTION.title and not shown.posting_open
    finally:
        flags.replace({})


async def test_approved_providers_carry_the_verified_badge(forum) -> None:
    nurse = await person(Role.provider, "Ada Nurse")
    await provider("Ada Nurse", owner=nurse)
    await trusted(nurse)
    posted = await run(start_topic, actor=nurse.actor, data=QUESTION)
    shown = await run(get_topic, actor=VISITOR, topic_id=posted.topic_id)
    assert shown.posts[0].author.verified_provider and shown.posts[0].author.name == "Ada Nurse"
    patient = await person(Role.patient, "Pat Patient")
    await trusted(patient)
    other = await run(reply_to_topic, actor=patient.actor, topic_id=posted.topic_id, body="Thank you!")
    shown = await run(get_topic, actor=VISITOR, topic_id=other.topic_id)
    assert [p.author.verified_provider for p in shown.posts] == [True, False]
