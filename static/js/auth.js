// The signed-in session on the browser's side (SPEC §9). The tokens live in HttpOnly cookies no script can
// read; this module only sees `mv_expires_at` (when the access token expires) and the CSRF token. It
// - checks every tick (30 s, <html data-auth-tick>) and, once under three ticks remain, refreshes the
//   session with POST /auth/refresh, retrying with 200 ms·2ⁿ backoff for up to 30 s; a 4xx answer means the
//   session ended elsewhere, so the tab reloads and shows itself signed out;
// - tells the other tabs (BroadcastChannel) when this browser signs out, and reloads when they do;
// - turns the session an e-mail link puts in the URL fragment into cookies (POST /auth/session), so no
//   token stays in the address bar, the history or a server log;
// - deletes the one-shot flash cookie once the app has read it;
// - shows a sign-in form's button as busy while the browser posts it.

const root = document.documentElement;
const TICK = Number(root.dataset.authTick) || 30000;
const MARGIN = 3 * TICK;
const RETRY_BASE = 200;
const RETRY_WINDOW = 30000;
const channel = "BroadcastChannel" in window ? new BroadcastChannel("medivisit-auth") : null;

function readCookie(name) {
  const prefix = `${name}=`;
  for (const part of document.cookie.split("; ")) {
    if (part.startsWith(prefix)) return decodeURIComponent(part.slice(prefix.length));
  }
  return null;
}

function dropCookie(name) {
  document.cookie = `${name}=; Max-Age=0; Path=/; SameSite=Lax${location.protocol === "https:" ? "; Secure" : ""}`;
}

const expiresAt = () => (Number(readCookie("mv_expires_at")) || 0) * 1000;
const signedInAtLoad = expiresAt() > 0;

function postJson(path, body = {}) {
  return fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": readCookie("mv_csrf") || "" },
    body: JSON.stringify(body),
  });
}

function toast(title) {
  window.dispatchEvent(new CustomEvent("mv:toast", { detail: { title } }));
}

// ---- the flash cookie (a note for the next page, e.g. "Logged out successfully") is read once ----------
let flashRead = false;
const whenFlashRead = [];
function afterFlashRead(then) {
  if (flashRead) then();
  else whenFlashRead.push(then);
}

function flashWasRead() {
  dropCookie("mv_flash");
  flashRead = true;
  for (const then of whenFlashRead.splice(0)) then();
}

// ---- signed out elsewhere: this tab reloads ---------------------------------------------------------
let reloading = false;
function reloadSignedOut() {
  // idle.js may already be taking the tab to /login?redirect=<this page>: a reload would cancel that.
  if (reloading || "leaving" in root.dataset) return;
  reloading = true;
  location.reload();
}

function signedOutHere() {
  if (channel) channel.postMessage("signed-out");
  reloadSignedOut();
}

if (channel) {
  channel.addEventListener("message", (event) => {
    if (event.data === "signed-out" && signedInAtLoad) reloadSignedOut();
  });
}

if (readCookie("mv_auth_event") === "signed-out") {
  // This page follows a sign-out: the other tabs of this browser show it too, once this tab has read its
  // flash ("Logged out successfully"): the cookie is the browser's, and a tab reloading first would take it.
  dropCookie("mv_auth_event");
  afterFlashRead(() => { if (channel) channel.postMessage("signed-out"); });
}

// ---- the refresh tick -----------------------------------------------------------------------------------
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function refreshWithRetry() {
  const started = Date.now();
  for (let attempt = 0; ; attempt += 1) {
    let status = 0;
    try {
      status = (await postJson("/auth/refresh")).status;
    } catch (error) {
      status = 0; // the network failed: retry
    }
    if (status >= 200 && status < 300) return;
    if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
      signedOutHere(); // the session was revoked (signed out on another device, or expired)
      return;
    }
    const wait = RETRY_BASE * 2 ** attempt;
    if (Date.now() - started + wait > RETRY_WINDOW) return;
    await sleep(wait);
  }
}

async function refreshIfDue() {
  // One tab refreshes at a time; the others then see the new expiry and have nothing to do.
  const run = async () => {
    const expires = expiresAt();
    if (expires && expires - Date.now() < MARGIN) await refreshWithRetry();
  };
  if (navigator.locks) await navigator.locks.request("medivisit-auth-refresh", run);
  else await run();
}

let ticking = false;
async function tick() {
  if (ticking || reloading) return;
  ticking = true;
  try {
    const expires = expiresAt();
    if (!expires) {
      if (signedInAtLoad) reloadSignedOut(); // the cookies went: another tab signed out
      return;
    }
    if (expires - Date.now() < MARGIN) await refreshIfDue();
  } finally {
    ticking = false;
  }
}

setInterval(tick, TICK);
document.addEventListener("visibilitychange", () => { if (!document.hidden) tick(); });
window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  for (const button of document.querySelectorAll("[data-busy-label][data-idle-label]")) {
    button.disabled = false;
    button.textContent = button.dataset.idleLabel;
  }
  tick();
});

// ---- an e-mail link's session, from the URL fragment ------------------------------------------------------
async function sessionFromLink() {
  if (location.hash.length < 2) return false;
  const params = new URLSearchParams(location.hash.slice(1));
  const access = params.get("access_token");
  const refresh = params.get("refresh_token");
  const failed = params.get("error_code") || params.get("error_description");
  if (!(access && refresh) && !failed) return false;
  // The tokens leave the address bar and the history at once.
  history.replaceState(history.state, "", location.pathname + location.search);
  if (failed) {
    if (location.pathname !== "/reset-password") toast("Email link is invalid or has expired");
    return false;
  }
  const type = params.get("type");
  let next = "/auth-redirect";
  if (type === "recovery" || type === "invite") next = "/reset-password";
  else if (location.pathname === "/auth-redirect") next = location.pathname + location.search;
  root.setAttribute("data-auth-busy", "");
  try {
    const response = await postJson("/auth/session", { access_token: access, refresh_token: refresh });
    if (response.ok) {
      const { mfa } = await response.json();
      location.replace(mfa ? `/login?${new URLSearchParams({ step: "mfa", redirect: next })}` : next);
      return true;
    }
  } catch (error) {
    // fall through: the link could not be used
  }
  root.removeAttribute("data-auth-busy");
  toast("Email link is invalid or has expired");
  return false;
}

function dropFlashOnceRead() {
  if (readCookie("mv_flash") === null) { flashWasRead(); return; }
  // The app root reads the cookies before its first render, which includes the toaster. (The copy of the
  // page rendered into the HTML has one too, but the live tree has yet to read the cookie then.)
  const read = () => document.querySelector("#app [data-toaster]") !== null;
  if (read()) { flashWasRead(); return; }
  const observer = new MutationObserver(() => {
    if (read()) { observer.disconnect(); flashWasRead(); }
  });
  observer.observe(document.getElementById("app") || document.body, { childList: true, subtree: true });
}

// ---- busy submit buttons ----------------------------------------------------------------------------------
document.addEventListener("submit", (event) => {
  const form = event.target instanceof Element ? event.target.closest("form[data-auth-form]") : null;
  if (!form || event.defaultPrevented) return;
  const button = form.querySelector("[data-busy-label]");
  if (!button) return;
  // After the browser has collected the form: then the button can change.
  setTimeout(() => {
    button.dataset.idleLabel = button.textContent;
    button.disabled = true;
    button.textContent = button.dataset.busyLabel;
  }, 0);
});

dropFlashOnceRead();
sessionFromLink().then((leaving) => { if (!leaving) tick(); });
