// Swaps the page's first frame, rendered on the server into the HTML (medivisit/reactpy_compat/first_paint.py),
// for the live ReactPy tree the moment that tree draws.
// The live tree mounts into the hidden #app and its first message is the same settled page, so the swap
// happens when #app first has content: the observer runs before the browser paints, so the page never
// flashes "Loading…", an empty frame or a layout shift.
// Until then the server's copy is read and followed like any page (links and form posts work without
// script). What a person does in it is not lost: typed values are copied into the live fields, the button
// they clicked is clicked again in the live tree, and focus stays on the same field. Elements are matched
// by id, else by their position in the tree.
// Typed values are copied into the live fields at once (the patched client keeps them: see
// medivisit/reactpy_compat/client.py); ticked boxes and the pending click are replayed once the live tree's
// mount effects have run, so its handlers are in place.
(function () {
  var pendingClick = null;

  function pathOf(node, root) {
    var path = [];
    while (node && node !== root) {
      path.unshift(Array.prototype.indexOf.call(node.parentElement.children, node));
      node = node.parentElement;
    }
    return path;
  }
  function counterpart(node, from, to) {
    if (node.id) return to.querySelector("#" + CSS.escape(node.id));
    var path = pathOf(node, from);
    var found = to.firstElementChild ? to : null;
    for (var i = 0; found && i < path.length; i++) found = found.children[path[i]] || null;
    return found && found.tagName === node.tagName ? found : null;
  }
  function setValue(field, value) {
    // Through the element's own setter and the event typing would fire (a select fires "change"), so the
    // client's onChange hears it.
    var proto = Object.getPrototypeOf(field);
    var setter = Object.getOwnPropertyDescriptor(proto, "value").set;
    setter.call(field, value);
    field.dispatchEvent(new Event(field.tagName === "SELECT" ? "change" : "input", { bubbles: true }));
  }

  // After the live tree's mount effects: Preact runs them in a task queued after the next animation frame
  // (or after 100 ms where frames are not drawn, as in a background tab); this queues after them.
  function afterMountEffects(callback) {
    var done = false;
    function run() {
      if (done) return;
      done = true;
      setTimeout(callback);
    }
    requestAnimationFrame(run);
    setTimeout(run, 100);
  }

  // The live tree's first render may not hold the clicked control yet (its data still loading on a busy
  // server): click its counterpart as soon as it appears, for up to three seconds, rather than drop the click.
  function clickWhenRendered(target) {
    var root = target;
    while (root.parentElement) root = root.parentElement;  // the removed first frame
    var app = document.getElementById("app");
    var watcher = new MutationObserver(function () {
      var live = counterpart(target, root, app);
      if (live && live.isConnected) {
        watcher.disconnect();
        live.click();
      }
    });
    watcher.observe(app, { childList: true, subtree: true });
    setTimeout(function () { watcher.disconnect(); }, 3000);
  }

  function changed(field) {
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") {
      return Array.prototype.some.call(field.options, function (o) { return o.selected !== o.defaultSelected; });
    }
    return field.value !== field.defaultValue;
  }

  // A click on a button of the server's copy (not a link, not a form the browser posts itself) waits for
  // the live tree, and is handled there only (the page's document-wide scripts do not see it first). This
  // script blocks in the head so the listener is in place before the first frame can be clicked.
  document.addEventListener("click", function (event) {
    var first = document.getElementById("first-paint");
    var target = event.target.closest && event.target.closest("button, [role=button], [role=tab], [role=menuitem], summary");
    if (!first || !target || !first.contains(target)) return;
    // The page's own scripts (static/js/app.js) act on these in the server's copy at once: no replay.
    if (target.closest("[data-theme-toggle], [data-banner-close], [data-close-overlay], [data-history-back]")) return;
    var form = target.closest("form");
    if (form && form.getAttribute("action") && target.type === "submit") return;
    event.preventDefault();
    event.stopPropagation();
    pendingClick = target;
  }, true);

  function start() {
    var first = document.getElementById("first-paint");
    var app = document.getElementById("app");
    if (!first || !app) return;

    function swap() {
      observer.disconnect();
      var typed = [];
      first.querySelectorAll("input, textarea, select").forEach(function (field) {
        if (changed(field)) typed.push(field);
      });
      var focused = first.contains(document.activeElement) ? document.activeElement : null;
      var pairs = typed.map(function (field) { return [field, counterpart(field, first, app)]; });
      var focusTarget = focused ? counterpart(focused, first, app) : null;
      var clickTarget = pendingClick ? counterpart(pendingClick, first, app) : null;
      first.remove();
      var texts = pairs.filter(function (pair) {
        return pair[1] && pair[0].type !== "checkbox" && pair[0].type !== "radio";
      });
      texts.forEach(function (pair) { setValue(pair[1], pair[0].value); });
      if (focusTarget) focusTarget.focus();
      afterMountEffects(function () {
        pairs.forEach(function (pair) {
          var live = pair[1];
          if (live && live.isConnected && texts.indexOf(pair) < 0 && live.checked !== pair[0].checked) live.click();
        });
        if (clickTarget && clickTarget.isConnected) clickTarget.click();
        else if (pendingClick) clickWhenRendered(pendingClick);
      });
    }
    var observer = new MutationObserver(function () {
      if (app.firstElementChild) swap();
    });
    observer.observe(app, { childList: true });
    if (app.firstElementChild) swap();  // the live tree drew before the page finished parsing
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
