"""Export one namespace, or all, to the export format (backup/format.py).

Nodes are read a page at a time per label, in id order, each with the relationships it starts;
the relationship records follow all node records (an import checks each end as it reads), so
they wait in a temporary file meanwhile. Pages are separate reads: beside a running server, a
node written after its label's pages were read is not in the file, and a relationship to such a
node is left out and counted (ExportReport.skipped), so that the file always imports.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from hippograph import __version__
from hippograph.backup.format import (
    encode_properties,
    header,
    open_text,
    relationship_types,
)
from hippograph.embedding.store_record import exported_spec
from hippograph.kernel.errors import bad_input
from hippograph.store import Store, Transaction
from hippograph.store.namespaces import NAMESPACE_LABEL, NODE_LABELS
from hippograph.store.rows import (
    CENSUS_NAMESPACE,
    EXPORT_CENSUS,
    EXPORT_NAMESPACE_RECORD,
    EXPORT_NODES,
    ExportedNode,
    OutgoingEdge,
)

__all__ = ["ExportReport", "census", "export"]

PAGE = 500

# Told how many more were done; what it returns is ignored (tqdm's ``update`` returns a flag).
Progress = Callable[[int], object]


@dataclass
class ExportReport:
    namespaces: list[str]
    nodes: dict[str, int] = field(default_factory=dict)
    relationships: dict[str, int] = field(default_factory=dict)
    # Relationships to nodes written while the export ran, after their label was read.
    skipped: int = 0


def census(store: Store, namespace: str | None) -> tuple[list[str], int]:
    """The namespaces to export (one, or every one the store holds) and how many nodes they hold
    (a progress bar's total). Fails on a label the export does not know, before anything is
    written: a file without it would lose data silently."""
    if namespace is None:
        rows = store.read(EXPORT_CENSUS)
    else:
        rows = [{**row, "namespace": namespace} for row in store.read(CENSUS_NAMESPACE, namespace=namespace)]
    for row in rows:
        if row["label"] not in NODE_LABELS:
            raise bad_input(
                f"namespace {row['namespace']!r} holds {row['label']} nodes, which this version of export does "
                "not know; nothing was exported"
            )
    names = [namespace] if namespace is not None else sorted({row["namespace"] for row in rows})
    return names, sum(row["count"] for row in rows)


def export(
    store: Store, namespaces: list[str], target: Path | None, out: IO[str], now: datetime, progress: Progress
) -> ExportReport:
    """Write the namespaces to ``target`` (replaced only once the file is complete) or ``out``."""
    if target is None:
        return _write(store, namespaces, out, now, progress)
    # Beside the target, with its suffix kept (".gz" decides the compression).
    partial = target.with_name(f"{target.stem}.partial{target.suffix}")
    try:
        with open_text(partial, "w") as stream:
            report = _write(store, namespaces, stream, now, progress)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return report


def _write(store: Store, namespaces: list[str], out: IO[str], now: datetime, progress: Progress) -> ExportReport:
    report = ExportReport(namespaces)
    known_types = relationship_types()
    written: set[str] = set()  # the ids of exported nodes, which relationships may end at
    _line(out, header(namespaces, now, __version__, exported_spec(store).name))
    with tempfile.TemporaryFile("w+", encoding="utf-8") as spool:
        for namespace in namespaces:
            for row in store.read(EXPORT_NAMESPACE_RECORD, namespace=namespace):
                _line(out, {"node": NAMESPACE_LABEL, "properties": encode_properties(row["properties"])})
                report.nodes[NAMESPACE_LABEL] = report.nodes.get(NAMESPACE_LABEL, 0) + 1
            for label in NODE_LABELS:
                if label != NAMESPACE_LABEL:
                    _export_label(store, namespace, label, out, spool, report, written, known_types, progress)
        spool.seek(0)
        for line in spool:
            record = json.loads(line)
            if record["end"][1] in written:
                out.write(line)
                report.relationships[record["relationship"]] = report.relationships.get(record["relationship"], 0) + 1
            else:
                report.skipped += 1
    _line(out, {"end": {"nodes": sum(report.nodes.values()), "relationships": sum(report.relationships.values())}})
    return report


def _export_label(
    store: Store,
    namespace: str,
    label: str,
    out: IO[str],
    spool: IO[str],
    report: ExportReport,
    written: set[str],
    known_types: frozenset[str],
    progress: Progress,
) -> None:
    after = ""
    while True:
        page = _page(store, label, namespace, after)
        for row in page:
            _line(out, {"node": label, "properties": encode_properties(row["properties"])})
            written.add(row["id"])
            for rel in row["out"]:
                if rel["type"] not in known_types or rel["end_label"] not in NODE_LABELS:
                    raise bad_input(
                        f"namespace {namespace!r} holds a {rel['type']} relationship to a {rel['end_label']} node, "
                        "which this version of export does not know; nothing was exported"
                    )
                _line(spool, _relationship(label, row["id"], rel))
        report.nodes[label] = report.nodes.get(label, 0) + len(page)
        progress(len(page))
        if len(page) < PAGE:
            return
        after = page[-1]["id"]


def _page(store: Store, label: str, namespace: str, after: str) -> list[ExportedNode]:
    def read(tx: Transaction) -> list[ExportedNode]:
        return tx.run(EXPORT_NODES, labels={"NODE_LABEL": label}, namespace=namespace, after=after, limit=PAGE)

    return store.read_in(read)


def _relationship(label: str, start: str, rel: OutgoingEdge) -> dict[str, Any]:
    return {
        "relationship": rel["type"],
        "start": [label, start],
        "end": [rel["end_label"], rel["end"]],
        "properties": encode_properties(rel["properties"]),
    }


def _line(out: IO[str], record: dict[str, Any]) -> None:
    out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
    out.write("\n")
