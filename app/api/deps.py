"""FastAPI dependencies shared by the HTTP surfaces."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.web import ACCESS_COOKIE
from app.db import unit_of_work
from app.principal import Principal
from app.services.accounts import resolve_viewer


async def get_session() -> AsyncIterator[AsyncSession]:
    """FastAPI dependency: one unit of work per request."""
    async with unit_of_work() as session:
        yield session


# scope="function" commits before the response is sent, so a client's next request sees the write.
SessionDep = Annotated[AsyncSession, Depends(get_session, scope="function")]


async def signed_in(session: AsyncSession, request: Request) -> Principal | None:
    """The signed-in browser behind the request's session cookie (noted with its address and browser), or
    None: nobody, or a session that ended."""
    viewer = await resolve_viewer(session=session, access_token=request.cookies.get(ACCESS_COOKIE, ""))
    if viewer is None:
        return None
    return viewer.actor.from_client(
        ip=request.client.host if request.client else "", user_agent=request.headers.get("user-agent", "")
    )
