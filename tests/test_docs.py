"""The docs stand alone and match the code: links stay in the repository and resolve, every
setting is documented with its default, every metric is documented."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from prometheus_client.metrics import MetricWrapperBase
from support.asgi import Server
from support.processes import REPO

from graphql import parse, validate
from hippograph.api.schema import schema
from hippograph.kernel import metrics
from hippograph.kernel.config import Settings

DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
# Hosts a doc may name in a bare URL: the server on the reader's own machine, and placeholders.
LOCAL_HOSTS = re.compile(r"^https?://(127\.0\.0\.1|localhost|([a-z0-9-]+\.)*example\.com)([:/]|$)")


def _prose(text: str) -> str:
    """The text GitHub renders as prose: fenced blocks and inline code removed."""
    return re.sub(r"`[^`]*`", "", _without_fences(text))


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors for the headings of a Markdown file."""
    headings = re.findall(r"^#+ (.+)$", _without_fences(path.read_text(encoding="utf-8")), flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-") for heading in headings}


def _without_fences(text: str) -> str:
    return re.sub(r"^```.*?^```", "", text, flags=re.DOTALL | re.MULTILINE)


def test_docs_link_only_inside_the_repository_and_every_link_resolves() -> None:
    assert len(DOCS) >= 8
    problems = []
    for doc in DOCS:
        prose = _prose(doc.read_text(encoding="utf-8"))
        for target in re.findall(r"\]\(([^)\s]+)\)", prose) + re.findall(r"<([a-z]+://[^>]+)>", prose):
            path, _, anchor = target.partition("#")
            resolved = (doc.parent / path).resolve() if path else doc
            # A relative link may climb (docs/ to README.md) but never out of the clone.
            if re.match(r"^[a-z]+:", path) or path.startswith("/") or REPO not in resolved.parents:
                problems.append(f"{doc.name}: {target} points outside the repository")
            elif not resolved.exists():
                problems.append(f"{doc.name}: {target} does not resolve")
            elif anchor and resolved.suffix == ".md" and anchor not in _anchors(resolved):
                problems.append(f"{doc.name}: {target} names no heading of {resolved.name}")
        for url in re.findall(r"https?://[^\s)>\]]+", re.sub(r"\]\([^)]*\)", "]", prose)):
            if not LOCAL_HOSTS.match(url):
                problems.append(f"{doc.name}: {url} points outside the repository")
    assert not problems, "\n".join(problems)


# A path in backticks that names a file or folder of the repository (the outputs of a run excepted).
_REPO_PATH = re.compile(r"`((?:src|tests|bench|cypher|extract|graphql|tools|docs|clients|\.ci)/[\w./*-]+)`")
_OUTPUTS = ("bench/results", "tools/neo4j/target")
_SOURCES = ("src", "tests", "tools", "cypher", "extract", "graphql")


def test_every_path_the_docs_name_exists() -> None:
    """A doc that names a file the code no longer has is out of date."""
    missing = []
    for doc in [*DOCS, REPO / "bench" / "README.md", REPO / "bench" / "data" / "README.md"]:
        for named in _REPO_PATH.findall(doc.read_text(encoding="utf-8")):
            path = named.rstrip("/.")
            if path.startswith(_OUTPUTS):
                continue
            found = any(REPO.glob(path)) if "*" in path else (REPO / path).exists()
            if not found:
                missing.append(f"{doc.relative_to(REPO)}: {path}")
    assert not missing, "\n".join(missing)


def test_code_cites_only_documents_in_the_repository() -> None:
    """Comments point at docs/, never at a design document or data outside the clone."""
    outside = re.compile("|".join(["DESIGN" + " §", r"\.\./shared/", "/work/" + "shared"]))
    cited = [
        f"{path.relative_to(REPO)}:{number}"
        for top in _SOURCES
        for path in sorted((REPO / top).rglob("*"))
        if path.is_file()
        and path.suffix in {".py", ".cypher", ".toml", ".md", ".sql", ".graphql"}
        and "node_modules" not in path.parts
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if outside.search(line)
    ]
    assert not cited, "\n".join(cited)


def _rendered(value: object) -> str:
    """A default as docs/configuration.md writes it."""
    if value is None:
        return "unset"
    if value in ("", ()):
        return "empty"
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, float) and value.is_integer():
        return f"`{int(value)}`"
    return f"`{value}`"


def _documented_settings() -> dict[str, str]:
    text = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    return dict(re.findall(r"^\| `((?:HIPPOGRAPH|NEO4J)_[A-Z0-9_]+)` \| ([^|]+?) \|", text, flags=re.MULTILINE))


def test_every_setting_is_documented_with_its_default() -> None:
    expected = {Settings.variable(name): _rendered(value) for name, value in Settings().items()}
    assert _documented_settings() == expected


def test_every_metric_is_documented() -> None:
    text = (REPO / "docs" / "metrics.md").read_text(encoding="utf-8")
    declared = {
        family.name + ("_total" if family.type == "counter" else "")
        for value in vars(metrics).values()
        if isinstance(value, MetricWrapperBase)
        for family in value.describe()
    }
    # The gauges read from the store when scraped, by their names (the reading itself is fixed).
    backlog = metrics.BacklogCollector(lambda: metrics.Backlog(0, 0, 0, 0.0), max_age_s=0)
    gauges = {family.name for family in backlog.collect()}
    assert len(declared) >= 12 and len(gauges) == 3
    documented = set(re.findall(r"^\| `(hippograph_[a-z_]+)`", text, flags=re.MULTILINE))
    assert documented == declared | gauges


def _blocks(doc: Path, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", doc.read_text(encoding="utf-8"), flags=re.DOTALL | re.MULTILINE)


def test_every_graphql_block_of_the_docs_is_valid_as_pasted() -> None:
    blocks = [block for doc in DOCS for block in _blocks(doc, "graphql")]
    assert len(blocks) >= 6
    for block in blocks:
        assert validate(schema.graphql_schema, parse(block)) == [], block


@pytest.mark.process
def test_the_api_examples_run_as_they_stand(server: Server, admin_secret: str, tmp_path: Path) -> None:
    """curl, Python and JavaScript (fetch) from docs/api.md, against the test server. The
    graphql-ws example needs an npm package the repository does not install; its operation is
    checked with the GraphQL blocks' rules instead."""
    api = REPO / "docs" / "api.md"
    env = {**os.environ, "HIPPOGRAPH_URL": f"{server.url}/graphql", "HIPPOGRAPH_KEY": admin_secret}
    runs: list[list[str]] = []
    for block in _blocks(api, "sh"):
        if block.startswith("curl"):
            runs.append(["bash", "-euo", "pipefail", "-c", block])
    for number, block in enumerate(_blocks(api, "python")):
        script = tmp_path / f"example_{number}.py"
        script.write_text(block, encoding="utf-8")
        runs.append([sys.executable, str(script)])
    node = shutil.which("node")
    javascript = _blocks(api, "javascript")
    for number, block in enumerate(javascript):
        if "graphql-ws" in block:
            [subscription] = re.findall(r'query: "(subscription .*?)"', block)
            assert validate(schema.graphql_schema, parse(subscription)) == []
        elif node is not None:
            script = tmp_path / f"example_{number}.mjs"
            script.write_text(block, encoding="utf-8")
            runs.append([node, str(script)])
    assert len(runs) == (3 if node else 2), "the curl, Python and JavaScript examples"
    for command in runs:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, f"{command}: {done.stderr}"
        assert '"errors"' not in done.stdout and "<recalled-memory-context>" in done.stdout, done.stdout


def test_every_benchmark_script_is_listed_in_the_benchmarks_readme() -> None:
    listed = (REPO / "bench" / "README.md").read_text(encoding="utf-8")
    scripts = sorted(path.name for path in (REPO / "bench").glob("*.py"))
    assert scripts and [name for name in scripts if f"`{name}`" not in listed] == []
