"""Neo4j Browser, as `make neo4j-up` serves it, driven the way a person uses it: connect with the
password, find a slide of Hippograph's guide in the sidebar, type its parameters into the slide's
fields, click the play icons of its ``:param`` line and of its query. For the Browser test and for
bench/neo4j_browser_screenshot.py."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit


def loopback_only(context: Any, refused: list[str]) -> None:
    """Let ``context`` reach loopback only (Browser's page, its Bolt WebSocket and the guide); what
    Browser asks of the internet (web fonts, telemetry) is refused and listed in ``refused``."""

    def route(route: Any) -> None:
        if urlsplit(route.request.url).hostname in {"127.0.0.1", "localhost"}:
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    context.route("**/*", route)


def connect(page: Any, browser_url: str, bolt_uri: str, user: str, password: str) -> Any:
    """Log in on Browser's connect form; return the guide drawer that Browser opens once connected
    (the server's ``browser.post_connect_cmd``)."""
    page.goto(f"{browser_url}?dbms=bolt://{user}@{urlsplit(bolt_uri).netloc}")
    page.get_by_test_id("username").fill(user)
    page.get_by_test_id("password").fill(password)
    page.get_by_test_id("connect").click()
    drawer = page.get_by_test_id("guidesDrawer")
    drawer.get_by_text("One slide per file").wait_for()
    return drawer


def run_slide(page: Any, drawer: Any, query: str, values: dict[str, str]) -> Any:
    """Go to the slide of ``query`` (a file name of cypher/browser/, without .cypher), type
    ``values`` into its fields, run its :param line and its query; return the query's frame."""
    title = query.replace("_", " ").capitalize()
    while not drawer.locator("h3", has_text=title).is_visible():
        drawer.get_by_text("Next", exact=True).click()
    for name, value in values.items():
        field = drawer.locator(f"input[value-for='{query}-{name}']")
        field.fill("")
        field.press_sequentially(value)  # Browser copies the field into the :param line on keyup
    parameters = drawer.locator("pre.runnable.parameters")
    if values:
        parameters.get_by_text(next(iter(values.values()))).wait_for()
        parameters.locator("i").click()
        page.get_by_test_id("rawParamData").first.wait_for()
    statement = drawer.locator("pre.runnable.query")
    first_line = statement.inner_text().strip().splitlines()[0]
    statement.locator("i").click()
    return page.get_by_test_id("frame").filter(has=page.get_by_test_id("frameCommand").filter(has_text=first_line))


def caption_nodes(page: Any, drawer: Any) -> None:
    """Run the guide's :style line (on its first slide): nodes captioned with what they say."""
    drawer.locator("pre.runnable.style i").click()
    page.get_by_test_id("frameCommand").filter(has_text=":style").first.wait_for()
