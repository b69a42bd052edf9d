// Says when the live connection is lost, and holds the page still until it is back (issue 11).
// Every click and keystroke travels over ReactPy's websocket: while it is down they would go nowhere. This
// classic script runs before ReactPy's client opens its socket and watches it: when an open connection
// closes, a "Reconnecting…" bar appears and the app is made inert (no click or key is taken and then lost).
// ReactPy 1.1's client reconnects by itself but then shows an empty page (its router never hears the
// location again), so once the server answers, the page is loaded afresh: the screen comes back from the
// URL, and the drafts the server keeps (ticket, reply, review, checkout notes) fill their forms again.
// Leaving the page closes the socket too: that is not a lost connection.
(function () {
  var Native = window.WebSocket;
  if (!Native) return;
  var root = document.documentElement;
  var leaving = false;
  var lostTimer = 0;
  window.addEventListener("pagehide", function () { leaving = true; });
  window.addEventListener("beforeunload", function () { leaving = true; });

  function app() { return document.getElementById("app"); }
  function bar() {
    var existing = document.querySelector("[data-connection-bar]");
    if (existing) return existing;
    var el = document.createElement("div");
    el.setAttribute("data-connection-bar", "");
    el.setAttribute("role", "status");
    el.setAttribute("aria-live", "assertive");
    el.className = "connection-bar";
    document.body.appendChild(el);
    return el;
  }
  function lost() {
    if (leaving) return;
    root.setAttribute("data-connection", "lost");
    bar().textContent = "Connection lost. Reconnecting… The page reloads as soon as we're back.";
    var main = app();
    if (main) main.inert = true;
  }
  function back() {
    clearTimeout(lostTimer);
    if (root.getAttribute("data-connection") !== "lost") return;
    bar().textContent = "Connected again. Reloading…";
    location.reload();
  }

  // One click brings several updates (the badges, a toast, the cart panel), and the client draws after
  // each (only the parts an update changed: medivisit/reactpy_compat/client.py). Updates are handed over
  // once per frame, all that arrived since the last, so they are drawn together; a tab in the background (no
  // frames) still gets them within 100 ms.
  function oneDrawPerFrame(socket) {
    var handler = null;
    var queue = [];
    var frame = 0;
    var fallback = 0;
    function flush() {
      cancelAnimationFrame(frame);
      clearTimeout(fallback);
      frame = fallback = 0;
      var batch = queue;
      queue = [];
      if (!batch.length) return;
      for (var i = 0; i < batch.length; i++) if (handler) handler.call(socket, batch[i]);
    }
    Object.defineProperty(socket, "onmessage", {
      get: function () { return handler; },
      set: function (fn) { handler = fn; },
    });
    socket.addEventListener("message", function (event) {
      queue.push(event);
      if (!frame) {
        frame = requestAnimationFrame(flush);
        fallback = setTimeout(flush, 100);
      }
    });
  }

  function Tracked(url, protocols) {
    var socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    if (String(url).indexOf("/_reactpy/stream") !== -1) {
      oneDrawPerFrame(socket);
      var opened = false;
      socket.addEventListener("open", function () { opened = true; back(); });
      socket.addEventListener("close", function () {
        // A short grace, so a page that is being left does not flash the bar.
        if (opened) lostTimer = setTimeout(lost, 150);
      });
    }
    return socket;
  }
  Tracked.prototype = Native.prototype;
  Tracked.CONNECTING = Native.CONNECTING;
  Tracked.OPEN = Native.OPEN;
  Tracked.CLOSING = Native.CLOSING;
  Tracked.CLOSED = Native.CLOSED;
  window.WebSocket = Tracked;
})();
