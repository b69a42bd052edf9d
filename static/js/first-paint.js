// Swaps the page's first frame, rendered on the server into the HTML (medivisit/first_paint.py), for the
// live ReactPy tree the moment that tree draws.
// The live tree mounts into the hidden #app and its first message is the same settled page, so the swap
// happens when #app first has content: the observer runs before the browser paints, so the page never
// flashes "Loading…", an empty frame or a layout shift.
// Until then the server's copy is read and followed like any page (links and form posts work without
// script). What a person does in it is not lost: typed values are copied into the live fields, the button
// they clicked is clicked again in the live tree, and focus stays on the same field. Elements are matched
// by id, else by their position in the tree.
// ReactPy's client gives each field a local copy of its value, which a mount effect resets to the
// server's value: a typed value is therefore copied at once and again once those effects have run (else
// the field would look empty and a form read from the page would send nothing).
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

  function changed(field) {
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") {
      return Array.prototype.some.call(field.options, function (o) { return o.selected !== o.defaultSelected; });
    }
    return field.value !== field.defaultValue;
  }

  function start() {
    var first = document.getElementById("first-paint");
    var app = document.getElementById("app");
    if (!first || !app) return;

    // A click on a button of the server's copy (not a link, not a form the browser posts itself) waits for
    // the live tree, and is handled there only (the page's document-wide scripts do not see it first).
    first.addEventListener("click", function (event) {
      var target = event.target.closest("button, [role=button], [role=tab], [role=menuitem], summary");
      if (!target || !first.contains(target)) return;
      // The page's own scripts (static/js/app.js) act on these in the server's copy at once: no replay.
      if (target.closest("[data-theme-toggle], [data-banner-close], [data-close-overlay], [data-history-back]")) return;
      var form = target.closest("form");
      if (form && form.getAttribute("action") && target.type === "submit") return;
      event.preventDefault();
      event.stopPropagation();
      pendingClick = target;
    }, true);

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
      // Told to the live fields at once, and again after their mount effects if one put the server's
      // value back.
      var texts = pairs.filter(function (pair) {
        return pair[1] && pair[0].type !== "checkbox" && pair[0].type !== "radio";
      });
      texts.forEach(function (pair) { setValue(pair[1], pair[0].value); });
      if (focusTarget) focusTarget.focus();
      afterMountEffects(function () {
        texts.forEach(function (pair) {
          if (pair[1].isConnected && pair[1].value !== pair[0].value) setValue(pair[1], pair[0].value);
        });
        pairs.forEach(function (pair) {
          var live = pair[1];
          if (live && live.isConnected && texts.indexOf(pair) < 0 && live.checked !== pair[0].checked) live.click();
        });
        if (clickTarget && clickTarget.isConnected) clickTarget.click();
      });
    }
    var observer = new MutationObserver(function () {
      if (app.firstElementChild) swap();
    });
    observer.observe(app, { childList: true });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
