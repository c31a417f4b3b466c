"""The README's picture of the explorer: one LoCoMo conversation captured into a running server,
consolidated, and /explore photographed in headless Chromium (Debian's, through Playwright).

    python bench/explorer_screenshot.py [--url http://127.0.0.1:8420] [--conversation conv-26]
                                        [--entity Caroline] [--as-of 2023-10-01] [--hops 2]
                                        [--out docs/img/explorer.png]

With API keys on the server, put one in HIPPOGRAPH_KEY. Capturing the same conversation again
stores nothing new (duplicates), so the script can be rerun. When pngquant is installed
(apt-get install pngquant) the picture is quantized to about a third of its size.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
from pathlib import Path

import httpx
from harness import OPERATIONS, REPO, load_turns, locomo_dev
from playwright.sync_api import expect, sync_playwright

BATCH = 64


def graphql(client: httpx.Client, operation: str, **variables: object) -> dict:
    body = client.post(
        "/graphql", json={"query": (OPERATIONS / f"{operation}.graphql").read_text(), "variables": variables}
    )
    body.raise_for_status()
    payload = body.json()
    if payload.get("errors"):
        raise SystemExit(f"{operation}: {payload['errors'][0]['message']}")
    return payload["data"]


def seed(client: httpx.Client, namespace: str, conversation: str) -> None:
    samples = [s for s in json.loads(locomo_dev().read_text()) if s["sample_id"] == conversation]
    turns = load_turns(samples)
    inputs = [
        {
            "namespace": namespace,
            "content": f"{t.speaker}: {t.text}",
            "agent": t.speaker,
            "session": f"session_{t.session}",
            "occurredAt": t.occurred_at,
        }
        for t in turns
    ]
    for start in range(0, len(inputs), BATCH):
        graphql(client, "captureBatch", inputs=inputs[start : start + BATCH])
    while graphql(client, "consolidate", namespace=namespace, limit=200)["consolidate"]["remaining"]:
        pass
    print(f"{len(turns)} turns of {conversation} in {namespace}")


def photograph(url: str, namespace: str, entity: str, as_of: str, hops: str, out: Path, key: str | None) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"))
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(f"{url}/explore")
        if key:
            page.fill("#key-form input[type=password]", key)
            page.click("#key-form button[type=submit]")
        page.fill("#namespace", namespace)
        page.fill("#search", entity)
        page.click("#search-form button[type=submit]")
        page.locator("#entity-list button.entity", has_text=entity).first.click()
        expect(page.locator("#entity-name")).to_have_text(entity)
        page.fill("#as-of", as_of)
        page.dispatch_event("#as-of", "change")
        expect(page.locator("#entity-meta")).to_contain_text(f"as of {as_of}")
        page.select_option("#depth", hops)
        page.wait_for_function(f"location.hash.includes('depth={hops}')")
        page.wait_for_timeout(1500)
        page.locator("#edge-list li.edge:not([data-type=CO_OCCURS]) button.edge-info").first.click()
        page.locator("#edge-detail summary").first.click()
        page.wait_for_timeout(500)
        page.screenshot(path=str(out))
        browser.close()
    if shutil.which("pngquant"):
        subprocess.run(
            ["pngquant", "--quality", "70-90", "--speed", "1", "--force", "--output", str(out), str(out)], check=True
        )
    print(f"{out}: {out.stat().st_size} bytes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default="http://127.0.0.1:8420")
    parser.add_argument("--conversation", default="conv-26")
    parser.add_argument("--entity", default="Caroline")
    parser.add_argument("--as-of", default="2023-10-01")
    parser.add_argument("--hops", default="2", choices=["1", "2", "3"])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "img" / "explorer.png")
    args = parser.parse_args()
    key = os.environ.get("HIPPOGRAPH_KEY")
    namespace = f"locomo-{args.conversation}"
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    with httpx.Client(base_url=args.url, headers=headers, timeout=600) as client:
        seed(client, namespace, args.conversation)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    photograph(args.url, namespace, args.entity, args.as_of, args.hops, args.out, key)


if __name__ == "__main__":
    main()
