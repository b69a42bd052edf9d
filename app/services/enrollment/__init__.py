"""Provider enrollment (issue 13): a person's application to become a provider, its rules (NPI, licences,
ZIP codes and their states, each wizard step), the licences and credential documents it carries, its
timeline, and what the applicant reads about it; and the staff side: the verification queue, reviews and
decisions (approval publishes the provider), document approvals with the credential files, the staff's
onboarding pipeline and nudges (`_pipeline`), keeping providers in good standing (`_standing`), and Provider
Management: suspending and reinstating providers, their managed list and audit (`_management`).

Its public surface: the names below (`__all__`). Staff-side commands build on the private helpers of
`_common` (reading an application, recording a timeline event, changing status with a notification, the
account's `provider_applicant` flag).
"""

from app.services.enrollment._applications import (
    DOCUMENT_TYPES,
    MAX_DOCUMENTS,
    add_document,
    completeness_errors,
    get_my_application,
    remove_document,
    remove_photo,
    save_credentials,
    save_identity,
    save_offering,
    set_photo,
    start_application,
    submit_application,
    withdraw_application,
)
from app.services.enrollment._common import ENROLLMENT_PATH, list_decision_reasons
from app.services.enrollment._documents import (
    CredentialFile,
    approve_document,
    list_credential_documents,
    list_document_reasons,
    open_applicant_photo,
    open_credential_file,
    reject_document,
)
from app.services.enrollment._management import (
    PROVIDERS_TOPIC,
    get_managed_provider,
    list_managed_providers,
    list_provider_audit,
    reinstate_provider,
    suspend_provider,
)
from app.services.enrollment._pipeline import (
    NUDGE_EVERY,
    NUDGE_IDLE,
    get_applicant_timeline,
    get_onboarding_pipeline,
)
from app.services.enrollment._publish import photo_path
from app.services.enrollment._records import REVIEW_TOPIC
from app.services.enrollment._review import (
    approve_application,
    get_application_review,
    list_reviewer_reasons,
    list_verification_queue,
    open_application,
    reject_application,
    request_information,
    set_check,
)
from app.services.enrollment._rules import (
    NPI_TYPES,
    REQUIRED_DOCUMENTS,
    FieldErrors,
    StepInvalid,
    clean_credentials,
    clean_document_dates,
    clean_identity,
    clean_npi,
    clean_offering,
    has_npi,
    is_valid_npi,
    missing_documents,
    npi_check_digit,
    npi_problem,
    parse_date,
)
from app.services.enrollment._status import StatusSummary, status_summary
from app.services.shared.addresses import STATE_CODES, US_STATES, is_real_zip, licensed_for_zip, zip_state

__all__ = [
    "PROVIDERS_TOPIC",
    "get_managed_provider",
    "list_managed_providers",
    "list_provider_audit",
    "reinstate_provider",
    "suspend_provider",
    "CredentialFile",
    "DOCUMENT_TYPES",
    "ENROLLMENT_PATH",
    "FieldErrors",
    "MAX_DOCUMENTS",
    "NPI_TYPES",
    "NUDGE_EVERY",
    "NUDGE_IDLE",
    "REQUIRED_DOCUMENTS",
    "REVIEW_TOPIC",
    "STATE_CODES",
    "StatusSummary",
    "StepInvalid",
    "US_STATES",
    "add_document",
    "approve_application",
    "approve_document",
    "clean_credentials",
    "clean_document_dates",
    "clean_identity",
    "clean_npi",
    "clean_offering",
    "completeness_errors",
    "get_applicant_timeline",
    "get_application_review",
    "get_my_application",
    "get_onboarding_pipeline",
    "has_npi",
    "is_real_zip",
    "is_valid_npi",
    "licensed_for_zip",
    "list_credential_documents",
    "list_decision_reasons",
    "list_document_reasons",
    "list_reviewer_reasons",
    "list_verification_queue",
    "missing_documents",
    "npi_check_digit",
    "npi_problem",
    "open_applicant_photo",
    "open_application",
    "open_credential_file",
    "parse_date",
    "photo_path",
    "reject_application",
    "reject_document",
    "remove_document",
    "remove_photo",
    "request_information",
    "save_credentials",
    "save_identity",
    "save_offering",
    "set_check",
    "set_photo",
    "start_application",
    "status_summary",
    "submit_application",
    "withdraw_application",
    "zip_state",
]
