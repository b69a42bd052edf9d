// The staff portal's sidebar (static/js/sidebar.js); its open state is kept in localStorage
// 'staff-sidebar-open' (SPEC §2).
import { sidebar } from "./sidebar.js";

const KEY = "staff-sidebar-open";

sidebar({
  collapsedAttr: "data-staff-sidebar-collapsed",
  toggleAttr: "data-staff-sidebar-toggle",
  sidebarSelector: ".staff-sidebar",
  firstLinkSelector: ".staff-nav-link",
  drawer: "staff-nav",
  load() {
    try { return localStorage.getItem(KEY) !== "false"; } catch (e) { return true; }
  },
  save(open) {
    try { localStorage.setItem(KEY, String(open)); } catch (e) {}
  },
});
