// "<name> is replying" in the help desk, without a server round trip per keystroke: while someone types in
// a field marked data-typing, this clicks the hidden [data-typing-sink] button of the same
// [data-typing-scope] at most once every few seconds; the screen then tells the other agents.
const INTERVAL_MS = 4000;
const lastSignal = new WeakMap();

document.addEventListener("input", (event) => {
  const field = event.target;
  if (!(field instanceof HTMLElement) || !field.hasAttribute("data-typing")) return;
  const now = Date.now();
  if (now - (lastSignal.get(field) || 0) < INTERVAL_MS) return;
  lastSignal.set(field, now);
  const scope = field.closest("[data-typing-scope]");
  const sink = scope && scope.querySelector("[data-typing-sink]");
  if (sink) sink.click();
});
