// Browser-side behaviour of the frame, so no server render is ever spent on it: client-side link
// navigation (the focus goes to <main> on another screen), hover menus with their delays and keys, the
// mobile overlays' links, the banner countdown,
// page titles, keyboard shortcuts, client toasts and the service worker.
//
// The data-* contract. Screens never spell these attributes: components/browser.py is the Python side,
// one named helper per attribute (tests/ui/test_browser_contract.py fails on a hand-spelled one).
//   attribute               what the browser does                                             read by
//   data-native             a same-site link followed with a full page load                    app.js
//   data-nav-delay="ms"     close menus and overlays, then navigate in the page after ms       app.js
//   data-navigate-after="ms" a hidden link followed by itself ms after it appears (replace)    app.js
//   data-client-get         a GET form navigates in the page; its non-empty fields in the URL  app.js
//   data-history-back       a button that goes one step back in history                        app.js
//   data-page-title="…"     the last marker on the page sets document.title                    app.js
//   data-menu               hover menu: 200 ms open, 150 ms close, 300 ms skip; click toggles;  app.js
//                           menu-button keys (Enter/Space/arrows open, arrows/Home/End move, Escape)
//   data-overlay="name"     a mounted mobile overlay: a link in it clicks its data-modal-close  app.js
//   data-close-overlay      closes <html data-overlay-open> (the staff drawer)                  app.js
//   data-modal              an open dialog: Escape clicks its data-modal-close; focus trap;    app.js, kit.js
//                           the page does not scroll behind it (CSS)
//   data-modal-close        the button Escape clicks                                           app.js
//   data-initial-focus      the element an opening dialog focuses first                         kit.js
//   data-focus-on-mount     an element focused when it appears (a heading, an error summary)    kit.js
//   data-error-summary      its #id links focus the field with that id                          kit.js
//   data-tabs="manual|auto" a tab list: arrows/Home/End move focus (auto also selects)        kit.js
//   data-theme-toggle       cycle the theme light → dark → system (Alt+T too)                  app.js
//   data-banner-close       hide the flash-sale banner for the rest of the day                 app.js
//   data-countdown="end-of-day" text counted down HH:MM:SS every second, no server render     app.js
//   data-toaster            the server's toasts (Alt+T focuses the newest)                     app.js
//   data-client-toasts      the list where the browser shows its own toasts                    app.js
//   data-auth-form          a form posted to /auth/*: its submit shows the busy label          auth.js
//   data-busy-label="…"     the text a submit button shows while its auth form posts           auth.js
//   data-typing-scope, data-typing, data-typing-sink  help-desk "replying" presence            presence.js
//   data-upload-scope, data-upload (+ data-max-bytes, data-max-files), data-upload-sink,
//     data-upload-status    file uploads posted to /api/uploads                                uploads.js
//   data-staff-sidebar-toggle  collapse or open the staff sidebar (kept in localStorage)       staff.js
import { countdownText, msUntilEndOfDay } from "./countdown.js";  // unversioned: the service worker cache is per deploy
import "./kit.js";  // the UI kit's tabs keys and dialog focus (components/kit/)

const root = document.documentElement;
const MENU_OPEN_DELAY = 200;
const MENU_SKIP_WINDOW = 300;
const MENU_CLOSE_DELAY = 150;
const SERVER_PATHS = /^\/(auth|api|functions|docs|static|_reactpy|healthz|readyz|service-worker\.js)(\/|$)/;

// ---- navigation -----------------------------------------------------------------------------
function scrollToHash(hash) {
  if (!hash) { window.scrollTo({ top: 0 }); return; }
  let tries = 0;
  const attempt = () => {
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (target) target.scrollIntoView({ behavior: "smooth", block: "start" });
    else if (tries++ < 20) setTimeout(attempt, 50);
  };
  attempt();
}

export function navigate(href, { replace = false } = {}) {
  const url = new URL(href, location.href);
  const samePage = url.pathname === location.pathname && url.search === location.search;
  if (url.pathname !== location.pathname) focusMainOnRender = true;
  history[replace ? "replaceState" : "pushState"](null, "", url);
  if (!samePage) window.dispatchEvent(new PopStateEvent("popstate"));
  scrollToHash(url.hash);
}

// Another screen: once it renders, the focus goes to <main> (as after a page load and "Skip to content"),
// not left on a link that is gone. A screen that places the focus itself (a field, a heading) keeps it.
let focusMainOnRender = false;
function focusNewScreen(mutations) {
  const main = document.getElementById("main");
  if (!focusMainOnRender || !main || !mutations.some((m) => main.contains(m.target))) return;
  focusMainOnRender = false;
  const active = document.activeElement;
  if (main.contains(active) && active !== main) return;
  if (active && active.closest("[data-modal]")) return;
  main.focus({ preventScroll: true });
}

// A tab that sets one parameter (data-param, components/kit/tabs.py) sets it on the URL the browser is at:
// its href was drawn from the URL of the server's last render, which may not hold a choice made since.
function withParam(anchor) {
  const target = new URL(anchor.href, location.href);
  if (target.pathname !== location.pathname) return target;
  const url = new URL(location.href);
  const name = anchor.dataset.param;
  for (const dropped of (anchor.dataset.drop || "").split(" ")) if (dropped) url.searchParams.delete(dropped);
  url.searchParams.delete(name);
  for (const value of target.searchParams.getAll(name)) url.searchParams.append(name, value);
  url.hash = target.hash;
  return url;
}

document.addEventListener("click", (event) => {
  const anchor = event.target.closest("a[href]");
  if (!anchor || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  if (anchor.target && anchor.target !== "_self") return;
  if (anchor.hasAttribute("download") || anchor.hasAttribute("data-native")) return;
  const url = anchor.dataset.param ? withParam(anchor) : new URL(anchor.href, location.href);
  if (url.origin !== location.origin || SERVER_PATHS.test(url.pathname)) return;
  event.preventDefault();
  const delay = Number(anchor.dataset.navDelay || 0);
  closeMenus();
  if (delay) {
    closeOverlays();
    setTimeout(() => navigate(url.href), delay);
  } else {
    closeOverlays();
    navigate(url.href);
  }
});

// GET forms marked data-client-get (search filters) navigate in the page: the filters land in the URL,
// empty fields left out, without reloading the app.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-client-get")) return;
  if (event.defaultPrevented || (form.getAttribute("method") || "get").toLowerCase() !== "get") return;
  const url = new URL(form.getAttribute("action") || location.pathname, location.href);
  if (url.origin !== location.origin) return;
  event.preventDefault();
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) {
    const text = String(value).trim();
    if (text) params.append(name, text);
  }
  url.search = params.toString();
  navigate(url.href);
});

// ---- desktop hover menus (200 ms open, 300 ms skip window, 150 ms close) --------------------------
let openMenu = null;
let lastClosedAt = 0;
const timers = new WeakMap();

function setMenu(menu, open) {
  clearTimeout(timers.get(menu));
  if (open) {
    if (openMenu && openMenu !== menu) setMenu(openMenu, false);
    openMenu = menu;
  } else if (openMenu === menu) {
    openMenu = null;
    lastClosedAt = Date.now();
  }
  menu.toggleAttribute("data-open", open);
  const trigger = menu.querySelector("button");
  if (trigger) trigger.setAttribute("aria-expanded", String(open));
}

function closeMenus() { if (openMenu) setMenu(openMenu, false); }

document.addEventListener("pointerover", (event) => {
  if (event.pointerType !== "mouse") return;
  const menu = event.target.closest("[data-menu]");
  if (!menu || menu.contains(event.relatedTarget)) return;
  clearTimeout(timers.get(menu));
  if (openMenu === menu) return;
  const skip = openMenu !== null || Date.now() - lastClosedAt < MENU_SKIP_WINDOW;
  timers.set(menu, setTimeout(() => setMenu(menu, true), skip ? 0 : MENU_OPEN_DELAY));
});

document.addEventListener("pointerout", (event) => {
  if (event.pointerType !== "mouse") return;
  const menu = event.target.closest("[data-menu]");
  if (!menu || menu.contains(event.relatedTarget)) return;
  clearTimeout(timers.get(menu));
  if (menu.hasAttribute("data-open")) timers.set(menu, setTimeout(() => setMenu(menu, false), MENU_CLOSE_DELAY));
});

document.addEventListener("click", (event) => {
  const trigger = event.target.closest("[data-menu] > button");
  if (trigger) {
    const menu = trigger.parentElement;
    setMenu(menu, !menu.hasAttribute("data-open"));
    return;
  }
  if (openMenu && !openMenu.contains(event.target)) closeMenus();
});

// ---- overlays: the mounted mobile menu and side drawer (server state), the staff drawer (attribute) --------
function closeOverlays() {
  root.removeAttribute("data-overlay-open");
  for (const overlay of document.querySelectorAll("[data-overlay]")) {
    const close = overlay.querySelector("[data-modal-close]");
    if (close) close.click();
  }
}

document.addEventListener("click", (event) => {
  if (event.target.closest("[data-close-overlay]")) closeOverlays();
  if (event.target.closest("[data-history-back]")) history.back();
  if (event.target.closest("[data-theme-toggle]")) cycleTheme();
  if (event.target.closest("[data-banner-close]")) closeBanner();
});

// A profile image that fails to load gives way to the initials underneath it.
document.addEventListener("error", (event) => {
  if (event.target instanceof HTMLImageElement && event.target.closest(".avatar")) event.target.hidden = true;
}, true);

// ---- menu keys (WAI-ARIA menu button) -------------------------------------------------------------
// On the button: Enter, Space and ArrowDown open the menu on its first item, ArrowUp on its last. In the menu:
// ArrowDown/ArrowUp move (wrapping), Home/End jump, Escape closes it and the focus goes back to the button,
// Tab closes it and moves on.
function menuItems(menu) {
  return Array.from(menu.querySelectorAll("[role=menuitem]")).filter((item) => !item.disabled);
}

document.addEventListener("keydown", (event) => {
  const menu = event.target instanceof Element && event.target.closest("[data-menu]");
  if (!menu || event.altKey || event.ctrlKey || event.metaKey) return;
  const trigger = menu.querySelector(":scope > button");
  const items = menuItems(menu);
  if (!items.length) return;
  if (event.target === trigger) {
    if (!["Enter", " ", "ArrowDown", "ArrowUp"].includes(event.key)) return;
    event.preventDefault();
    setMenu(menu, true);
    (event.key === "ArrowUp" ? items[items.length - 1] : items[0]).focus();
    return;
  }
  const index = items.indexOf(event.target.closest("[role=menuitem]"));
  if (index < 0) return;
  if (event.key === "Tab") { setMenu(menu, false); return; }
  if (event.key === " " && event.target.tagName === "A") { event.preventDefault(); event.target.click(); return; }
  if (event.key === "Escape") {
    event.preventDefault();
    event.stopImmediatePropagation();
    setMenu(menu, false);
    trigger.focus();
    return;
  }
  const target = {
    ArrowDown: items[(index + 1) % items.length],
    ArrowUp: items[(index - 1 + items.length) % items.length],
    Home: items[0],
    End: items[items.length - 1],
  }[event.key];
  if (!target) return;
  event.preventDefault();
  target.focus();
});

// A menu whose focus has left it (a click elsewhere, Shift+Tab) closes.
document.addEventListener("focusout", (event) => {
  const menu = event.target instanceof Element && event.target.closest("[data-menu]");
  if (menu && menu === openMenu && !menu.contains(event.relatedTarget) && event.relatedTarget) setMenu(menu, false);
});

// ---- keyboard ----------------------------------------------------------------------------------
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") {
    closeMenus();
    const modals = document.querySelectorAll("[data-modal]");
    const close = modals.length && modals[modals.length - 1].querySelector("[data-modal-close]");
    if (close && !close.disabled) close.click();
    else root.removeAttribute("data-overlay-open");
  }
  if (event.altKey && (event.code === "KeyT" || event.key === "t" || event.key === "T")) {
    // Server toasts live in the Notifications region, browser toasts in their own list: focus the newest.
    const toaster = document.querySelector("[data-toaster]");
    const toasts = document.querySelectorAll("[data-toaster] .toast, [data-client-toasts] .toast");
    const latest = toasts[toasts.length - 1];
    if (latest || toaster) {
      event.preventDefault();
      if (latest) latest.tabIndex = 0;
      (latest || toaster).focus();
    }
  }
});

// ---- theme -------------------------------------------------------------------------------------
const THEMES = ["light", "dark", "system"];
function applyTheme(pref) {
  const dark = pref === "dark" || (pref === "system" && matchMedia("(prefers-color-scheme: dark)").matches);
  root.setAttribute("data-theme", dark ? "dark" : "light");
  root.setAttribute("data-theme-pref", pref);
}
function cycleTheme() {
  const current = root.getAttribute("data-theme-pref") || "system";
  const next = THEMES[(THEMES.indexOf(current) + 1) % THEMES.length];
  try { localStorage.setItem("theme", next); } catch (e) {}
  applyTheme(next);
  showToast(`Theme: ${next[0].toUpperCase()}${next.slice(1)}`, { duration: 1500 });
}
matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => {
  applyTheme(root.getAttribute("data-theme-pref") || "system");
});

// ---- flash-sale banner ---------------------------------------------------------------------------
function closeBanner() {
  root.setAttribute("data-banner-closed", "");
  try { localStorage.setItem("flash-banner-closed", new Date().toDateString()); } catch (e) {}
}

function tick() {
  if (root.hasAttribute("data-banner-closed")) return;
  const left = msUntilEndOfDay(new Date());
  const text = countdownText(left);
  for (const el of document.querySelectorAll('[data-countdown="end-of-day"]')) {
    if (el.textContent !== text) el.textContent = text;
  }
  if (left < 1000) closeBanner();
}
setInterval(tick, 1000);

// ---- page title and first paint of new nodes --------------------------------------------------------
const app = document.getElementById("app");
new MutationObserver((mutations) => {
  focusNewScreen(mutations);
  const marker = app.querySelectorAll("[data-page-title]");
  const title = marker.length && marker[marker.length - 1].dataset.pageTitle;
  if (title && document.title !== title) document.title = title;
  tick();
  followDelayedLinks();
}).observe(app, { childList: true, subtree: true, attributes: true, attributeFilter: ["data-page-title"] });

// ---- links a screen follows by itself after a delay (/auth-redirect's 1.5 s return to /login) ----------
const scheduled = new WeakSet();
function followDelayedLinks() {
  for (const link of app.querySelectorAll("a[data-navigate-after]")) {
    if (scheduled.has(link)) continue;
    scheduled.add(link);
    // data-native: a full page load (the server decides what the page is now, e.g. after a sign-out).
    const go = () => (link.hasAttribute("data-native") ? location.replace(link.href) : navigate(link.href, { replace: true }));
    setTimeout(() => { if (link.isConnected) go(); },
               Number(link.dataset.navigateAfter) || 0);
  }
}

// ---- client toasts (browser events such as a new service worker) -------------------------------------
export function showToast(title, { actionLabel, onAction, duration = 4000 } = {}) {
  const list = document.querySelector("[data-client-toasts]");
  if (!list) return;
  const item = document.createElement("li");
  item.className = "toast toast-default";
  item.style.animationDelay = `0ms, ${duration}ms`;
  const text = document.createElement("p");
  text.className = "toast-title";
  text.textContent = title;
  const body = document.createElement("div");
  body.className = "toast-body";
  body.setAttribute("role", "status");  // the text is the live region; the list keeps list items only
  body.append(text);
  item.append(body);
  if (actionLabel) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "btn btn-sm btn-primary";
    button.textContent = actionLabel;
    button.addEventListener("click", () => { item.remove(); onAction && onAction(); });
    item.append(button);
  }
  list.append(item);
  setTimeout(() => item.remove(), duration + 400);
}

// Other modules (auth.js) show toasts through an event, so this module is loaded once.
window.addEventListener("mv:toast", (event) => showToast(event.detail.title, event.detail));

// ---- service worker ----------------------------------------------------------------------------
if ("serviceWorker" in navigator) {
  // Reload only when a new version takes over from an old one (the Refresh toast). A first visit has no
  // controller yet: the first worker claiming the page must not load it a second time.
  let reloaded = false;
  const hadController = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloaded || !hadController) return;
    reloaded = true;
    location.reload();
  });
  const offerUpdate = (worker) => showToast("New version available! Refresh to update.", {
    actionLabel: "Refresh",
    duration: 10000,
    onAction: () => worker.postMessage({ type: "SKIP_WAITING" }),
  });
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/service-worker.js").then((registration) => {
      if (registration.waiting && navigator.serviceWorker.controller) offerUpdate(registration.waiting);
      registration.addEventListener("updatefound", () => {
        const worker = registration.installing;
        worker && worker.addEventListener("statechange", () => {
          if (worker.state === "installed" && navigator.serviceWorker.controller) offerUpdate(worker);
        });
      });
    }).catch((error) => console.warn("Service worker registration failed", error));
  });
}
