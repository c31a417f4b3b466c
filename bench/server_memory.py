"""What `hippograph serve` holds in memory with its worker processes, after it has served a little:
a conversation captured, consolidated (by the worker processes), and recalled.

    python bench/server_memory.py                    # 2, 1 and 0 consolidation worker processes
    python bench/server_memory.py --processes 2 0

For each count it starts a server on an empty store, captures 40 messages, consolidates them,
recalls 5 questions, then sums the resident (RSS) and proportional (PSS: shared pages split
between the processes that share them) memory of the server and every process under it.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

import harness
import httpx
import psutil
from harness import free_port, git_revision, machine, running_server

# On a loaded machine a server takes minutes to load its models: the memory, not the start, is measured.
harness.READY_TIMEOUT_S = 900

MESSAGES = [
    {"role": "user" if i % 2 == 0 else "assistant", "content": text, "name": "Melanie" if i % 2 == 0 else "helper"}
    for i, text in enumerate(
        [
            "I adopted a dog named Rex last week.",
            "Congratulations on adopting Rex!",
            "My sister Caroline moved to Boston in May.",
            "Boston is a lovely city.",
            "Caroline works at a pottery studio now.",
            "That sounds like a creative job.",
            "We went camping at Lake Tahoe last summer.",
            "Lake Tahoe is beautiful in summer.",
        ]
        * 5
    )
]
QUESTIONS = ["Who is Rex?", "Where does Caroline live?", "Where does Caroline work?", "Where did we camp?", "dog"]


def tree_memory(pid: int) -> dict[str, float]:
    processes = [psutil.Process(pid), *psutil.Process(pid).children(recursive=True)]
    rss = pss = 0
    for process in processes:
        info = process.memory_full_info()
        rss += info.rss
        pss += info.pss
    return {"processes": len(processes), "rss_mib": round(rss / 2**20), "pss_mib": round(pss / 2**20)}


def measure(processes: int) -> dict[str, float]:
    os.environ["HIPPOGRAPH_CONSOLIDATION_PROCESSES"] = str(processes)
    os.environ["HIPPOGRAPH_CONSOLIDATION_INTERVAL_S"] = "0"  # consolidated once, below, not in the background
    port = free_port()
    with tempfile.TemporaryDirectory() as data, running_server(Path(data) / "store", port) as server:
        url = f"http://127.0.0.1:{port}/graphql"
        with httpx.Client(timeout=600) as http:

            def run(query: str, **variables: object) -> dict:
                body = http.post(url, json={"query": query, "variables": variables}).json()
                assert "errors" not in body, body
                return body["data"]

            for start in range(0, len(MESSAGES), 8):
                # Repeated texts are duplicates: make each message its own.
                batch = [
                    {**m, "content": f"{m['content']} ({start + i})"} for i, m in enumerate(MESSAGES[start : start + 8])
                ]
                run('mutation($m: [MessageInput!]!) { captureMessages(messages: $m, session: "s1") { id } }', m=batch)
            done = run("mutation { consolidate(limit: 100) { processed failed } }")["consolidate"]
            assert done["failed"] == 0, done
            for question in QUESTIONS:
                run("query($q: String!) { recall(input: {query: $q}) { hits { score } } }", q=question)
        return {"consolidation_processes": processes, **tree_memory(server.pid)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[2, 1, 0])
    args = parser.parse_args()
    results = [measure(count) for count in args.processes]
    print(json.dumps({"machine": machine(), "revision": git_revision(), "results": results}, indent=1))


if __name__ == "__main__":
    main()
