// Tells the server the visitor's time zone, so visit times show in local time: the `tz` cookie, read once
// by the websocket when ReactPy connects (this module runs before ReactPy's own script).
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
if (zone && !document.cookie.split("; ").includes(`tz=${zone}`)) {
  document.cookie = `tz=${zone}; path=/; max-age=31536000; samesite=lax`;
}
