"""Extractive summaries of sessions: the memories that best stand for them, with provenance."""

from hippograph.summaries.extractive import Budget, Line
from hippograph.summaries.service import Summary, session_summary

__all__ = ["Budget", "Line", "Summary", "session_summary"]
