"""The HTTP surfaces' one way into a unit of work, and who a request acts for.

- `SessionDep`: the FastAPI dependency most routes take, one unit of work per request (committed before
  the response is sent, rolled back when the route raises).
- `transaction()`: a unit of work a route opens itself, for the identity routes (/auth/v1, the browser
  form posts) that first check rate limits or hash a password outside any transaction, may need two in
  one request, and keep the writes made before an error marked `commit=True`. The page handler's head
  lookup and the Stripe webhook open theirs the same way, once the request is known to need one.
- `signed_in` / `SignedInDep`: the signed-in browser behind the request's session cookie, or None.

Jobs and the command line use the job runner (app/jobs.py); the screens, the hooks (components/hooks.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.errors import AuthApiError
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


@asynccontextmanager
async def transaction() -> AsyncIterator[AsyncSession]:
    """One unit of work; an error marked `commit=True` keeps the writes made before it."""
    pending: AuthApiError | None = None
    async with unit_of_work() as session:
        try:
            yield session
        except AuthApiError as exc:
            if not exc.commit:
                raise
            pending = exc
    if pending is not None:
        raise pending


async def signed_in(session: AsyncSession, request: Request) -> Principal | None:
    """The signed-in browser behind the request's session cookie (noted with its address and browser), or
    None: nobody, or a session that ended."""
    viewer = await resolve_viewer(session=session, access_token=request.cookies.get(ACCESS_COOKIE, ""))
    if viewer is None:
        return None
    return viewer.actor.from_client(
        ip=request.client.host if request.client else "", user_agent=request.headers.get("user-agent", "")
    )


async def _signed_in_principal(session: SessionDep, request: Request) -> Principal | None:
    return await signed_in(session, request)


# The request's principal, read in the request's own unit of work (FastAPI hands both the same session).
SignedInDep = Annotated[Principal | None, Depends(_signed_in_principal)]
