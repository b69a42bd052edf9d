"""The paths SPEC §2 names, shared by the route-table unit tests and the browser sweep."""

# "Public and other paths seen"
PUBLIC_PATHS = (
    "/",
    "/about",
    "/services",
    "/providers",
    "/contact",
    "/find-provider",
    "/how-it-works",
    "/corporate",
    "/forum",
    "/healthcare-assistant",
    "/provider-of-month",
    "/help-center",
    "/login",
    "/sign-in",
    "/sign-up",
    "/register",
    "/forgot-password",
    "/become-provider",
    "/provider-enrollment",
    "/appointments",
    "/service-requests",
    "/careers",
    "/provider-faq",
    "/ad-purchase",
    "/privacy-policy",
    "/terms-of-service",
    "/services/iv-therapy",
)

# Aliases and the signed-in areas of the route table (SPEC §2 top-level table, dashboard, staff, admin).
OTHER_PATHS = (
    "/ai-assistant",
    "/signup",
    "/auth-redirect",
    "/dashboard",
    "/dashboard/appointments",
    "/dashboard/settings",
    "/staff",
    "/staff/helpdesk",
    "/staff/help-desk",
    "/staff/analytics",
    "/admin",
)
