"""Reading and curating the derived graph: entities, their neighbourhoods and timelines, aliases
and merges."""
