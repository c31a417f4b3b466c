"""A memory's knowledge category (brand, strategy, meeting, ...) from keywords and embedding
prototypes, both data in ``extract/categories.toml``. Pure: the text and its embedding in, a name
out; the prototypes are embedded once per embedder."""

from __future__ import annotations

import re
import threading
import weakref
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from hippograph.embedding import Embedder, Vector
from hippograph.kernel.categories import category_data


@dataclass(frozen=True)
class Category:
    name: str
    description: str
    keywords: tuple[str, ...]
    prototypes: tuple[str, ...]
    pattern: re.Pattern[str]


@dataclass(frozen=True)
class CategoryRules:
    default: str
    categories: tuple[Category, ...]
    keyword: float
    max_keywords: int
    min_score: float
    min_margin: float


@dataclass(frozen=True)
class Evidence:
    """What decides a category: which rules to use (both by default; the benchmark turns either off)."""

    keywords: bool = True
    prototypes: bool = True


def _keyword_regex(keyword: str) -> str:
    stem = keyword.removesuffix("*")
    tail = r"\w*" if keyword.endswith("*") else ""
    return rf"{re.escape(stem)}{tail}(?!\w)"


@cache
def category_rules() -> CategoryRules:
    data = category_data()
    score = data["score"]
    categories = tuple(
        Category(
            name=item["name"],
            description=item["description"],
            keywords=tuple(item["keywords"]),
            prototypes=tuple(item["prototypes"]),
            # One group per keyword, so that a match says which keyword it was.
            # The word boundary once, in front: most places in a text fail there at once.
            pattern=re.compile(
                r"(?<!\w)(?:" + "|".join(f"({_keyword_regex(k)})" for k in item["keywords"]) + ")", re.IGNORECASE
            ),
        )
        for item in data["category"]
    )
    return CategoryRules(
        default=data["default"],
        categories=categories,
        keyword=float(score["keyword"]),
        max_keywords=int(score["max_keywords"]),
        min_score=float(score["min_score"]),
        min_margin=float(score["min_margin"]),
    )


def keyword_hits(category: Category, text: str) -> int:
    """How many distinct keywords of the category the text holds."""
    return len({match.lastindex for match in category.pattern.finditer(text)})


def _unit(vectors: npt.ArrayLike) -> npt.NDArray[np.float64]:
    array = np.asarray(vectors, dtype=np.float64)
    norms = np.linalg.norm(array, axis=-1, keepdims=True)
    return array / np.where(norms == 0, 1.0, norms)


class Categorizer:
    """Categories for texts with their embeddings. The prototype centroids are embedded on first use."""

    def __init__(self, embedder: Embedder, rules: CategoryRules | None = None) -> None:
        self._embedder = embedder
        self.rules = rules or category_rules()
        self._centroids: dict[str, npt.NDArray[np.float64]] | None = None
        self._lock = threading.Lock()

    def _prototype_centroids(self) -> dict[str, npt.NDArray[np.float64]]:
        with self._lock:
            if self._centroids is None:
                self._centroids = {
                    category.name: _unit(_unit(self._embedder.embed(list(category.prototypes))).mean(axis=0))
                    for category in self.rules.categories
                }
            return self._centroids

    def scores(self, text: str, vector: Vector | None, evidence: Evidence = Evidence()) -> dict[str, float]:
        """Each category's score: keywords found, plus the cosine to its prototypes."""
        rules = self.rules
        centroids = self._prototype_centroids() if evidence.prototypes and vector is not None else {}
        unit = _unit(vector) if centroids and vector is not None else None
        out = {}
        for category in rules.categories:
            score = 0.0
            if evidence.keywords:
                score += rules.keyword * min(keyword_hits(category, text), rules.max_keywords)
            if unit is not None:
                score += float(unit @ centroids[category.name])
            out[category.name] = score
        return out

    def categorize(self, text: str, vector: Vector | None, evidence: Evidence = Evidence()) -> str:
        """The category whose score is high enough and clearly ahead; else the default."""
        ranked = sorted(self.scores(text, vector, evidence).items(), key=lambda item: item[1], reverse=True)
        (best, top), (_, second) = ranked[0], ranked[1]
        # Keywords alone score in steps of ``keyword``: one found is enough for them.
        floor = self.rules.min_score if evidence.prototypes else self.rules.keyword
        if top >= floor and top - second >= self.rules.min_margin:
            return best
        return self.rules.default


_CATEGORIZERS: weakref.WeakKeyDictionary[Embedder, Categorizer] = weakref.WeakKeyDictionary()
_CATEGORIZERS_LOCK = threading.Lock()


def categorizer_for(embedder: Embedder) -> Categorizer:
    """One categorizer per embedder, so its prototypes are embedded once, and go with it."""
    with _CATEGORIZERS_LOCK:
        found = _CATEGORIZERS.get(embedder)
        if found is None:
            found = _CATEGORIZERS[embedder] = Categorizer(embedder)
        return found
