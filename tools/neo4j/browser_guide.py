"""The Neo4j Browser guide of Hippograph's ready queries: one slide per file of cypher/browser/.

A first slide lists them and has a runnable ``:style`` line (cypher/browser/hippograph.grass: what
each label's nodes are captioned with). Each other slide has the query's comment, a field per parameter (its example value from the comment's
``:param {...}``), a runnable ``:param`` line that the fields fill in, and the runnable query, word
for word. Browser runs a line when its play icon is clicked, or puts it in the editor on a click.
`make neo4j-up` writes the guide to ``.neo4j/guides/hippograph.html``, where the local Neo4j's
Guides extension (tools/neo4j/src) serves it, and Browser opens it in its sidebar on connecting.

    python tools/neo4j/browser_guide.py [--queries cypher/browser] [--dir .neo4j/guides]

Standard library only, as local_neo4j.py.
"""

from __future__ import annotations

import argparse
import html
import re
from dataclasses import dataclass
from pathlib import Path

QUERIES = Path(__file__).resolve().parents[2] / "cypher" / "browser"
NAME = "hippograph.html"
TITLE = "Hippograph: ready queries"
STYLE = "hippograph.grass"  # Browser's node captions for Hippograph's labels, beside the queries

# The example in a query's comment: ":param {namespace: 'demo', date: datetime('2023-01-01T00:00:00Z')}".
EXAMPLE = re.compile(r"(?:Set the parameters first, e\.g\.\s*)?:param (\{[^{}]*\})")
# One entry of it: a name, an optional function around the literal (datetime), the literal.
ENTRY = re.compile(r"(\w+):\s*(?:(\w+)\()?'([^']*)'\)?")


@dataclass(frozen=True)
class Parameter:
    name: str
    example: str
    function: str | None  # the value is function('...'), as datetime('2023-01-01T00:00:00Z')


@dataclass(frozen=True)
class ReadyQuery:
    name: str
    description: str
    parameters: tuple[Parameter, ...]
    statement: str


def read_query(path: Path) -> ReadyQuery:
    lines = path.read_text(encoding="utf-8").splitlines()
    comment = " ".join(line.removeprefix("//").strip() for line in lines if line.startswith("//"))
    comment = comment.removeprefix("Neo4j Browser:").strip()
    example = EXAMPLE.search(comment)
    parameters = (
        tuple(Parameter(name, value, function or None) for name, function, value in ENTRY.findall(example.group(1)))
        if example
        else ()
    )
    statement = "\n".join(line for line in lines if not line.startswith("//")).strip()
    missing = set(re.findall(r"\$(\w+)", statement)) - {p.name for p in parameters}
    if missing:
        raise ValueError(f"{path.name}: no example value for {', '.join(sorted(missing))} in its :param comment")
    description = EXAMPLE.sub("", comment).strip()
    return ReadyQuery(path.stem, description[:1].upper() + description[1:], parameters, statement)


def read_queries(directory: Path = QUERIES) -> list[ReadyQuery]:
    """The queries that need no parameters first (they say where to start), then by name."""
    queries = [read_query(path) for path in sorted(directory.glob("*.cypher"))]
    return sorted(queries, key=lambda query: (bool(query.parameters), query.name))


def slide(query: ReadyQuery) -> str:
    title = query.name.replace("_", " ").capitalize()
    parts = [f'<slide id="{query.name}">', f"<h3>{html.escape(title)}</h3>", f"<p>{html.escape(query.description)}</p>"]
    if query.parameters:
        # Browser copies what is typed in a [value-for] field into the [value-key] spans.
        fields = "".join(
            f'<label>{p.name} <input value-for="{query.name}-{p.name}" value="{html.escape(p.example)}"></label> '
            for p in query.parameters
        )
        entries = ", ".join(
            f"{p.name}: {p.function + '(' if p.function else ''}"
            f"'<span value-key=\"{query.name}-{p.name}\">{html.escape(p.example)}</span>'{')' if p.function else ''}"
            for p in query.parameters
        )
        parts += [f'<p class="parameters">{fields}</p>', f'<pre class="runnable parameters">:param {{{entries}}}</pre>']
    parts += [f'<pre class="runnable query">{html.escape(query.statement)}</pre>', "</slide>"]
    return "\n".join(parts)


def guide(queries: list[ReadyQuery], style: str) -> str:
    intro = (
        "<slide>"
        "<h3>Start here</h3>"
        "<p>One slide per file of <code>cypher/browser/</code> in Hippograph's repository. On each, "
        "type the values into the fields, click the play icon of the <code>:param</code> line, then "
        "that of the query. A click on a line's text puts it in the editor instead.</p>"
        "<ul>" + "".join(f"<li>{html.escape(q.name.replace('_', ' ').capitalize())}</li>" for q in queries) + "</ul>"
        "<p>Once, to caption the nodes with what they say (Browser keeps the style):</p>"
        f'<pre class="runnable style">:style\n{html.escape(style.strip())}</pre>'
        "</slide>"
    )
    body = "\n".join([intro, *(slide(query) for query in queries)])
    return f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{TITLE}</title></head>\n<body>\n{body}\n</body></html>\n'


def write_guide(directory: Path, queries: Path = QUERIES) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    out = directory / NAME
    style = (queries / STYLE).read_text(encoding="utf-8")
    out.write_text(guide(read_queries(queries), style), encoding="utf-8")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=Path, default=QUERIES)
    parser.add_argument("--dir", type=Path, default=Path(".neo4j") / "guides", help="where to write hippograph.html")
    args = parser.parse_args()
    print(write_guide(args.dir, args.queries))


if __name__ == "__main__":
    main()
