"""The capture (write) path: validate, sanitize, scrub, normalize, dedup, embed, store."""
