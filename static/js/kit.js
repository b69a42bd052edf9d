// Browser-side behaviour of the UI kit (components/kit/), so no server render is spent on it:
// - tabs (`[role=tablist][data-tabs]`): Left/Right/Home/End move the focus along the tabs with a roving
//   tabindex; Space selects a link tab as Enter does; `data-tabs="auto"` also selects on arrow keys;
// - dialogs (`[data-modal]`: the kit Dialog and the cart sheet): the focus moves into
//   the dialog when it opens, Tab and Shift+Tab stay inside it while it is open, and the focus returns to
//   the element that opened it when it closes. Escape is handled by app.js (it clicks [data-modal-close]);
//   the page behind an open dialog does not scroll (app.css, `html:has([data-modal])`);
// - `[data-focus-on-mount]`: focused once when it appears (the heading of a screen an action led to, an
//   error summary; a new key on the server makes it appear, and take the focus, again);
// - error summaries (`[data-error-summary]`): a link to `#id` focuses the field with that id (in a group,
//   its chosen or first control) and scrolls it into view, instead of only jumping to it.
// Loaded by app.js (`import "./kit.js"`), before it, so app.js sees the clicks handled here as handled.

const FOCUSABLE = [
  "a[href]", "button:not([disabled])", "input:not([disabled]):not([type=hidden])", "select:not([disabled])",
  "textarea:not([disabled])", "[tabindex]:not([tabindex='-1'])",
].join(",");

// ---- tabs ----------------------------------------------------------------------------------------
document.addEventListener("keydown", (event) => {
  const tab = event.target instanceof Element && event.target.closest("[role=tab]");
  const list = tab && tab.closest("[role=tablist][data-tabs]");
  if (!list || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.key === " " && tab.tagName === "A") {
    event.preventDefault();
    tab.click();
    return;
  }
  const tabs = Array.from(list.querySelectorAll("[role=tab]"));
  const index = tabs.indexOf(tab);
  const target = {
    ArrowRight: tabs[(index + 1) % tabs.length],
    ArrowLeft: tabs[(index - 1 + tabs.length) % tabs.length],
    Home: tabs[0],
    End: tabs[tabs.length - 1],
  }[event.key];
  if (!target) return;
  event.preventDefault();
  for (const other of tabs) other.tabIndex = other === target ? 0 : -1;
  target.focus();
  if (list.dataset.tabs === "auto") target.click();
});

// ---- dialogs: focus in, focus trapped, focus back ---------------------------------------------------
let lastOutside = null;  // the last element focused outside any dialog: the opener of the next one
const openers = new Map();  // open dialog root -> the element to give the focus back to

const topDialog = () => {
  const open = document.querySelectorAll("[data-modal]");
  return open.length ? open[open.length - 1] : null;
};

function focusables(root) {
  return Array.from(root.querySelectorAll(FOCUSABLE)).filter(
    (el) => !el.closest("[hidden]") && el.getClientRects().length > 0,
  );
}

function focusInto(root) {
  const preferred = root.querySelector("[autofocus], [data-initial-focus]") ||
    root.querySelector("input:not([type=hidden]):not([disabled]), textarea:not([disabled]), select:not([disabled])");
  const target = preferred || focusables(root)[0] || root.querySelector("[role=dialog]");
  if (target) {
    if (!target.hasAttribute("tabindex") && target.getAttribute("role") === "dialog") target.tabIndex = -1;
    target.focus();
  }
}

document.addEventListener("focusin", (event) => {
  const dialog = topDialog();
  if (!dialog) {
    lastOutside = event.target;
    return;
  }
  if (!dialog.contains(event.target)) focusInto(dialog);  // focus escaped (a click, a script): bring it back
});

document.addEventListener("keydown", (event) => {
  if (event.key !== "Tab") return;
  const dialog = topDialog();
  if (!dialog) return;
  const items = focusables(dialog);
  if (!items.length) { event.preventDefault(); return; }
  const first = items[0];
  const last = items[items.length - 1];
  if (event.shiftKey && (document.activeElement === first || !dialog.contains(document.activeElement))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (document.activeElement === last || !dialog.contains(document.activeElement))) {
    event.preventDefault();
    first.focus();
  }
});

function syncDialogs() {
  const open = new Set(document.querySelectorAll("[data-modal]"));
  for (const [dialog, opener] of openers) {
    if (open.has(dialog) && dialog.isConnected) continue;
    openers.delete(dialog);
    if (!topDialog() && opener && opener.isConnected) opener.focus();
    else if (!topDialog() && opener && opener.id) document.getElementById(opener.id)?.focus();
  }
  for (const dialog of open) {
    if (openers.has(dialog)) continue;
    openers.set(dialog, lastOutside || document.activeElement);
    if (!dialog.contains(document.activeElement)) focusInto(dialog);
  }
}

// ---- focus on mount ----------------------------------------------------------------------------------
const focusedOnce = new WeakSet();

function focusNewTargets() {
  for (const target of document.querySelectorAll("[data-focus-on-mount]")) {
    if (focusedOnce.has(target)) continue;
    focusedOnce.add(target);
    const dialog = topDialog();
    if (!dialog || dialog.contains(target)) target.focus();
  }
}

// ---- error summaries: each link focuses its field ------------------------------------------------------
document.addEventListener("click", (event) => {
  const link = event.target instanceof Element && event.target.closest("[data-error-summary] a[href^='#']");
  if (!link || event.defaultPrevented) return;
  const field = document.getElementById(decodeURIComponent(link.hash.slice(1)));
  if (!field) return;
  event.preventDefault();
  const control = field.matches(FOCUSABLE)
    ? field
    : field.querySelector("[aria-pressed=true]:not([disabled])") || field.querySelector(FOCUSABLE);
  (control || field).scrollIntoView({ block: "center" });
  if (control) control.focus({ preventScroll: true });
});

new MutationObserver(() => {
  syncDialogs();
  focusNewTargets();
}).observe(document.body, { childList: true, subtree: true });
focusNewTargets();
