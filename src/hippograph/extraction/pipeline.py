"""The extractor: one spaCy pass per text, then the entity and relation rules over the Doc."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import replace
from datetime import datetime
from typing import Any

from spacy.language import Language
from spacy.tokens import Doc

from hippograph.extraction.concepts import concept_keys, find_concepts, sentence_concept_keys
from hippograph.extraction.facts import find_facts
from hippograph.extraction.mentions import find_mentions, find_names
from hippograph.extraction.model import Extraction, Mention, Sentence, Turn, When
from hippograph.extraction.nlp import DICTIONARY, load_pipeline
from hippograph.extraction.relation_rules import matcher as relation_matcher
from hippograph.extraction.relations import find_relations
from hippograph.extraction.when import PARSE_LEFT_OUT, ParseNeeded, may_name_time, sentence_time


class Extractor:
    def __init__(self) -> None:
        self.nlp = load_pipeline()
        # The relation rules are checked and compiled as the extractor loads, so that a broken rule
        # file stops it here rather than at the first text it reads.
        relation_matcher(self.nlp.vocab)
        self._not_for_names = _unneeded_for_names(self.nlp)
        self._not_for_concepts = [name for name in self.nlp.pipe_names if name in ("parser", "ner", DICTIONARY)]
        self._questions = _Parses(_question_pass(self.nlp), QUESTIONS_KEPT)

    def extract(self, turn: Turn) -> Extraction:
        return self.extract_many([turn])[0]

    def names(self, text: str) -> list[Mention]:
        """The names to look up in ``text`` (recall's query): the dictionary's, the regex rules'
        and capitalized words (``find_names``), from the tokenizer and the dictionary alone."""
        return find_names(self.nlp(text, disable=self._not_for_names))

    def concept_keys(self, text: str) -> list[str]:
        """The concept keys ``text`` (recall's query) may be about, read as extraction reads them,
        nouns inside names included: from the pass ``time_of`` made or is making of the question,
        else from a pass of the tagger and lemmatizer alone (a recall that reads no time in its
        question), which gives the same keys."""
        doc = self._questions.made(text)
        return concept_keys(doc if doc is not None else self.nlp(text, disable=self._not_for_concepts), in_names=True)

    def time_of(self, text: str, reference: datetime) -> When | None:
        """The valid time ``text`` (recall's question) names, said at ``reference``: the first
        sentence's that names one, read as a statement's time is read (extraction/when.py). A
        question that could name none is not parsed: most questions name no time, and NER is
        the dearest part of the pass. One that could is read without the parser first
        (``_question_pass``), and again with the whole pipeline if a rule needs the parse."""
        if not may_name_time(text):
            return None
        try:
            return _first_time(self._questions(text), reference)
        except ParseNeeded:
            return _first_time(self.nlp(text), reference)

    def forget_questions(self) -> None:
        """Parse every question anew: a benchmark that asks one question of several channel sets
        measures each set's own pass."""
        self._questions.clear()

    def extract_many(self, turns: Sequence[Turn], batch_size: int = 64) -> list[Extraction]:
        bodies = [turn.body() for turn in turns]
        docs = self.nlp.pipe((body for body, _ in bodies), batch_size=batch_size)
        return [self._from_doc(doc, turn, offset) for doc, turn, (_, offset) in zip(docs, turns, bodies)]

    def _from_doc(self, doc: Any, turn: Turn, offset: int) -> Extraction:
        sentences = tuple(Sentence(s.start_char + offset, s.end_char + offset, s.text) for s in doc.sents)
        mentions = find_mentions(doc, turn.speaker, turn.speaker_type)
        relations, mentions = find_relations(doc, mentions)
        facts = find_facts(doc, mentions, relations, turn.speaker)
        shifted = tuple(
            m if m.role == "speaker" else replace(m, start=m.start + offset, end=m.end + offset) for m in mentions
        )
        concepts = find_concepts(doc, offset)
        by_sentence = sentence_concept_keys(doc, {concept.key for concept in concepts})
        spans = list(doc.sents)
        facts = [
            replace(
                fact,
                concepts=by_sentence[fact.sentence],
                when=None if turn.said_at is None else sentence_time(spans[fact.sentence], turn.said_at),
            )
            for fact in facts
        ]
        return Extraction(sentences, shifted, tuple(relations), tuple(facts), concepts)


def _first_time(doc: Doc, reference: datetime) -> When | None:
    for sentence in doc.sents:
        said = sentence_time(sentence, reference)
        if said is not None:
            return said
    return None


def _question_pass(nlp: Language) -> Callable[[str], Doc]:
    """The pass a question's time and concepts are read from: the pipeline without its parser,
    with the sentence recognizer the model ships disabled. Of the parse, a time needs the
    sentences, and only now and then a clause's tense (when.py's ``ParseNeeded``); the parser costs
    several times what the recognizer does. A pipeline without both runs whole."""
    if "parser" not in nlp.pipe_names or "senter" not in nlp.component_names:
        return nlp
    steps = [step for name, step in nlp.components if name == "senter" or (name in nlp.pipe_names and name != "parser")]

    def run(text: str) -> Doc:
        doc = nlp.make_doc(text)
        for step in steps:
            doc = step(doc)
        doc.user_data[PARSE_LEFT_OUT] = True
        return doc

    return run


# A recall reads its question's time and its concepts in two threads at once, from one pass.
QUESTIONS_KEPT = 64


class _Parses:
    """The Doc ``parse`` makes of each of the last ``size`` texts asked for, each made once: a
    second thread that asks for a text being parsed waits for that pass. The Docs are only read."""

    def __init__(self, parse: Callable[[str], Doc], size: int) -> None:
        self._parse, self._size = parse, size
        self._docs: OrderedDict[str, Future[Doc]] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, text: str) -> Doc:
        with self._lock:
            parse = self._docs.get(text)
            mine = parse is None
            if parse is None:
                parse = self._docs[text] = Future()
                if len(self._docs) > self._size:
                    self._docs.popitem(last=False)
            else:
                self._docs.move_to_end(text)
        if mine:
            try:
                parse.set_result(self._parse(text))
            except Exception as error:  # noqa: BLE001 - a waiting thread gets it; not kept, so asked again
                with self._lock:
                    self._docs.pop(text, None)
                parse.set_exception(error)
        return parse.result()

    def clear(self) -> None:
        with self._lock:
            self._docs.clear()

    def made(self, text: str) -> Doc | None:
        """The Doc of ``text`` when it is kept or being made (then once it is), else None."""
        with self._lock:
            parse = self._docs.get(text)
        return parse.result() if parse is not None else None


def _unneeded_for_names(nlp: Language) -> list[str]:
    """Every component but the dictionary: finding a query's names needs no statistical model."""
    return [name for name in nlp.pipe_names if name != DICTIONARY]
