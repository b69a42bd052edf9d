// MediVisit service worker: caches static assets (cache first); pages and live data always go to
// the network. A new version waits until the page asks it to take over (the Refresh toast).
const VERSION = "medivisit-static-v1";
const PRECACHE = ["/static/css/app.css?v=1", "/static/js/app.js?v=1", "/static/js/countdown.js", "/static/js/theme.js?v=1",
  "/static/img/favicon.svg"];

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
