"""Lifecycle of memories (DESIGN §7): kind policies, retention and the states it implies."""
