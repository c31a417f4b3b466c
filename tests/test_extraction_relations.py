"""Typed relations and fact candidates: the dependency rules, first person resolved to the speaker,
negation, hypotheticals that assert nothing, fact kinds, statements and polarity. Pure: no store."""

from __future__ import annotations

import pytest
import spacy

from hippograph.extraction.facts import find_facts
from hippograph.extraction.model import EntityType, Extraction, FactCandidate, Mention
from hippograph.extraction.pipeline import Extractor, Turn
from hippograph.extraction.polarity import opposite_polarity
from hippograph.extraction.relation_rules import rules
from hippograph.extraction.relations import find_relations
from hippograph.extraction.vocabulary import relation_types

SPEAKER = "Caroline"
Triple = tuple[str, str, str, bool]  # subject name, predicate, object name, negated


def extract(extractor: Extractor, text: str, speaker: str | None = SPEAKER) -> Extraction:
    return extractor.extract(Turn(text, speaker))


def triples(extraction: Extraction) -> set[Triple]:
    names = [mention.name for mention in extraction.mentions]
    return {(names[r.subject], r.predicate, names[r.object], r.negated) for r in extraction.relations}


def only_fact(extraction: Extraction) -> FactCandidate:
    assert len(extraction.facts) == 1, extraction.facts
    return extraction.facts[0]


# --- every relation type ------------------------------------------------------------------------

# One realistic sentence per type (chat, engineering notes, CRM notes), and the edge it states.
EVERY_TYPE: list[tuple[str, Triple]] = [
    ("Sarah works at Google as a product manager.", ("Sarah", "WORKS_AT", "Google", False)),
    ("We moved to Denver in 2019.", (SPEAKER, "LIVES_IN", "Denver", False)),
    ("My wife Anna is a nurse.", (SPEAKER, "MARRIED_TO", "Anna", False)),
    ("The checkout service is live.", ("checkout service", "STATUS", "live", False)),
    ("I'm a software engineer at Shopify.", (SPEAKER, "HAS_ROLE", "software engineer", False)),
    ("I report to Lisa.", (SPEAKER, "REPORTS_TO", "Lisa", False)),
    ("I'm a student at Stanford.", (SPEAKER, "STUDIES_AT", "Stanford", False)),
    ("Acme Corp is headquartered in Austin.", ("Acme Corp", "LOCATED_IN", "Austin", False)),
    ("I was born in Paris.", (SPEAKER, "BORN_IN", "Paris", False)),
    ("I grew up in Chicago.", (SPEAKER, "FROM", "Chicago", False)),
    ("I'm working on the billing migration.", (SPEAKER, "WORKS_ON", "billing migration", False)),
    ("We use Postgres for the event store.", (SPEAKER, "USES", "PostgreSQL", False)),
    ("Hippograph depends on Postgres.", ("Hippograph", "DEPENDS_ON", "PostgreSQL", False)),
    ("I'm a member of the chess club.", (SPEAKER, "MEMBER_OF", "chess club", False)),
    ("I lead the data team.", (SPEAKER, "MANAGES", "data team", False)),
    ("Anna Lee founded Acme Corp in 2015.", ("Anna Lee", "FOUNDED", "Acme Corp", False)),
    ("Maria wrote a novel about her grandmother.", ("Maria", "CREATED", "novel", False)),
    ("I own a bakery in Portland.", (SPEAKER, "OWNS", "bakery", False)),
    ("Sam is a friend of mine.", ("Sam", "FRIEND_OF", SPEAKER, False)),
    ("Anna is my sister.", (SPEAKER, "SIBLING_OF", "Anna", False)),
    ("I have a son named Jake.", (SPEAKER, "PARENT_OF", "Jake", False)),
    ("I love hiking.", (SPEAKER, "LIKES", "hiking", False)),
    ("I can't stand jazz.", (SPEAKER, "DISLIKES", "jazz", False)),
    ("I visited Japan last spring.", (SPEAKER, "VISITED", "Japan", False)),
    ("I attended the Web Summit in Lisbon last year.", (SPEAKER, "ATTENDED", "Web Summit", False)),
    ("Instagram is part of Meta.", ("Instagram", "PART_OF", "Meta", False)),
]


def test_the_examples_cover_the_whole_vocabulary() -> None:
    assert {triple[1] for _, triple in EVERY_TYPE} == set(relation_types())


def test_every_type_has_rules_and_every_rule_compiles() -> None:
    covered = {rule.relation for rule in rules()}
    assert covered == set(relation_types())


@pytest.mark.parametrize(("text", "expected"), EVERY_TYPE, ids=[t[1] for _, t in EVERY_TYPE])
def test_each_relation_type_fires(extractor: Extractor, text: str, expected: Triple) -> None:
    assert expected in triples(extract(extractor, text))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # possessive and copular relational nouns, both directions
        ("Maria, my wife, works at Google.", (SPEAKER, "MARRIED_TO", "Maria", False)),
        ("My mom Linda lives in Tampa.", ("Linda", "PARENT_OF", SPEAKER, False)),
        ("I'm Jake's dad.", (SPEAKER, "PARENT_OF", "Jake", False)),
        ("My manager Lisa approved the budget.", (SPEAKER, "REPORTS_TO", "Lisa", False)),
        ("Sam and I are friends.", ("Sam", "FRIEND_OF", SPEAKER, False)),
        ("I have a daughter, Mia.", (SPEAKER, "PARENT_OF", "Mia", False)),
        # relative clauses and coordination
        ("Tom, who works at Microsoft, lives in Seattle.", ("Tom", "WORKS_AT", "Microsoft", False)),
        ("Tom, who works at Microsoft, lives in Seattle.", ("Tom", "LIVES_IN", "Seattle", False)),
        ("Anna and I moved to Portland in 2019.", ("Anna", "LIVES_IN", "Portland", False)),
        ("I live in Boston and work at Google.", (SPEAKER, "WORKS_AT", "Google", False)),
        # passives name the doer after "by"
        ("Instagram was acquired by Facebook.", ("Facebook", "OWNS", "Instagram", False)),
        ("Anna was hired by Stripe in 2021.", ("Anna", "WORKS_AT", "Stripe", False)),
        # engineering notes
        ("We replaced Jenkins with GitHub Actions.", (SPEAKER, "USES", "GitHub Actions", False)),
        ("The Atlas migration is still blocked on legal review.", ("migration", "STATUS", "blocked", False)),
        ("The payments project is in progress.", ("payments project", "STATUS", "in progress", False)),
        ("Dark mode is disabled in production.", ("Dark mode", "STATUS", "disabled", False)),
        # a pronoun with exactly one person it can mean
        ("My wife Anna is a nurse. She loves hiking.", ("Anna", "LIKES", "hiking", False)),
    ],
)
def test_more_shapes(extractor: Extractor, text: str, expected: Triple) -> None:
    assert expected in triples(extract(extractor, text))


# --- first person and the speaker ------------------------------------------------------------------


def test_first_person_is_the_speaker(extractor: Extractor) -> None:
    extraction = extract(extractor, "I moved to Boston last May.")
    [relation] = extraction.relations
    speaker = extraction.mentions[relation.subject]
    assert (speaker.role, speaker.name, relation.predicate) == ("speaker", SPEAKER, "LIVES_IN")
    assert extraction.mentions[relation.object].name == "Boston"


def test_a_speaker_label_is_attribution(extractor: Extractor) -> None:
    extraction = extract(extractor, "Caroline: I moved to Boston last May.")
    assert triples(extraction) == {(SPEAKER, "LIVES_IN", "Boston", False)}
    assert only_fact(extraction).statement == "Caroline moved to Boston last May."


def test_without_a_speaker_first_person_states_no_relation(extractor: Extractor) -> None:
    extraction = extract(extractor, "I moved to Boston last May. Tom lives in Seattle.", speaker=None)
    assert triples(extraction) == {("Tom", "LIVES_IN", "Seattle", False)}


def test_an_uncovered_object_becomes_a_concept_mention(extractor: Extractor) -> None:
    extraction = extract(extractor, "I prefer dark mode.")
    [relation] = extraction.relations
    minted = extraction.mentions[relation.object]
    assert (minted.text, minted.type, minted.source) == ("dark mode", EntityType.CONCEPT, "relation")
    assert minted.sentence == 0


# --- negation ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I don't live in Denver anymore.", (SPEAKER, "LIVES_IN", "Denver", True)),
        ("I no longer work at Google.", (SPEAKER, "WORKS_AT", "Google", True)),
        ("I've never been to Japan.", (SPEAKER, "VISITED", "Japan", True)),
        ("We don't use Kubernetes.", (SPEAKER, "USES", "Kubernetes", True)),
        ("We migrated off Heroku last year.", (SPEAKER, "USES", "Heroku", True)),
        ("I used to live in Denver.", (SPEAKER, "LIVES_IN", "Denver", True)),
        ("I worked at Google for five years.", (SPEAKER, "WORKS_AT", "Google", True)),
        ("I left Google in March.", (SPEAKER, "WORKS_AT", "Google", True)),
        ("I stopped working at Acme in May.", (SPEAKER, "WORKS_AT", "Acme", True)),
        ("I was a teacher before I joined Acme.", (SPEAKER, "HAS_ROLE", "teacher", True)),
        ("I'm not a fan of meetings.", (SPEAKER, "LIKES", "meetings", True)),
        ("My late husband Tom was a pilot.", (SPEAKER, "MARRIED_TO", "Tom", True)),
        # a negation the trigger needs is no negation of the relation
        ("I can't stand jazz.", (SPEAKER, "DISLIKES", "jazz", False)),
        # the present perfect still holds
        ("I've lived in Austin since 2015.", (SPEAKER, "LIVES_IN", "Austin", False)),
    ],
)
def test_negation(extractor: Extractor, text: str, expected: Triple) -> None:
    assert expected in triples(extract(extractor, text))


# --- must not fire: a wrong edge is worse than a missing one ------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "I want to move to Denver.",  # intention
        "I'm thinking about moving to Denver.",
        "If I move to Denver, I'll tell you.",  # condition
        "I'd love to visit Japan someday.",  # modal
        "I might join Google next year.",
        "Do you live in Boston?",  # question
        "Should we use Redis for the cache?",
        "I reported the bug to Lisa.",  # "report X to" is no reporting line
        "I met Anna's husband. He works at Google.",  # "he" is not Anna
        "My brother-in-law Tom lives in Denver.",  # not a sibling: no SIBLING_OF, and Tom's home is fine
        "I went to bed early.",  # no event, no place
        "I work at home on Fridays.",  # "home" is no organization
        "I started Monday.",  # a date is no company
        "I ran a marathon in Boston.",
        "I came from the store.",  # a trip, not an origin
        "I made a mistake.",
        "The bus was delayed again.",  # not a tracked piece of work
        "I'm down for pizza tonight.",  # a person has no STATUS
        "I'm blocked on the code review.",
        "I love it!",
        "Thanks, that's great!",
    ],
)
def test_must_not_fire(extractor: Extractor, text: str) -> None:
    found = triples(extract(extractor, text))
    allowed = {("Tom", "LIVES_IN", "Denver", False)}
    assert found <= allowed, found


def test_a_name_is_not_split_into_relations(extractor: Extractor) -> None:
    found = triples(extract(extractor, "Call with Dana Whitfield, VP of Engineering at Northwind."))
    assert not {triple for triple in found if triple[1] == "WORKS_AT"}, found


def test_a_hedged_clause_loses_confidence(extractor: Extractor) -> None:
    plain = extract(extractor, "Tom works at Apple.").relations
    hedged = extract(extractor, "I think Tom works at Apple.").relations
    assert [r.predicate for r in hedged] == ["WORKS_AT"]
    assert hedged[0].confidence < plain[0].confidence


def test_the_rules_only_pipeline_states_nothing() -> None:
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    doc = nlp("I moved to Boston last May.")
    mentions = [Mention(SPEAKER, 0, 0, EntityType.PERSON, None, "speaker", role="speaker")]
    relations, after = find_relations(doc, mentions)
    assert (relations, after) == ([], mentions)
    assert find_facts(doc, after, relations, SPEAKER) == []


# --- facts -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Hey!",
        "Thanks, that's great!",
        "How are you?",
        "Good morning Melanie!",
        "I love it!",
        "I miss you!",
        "Have a great weekend!",
        "I think so too.",
        "Do you still live in Boston?",
        "Where did you move to?",
    ],
)
def test_small_talk_and_questions_yield_no_fact(extractor: Extractor, text: str) -> None:
    assert extract(extractor, text).facts == ()


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("I prefer dark mode.", "preference"),
        ("My favorite food is sushi.", "preference"),
        ("We decided to use Postgres for the event store.", "decision"),
        ("We're going with Redis for the cache.", "decision"),
        ("Lisa approved the budget yesterday.", "decision"),
        ("Never deploy on Fridays.", "procedure"),
        ("Always run the tests before merging.", "procedure"),
        ("The deploy is blocked on the database migration.", "status"),
        ("The payments project is in progress.", "status"),
        ("I'm a nurse.", "identity"),
        ("I am transgender.", "identity"),
        ("I'm vegetarian and I have two kids.", "identity"),
        ("I was born in Paris.", "identity"),
        ("I need to renew my passport.", "task"),
        ("Remind me to call Anna tomorrow.", "task"),
        ("Next step: send pricing by Friday.", "task"),
        # a cue in an "until" clause does not decide the kind
        ("The v3 launch is on hold until legal signs off.", "status"),
        ("Yesterday I went to a pottery class.", "event"),
        ("I moved to Boston last May.", "event"),
        ("I have two kids.", "fact"),
        ("I report to Lisa.", "fact"),
        # "never" about oneself is a habit, not a rule of conduct
        ("I never eat meat.", "fact"),
    ],
)
def test_kinds(extractor: Extractor, text: str, kind: str) -> None:
    assert only_fact(extract(extractor, text)).kind == kind


@pytest.mark.parametrize(
    ("text", "statement"),
    [
        ("I moved to Boston.", "Caroline moved to Boston."),
        ("  I'm vegetarian.  ", "Caroline is vegetarian."),
        ("I need to renew my passport.", "Caroline needs to renew Caroline's passport."),
        ("I don't like coffee anymore.", "Caroline doesn't like coffee anymore."),
        ("I've been working at Google since 2019.", "Caroline has been working at Google since 2019."),
        ("Anna and I moved to Portland in 2019.", "Anna and Caroline moved to Portland in 2019."),
        ("I live and work in Boston.", "Caroline lives and works in Boston."),
        ("I write code and play guitar.", "Caroline writes code and plays guitar."),
        ("I can write code and play guitar.", "Caroline can write code and play guitar."),
        ("Sam is a friend of mine.", "Sam is a friend of Caroline's."),
        ("I watch a lot of anime with my brother.", "Caroline watches a lot of anime with Caroline's brother."),
    ],
)
def test_statements_name_the_speaker(extractor: Extractor, text: str, statement: str) -> None:
    assert only_fact(extract(extractor, text)).statement == statement


def test_a_fact_carries_its_relation(extractor: Extractor) -> None:
    extraction = extract(extractor, "I don't live in Denver anymore.")
    fact = only_fact(extraction)
    assert (fact.predicate, fact.negated, fact.kind) == ("LIVES_IN", True, "fact")
    assert fact.subject is not None and fact.object is not None
    assert extraction.mentions[fact.subject].role == "speaker"
    assert extraction.mentions[fact.object].name == "Denver"


def test_one_fact_per_sentence_worth_keeping(extractor: Extractor) -> None:
    extraction = extract(extractor, "Hey Melanie! I moved to Boston last May. How are you?")
    assert [(fact.sentence, fact.kind) for fact in extraction.facts] == [(1, "event")]


# --- polarity --------------------------------------------------------------------------------------


def test_polarity_stores_the_canonical_member(extractor: Extractor) -> None:
    on = only_fact(extract(extractor, "Guests are allowed in the lab."))
    off = only_fact(extract(extractor, "Guests are forbidden in the lab."))
    assert (on.polarity, off.polarity) == ("allow", "deny")
    assert on.predicate == off.predicate == "allow/deny"  # one predicate, so a checker can compare
    assert opposite_polarity("deny") == "allow"
    assert opposite_polarity("enabled") == "disabled"
    assert opposite_polarity("blue") is None


@pytest.mark.parametrize(
    ("text", "polarity"),
    [
        ("Always run the tests before merging.", "always"),
        ("Never deploy on Fridays.", "never"),
        ("Dark mode is disabled in production.", "disabled"),
        ("The site went down last night.", "down"),
        ("I grew up in Chicago.", None),  # a particle, not a state
        ("I'm on the platform team.", None),  # a preposition
        ("Renewal is at risk if we can't support SSO.", None),  # an "if" clause
    ],
)
def test_polarity_words(extractor: Extractor, text: str, polarity: str | None) -> None:
    assert only_fact(extract(extractor, text)).polarity == polarity
