// Runs before first paint: applies the saved theme (light/dark/system, key "theme", default system)
// and hides the flash-sale banner if the visitor closed it earlier today.
(function () {
  var root = document.documentElement;
  var pref = "system";
  try { pref = localStorage.getItem("theme") || "system"; } catch (e) {}
  var dark = pref === "dark" || (pref === "system" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  root.setAttribute("data-theme", dark ? "dark" : "light");
  root.setAttribute("data-theme-pref", pref);
  try {
    if (localStorage.getItem("flash-banner-closed") === new Date().toDateString()) {
      root.setAttribute("data-banner-closed", "");
    }
  } catch (e) {}
})();
