"""``hippograph schema``: the GraphQL schema as SDL."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def add_commands(commands: Any) -> None:
    schema = commands.add_parser("schema", help="print the GraphQL schema (SDL)")
    schema.add_argument("--write", type=Path, help="write it to this file instead")


def run(args: argparse.Namespace) -> int:
    """Needs neither a store nor settings."""
    from hippograph.api.schema import schema_sdl

    if args.write is None:
        sys.stdout.write(schema_sdl())
    else:
        args.write.write_text(schema_sdl(), encoding="utf-8")
    return 0
