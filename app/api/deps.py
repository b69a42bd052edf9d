"""FastAPI dependencies shared by the HTTP surfaces."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import unit_of_work


async def get_session() -> AsyncIterator[AsyncSession]:
    """FastAPI dependency: one unit of work per request."""
    async with unit_of_work() as session:
        yield session


# scope="function" commits before the response is sent, so a client's next request sees the write.
SessionDep = Annotated[AsyncSession, Depends(get_session, scope="function")]
