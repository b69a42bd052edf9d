"""Profile (/dashboard/profile): the signed-in user's name, profile image, organization and phone number
(SPEC §5), saved through `app.services.profile.update_profile`, which re-checks the session itself.

An empty image, organization or phone number keeps the stored value (SPEC §5), so the form says so.
"""

from __future__ import annotations

from reactpy import component, event, html

from app.services.accounts import update_profile
from components.context import use_session
from components.forms import use_form
from components.frame.nav import avatar
from components.hooks import use_action
from components.ui import portal_header

SAVED = "Profile updated"
NOT_SAVED = "Could not update your profile. Please check the values and try again."
FIELDS = ("name", "profile_image", "organization", "phone_number")


@component
def ProfilePage() -> dict:
    session = use_session()
    user = session.user
    form = use_form(
        name=" ".join(part for part in (user.first_name, user.last_name) if part),
        profile_image=user.profile_image,
        organization=user.organization,
        phone_number=user.phone_number,
    )
    action = use_action(update_profile)

    @event(prevent_default=True)
    async def submit(_event: dict) -> None:
        saved = await action.run(actor=session.actor, **{name: form.values.get(name, "") for name in FIELDS})
        if saved:
            session.toaster.success(SAVED)
            session.reload_user()
        elif saved is False:
            session.toaster.error(NOT_SAVED)

    busy = action.pending
    return html.div(
        {"class_name": "portal"},
        portal_header(
            "Profile",
            eyebrow=html.a({"href": "/dashboard"}, "Dashboard"),
            lead="How providers and our team see you.",
        ),
        html.div(
            {"class_name": "container portal-body settings-grid"},
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
                    html.label({"html_for": "profile-name"}, "Full name"),
                    html.input(
                        form.field(
                            "name", id="profile-name", type="text", auto_complete="name", max_length=200
                        )
                    ),
                    html.p({"class_name": "hint"}, "Your first name, a space, then your last name."),
                    html.label({"html_for": "profile-image"}, "Profile image URL"),
                    html.input(
                        form.field(
                            "profile_image",
                            id="profile-image",
                            type="url",
                            auto_complete="photo",
                            placeholder="https://…",
                            max_length=2048,
                        )
                    ),
                    html.label({"html_for": "profile-organization"}, "Organization"),
                    html.input(
                        form.field(
                            "organization",
                            id="profile-organization",
                            type="text",
                            auto_complete="organization",
                            max_length=200,
                        )
                    ),
                    html.label({"html_for": "profile-phone"}, "Phone number"),
                    html.input(
                        form.field(
                            "phone_number",
                            id="profile-phone",
                            type="tel",
                            auto_complete="tel",
                            max_length=200,
                        )
                    ),
                    html.p(
                        {"class_name": "hint"},
                        "Leave the image, organization or phone number empty to keep what is saved.",
                    ),
                    html.div(
                        {"class_name": "settings-actions"},
                        html.button(
                            {"class_name": "btn btn-primary", "type": "submit", "disabled": busy},
                            "Saving…" if busy else "Save profile",
                        ),
                        html.a(
                            {"class_name": "btn btn-ghost", "href": "/dashboard/settings"}, "Account settings"
                        ),
                    ),
                ),
            ),
        ),
    )
