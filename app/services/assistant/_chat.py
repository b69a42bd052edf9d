"""The chat: one message in, the assistant's reply out (`ask_assistant`), and a signed-in user's stored
conversations and preferences.

Anyone may chat. A visitor's conversation lives in the chat only (the caller keeps the returned
`ChatState`); a signed-in user's is stored while their "keep history" preference is on (the default),
and only they can read or delete it. A red flag is recorded with its category and time only, in the audit
log and the server log, never the words; from then on the conversation offers no booking (for a stored
conversation the database says so, whatever the caller holds).

With a language model configured and switched on, a grounded answer is phrased by the model from the
retrieved passages only, streamed to `on_text` as it arrives; the words are checked for red flags as they
come and at the end, and a model answer that trips one is replaced by the emergency message; an answer that
reads like injected instructions (issue 27) is replaced by the quoted passages.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app import audit
from app.db import changed_rows
from app.principal import Principal
from app.services.assistant._answer import NOT_FOUND, Reply, answer_question, instructs
from app.services.assistant._model import ModelUnavailable, model_configured, stream_completion
from app.services.errors import NotFound, PermissionDenied, ValidationFailed
from app.services.safety import EMERGENCY_MESSAGE, find_red_flag
from app.services.shared.rate_limits import limit
from app.services.shared.signed_in import require_account
from app.settings import get_settings
from models.assistant import (
    MAX_QUESTION,
    MAX_TITLE,
    PAGE_SIZE,
    AnswerKind,
    AssistantConversation,
    AssistantMessage,
    AssistantPreference,
    AssistantPreferenceRead,
    ChatMessage,
    ChatState,
    ConversationPage,
    SourceLink,
    conversation_read,
)
from models.audit import AuditAction
from models.identity import as_utc

logger = logging.getLogger(__name__)

EMPTY_QUESTION = "Type a question first."
TOO_LONG = f"Please keep your question under {MAX_QUESTION:,} characters."
TOO_MANY = "You've sent a lot of messages in a short time."
NO_CONVERSATION = "That conversation isn't there any more."
SIGN_IN_FIRST = "Please sign in to see your conversations."
MAX_VISITOR_MESSAGES = 200  # kept in a visitor's chat; older ones drop off

TextSink = Callable[[str], None]


def _message(
    kind: AnswerKind, text: str, sources: list[SourceLink] | tuple[SourceLink, ...] = ()
) -> ChatMessage:
    return ChatMessage(kind=kind, text=text, sources=tuple(sources), at=datetime.now(UTC))


async def _phrase(question: str, reply: Reply, on_text: TextSink | None) -> Reply:
    """The model's wording of a grounded answer, or `reply` as it was when there is no model or it fails."""
    if reply.kind is not AnswerKind.answer or not reply.passages or not model_configured():
        return reply
    text = ""
    try:
        async for piece in stream_completion(question, reply.passages):
            text += piece
            if find_red_flag(text) is not None or instructs(text):
                break  # never show it: replaced below
            if on_text is not None:
                on_text(text)
    except ModelUnavailable:
        return reply
    text = text.strip()
    if find_red_flag(text) is not None:
        logger.warning("The assistant's language model answer tripped the red-flag check; replaced")
        return Reply(AnswerKind.emergency, EMERGENCY_MESSAGE)
    if not text:
        return reply
    if NOT_FOUND.lower() in text.lower():
        return reply  # the model found nothing to say from the passages: show the passages themselves
    if instructs(text):
        logger.warning("The assistant's language model answer read like injected instructions; replaced")
        return reply  # the quoted, attributed passages instead
    return Reply(AnswerKind.answer, text, reply.sources, passages=reply.passages)


async def _keeps_history(session: AsyncSession, user_id: str) -> bool:
    keep = await session.scalar(
        select(AssistantPreference.keep_history).where(AssistantPreference.user_id == user_id)
    )
    return True if keep is None else keep


async def _own_conversation(
    session: AsyncSession, user_id: str, conversation_id: str
) -> AssistantConversation:
    row = await session.get(AssistantConversation, conversation_id)
    if row is None or row.user_id != user_id:
        raise NotFound(NO_CONVERSATION)
    return row


async def ask_assistant(
    *,
    session: AsyncSession,
    actor: Principal,
    state: ChatState,
    text: str,
    on_text: TextSink | None = None,
) -> ChatState:
    """Answer `text` in the conversation `state`; returns the conversation with both messages added."""
    question = (text or "").strip()
    if not question:
        raise ValidationFailed(EMPTY_QUESTION)
    # The red-flag check comes before any other: someone in an emergency gets the 911 / 988 message even
    # over the rate limit, with an over-long message or after their session ended (then nothing is stored).
    urgent = find_red_flag(question) is not None
    if not urgent:
        if len(question) > MAX_QUESTION:
            raise ValidationFailed(TOO_LONG)
        settings = get_settings()
        await limit(
            "assistant",
            [actor.user_id or actor.visitor_id, actor.ip],
            per_window=settings.rate_limit_assistant,
            window=settings.abuse_limit_window,
            message=TOO_MANY,
        )
    account = None
    if actor.is_user:
        try:
            account = await require_account(session=session, actor=actor)
        except PermissionDenied:
            if not urgent:
                raise

    conversation: AssistantConversation | None = None
    red_flagged = state.red_flagged
    if account is not None and state.conversation_id:
        conversation = await _own_conversation(session, account.id, state.conversation_id)
        red_flagged = conversation.red_flag_category is not None
    elif account is not None and await _keeps_history(session, account.id):
        title = " ".join(question[:MAX_QUESTION].split())[:MAX_TITLE]
        conversation = AssistantConversation(user_id=account.id, title=title)
        session.add(conversation)

    reply = await answer_question(session=session, question=question, red_flagged=red_flagged)
    reply = await _phrase(question, reply, on_text)
    now = datetime.now(UTC)
    if reply.kind in (AnswerKind.emergency, AnswerKind.crisis):
        level, category = reply.red_flag or ("emergency", "model_answer")
        red_flagged = True
        logger.warning("Assistant red flag: level=%s category=%s", level, category)
        await audit.record(
            session=session,
            actor_id=account.id if account else None,
            actor_email=account.email if account else "",
            action=AuditAction.assistant_red_flag,
            target="assistant",
            ip=actor.ip,
            user_agent=actor.user_agent,
            details={"level": level, "category": category},
        )
        if conversation is not None and conversation.red_flag_category is None:
            conversation.red_flag_category = category
            conversation.red_flag_at = now

    asked = _message(AnswerKind.question, question[:MAX_QUESTION])
    answered = _message(reply.kind, reply.text, reply.sources)
    if conversation is not None:
        conversation.updated_at = now
        await session.flush()
        for message in (asked, answered):
            session.add(
                AssistantMessage(
                    conversation_id=conversation.id,
                    kind=message.kind,
                    text=message.text,
                    sources=[source.model_dump() for source in message.sources],
                    created_at=message.at,
                )
            )
        await session.flush()
    messages = (*state.messages, asked, answered)[-MAX_VISITOR_MESSAGES:]
    return ChatState(
        conversation_id=conversation.id if conversation is not None else None,
        red_flagged=red_flagged,
        messages=messages,
    )


async def _signed_in(session: AsyncSession, actor: Principal) -> str:
    if not actor.is_user:
        raise PermissionDenied(SIGN_IN_FIRST)
    return (await require_account(session=session, actor=actor)).id


async def list_conversations(*, session: AsyncSession, actor: Principal, page: int = 1) -> ConversationPage:
    """The signed-in user's stored conversations, newest first, a page at a time, with message counts."""
    user_id = await _signed_in(session, actor)
    total = await session.scalar(
        select(func.count())
        .select_from(AssistantConversation)
        .where(AssistantConversation.user_id == user_id)
    )
    pages = max(1, math.ceil((total or 0) / PAGE_SIZE))
    page = max(1, min(int(page), pages))
    rows = (
        await session.scalars(
            select(AssistantConversation)
            .where(AssistantConversation.user_id == user_id)
            .order_by(AssistantConversation.updated_at.desc(), AssistantConversation.id)
            .limit(PAGE_SIZE)
            .offset((page - 1) * PAGE_SIZE)
        )
    ).all()
    found = await session.execute(
        select(AssistantMessage.conversation_id, func.count())
        .where(AssistantMessage.conversation_id.in_([row.id for row in rows]))
        .group_by(AssistantMessage.conversation_id)
    )
    counts = {conversation_id: number for conversation_id, number in found.tuples()}
    return ConversationPage(
        items=tuple(conversation_read(row, counts.get(row.id, 0)) for row in rows),
        total=total or 0,
        page=page,
        pages=pages,
    )


async def get_conversation(*, session: AsyncSession, actor: Principal, conversation_id: str) -> ChatState:
    """One of the signed-in user's conversations, to read or to continue."""
    user_id = await _signed_in(session, actor)
    row = await _own_conversation(session, user_id, conversation_id)
    messages = (
        await session.scalars(
            select(AssistantMessage)
            .where(AssistantMessage.conversation_id == row.id)
            .order_by(AssistantMessage.created_at, AssistantMessage.id)
            .limit(MAX_VISITOR_MESSAGES)
        )
    ).all()
    return ChatState(
        conversation_id=row.id,
        red_flagged=row.red_flag_category is not None,
        messages=tuple(
            ChatMessage(
                kind=message.kind,
                text=message.text,
                sources=tuple(SourceLink(**source) for source in message.sources or []),
                at=as_utc(message.created_at),
            )
            for message in messages
        ),
    )


async def delete_conversation(*, session: AsyncSession, actor: Principal, conversation_id: str) -> str:
    """Delete one of the signed-in user's conversations (its messages go with it); returns its id."""
    user_id = await _signed_in(session, actor)
    row = await _own_conversation(session, user_id, conversation_id)
    await session.execute(delete(AssistantMessage).where(AssistantMessage.conversation_id == row.id))
    await session.delete(row)
    await session.flush()
    return conversation_id


async def delete_all_conversations(*, session: AsyncSession, actor: Principal) -> int:
    """Delete every conversation of the signed-in user; returns how many there were."""
    user_id = await _signed_in(session, actor)
    mine = select(AssistantConversation.id).where(AssistantConversation.user_id == user_id)
    await session.execute(delete(AssistantMessage).where(AssistantMessage.conversation_id.in_(mine)))
    return await changed_rows(
        session, delete(AssistantConversation).where(AssistantConversation.user_id == user_id)
    )


async def get_assistant_preferences(*, session: AsyncSession, actor: Principal) -> AssistantPreferenceRead:
    user_id = await _signed_in(session, actor)
    return AssistantPreferenceRead(keep_history=await _keeps_history(session, user_id))


async def set_assistant_preferences(
    *, session: AsyncSession, actor: Principal, keep_history: bool
) -> AssistantPreferenceRead:
    """Keep new conversations (on) or not (off). Turning it off keeps what is already stored; the user
    deletes that themselves."""
    user_id = await _signed_in(session, actor)
    row = await session.get(AssistantPreference, user_id)
    if row is None:
        row = AssistantPreference(user_id=user_id)
        session.add(row)
    row.keep_history = bool(keep_history)
    row.updated_at = datetime.now(UTC)
    await session.flush()
    return AssistantPreferenceRead(keep_history=row.keep_history)
