"""Turn one of the entity and relation rules of issue 19 off, for an ablation run of a benchmark.

Each ablation edits the rule data (``extract/*.toml``) as the extraction modules load it, in this
process only, before any of them has cached it; the product has no such switch. Call ``apply``
first thing, before the extractor is built.

* ``trim``: model spans are kept whole (determiners in front, handles, hashtags, abbreviations);
* ``designators``: no organization designators, head nouns or "University of ..." prefixes;
* ``arguments``: relation rules declare no argument types (``subject_is`` / ``object_is``);
* ``parts``: no named parts ("the billing service", "the platform team") as relation ends;
* ``unnamed``: an uncovered proper-noun subject does not become a person;
* ``patterns``: without the relation patterns added with these (STATUS from a past-tense status
  verb, "works as a role at X", "our contact at X");
* ``tokenizer``: "co-founded" and the like split at the hyphen again;
* ``vote``: no type vote in consolidation (each type its own entity, as before);
* ``given_names``: a single-word model organization that is a common given name stays an organization;
* ``lowercase``: a lowercase model organization stays an organization;
* ``headline``: model organizations keep their type in title-case and all-caps sentences;
* ``groups``: a plural NORP span ("the Methodists") stays a concept.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

ABLATIONS = (
    "trim",
    "designators",
    "arguments",
    "parts",
    "unnamed",
    "patterns",
    "tokenizer",
    "vote",
    "given_names",
    "lowercase",
    "headline",
    "groups",
)
_CONSUMERS = (
    "hippograph.extraction.designators",
    "hippograph.extraction.relation_schema",
    "hippograph.extraction.nlp",
    "hippograph.extraction.model_types",
    "hippograph.resolution.types",
)


def _trim(name: str, data: dict[str, Any]) -> None:
    if name == "entity_types":
        data["span"].update(leading=[], sentence_initial=[], never_inside=[], never_alone=[])


def _designators(name: str, data: dict[str, Any]) -> None:
    if name == "entity_types":
        data["organization"].update(legal=[], heads=[], of_heads=[])


def _arguments(name: str, data: dict[str, Any]) -> None:
    if name == "relation_patterns":
        for rule in data["rules"]:
            rule.pop("subject_is", None)
            rule.pop("object_is", None)


def _parts(name: str, data: dict[str, Any]) -> None:
    if name == "relation_patterns":
        data["parts"] = {}


def _unnamed(name: str, data: dict[str, Any]) -> None:
    if name == "relation_patterns":
        data["types"].pop("unnamed_subject", None)


def _patterns(name: str, data: dict[str, Any]) -> None:
    if name == "relation_patterns":
        data["lexicons"]["affiliations"] = []
        data["rules"] = [
            rule
            for rule in data["rules"]
            if "status_verb" not in rule["shapes"]
            and not (rule["relation"] == "WORKS_AT" and "prep_noun_prep" in rule["shapes"])
        ]


def _tokenizer(name: str, data: dict[str, Any]) -> None:
    if name == "tokenizer":
        data["single_words"] = {}


def _vote(name: str, data: dict[str, Any]) -> None:
    if name == "entity_types":
        data["vote"]["types"] = []


def _given_names(name: str, data: dict[str, Any]) -> None:
    if name == "entity_types":
        data["model"]["given_names"] = ""


def _lowercase(name: str, data: dict[str, Any]) -> None:
    if name == "entity_types":
        data["model"]["lowercase"] = False


def _headline(name: str, data: dict[str, Any]) -> None:
    if name == "entity_types":
        data["model"]["case"]["min_words"] = 0


def _groups(name: str, data: dict[str, Any]) -> None:
    if name == "entity_types":
        data["model"]["groups"] = []


EDITS: dict[str, Callable[[str, dict[str, Any]], None]] = {
    "trim": _trim,
    "designators": _designators,
    "arguments": _arguments,
    "parts": _parts,
    "unnamed": _unnamed,
    "patterns": _patterns,
    "tokenizer": _tokenizer,
    "vote": _vote,
    "given_names": _given_names,
    "lowercase": _lowercase,
    "headline": _headline,
    "groups": _groups,
}


def apply(names: list[str]) -> None:
    """Make every extraction module load its rules with ``names`` turned off."""
    unknown = set(names) - set(ABLATIONS)
    if unknown:
        raise SystemExit(f"unknown ablation {sorted(unknown)}; known: {', '.join(ABLATIONS)}")
    if not names:
        return
    import importlib

    from hippograph.kernel.rules import load_rules

    def ablated(name: str) -> dict[str, Any]:
        data = load_rules(name)
        for ablation in names:
            EDITS[ablation](name, data)
        return data

    for module in _CONSUMERS:
        importlib.import_module(module).load_rules = ablated  # type: ignore[attr-defined]
