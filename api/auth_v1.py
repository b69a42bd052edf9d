"""`/auth/v1`: the identity API, wire-compatible with Supabase Auth (GoTrue), so the official
`supabase-auth` / `supabase-js` clients work against it unchanged. See /work/shared/gotrue-compat.md.

Public endpoints ignore `Authorization` and unknown body fields. Errors carry GoTrue's bodies and headers
(`app.auth.errors`). Each request is one unit of work, committed before the answer is sent.
"""

from __future__ import annotations

import json
import logging
import traceback
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar
from urllib.parse import urlencode, urlsplit, urlunsplit

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel, ConfigDict, ValidationError
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession
from starlette.routing import Match

from api.deps import transaction
from app import flags
from app.auth import mfa, otp, users
from app.auth.common import RequestOrigin, check_redirect_to, safe_redirect
from app.auth.errors import (
    API_VERSION,
    API_VERSION_HEADER,
    AuthApiError,
    OAuthError,
    bad_request,
    not_found,
    unexpected,
    validation_failed,
)
from app.auth.keys import get_key_ring
from app.auth.pkce import exchange_auth_code, pkce_params
from app.auth.ratelimit import enforce
from app.auth.sessions import Actor, authenticate, refresh, sign_in_with_password, sign_out
from app.settings import get_settings

logger = logging.getLogger(__name__)

CORS_HEADERS = "apikey, authorization, content-type, x-client-info, x-supabase-api-version"
EXPOSED_HEADERS = "X-Supabase-Api-Version, x-sb-error-code, Retry-After"


# ---- plumbing ----------------------------------------------------------------------------------


def error_response(exc: AuthApiError) -> JSONResponse:
    """An identity-service error as GoTrue answers it."""
    status, body, headers = exc.answer()
    return JSONResponse(body, status_code=status, headers=headers)


class _RedactAuthQueries(logging.Filter):
    """Access logs must not carry e-mail link tokens or codes: drop /auth/v1 query strings."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            path = args[2]
            if path.startswith("/auth/v1") and "?" in path:
                record.args = (*args[:2], path.split("?", 1)[0] + "?[redacted]", *args[3:])
        return True


logging.getLogger("uvicorn.access").addFilter(_RedactAuthQueries())


def _finish(request: Request, response: Response) -> Response:
    """Headers of every answer: API version, no caching of tokens and user data, CORS (bearer tokens, no
    cookies, so any origin may call, as with GoTrue)."""
    response.headers.setdefault(API_VERSION_HEADER, API_VERSION)
    response.headers.setdefault("Cache-Control", "no-store")
    if request.headers.get("origin"):
        response.headers["Access-Control-Allow-Origin"] = "*"
        response.headers["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
    return response


class AuthRoute(APIRoute):
    """Turns the identity service's errors into GoTrue answers and adds CORS headers."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def route(request: Request) -> Response:
            try:
                response = await handler(request)
            except AuthApiError as exc:
                response = error_response(exc)
            except IntegrityError:
                # Two requests raced to create the same row (e.g. one address signing up twice at once).
                response = error_response(
                    AuthApiError(409, "conflict", "Concurrent requests conflicted, please retry")
                )
            except Exception as exc:
                # No `logger.exception`: a database error's message carries the statement's parameters
                # (password hashes, token hashes, addresses). Log the frames and the error class only.
                detail = (
                    type(exc).__name__ if isinstance(exc, SQLAlchemyError) else f"{type(exc).__name__}: {exc}"
                )
                frames = "".join(traceback.format_tb(exc.__traceback__))
                logger.error(
                    "Identity API failure on %s %s: %s\n%s", request.method, request.url.path, detail, frames
                )
                response = error_response(unexpected())
            return _finish(request, response)

        return route


class ErrorBody(BaseModel):
    """Every error of the identity API (GoTrue's shape); the code is also in the `x-sb-error-code` header."""

    code: int
    error_code: str
    msg: str


def _error(description: str, **extra: Any) -> dict[str, Any]:
    return {"model": ErrorBody, "description": description, **extra}


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: _error("Bad request: invalid input, credentials or token (`error_code` says which)"),
    401: _error("No valid access token (`no_authorization`, `bad_jwt`, `session_not_found`)"),
    403: _error("Not allowed (`otp_expired`, `not_admin`, `insufficient_aal` …)"),
    405: _error("Method not allowed on this path (the `Allow` header lists the allowed ones)"),
    413: _error("Request body larger than MAX_AUTH_REQUEST_BYTES"),
    422: _error("Refused by a rule (`weak_password`, `email_exists`, `signup_disabled` …)"),
    429: _error(
        "Rate limited (`over_request_rate_limit`, `over_email_send_rate_limit`)",
        headers={"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}},
    ),
}

router = APIRouter(prefix="/auth/v1", tags=["auth"], route_class=AuthRoute, responses=ERROR_RESPONSES)


def _documented(body: type[BaseModel]) -> dict[str, Any]:
    """OpenAPI for a route that reads its JSON body itself (GoTrue ignores unknown fields and accepts an
    empty body, which FastAPI's own body parsing would not)."""
    return {
        "openapi_extra": {
            "requestBody": {
                "required": False,
                "content": {"application/json": {"schema": body.model_json_schema()}},
            }
        }
    }


def _origin(request: Request) -> RequestOrigin:
    """Links in e-mails must not follow the request's Host header (anyone can set it and would receive the
    victim's link): production uses API_EXTERNAL_URL, else SITE_URL + /auth/v1; development the request."""
    settings = get_settings()
    if settings.api_external_url:
        api_url = settings.api_external_url
    elif settings.is_production:
        api_url = settings.site_url.rstrip("/") + "/auth/v1"
    else:
        api_url = str(request.base_url).rstrip("/") + "/auth/v1"
    return RequestOrigin(
        ip=request.client.host if request.client else "",
        user_agent=request.headers.get("user-agent", ""),
        api_url=api_url.rstrip("/"),
    )


class _Body(BaseModel):
    model_config = ConfigDict(extra="ignore")


BodyT = TypeVar("BodyT", bound=_Body)


async def _body(request: Request, model: type[BodyT]) -> BodyT:
    raw = await request.body()
    data: Any = {}
    if raw.strip():
        try:
            data = json.loads(raw)
        except ValueError:
            raise bad_request("bad_json", "Could not parse request body as JSON") from None
    if not isinstance(data, dict):
        raise bad_request("bad_json", "Could not parse request body as JSON: expected an object")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ())) or "body"
        raise validation_failed(f"Invalid value for {where}: {first.get('msg', 'invalid')}") from None


async def _actor(session: AsyncSession, request: Request) -> Actor:
    return await authenticate(session=session, authorization=request.headers.get("authorization"))


async def _limit(
    scope: str,
    request: Request,
    email: str | None = None,
    *,
    limit: int,
    window: float | None = None,
    subject: str | None = None,
) -> None:
    """Count the request against the client IP, and the e-mail address or other subject it targets."""
    keys = [f"ip:{request.client.host if request.client else ''}"]
    if email and isinstance(email, str):
        keys.append(f"email:{email.strip().lower()}")
    if subject:
        keys.append(f"subject:{subject}")
    await enforce(scope, keys, limit=limit, window=window or get_settings().rate_limit_window)


def _json(data: Any, status_code: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status_code)


# ---- public endpoints --------------------------------------------------------------------------
@router.get("/health")
async def health() -> JSONResponse:
    return _json(
        {
            "version": "medivisit",
            "name": "GoTrue",
            "description": "GoTrue is a user registration and authentication API",
        }
    )


@router.get("/settings")
async def auth_settings() -> JSONResponse:
    settings = get_settings()
    providers = [
        "anonymous_users",
        "apple",
        "azure",
        "bitbucket",
        "discord",
        "facebook",
        "figma",
        "fly",
        "github",
        "gitlab",
        "google",
        "keycloak",
        "kakao",
        "linkedin",
        "linkedin_oidc",
        "notion",
        "slack",
        "slack_oidc",
        "spotify",
        "twitch",
        "twitter",
        "workos",
        "zoom",
        "phone",
    ]
    external = {name: False for name in providers}
    external["email"] = True
    return _json(
        {
            "external": external,
            "disable_signup": flags.signups_closed(),
            "mailer_autoconfirm": bool(settings.mailer_autoconfirm),
            "phone_autoconfirm": False,
            "sms_provider": "",
            "saml_enabled": False,
        }
    )


@router.get("/.well-known/jwks.json")
async def jwks() -> JSONResponse:
    return JSONResponse(get_key_ring().public_jwks(), headers={"Cache-Control": "public, max-age=600"})


class SignupBody(_Body):
    email: str | None = None
    phone: str | None = None
    password: str | None = None
    data: dict[str, Any] | None = None
    code_challenge: str | None = None
    code_challenge_method: str | None = None


@router.post("/signup", **_documented(SignupBody))
async def signup(request: Request) -> JSONResponse:
    body = await _body(request, SignupBody)
    await _limit("signup", request, body.email, limit=get_settings().rate_limit_otp)
    pkce = pkce_params(body.code_challenge, body.code_challenge_method)
    async with transaction() as session:
        result = await users.sign_up(
            session=session,
            origin=_origin(request),
            email=body.email,
            phone=body.phone,
            password=body.password,
            data=body.data,
            redirect_to=check_redirect_to(request.query_params.get("redirect_to")),
            pkce=pkce,
        )
    return _json(result.wire())


class TokenBody(_Body):
    email: str | None = None
    phone: str | None = None
    password: str | None = None
    refresh_token: str | None = None
    auth_code: str | None = None
    code_verifier: str | None = None
    provider: str | None = None
    id_token: str | None = None


@router.post("/token", **_documented(TokenBody))
async def token(request: Request) -> JSONResponse:
    settings = get_settings()
    grant_type = request.query_params.get("grant_type", "")
    body = await _body(request, TokenBody)
    await _limit("token", request, limit=settings.rate_limit_token)
    origin = _origin(request)
    if grant_type == "password":
        if not body.email and body.phone:
            raise bad_request("invalid_credentials", "Invalid login credentials")
        if not body.email or not body.password:
            raise bad_request("invalid_credentials", "Invalid login credentials")
        async with transaction() as session:
            result = await sign_in_with_password(
                session=session, origin=origin, email=body.email, password=body.password
            )
    elif grant_type == "refresh_token":
        if not body.refresh_token:
            raise OAuthError("invalid_request", "refresh_token required")
        async with transaction() as session:
            result = await refresh(session=session, origin=origin, refresh_token=body.refresh_token)
    elif grant_type == "pkce":
        async with transaction() as session:
            result = await exchange_auth_code(
                session=session,
                origin=origin,
                auth_code=body.auth_code or "",
                code_verifier=body.code_verifier or "",
            )
    elif grant_type == "id_token":
        if not body.provider or not body.id_token:
            raise OAuthError("invalid_request", "provider and id_token are required")
        raise bad_request("provider_disabled", f"Provider ({body.provider}) is not enabled")
    else:
        raise bad_request("invalid_credentials", "unsupported_grant_type")
    return _json(result.wire())


class OtpBody(_Body):
    email: str | None = None
    phone: str | None = None
    create_user: bool | None = True
    data: dict[str, Any] | None = None
    code_challenge: str | None = None
    code_challenge_method: str | None = None


@router.post("/otp", **_documented(OtpBody))
async def send_otp(request: Request) -> JSONResponse:
    body = await _body(request, OtpBody)
    await _limit("otp", request, body.email, limit=get_settings().rate_limit_otp)
    pkce = pkce_params(body.code_challenge, body.code_challenge_method)
    async with transaction() as session:
        await otp.request_otp(
            session=session,
            origin=_origin(request),
            email=body.email,
            phone=body.phone,
            create_user=body.create_user is not False,
            data=body.data,
            redirect_to=check_redirect_to(request.query_params.get("redirect_to")),
            pkce=pkce,
        )
    return _json({})


class VerifyBody(_Body):
    type: str | None = None
    token: str | None = None
    token_hash: str | None = None
    email: str | None = None
    phone: str | None = None


@router.post("/verify", **_documented(VerifyBody))
async def verify_post(request: Request) -> JSONResponse:
    body = await _body(request, VerifyBody)
    await _limit("verify", request, body.email, limit=get_settings().rate_limit_verify)
    async with transaction() as session:
        result = await otp.verify(
            session=session,
            origin=_origin(request),
            type=body.type,
            token=body.token,
            token_hash=body.token_hash,
            email=body.email,
            phone=body.phone,
        )
    if isinstance(result, str):  # a secure e-mail change waits for the other address
        return _json({"msg": result, "code": 200})
    return _json(result.wire())


def _with_query(url: str, params: dict[str, str]) -> str:
    parts = urlsplit(url)
    query = "&".join(q for q in (parts.query, urlencode(params)) if q)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, ""))


def _with_fragment(url: str, params: dict[str, Any]) -> str:
    return url.split("#", 1)[0] + "#" + urlencode(params)


@router.get("/verify")
async def verify_get(request: Request) -> Response:
    """The e-mail link: 303 to `redirect_to` with the session in the fragment, `?code=` under PKCE,
    or the error in the fragment (query under PKCE)."""
    query = request.query_params
    token_hash = query.get("token", "")
    link_type = query.get("type")
    target = safe_redirect(query.get("redirect_to"))
    is_pkce = token_hash.startswith("pkce_")
    await _limit("verify", request, limit=get_settings().rate_limit_verify)
    try:
        async with transaction() as session:
            result = await otp.verify_link(
                session=session, origin=_origin(request), type=link_type, token_hash=token_hash
            )
        if result.message is not None:
            location = _with_fragment(target, {"message": result.message})
        elif result.auth_code is not None:
            location = _with_query(target, {"code": result.auth_code})
        else:
            assert result.session is not None
            location = _with_fragment(
                target,
                {
                    "access_token": result.session.access_token,
                    "expires_at": result.session.expires_at,
                    "expires_in": result.session.expires_in,
                    "refresh_token": result.session.refresh_token,
                    "token_type": "bearer",
                    "type": link_type,
                },
            )
    except AuthApiError as exc:
        error = {403: "access_denied"}.get(
            exc.status, "server_error" if exc.status >= 500 else "invalid_request"
        )
        description = "Email link is invalid or has expired" if exc.code == "otp_expired" else exc.message
        params = {"error": error, "error_code": exc.code, "error_description": description}
        location = _with_query(target, params) if is_pkce else _with_fragment(target, params)
    return RedirectResponse(location, status_code=303)


class RecoverBody(_Body):
    email: str | None = None
    code_challenge: str | None = None
    code_challenge_method: str | None = None


@router.post("/recover", **_documented(RecoverBody))
async def recover(request: Request) -> JSONResponse:
    body = await _body(request, RecoverBody)
    await _limit("recover", request, body.email, limit=get_settings().rate_limit_otp)
    pkce = pkce_params(body.code_challenge, body.code_challenge_method)
    async with transaction() as session:
        await otp.recover(
            session=session,
            origin=_origin(request),
            email=body.email,
            redirect_to=check_redirect_to(request.query_params.get("redirect_to")),
            pkce=pkce,
        )
    return _json({})


class ResendBody(_Body):
    type: str | None = None
    email: str | None = None
    phone: str | None = None


@router.post("/resend", **_documented(ResendBody))
async def resend(request: Request) -> JSONResponse:
    body = await _body(request, ResendBody)
    await _limit("resend", request, body.email, limit=get_settings().rate_limit_otp)
    async with transaction() as session:
        await otp.resend(
            session=session,
            origin=_origin(request),
            type=body.type,
            email=body.email,
            phone=body.phone,
            redirect_to=check_redirect_to(request.query_params.get("redirect_to")),
        )
    return _json({})


@router.get("/authorize")
async def authorize(request: Request) -> JSONResponse:
    provider = request.query_params.get("provider", "")
    raise validation_failed(f"Unsupported provider: provider {provider} could not be found")


# ---- user-JWT endpoints ------------------------------------------------------------------------
@router.get("/user")
async def get_user(request: Request) -> JSONResponse:
    async with transaction() as session:
        actor = await _actor(session, request)
        aud = actor.claims.get("aud")
        aud = aud[0] if isinstance(aud, list) and aud else aud
        if aud != get_settings().jwt_aud:
            raise validation_failed("Token audience doesn't match request audience")
        user = await users.get_user(session=session, actor=actor)
    return _json(user.wire())


class UserUpdateBody(_Body):
    email: str | None = None
    phone: str | None = None
    password: str | None = None
    nonce: str | None = None
    data: dict[str, Any] | None = None
    app_metadata: Any = None
    code_challenge: str | None = None
    code_challenge_method: str | None = None


@router.put("/user", **_documented(UserUpdateBody))
async def update_user(request: Request) -> JSONResponse:
    body = await _body(request, UserUpdateBody)
    await _limit("user", request, limit=get_settings().rate_limit_otp)
    pkce = pkce_params(body.code_challenge, body.code_challenge_method)
    async with transaction() as session:
        actor = await _actor(session, request)
        user = await users.update_user(
            session=session,
            actor=actor,
            origin=_origin(request),
            email=body.email,
            phone=body.phone,
            password=body.password,
            nonce=body.nonce,
            data=body.data,
            app_metadata=body.app_metadata,
            redirect_to=check_redirect_to(request.query_params.get("redirect_to")),
            pkce=pkce,
        )
    return _json(user.wire())


@router.post("/logout")
async def logout(request: Request) -> Response:
    scope = request.query_params.get("scope", "global")
    async with transaction() as session:
        actor = await _actor(session, request)
        await sign_out(session=session, actor=actor, scope=scope, origin=_origin(request))
    return Response(status_code=204)


@router.get("/reauthenticate")
async def reauthenticate(request: Request) -> JSONResponse:
    async with transaction() as session:
        actor = await _actor(session, request)
        await otp.reauthenticate(session=session, actor=actor, origin=_origin(request))
    return _json({})


class EnrollBody(_Body):
    factor_type: str | None = None
    friendly_name: str | None = None
    issuer: str | None = None
    phone: str | None = None


@router.post("/factors", **_documented(EnrollBody))
async def enroll_factor(request: Request) -> JSONResponse:
    body = await _body(request, EnrollBody)
    async with transaction() as session:
        actor = await _actor(session, request)
        enrollment = await mfa.enroll(
            session=session,
            actor=actor,
            origin=_origin(request),
            factor_type=body.factor_type,
            friendly_name=body.friendly_name,
            issuer=body.issuer,
        )
    return _json(enrollment.wire())


@router.post("/factors/{factor_id}/challenge")
async def challenge_factor(factor_id: str, request: Request) -> JSONResponse:
    await _limit("mfa", request, limit=get_settings().rate_limit_mfa, window=60, subject=factor_id)
    async with transaction() as session:
        actor = await _actor(session, request)
        challenge = await mfa.challenge(
            session=session, actor=actor, origin=_origin(request), factor_id=factor_id
        )
    return _json(challenge.wire())


class FactorVerifyBody(_Body):
    challenge_id: str | None = None
    code: str | None = None


@router.post("/factors/{factor_id}/verify", **_documented(FactorVerifyBody))
async def verify_factor(factor_id: str, request: Request) -> JSONResponse:
    body = await _body(request, FactorVerifyBody)
    await _limit("mfa", request, limit=get_settings().rate_limit_mfa, window=60, subject=factor_id)
    async with transaction() as session:
        actor = await _actor(session, request)
        result = await mfa.verify(
            session=session,
            actor=actor,
            origin=_origin(request),
            factor_id=factor_id,
            challenge_id=body.challenge_id,
            code=body.code,
        )
    return _json(result.wire())


@router.delete("/factors/{factor_id}")
async def unenroll_factor(factor_id: str, request: Request) -> JSONResponse:
    async with transaction() as session:
        actor = await _actor(session, request)
        removed = await mfa.unenroll(
            session=session, actor=actor, factor_id=factor_id, origin=_origin(request)
        )
    return _json({"id": removed})


# ---- CORS preflight and unknown paths (last) ---------------------------------------------------
@router.options("/{path:path}", include_in_schema=False)
async def preflight(request: Request) -> Response:
    requested = request.headers.get("access-control-request-headers")
    return Response(
        status_code=204,
        headers={
            "Access-Control-Allow-Origin": "*",
            "Access-Control-Allow-Methods": "GET, POST, PUT, DELETE, OPTIONS",
            "Access-Control-Allow-Headers": requested or CORS_HEADERS,
            "Access-Control-Expose-Headers": EXPOSED_HEADERS,
            "Access-Control-Max-Age": "600",
            API_VERSION_HEADER: API_VERSION,
        },
    )


@router.api_route(
    "/{path:path}", methods=["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"], include_in_schema=False
)
async def unknown(path: str, request: Request) -> Response:
    """An unknown path is 404; a known path asked with another method is 405 with `Allow`."""
    allowed = sorted(
        method
        for route in router.routes
        if isinstance(route, APIRoute)
        and "{path:path}" not in route.path
        and route.matches(request.scope)[0] is Match.PARTIAL
        for method in route.methods
    )
    if allowed:
        raise AuthApiError(
            405, "method_not_allowed", "Method Not Allowed", headers={"Allow": ", ".join(allowed)}
        )
    raise not_found("not_found", "Not Found")
