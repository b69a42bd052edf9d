// Automatic logoff (HIPAA §164.312(a)(2)(iii)), in the browser so it costs the server nothing per second.
// A signed-in tab
// - notes the person's input (pointer, keys, wheel, touch), shared with the browser's other tabs through
//   localStorage, and reports it to POST /auth/activity at most once a minute; the answer gives the
//   inactivity limit (15 min for staff, 60 for others by default) and the session's absolute end;
// - a minute before either, shows an alert dialog ("Stay signed in" counts as activity; focus stays in it
//   and returns to where it was, through kit.js's [data-modal]);
// - then signs out ({"sign_out": true}) and opens /login?redirect=<this page>, where a note says why.
// The server enforces the same limits on every request and websocket command whatever this script does.

const SIGNED_IN = (document.cookie.match(/(?:^|; )mv_expires_at=(\d+)/) || [])[1];
const WARN_BEFORE = 60000;
const REPORT_EVERY = 60000;
const SHARED_KEY = "mv-last-input";

function csrf() {
  return decodeURIComponent((document.cookie.match(/(?:^|; )mv_csrf=([^;]*)/) || [])[1] || "");
}

function post(body) {
  return fetch("/auth/activity", {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() },
    body: JSON.stringify(body),
  });
}

let idleLimit = 0;   // ms; 0 until the server has told us
let sessionEnds = 0; // epoch ms, 0: none
let lastInput = Date.now();
let lastReport = 0;
let leaving = false;

function sharedLastInput() {
  let stored = 0;
  try { stored = Number(localStorage.getItem(SHARED_KEY)) || 0; } catch { /* storage off */ }
  return Math.max(lastInput, stored);
}

function noteInput() {
  const now = Date.now();
  if (now - lastInput < 1000) return;
  lastInput = now;
  try { localStorage.setItem(SHARED_KEY, String(now)); } catch { /* storage off */ }
}

async function report(body = {}) {
  let response;
  try { response = await post(body); } catch { return; } // offline: the next tick tries again
  if (response.status === 401) { leave(false); return; }
  if (!response.ok) return;
  const data = await response.json();
  idleLimit = (data.idle_timeout || 0) * 1000;
  sessionEnds = data.ends_at ? data.ends_at * 1000 : 0;
  lastReport = Date.now();
}

async function leave(tellServer) {
  if (leaving) return;
  leaving = true;
  document.documentElement.dataset.leaving = ""; // auth.js then leaves the navigation below to us
  if (tellServer) { try { await post({ sign_out: true }); } catch { /* the server ends it anyway */ } }
  // The session is over (here or elsewhere): stop reporting, and never nest /login in its own redirect.
  document.cookie = "mv_expires_at=; max-age=0; path=/";
  if (location.pathname === "/login") return;
  const here = location.pathname + location.search;
  location.assign(`/login?redirect=${encodeURIComponent(here)}`);
}

// ---- the warning -----------------------------------------------------------------------------------------
let dialog = null;
function showWarning(secondsLeft) {
  if (!dialog) {
    dialog = document.createElement("div");
    dialog.className = "modal-backdrop idle-warning";
    dialog.dataset.modal = "";
    dialog.innerHTML = `
      <div class="modal" role="alertdialog" aria-modal="true" aria-labelledby="idle-title" aria-describedby="idle-text">
        <div class="modal-header"><h2 id="idle-title">Are you still there?</h2></div>
        <p class="modal-lead" id="idle-text">For your security, you'll be signed out in
          <strong data-idle-seconds></strong>.</p>
        <div class="modal-actions">
          <button type="button" class="btn btn-secondary" data-idle-leave>Sign out now</button>
          <button type="button" class="btn btn-primary" data-idle-stay data-modal-close data-initial-focus>Stay signed in</button>
        </div>
      </div>`;
    dialog.querySelector("[data-idle-stay]").addEventListener("click", () => {
      noteInput();
      hideWarning();
      report();
    });
    dialog.querySelector("[data-idle-leave]").addEventListener("click", () => leave(true));
    document.body.append(dialog);
  }
  const whole = Math.max(0, Math.ceil(secondsLeft));
  dialog.querySelector("[data-idle-seconds]").textContent = `${whole} second${whole === 1 ? "" : "s"}`;
}

function hideWarning() {
  if (dialog) { dialog.remove(); dialog = null; }
}

// ---- the clock -------------------------------------------------------------------------------------------
function tick() {
  if (leaving || !idleLimit) return;
  const now = Date.now();
  const last = sharedLastInput();
  if (last > lastReport && now - lastReport >= REPORT_EVERY) report();
  let deadline = last + idleLimit;
  if (sessionEnds) deadline = Math.min(deadline, sessionEnds);
  if (now >= deadline) leave(true);
  else if (deadline - now <= WARN_BEFORE) showWarning((deadline - now) / 1000);
  else hideWarning();
}

if (SIGNED_IN) {
  for (const type of ["pointerdown", "keydown", "wheel", "touchstart"]) {
    window.addEventListener(type, (event) => {
      if (dialog && dialog.contains(event.target)) return; // only "Stay signed in" answers the warning
      noteInput();
    }, { passive: true, capture: true });
  }
  report();
  setInterval(tick, 1000);
}
