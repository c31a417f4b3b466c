"""Backup and restore: ``hippograph export`` and ``hippograph import`` of the export format."""
