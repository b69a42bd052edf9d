"""The Python ↔ browser contract: every attribute that asks static/js/ for behaviour, under a name.

Screens never spell a `data-*` attribute that carries behaviour themselves; they call one of these helpers
and merge the result into an element's attributes: `html.a({"href": "/", **nav_delay(300)}, "Home")`.
The same list, from the browser's side, heads static/js/app.js. Attributes that only label things for
CSS or tests (e.g. `data-label` on table cells) are not behaviour and stay where they are.

Who reads what:
- app.js: client navigation (`native_link`, `nav_delay`, `navigate_after`, `client_get_form`), hover
  menus (`menu`), overlays and drawers (`overlay`, `close_overlay`), `history_back`,
  `theme_toggle`, `banner_close`, `countdown`, `page_title`, `modal` / `modal_close` (Escape), the
  toaster (`toaster`, `client_toasts`);
- kit.js: tab keys (`tabs`), dialog focus and scroll lock (`modal`, `initial_focus`), `focus_on_mount`,
  `error_summary`;
- auth.js: form posts with a busy label (`auth_form`, `busy_label`);
- presence.js: typing presence (`typing_scope`, `typing_field`, `typing_sink`);
- uploads.js: file uploads (`upload_scope`, `upload_input`, `upload_sink`, `upload_status`);
- staff.js: the staff sidebar toggle (`staff_sidebar_toggle`);
- dashboard.js: the dashboard sidebar toggle, its rail's tooltips and the header's "Go to" search
  (`dashboard_sidebar_toggle`, `rail_tooltip`, `dashboard_search`, `dashboard_search_status`).
"""

from __future__ import annotations

from typing import Any

from reactpy import html
from reactpy.types import VdomDict

Attributes = dict[str, Any]


# ---- navigation (app.js) ------------------------------------------------------------------------
def native_link() -> Attributes:
    """A same-site link the browser follows with a full page load (not the client-side router)."""
    return {"data-native": ""}


def nav_delay(ms: int) -> Attributes:
    """A link that closes the open menus and overlays, then navigates after `ms` milliseconds."""
    return {"data-nav-delay": str(ms)}


def navigate_after(ms: int) -> Attributes:
    """A hidden link the browser follows by itself `ms` milliseconds after it appears (a timed redirect)."""
    return {"data-navigate-after": str(ms)}


def follow(href: str, *, full_load: bool = False) -> VdomDict:
    """A hidden link the browser follows at once: opens `href` within the page after a command (what
    reactpy-router's navigate() cannot do for a change of query string). Key it by `href`. `full_load`:
    a page load from the server instead (e.g. to sign-in once the session ended elsewhere)."""
    native = native_link() if full_load else {}
    return html.a({"hidden": True, "href": href, "key": href, **navigate_after(0), **native})


def client_get_form() -> Attributes:
    """A GET form (search filters) that navigates in the page: its fields land in the URL, empty ones left out."""
    return {"data-client-get": ""}


def history_back() -> Attributes:
    """A button that goes back one step in the browser's history."""
    return {"data-history-back": ""}


def page_title(title: str) -> Attributes:
    """A marker whose value becomes the document's title (the last one on the page wins)."""
    return {"data-page-title": title}


# ---- menus, overlays, dialogs (app.js, kit.js) ----------------------------------------------------
def menu() -> Attributes:
    """A hover menu: its first button opens it (200 ms hover delay, 150 ms close delay, click toggles)."""
    return {"data-menu": ""}


def overlay(name: str) -> Attributes:
    """A mounted small-screen overlay (the mobile menu, the side drawer; also a `modal()`): a link in it
    clicks its `modal_close()` button, then navigates."""
    return {"data-overlay": name}


def close_overlay() -> Attributes:
    """A button or backdrop that closes the overlay shown by `<html data-overlay-open>` (the staff drawer)."""
    return {"data-close-overlay": ""}


def modal() -> Attributes:
    """An open modal dialog: focus moves in, stays inside, and returns to the opener when it closes; the
    page behind it does not scroll (CSS `:has([data-modal])`)."""
    return {"data-modal": ""}


def modal_close() -> Attributes:
    """The button Escape clicks to close the topmost modal."""
    return {"data-modal-close": ""}


def initial_focus() -> Attributes:
    """The element a dialog focuses when it opens (instead of its first field)."""
    return {"data-initial-focus": ""}


def focus_on_mount() -> Attributes:
    """An element the browser focuses when it appears (give it `tab_index=-1` unless it is a control): the
    heading of a screen reached by an action, an error summary. A new `key` makes it appear again."""
    return {"data-focus-on-mount": ""}


def error_summary() -> Attributes:
    """An error summary: its `#id` links move the focus to the field with that id (and show its label)."""
    return {"data-error-summary": ""}


def tabs(*, activation: str = "manual") -> Attributes:
    """A tab list whose arrow, Home and End keys move the focus; `auto` also selects on arrow keys."""
    return {"data-tabs": activation}


# ---- frame (app.js, staff.js) ---------------------------------------------------------------------
def theme_toggle() -> Attributes:
    """A button that cycles light → dark → system (Alt+T does the same)."""
    return {"data-theme-toggle": ""}


def banner_close() -> Attributes:
    """A button that hides the promotion banner for the rest of the day."""
    return {"data-banner-close": ""}


def countdown(until: str = "end-of-day") -> Attributes:
    """Text the browser keeps counting down (HH:MM:SS) without a server render per second."""
    return {"data-countdown": until}


def toaster() -> Attributes:
    """The server's toast list (the browser hides toasts on time and answers Alt+T)."""
    return {"data-toaster": ""}


def client_toasts() -> Attributes:
    """The list where the browser shows its own toasts (e.g. 'Connection lost')."""
    return {"data-client-toasts": ""}


def staff_sidebar_toggle() -> Attributes:
    """A button that collapses or opens the staff sidebar (a drawer on small screens); kept in localStorage."""
    return {"data-staff-sidebar-toggle": ""}


def dashboard_sidebar_toggle() -> Attributes:
    """A button that collapses or opens the dashboard sidebar (a drawer on small screens); kept in the
    cookie 'sidebar:state'. Ctrl/Cmd+B does the same."""
    return {"data-dash-sidebar-toggle": ""}


def rail_tooltip(label: str) -> Attributes:
    """A dashboard sidebar link: its tooltip while the sidebar is an icon rail; the "Go to" search's target."""
    return {"data-tip": label}


def dashboard_search() -> Attributes:
    """The header's "Go to" form: the browser opens the sidebar link whose name matches what was typed."""
    return {"data-dash-search": ""}


def dashboard_search_status() -> Attributes:
    """Where the "Go to" form says that nothing matched."""
    return {"data-dash-search-status": ""}


# ---- forms that post to the server (auth.js) -------------------------------------------------------
def auth_form() -> Attributes:
    """A form posted to /auth/*: the browser shows the busy label while it is on its way."""
    return {"data-auth-form": ""}


def busy_label(label: str) -> Attributes:
    """The text a submit button shows while its auth form is posting."""
    return {"data-busy-label": label}


# ---- help-desk typing presence (presence.js) --------------------------------------------------------
def typing_scope() -> Attributes:
    """The element holding a typing field and its sink."""
    return {"data-typing-scope": ""}


def typing_field() -> Attributes:
    """A field whose keystrokes tell the other agents 'replying' (at most once every few seconds)."""
    return {"data-typing": ""}


def typing_sink() -> Attributes:
    """The hidden button the browser clicks to report typing; the screen then announces it."""
    return {"data-typing-sink": "", "hidden": True, "tab_index": -1}


# ---- uploads (uploads.js) ----------------------------------------------------------------------------
def upload_scope() -> Attributes:
    """The element holding a file input, its sink and its status line."""
    return {"data-upload-scope": ""}


def upload_input(*, max_bytes: int, max_files: int, url: str | None = None) -> Attributes:
    """A file input whose files the browser posts to /api/uploads, or `url` (cookie session + CSRF header),
    with the values of the scope's `upload_field()` controls."""
    return {
        "data-upload": "",
        "data-max-bytes": str(max_bytes),
        "data-max-files": str(max_files),
        **({"data-upload-url": url} if url else {}),
    }


def upload_field() -> Attributes:
    """A control whose name=value goes with the scope's uploads."""
    return {"data-upload-field": ""}


def upload_sink() -> Attributes:
    """The hidden input the browser fills with the staged files' JSON and fires `input` on."""
    return {"data-upload-sink": ""}


def upload_status() -> Attributes:
    """Where the browser writes the upload's progress and errors (a live region)."""
    return {"data-upload-status": ""}
