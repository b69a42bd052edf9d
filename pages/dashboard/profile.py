"""Profile (/dashboard/profile): the signed-in user's name, profile image, organization and phone number
(SPEC §5), saved through `app.services.profile.update_profile`, which re-checks the session itself.

An empty image, organization or phone number keeps the stored value (SPEC §5), so the form says so. A blank
name or an invalid phone number is refused with its message (a toast); phone numbers are saved in E.164.
"""

from __future__ import annotations

from reactpy import component, event, html
from reactpy.types import VdomDict

from app.services.accounts import update_profile
from components.context import use_session
from components.forms import use_form
from components.frame.nav import avatar
from components.hooks import use_action
from components.kit import (
    Button,
    Field,
    button_link,
    dashboard_header,
    hint,
    portal_body,
    portal_page,
    settings_actions,
)

SAVED = "Profile updated"
NOT_SAVED = "Could not update your profile. Please check the values and try again."
FIELDS = ("name", "profile_image", "organization", "phone_number")


@component
def ProfilePage() -> VdomDict:
    session = use_session()
    user = session.signed_in_user
    form = use_form(
        name=" ".join(part for part in (user.first_name, user.last_name) if part),
        profile_image=user.profile_image,
        organization=user.organization,
        phone_number=user.phone_number,
    )
    action = use_action(update_profile)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        saved = await action.run(**{name: form.values.get(name, "") for name in FIELDS})
        if saved:
            session.toaster.success(SAVED)
            session.reload_user()
        elif saved is False:
            session.toaster.error(NOT_SAVED)

    busy = action.pending
    return portal_page(
        dashboard_header("Profile", lead="How providers and our team see you."),
        portal_body(
            html.section(
                {"class_name": "settings-card", "aria-labelledby": "profile-heading"},
                html.div(
                    {"class_name": "profile-summary"},
                    avatar(user, class_name="avatar avatar-lg"),
                    html.div(
                        html.h2({"id": "profile-heading", "class_name": "settings-title"}, user.name),
                        html.p({"class_name": "settings-text"}, user.email),
                    ),
                ),
                html.form(
                    {"class_name": "form settings-form", "on_submit": submit, "aria-label": "Profile"},
                    Field(
                        "Full name",
                        "name",
                        form=form,
                        id="profile-name",
                        autocomplete="name",
                        hint="Your first name, a space, then your last name.",
                    ),
                    Field(
                        "Profile image URL",
                        "profile_image",
                        form=form,
                        id="profile-image",
                        type="url",
                        autocomplete="photo",
                        placeholder="https://…",
                        max_length=2048,
                    ),
                    Field(
                        "Organization",
                        "organization",
                        form=form,
                        id="profile-organization",
                        autocomplete="organization",
                    ),
                    Field(
                        "Phone number",
                        "phone_number",
                        form=form,
                        id="profile-phone",
                        type="tel",
                        autocomplete="tel",
                        hint="A US number, or +country code for another country. Saved as +12125550100.",
                    ),
                    hint(
                        "Leave the image or organization empty to keep what is saved. Empty the phone number to remove it."
                    ),
                    settings_actions(
                        Button("Save profile", type="submit", pending=busy, pending_label="Saving…"),
                        button_link("Account settings", "/dashboard/settings", variant="ghost"),
                    ),
                ),
            ),
            class_name="settings-grid",
        ),
    )
