"""The AI healthcare assistant's tables and schemas (issue 16 part 3): a signed-in user's stored
conversations and their messages, and the user's assistant preferences. A visitor's chat is never stored.

A conversation remembers whether a red flag was raised in it (`red_flag_category`, `red_flag_at`: the
category and the time only): from then on it offers no booking.
"""

from __future__ import annotations

import enum
from datetime import datetime

from pydantic import BaseModel, ConfigDict
from sqlalchemy import JSON, Boolean, Enum, ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from models.base import Base, id_column, utcnow
from models.identity import as_utc

MAX_QUESTION = 1000  # characters a message may have
MAX_TITLE = 120
PAGE_SIZE = 20  # conversations listed per page


class AnswerKind(enum.StrEnum):
    """What an assistant message is: a grounded answer, the 911 or 988 message, the fixed refusal to
    diagnose or give doses, 'not found', or a link to book."""

    question = "question"  # the person's own message
    answer = "answer"
    emergency = "emergency"
    crisis = "crisis"
    refusal = "refusal"
    not_found = "not_found"
    booking = "booking"


class AssistantConversation(Base):
    __tablename__ = "assistant_conversations"
    __table_args__ = (Index("ix_assistant_conversations_user_updated", "user_id", "updated_at"),)

    id: Mapped[str] = id_column()
    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"))
    title: Mapped[str] = mapped_column(String(MAX_TITLE))
    red_flag_category: Mapped[str | None] = mapped_column(String(64), default=None)
    red_flag_at: Mapped[datetime | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class AssistantMessage(Base):
    __tablename__ = "assistant_messages"
    __table_args__ = (Index("ix_assistant_messages_conversation_created", "conversation_id", "created_at"),)

    id: Mapped[str] = id_column()
    conversation_id: Mapped[str] = mapped_column(ForeignKey("assistant_conversations.id", ondelete="CASCADE"))
    kind: Mapped[AnswerKind] = mapped_column(Enum(AnswerKind, native_enum=False, length=16))
    text: Mapped[str] = mapped_column(Text)
    sources: Mapped[list[dict[str, str]]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class AssistantPreference(Base):
    __tablename__ = "assistant_preferences"

    user_id: Mapped[str] = mapped_column(ForeignKey("auth_users.id", ondelete="CASCADE"), primary_key=True)
    keep_history: Mapped[bool] = mapped_column(Boolean, default=True)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


class SourceLink(BaseModel):
    """Where an answer came from: a catalog service, a help-center article or the provider search."""

    model_config = ConfigDict(frozen=True)

    title: str
    url: str


class ChatMessage(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: AnswerKind
    text: str
    sources: tuple[SourceLink, ...] = ()
    at: datetime

    @property
    def mine(self) -> bool:
        return self.kind is AnswerKind.question


class ChatState(BaseModel):
    """A conversation as the chat holds it: the stored conversation's id (None while nothing is stored: a
    visitor, or history off), whether a red flag was raised in it, and its messages."""

    model_config = ConfigDict(frozen=True)

    conversation_id: str | None = None
    red_flagged: bool = False
    messages: tuple[ChatMessage, ...] = ()


class ConversationRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    title: str
    red_flagged: bool
    message_count: int
    created_at: datetime
    updated_at: datetime


class ConversationPage(BaseModel):
    model_config = ConfigDict(frozen=True)

    items: tuple[ConversationRead, ...]
    total: int
    page: int
    pages: int


class AssistantPreferenceRead(BaseModel):
    model_config = ConfigDict(frozen=True)

    keep_history: bool


class TicketDraftRead(BaseModel):
    """A reply drafted from the help center for an agent to edit (never sent by itself)."""

    model_config = ConfigDict(frozen=True)

    ticket_id: str
    text: str
    sources: tuple[SourceLink, ...]
    found: bool


def conversation_read(row: AssistantConversation, message_count: int) -> ConversationRead:
    return ConversationRead(
        id=row.id,
        title=row.title,
        red_flagged=row.red_flag_category is not None,
        message_count=message_count,
        created_at=as_utc(row.created_at),
        updated_at=as_utc(row.updated_at),
    )
