"""``hippograph mcp``: Hippograph's memory as tools for agents, over the Model Context Protocol."""
