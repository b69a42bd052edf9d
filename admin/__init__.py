"""The admin console (/admin/*, owner and admin only): the overview (feature toggles, the sign-up waitlist),
users and one account, the mail outbox, unknown paths and system health. One module per screen, each drawn in
components/admin_frame.py; the screens of this package never import each other."""
