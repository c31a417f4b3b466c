"""A namespace's derived graph as plain data that two stores (or two runs) can be compared by:
random ids are replaced by stable keys (an episode by its content hash, an entity by its type and
canonical name, a fact by what it states and from when), and what the wall clock decides (ids,
recorded and consolidation times, lease bookkeeping, vectors) is left out. Two consolidations of
the same episodes must give equal dumps, whatever order their batches committed in."""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime
from typing import Any

from hippograph.store import Store
from hippograph.store.rows import DUMP_NODES, DUMP_RELATIONSHIPS, DumpedRelationship

__all__ = ["differences", "dump"]

# Relationships whose own properties are derived from the episodes, and which of them to keep.
_EDGE_PROPERTIES = {
    "MENTIONS": ("start", "end", "role", "method", "text"),
    "CO_OCCURS": ("count",),
    "ABOUT": ("role",),
}
_TYPED_EDGE_PROPERTIES = ("valid_from", "valid_to", "confidence", "strength")
_FACT_PROPERTIES = (
    "status",
    "kind",
    "statement",
    "confidence",
    "predicate",
    "subject",
    "object",
    "negated",
    "polarity",
    "valid_from",
    "valid_to",
    "origin",
)
_ENTITY_PROPERTIES = ("name", "mention_count", "first_seen_at", "last_seen_at", "aliases")


def dump(store: Store, namespace: str) -> dict[str, Any]:
    nodes = store.read(DUMP_NODES, namespace=namespace)
    edges = store.read(DUMP_RELATIONSHIPS, namespace=namespace)
    keys: dict[str, str] = {}
    for row in nodes:
        props = row["props"]
        if row["label"] == "Episode":
            keys[props["id"]] = f"episode:{props['content_hash'][:16]}"
        elif row["label"] == "Entity":
            keys[props["id"]] = f"entity:{props['type']}:{props['canonical']}"
        elif row["label"] == "Session":
            keys[props["id"]] = f"session:{props.get('external_id')}"
        elif row["label"] == "Concept":
            keys[props["id"]] = f"concept:{props['key']}"
    facts = {row["props"]["id"]: row["props"] for row in nodes if row["label"] == "Fact"}
    supporters: dict[str, list[str]] = {}
    about: dict[str, dict[str, str]] = {}
    for edge in edges:
        if edge["type"] == "SUPPORTED_BY":
            supporters.setdefault(edge["source"], []).append(keys.get(edge["target"], "?"))
        elif edge["type"] == "ABOUT":
            about.setdefault(edge["source"], {})[edge["props"].get("role", "")] = keys.get(edge["target"], "?")
    for fact_id, props in facts.items():
        keys[fact_id] = _fact_key(props, about.get(fact_id, {}))
    return {
        "nodes": dict(sorted(Counter(row["label"] for row in nodes).items())),
        "relationships": dict(sorted(Counter(edge["type"] for edge in edges).items())),
        "entities": _sorted(
            (keys[row["props"]["id"]], _pick(row["props"], _ENTITY_PROPERTIES))
            for row in nodes
            if row["label"] == "Entity"
        ),
        "facts": _sorted(
            (keys[fact_id], {**_pick(props, _FACT_PROPERTIES), "supported_by": sorted(supporters.get(fact_id, []))})
            for fact_id, props in facts.items()
        ),
        "concepts": _concepts(edges, keys, facts),
        "edges": sorted((_edge(edge, keys) for edge in edges if edge["type"] != "SUPPORTED_BY"), key=_text),
    }


def _concepts(
    edges: list[DumpedRelationship], keys: dict[str, str], facts: dict[str, Any]
) -> dict[str, dict[str, int]]:
    """Per concept, how many episodes and how many facts link it."""
    counts: dict[str, dict[str, int]] = {}
    for edge in edges:
        if edge["type"] == "MENTIONS_CONCEPT":
            count = counts.setdefault(keys.get(edge["target"], "?"), {"episodes": 0, "facts": 0})
            count["facts" if edge["source"] in facts else "episodes"] += 1
    return dict(sorted(counts.items()))


def differences(a: dict[str, Any], b: dict[str, Any], shown: int = 20) -> list[str]:
    """What differs between two dumps, as readable lines (at most ``shown`` of each kind)."""
    out: list[str] = []
    for part in ("nodes", "relationships"):
        for name in sorted(set(a[part]) | set(b[part])):
            if a[part].get(name) != b[part].get(name):
                out.append(f"{part} {name}: {a[part].get(name)} != {b[part].get(name)}")
    for part in ("entities", "facts", "concepts"):
        left, right = a[part], b[part]
        lines = [f"{part} only in first: {key} {left[key]}" for key in sorted(set(left) - set(right))]
        lines += [f"{part} only in second: {key} {right[key]}" for key in sorted(set(right) - set(left))]
        lines += [
            f"{part} {key}: {left[key]} != {right[key]}"
            for key in sorted(set(left) & set(right))
            if left[key] != right[key]
        ]
        out += lines[:shown]
    edges_a, edges_b = Counter(map(_text, a["edges"])), Counter(map(_text, b["edges"]))
    out += [f"edge only in first: {edge}" for edge in sorted((edges_a - edges_b).elements())][:shown]
    out += [f"edge only in second: {edge}" for edge in sorted((edges_b - edges_a).elements())][:shown]
    return out


def _fact_key(props: dict[str, Any], about: dict[str, str]) -> str:
    """A relation's fact by its ends (its hash holds entity ids), any other by its hash."""
    if "object" in about and (props.get("predicate") or "").isupper():
        negated = "NOT " if props.get("negated") else ""
        identity = f"{about.get('subject')} {negated}{props['predicate']} {about['object']}"
    else:
        identity = (props.get("content_hash") or "")[:16]
    return f"fact:{identity}@{_plain(props.get('valid_from'))}"


def _edge(edge: DumpedRelationship, keys: dict[str, str]) -> dict[str, Any]:
    props = edge["props"]
    if "fact" in props:  # a typed edge mirroring a fact
        kept = {name: _plain(props.get(name)) for name in _TYPED_EDGE_PROPERTIES}
        kept |= {"fact": keys.get(props["fact"], "?"), "expired": props.get("expired_at") is not None}
    else:
        kept = {name: _plain(props.get(name)) for name in _EDGE_PROPERTIES.get(edge["type"], ())}
    ends = [keys.get(edge["source"], "?"), keys.get(edge["target"], "?")]
    if edge["type"] == "CO_OCCURS":  # undirected: its direction follows the entities' random ids
        ends.sort()
    return {"type": edge["type"], "from": ends[0], "to": ends[1], **kept}


def _pick(props: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    return {name: _plain(props.get(name)) for name in names}


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, list):
        return sorted(map(str, value))
    return value


def _text(edge: dict[str, Any]) -> str:
    return json.dumps(edge, sort_keys=True, default=str)


def _sorted(items: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in sorted(items, key=lambda item: (item[0], str(item[1]))):
        while key in out:  # two nodes under one stable key: keep both, deterministically
            key += "+"
        out[key] = value
    return out
