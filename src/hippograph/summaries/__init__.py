"""Extractive summaries of sessions and projects: the memories that best stand for them, with
provenance; projects themselves (sessions grouped under a name); the cards recall shows."""

from hippograph.summaries.cards import Card, about_a_whole, recall_cards
from hippograph.summaries.extractive import Budget, Line
from hippograph.summaries.projects import Assignment, Overview, assign_session, project_overview
from hippograph.summaries.service import Summary, session_summary

__all__ = [
    "Assignment",
    "Budget",
    "Card",
    "Line",
    "Overview",
    "Summary",
    "about_a_whole",
    "assign_session",
    "project_overview",
    "recall_cards",
    "session_summary",
]
