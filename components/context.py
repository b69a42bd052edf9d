"""Per-connection UI context: who is signed in, and handles to the frame's toaster, cart, dialogs and
small-screen overlays.

The handles are plain objects created once per connection by the root component. The component that owns
a piece of state (the Toaster, the cart panel) binds its setter to the handle, so anything in the tree can
show a toast or open the cart without re-rendering the page root.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from reactpy import create_context, use_context
from reactpy.types import Context

from app.auth.web import Flash
from app.principal import Principal
from models.account import AccountRead
from models.cart import CartRead

ToastVariant = Literal["default", "success", "error"]
TOAST_LIMIT = 3
TOAST_DURATION_MS = 4000


@dataclass(frozen=True)
class Toast:
    id: int
    title: str
    description: str | None = None
    variant: ToastVariant = "default"
    action_label: str | None = None
    action_href: str | None = None
    duration_ms: int = TOAST_DURATION_MS
    created: float = field(default_factory=time.monotonic)


# The signed-in person as the UI sees them (mapped from the identity by app.services.accounts).
CurrentUser = AccountRead


class Toaster:
    """Shows toasts. Timers run in the browser; the list here is pruned of expired toasts on each push."""

    def __init__(self) -> None:
        self._ids = itertools.count(1)
        self._set: Callable[[Callable[[tuple[Toast, ...]], tuple[Toast, ...]]], None] | None = None

    def bind(self, setter: Callable[[Callable[[tuple[Toast, ...]], tuple[Toast, ...]]], None]) -> None:
        self._set = setter

    def show(
        self,
        title: str,
        *,
        description: str | None = None,
        variant: ToastVariant = "default",
        action_label: str | None = None,
        action_href: str | None = None,
        duration_ms: int = TOAST_DURATION_MS,
    ) -> None:
        toast = Toast(next(self._ids), title, description, variant, action_label, action_href, duration_ms)
        if self._set is not None:
            # Only the newest TOAST_LIMIT are ever shown (app.css): the older ones are dropped, not re-sent
            # to the browser with every new toast.
            self._set(lambda current: (*live_toasts(current)[-(TOAST_LIMIT - 1) :], toast))

    def success(self, title: str, description: str | None = None) -> None:
        self.show(title, description=description, variant="success")

    def error(self, title: str, description: str | None = None) -> None:
        self.show(title, description=description, variant="error")


def live_toasts(toasts: tuple[Toast, ...], now: float | None = None) -> tuple[Toast, ...]:
    """Toasts still within their display time; the browser hides them on time, this keeps the list short."""
    now = time.monotonic() if now is None else now
    return tuple(t for t in toasts if now - t.created < t.duration_ms / 1000 + 1)


class Disclosure:
    """Open, close or toggle a panel or dialog (the cart, the bug report) from anywhere in the tree."""

    def __init__(self) -> None:
        self._set_open: Callable[[Callable[[bool], bool]], None] | None = None

    def bind(self, set_open: Callable[[Callable[[bool], bool]], None]) -> None:
        self._set_open = set_open

    def _update(self, change: Callable[[bool], bool]) -> None:
        if self._set_open is not None:
            self._set_open(change)

    def open(self) -> None:
        self._update(lambda _: True)

    def close(self) -> None:
        self._update(lambda _: False)

    def toggle(self) -> None:
        self._update(lambda is_open: not is_open)


class Switch:
    """Which one of a few panels is open, if any (the small-screen menu or the side drawer), from anywhere
    in the tree: the component that shows them binds its state here, so opening one renders only it."""

    def __init__(self) -> None:
        self._set: Callable[[str | None], None] | None = None

    def bind(self, setter: Callable[[str | None], None]) -> None:
        self._set = setter

    def open(self, name: str) -> None:
        if self._set is not None:
            self._set(name)

    def close(self) -> None:
        if self._set is not None:
            self._set(None)


class FlashBox:
    """The flash note the page arrived with (app.auth.web): read once by the screen it is meant for."""

    def __init__(self, flash: Flash | None = None) -> None:
        self._flash = flash

    def take(self, *kinds: str) -> Flash | None:
        """The flash if it is of one of `kinds`; it is then used up for the rest of the connection."""
        flash = self._flash
        if flash is None or flash.kind not in kinds:
            return None
        self._flash = None
        return flash


class CartHandle:
    """The connection's cart: the last cart the server returned (or why it could not be loaded), and the
    panel's open state.

    Leaf components (the badges, the panel) subscribe, so a cart change re-renders only them; the panel
    binds its open state like any `Disclosure`. `cart` is None until the first load.
    """

    def __init__(self) -> None:
        self.panel = Disclosure()
        self._cart: CartRead | None = None
        self._error: str | None = None
        self._listeners: dict[int, Callable[[], None]] = {}
        self._ids = itertools.count(1)
        self._reload: Callable[[], None] | None = None
        self._commands = 0  # this tab's cart commands in flight
        self._heard: list[str | None] = []  # revisions announced meanwhile

    @property
    def cart(self) -> CartRead | None:
        return self._cart

    @property
    def error(self) -> str | None:
        return self._error

    def set(self, cart: CartRead) -> None:
        if cart == self._cart and self._error is None:
            return  # a reload after this tab's own change: nothing to re-render
        self._cart, self._error = cart, None
        self._notify()

    def fail(self, message: str) -> None:
        self._error = message
        self._notify()

    def reloads_with(self, reload: Callable[[], None]) -> None:
        """How to read the cart again (the loader the root mounts)."""
        self._reload = reload

    def announced(self, revision: str | None) -> None:
        """The cart changed somewhere (`revision`: the cart as it now is, when known). This tab reads it
        again unless it already shows that cart; while this tab's own command is in flight the news waits
        for the command's result, which is most often that very cart."""
        if self._commands:
            self._heard.append(revision)
        elif self._cart is None or revision is None or revision != self._cart.revision:
            self.reload()

    def command_started(self) -> None:
        self._commands += 1

    def command_ended(self, cart: CartRead | None) -> None:
        """`cart`: the command's result (None: it failed or was refused)."""
        self._commands -= 1
        if self._commands == 0:
            heard, self._heard = self._heard, []
            if any(cart is None or revision != cart.revision for revision in heard):
                self.reload()

    def reload(self) -> None:
        if self._reload is not None:
            self._reload()

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call `listener` after every change until the returned function is called."""
        key = next(self._ids)
        self._listeners[key] = listener

        def unsubscribe() -> None:
            self._listeners.pop(key, None)

        return unsubscribe

    def _notify(self) -> None:
        for listener in tuple(self._listeners.values()):
            listener()

    def open(self) -> None:
        self.panel.open()

    def close(self) -> None:
        self.panel.close()

    def toggle(self) -> None:
        self.panel.toggle()


@dataclass(frozen=True)
class UiSession:
    user: CurrentUser | None
    toaster: Toaster
    cart: CartHandle
    bug_report: Disclosure
    visitor_id: str
    initial_path: str = "/"
    user_agent: str = ""
    brand_name: str = "MediVisit"
    # Who the connection acts for: the identity session services re-check on every command (never a token),
    # or the anonymous visitor. Never SYSTEM, never an account snapshot.
    actor: Principal = field(default_factory=lambda: Principal.visitor(""))
    # Echoed by the /auth/* form posts (the mv_csrf cookie's value).
    csrf_token: str = ""
    flash: FlashBox = field(default_factory=FlashBox)
    # Load the signed-in account again (after the user changed their profile).
    reload_user: Callable[[], None] = lambda: None
    # The signed-in person signed in before this session began (only they are welcomed back).
    returning: bool = False
    # The visitor's IANA time zone (the `tz` cookie static/js/tz.js sets), for showing times.
    time_zone: str = "America/New_York"
    # The small-screen overlays ("menu", "drawer"): mounted only while one is open.
    mobile_nav: Switch = field(default_factory=Switch)

    @property
    def signed_in_user(self) -> CurrentUser:
        """`user`, on a screen whose route rule admits only signed-in people (pages/routes.py)."""
        if self.user is None:
            raise RuntimeError("a signed-in screen rendered without a signed-in user")
        return self.user


SessionContext: Context[UiSession | None] = create_context(None)


def use_session() -> UiSession:
    session = use_context(SessionContext)
    if session is None:
        raise RuntimeError("use_session() must be used below the app root")
    return session


def use_toaster() -> Toaster:
    return use_session().toaster
