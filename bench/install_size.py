"""How much a `pip install` of Hippograph with some extras puts in a venv: the closure of its
requirements, each distribution's installed files summed from its RECORD, read from a venv that
holds them all (run it with that venv's Python).

    .venv/bin/python bench/install_size.py                         # the server alone (make serve)
    .venv/bin/python bench/install_size.py test bench lint          # what make test adds
"""

from __future__ import annotations

import argparse
import json
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[1]


def closure(requirements: list[Requirement]) -> set[str]:
    seen: set[str] = set()
    pending = [(r, frozenset(r.extras)) for r in requirements]
    while pending:
        requirement, extras = pending.pop()
        if requirement.marker and not any(requirement.marker.evaluate({"extra": e}) for e in (extras or {""})):
            continue
        name = canonicalize_name(requirement.name)
        key = f"{name}[{','.join(sorted(extras))}]"
        if key in seen:
            continue
        seen.add(key)
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        for text in dist.requires or []:
            child = Requirement(text)
            if child.marker is None or any(child.marker.evaluate({"extra": e}) for e in (extras or {""})):
                pending.append((Requirement(str(child).split(";")[0]), frozenset(child.extras)))
    return {key.split("[")[0] for key in seen}


def installed_bytes(name: str) -> int:
    dist = metadata.distribution(name)
    total = 0
    for file in dist.files or []:
        path = Path(dist.locate_file(file))
        if path.is_file():
            total += path.stat().st_size
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("extras", nargs="*")
    parser.add_argument("--pyproject", type=Path, default=REPO / "pyproject.toml")
    args = parser.parse_args()
    project = tomllib.loads(args.pyproject.read_text())["project"]
    texts = list(project["dependencies"])
    for extra in args.extras:
        texts += [t for t in project["optional-dependencies"][extra] if not t.startswith("hippograph[")]
    names = closure([Requirement(t) for t in texts])
    sizes = {name: installed_bytes(name) for name in names}
    top = sorted(sizes.items(), key=lambda item: -item[1])[:8]
    print(
        json.dumps(
            {
                "extras": args.extras,
                "distributions": len(sizes),
                "mib": round(sum(sizes.values()) / 2**20),
                "largest_mib": {name: round(size / 2**20) for name, size in top},
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
