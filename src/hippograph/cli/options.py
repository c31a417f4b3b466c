"""Options more than one command takes."""

from __future__ import annotations

import argparse
from pathlib import Path


def store_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", type=Path, help="embedded store directory (HIPPOGRAPH_DATA_DIR)")
    parser.add_argument("--heap", help="embedded engine Java heap, e.g. 1g (HIPPOGRAPH_HEAP)")
    parser.add_argument("--neo4j-uri", help="use this Neo4j instead of the embedded store (NEO4J_URI)")
