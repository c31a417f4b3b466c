"""Extraction: spaCy plus rules (all rules as data in extract/) turn text into mentions,
typed relations and fact candidates. Pure: no store, no I/O beyond loading rules and models."""
