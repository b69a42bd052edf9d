"""Secrets at rest (issue 10, finding 10): what a copy of the database or the var/ folder gives away.

- The stored one-time-token hash used to BE the link token (so a leaked row was a working link) and, being
  an unkeyed sha224 of address + code, gave the 6-digit code in under a second by trying them all.
- The outbox kept live codes and links in plain text forever.
- TOTP seeds were stored as they are.
- The SQLite file and uploads were created with the process umask (world-readable).
"""

from __future__ import annotations

import hashlib
import stat
from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import pyotp
from sqlalchemy import select, update

from app import db as app_db
from app.outbox import REDACTED, send_email
from app.settings import get_settings
from models import OutboxMessage
from models.identity import MfaFactor, OneTimeToken
from tests.api.conftest import mail_code, mail_link, mail_to, unique_email

PASSWORD = "secret-enough-1"


async def test_a_stored_token_is_neither_the_link_nor_a_way_to_the_code(auth_client, smtp) -> None:
    email = unique_email("otp")
    await auth_client.post("/auth/v1/signup", json={"email": email, "password": PASSWORD})
    assert (await auth_client.post("/auth/v1/otp", json={"email": email})).status_code == 200
    [message] = smtp.wait_for(1)
    code, link = mail_code(message), mail_link(message)
    [link_token] = parse_qs(urlsplit(link).query)["token"]
    async with app_db.unit_of_work() as session:
        [stored] = await session.scalars(
            select(OneTimeToken.token_hash).where(OneTimeToken.relates_to == email)
        )
    assert stored != link_token
    # Without the server's secret, trying every code against the stored value finds nothing.
    unkeyed = {hashlib.sha224((email + c).encode()).hexdigest() for c in (code, "000000", "123456")}
    assert stored not in unkeyed and stored not in {hashlib.sha256(u.encode()).hexdigest() for u in unkeyed}
    # The code (and the link) still work.
    verified = await auth_client.post(
        "/auth/v1/verify", json={"type": "magiclink", "email": email, "token": code}
    )
    assert verified.status_code == 200 and verified.json()["access_token"]


async def test_the_outbox_forgets_codes_after_delivery_or_expiry(auth_client, smtp, monkeypatch) -> None:
    email = unique_email("outbox")
    await auth_client.post("/auth/v1/signup", json={"email": email, "password": PASSWORD})
    await auth_client.post("/auth/v1/recover", json={"email": email})
    [delivered] = mail_to(smtp, email)
    assert mail_code(delivered)  # the person got their code …
    async with app_db.unit_of_work() as session:
        rows = list(await session.scalars(select(OutboxMessage).order_by(OutboxMessage.created_at)))
    [row] = [r for r in rows if r.recipients == [email] and "password" in r.subject.lower()]
    assert row.html == REDACTED and mail_code(delivered) not in row.html  # … and the table kept none

    # Without SMTP the message waits in the outbox until the code expires, then the next send removes it.
    monkeypatch.delenv("SMTP_URL")
    get_settings.cache_clear()
    async with app_db.unit_of_work() as session:
        kept = await send_email(
            session=session, recipients=[email], subject="s", html="<p>123456</p>", secret=True
        )
    assert kept.html == "<p>123456</p>"
    async with app_db.unit_of_work() as session:
        past = datetime.now(UTC) - timedelta(seconds=1)
        await session.execute(
            update(OutboxMessage).where(OutboxMessage.id == kept.id).values(redact_after=past)
        )
    async with app_db.unit_of_work() as session:
        await send_email(session=session, recipients=["someone@example.com"], subject="s", html="<p>hi</p>")
    async with app_db.unit_of_work() as session:
        assert (await session.get(OutboxMessage, kept.id)).html == REDACTED
    get_settings.cache_clear()


async def test_totp_seeds_are_encrypted_at_rest(auth_client) -> None:
    signed_up = await auth_client.post(
        "/auth/v1/signup", json={"email": unique_email("totp"), "password": PASSWORD}
    )
    bearer = {"Authorization": f"Bearer {signed_up.json()['access_token']}"}
    enrolled = (
        await auth_client.post("/auth/v1/factors", headers=bearer, json={"factor_type": "totp"})
    ).json()
    seed = enrolled["totp"]["secret"]
    async with app_db.unit_of_work() as session:
        stored = (await session.get(MfaFactor, enrolled["id"])).secret
    assert stored.startswith("enc:v1:") and seed not in stored
    challenge = (
        await auth_client.post(f"/auth/v1/factors/{enrolled['id']}/challenge", headers=bearer)
    ).json()
    verified = await auth_client.post(
        f"/auth/v1/factors/{enrolled['id']}/verify",
        headers=bearer,
        json={"challenge_id": challenge["id"], "code": pyotp.TOTP(seed).now()},
    )
    assert verified.status_code == 200, verified.text


def test_the_sqlite_file_and_uploads_are_private(tmp_path, monkeypatch) -> None:
    import asyncio

    from app import storage
    from app.db import ensure_sqlite_directory

    database = tmp_path / "private" / "medivisit.db"
    ensure_sqlite_directory(f"sqlite:///{database}")
    assert stat.S_IMODE(database.stat().st_mode) == 0o600
    assert stat.S_IMODE(database.parent.stat().st_mode) == 0o700

    monkeypatch.setenv("UPLOAD_DIR", str(tmp_path / "uploads"))
    get_settings.cache_clear()
    key = asyncio.run(storage.save(b"a customer's file"))
    path = storage.path_of(key)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    get_settings.cache_clear()
