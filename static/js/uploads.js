// Attachments for help-desk messages. A ReactPy screen cannot receive a file over its websocket, so when a
// file input marked data-upload changes, this module posts each chosen file to /api/uploads (session cookies,
// CSRF double submit) and hands the answer {id, filename, size, content_type} to the screen: it writes the
// JSON into the hidden [data-upload-sink] input of the same [data-upload-scope] and fires an input event.
// Errors (too large, wrong type, signed out) are shown as toasts; nothing is uploaded twice.
// An input may name another endpoint (data-upload-url, e.g. provider enrollment's documents); the values of
// the scope's [data-upload-field] controls (name=value) are posted with the file.

function readCookie(name) {
  const prefix = `${name}=`;
  for (const part of document.cookie.split("; ")) {
    if (part.startsWith(prefix)) return decodeURIComponent(part.slice(prefix.length));
  }
  return "";
}

function toast(title) {
  window.dispatchEvent(new CustomEvent("mv:toast", { detail: { title } }));
}

// The framework listens for input events; set the value the way a user's typing would.
function deliver(sink, value) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set;
  setter.call(sink, value);
  sink.dispatchEvent(new Event("input", { bubbles: true }));
}

async function upload(file, url, scope) {
  const body = new FormData();
  for (const field of scope.querySelectorAll("[data-upload-field]")) body.append(field.name, field.value);
  body.append("file", file, file.name);
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "X-CSRF-Token": readCookie("mv_csrf") },
    body,
  });
  let answer = {};
  try { answer = await response.json(); } catch (e) {}
  if (!response.ok) throw new Error(answer.message || "The file could not be uploaded. Please try again.");
  return answer;
}

document.addEventListener("change", async (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || !input.matches("input[type=file][data-upload]")) return;
  const scope = input.closest("[data-upload-scope]");
  const sink = scope && scope.querySelector("[data-upload-sink]");
  const status = scope && scope.querySelector("[data-upload-status]");
  if (!sink) return;
  const maxBytes = Number(input.dataset.maxBytes) || Infinity;
  const files = Array.from(input.files || []).slice(0, Number(input.dataset.maxFiles) || 5);
  input.value = "";
  for (const file of files) {
    if (file.size > maxBytes) {
      toast(`${file.name} is too large: files can be at most ${Math.round(maxBytes / 1048576)} MB.`);
      continue;
    }
    if (status) status.textContent = `Uploading ${file.name}…`;
    try {
      deliver(sink, JSON.stringify(await upload(file, input.dataset.uploadUrl || "/api/uploads", scope)));
    } catch (error) {
      toast(error.message);
    }
  }
  if (status) status.textContent = "";
});
