"""PKCE flows of e-mail sign-ups, magic links and recoveries (GoTrue `pkce.go`, `models/flow_state.go`).

The client sends `code_challenge` + `code_challenge_method` with the request that mails a link; the link
then redirects with `?code=<auth_code>`, and `POST /token?grant_type=pkce` trades the code and the
`code_verifier` for a session.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import uuid
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.common import RequestOrigin, now, older_than
from app.auth.errors import bad_request, not_found, unprocessable, validation_failed
from app.auth.sessions import load_user_row, start_session
from app.settings import get_settings
from models.identity import AuthSessionRead, FlowState

_CHALLENGE = re.compile(r"[A-Za-z0-9._~-]{43,128}")

# The `authentication_method` of a flow, by e-mail link type.
FLOW_METHODS = {
    "signup": "email/signup",
    "magiclink": "magiclink",
    "recovery": "recovery",
    "email_change": "email_change",
    "invite": "invite",
}


@dataclass(frozen=True)
class Pkce:
    challenge: str
    method: str  # s256 | plain


def pkce_params(challenge: object, method: object) -> Pkce | None:
    """None for the implicit flow; 400 `validation_failed` when only one part or a malformed one is sent."""
    if not challenge and not method:
        return None
    if not isinstance(challenge, str) or not isinstance(method, str) or not challenge or not method:
        raise validation_failed("PKCE flow requires code_challenge_method and code_challenge")
    method = method.lower()
    if method not in {"s256", "plain"}:
        raise validation_failed(f"code challenge method not supported: {method}")
    if not _CHALLENGE.fullmatch(challenge):
        raise validation_failed("code challenge has to be between 43 and 128 characters")
    return Pkce(challenge=challenge, method=method)


async def create_flow_state(session: AsyncSession, *, user_id: str, link_type: str, pkce: Pkce) -> FlowState:
    flow = FlowState(
        user_id=user_id,
        auth_code=str(uuid.uuid4()),
        code_challenge=pkce.challenge,
        code_challenge_method=pkce.method,
        provider_type="email",
        authentication_method=FLOW_METHODS.get(link_type, link_type),
    )
    session.add(flow)
    await session.flush()
    return flow


async def issue_auth_code(session: AsyncSession, *, user_id: str, link_type: str) -> str:
    """The auth code of the user's newest flow for this kind of link (the verified e-mail link)."""
    flow = await session.scalar(
        select(FlowState)
        .where(
            FlowState.user_id == user_id,
            FlowState.authentication_method == FLOW_METHODS.get(link_type, link_type),
        )
        .order_by(FlowState.created_at.desc())
        .limit(1)
    )
    if flow is None:
        raise not_found("flow_state_not_found", "invalid flow state, no valid flow state found")
    flow.auth_code_issued_at = now()
    await session.flush()
    return flow.auth_code


def _verifier_matches(flow: FlowState, verifier: str) -> bool:
    if flow.code_challenge_method == "s256":
        digest = hashlib.sha256(verifier.encode()).digest()
        computed = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
    else:
        computed = verifier
    return hmac.compare_digest(computed, flow.code_challenge)


async def exchange_auth_code(
    *, session: AsyncSession, origin: RequestOrigin, auth_code: str, code_verifier: str
) -> AuthSessionRead:
    if not auth_code or not code_verifier:
        raise validation_failed("invalid request: both auth code and code verifier should be non-empty")
    flow = await session.scalar(select(FlowState).where(FlowState.auth_code == auth_code))
    if flow is None or flow.auth_code_issued_at is None or flow.user_id is None:
        raise not_found("flow_state_not_found", "invalid flow state, no valid flow state found")
    if older_than(flow.auth_code_issued_at, get_settings().flow_state_expiry):
        raise unprocessable("flow_state_expired", "Flow state has expired")
    if not _verifier_matches(flow, code_verifier):
        raise bad_request("bad_code_verifier", "code challenge does not match previously saved code verifier")
    user = await load_user_row(session, flow.user_id)
    if user is None:
        raise not_found("user_not_found", "User not found")
    method = flow.authentication_method
    await session.delete(flow)
    return await start_session(session=session, user=user, method=method, origin=origin)
