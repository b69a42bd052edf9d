"""Provider enrollment (issue 13): a person's application to become a provider, its rules (NPI, licences,
ZIP codes and their states, each wizard step), the licences and credential documents it carries, its
timeline, and what the applicant reads about it; and the staff side: the verification queue, reviews and
decisions (approval publishes the provider), document approvals with the credential files, the staff's
onboarding pipeline and nudges (`_pipeline`), and keeping providers in good standing (`_standing`).

Its public surface: see app/services/__init__.py. Staff-side commands build on the private helpers of
`_common` (reading an application, recording a timeline event, changing status with a notification, the
account's `provider_applicant` flag).
"""

from __future__ import annotations

from app.services._surface import public_surface

PUBLIC = {
    "_applications": (
        "DOCUMENT_TYPES",
        "MAX_DOCUMENTS",
        "add_document",
        "completeness_errors",
        "get_my_application",
        "remove_document",
        "remove_photo",
        "save_credentials",
        "save_identity",
        "save_offering",
        "set_photo",
        "start_application",
        "submit_application",
        "withdraw_application",
    ),
    "_common": ("ENROLLMENT_PATH", "list_decision_reasons"),
    "_reasons": ("ensure_decision_reasons",),
    "_documents": (
        "CredentialFile",
        "approve_document",
        "list_credential_documents",
        "list_document_reasons",
        "open_applicant_photo",
        "open_credential_file",
        "reject_document",
    ),
    "_publish": ("photo_path",),
    "_records": ("REVIEW_TOPIC",),
    "_review": (
        "approve_application",
        "get_application_review",
        "list_reviewer_reasons",
        "list_verification_queue",
        "open_application",
        "reject_application",
        "request_information",
        "set_check",
    ),
    "_pipeline": (
        "NUDGE_EVERY",
        "NUDGE_IDLE",
        "get_applicant_timeline",
        "get_onboarding_pipeline",
        "nudge_idle_drafts",
    ),
    "_standing": (
        "keep_good_standing",
        "lapse_expired_credentials",
        "restore_standing_if_current",
        "send_expiry_reminders",
        "standing_problems",
    ),
    "_rules": (
        "NPI_TYPES",
        "REQUIRED_DOCUMENTS",
        "STATE_CODES",
        "US_STATES",
        "FieldErrors",
        "StepInvalid",
        "clean_credentials",
        "clean_document_dates",
        "clean_identity",
        "clean_npi",
        "clean_offering",
        "has_npi",
        "is_real_zip",
        "is_valid_npi",
        "licensed_for_zip",
        "missing_documents",
        "npi_check_digit",
        "npi_problem",
        "parse_date",
        "zip_state",
    ),
    "_status": ("StatusSummary", "status_summary"),
}

__getattr__, __dir__, __all__ = public_surface(__name__, PUBLIC)
