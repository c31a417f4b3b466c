"""Helpers the test modules share; conftest.py holds only fixtures."""
