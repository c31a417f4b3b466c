"""Cleaning a client's text before anything stores it: sanitize, scrub, normalize, hash."""
