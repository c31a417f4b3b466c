"""Lifecycle of memories (docs/memory-management.md): kind policies, retention and the states it implies."""
