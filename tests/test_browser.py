"""GraphiQL and the explorer in a real headless Chromium (Debian's), against the real server, with
every request to anywhere else refused: the pages work offline, under their CSP, with a key. And
Neo4j Browser, as `make neo4j-up` serves it, running a ready query from Hippograph's guide."""

from __future__ import annotations

import contextlib
import html
import os
import re
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import neo4j
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect, sync_playwright
from support.asgi import Server
from support.client import GraphQLClient, wait_until_known
from support.neo4j_browser import connect, loopback_only, run_slide
from support.operations import capture_turns
from support.own_store import store_of_its_own
from support.processes import eventually, serve_process

from hippograph.access import KeyRole, create_key
from hippograph.consolidation.worker import consolidate
from hippograph.runtime import Runtime

# Chromium through Playwright, and servers of their own: the process tier.
pytestmark = pytest.mark.process

REPO = Path(__file__).resolve().parents[1]
WAIT_MS = 120_000
expect.set_options(timeout=WAIT_MS)

FAMILY = ("Caroline", "Caroline: My mom Linda lives in Tampa.", "2022-03-01T10:10:00Z")
STORY = [
    ("Caroline", "Caroline: I live in Denver with my two cats.", "2022-03-01T10:00:00Z"),
    ("Melanie", "Melanie: I work at Google as a nurse consultant.", "2022-03-01T10:05:00Z"),
    ("Caroline", "Caroline: Big news, I moved to Boston last week!", "2023-06-01T09:00:00Z"),
]


def chromium_path() -> str | None:
    return os.environ.get("HIPPOGRAPH_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")


def unavailable(reason: str) -> None:
    """CI installs Chromium (.ci/run), so there a missing browser is a failure, not a skip."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason} (CI=true: browser tests must run)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = chromium_path()
    if executable is None:
        unavailable("no chromium binary (apt-get install chromium, or set HIPPOGRAPH_CHROMIUM)")
    with sync_playwright() as playwright:
        # The system Chromium: Playwright never downloads a browser here.
        browser = playwright.chromium.launch(executable_path=executable, headless=True)
        yield browser
        browser.close()


@dataclass
class Watched:
    """A page, and what went wrong in it: requests that left the server, errors in its console
    (CSP violations are reported there) and uncaught exceptions."""

    page: Any
    left_the_server: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)

    def problems(self) -> list[str]:
        return [*(f"request outside the server: {url}" for url in self.left_the_server), *self.console_errors]


@contextlib.contextmanager
def watching(browser: Any, server: str) -> Iterator[Watched]:
    """A fresh browser context whose requests may reach ``server`` only; it must end clean."""
    context = browser.new_context(viewport={"width": 1400, "height": 850})
    # A deadline, not a timing: on a loaded machine a cold server may take a while to answer.
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    watched = Watched(page)

    def only_the_server(route: Any) -> None:
        if route.request.url.startswith(f"{server}/"):
            route.continue_()
        else:
            watched.left_the_server.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_server)
    page.on("console", lambda message: message.type == "error" and watched.console_errors.append(message.text))
    page.on("pageerror", lambda error: watched.console_errors.append(f"uncaught: {error}"))
    try:
        yield watched
    finally:
        context.close()
    assert watched.problems() == []


@pytest.fixture
def watched(browser: Any, server: Server) -> Iterator[Watched]:
    with watching(browser, server.url) as watched:
        yield watched


@pytest.fixture(scope="module")
def keyless_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``hippograph serve`` on a store of its own that has no key (under Neo4j a second Neo4j,
    support/own_store.py): it serves its loopback user."""
    directory = tmp_path_factory.mktemp("keyless")
    with store_of_its_own(directory) as own:
        # It consolidates in its own process, whose models serve loads anyway: derive processes
        # would each load them again (the suite's own server derives in a pool of them).
        env = {**own, "HIPPOGRAPH_CONSOLIDATION_PROCESSES": "0"}
        process, url = serve_process(directory / "data", directory / "serve.log", env)
        try:
            yield url
        finally:
            process.terminate()
            process.wait(timeout=60)


def use_key(page: Any, secret: str) -> None:
    page.fill("#key-form input[type=password]", secret)
    page.click("#key-form button[type=submit]")
    assert page.inner_text("#key-form .key-status").startswith("key in use")
    # With the key the page lists the namespaces and may fill the field with one: wait for that
    # before typing, or the typing and the page's filling interleave.
    listed = page.locator("#namespace-list option").or_(page.locator("#message:not([hidden])"))
    listed.first.wait_for(state="attached")


def test_graphiql_renders_offline_runs_a_query_and_subscribes(
    watched: Watched, server: Server, admin_secret: str, runtime: Runtime, gql: GraphQLClient, namespace: str
) -> None:
    page = watched.page
    # The key goes in on the explorer, which sends nothing until asked; it follows the user to
    # GraphiQL (sessionStorage) before GraphiQL's first request, its schema introspection.
    page.goto(f"{server.url}/explore")
    use_key(page, admin_secret)
    page.click("a[href='/graphql']")
    page.wait_for_selector(".graphiql-container .graphiql-query-editor .CodeMirror")
    # The schema arrived over the keyed fetcher: the doc explorer lists the root types.
    page.click("button[aria-label='Show Documentation Explorer']")
    page.wait_for_selector(".graphiql-doc-explorer >> text=Query")

    page.click(".graphiql-execute-button")
    response = page.locator(".graphiql-response .CodeMirror")
    response.locator("text=consolidated").wait_for()
    assert f'"backend": "{runtime.store.dialect.name}"' in response.inner_text()

    # A subscription runs over this server's WebSocket, keyed in connection_init, under the CSP.
    # GraphiQL names the tab after the operation once it has parsed the new text.
    subscription = f'subscription Events {{ memoryEvents(namespace: "{namespace}") {{ kind id }} }}'
    page.evaluate(
        "text => document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror.setValue(text)", subscription
    )
    page.locator(".graphiql-tab", has_text="Events").wait_for()
    page.click(".graphiql-execute-button")
    assert subscription_sees_a_capture(page, gql, namespace)

    # The key is in this tab's sessionStorage, never in localStorage or the URL.
    assert admin_secret not in page.url
    assert admin_secret not in page.evaluate("JSON.stringify(Object.assign({}, localStorage))")
    assert page.evaluate("sessionStorage.getItem('hippograph.key')") == admin_secret


def subscription_sees_a_capture(page: Any, gql: GraphQLClient, namespace: str) -> bool:
    """Captures until one shows in GraphiQL's response: the first may precede the subscription."""
    captured = []
    for attempt in range(20):
        turn = ("Caroline", f"Caroline: I adopted cat number {attempt}.", "2024-01-02T10:00:00Z")
        captured += capture_turns(gql, namespace, [turn], session="s1")
        try:
            page.locator(".graphiql-response .CodeMirror", has_text="CREATED").wait_for(timeout=5000)
        except PlaywrightTimeout:
            continue
        return any(id in page.inner_text(".graphiql-response") for id in captured)
    return False


def open_entity(page: Any, name: str) -> None:
    """Search the name and open the entity; a failed search names the error the page shows."""
    page.fill("#search", name)
    page.click("#search-form button[type=submit]")
    found = page.locator("#entity-list button.entity", has_text=name).or_(page.locator("#message:not([hidden])"))
    found.first.wait_for()
    assert page.locator("#message").is_hidden(), page.inner_text("#message")
    page.locator("#entity-list button.entity", has_text=name).first.click()


def seed(gql: GraphQLClient, namespace: str) -> None:
    capture_turns(gql, namespace, STORY, session="s1")
    assert gql.data("consolidate", namespace=namespace, limit=100)["consolidate"]["failed"] == 0
    wait_until_consolidated(gql, namespace)


def wait_until_consolidated(gql: GraphQLClient, namespace: str) -> None:
    """A served store also consolidates in the background (as may another server on a shared
    Neo4j), and may hold some of the episodes when asked: they are ready once none is raw or leased."""

    def consolidated() -> bool:
        status = gql.data("status", namespace=namespace)["status"]
        return status["raw"] == status["leased"] == status["failed"] == 0

    eventually(consolidated, within_s=120)


def graph_names(page: Any) -> list[str]:
    return sorted(page.evaluate("explorer.graph.nodes().map(node => node.data('name'))"))


def click_in_graph(page: Any, selector_js: str) -> None:
    """A real mouse click on the canvas, where Cytoscape drew the element ``selector_js`` picks."""
    x, y = page.evaluate(
        f"""() => {{
            const element = {selector_js};
            const point = element.isNode() ? element.renderedPosition() : element.renderedMidpoint();
            const box = explorer.graph.container().getBoundingClientRect();
            return [box.left + point.x, box.top + point.y];
        }}"""
    )
    page.mouse.click(x, y)


def test_the_explorer_searches_draws_follows_and_moves_in_time(
    watched: Watched, server: Server, admin_secret: str, gql: GraphQLClient, namespace: str
) -> None:
    capture_turns(gql, namespace, [FAMILY], session="s0")
    seed(gql, namespace)
    page = watched.page
    page.goto(f"{server.url}/explore")
    use_key(page, admin_secret)
    # (Playwright's wait_for_function would evaluate strings, which the pages' CSP forbids: the
    # waits below look at the DOM instead.)
    page.fill("#namespace", namespace)
    open_entity(page, "Caroline")
    expect(page.locator("#entity-name")).to_have_text("Caroline")
    page.wait_for_selector("#edge-list li.edge")

    # The graph holds what the API says surrounds her now.
    caroline = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('entity')")
    hood = gql.data("neighborhood", namespace=namespace, entityId=caroline, depth=1)["neighborhood"]
    assert graph_names(page) == sorted(node["name"] for node in hood["nodes"])
    assert "Boston" in graph_names(page) and "Denver" not in graph_names(page)
    assert "LIVES_IN" in page.inner_text("#edge-list li.edge[data-type=LIVES_IN]")

    # "Linda PARENT_OF Caroline", stored once, reads from her end as its inverse, with its strength.
    mother = page.locator("#edge-list li.edge[data-type=PARENT_OF]")
    assert mother.get_attribute("data-reading") == "CHILD_OF"
    assert "—CHILD_OF→ Linda" in mother.inner_text() and "strength 0." in mother.inner_text()
    mother.locator("button.edge-info").click()
    detail = page.locator("#edge-detail")
    expect(detail.locator(".inverse")).to_have_text("read from Caroline: Caroline —CHILD_OF→ Linda")
    assert "1 supporting episode(s), last 2022-03-01" in detail.locator(".strength").inner_text()

    # Her facts, with validity intervals and the episodes they come from.
    denver = page.locator("#fact-list li.fact", has_text="Denver")
    # "I moved to Boston last week", said on 1 June 2023: the move, and Denver's end, is the week of 22 May.
    assert "valid 2022-03-01 – 2023-05-22" in denver.inner_text()
    assert denver.get_attribute("data-holds") == "false"
    denver.locator("summary").click()
    assert "I live in Denver with my two cats." in denver.locator(".episode").inner_text()

    # Clicking the edge on the canvas shows the fact it mirrors, down to its episode.
    click_in_graph(page, "explorer.graph.edges().filter(edge => edge.data('label') === 'LIVES_IN')[0]")
    detail = page.locator("#edge-detail")
    detail.locator("li.fact").wait_for()
    assert "Boston" in detail.locator(".statement").inner_text()
    detail.locator("summary").click()
    assert "I moved to Boston last week!" in detail.locator(".episode").inner_text()

    # Back in 2022 she lived in Denver: the graph, the edges and the facts say so.
    page.fill("#as-of", "2022-12-31")
    page.dispatch_event("#as-of", "change")
    expect(page.locator("#entity-meta")).to_contain_text("as of 2022-12-31")
    assert "Denver" in graph_names(page) and "Boston" not in graph_names(page)
    assert page.locator("#fact-list li.fact", has_text="Denver").get_attribute("data-holds") == "true"

    # Following the edge centres the explorer on Denver, where Caroline is the neighbour...
    page.click("#edge-list li.edge[data-type=LIVES_IN] button.follow")
    expect(page.locator("#entity-name")).to_have_text("Denver")
    assert "Caroline" in page.inner_text("#edge-list")
    assert page.evaluate("explorer.graph.nodes('.centre').data('name')") == "Denver"
    # ...and a click on her node in the canvas goes back to her, still in 2022.
    click_in_graph(page, "explorer.graph.nodes().filter(node => node.data('name') === 'Caroline')[0]")
    expect(page.locator("#entity-name")).to_have_text("Caroline")
    assert "as of 2022-12-31" in page.inner_text("#entity-meta")
    assert admin_secret not in page.url


def test_the_explorer_opens_on_the_keys_namespace_and_says_when_one_holds_nothing(
    watched: Watched, server: Server, admin_secret: str, gql: GraphQLClient, runtime: Runtime, namespace: str
) -> None:
    capture_turns(gql, namespace, STORY[:2], session="s1")
    secret = create_key(runtime.store, f"explorer-{uuid.uuid4().hex[:8]}", KeyRole.READER, [namespace]).secret
    wait_until_known(server, secret)
    page = watched.page
    page.goto(f"{server.url}/explore")
    use_key(page, secret)
    expect(page.locator("#namespace")).to_have_value(namespace)
    assert page.evaluate("[...document.querySelectorAll('#namespace-list option')].map(o => o.value)") == [namespace]

    # A namespace that holds nothing (a typo) is named as such, not met with an empty list alone.
    use_key(page, admin_secret)
    page.goto(f"{server.url}/explore#ns={namespace}-typo")
    expect(page.locator("#namespace")).to_have_value(f"{namespace}-typo")
    page.click("#search-form button[type=submit]")
    expect(page.locator("#message")).to_contain_text(f"namespace '{namespace}-typo' holds nothing")


def test_both_pages_work_without_a_key_on_a_keyless_loopback_server(browser: Any, keyless_server: str) -> None:
    local = GraphQLClient(keyless_server)  # no Authorization header at all
    seed(local, "default")
    with watching(browser, keyless_server) as watched:
        page = watched.page
        page.goto(f"{keyless_server}/explore")
        assert page.inner_text("#key-form .key-status").startswith("no key")
        open_entity(page, "Caroline")
        expect(page.locator("#entity-name")).to_have_text("Caroline")
        page.locator("#edge-list li.edge[data-type=LIVES_IN]", has_text="Boston").wait_for()
        assert "Boston" in graph_names(page)

        page.click("a[href='/graphql']")
        page.wait_for_selector(".graphiql-container .graphiql-query-editor .CodeMirror")
        page.click(".graphiql-execute-button")
        page.locator(".graphiql-response .CodeMirror", has_text="consolidated").wait_for()
        assert '"raw": 0' in page.inner_text(".graphiql-response")


def test_the_explorer_shows_concepts_as_the_api_does(
    watched: Watched, server: Server, admin_secret: str, gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    capture_turns(gql, namespace, STORY, session="s1")
    # In the server's own process (the served runtime): on a loaded machine, loading the models
    # inside a consolidate request can outlast the client's timeout, and that is not tested here.
    consolidate(runtime, namespace=namespace)
    page = watched.page
    page.goto(f"{server.url}/explore")
    use_key(page, admin_secret)
    page.fill("#namespace", namespace)

    # A search lists the concepts whose names match (all of them, most episodes first, when the
    # search is empty), as the API does.
    page.click("#search-form button[type=submit]")
    page.locator("#concept-list button.concept").first.wait_for()
    listed = gql.data("concepts", namespace=namespace, first=30)["concepts"]["edges"]
    expected = [edge["node"] for edge in listed]
    # "nurse consultant" is a name here (Melanie works as one), so it is no concept.
    assert {node["name"] for node in expected} == {"cat", "nurse", "consultant"}
    assert page.locator("#concept-list button.concept").evaluate_all("bs => bs.map(b => b.dataset.id)") == [
        node["id"] for node in expected
    ]

    # Its view lists the memories that meet there, and the canvas the concepts they also mention.
    page.locator("#concept-list button.concept", has_text="nurse").click()
    expect(page.locator("#entity-name")).to_have_text("nurse")
    concept = page.evaluate("new URLSearchParams(location.hash.slice(1)).get('concept')")
    meet = gql.data("conceptMemories", namespace=namespace, conceptId=concept, first=100)["conceptMemories"]["edges"]
    memories = [edge["node"] for edge in meet]
    assert {m["__typename"] for m in memories} == {"Episode", "Fact"}
    expect(page.locator("#fact-list > li")).to_have_count(len(memories))
    shown = page.locator("#fact-list > li").evaluate_all("items => items.map(item => item.dataset.id)")
    assert shown == [m["id"] for m in memories]
    others = {c["name"] for m in memories for c in m["concepts"]}
    assert graph_names(page) == sorted(others)
    assert page.evaluate("explorer.graph.nodes('.centre').data('name')") == "nurse"

    # Before anything was said there, nothing met at it.
    page.fill("#as-of", "2022-01-01")
    page.dispatch_event("#as-of", "change")
    expect(page.locator("#entity-meta")).to_contain_text("as of 2022-01-01")
    expect(page.locator("#fact-list > li")).to_have_count(0)

    # A memory's concepts lead to their own views: Caroline's Denver fact is about her cats.
    page.click("#now")
    open_entity(page, "Caroline")
    expect(page.locator("#entity-name")).to_have_text("Caroline")
    denver = page.locator("#fact-list li.fact", has_text="Denver")
    assert "cat" in denver.locator(".about").first.inner_text()
    denver.locator(".about button.concept-link", has_text="cat").first.click()
    expect(page.locator("#entity-name")).to_have_text("cat")
    assert "I live in Denver with my two cats." in page.inner_text("#fact-list")
    assert watched.problems() == []


def test_the_neo4j_browser_guide_holds_every_ready_query_word_for_word(tmp_path: Path) -> None:
    """`make neo4j-up` writes the guide with this command; Browser shows it in its sidebar."""
    subprocess.run(
        [sys.executable, str(REPO / "tools" / "neo4j" / "browser_guide.py"), "--dir", str(tmp_path)], check=True
    )
    page = (tmp_path / "hippograph.html").read_text(encoding="utf-8")
    shown = [html.unescape(code) for code in re.findall(r'<pre class="runnable query">(.*?)</pre>', page, re.DOTALL)]
    files = sorted((REPO / "cypher" / "browser").glob("*.cypher"))
    statements = [
        "\n".join(line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("//")).strip()
        for path in files
    ]
    assert sorted(shown) == sorted(statements)
    # Every parameter a query takes has a field on its slide, which fills its :param line.
    for path, statement in zip(files, statements, strict=True):
        for name in set(re.findall(r"\$(\w+)", statement)):
            assert f'<input value-for="{path.stem}-{name}"' in page
            assert f'<span value-key="{path.stem}-{name}">' in page


def test_neo4j_browser_runs_a_ready_query_from_the_guide(
    browser: Any, gql: GraphQLClient, namespace: str, runtime: Runtime
) -> None:
    """Neo4j Browser from `make neo4j-up`, offline: log in with the generated password, open the
    guide's slide, set its parameters, run its query; the graph drawn is the query's result."""
    browser_url = os.environ.get("NEO4J_BROWSER_URL")
    if not browser_url:
        pytest.skip(
            "NEO4J_BROWSER_URL is unset: Neo4j Browser comes with `make neo4j-up`'s Neo4j (. .neo4j/env); the "
            "embedded store has none, and test_concepts.py runs the same ready queries over its Bolt endpoint"
        )
    bolt, user, password = os.environ["NEO4J_URI"], os.environ.get("NEO4J_USER", "neo4j"), os.environ["NEO4J_PASSWORD"]
    capture_turns(gql, namespace, STORY, session="s1")
    consolidate(runtime, namespace=namespace)  # in the server's process, as the concepts test does
    wait_until_consolidated(gql, namespace)
    parameters = {"namespace": namespace, "name": "Caroline"}
    statement = (REPO / "cypher" / "browser" / "entity_neighborhood.cypher").read_text(encoding="utf-8")
    with neo4j.GraphDatabase.driver(bolt, auth=(user, password)) as driver:
        records, _, _ = driver.execute_query(statement, parameters, database_=os.environ.get("NEO4J_DATABASE"))
    # Browser labels each node it draws with the node's id (the last part of its element id).
    expected = {f"graph-node{node.element_id.rsplit(':', 1)[-1]}" for r in records for node in r["path"].nodes}
    assert len(expected) > 1

    context = browser.new_context(viewport={"width": 1400, "height": 850})
    context.set_default_timeout(WAIT_MS)
    refused: list[str] = []
    loopback_only(context, refused)
    try:
        page = context.new_page()
        drawer = connect(page, browser_url, bolt, user, password)
        frame = run_slide(page, drawer, "entity_neighborhood", parameters)
        expect(frame.get_by_text(f"Displaying {len(expected)} nodes")).to_be_visible()
        # The count is written before the drawing is: wait for the nodes themselves.
        expect(frame.locator("g.node")).to_have_count(len(expected))
        drawn = frame.locator("g.node").evaluate_all("nodes => nodes.map(node => node.getAttribute('aria-label'))")
        assert set(drawn) == expected, (sorted(drawn), sorted(expected))
        expect(frame.locator("g.node text.caption", has_text="Caroline").first).to_be_visible()
        expect(frame.locator("g.node text.caption", has_text="Boston").first).to_be_visible()
    finally:
        context.close()
