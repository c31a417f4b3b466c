"""The named queries of cypher/: found by name wherever their feature's folder is, names unique."""

from __future__ import annotations

from collections import Counter

from support.processes import REPO

from hippograph.store.store import cypher, query_files

# Folders of cypher/ whose files are not named queries: the schema's DDL and the Browser's queries.
NOT_NAMED = {"browser", "schema"}


def named_files() -> list[str]:
    root = REPO / "cypher"
    return [
        path.relative_to(REPO).as_posix()
        for path in root.rglob("*.cypher")
        if path.relative_to(root).parts[0] not in NOT_NAMED
    ]


def test_every_query_name_is_unique_under_cypher() -> None:
    stems = Counter(path.rpartition("/")[2].removesuffix(".cypher") for path in named_files())
    assert [stem for stem, count in stems.items() if count > 1] == []


def test_the_loader_finds_every_query_by_its_name() -> None:
    assert sorted(query_files().values()) == sorted(named_files())
    assert "MATCH" in cypher("episodes_by_id") and cypher("summaries/save_summary") == cypher("save_summary")
