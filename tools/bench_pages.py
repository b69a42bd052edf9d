"""Page benchmark (issue 11, `make bench`): first paint, clicks, websocket bytes per action and server memory
and CPU per open tab, each next to a hello-world ReactPy app (tools/hello_reactpy.py) measured in the same
run on the same machine, so the ratios say what the product adds to what ReactPy and the browser cost anyway.

It seeds the demo marketplace into a temporary SQLite database, starts the product and the hello-world app
on loopback, and drives Debian's Chromium (headless, Playwright):
- first paint: first-contentful-paint of `/`, `/services` and `/find-provider` in a fresh browser context
  (nothing cached), and when the live tree took over from the first frame in the HTML; three rounds, medians;
- clicks: Add to cart on a service page, and a ZIP search on Find a Provider (a new ZIP typed, Enter), each
  timed in the page from the click (or key) to the frame painted after the change it waits for; the hello
  counter's click the same way; per round p50/p95, medians of three rounds;
- bytes: what the websocket carried in both directions for each action, until it was quiet;
- memory and CPU: the server's resident memory and CPU time before and after opening TABS tabs of a page,
  divided by TABS.
Targets (issue 11) are printed beside the figures.

Usage: python tools/bench_pages.py [--rounds 3] [--clicks 7] [--tabs 30]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
DEMO_SERVICE = "/services/routine-blood-draw"
ZIPS = ("10011", "60614")  # New York and Chicago demo providers
CARDS_SHOWN: list[int] = []  # result cards a ZIP search showed (the demo has fewer than a page of 20)

# Counts the websocket's bytes (both ways) and times an action to the frame painted after its change.
PAGE_PROBE = """
(() => {
  const Native = window.WebSocket;
  window.__wsBytes = 0;
  const size = (data) => typeof data === "string" ? new TextEncoder().encode(data).length : (data.byteLength || data.size || 0);
  function Counted(url, protocols) {
    const socket = protocols === undefined ? new Native(url) : new Native(url, protocols);
    socket.addEventListener("message", (event) => { window.__wsBytes += size(event.data); });
    const send = socket.send.bind(socket);
    socket.send = (data) => { window.__wsBytes += size(data); return send(data); };
    return socket;
  }
  Counted.prototype = Native.prototype;
  Object.assign(Counted, { CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3 });
  window.WebSocket = Counted;
  // act(): starts the action; done(): true once its change is in the DOM. Resolves with ms to the paint.
  window.__timed = (act, done) => new Promise((resolve) => {
    const start = performance.now();
    const giveUp = setTimeout(() => { observer.disconnect(); resolve(NaN); }, 15000);
    const check = () => {
      if (!done()) return false;
      observer.disconnect();
      clearTimeout(giveUp);
      requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
      return true;
    };
    const observer = new MutationObserver(check);
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    act();
  });
})();
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"server on port {port} exited with {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.2)
    sys.exit(f"server on port {port} did not start")


def start_servers(tmp: Path) -> tuple[subprocess.Popen, str, subprocess.Popen, str]:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp / 'bench.db'}",
        "APP_ENV": "development",
        "REMINDERS_ENABLED": "false",
    }
    env.pop("REDIS_URL", None)
    python = sys.executable
    for command in (["migrate"], ["seed", "--demo"]):
        subprocess.run(
            [python, "-m", "medivisit", *command], env=env, cwd=ROOT, check=True, capture_output=True
        )
    app_port, hello_port = free_port(), free_port()
    log = (tmp / "server.log").open("w")
    app = subprocess.Popen(
        [python, "-m", "medivisit", "serve", "--port", str(app_port)],
        env=env,
        cwd=ROOT,
        stdout=log,
        stderr=log,
    )
    hello = subprocess.Popen(
        [python, str(ROOT / "tools" / "hello_reactpy.py"), "--port", str(hello_port)], cwd=ROOT
    )
    wait_for_port(app_port, app)
    wait_for_port(hello_port, hello)
    return app, f"http://127.0.0.1:{app_port}", hello, f"http://127.0.0.1:{hello_port}"


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def live(page) -> None:  # noqa: ANN001 - a Playwright page
    """Wait until the product's live tree has taken over (or the hello app has rendered)."""
    page.wait_for_function(
        "!document.getElementById('first-paint') && !!document.querySelector('#app > *:not(.boot)')",
        timeout=30_000,
    )


def settled(page) -> None:  # noqa: ANN001 - a Playwright page
    """Wait until the browser has nothing left to do for the page it just loaded (the live tree's first
    drawing, images, fonts): clicks are timed on a loaded page, the hello-world counter's too. Without
    this the first click of a tab also timed the end of the page's own loading (70–160 ms here, the
    later clicks 20–50 ms)."""
    page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestIdleCallback(done, { timeout: 2000 })))"
    )


def first_paint(browser, url: str) -> tuple[float, float]:  # noqa: ANN001
    """(first-contentful-paint, live tree in charge) in ms, in a fresh context."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 800}, service_workers="block", bypass_csp=True
    )
    page = context.new_page()
    page.goto(url)
    live(page)
    # The entry is written after the paint, which may come after the element is in the DOM.
    page.wait_for_function("performance.getEntriesByName('first-contentful-paint').length > 0")
    fcp = page.evaluate("performance.getEntriesByName('first-contentful-paint')[0].startTime")
    ready = page.evaluate("performance.now()")
    context.close()
    return fcp, ready


def quiet_bytes(page, before: int) -> int:  # noqa: ANN001
    """Websocket bytes since `before`, once nothing more has arrived for 300 ms."""
    last = -1
    while True:
        page.wait_for_timeout(300)
        now = page.evaluate("window.__wsBytes")
        if now == last:
            return now - before
        last = now


def timed(page, act: str, done: str) -> tuple[float, int]:  # noqa: ANN001
    before = page.evaluate("window.__wsBytes")
    ms = page.evaluate(f"window.__timed(() => {{ {act} }}, () => {{ {done} }})")
    return ms, quiet_bytes(page, before)


def hello_clicks(page, url: str, clicks: int) -> list[tuple[float, int]]:  # noqa: ANN001
    page.goto(url)
    page.wait_for_selector("#count")
    settled(page)
    results = []
    for n in range(clicks):
        results.append(
            timed(
                page,
                "document.getElementById('count').click()",
                f"return document.getElementById('count').textContent === 'Clicked {n + 1}'",
            )
        )
    return results


def cart_clicks(page, url: str, clicks: int) -> list[tuple[float, int]]:  # noqa: ANN001
    page.goto(url + DEMO_SERVICE)
    live(page)
    settled(page)
    results = []
    for _ in range(clicks):
        badge = page.evaluate("document.querySelector('#app .badge-count')?.textContent ?? ''")
        results.append(
            timed(
                page,
                "[...document.querySelectorAll('#app button')].find((b) => b.textContent.trim() === 'Add to cart').click()",
                f"return (document.querySelector('#app .badge-count')?.textContent ?? '') !== {badge!r}",
            )
        )
        page.keyboard.press("Escape")  # the cart panel opened: close it for the next click
    return results


def search_updates(page, url: str, clicks: int) -> list[tuple[float, int]]:  # noqa: ANN001
    page.goto(f"{url}/find-provider?zip={ZIPS[0]}")
    live(page)
    settled(page)
    results = []
    for n in range(clicks):
        zip_code = ZIPS[(n + 1) % 2]
        first = "document.querySelector('#app .provider-card .provider-name')?.textContent ?? ''"
        shown = page.evaluate(first)  # the first result: a New York or a Chicago provider
        act = (
            "const field = document.querySelector('#app input[name=zip]');"
            "Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(field, "
            f"'{zip_code}');"
            "field.dispatchEvent(new Event('input', { bubbles: true }));"
            "field.form.requestSubmit();"
        )
        done = f"return location.search.includes('zip={zip_code}') && ({first}) !== {shown!r}"
        results.append(timed(page, act, done))
        CARDS_SHOWN.append(page.evaluate("document.querySelectorAll('#app .provider-card').length"))
    return results


def proc_figures(pid: int) -> tuple[int, float]:
    """(resident KiB, CPU seconds) of a process."""
    rss = next(
        int(line.split()[1])
        for line in Path(f"/proc/{pid}/status").read_text().splitlines()
        if line.startswith("VmRSS:")
    )
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return rss, (int(fields[11]) + int(fields[12])) / ticks


def per_tab(browser, pid: int, url: str, tabs: int, ready) -> tuple[float, float]:  # noqa: ANN001
    """(KiB, ms of server CPU) each open tab of `url` costs the server."""
    context = browser.new_context(service_workers="block", bypass_csp=True)
    warm = context.new_page()
    warm.goto(url)
    ready(warm)
    rss_before, cpu_before = proc_figures(pid)
    pages = []
    for _ in range(tabs):
        page = context.new_page()
        page.goto(url)
        ready(page)
        pages.append(page)
    time.sleep(1)  # let the server finish what the opening started
    rss_after, cpu_after = proc_figures(pid)
    context.close()
    return (rss_after - rss_before) / tabs, (cpu_after - cpu_before) * 1000 / tabs


def summary(rounds: list[list[tuple[float, int]]]) -> tuple[float, float, float]:
    """(median of the rounds' p50, median of the rounds' p95, median bytes) of timed actions."""
    p50 = statistics.median(percentile([ms for ms, _ in r], 0.5) for r in rounds)
    p95 = statistics.median(percentile([ms for ms, _ in r], 0.95) for r in rounds)
    size = statistics.median(b for r in rounds for _, b in r)
    return p50, p95, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--clicks", type=int, default=7)
    parser.add_argument("--tabs", type=int, default=30)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="medivisit-bench-pages-") as tmp:
        app, app_url, hello, hello_url = start_servers(Path(tmp))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM)
                report(browser, args, app, app_url, hello, hello_url)
                browser.close()
        finally:
            for process in (app, hello):
                process.terminate()
                process.wait(timeout=30)


def report(browser, args, app, app_url, hello, hello_url) -> None:  # noqa: ANN001, PLR0913
    print("First paint (fresh browser context, medians of", args.rounds, "rounds)")
    hello_fcp = statistics.median(first_paint(browser, hello_url)[0] for _ in range(args.rounds))
    print(f"  hello-world ReactPy page      FCP {hello_fcp:6.0f} ms")
    for path in ("/", "/services", "/find-provider"):
        figures = [first_paint(browser, app_url + path) for _ in range(args.rounds)]
        fcp = statistics.median(f for f, _ in figures)
        ready = statistics.median(r for _, r in figures)
        print(f"  {path:<29} FCP {fcp:6.0f} ms = {fcp / hello_fcp:4.2f}× hello; live tree at {ready:5.0f} ms")

    def in_a_new_visitors_tab(measure, url: str) -> list[tuple[float, int]]:  # noqa: ANN001
        """A fresh context per round: a new visitor with an empty cart (a cart holds at most so many visits)."""
        context = browser.new_context(
            viewport={"width": 1280, "height": 800}, service_workers="block", bypass_csp=True
        )
        context.add_init_script(PAGE_PROBE)
        try:
            return measure(context.new_page(), url, args.clicks)
        finally:
            context.close()

    hello_rounds = [in_a_new_visitors_tab(hello_clicks, hello_url) for _ in range(args.rounds)]
    cart_rounds = [in_a_new_visitors_tab(cart_clicks, app_url) for _ in range(args.rounds)]
    search_rounds = [in_a_new_visitors_tab(search_updates, app_url) for _ in range(args.rounds)]
    h50, h95, hbytes = summary(hello_rounds)
    print(f"\nClicks to the painted change ({args.clicks} per round, medians of {args.rounds} rounds)")
    print(f"  hello-world counter           p50 {h50:5.1f} ms  p95 {h95:5.1f} ms  {hbytes / 1024:5.1f} KB")
    search = f"ZIP search ({statistics.median(CARDS_SHOWN):.0f} results)"
    targets = {"Add to cart": 10, search: 40}
    for name, rounds in (("Add to cart", cart_rounds), (search, search_rounds)):
        p50, p95, size = summary(rounds)
        print(
            f"  {name:<29} p50 {p50:5.1f} ms  p95 {p95:5.1f} ms = {p95 / h95:4.1f}× hello  "
            f"{size / 1024:5.1f} KB  (targets: p95 ≤ 50 ms and ≤ 6× hello, ≤ {targets[name]} KB)"
        )

    print(f"\nServer cost per open tab ({args.tabs} tabs)")
    for name, pid, url, target in (
        ("hello-world", hello.pid, hello_url, None),
        ("/", app.pid, app_url + "/", 150),
        ("/find-provider", app.pid, app_url + "/find-provider", 300),
    ):
        wait_ready = (lambda p: p.wait_for_selector("#count")) if target is None else live
        kib, cpu_ms = per_tab(browser, pid, url, args.tabs, wait_ready)
        goal = f"  (target ≤ {target} KiB)" if target else ""
        print(f"  {name:<29} {kib:7.0f} KiB  {cpu_ms:6.1f} ms CPU to open{goal}")


if __name__ == "__main__":
    main()
