// MediVisit service worker: caches static assets (cache first); pages and live data always go to
// the network. A new version waits until the page asks it to take over (the Refresh toast).
// The server fills in ASSET_VERSION (a hash of static/), so every deploy that changes an asset is a new worker.
const ASSET_VERSION = "__ASSET_VERSION__";
const VERSION = `medivisit-static-${ASSET_VERSION}`;
const PRECACHE = [
  "/static/css/app.css", "/static/css/pages.css", "/static/css/portal.css", "/static/js/app.js", "/static/js/auth.js",
  "/static/js/theme.js", "/static/js/countdown.js", "/static/js/kit.js", "/static/img/favicon.svg",
].map((path) => `${path}?v=${ASSET_VERSION}`);

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(VERSION).then((cache) => cache.addAll(PRECACHE)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== VERSION).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  const isAsset = url.origin === location.origin &&
    (url.pathname.startsWith("/static/") || url.pathname.startsWith("/_reactpy/assets/") ||
     url.pathname.startsWith("/_reactpy/modules/"));
  if (event.request.method !== "GET" || !isAsset) return;
  event.respondWith(
    caches.open(VERSION).then(async (cache) => {
      const cached = await cache.match(event.request);
      if (cached) return cached;
      const response = await fetch(event.request);
      if (response.ok) cache.put(event.request, response.clone());
      return response;
    }),
  );
});
