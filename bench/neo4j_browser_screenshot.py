"""docs/browser.md's picture of Neo4j Browser: one LoCoMo conversation captured into a Hippograph
that runs on `make neo4j-up`'s Neo4j, consolidated, and one ready query of cypher/browser/ run from
Hippograph's guide in Browser's sidebar, photographed in headless Chromium (Debian's, through
Playwright).

    make neo4j-up && . .neo4j/env && hippograph serve          # in another shell: Hippograph on it
    python bench/neo4j_browser_screenshot.py [--url http://127.0.0.1:8420] [--conversation conv-26]
        [--query concept_memories] [--param key=pottery] [--zoom 2] [--out docs/img/neo4j-browser.png]

Neo4j Browser's address and password come from .neo4j/env (NEO4J_BROWSER_URL, NEO4J_URI,
NEO4J_USER, NEO4J_PASSWORD). The namespace is locomo-<conversation>, as for the explorer's picture
(bench/explorer_screenshot.py), whose seeding this reuses: capturing the same conversation again
stores nothing new, so the script can be rerun. With pngquant installed the picture is quantized.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
from explorer_screenshot import seed
from harness import REPO
from playwright.sync_api import expect, sync_playwright

sys.path.insert(0, str(REPO / "tests"))
from support.neo4j_browser import caption_nodes, connect, loopback_only, run_slide

# Headless and quiet: no updates, no sync, nothing in the background.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def photograph(namespace: str, query: str, values: dict[str, str], zoom: int, out: Path) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1400, "height": 800})
        context.set_default_timeout(120_000)
        loopback_only(context, [])
        page = context.new_page()
        drawer = connect(
            page,
            os.environ["NEO4J_BROWSER_URL"],
            os.environ["NEO4J_URI"],
            os.environ.get("NEO4J_USER", "neo4j"),
            os.environ["NEO4J_PASSWORD"],
        )
        caption_nodes(page, drawer)
        frame = run_slide(page, drawer, query, {"namespace": namespace, **values})
        expect(frame.get_by_text("Displaying")).to_be_visible(timeout=120_000)
        frame.get_by_label("Collapse the node properties display").click()  # the graph gets the width
        for _ in range(zoom):
            frame.get_by_label("zoom-in").click()
        page.wait_for_timeout(3000)  # the force layout settles
        # A click may have scrolled the stream under the editor: back to its top, the newest frame.
        page.evaluate("document.querySelectorAll('*').forEach(element => { element.scrollTop = 0 })")
        page.screenshot(path=str(out))
        browser.close()
    if shutil.which("pngquant"):
        subprocess.run(
            ["pngquant", "--quality", "70-90", "--speed", "1", "--force", "--output", str(out), str(out)], check=True
        )
    print(f"{out}: {out.stat().st_size} bytes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:8420", help="the Hippograph server on that Neo4j")
    parser.add_argument("--conversation", default="conv-26")
    parser.add_argument("--query", default="concept_memories", help="a file of cypher/browser/, without .cypher")
    parser.add_argument("--param", action="append", default=[], metavar="NAME=VALUE", help="besides the namespace")
    parser.add_argument("--zoom", type=int, default=2, help="clicks on the graph's zoom-in button")
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "img" / "neo4j-browser.png")
    args = parser.parse_args()
    values = dict(item.split("=", 1) for item in args.param)  # the others keep the guide's examples
    key = os.environ.get("HIPPOGRAPH_KEY")
    namespace = f"locomo-{args.conversation}"
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    with httpx.Client(base_url=args.url, headers=headers, timeout=600) as client:
        seed(client, namespace, args.conversation)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    photograph(namespace, args.query, values, args.zoom, args.out)


if __name__ == "__main__":
    main()
