"""A Hippograph's /metrics, scraped as a Prometheus would and read by sample."""

from __future__ import annotations

from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from support.asgi import Target

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(target: Target) -> tuple[str, Samples]:
    # A scrape reads the backlog from the store: on a loaded machine that outlasts httpx's default
    # 5 s, so the client's timeout is the suite's.
    with target.http() as http:
        response = http.get("/metrics")
    assert response.status_code == 200
    samples: Samples = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return response.text, samples


def value(samples: Samples, name: str, **labels: str) -> float:
    """A sample's value; a labelled series not yet created counts as 0."""
    return samples.get((name, frozenset(labels.items())), 0.0)


def delta(before: Samples, after: Samples, name: str, **labels: str) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


def statements_run(statement: str) -> float:
    """How many times this process has run a named statement of cypher/ (its duration histogram's
    count, read in process: the store and the test share it)."""
    return REGISTRY.get_sample_value("hippograph_store_statement_duration_seconds_count", {"query": statement}) or 0.0
