"""Entity mentions: the dictionary, NER label mapping, regex rules, junk filter, speaker and
sentence indexes, and the rules-only fallback pipeline. Pure: no store."""

from __future__ import annotations

import logging
from functools import cache
from itertools import pairwise

import pytest
import spacy
from spacy.language import Language

from hippograph.extraction import nlp as nlp_module
from hippograph.extraction.junk import is_junk, junk_reason, strip_leading_noise
from hippograph.extraction.mentions import find_mentions
from hippograph.extraction.model import EntityType, Mention
from hippograph.extraction.nlp import load_pipeline, span_label
from hippograph.extraction.pipeline import Extractor, Turn

PRODUCT, PERSON = EntityType.PRODUCT, EntityType.PERSON


@pytest.fixture(scope="module")
def blank() -> Language:
    """The rules-only pipeline load_pipeline falls back to when no model is installed."""
    return nlp_module.prepare_pipeline(spacy.blank("en"))


def mentions(nlp: Language, text: str, speaker: str | None = None) -> list[Mention]:
    return find_mentions(nlp(text), speaker, PERSON)


def named(nlp: Language, text: str) -> dict[str, Mention]:
    return {mention.text: mention for mention in mentions(nlp, text)}


# --- dictionary --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "surface", "canonical"),
    [
        ("we migrated to nextjs last week", "nextjs", "Next.js"),
        ("the data lives in postgres now", "postgres", "PostgreSQL"),
        ("we run it on K8S in prod", "K8S", "Kubernetes"),
        ("I asked chatgpt about it", "chatgpt", "ChatGPT"),
        ("she codes in golang mostly", "golang", "Go"),
    ],
)
def test_dictionary_gives_the_canonical_name(nlp: Language, text: str, surface: str, canonical: str) -> None:
    mention = named(nlp, text)[surface]
    assert (mention.canonical, mention.type, mention.source, mention.name) == (canonical, PRODUCT, "ruler", canonical)


def test_multi_token_names_match_whole_and_the_longest_wins(nlp: Language) -> None:
    found = named(nlp, "I left Visual Studio for visual studio code and moved us to Google Cloud Platform.")
    assert found["Visual Studio"].canonical == "Visual Studio"
    assert found["visual studio code"].canonical == "Visual Studio Code"
    assert found["Google Cloud Platform"].canonical == "Google Cloud"
    assert "Google" not in found


@pytest.mark.parametrize(
    ("text", "surface", "canonical"),
    [
        ("We rewrote it in Next.js.", "Next.js", "Next.js"),
        ("Most of the engine is C++, sadly.", "C++", "C++"),
        ("The API runs on Node.js (v20).", "Node.js", "Node.js"),
        ("Legacy code is .NET; new code is not.", ".NET", ".NET"),
        ("I like C# more than Java.", "C#", "C#"),
        ("Old apps were in Objective-C!", "Objective-C", "Objective-C"),
        ("They moved to Ruby on Rails?", "Ruby on Rails", "Ruby on Rails"),
    ],
)
def test_names_that_tokenize_oddly_match_in_running_text(
    nlp: Language, text: str, surface: str, canonical: str
) -> None:
    assert named(nlp, text)[surface].canonical == canonical


def test_company_is_an_organization_and_its_product_a_product(nlp: Language) -> None:
    found = named(nlp, "We pay OpenAI for ChatGPT and Anthropic for Claude Code.")
    assert found["OpenAI"].type == found["Anthropic"].type == EntityType.ORGANIZATION
    assert found["ChatGPT"].type == found["Claude Code"].type == PRODUCT


def test_exact_forms_match_only_as_written_and_not_opening_a_sentence(nlp: Language) -> None:
    found = named(nlp, "We should react quickly. Slack off later. Our team chats on Slack and builds with React.")
    assert found["Slack"].canonical == "Slack" and found["React"].canonical == "React"
    assert [m.start for m in mentions(nlp, "Slack off later. We chat on Slack.") if m.source == "ruler"] == [28]
    assert "react" not in found


def test_dictionary_wins_over_the_statistical_model(nlp: Language) -> None:
    # The small model alone tags "C++" as a PERSON and "Next.js" as a GPE.
    found = named(nlp, "We migrated to Next.js and C++ on .NET with Node.js.")
    assert {found[name].source for name in ("Next.js", "C++", ".NET", "Node.js")} == {"ruler"}


def _reference_ruler(nlp: Language) -> Language:
    """The dictionary as spaCy's EntityRuler with token patterns, which it used to be: the
    reference the phrase matchers must agree with."""
    reference = spacy.blank("en")
    reference.add_pipe("sentencizer")
    ruler = reference.add_pipe("entity_ruler", config={"overwrite_ents": True, "validate": True})
    patterns = []
    for entry in nlp_module.technologies():
        label = "HG_" + entry.type.name
        for form in entry.aliases:
            tokens = [{"LOWER": token.lower_} for token in nlp.make_doc(form)]
            patterns.append({"label": label, "pattern": tokens, "id": entry.canonical})
        for form in entry.exact:
            tokens = [{"ORTH": token.text} for token in nlp.make_doc(form)]
            tokens[0]["IS_SENT_START"] = False
            patterns.append({"label": label, "pattern": tokens, "id": entry.canonical})
    ruler.add_patterns(patterns)  # type: ignore[attr-defined]
    return reference


def test_dictionary_finds_what_token_patterns_find_in_any_case(blank: Language) -> None:
    texts = []
    for entry in nlp_module.technologies():
        for form in entry.aliases + entry.exact:
            texts += [
                f"{form} is what we use.",
                f"We moved from {form} to {form.upper()} and {form.title()}, then {form}!",
                f"Honestly {form}{form} and ({form}) and {form}-based stuff.",
            ]
    texts += ["I left Visual Studio for visual studio code and Google Cloud Platform.", "", "React. react? Slack"]
    reference = _reference_ruler(blank)
    for doc, expected in zip(blank.pipe(texts), reference.pipe(texts)):
        found = [(e.start, e.end, e.label_, e.ent_id_) for e in doc.ents]
        assert found == [(e.start, e.end, e.label_, e.ent_id_) for e in expected.ents], doc.text
    assert sum(len(doc.ents) for doc in blank.pipe(texts)) > len(texts)


def test_dictionary_is_large_and_unambiguous() -> None:
    entries = nlp_module.technologies()
    assert len(entries) >= 150
    assert len({entry.canonical for entry in entries}) == len(entries)


# --- NER labels --------------------------------------------------------------------------------


def test_ner_labels_map_to_hippograph_types(nlp: Language) -> None:
    assert span_label("PERSON").type == PERSON  # type: ignore[union-attr]
    assert span_label("GPE").type == span_label("FAC").type == EntityType.PLACE  # type: ignore[union-attr]
    assert span_label("WORK_OF_ART").type == PRODUCT  # type: ignore[union-attr]
    assert span_label("DATE") is None and span_label("CARDINAL") is None
    assert span_label("HG_ORGANIZATION") == nlp_module.SpanLabel(EntityType.ORGANIZATION, "ruler")
    found = named(nlp, "Barack Obama flew to Paris on Monday with 3 aides.")
    assert found["Barack Obama"].type == PERSON and found["Paris"].type == EntityType.PLACE
    assert "Monday" not in found and "3" not in found


# --- regex rules -------------------------------------------------------------------------------


@cache
def rules_only() -> Language:
    """Sentences and nothing else: every mention comes from the regex rules."""
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    return nlp


def regex(text: str) -> list[tuple[str, str, str | None]]:
    return [(m.text, m.source, m.canonical) for m in find_mentions(rules_only()(text), None, PERSON)]


def test_urls_and_domains_name_their_host() -> None:
    assert regex("Docs: https://www.Example.com/docs?x=1. Also www.Acme.io and docs.python.org!") == [
        ("https://www.Example.com/docs?x=1", "regex:url", "example.com"),
        ("www.Acme.io", "regex:domain", "acme.io"),
        ("docs.python.org", "regex:domain", "docs.python.org"),
    ]


def test_no_domains_in_email_addresses_file_names_or_missing_spaces() -> None:
    assert regex("mail bob@example.com, edit setup.py and README.md, app.tsx. It was done.It rained") == []


def test_handles_keep_their_at_sign() -> None:
    assert regex("ping @alice and @Bob_Dev.") == [
        ("@alice", "regex:handle", "@alice"),
        ("@Bob_Dev", "regex:handle", "@bob_dev"),
    ]
    assert regex("not bob@example.com, @types/node, @app.route(x) or lunch @3pm") == []


@pytest.mark.parametrize(
    "text",
    [
        'the "Project Falcon" plan',
        "the “Project Falcon” plan",
        "the 'Project Falcon' plan",
        "the ‘Project Falcon’ plan",
        "the `Project Falcon` plan",
        'the " Project Falcon " plan',
    ],
)
def test_quoted_names_in_every_quote_style(text: str) -> None:
    [mention] = find_mentions(rules_only()(text), None, PERSON)
    assert (mention.text, mention.type, mention.source) == ("Project Falcon", EntityType.CONCEPT, "regex:quoted")
    assert text[mention.start : mention.end] == "Project Falcon"


def test_quoted_junk_and_apostrophes_are_not_names() -> None:
    text = 'Open `src/App.tsx`, call "getUserName", say "hi", and don\'t touch the dogs\' bowls or "it".'
    assert regex(text) == []
    assert regex('"hi" then "Project Falcon"') == [("Project Falcon", "regex:quoted", None)]


def test_quoted_name_the_dictionary_knows_is_the_dictionary_entity(nlp: Language) -> None:
    mention = named(nlp, 'We picked "Postgres" in the end.')["Postgres"]
    assert (mention.canonical, mention.type, mention.source) == ("PostgreSQL", PRODUCT, "ruler")


def test_capitalized_phrases_lose_leading_noise_and_junk() -> None:
    text = "Yesterday Acme Robotics called. Fixed Login Bug. Monday Meeting went fine. The System is down."
    assert regex(text) == [("Acme Robotics", "designator", None)]
    assert regex("Bye Nate Smith! See you Last Friday. Adding Background Color now.") == [
        ("Nate Smith", "regex:capitalized", None)
    ]
    assert regex("We toured the Golden Gate Bridge and Bank of America.") == [
        ("Golden Gate Bridge", "regex:capitalized", None),
        ("Bank of America", "designator", None),
    ]


def test_regex_candidates_overlapping_an_entity_span_are_dropped(nlp: Language) -> None:
    found = mentions(nlp, "Barack Obama visited Golden Gate Park.")
    assert [(m.text, m.source) for m in found] == [("Barack Obama", "ner"), ("Golden Gate Park", "ner")]


def test_urls_and_handles_win_over_a_garbled_ner_span(nlp: Language) -> None:
    # The small model reads "https://www.example.com/x and @bob_dev" as one PERSON.
    found = mentions(nlp, "Read it at https://www.example.com/x and @bob_dev.")
    assert [(m.text, m.source) for m in found] == [
        ("https://www.example.com/x", "regex:url"),
        ("@bob_dev", "regex:handle"),
    ]


# --- junk filter -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("phrase", "reason"),
    [
        ("Fixed Login Bug", "action_verb"),
        ("Added Dark Mode", "action_verb"),
        ("Refactor Payment Service", "action_verb"),
        ("The System", "noise_word"),
        ("This Feature", "noise_word"),
        ("Our Team", "noise_word"),
        ("Monday Meeting", "time_word"),
        ("January Update", "time_word"),
        ("Tomorrow Standup", "time_word"),
        ("Last Friday", "time_word"),
        ("Next Monday Demo", "time_word"),
        ("Background Color", "css"),
        ("Border Radius", "css"),
        ("Font Size", "css"),
        ("Error Fix", "generic_tail"),
        ("Data Type", "generic_tail"),
        ("Page View", "generic_tail"),
        ("src/App.tsx", "path"),
        ("C:\\Users\\bob", "path"),
        ("App.tsx", "file_name"),
        ("config.yaml", "file_name"),
        ("https://acme.io", "url"),
        ("<div class>", "code"),
        ("getUserName", "camel_case"),
        ("fetchData", "camel_case"),
        ("snake_case_name", "snake_case"),
        ("user_id", "snake_case"),
        ("Bob said it was really good", "prose"),
        ("Honestly, I think it was way better", "prose"),
        ("I really think we should move the whole thing over to the new server next week", "length"),
        ("Acme Robotics Holdings Group International Trading Export Import Company", "length"),
        ("hi", "length"),
        ("2023", "no_letters"),
    ],
)
def test_junk_phrases_are_rejected_with_their_reason(phrase: str, reason: str) -> None:
    assert junk_reason(phrase) == reason
    assert is_junk(phrase)


@pytest.mark.parametrize(
    "phrase",
    [
        "Acme Robotics",
        "Golden Gate Bridge",
        "Bank of America",
        "Lord of the Rings",
        "New York",
        "Great Barrier Reef",
        "First Republic Bank",
        "Winter Olympics",
        "Johnson & Johnson",
        "Coca-Cola",
        "St. Louis",
        "Acme Inc.",
        "iPhone",
        "YouTube",
        "Project Falcon",
    ],
)
def test_real_names_survive_the_junk_filter(phrase: str) -> None:
    assert junk_reason(phrase) is None


def test_strip_leading_noise_keeps_the_name_after_a_sentence_opener() -> None:
    assert strip_leading_noise("Yesterday Acme Robotics") == "Acme Robotics"
    assert strip_leading_noise("Then The Golden Gate Bridge") == "Golden Gate Bridge"
    assert strip_leading_noise("The Monday Meeting") == "Meeting"
    assert strip_leading_noise("Bye Nate Smith") == "Nate Smith"
    assert strip_leading_noise("Is Spider-Man") == "Spider-Man"
    assert strip_leading_noise("Last Friday") == "Last Friday"


# --- speaker, order, sentences -----------------------------------------------------------------


def test_speaker_is_mention_zero(nlp: Language) -> None:
    found = find_mentions(nlp("I moved to Boston."), "Caroline", PERSON)
    assert found[0] == Mention("Caroline", 0, 0, PERSON, None, "speaker", role="speaker", sentence=-1)
    assert [(m.text, m.role) for m in found[1:]] == [("Boston", "mentioned")]
    assert find_mentions(nlp("I moved to Boston."), "claude-code", EntityType.AGENT)[0].type == EntityType.AGENT
    assert [m.text for m in find_mentions(nlp("I moved to Boston."), None, PERSON)] == ["Boston"]


def test_speaker_named_in_the_text_is_also_a_mention(nlp: Language) -> None:
    found = find_mentions(nlp("Hello, Barack Obama here. I live in Chicago."), "Barack Obama", PERSON)
    assert [(m.text, m.role, m.source) for m in found[:2]] == [
        ("Barack Obama", "speaker", "speaker"),
        ("Barack Obama", "mentioned", "ner"),
    ]


def test_mentions_are_sorted_do_not_overlap_and_know_their_sentence(nlp: Language) -> None:
    text = "We use postgres. Barack Obama lives in Chicago. See https://acme.io now.\n\nThen @bob_dev replied."
    doc = nlp(text)
    found = find_mentions(doc, None, PERSON)
    sentences = list(doc.sents)
    assert [m.start for m in found] == sorted(m.start for m in found)
    assert all(a.end <= b.start for a, b in pairwise(found))
    for mention in found:
        sentence = sentences[mention.sentence]
        assert sentence.start_char <= mention.start < mention.end <= sentence.end_char
        assert text[mention.start : mention.end] == mention.text
    assert [(m.text, m.sentence) for m in found if m.text in {"postgres", "Chicago", "@bob_dev"}] == [
        ("postgres", 0),
        ("Chicago", 1),
        ("@bob_dev", len(sentences) - 1),
    ]


def test_empty_text_has_only_the_speaker(nlp: Language) -> None:
    assert find_mentions(nlp(""), None, PERSON) == []
    assert [m.source for m in find_mentions(nlp(""), "Caroline", PERSON)] == ["speaker"]


# --- fallback ----------------------------------------------------------------------------------


def test_blank_pipeline_still_finds_dictionary_and_regex_mentions_and_sentences(blank: Language) -> None:
    doc = blank('We moved to postgres. See https://acme.io and "Project Falcon". Yesterday Acme Robotics called.')
    assert len(list(doc.sents)) == 3
    assert [(m.text, m.source, m.sentence) for m in find_mentions(doc, "Caroline", PERSON)] == [
        ("Caroline", "speaker", -1),
        ("postgres", "ruler", 0),
        ("https://acme.io", "regex:url", 1),
        ("Project Falcon", "regex:quoted", 1),
        ("Acme Robotics", "designator", 2),
    ]


def test_without_any_model_load_pipeline_warns_and_falls_back(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(nlp_module, "MODELS", ("hippograph_no_such_model",))
    with caplog.at_level(logging.WARNING, logger=nlp_module.__name__):
        nlp = load_pipeline()
    assert nlp.pipe_names == ["sentencizer", "dictionary"]
    assert "only the dictionary and regex rules" in caplog.text


def test_the_model_pipeline_keeps_what_relation_rules_need(nlp: Language) -> None:
    names = nlp.pipe_names
    assert {"tagger", "parser", "lemmatizer", "ner"} <= set(names)
    assert names.index("dictionary") < names.index("ner")


QUESTIONS = {
    "What did Caroline research after moving to Boston?": [("Caroline", "other"), ("Boston", "other")],
    "When did Melanie start using Postgres at Acme Robotics?": [
        ("Melanie", "other"),
        ("Postgres", "product"),
        ("Acme Robotics", "organization"),
    ],
    "Did @dana_k post the link to https://example.org/talk on Friday?": [
        ("@dana_k", "person"),
        ("https://example.org/talk", "domain"),
        ("Friday", "other"),
    ],
    "How long has Gina known Tim and Maria?": [("Gina", "other"), ("Tim", "other"), ("Maria", "other")],
    # The small model's recognizer finds no name in this one.
    "Would Caroline still want to pursue counseling as a career?": [("Caroline", "other")],
    "Where Is It?": [],
}


@pytest.mark.parametrize("question", QUESTIONS)
def test_names_of_a_question_are_its_rule_mentions_and_capitalized_words(extractor: Extractor, question: str) -> None:
    assert [(m.text, m.type.value) for m in extractor.names(question)] == QUESTIONS[question]
    assert all(question[m.start : m.end] == m.text for m in extractor.names(question))


def test_names_come_from_the_dictionary_with_its_canonical_name(extractor: Extractor) -> None:
    [postgres] = [m for m in extractor.names("Is Postgres up?") if m.source == "ruler"]
    assert postgres.canonical == "PostgreSQL"


def test_names_leave_out_the_objects_relation_rules_add(extractor: Extractor) -> None:
    assert "nurse" in {m.text for m in extractor.extract(Turn("I'm a nurse.", "Caroline")).mentions}
    assert extractor.names("I'm a nurse.") == []
