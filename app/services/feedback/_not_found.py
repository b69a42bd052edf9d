"""Unknown paths: the 404 page's suggested destination and the per-path hit counter staff read later."""

from __future__ import annotations

from sqlalchemy import delete, func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.settings import get_settings
from models.base import utcnow
from models.not_found import MAX_TRACKED_PATH, NotFoundPath

# SPEC §2 "404 page", in its order: the first keyword found in the path wins.
SUGGESTIONS: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("signup", "register"), "/sign-up", "Sign Up"),
    (("signin", "login"), "/sign-in", "Sign In"),
    (("forgot", "reset", "password"), "/forgot-password", "Reset your password"),
    (("provider",), "/providers", "Browse Providers"),
    (("service",), "/services", "Our Services"),
    (("appointment",), "/appointments", "My Appointments"),
    (("profile", "account"), "/dashboard/profile", "Your Profile"),
    (("enroll",), "/provider-enrollment", "Provider Enrollment"),
)
HOME = ("/", "Home")


def suggest_page(path: str) -> tuple[str, str]:
    """The (href, label) of the page a visitor who typed `path` most likely wanted."""
    lowered = path.lower()
    for keywords, href, label in SUGGESTIONS:
        if any(keyword in lowered for keyword in keywords):
            return href, label
    return HOME


async def record_unknown_path(*, session: AsyncSession, path: str) -> None:
    """Count one visit to a path the route table does not know (an upsert, safe under concurrency).

    The table keeps at most `NOT_FOUND_PATHS_KEPT` paths: a new path past that evicts the least visited
    (the oldest first), so a scanner asking for endless unique paths cannot grow it."""
    now = utcnow()
    path = path[:MAX_TRACKED_PATH]
    insert = sqlite_insert if session.get_bind().dialect.name == "sqlite" else pg_insert
    statement = insert(NotFoundPath).values(path=path, hits=1, first_seen=now, last_seen=now)
    hits = await session.scalar(
        statement.on_conflict_do_update(
            index_elements=[NotFoundPath.path], set_={"hits": NotFoundPath.hits + 1, "last_seen": now}
        ).returning(NotFoundPath.hits)
    )
    if hits != 1:
        return
    paths = (await session.execute(select(func.count()).select_from(NotFoundPath))).scalar_one()
    excess = paths - get_settings().not_found_paths_kept
    if excess > 0:
        evicted = (
            select(NotFoundPath.path)
            .where(NotFoundPath.path != path)
            .order_by(NotFoundPath.hits, NotFoundPath.last_seen)
            .limit(excess)
        )
        await session.execute(delete(NotFoundPath).where(NotFoundPath.path.in_(evicted)))
