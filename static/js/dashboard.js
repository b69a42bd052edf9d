// The dashboard frame in the browser (components/frame/dashboard.py): the sidebar (static/js/sidebar.js),
// kept in the cookie 'sidebar:state' for 7 days so the server paints the next page already right (SPEC §4);
// the icon rail's tooltips (700 ms before the first, at once within 300 ms of the last one: SPEC §9); and
// the header's "Go to" search over the dashboard's own pages.
import { sidebar } from "./sidebar.js";

const COOKIE = "sidebar:state";
const WEEK_S = 7 * 24 * 60 * 60;
const TIP_DELAY_MS = 700;
const TIP_SKIP_MS = 300;
const root = document.documentElement;

sidebar({
  collapsedAttr: "data-sidebar-collapsed",
  toggleAttr: "data-dash-sidebar-toggle",
  sidebarSelector: ".dash-sidebar",
  firstLinkSelector: ".dash-nav-link",
  drawer: "dash-nav",
  load() {
    const match = document.cookie.match(/(?:^|;\s*)sidebar:state=(true|false)/);
    return match ? match[1] === "true" : null;
  },
  save(open) {
    document.cookie = `${COOKIE}=${open}; path=/; max-age=${WEEK_S}; samesite=lax`;
  },
});

// ---- tooltips of the collapsed rail ---------------------------------------------------------------------
let tip = null;
let timer = 0;
let hiddenAt = -Infinity;

function railCollapsed() {
  return root.hasAttribute("data-sidebar-collapsed") && !matchMedia("(max-width: 767.98px)").matches;
}

function tooltip() {
  if (!tip) {
    tip = document.createElement("div");
    tip.className = "dash-tooltip";
    tip.setAttribute("role", "tooltip");
    tip.id = "dash-tooltip";
    tip.hidden = true;
    document.body.append(tip);
  }
  return tip;
}

function show(link) {
  const box = link.getBoundingClientRect();
  const t = tooltip();
  t.textContent = link.getAttribute("data-tip");
  t.style.top = `${box.top + box.height / 2}px`;
  t.style.left = `${box.right + 8}px`;
  t.hidden = false;
  link.setAttribute("aria-describedby", t.id);
}

function hide() {
  clearTimeout(timer);
  if (tip && !tip.hidden) {
    tip.hidden = true;
    hiddenAt = performance.now();
  }
  for (const link of document.querySelectorAll(".dash-nav-link[aria-describedby]")) link.removeAttribute("aria-describedby");
}

function schedule(link) {
  clearTimeout(timer);
  if (!railCollapsed()) return;
  const delay = performance.now() - hiddenAt < TIP_SKIP_MS ? 0 : TIP_DELAY_MS;
  timer = setTimeout(() => show(link), delay);
}

for (const type of ["pointerover", "focusin"]) {
  document.addEventListener(type, (event) => {
    const link = event.target.closest?.(".dash-nav-link[data-tip]");
    if (link) schedule(link);
  });
}
for (const type of ["pointerout", "focusout"]) {
  document.addEventListener(type, (event) => {
    if (event.target.closest?.(".dash-nav-link[data-tip]")) hide();
  });
}
document.addEventListener("keydown", (event) => { if (event.key === "Escape") hide(); });
document.addEventListener("click", hide);

// ---- the header's "Go to" search: over the sidebar's own links ----------------------------------------
function destination(typed) {
  const wanted = typed.trim().toLowerCase();
  if (!wanted) return null;
  const links = [...document.querySelectorAll(".dash-nav-link[data-tip]")];
  const named = (test) => links.find((link) => test(link.getAttribute("data-tip").toLowerCase()));
  return named((name) => name === wanted) || named((name) => name.startsWith(wanted))
    || named((name) => name.includes(wanted)) || null;
}

document.addEventListener("submit", (event) => {
  const form = event.target.closest("[data-dash-search]");
  if (!form) return;
  event.preventDefault();
  const input = form.querySelector("input");
  const status = form.querySelector("[data-dash-search-status]");
  const link = destination(input.value);
  if (link) {
    status.textContent = "";
    input.value = "";
    link.click();  // app.js follows it in the page, as if the sidebar link were clicked
  } else {
    status.textContent = input.value.trim() ? `No dashboard page matches “${input.value.trim()}”.` : "";
  }
});
