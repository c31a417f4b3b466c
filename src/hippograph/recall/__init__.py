"""Recall: collect candidates from each channel, fuse them, authorize, hydrate, render."""
