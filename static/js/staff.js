// Staff portal sidebar, all in the browser: on wide screens the toggle collapses it to an icon rail and
// the choice is kept in localStorage 'staff-sidebar-open' (SPEC §2); below 768 px the same button opens
// it as a drawer (app.js's overlay, so navigation, Escape and the backdrop close it). Ctrl/Cmd+B toggles.
const root = document.documentElement;
const KEY = "staff-sidebar-open";
const DRAWER = "staff-nav";
const small = matchMedia("(max-width: 767.98px)");

function storedOpen() {
  try { return localStorage.getItem(KEY) !== "false"; } catch (e) { return true; }
}

function isOpen() {
  return small.matches ? root.getAttribute("data-overlay-open") === DRAWER
                       : !root.hasAttribute("data-staff-sidebar-collapsed");
}

function sync() {
  const open = String(isOpen());
  for (const button of document.querySelectorAll("[data-staff-sidebar-toggle]")) {
    if (button.getAttribute("aria-expanded") !== open) button.setAttribute("aria-expanded", open);
  }
}

function setCollapsed(collapsed) {
  root.toggleAttribute("data-staff-sidebar-collapsed", collapsed);
  try { localStorage.setItem(KEY, String(!collapsed)); } catch (e) {}
  sync();
}

function toggle() {
  if (small.matches) {
    if (isOpen()) root.removeAttribute("data-overlay-open");
    else {
      root.setAttribute("data-overlay-open", DRAWER);
      const first = document.querySelector(".staff-nav-link");
      if (first) setTimeout(() => first.focus(), 50);
    }
    sync();
  } else {
    setCollapsed(!root.hasAttribute("data-staff-sidebar-collapsed"));
  }
}

root.toggleAttribute("data-staff-sidebar-collapsed", !storedOpen());

document.addEventListener("click", (event) => {
  if (event.target.closest("[data-staff-sidebar-toggle]")) toggle();
});

document.addEventListener("keydown", (event) => {
  if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.code === "KeyB"
      && document.querySelector(".staff-sidebar")) {
    event.preventDefault();
    toggle();
  }
});

// Wider than the breakpoint, a drawer left open would lock scrolling: close it.
small.addEventListener("change", () => {
  if (!small.matches && root.getAttribute("data-overlay-open") === DRAWER) root.removeAttribute("data-overlay-open");
  sync();
});

// The toggle is rendered by the server: keep its aria-expanded true to the state (also after app.js
// closes the drawer on navigation).
new MutationObserver(sync).observe(root, { attributes: true, attributeFilter: ["data-overlay-open"] });
const app = document.getElementById("app");
if (app) new MutationObserver(sync).observe(app, { childList: true, subtree: true });
