"""The agent integrations' cost: the Python client against raw httpx posting the same documents,
and MCP tool calls (``hippograph mcp`` over stdio, remote and in-process) for capture and recall.

    .venv/bin/python bench/agents.py                 # 300 rounds
    .venv/bin/python bench/agents.py --rounds 50     # a quick look

Starts ``hippograph serve`` on a temporary store; every measurement alternates its alternatives
round by round, so load on the machine falls on both alike.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from harness import REPO, free_port, load_average, machine, running_server, summary
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

sys.path.insert(0, str(REPO / "src"))
from hippograph.client import CaptureInput, Client
from hippograph.client.core import payload
from hippograph.client.decode import decode
from hippograph.client.types import RecallResult

SEED = 200


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    results: dict[str, Any] = {"machine": machine(), "load_before": load_average(), "rounds": args.rounds}
    with tempfile.TemporaryDirectory(prefix="hg-agents-") as tmp:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        with running_server(Path(tmp) / "served", port):
            client = Client(url, namespace="bench")
            ids = seed(client)
            results["client_vs_httpx"] = client_overhead(client, url, ids, args.rounds)
            results["decode_recall_ms"] = decode_cost(client, args.rounds)
            remote = ["--url", url, "--namespace", "bench"]
            results["mcp_remote"] = asyncio.run(mcp_latency(remote, args.rounds, client))
        own_store = ["--data-dir", str(Path(tmp) / "own"), "--heap", "512m", "--namespace", "bench"]
        results["mcp_in_process"] = asyncio.run(mcp_latency(own_store, args.rounds, None))
    results["load_after"] = load_average()
    print(json.dumps(results, indent=2))


def seed(client: Client) -> list[str]:
    texts = [f"Speaker {i % 7}: note {i} about project {i % 13} and the trip to city {i % 17}." for i in range(SEED)]
    ids: list[str] = []
    for start in range(0, SEED, 50):
        ids += [r.id for r in client.capture_batch([CaptureInput(t, agent="bench") for t in texts[start : start + 50]])]
    return ids


def timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def client_overhead(client: Client, url: str, ids: list[str], rounds: int) -> dict[str, Any]:
    """The same operation and document, through the client and posted with httpx directly."""
    raw = httpx.Client(timeout=30)
    out: dict[str, Any] = {}
    for name, through_client, variables in [
        (
            "memory",
            lambda i: client.memory(ids[i % len(ids)]),
            lambda i: {"id": ids[i % len(ids)], "namespace": "bench"},
        ),
        (
            "recall",
            lambda i: client.recall(f"trip to city {i % 17}", count_access=False),
            lambda i: {"input": {"namespace": "bench", "query": f"trip to city {i % 17}", "countAccess": False}},
        ),
    ]:
        operation = name
        client_ms: list[float] = []
        raw_ms: list[float] = []

        def post(i: int, operation: str = operation, variables: Callable[[int], dict[str, Any]] = variables) -> None:
            response = raw.post(f"{url}/graphql", json=payload(operation, variables(i)))
            assert "errors" not in response.json()

        for i in range(rounds):
            pair = [(client_ms, lambda i=i, call=through_client: call(i)), (raw_ms, lambda i=i, post=post: post(i))]
            for sink, call in pair if i % 2 else reversed(pair):
                sink.append(timed(call))
        out[name] = {"client": summary(client_ms, 95), "httpx": summary(raw_ms, 95)}
    return out


def decode_cost(client: Client, rounds: int) -> dict[str, float]:
    """The client's own work on a recall of 10 hits: turning the JSON into dataclasses."""
    data = client.execute("recall", {"input": {"namespace": "bench", "query": "trip to city 3", "countAccess": False}})
    times = [timed(lambda: decode(RecallResult, data["recall"])) for _ in range(rounds)]
    return {"hits": len(data["recall"]["hits"]), **summary(times, 95)}


async def mcp_latency(args: list[str], rounds: int, direct: Client | None) -> dict[str, Any]:
    """Seconds until the host's initialize is answered and until the first recall, then each tool
    call's milliseconds as the SDK's client sees them; given ``direct``, the same call through the
    Python client alternates with each, on the same server."""
    env = {"PYTHONPATH": str(REPO / "src"), "HIPPOGRAPH_CONSOLIDATION_INTERVAL_S": "0"}
    server = StdioServerParameters(command=sys.executable, args=["-m", "hippograph.cli", "mcp", *args], env=env)
    out: dict[str, Any] = {}
    start = time.perf_counter()
    with Path(os.devnull).open("w") as quiet:  # noqa: ASYNC230 - opening the null device does not block
        async with stdio_client(server, errlog=quiet) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            out["initialize_s"] = round(time.perf_counter() - start, 2)
            await session.call_tool("recall", {"query": "warm up"})
            out["first_recall_s"] = round(time.perf_counter() - start, 2)
            for name, tool, arguments, through_client in [
                (
                    "capture",
                    "capture",
                    lambda i: {"content": f"Note {i} about a red bicycle."},
                    lambda i: direct.capture(f"Note {i} about a blue bicycle.") if direct else None,
                ),
                (
                    "recall",
                    "recall",
                    lambda i: {"query": f"red bicycle {i % 10}"},
                    lambda i: direct.recall(f"red bicycle {i % 10}") if direct else None,
                ),
            ]:
                mcp_ms: list[float] = []
                client_ms: list[float] = []
                for i in range(rounds):
                    if direct is not None and i % 2:
                        client_ms.append(timed(lambda i=i, call=through_client: call(i)))
                    begun = time.perf_counter()
                    result = await session.call_tool(tool, arguments(i))
                    mcp_ms.append((time.perf_counter() - begun) * 1000)
                    assert not result.is_error, result.content
                    if direct is not None and not i % 2:
                        client_ms.append(timed(lambda i=i, call=through_client: call(i)))
                out[name] = {"mcp": summary(mcp_ms, 95)} | ({"python_client": summary(client_ms, 95)} if direct else {})
    return out


if __name__ == "__main__":
    main()
