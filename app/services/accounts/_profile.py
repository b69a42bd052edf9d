"""The signed-in user's own profile (SPEC §5): name, profile image, organization and phone number.

Written through the identity service (`app.auth.users.update_user`) into the user's `user_metadata` only;
nothing here can touch a role or a flag (those live in app_metadata). Like the hosted client it replaces,
a refused or failed update returns False and is only logged (SPEC §8). Two mistakes a person can fix are
said instead (ValidationFailed, shown as a toast): a blank name, and a phone number that is not valid; a
valid one is stored in E.164 (app/services/validation.py).
"""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from sqlalchemy.ext.asyncio import AsyncSession

from app.auth.common import RequestOrigin
from app.auth.errors import AuthApiError
from app.auth.users import update_user
from app.principal import Principal
from app.services.accounts._admin import split_name
from app.services.shared.signed_in import identity_of
from app.services.validation import e164_phone, required_name

logger = logging.getLogger(__name__)

MAX_NAME = 200
MAX_IMAGE_URL = 2048
MAX_FIELD = 200


def _image_ok(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in {"http", "https"} and bool(parts.netloc)


async def update_profile(
    *,
    session: AsyncSession,
    actor: Principal,
    name: str,
    profile_image: str = "",
    organization: str = "",
    phone_number: str = "",
) -> bool:
    """Update the profile of the signed-in user. False when nobody is signed in (or the session ended)
    or a value is unacceptable; ValidationFailed for a blank name or an invalid phone number.

    The name is split on the first space: the first word is the first name, the rest the last name.
    An empty profile image or organization keeps the value already stored; an empty phone number removes
    the stored one (the screen shows the saved number in the field, so an empty field is a cleared one).
    """
    identity = await identity_of(session=session, actor=actor)
    if identity is None:
        logger.info("Profile update refused: no signed-in user")
        return False
    name = required_name(name)
    kept = {
        "profile_image": (profile_image or "").strip(),
        "organization": (organization or "").strip(),
        "phone_number": e164_phone(phone_number),
    }
    if (
        len(name) > MAX_NAME
        or len(kept["profile_image"]) > MAX_IMAGE_URL
        or len(kept["organization"]) > MAX_FIELD
        or len(kept["phone_number"]) > MAX_FIELD
        or (kept["profile_image"] and not _image_ok(kept["profile_image"]))
    ):
        logger.info("Profile update refused: a value is too long or the image is not an http(s) URL")
        return False
    data: dict[str, str | None] = {"first_name": "", "last_name": "", **split_name(name)}
    data.update({key: value for key, value in kept.items() if value})
    if not kept["phone_number"]:
        data["phone_number"] = None  # null deletes a metadata key (GoTrue's PUT /user)
    try:
        await update_user(session=session, actor=identity, origin=RequestOrigin(), data=data)
    except AuthApiError as exc:
        logger.warning("Profile update failed: %s", exc.code)
        return False
    return True
