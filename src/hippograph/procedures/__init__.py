"""Procedures kept as data: skills (versioned bodies with success and failure counts, and the bad
patterns recorded against them) and work items with a parent and a state. Nothing here is ever
executed: a body is text, cleaned like every stored text."""

from hippograph.procedures.skills import (
    BadPattern,
    Skill,
    add_bad_pattern,
    bad_patterns,
    get_skill,
    list_skills,
    record_outcome,
    save_skill,
    skill_versions,
)
from hippograph.procedures.work_items import (
    WorkItem,
    WorkState,
    create_work_item,
    get_work_item,
    list_work_items,
    set_work_item_state,
)

__all__ = [
    "BadPattern",
    "Skill",
    "WorkItem",
    "WorkState",
    "add_bad_pattern",
    "bad_patterns",
    "create_work_item",
    "get_skill",
    "get_work_item",
    "list_skills",
    "list_work_items",
    "record_outcome",
    "save_skill",
    "set_work_item_state",
    "skill_versions",
]
