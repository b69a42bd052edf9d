"""`/auth/*`: the browser's sign-in forms. Plain HTML form posts that call the identity service's functions,
keep the session in HttpOnly cookies (`app.auth.web`) and answer 303 to the next page.

- `POST /auth/login`, `/auth/register`, `/auth/forgot-password`, `/auth/reset-password`, `/auth/mfa`
  (the TOTP code after the password), `/auth/resend-confirmation`, `/auth/logout`,
  `/auth/mfa/enable`, `/auth/mfa/disable`: `application/x-www-form-urlencoded` forms.
- `GET /auth/oidc` and `/auth/oidc/callback`: 'Continue with <OIDC_NAME>' (app/auth/oidc.py).
- `POST /auth/refresh` (static/js/auth.js's refresh tick) and `POST /auth/session` (an e-mail link's session,
  read from the URL fragment by auth.js, becomes cookies): JSON, with the CSRF token in `X-CSRF-Token`.

Every post must carry the `mv_csrf` cookie's token (double submit, compared in constant time) and must not
come from another site (`Origin`, `Sec-Fetch-Site`); otherwise 403 and nothing happens. A failure goes back
to the form with a signed flash cookie (error code and typed values, never the password), so no secret and
no address ever lands in a URL or an access log.
"""

from __future__ import annotations

import json
import logging
import time
import traceback
from typing import Any
from urllib.parse import parse_qs

import httpx
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession

from api.auth_v1 import _limit, _origin  # the same limits and link origins as /auth/v1
from api.deps import transaction
from app import flags
from app.auth import mfa, oidc, otp, users
from app.auth.common import clean_person_name
from app.auth.errors import AuthApiError
from app.auth.sessions import (
    Actor,
    authenticate,
    record_activity,
    refresh,
    sign_in_with_password,
    sign_out,
)
from app.auth.web import (
    ACCESS_COOKIE,
    CSRF_COOKIE,
    CSRF_FIELD,
    CSRF_HEADER,
    EVENT_COOKIE,
    EXPIRES_COOKIE,
    FLASH_COOKIE,
    FLASH_MAX_AGE,
    MFA_COOKIE,
    MFA_COOKIE_MAX_AGE,
    REFRESH_COOKIE,
    SESSION_COOKIE_MAX_AGE,
    Flash,
    csrf_matches,
    encode_flash,
    origin_allowed,
    safe_redirect_path,
    unverified_expiry,
    with_redirect,
)
from app.services.accounts import fully_authenticated, join_waitlist, split_name
from app.services.errors import ServiceError
from app.services.validation import required_name
from app.settings import get_settings
from models.identity import AuthSessionRead

logger = logging.getLogger(__name__)
router = APIRouter(prefix="/auth", tags=["browser sign-in"], include_in_schema=False)

FORM_LIMIT = 16_384
MFA_COOKIE_PATH = "/auth"
# Codes of user-JWT checks: the half-finished sign-in is gone or no longer valid.
_SESSION_GONE = {"bad_jwt", "no_authorization", "session_not_found", "user_not_found", "user_banned"}
_REFUSED_PAGE = (
    "<!doctype html><meta charset=utf-8><title>Form expired</title>"
    "<p>This form has expired or did not come from this site. Go back, reload the page and try again.</p>"
)


# ---- request checks ------------------------------------------------------------------------------
def _same_site(request: Request) -> bool:
    """Refuse requests another site made the browser send (CSRF): by Sec-Fetch-Site and Origin."""
    fetch_site = request.headers.get("sec-fetch-site")
    if fetch_site and fetch_site not in {"same-origin", "none"}:
        return False
    return origin_allowed(request.headers.get("origin"), request.headers.get("host", ""))


async def _read_form(request: Request) -> dict[str, str]:
    content_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if content_type != "application/x-www-form-urlencoded":
        return {}
    body = await request.body()
    if len(body) > FORM_LIMIT:
        return {}
    try:
        parsed = parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True, max_num_fields=40)
    except ValueError:
        return {}
    return {key: values[0] for key, values in parsed.items()}


async def _checked_form(request: Request) -> dict[str, str] | None:
    """The posted form, or None when the CSRF token or the origin check fails."""
    form = await _read_form(request)
    if not _same_site(request) or not csrf_matches(request.cookies.get(CSRF_COOKIE), form.get(CSRF_FIELD)):
        return None
    return form


async def _checked_json(request: Request) -> dict[str, Any] | None:
    content_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if content_type != "application/json" or not _same_site(request):
        return None
    if not csrf_matches(request.cookies.get(CSRF_COOKIE), request.headers.get(CSRF_HEADER)):
        return None
    body = await request.body()
    if len(body) > FORM_LIMIT:
        return None
    try:
        data = json.loads(body or b"{}")
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _refused() -> Response:
    return HTMLResponse(_REFUSED_PAGE, status_code=403, headers={"Cache-Control": "no-store"})


# ---- answers and cookies -------------------------------------------------------------------------
def _see_other(location: str) -> RedirectResponse:
    return RedirectResponse(location, status_code=303, headers={"Cache-Control": "no-store"})


def _cookie(
    response: Response, request: Request, name: str, value: str, *, max_age: int, httponly: bool = True
) -> None:
    path = MFA_COOKIE_PATH if name == MFA_COOKIE else "/"
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path=path,
        httponly=httponly,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def _delete_cookie(response: Response, request: Request, name: str) -> None:
    path = MFA_COOKIE_PATH if name == MFA_COOKIE else "/"
    response.delete_cookie(name, path=path, samesite="lax", secure=request.url.scheme == "https")


def set_session_cookies(response: Response, request: Request, result: AuthSessionRead) -> None:
    _cookie(response, request, ACCESS_COOKIE, result.access_token, max_age=result.expires_in)
    _cookie(response, request, REFRESH_COOKIE, result.refresh_token, max_age=SESSION_COOKIE_MAX_AGE)
    _cookie(
        response,
        request,
        EXPIRES_COOKIE,
        str(result.expires_at),
        max_age=SESSION_COOKIE_MAX_AGE,
        httponly=False,
    )
    if MFA_COOKIE in request.cookies:
        _delete_cookie(response, request, MFA_COOKIE)


def clear_session_cookies(response: Response, request: Request) -> None:
    for name in (ACCESS_COOKIE, REFRESH_COOKIE, EXPIRES_COOKIE, MFA_COOKIE):
        _delete_cookie(response, request, name)


def _flash(response: Response, request: Request, flash: Flash) -> Response:
    _cookie(response, request, FLASH_COOKIE, encode_flash(flash), max_age=FLASH_MAX_AGE, httponly=False)
    return response


def _back(request: Request, location: str, flash: Flash) -> Response:
    return _flash(_see_other(location), request, flash)


def _failure(kind: str, exc: AuthApiError, values: dict[str, str]) -> Flash:
    """A flash for an identity-service error: its code, and what the screen needs to explain it."""
    if exc.status == 429:
        try:
            wait = int(exc.headers.get("Retry-After", "60"))
        except ValueError:
            wait = 60
        return Flash(kind, "rate_limited", values, {"retry_after": wait})
    detail: dict[str, Any] = {}
    if exc.code == "weak_password":
        detail = {
            "reasons": list(exc.extra.get("weak_password", {}).get("reasons", [])),
            "message": exc.message,
        }
    elif exc.code == "validation_failed":
        detail = {"message": exc.message}
    return Flash(kind, exc.code, values, detail)


def _unexpected(request: Request, exc: Exception) -> None:
    """Log a failure without its message when it comes from the database (it carries the statement's
    parameters: hashes, tokens, addresses)."""
    detail = type(exc).__name__ if isinstance(exc, SQLAlchemyError) else f"{type(exc).__name__}: {exc}"
    frames = "".join(traceback.format_tb(exc.__traceback__))
    logger.error("Browser sign-in failure on %s: %s\n%s", request.url.path, detail, frames)


def _signed_in(request: Request, result: AuthSessionRead, redirect: str | None) -> Response:
    """Cookies for the new session, then /auth-redirect (which sends the user on, SPEC §2)."""
    response = _see_other(with_redirect("/auth-redirect", redirect))
    set_session_cookies(response, request, result)
    return response


async def _cookie_actor(
    session: AsyncSession, request: Request
) -> tuple[Actor | None, AuthSessionRead | None]:
    """The signed-in actor of the request's cookies. An expired access token is renewed with the refresh
    cookie; the new session is returned too, so the answer can store it."""
    access = request.cookies.get(ACCESS_COOKIE)
    renewed: AuthSessionRead | None = None
    if access:
        try:
            actor = await authenticate(session=session, authorization=f"Bearer {access}")
            return (actor if fully_authenticated(actor.user, actor.aal) else None), None
        except AuthApiError:
            pass
    refresh_token = request.cookies.get(REFRESH_COOKIE)
    if not refresh_token:
        return None, None
    try:
        renewed = await refresh(session=session, origin=_origin(request), refresh_token=refresh_token)
        actor = await authenticate(session=session, authorization=f"Bearer {renewed.access_token}")
    except AuthApiError:
        return None, None
    return (actor if fully_authenticated(actor.user, actor.aal) else None), renewed


# ---- sign in, second factor, sign up -------------------------------------------------------------
@router.post("/login")
async def login(request: Request) -> Response:
    form = await _checked_form(request)
    if form is None:
        return _refused()
    email, password, redirect = form.get("email", "").strip(), form.get("password", ""), form.get("redirect")
    back = with_redirect("/login", redirect)
    keep = {"email": email[:320]}
    if not email or not password:
        return _back(request, back, Flash("login", "missing_fields", keep))
    try:
        await _limit("token", request, limit=get_settings().rate_limit_token)
        async with transaction() as session:
            result = await sign_in_with_password(
                session=session, origin=_origin(request), email=email, password=password
            )
    except AuthApiError as exc:
        return _back(request, back, _failure("login", exc, keep))
    except Exception as exc:  # noqa: BLE001 - any other failure is one answer
        _unexpected(request, exc)
        return _back(request, back, Flash("login", "unexpected", keep))
    if not fully_authenticated(result.user, result.aal):
        # The password was right; the TOTP code comes next. Until then the session is no sign-in.
        response = _see_other(with_redirect("/login", redirect, step="mfa"))
        _cookie(response, request, MFA_COOKIE, result.access_token, max_age=MFA_COOKIE_MAX_AGE)
        return response
    return _signed_in(request, result, redirect)


@router.post("/mfa")
async def second_factor(request: Request) -> Response:
    form = await _checked_form(request)
    if form is None:
        return _refused()
    redirect = form.get("redirect")
    step = with_redirect("/login", redirect, step="mfa")
    token = request.cookies.get(MFA_COOKIE)
    if not token:
        return _back(request, with_redirect("/login", redirect), Flash("login", "mfa_expired"))
    code = "".join(form.get("code", "").split())
    if not code:
        return _back(request, step, Flash("mfa", "missing_code"))
    origin = _origin(request)
    try:
        async with transaction() as session:
            actor = await authenticate(session=session, authorization=f"Bearer {token}")
            factor = next((f for f in actor.user.factors if f.status == "verified"), None)
            if factor is None:
                return _back(request, with_redirect("/login", redirect), Flash("login", "mfa_expired"))
            await _limit("mfa", request, limit=get_settings().rate_limit_mfa, window=60, subject=factor.id)
            challenge = await mfa.challenge(session=session, actor=actor, origin=origin, factor_id=factor.id)
            result = await mfa.verify(
                session=session,
                actor=actor,
                origin=origin,
                factor_id=factor.id,
                challenge_id=challenge.id,
                code=code,
            )
    except AuthApiError as exc:
        if exc.code in _SESSION_GONE:
            response = _back(request, with_redirect("/login", redirect), Flash("login", "mfa_expired"))
            _delete_cookie(response, request, MFA_COOKIE)
            return response
        return _back(request, step, _failure("mfa", exc, {}))
    except Exception as exc:  # noqa: BLE001
        _unexpected(request, exc)
        return _back(request, step, Flash("mfa", "unexpected"))
    return _signed_in(request, result, redirect)


@router.post("/register")
async def register(request: Request) -> Response:
    form = await _checked_form(request)
    if form is None:
        return _refused()
    name = clean_person_name(form.get("name", ""))[:200]
    email, password, redirect = form.get("email", "").strip(), form.get("password", ""), form.get("redirect")
    back = with_redirect("/register", redirect)
    keep = {"email": email[:320], "name": name}
    settings = get_settings()
    try:
        required_name(name)  # a blank name is refused with a message (issue 11, flow 7)
        if flags.signups_mode() == "waitlist":
            if not email:
                return _back(request, back, Flash("register", "missing_fields", keep))
            await _limit("signup", request, email, limit=settings.rate_limit_otp)
            async with transaction() as session:
                await join_waitlist(session=session, email=email, name=name)
            return _back(request, back, Flash("register", "waitlisted", keep))
        if not email or not password:
            return _back(request, back, Flash("register", "missing_fields", keep))
        await _limit("signup", request, email, limit=settings.rate_limit_otp)
        async with transaction() as session:
            result = await users.sign_up(
                session=session,
                origin=_origin(request),
                email=email,
                phone=None,
                password=password,
                data=split_name(name),
                redirect_to=_site_url(request, with_redirect("/auth-redirect", redirect)),
            )
    except AuthApiError as exc:
        return _back(request, back, _failure("register", exc, keep))
    except ServiceError as exc:
        return _back(request, back, Flash("register", exc.code, keep, {"message": exc.message}))
    except Exception as exc:  # noqa: BLE001
        _unexpected(request, exc)
        return _back(request, back, Flash("register", "unexpected", keep))
    if isinstance(result, AuthSessionRead):
        return _signed_in(request, result, redirect)
    # E-mail confirmation is on: the link in the e-mail signs the user in.
    return _back(request, back, Flash("register", "confirm_email", keep))


def _site_url(request: Request, path: str) -> str:
    """An absolute address of a screen, for e-mail links (checked against SITE_URL by the identity
    service): SITE_URL in production, the request's own origin in development."""
    settings = get_settings()
    base = settings.site_url if settings.is_production else str(request.base_url)
    return base.rstrip("/") + path


@router.post("/resend-confirmation")
async def resend_confirmation(request: Request) -> Response:
    form = await _checked_form(request)
    if form is None:
        return _refused()
    email, redirect = form.get("email", "").strip(), form.get("redirect")
    back = with_redirect("/login", redirect)
    keep = {"email": email[:320]}
    try:
        await _limit("resend", request, email, limit=get_settings().rate_limit_otp)
        async with transaction() as session:
            await otp.resend(
                session=session,
                origin=_origin(request),
                type="signup",
                email=email,
                phone=None,
                redirect_to=_site_url(request, with_redirect("/auth-redirect", redirect)),
            )
    except AuthApiError as exc:
        return _back(request, back, _failure("login", exc, keep))
    except Exception as exc:  # noqa: BLE001
        _unexpected(request, exc)
        return _back(request, back, Flash("login", "unexpected", keep))
    return _back(request, back, Flash("login", "confirmation_sent", keep))


# ---- passwords -----------------------------------------------------------------------------------
@router.post("/forgot-password")
async def forgot_password(request: Request) -> Response:
    form = await _checked_form(request)
    if form is None:
        return _refused()
    email = form.get("email", "").strip()
    keep = {"email": email[:320]}
    if not email:
        return _back(request, "/forgot-password", Flash("forgot", "missing_fields", keep))
    try:
        await _limit("recover", request, email, limit=get_settings().rate_limit_otp)
        async with transaction() as session:
            await otp.recover(
                session=session,
                origin=_origin(request),
                email=email,
                redirect_to=_site_url(request, "/reset-password"),
            )
    except AuthApiError as exc:
        return _back(request, "/forgot-password", _failure("forgot", exc, keep))
    except Exception as exc:  # noqa: BLE001
        _unexpected(request, exc)
        return _back(request, "/forgot-password", Flash("forgot", "unexpected", keep))
    # The same answer whether or not the address has an account.
    return _back(request, "/forgot-password", Flash("forgot", "recovery_sent", keep))


@router.post("/reset-password")
async def reset_password(request: Request) -> Response:
    """A new password for the signed-in user: the recovery (or invitation) link signed them in."""
    form = await _checked_form(request)
    if form is None:
        return _refused()
    password, confirm = form.get("password", ""), form.get("confirm_password", "")
    if not password:
        return _back(request, "/reset-password", Flash("reset", "missing_fields"))
    if password != confirm:
        return _back(request, "/reset-password", Flash("reset", "password_mismatch"))
    renewed: AuthSessionRead | None = None
    try:
        async with transaction() as session:
            actor, renewed = await _cookie_actor(session, request)
            if actor is None:
                return _back(request, "/reset-password", Flash("reset", "link_expired"))
            await users.update_user(session=session, actor=actor, origin=_origin(request), password=password)
    except AuthApiError as exc:
        return _back(request, "/reset-password", _failure("reset", exc, {}))
    except Exception as exc:  # noqa: BLE001
        _unexpected(request, exc)
        return _back(request, "/reset-password", Flash("reset", "unexpected"))
    response = _back(
        request, "/auth-redirect", Flash("toast", "password_updated", detail={"variant": "success"})
    )
    if renewed is not None:
        set_session_cookies(response, request, renewed)
    return response


# ---- two-factor settings (they rotate the refresh token, so they are form posts) -----------------
async def _verify_code(
    session: AsyncSession, request: Request, actor: Actor, factor_id: str, code: str
) -> AuthSessionRead:
    origin = _origin(request)
    await _limit("mfa", request, limit=get_settings().rate_limit_mfa, window=60, subject=factor_id)
    challenge = await mfa.challenge(session=session, actor=actor, origin=origin, factor_id=factor_id)
    return await mfa.verify(
        session=session, actor=actor, origin=origin, factor_id=factor_id, challenge_id=challenge.id, code=code
    )


def _settings_toast(request: Request, code: str, variant: str = "error", **detail: Any) -> Response:
    flash = Flash("toast", code, detail={"variant": variant, **detail})
    return _back(request, "/dashboard/settings", flash)


def _toast_failure(request: Request, exc: AuthApiError) -> Response:
    failure = _failure("toast", exc, {})
    return _settings_toast(request, failure.code, **failure.detail)


@router.post("/mfa/enable")
async def enable_totp(request: Request) -> Response:
    form = await _checked_form(request)
    if form is None:
        return _refused()
    factor_id, code = form.get("factor_id", ""), "".join(form.get("code", "").split())
    if not factor_id or not code:
        return _settings_toast(request, "missing_code")
    try:
        async with transaction() as session:
            actor, _renewed = await _cookie_actor(session, request)
            if actor is None:
                return _see_other(with_redirect("/login", "/dashboard/settings"))
            result = await _verify_code(session, request, actor, factor_id, code)
    except AuthApiError as exc:
        return _toast_failure(request, exc)
    except Exception as exc:  # noqa: BLE001
        _unexpected(request, exc)
        return _settings_toast(request, "unexpected")
    response = _settings_toast(request, "mfa_enabled", "success")
    set_session_cookies(response, request, result)
    return response


@router.post("/mfa/disable")
async def disable_totp(request: Request) -> Response:
    """Turning the factor off needs a fresh code (aal2), like GoTrue's unenroll."""
    form = await _checked_form(request)
    if form is None:
        return _refused()
    code = "".join(form.get("code", "").split())
    if not code:
        return _settings_toast(request, "missing_code")
    origin = _origin(request)
    try:
        async with transaction() as session:
            actor, _renewed = await _cookie_actor(session, request)
            if actor is None:
                return _see_other(with_redirect("/login", "/dashboard/settings"))
            factor = next((f for f in actor.user.factors if f.status == "verified"), None)
            if factor is None:
                return _settings_toast(request, "mfa_not_enabled")
            verified = await _verify_code(session, request, actor, factor.id, code)
            strong = await authenticate(session=session, authorization=f"Bearer {verified.access_token}")
            await mfa.unenroll(session=session, actor=strong, factor_id=factor.id, origin=origin)
            # A fresh token pair whose claims match the session's level again (aal1).
            result = await refresh(session=session, origin=origin, refresh_token=verified.refresh_token)
    except AuthApiError as exc:
        return _toast_failure(request, exc)
    except Exception as exc:  # noqa: BLE001
        _unexpected(request, exc)
        return _settings_toast(request, "unexpected")
    response = _settings_toast(request, "mfa_disabled", "success")
    set_session_cookies(response, request, result)
    return response


# ---- sign out ------------------------------------------------------------------------------------
@router.post("/logout")
async def logout(request: Request) -> Response:
    """Revoke this browser's session (scope local), clear the cookies, toast 'Logged out successfully'."""
    form = await _checked_form(request)
    if form is None:
        return _refused()
    try:
        async with transaction() as session:
            actor, _renewed = await _cookie_actor(session, request)
            if actor is None and request.cookies.get(ACCESS_COOKIE):
                # Half signed in (a pending second factor) still has a session to end.
                try:
                    actor = await authenticate(
                        session=session, authorization=f"Bearer {request.cookies[ACCESS_COOKIE]}"
                    )
                except AuthApiError:
                    actor = None
            if actor is not None:
                await sign_out(session=session, actor=actor, scope="local", origin=_origin(request))
    except Exception as exc:  # noqa: BLE001
        _unexpected(request, exc)
        return _back(request, "/", Flash("toast", "logout_failed", detail={"variant": "error"}))
    response = _back(request, "/", Flash("toast", "logged_out", detail={"variant": "success"}))
    clear_session_cookies(response, request)
    _cookie(response, request, EVENT_COOKIE, "signed-out", max_age=60, httponly=False)
    return response


# ---- JSON for static/js/auth.js --------------------------------------------------------------------
def _json(data: dict[str, Any], status_code: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status_code, headers={"Cache-Control": "no-store"})


@router.post("/refresh")
async def refresh_session(request: Request) -> Response:
    """The refresh tick: a new token pair in the cookies. 401 (cookies cleared) when the session is gone,
    429 when rate limited, 503 when the server could not answer (the tab retries those two)."""
    if await _checked_json(request) is None:
        return _json({"error": "forbidden"}, 403)
    refresh_token = request.cookies.get(REFRESH_COOKIE)
    if not refresh_token:
        response = _json({"error": "no_session"}, 401)
        clear_session_cookies(response, request)
        return response
    try:
        await _limit("token", request, limit=get_settings().rate_limit_token)
        async with transaction() as session:
            result = await refresh(session=session, origin=_origin(request), refresh_token=refresh_token)
    except AuthApiError as exc:
        if exc.status == 429:
            return _json({"error": exc.code}, 429)
        if exc.status >= 500:
            return _json({"error": exc.code}, 503)
        response = _json({"error": exc.code}, 401)
        clear_session_cookies(response, request)
        return response
    except Exception as exc:  # noqa: BLE001
        _unexpected(request, exc)
        return _json({"error": "unavailable"}, 503)
    response = _json({"expires_at": result.expires_at})
    set_session_cookies(response, request, result)
    return response


@router.post("/activity")
async def report_activity(request: Request) -> Response:
    """Automatic logoff (static/js/auth.js): the tab reports that its person did something (at most once a
    minute), or `{"sign_out": true}` when they did nothing for their whole inactivity limit. Answers the limit
    and the session's absolute end, so the tab can warn a minute before; 401 (cookies cleared, a 'signed out
    for inactivity' note for the sign-in page) once the session is over."""
    body = await _checked_json(request)
    if body is None:
        return _json({"error": "forbidden"}, 403)
    try:
        async with transaction() as session:
            actor, renewed = await _cookie_actor(session, request)
            if actor is not None and body.get("sign_out") is True:
                await sign_out(session=session, actor=actor, scope="local", origin=_origin(request))
                actor = None
            if actor is None:
                response = _flash(
                    _json({"error": "session_expired"}, 401), request, Flash("toast", "timed_out")
                )
                clear_session_cookies(response, request)
                _cookie(response, request, EVENT_COOKIE, "signed-out", max_age=60, httponly=False)
                return response
            idle_timeout, ends = await record_activity(session, actor)
    except Exception as exc:  # noqa: BLE001
        _unexpected(request, exc)
        return _json({"error": "unavailable"}, 503)
    response = _json({"idle_timeout": idle_timeout, "ends_at": int(ends.timestamp()) if ends else None})
    if renewed is not None:
        set_session_cookies(response, request, renewed)
    return response


LINK_SESSION_MAX_AGE = 120  # SPEC §9: a session read from the URL is stale after 120 s


def _fresh_link_session(claims: dict[str, Any]) -> bool:
    """Only a session an e-mail link (or code) just started may come in through the URL: it limits what a
    link carrying someone else's session (to sign the victim into the sender's account) can do."""
    methods = {entry.get("method") for entry in claims.get("amr") or [] if isinstance(entry, dict)}
    issued = claims.get("iat")
    return (
        "otp" in methods and isinstance(issued, int | float) and time.time() - issued <= LINK_SESSION_MAX_AGE
    )


@router.post("/session")
async def link_session(request: Request) -> Response:
    """An e-mail link's session (GoTrue puts it in the URL fragment, which never reaches a server): auth.js
    posts it here and it becomes this browser's cookies. `{"mfa": true}` when a TOTP code is still owed."""
    data = await _checked_json(request)
    if data is None:
        return _json({"error": "forbidden"}, 403)
    access, refresh_token = data.get("access_token"), data.get("refresh_token")
    if not isinstance(access, str) or not isinstance(refresh_token, str) or not access or not refresh_token:
        return _json({"error": "invalid_request"}, 400)
    try:
        async with transaction() as session:
            actor = await authenticate(session=session, authorization=f"Bearer {access}")
            if not _fresh_link_session(actor.claims):
                return _json({"error": "stale_link"}, 400)
            # Renewing checks that the refresh token belongs to the same session, and rotates it.
            result = await refresh(session=session, origin=_origin(request), refresh_token=refresh_token)
            if result.session_id != actor.session_id:
                return _json({"error": "invalid_request"}, 400)
    except AuthApiError as exc:
        return _json({"error": exc.code}, 400 if exc.status < 500 else 503)
    except Exception as exc:  # noqa: BLE001
        _unexpected(request, exc)
        return _json({"error": "unavailable"}, 503)
    if not fully_authenticated(result.user, result.aal):
        response = _json({"mfa": True})
        _cookie(response, request, MFA_COOKIE, result.access_token, max_age=MFA_COOKIE_MAX_AGE)
        return response
    response = _json({"mfa": False})
    set_session_cookies(response, request, result)
    return response


# ---- the page route's part -------------------------------------------------------------------------
async def _page_load_is_activity(request: Request) -> None:
    """Opening a page is activity (automatic logoff counts from the last one); an ended session is left
    for the renewal below to clear."""
    access = request.cookies.get(ACCESS_COOKIE)
    if not access:
        return
    try:
        async with transaction() as session:
            actor = await authenticate(session=session, authorization=f"Bearer {access}")
            if actor.session_id:
                await record_activity(session, actor)
    except AuthApiError:
        return
    except Exception as exc:  # noqa: BLE001
        _unexpected(request, exc)


async def renew_for_page(request: Request, response: Response) -> None:
    """Before a page is served: if the access token is missing or about to expire but a refresh token is
    there, renew the session, so the page (whose websocket reads the cookies once) loads signed in."""
    refresh_token = request.cookies.get(REFRESH_COOKIE)
    if not refresh_token:
        return
    await _page_load_is_activity(request)
    margin = 3 * get_settings().auth_refresh_tick_ms / 1000  # SPEC §9: under three ticks left
    expires = unverified_expiry(request.cookies.get(ACCESS_COOKIE))
    if expires is not None and expires - time.time() > margin:
        return
    try:
        async with transaction() as session:
            result = await refresh(session=session, origin=_origin(request), refresh_token=refresh_token)
    except AuthApiError as exc:
        if exc.status < 500 and exc.status != 429:
            clear_session_cookies(response, request)
        return
    except Exception as exc:  # noqa: BLE001
        _unexpected(request, exc)
        return
    set_session_cookies(response, request, result)
    response.headers["Cache-Control"] = "no-store"


# ---- external OpenID Connect ---------------------------------------------------------------------
OIDC_STATE_COOKIE = "mv_oidc"
OIDC_PATH = "/auth/oidc"


@router.get("/oidc")
async def oidc_start(request: Request, redirect: str | None = None) -> Response:
    """'Continue with <OIDC_NAME>': off to the provider with PKCE, a nonce and state in a signed cookie."""
    config = oidc.oidc_config()
    if config is None:
        return _back(request, "/login", Flash("login", "oidc_unavailable", {}))
    try:
        start = await oidc.begin_sign_in(
            config=config,
            redirect_uri=_site_url(request, f"{OIDC_PATH}/callback"),
            next_path=safe_redirect_path(redirect) or "",
        )
    except (oidc.OidcError, httpx.HTTPError) as exc:
        logger.warning(
            "OpenID Connect sign-in could not start: %s", getattr(exc, "reason", type(exc).__name__)
        )
        return _back(request, with_redirect("/login", redirect), Flash("login", "oidc_failed", {}))
    response = RedirectResponse(
        start.authorization_url, status_code=302, headers={"Cache-Control": "no-store"}
    )
    response.set_cookie(
        OIDC_STATE_COOKIE,
        start.state_blob,
        max_age=oidc.STATE_TTL_SECONDS,
        path=OIDC_PATH,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


@router.get("/oidc/callback")
async def oidc_callback(request: Request, code: str | None = None, state: str | None = None) -> Response:
    config = oidc.oidc_config()
    failure = _back(request, "/login", Flash("login", "oidc_failed", {}))
    failure.delete_cookie(OIDC_STATE_COOKIE, path=OIDC_PATH)
    if config is None:
        return failure
    try:
        async with transaction() as session:
            result, next_path = await oidc.finish_sign_in(
                session=session,
                origin=_origin(request),
                config=config,
                state_blob=request.cookies.get(OIDC_STATE_COOKIE),
                state=state,
                code=code,
                redirect_uri=_site_url(request, f"{OIDC_PATH}/callback"),
            )
    except (oidc.OidcError, httpx.HTTPError) as exc:
        logger.warning("OpenID Connect sign-in failed: %s", getattr(exc, "reason", type(exc).__name__))
        return failure
    except AuthApiError as exc:
        return _back(request, "/login", _failure("login", exc, {}))
    response = _signed_in(request, result, next_path or None)
    response.delete_cookie(OIDC_STATE_COOKIE, path=OIDC_PATH)
    return response
