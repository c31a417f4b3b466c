"""Writes bench/data/near_duplicates.jsonl: labelled pairs of a stored text and a new one, for
measuring the near-duplicate tiers (bench/near_duplicates_eval.py; docs/memory-management.md,
Near-duplicates). Seeded: the same file every run.

Every sentence below was written by hand for this set. Each base is a stored text with a name
({n}), a number ({q}) and a date ({d}), and four rewrites of it by hand:

* ``paraphrase``: the same statement in other words, every name, number, date and negation kept
  (label ``duplicate``: storing it again adds nothing);
* ``subset``: part of the statement, nothing added (label ``subsumed``: adds nothing);
* ``extension``: the statement and one more detail (label ``extends``: must be kept);
* ``negation``: the statement denied (label ``distinct``).

Three more rewrites per base are made by substitution, each a near miss that must be kept
(label ``distinct``): another number, another name, another date.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

OUT = Path(__file__).with_name("near_duplicates.jsonl")
NAMES = ["Caroline", "Melanie", "Dana", "Jon", "Priya", "Marcus", "Elena", "Tomas", "Aisha", "Grace", "Kenji", "Omar"]
DATES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "March", "June", "October"]
NUMBERS = ["2", "3", "4", "5", "7", "12", "15", "20", "40", "60", "250", "1,200"]

# (stored, paraphrase, subset, extension, negation)
BASES: list[tuple[str, str, str, str, str]] = [
    (
        "{n} paid {q} dollars for the concert tickets on {d}.",
        "On {d}, {n} spent {q} dollars on the concert tickets.",
        "{n} paid for the concert tickets.",
        "{n} paid {q} dollars for the concert tickets on {d}, and the seats were in the front row.",
        "{n} did not pay {q} dollars for the concert tickets on {d}.",
    ),
    (
        "{n} adopted {q} kittens from the shelter on {d}.",
        "On {d}, {n} took home {q} kittens from the shelter.",
        "{n} adopted kittens from the shelter.",
        "{n} adopted {q} kittens from the shelter on {d} and named the smallest one Pepper.",
        "{n} never adopted {q} kittens from the shelter on {d}.",
    ),
    (
        "The deploy on {d} failed because {q} database migrations timed out, {n} said.",
        "{n} said the {d} deploy failed since {q} database migrations timed out.",
        "The deploy failed because database migrations timed out.",
        "The deploy on {d} failed because {q} database migrations timed out, {n} said, and the rollback took an hour.",
        "The deploy on {d} did not fail because {q} database migrations timed out, {n} said.",
    ),
    (
        "{n} ran {q} kilometres along the river on {d} morning.",
        "On {d} morning {n} ran {q} kilometres along the river.",
        "{n} ran along the river.",
        "{n} ran {q} kilometres along the river on {d} morning with a new pair of trail shoes.",
        "{n} didn't run {q} kilometres along the river on {d} morning.",
    ),
    (
        "{n} signed the renewal for {q} seats on {d}.",
        "The renewal for {q} seats was signed by {n} on {d}.",
        "{n} signed the renewal.",
        "{n} signed the renewal for {q} seats on {d} after legal approved the data processing addendum.",
        "{n} has not signed the renewal for {q} seats on {d}.",
    ),
    (
        "{n} booked a table for {q} people at the Italian restaurant for {d}.",
        "For {d}, {n} reserved a table for {q} people at the Italian restaurant.",
        "{n} booked a table at the Italian restaurant.",
        "{n} booked a table for {q} people at the Italian restaurant for {d}, on the terrace by the fountain.",
        "{n} did not book a table for {q} people at the Italian restaurant for {d}.",
    ),
    (
        "{n} fixed {q} flaky tests in the payment service on {d}.",
        "On {d}, {n} repaired {q} flaky tests in the payment service.",
        "{n} fixed flaky tests in the payment service.",
        "{n} fixed {q} flaky tests in the payment service on {d} by mocking the clock in the retry helper.",
        "{n} didn't fix {q} flaky tests in the payment service on {d}.",
    ),
    (
        "{n} has been learning the guitar for {q} months, since {d}.",
        "Since {d}, {n} has been learning the guitar for {q} months.",
        "{n} has been learning the guitar.",
        "{n} has been learning the guitar for {q} months, since {d}, mostly folk songs from a library book.",
        "{n} has not been learning the guitar for {q} months, since {d}.",
    ),
    (
        "The Acme account asked {n} for {q} extra licences on {d}.",
        "On {d}, the Acme account requested {q} extra licences from {n}.",
        "The Acme account asked for extra licences.",
        "The Acme account asked {n} for {q} extra licences on {d} for their new support team in Lisbon.",
        "The Acme account did not ask {n} for {q} extra licences on {d}.",
    ),
    (
        "{n} planted {q} tomato plants in the garden on {d}.",
        "On {d}, {n} put {q} tomato plants in the garden.",
        "{n} planted tomato plants in the garden.",
        "{n} planted {q} tomato plants in the garden on {d} next to the basil and the marigolds.",
        "{n} never planted {q} tomato plants in the garden on {d}.",
    ),
    (
        "The API latency rose to {q} milliseconds on {d}, {n} reported.",
        "{n} reported that the API latency went up to {q} milliseconds on {d}.",
        "The API latency rose.",
        "The API latency rose to {q} milliseconds on {d}, {n} reported, after the cache cluster lost a node.",
        "The API latency did not rise to {q} milliseconds on {d}, {n} reported.",
    ),
    (
        "{n} visited {q} museums in Rome on {d}.",
        "On {d}, {n} went to {q} museums in Rome.",
        "{n} visited museums in Rome.",
        "{n} visited {q} museums in Rome on {d} and bought a print of a Caravaggio painting.",
        "{n} didn't visit {q} museums in Rome on {d}.",
    ),
    (
        "{n} moved the standup to {q} o'clock starting {d}.",
        "Starting {d}, {n} moved the standup to {q} o'clock.",
        "{n} moved the standup.",
        "{n} moved the standup to {q} o'clock starting {d} so the Berlin team can join it.",
        "{n} did not move the standup to {q} o'clock starting {d}.",
    ),
    (
        "{n} baked {q} loaves of sourdough bread on {d}.",
        "On {d}, {n} made {q} loaves of sourdough bread.",
        "{n} baked sourdough bread.",
        "{n} baked {q} loaves of sourdough bread on {d} with rye flour from the farmers market.",
        "{n} didn't bake {q} loaves of sourdough bread on {d}.",
    ),
    (
        "{n} closed {q} support tickets about the login bug on {d}.",
        "On {d}, {n} resolved {q} support tickets about the login bug.",
        "{n} closed support tickets about the login bug.",
        "{n} closed {q} support tickets about the login bug on {d} after the hotfix reached every region.",
        "{n} did not close {q} support tickets about the login bug on {d}.",
    ),
    (
        "{n} volunteered for {q} hours at the community kitchen on {d}.",
        "On {d}, {n} spent {q} hours volunteering at the community kitchen.",
        "{n} volunteered at the community kitchen.",
        "{n} volunteered for {q} hours at the community kitchen on {d}, serving soup to the evening queue.",
        "{n} did not volunteer for {q} hours at the community kitchen on {d}.",
    ),
    (
        "The board approved a budget of {q} thousand euros for the pilot on {d}, {n} wrote.",
        "{n} wrote that on {d} the board approved a budget of {q} thousand euros for the pilot.",
        "The board approved a budget for the pilot.",
        "The board approved a budget of {q} thousand euros for the pilot on {d}, {n} wrote, with a review after the first quarter.",
        "The board did not approve a budget of {q} thousand euros for the pilot on {d}, {n} wrote.",
    ),
    (
        "{n} read {q} chapters of the mystery novel on {d}.",
        "On {d}, {n} got through {q} chapters of the mystery novel.",
        "{n} read the mystery novel.",
        "{n} read {q} chapters of the mystery novel on {d} while waiting at the airport.",
        "{n} didn't read {q} chapters of the mystery novel on {d}.",
    ),
    (
        "{n} added {q} new nodes to the search cluster on {d}.",
        "On {d}, {n} expanded the search cluster with {q} new nodes.",
        "{n} added nodes to the search cluster.",
        "{n} added {q} new nodes to the search cluster on {d} to handle the holiday traffic.",
        "{n} did not add {q} new nodes to the search cluster on {d}.",
    ),
    (
        "{n} hiked {q} miles in the mountains with the dog on {d}.",
        "On {d}, {n} and the dog hiked {q} miles in the mountains.",
        "{n} hiked in the mountains with the dog.",
        "{n} hiked {q} miles in the mountains with the dog on {d} and camped by a glacier lake.",
        "{n} didn't hike {q} miles in the mountains with the dog on {d}.",
    ),
    (
        "{n} ordered {q} boxes of printer paper for the office on {d}.",
        "On {d}, {n} bought {q} boxes of printer paper for the office.",
        "{n} ordered printer paper for the office.",
        "{n} ordered {q} boxes of printer paper for the office on {d} from the usual supplier in Leeds.",
        "{n} did not order {q} boxes of printer paper for the office on {d}.",
    ),
    (
        "{n} painted {q} portraits for the art show on {d}.",
        "For the art show on {d}, {n} painted {q} portraits.",
        "{n} painted portraits for the art show.",
        "{n} painted {q} portraits for the art show on {d}, all of them in watercolour.",
        "{n} never painted {q} portraits for the art show on {d}.",
    ),
    (
        "The outage on {d} affected {q} customers in the EU region, {n} confirmed.",
        "{n} confirmed that {q} customers in the EU region were affected by the outage on {d}.",
        "The outage affected customers in the EU region.",
        "The outage on {d} affected {q} customers in the EU region, {n} confirmed, and credits will be issued.",
        "The outage on {d} did not affect {q} customers in the EU region, {n} confirmed.",
    ),
    (
        "{n} swam {q} laps at the pool on {d} evening.",
        "On {d} evening {n} swam {q} laps at the pool.",
        "{n} swam laps at the pool.",
        "{n} swam {q} laps at the pool on {d} evening to train for the open water race.",
        "{n} didn't swim {q} laps at the pool on {d} evening.",
    ),
    (
        "{n} interviewed {q} candidates for the data engineer role on {d}.",
        "On {d}, {n} held interviews with {q} candidates for the data engineer role.",
        "{n} interviewed candidates for the data engineer role.",
        "{n} interviewed {q} candidates for the data engineer role on {d} and liked the one from the bank.",
        "{n} did not interview {q} candidates for the data engineer role on {d}.",
    ),
    (
        "{n} donated {q} books to the school library on {d}.",
        "On {d}, {n} gave {q} books to the school library.",
        "{n} donated books to the school library.",
        "{n} donated {q} books to the school library on {d}, mostly picture books for the youngest classes.",
        "{n} didn't donate {q} books to the school library on {d}.",
    ),
    (
        "{n} rotated {q} API keys for the billing service on {d}.",
        "On {d}, {n} rotated {q} API keys of the billing service.",
        "{n} rotated API keys for the billing service.",
        "{n} rotated {q} API keys for the billing service on {d} after one showed up in a public log.",
        "{n} did not rotate {q} API keys for the billing service on {d}.",
    ),
    (
        "{n} and her sister drove {q} hours to the beach house on {d}.",
        "On {d}, {n} and her sister made a {q} hour drive to the beach house.",
        "{n} and her sister drove to the beach house.",
        "{n} and her sister drove {q} hours to the beach house on {d} and stopped for pie halfway.",
        "{n} and her sister didn't drive {q} hours to the beach house on {d}.",
    ),
    (
        "The vendor quoted {n} {q} thousand dollars for the annual contract on {d}.",
        "On {d}, the vendor gave {n} a quote of {q} thousand dollars for the annual contract.",
        "The vendor quoted a price for the annual contract.",
        "The vendor quoted {n} {q} thousand dollars for the annual contract on {d}, including onsite training.",
        "The vendor did not quote {n} {q} thousand dollars for the annual contract on {d}.",
    ),
    (
        "{n} knitted {q} scarves for the winter market on {d}.",
        "For the winter market on {d}, {n} knitted {q} scarves.",
        "{n} knitted scarves for the winter market.",
        "{n} knitted {q} scarves for the winter market on {d} in red and grey wool.",
        "{n} didn't knit {q} scarves for the winter market on {d}.",
    ),
    (
        "{n} merged {q} pull requests into the main branch on {d}.",
        "On {d}, {n} merged {q} pull requests into the main branch.",
        "{n} merged pull requests into the main branch.",
        "{n} merged {q} pull requests into the main branch on {d}, including the new rate limiter.",
        "{n} did not merge {q} pull requests into the main branch on {d}.",
    ),
    (
        "{n} attended {q} workshops at the design conference on {d}.",
        "On {d}, {n} went to {q} workshops at the design conference.",
        "{n} attended workshops at the design conference.",
        "{n} attended {q} workshops at the design conference on {d} and spoke on a panel about accessibility.",
        "{n} didn't attend {q} workshops at the design conference on {d}.",
    ),
    (
        "{n} lost {q} kilos after cutting out sugar in {d}.",
        "After cutting out sugar in {d}, {n} lost {q} kilos.",
        "{n} cut out sugar.",
        "{n} lost {q} kilos after cutting out sugar in {d} and started sleeping better too.",
        "{n} did not lose {q} kilos after cutting out sugar in {d}.",
    ),
    (
        "{n} escalated {q} invoices to the finance team on {d}.",
        "On {d}, {n} sent {q} invoices up to the finance team.",
        "{n} escalated invoices to the finance team.",
        "{n} escalated {q} invoices to the finance team on {d} because the purchase orders were missing.",
        "{n} didn't escalate {q} invoices to the finance team on {d}.",
    ),
    (
        "{n} picked {q} kilos of apples at the orchard on {d}.",
        "On {d}, {n} gathered {q} kilos of apples at the orchard.",
        "{n} picked apples at the orchard.",
        "{n} picked {q} kilos of apples at the orchard on {d} and made cider with the bruised ones.",
        "{n} did not pick {q} kilos of apples at the orchard on {d}.",
    ),
    (
        "The nightly backup took {q} minutes on {d}, {n} noticed.",
        "{n} noticed that on {d} the nightly backup took {q} minutes.",
        "The nightly backup took a while.",
        "The nightly backup took {q} minutes on {d}, {n} noticed, because the snapshot volume was full.",
        "The nightly backup did not take {q} minutes on {d}, {n} noticed.",
    ),
    (
        "{n} taught {q} kids to skate at the rink on {d}.",
        "On {d}, {n} taught {q} kids how to skate at the rink.",
        "{n} taught kids to skate at the rink.",
        "{n} taught {q} kids to skate at the rink on {d}, and the youngest was only four.",
        "{n} never taught {q} kids to skate at the rink on {d}.",
    ),
    (
        "{n} renewed the TLS certificates on {q} servers on {d}.",
        "On {d}, {n} renewed TLS certificates on {q} servers.",
        "{n} renewed the TLS certificates.",
        "{n} renewed the TLS certificates on {q} servers on {d} with the new automated script.",
        "{n} did not renew the TLS certificates on {q} servers on {d}.",
    ),
    (
        "{n} recorded {q} songs at the studio on {d}.",
        "On {d}, {n} recorded {q} songs in the studio.",
        "{n} recorded songs at the studio.",
        "{n} recorded {q} songs at the studio on {d} with a borrowed vintage microphone.",
        "{n} didn't record {q} songs at the studio on {d}.",
    ),
    (
        "{n} promised the customer a refund of {q} pounds on {d}.",
        "On {d}, {n} promised the customer a {q} pound refund.",
        "{n} promised the customer a refund.",
        "{n} promised the customer a refund of {q} pounds on {d}, paid back to the original card.",
        "{n} did not promise the customer a refund of {q} pounds on {d}.",
    ),
]


def main() -> None:
    rng = random.Random(30)
    rows = []
    for index, (stored, paraphrase, subset, extension, negation) in enumerate(BASES):
        name, other_name = rng.sample(NAMES, 2)
        date, other_date = rng.sample(DATES, 2)
        number, other_number = rng.sample(NUMBERS, 2)
        slots = {"n": name, "q": number, "d": date}
        base = stored.format(**slots)
        rewrites = [
            ("paraphrase", "duplicate", paraphrase.format(**slots)),
            ("subset", "subsumed", subset.format(**slots)),
            ("extension", "extends", extension.format(**slots)),
            ("negation", "distinct", negation.format(**slots)),
            ("number", "distinct", stored.format(**{**slots, "q": other_number})),
            ("name", "distinct", stored.format(**{**slots, "n": other_name})),
            ("date", "distinct", stored.format(**{**slots, "d": other_date})),
            ("paraphrase_number", "distinct", paraphrase.format(**{**slots, "q": other_number})),
        ]
        for variant, label, new in rewrites:
            rows.append({"base": index, "variant": variant, "label": label, "stored": base, "new": new})
    OUT.write_text("".join(json.dumps(row) + "\n" for row in rows))
    print(f"{len(rows)} pairs from {len(BASES)} bases -> {OUT}")


if __name__ == "__main__":
    main()
