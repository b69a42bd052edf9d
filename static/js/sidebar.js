// A collapsible sidebar, all in the browser (the staff portal's and the dashboard's): wider than 768 px its
// toggle collapses it to a 3rem icon rail, marked on <html> by `collapsedAttr` and remembered by `save`;
// narrower, the same toggle opens it as a drawer (app.js's overlay `drawer`, which navigation, Escape and
// the backdrop close). Ctrl/Cmd+B toggles whichever sidebar is on the page. No server round trip.
const root = document.documentElement;
const small = matchMedia("(max-width: 767.98px)");

export function sidebar({ collapsedAttr, toggleAttr, sidebarSelector, firstLinkSelector, drawer, load, save }) {
  const isOpen = () => small.matches ? root.getAttribute("data-overlay-open") === drawer
                                     : !root.hasAttribute(collapsedAttr);

  function sync() {
    const open = String(isOpen());
    for (const button of document.querySelectorAll(`[${toggleAttr}]`)) {
      if (button.getAttribute("aria-expanded") !== open) button.setAttribute("aria-expanded", open);
    }
  }

  function toggle() {
    if (small.matches) {
      if (isOpen()) root.removeAttribute("data-overlay-open");
      else {
        root.setAttribute("data-overlay-open", drawer);
        const first = document.querySelector(firstLinkSelector);
        if (first) setTimeout(() => first.focus(), 50);
      }
    } else {
      const collapsed = !root.hasAttribute(collapsedAttr);
      root.toggleAttribute(collapsedAttr, collapsed);
      save(!collapsed);
    }
    sync();
  }

  const stored = load();
  if (stored !== null) root.toggleAttribute(collapsedAttr, !stored);

  document.addEventListener("click", (event) => {
    if (event.target.closest(`[${toggleAttr}]`)) toggle();
  });
  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.code === "KeyB"
        && document.querySelector(sidebarSelector)) {
      event.preventDefault();
      toggle();
    }
  });
  // Wider than the breakpoint, a drawer left open would lock scrolling: close it.
  small.addEventListener("change", () => {
    if (!small.matches && root.getAttribute("data-overlay-open") === drawer) root.removeAttribute("data-overlay-open");
    sync();
  });
  // The toggle is rendered by the server: keep its aria-expanded true to the state (also after app.js
  // closes the drawer on navigation, and when a new screen brings a new toggle).
  new MutationObserver(sync).observe(root, { attributes: true, attributeFilter: ["data-overlay-open"] });
  const app = document.getElementById("app");
  if (app) new MutationObserver(sync).observe(app, { childList: true, subtree: true });
}
