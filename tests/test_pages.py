"""The browser pages over plain HTTP: served without a key, self-contained, under a strict CSP,
their assets typed and licensed, nothing listed, the Host and Origin checks unchanged."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from support.asgi import InProcess

from hippograph.api.pages import STATIC

HTML = {"Accept": "text/html"}


def get(app: InProcess, path: str, **headers: str) -> httpx.Response:
    with app.http() as http:
        return http.get(path, headers=headers)


@pytest.fixture(scope="module", params=["/explore", "/graphql"])
def page_path(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_a_page_opens_without_a_key_under_a_self_only_policy(app: InProcess, page_path: str) -> None:
    response = get(app, page_path, **HTML)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    policy = dict(part.strip().split(" ", 1) for part in response.headers["content-security-policy"].split(";"))
    assert policy["default-src"] == "'none'"
    assert policy["script-src"] == policy["style-src"] == policy["connect-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"


def test_a_page_loads_nothing_from_elsewhere_and_holds_no_inline_code(app: InProcess, page_path: str) -> None:
    html = re.sub(r"<!--.*?-->", "", get(app, page_path, **HTML).text, flags=re.DOTALL)
    assert "//" not in html  # no URL with a host of its own
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == []
    assert re.findall(r"<style|\sstyle=|\son[a-z]+=", html) == []


def test_every_asset_a_page_names_is_served_with_its_type(app: InProcess, page_path: str) -> None:
    html = get(app, page_path, **HTML).text
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', html)
    assert any(asset.endswith(".js") for asset in assets) and any(asset.endswith(".css") for asset in assets)
    # Browsers run a module only when it comes with a JavaScript type (the system's MIME table may
    # name either), and apply a stylesheet only as text/css.
    types = {".js": {"text/javascript", "application/javascript"}, ".css": {"text/css"}, ".svg": {"image/svg+xml"}}
    for asset in assets:
        response = get(app, asset)
        assert response.status_code == 200, asset
        assert response.headers["content-type"].split(";")[0] in types[Path(asset).suffix], asset
        assert response.headers["x-content-type-options"] == "nosniff"


def test_modules_the_scripts_import_are_served(app: InProcess) -> None:
    for script in sorted(STATIC.glob("*.js")):
        for module in re.findall(r'from "\./([^"]+)"', script.read_text(encoding="utf-8")):
            assert get(app, f"/static/{module}").status_code == 200, (script.name, module)


def test_every_vendored_package_keeps_its_licence() -> None:
    packages = sorted((STATIC / "vendor").iterdir())
    assert {package.name.rsplit("-", 1)[0] for package in packages} >= {"graphiql", "react", "react-dom", "cytoscape"}
    for package in packages:
        assert re.fullmatch(r"[a-z-]+-\d+\.\d+\.\d+", package.name), package.name  # an exact version
        assert (package / "LICENSE").read_text(encoding="utf-8").strip(), package.name


@pytest.mark.parametrize(
    "path", ["/static/", "/static/vendor/", "/static/vendor/graphiql-4.1.2/", "/static/%2e%2e/pages.py"]
)
def test_no_directory_is_listed_and_nothing_outside_static_is_served(app: InProcess, path: str) -> None:
    response = get(app, path)
    assert response.status_code == 404
    assert "graphiql" not in response.text and "import" not in response.text


def test_the_pages_keep_the_host_and_origin_checks(app: InProcess, page_path: str) -> None:
    assert get(app, page_path, Host="attacker.example", **HTML).status_code == 400
    assert get(app, "/static/explore.js", Host="attacker.example").status_code == 400
    assert get(app, page_path, Origin="https://attacker.example", **HTML).status_code == 403


def test_api_answers_carry_the_headers_too(app: InProcess, admin_secret: str) -> None:
    auth = {"Authorization": f"Bearer {admin_secret}"}
    response = app.http().post("/graphql", json={"query": "{ __typename }"}, headers=auth)
    assert response.json() == {"data": {"__typename": "Query"}}
    assert response.headers["x-content-type-options"] == "nosniff"
    assert "default-src 'none'" in response.headers["content-security-policy"]
