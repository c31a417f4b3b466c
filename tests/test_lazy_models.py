"""Models load on first use, once, whichever threads ask for them together."""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
from support.processes import REPO

from hippograph.extraction.lazy import LazyExtractor


def test_threads_asking_together_share_one_extractor() -> None:
    loads: list[int] = []
    lazy = LazyExtractor(on_load=lambda: loads.append(1))
    with ThreadPoolExecutor(4) as threads:
        names = list(threads.map(lambda _: [m.name for m in lazy.names("Caroline moved to Boston.")], range(4)))
    assert loads == [1]
    assert names == [names[0]] * 4 and "Caroline" in names[0]


HEAVY = ("spacy", "torch", "onnxruntime", "transformers", "sentence_transformers")
SERVICES = (
    "hippograph.capture.service",
    "hippograph.consolidation.worker",
    "hippograph.recall.service",
    "hippograph.lifecycle.forget",
    "hippograph.lifecycle.remember",
    "hippograph.graph.curation",
    "hippograph.runtime",
    "hippograph.api.app",
    "hippograph.cli",
)


@pytest.mark.process
def test_importing_the_services_loads_no_model_library() -> None:
    # In a fresh interpreter: this one has loaded the models already.
    probe = f"import sys\nfor m in {SERVICES!r}: __import__(m)\nprint(sorted(h for h in {HEAVY!r} if h in sys.modules))"
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    loaded = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"


@pytest.mark.process
def test_the_extractor_loads_spacy_without_torch_and_leaves_torch_importable() -> None:
    # In a fresh interpreter: this one may hold torch already, and thinc reads it once.
    probe = (
        "import sys\n"
        "from hippograph.extraction.lazy import LazyExtractor\n"
        "names = [m.text for m in LazyExtractor().names('Caroline moved to Boston.')]\n"
        "print('torch' in sys.modules, 'Caroline' in names)\n"
        "import torch\n"
        "print(torch.ones(2).sum().item())"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    printed = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True)
    assert printed.stdout.split() == ["False", "True", "2.0"]
