"""The relation rule files' schemas: the shipped files load, and a bad rule fails when the file is
parsed (no sentence needed), with the file and the rule named. Pure: no store, no model."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from hippograph.extraction.relation_rules import rules
from hippograph.extraction.relation_schema import parse
from hippograph.extraction.vocabulary import parse_types, relation_types
from hippograph.kernel.rules import load_rules

FILE = "extract/relation_patterns.toml"


def shipped() -> dict[str, Any]:
    return load_rules("relation_patterns")  # a fresh dict on every call: edits stay in the test


def first_rule(data: dict[str, Any], relation: str) -> tuple[int, dict[str, Any]]:
    """The file's first rule for ``relation``: its number as errors give it (from 1), and the rule."""
    return next((number, rule) for number, rule in enumerate(data["rules"], start=1) if rule["relation"] == relation)


def failure(data: dict[str, Any], parser: Callable[[dict[str, Any]], object] = parse) -> str:
    with pytest.raises(ValueError) as raised:
        parser(data)
    return str(raised.value)


def test_the_shipped_files_load() -> None:
    data = shipped()
    parsed = parse(data)
    assert len(parsed.rules) == len(data["rules"])
    assert set(parsed.shapes) == set(data["shapes"])
    assert set(parse_types(load_rules("relation_types"))) == set(relation_types())
    assert {rule.relation for rule in rules()} == set(relation_types())


def test_an_unknown_key_names_the_rule() -> None:
    data = shipped()
    number, rule = first_rule(data, "LIVES_IN")
    rule["verbz"] = ["live"]
    name = f"rule {number} (LIVES_IN on {', '.join(rule['shapes'])})"
    assert failure(data) == f"{FILE}: {name}: unknown key 'verbz'"


def test_a_wrong_type_names_the_rule_and_the_key() -> None:
    data = shipped()
    number, rule = first_rule(data, "WORKS_AT")
    rule["confidence"] = "0.8"  # a string, though it reads as a number
    message = failure(data)
    assert message.startswith(f"{FILE}: rule {number} (WORKS_AT on {', '.join(rule['shapes'])}): confidence: ")
    assert "'0.8'" in message


@pytest.mark.parametrize(
    ("key", "value"),
    [("inverse", "yes"), ("verbs", "live"), ("subject_is", "persn"), ("confidence", 1.5), ("shapes", [])],
)
def test_each_wrong_value_names_the_rule(key: str, value: object) -> None:
    data = shipped()
    number, rule = first_rule(data, "LIVES_IN")
    rule[key] = value
    assert failure(data).startswith(f"{FILE}: rule {number} (LIVES_IN on ")
    assert f": {key}: " in failure(data)


def test_a_missing_required_key_names_the_rule() -> None:
    data = shipped()
    number, rule = first_rule(data, "MARRIED_TO")
    del rule["confidence"]
    name = f"rule {number} (MARRIED_TO on {', '.join(rule['shapes'])})"
    assert failure(data) == f"{FILE}: {name}: missing key 'confidence'"


def test_a_rule_without_a_relation_is_named_by_its_place() -> None:
    data = shipped()
    del data["rules"][2]["relation"]
    assert re.fullmatch(rf"{re.escape(FILE)}: rule 3 \(\? on .*\): missing key 'relation'", failure(data))


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        (lambda rule: rule.update(shapes=["verb_prepp"]), "unknown shapes ['verb_prepp']"),
        (lambda rule: rule.update(verbs=["@no_such_list"]), "unknown lexicons ['no_such_list']"),
        (lambda rule: rule.update(relation="RESIDES_IN"), "relation 'RESIDES_IN' is not declared"),
        (lambda rule: rule.update(subjects=["place"]), "narrows its entity types"),
        (lambda rule: rule.update(mint_from="nowhere"), "mint_from 'nowhere' is no node of shape"),
        (lambda rule: rule.pop("verbs"), "requires ['verbs']"),
        (lambda rule: rule.update(adjectives=["fond"]), "fills ['adjectives'], which none of its shapes uses"),
    ],
)
def test_a_rule_that_does_not_fit_the_file_names_the_rule(
    edit: Callable[[dict[str, Any]], object], problem: str
) -> None:
    data = shipped()
    number, rule = first_rule(data, "LIVES_IN")
    edit(rule)
    message = failure(data)
    assert message.startswith(f"{FILE}: rule {number} (")
    assert problem in message


def test_a_bad_shape_names_the_shape() -> None:
    data = shipped()
    data["shapes"]["verb_prep"]["clausal"] = "yes"
    assert failure(data).startswith(f"{FILE}: shape verb_prep: clausal: ")
    data = shipped()
    data["shapes"]["verb_prep"]["pattern"][0]["RIGHT_ATTRS"]["LEMMA"] = "$verbs"
    assert "shape verb_prep: pattern.0: LEMMA: a placeholder stands for words" in failure(data)
    data = shipped()
    data["shapes"]["verb_prep"]["pattern"][0]["RIGHT_ATTRS"]["SHAPE"] = "Xxxx"
    assert failure(data).startswith(f"{FILE}: shape verb_prep: pattern.0.RIGHT_ATTRS.SHAPE.[key]: ")


def test_a_bad_table_names_its_key() -> None:
    data = shipped()
    data["clause"]["matrix"]["want"] = "maybe"
    assert failure(data).startswith(f"{FILE}: clause.matrix.want: ")
    data = shipped()
    data["confidence"]["pronoun"] = 0
    assert failure(data).startswith(f"{FILE}: confidence.pronoun: ")


def test_a_bad_relation_type_names_the_type() -> None:
    data = load_rules("relation_types")
    data["types"][1]["subject"] = ["persn"]
    name = data["types"][1]["name"]
    message = failure(data, parse_types)
    assert message.startswith(f"extract/relation_types.toml: type 2 ({name}): subject.0: ")
    data = load_rules("relation_types")
    data["types"][0]["functionnal"] = True
    assert failure(data, parse_types).endswith(f"type 1 ({data['types'][0]['name']}): unknown key 'functionnal'")
