"""Static assets: versioned URLs are cached for a year, the rest revalidate, and text is sent gzipped —
only the assets, never an API answer."""

from __future__ import annotations

import re

from medivisit.main import asset_version


async def _asset_links(client) -> list[str]:  # noqa: ANN001
    page = await client.get("/")
    return re.findall(r'(?:href|src)="(/(?:static|_reactpy/assets)/[^"]+)"', page.text)


async def test_every_linked_asset_is_versioned_and_cached_as_immutable(client) -> None:
    links = await _asset_links(client)
    assert any(link.startswith("/static/css/app.css?v=") for link in links)
    stylesheets_and_scripts = [link for link in links if re.match(r"/static/.*\.(css|js)\?", link)]
    assert len(stylesheets_and_scripts) >= 10
    for link in stylesheets_and_scripts:
        assert f"v={asset_version()}" in link, link
        response = await client.get(link)
        assert response.status_code == 200, link
        assert response.headers["cache-control"] == "public, max-age=31536000, immutable", link


async def test_an_unversioned_or_outdated_url_revalidates(client) -> None:
    for url in ("/static/css/app.css", "/static/css/app.css?v=old"):
        response = await client.get(url)
        assert response.headers["cache-control"] == "no-cache"
        assert response.headers["etag"]


async def test_css_and_the_react_client_are_gzipped_when_the_browser_accepts_it(client) -> None:
    bundle = next(link for link in await _asset_links(client) if link.startswith("/_reactpy/assets/"))
    for url in (f"/static/css/app.css?v={asset_version()}", bundle):
        plain = await client.get(url, headers={"Accept-Encoding": "identity"})
        packed = await client.get(url, headers={"Accept-Encoding": "gzip"})
        assert "content-encoding" not in plain.headers
        assert packed.headers["content-encoding"] == "gzip"
        assert int(packed.headers["content-length"]) < len(plain.content) / 2
        assert packed.content == plain.content  # httpx decodes it: the same file


async def test_api_answers_are_never_compressed(client) -> None:
    response = await client.get("/auth/v1/settings", headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200 and "content-encoding" not in response.headers
