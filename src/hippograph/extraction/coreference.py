"""Coreference within one Doc: which mention a token stands for, and the mentions a relation may add.

First person is the speaker; "who"/"which"/"that" the noun its relative clause hangs on; he/she the
one person named before, when nothing else could be meant; a category noun or an apposition the
name beside it ("the Atlas project", "my wife, Anna"). A token nothing covers may become a new
mention where its relation's rule or slot says so (``propose*``), but only joins the Doc's mentions
once the relation holds (``commit``).
"""

from __future__ import annotations

from dataclasses import replace

from spacy.tokens import Doc, Span, Token

from hippograph.extraction import slots
from hippograph.extraction.clauses import NAME_MODIFIER_DEPS
from hippograph.extraction.model import EntityType, Mention
from hippograph.extraction.relation_settings import lexicon, settings

# An -ing object with one of these is a clause, not the name of an activity.
_ACTIVITY_BREAKERS = ("prep", "xcomp", "ccomp", "advcl", "dative", "advmod")
_ACTIVITY_WORDS = 4  # "playing the guitar" at most

# A relation end: a known mention (index, confidence factor) or a mention proposed for an uncovered
# noun, added only when the relation holds.
End = tuple[int, float] | Mention


class MentionResolver:
    """Which mention a token stands for, in one Doc; relations that name an uncovered object append
    the new mention to ``mentions``."""

    def __init__(self, doc: Doc, mentions: list[Mention]) -> None:
        self.doc = doc
        self.mentions = mentions
        self.covering: dict[int, int] = {}  # token index -> mention index
        self.sentences = {sent.start: index for index, sent in enumerate(doc.sents)}
        self.speaker = next((i for i, mention in enumerate(mentions) if mention.role == "speaker"), None)
        for index, mention in enumerate(mentions):
            if mention.role != "speaker":
                self._cover(index, mention)

    def sentence_of(self, token: Token) -> int:
        return self.sentences[token.sent.start]

    def same_mention(self, a: Token, b: Token) -> bool:
        return a.i in self.covering and self.covering[a.i] == self.covering.get(b.i)

    def index_of(self, token: Token) -> int | None:
        """The index of the mention ``token`` stands for, if any."""
        found = self.resolve(token)
        return None if found is None else found[0]

    def resolve(self, token: Token) -> tuple[int, float] | None:
        """The mention a token stands for, with a confidence factor; None when unknown."""
        known = settings()
        word = token.lower_
        if token.tag_ in ("PRP", "PRP$", "WP", "WDT"):
            if word in known.first_person:
                return None if self.speaker is None else (self.speaker, 1.0)
            if word in known.relative:
                antecedent = _antecedent(token)
                return None if antecedent is None else self.resolve(antecedent)
            if word in known.third_person:
                return self._pronoun(token)
            return None
        if token.i in self.covering:
            return self.covering[token.i], 1.0
        return self._named_by(token)

    def propose(
        self,
        token: Token,
        mint: EntityType,
        mint_in: frozenset[str] | None,
        mint_pos: frozenset[str],
        start: Token | None,
        sentence: int,
    ) -> Mention | None:
        """A new mention of type ``mint`` for an object no mention covers, when its rule allows one:
        a word of ``mint_in``, else a noun of a part of speech in ``mint_pos``."""
        known = settings()
        if token.ent_type_ in known.never_labels or token.pos_ == "PRON":
            return None
        words = {token.lower_, token.lemma_.lower()}
        if mint_in is not None:
            if not words & mint_in:
                return None
        elif token.pos_ not in mint_pos or words & (known.stop | lexicon("people")):
            return None  # "I love my kids" is no liking of a concept
        elif token.pos_ != "PROPN" and mint is not EntityType.CONCEPT:
            return None  # a common noun ("a hospital") names no particular organization or place
        return self._proposal(token, mint, start, sentence)

    def propose_subject(self, token: Token, sentence: int) -> Mention | None:
        """A concept for an uncovered subject that names a particular piece of work: a proper noun,
        a name of several words ("the checkout service", "dark mode") or a word of the
        status_subjects lexicon ("the API"), so that "the bus was delayed" stays out of the graph."""
        known = settings()
        words = {token.lower_, token.lemma_.lower()}
        if token.pos_ not in ("NOUN", "PROPN") or token.ent_type_ in known.never_labels:
            return None
        if words & (known.stop | lexicon("people")):
            return None
        proposal = self._proposal(token, EntityType.CONCEPT, None, sentence)
        if proposal is None or token.pos_ == "PROPN" or words & lexicon("status_subjects"):
            return proposal
        return proposal if " " in proposal.text.strip() else None

    def slot_type(self, end: End, wanted: EntityType | None) -> EntityType:
        """The type a relation end has in a slot asking for ``wanted`` (extraction.slots)."""
        return end.type if isinstance(end, Mention) else slots.slot_type(self.mentions[end[0]], wanted)

    def propose_slot(
        self, token: Token, wanted: EntityType | None, allowed: frozenset[str], sentence: int
    ) -> Mention | None:
        """A mention for an uncovered token that its slot names: a named part ("the billing
        service") of a type the slot takes, or a proper noun in a slot of a declared type."""
        if token.pos_ == "PRON" or token.ent_type_ in settings().never_labels:
            return None
        part = slots.part_type(token, allowed)
        if part is not None:
            proposal = self._proposal(token, part, None, sentence)
            return proposal if proposal is not None and " " in proposal.text.strip() else None
        named = wanted or slots.unnamed_type(token, allowed)
        if named is not None and slots.may_name(token):
            proposal = self._proposal(token, named, None, sentence)
            return None if proposal is None else replace(proposal, source=slots.ARGUMENT)
        return None

    def commit(self, end: End, entity_type: EntityType) -> tuple[int, float]:
        """The mention index of a relation end, adding a proposed mention (once per span), and
        giving a known one the type its slot decided."""
        if not isinstance(end, Mention):
            mention = self.mentions[end[0]]
            if mention.type is not entity_type:
                self.mentions[end[0]] = replace(mention, type=entity_type, source=slots.ARGUMENT)
            return end
        for index, mention in enumerate(self.mentions):
            if mention.source == "relation" and (mention.start, mention.end) == (end.start, end.end):
                return index, 1.0
        self.mentions.append(end)
        self._cover(len(self.mentions) - 1, end)
        return len(self.mentions) - 1, 1.0

    def _proposal(self, head: Token, entity_type: EntityType, start: Token | None, sentence: int) -> Mention | None:
        span = self._name_span(head, start)
        if span is None:
            return None
        return Mention(span.text, span.start_char, span.end_char, entity_type, None, "relation", sentence=sentence)

    def _name_span(self, head: Token, start: Token | None) -> Span | None:
        """The head with the modifiers that are part of its name ("product manager", "dark mode",
        "Italian food"), or an activity with its object ("doing laundry"), never overlapping
        another mention."""
        if head.i in self.covering:
            return None
        known = settings()
        last = head.i
        if head.tag_ == "VBG":
            if any(child.dep_ in _ACTIVITY_BREAKERS for child in head.children):
                return None  # "going to the gym" is no name
            for child in head.children:
                if child.dep_ in ("dobj", "prt"):
                    last = max(last, child.right_edge.i)
            if last - head.i >= _ACTIVITY_WORDS:
                return None
        first = head.i
        if start is not None:
            first = start.i
        else:
            while first > head.sent.start:
                left = self.doc[first - 1]
                hyphen = left.text == "-" and not left.whitespace_
                naming = (
                    left.dep_ in NAME_MODIFIER_DEPS
                    and left.lemma_.lower() not in known.skip_modifiers
                    and left.ent_type_ not in known.never_labels  # "the second option"
                )
                if left.i in self.covering or not (hyphen or naming) or not first <= left.head.i <= head.i:
                    break
                first -= 1
            while self.doc[first].text == "-":
                first += 1
        if any(i in self.covering for i in range(first, last + 1)):
            return None
        return self.doc[first : last + 1]

    def _pronoun(self, token: Token) -> tuple[int, float] | None:
        """he/she/him/her: the one person named before it, when nothing else could be meant (no
        second name, no unnamed "her husband" or "my boss" in between)."""
        people = lexicon("people") | lexicon("roles")
        names: dict[str, int] = {}
        for t in self.doc[: token.i]:
            index = self.covering.get(t.i)
            if index is not None and self.mentions[index].type is EntityType.PERSON:
                names[self.mentions[index].name] = index
            elif t.pos_ == "NOUN" and t.dep_ != "attr" and t.lemma_.lower() in people and not self._names_person(t):
                return None  # "I met Anna's husband. He ...": not Anna
        if len(names) != 1:
            return None
        return next(iter(names.values())), settings().pronoun

    def _names_person(self, noun: Token) -> bool:
        """ "my wife Anna", "Anna, my wife": the noun and a person's name are one referent."""
        linked = [c for c in noun.children if c.dep_ == "appos"]
        if noun.dep_ == "appos":
            linked.append(noun.head)
        return any(t.i in self.covering and self.mentions[self.covering[t.i]].type is EntityType.PERSON for t in linked)

    def _named_by(self, token: Token) -> tuple[int, float] | None:
        """An uncovered noun that stands for a name beside it: "the Atlas project" (a category noun
        compounded with the name) or "my wife, Anna" (apposition)."""
        linked = [c for c in token.children if c.dep_ == "appos"]
        if token.dep_ == "appos":
            linked.append(token.head)
        if token.lemma_.lower() in lexicon("category_nouns"):
            linked += [c for c in token.children if c.dep_ == "compound"]
        found = {self.covering[t.i] for t in linked if t.i in self.covering}
        names = {self.mentions[i].name for i in found}
        return (min(found), 1.0) if len(names) == 1 else None

    def _cover(self, index: int, mention: Mention) -> None:
        span = self.doc.char_span(mention.start, mention.end, alignment_mode="expand")
        if span is not None:
            for token in span:
                self.covering.setdefault(token.i, index)


def _antecedent(pronoun: Token) -> Token | None:
    """The noun a relative clause hangs on: "Tom, who works at Microsoft" -> Tom."""
    token = pronoun
    for _ in range(4):
        if token.dep_ == "relcl":
            return token.head
        if token.head.i == token.i:
            return None
        token = token.head
    return None
