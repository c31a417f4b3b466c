"""``hippograph keys``: create, list and revoke API keys."""

from __future__ import annotations

import argparse
from typing import Any

from hippograph.access.keys import KeyRole
from hippograph.cli.options import store_flags
from hippograph.kernel.config import Settings


def add_commands(commands: Any) -> None:
    keys = commands.add_parser("keys", help="create, list and revoke API keys (works beside a running server)")
    keys.set_defaults(run=_keys)
    key_commands = keys.add_subparsers(dest="keys_command", required=True)
    create = key_commands.add_parser("create", help="create a key; its secret is printed once, on the last line")
    store_flags(create)
    create.add_argument("--name", required=True, help="what History records as the actor")
    create.add_argument("--role", required=True, choices=[role.value for role in KeyRole])
    scope = create.add_mutually_exclusive_group(required=True)
    scope.add_argument("--namespace", action="append", dest="namespaces", help="a namespace it may use (repeatable)")
    scope.add_argument("--all-namespaces", action="store_true", help="every namespace, present and future")
    create.add_argument("--rate", type=float, help="requests per second (default HIPPOGRAPH_RATE_PER_S)")
    listing = key_commands.add_parser("list", help="name, role, namespaces, created, last used; never a secret")
    store_flags(listing)
    revoke = key_commands.add_parser("revoke", help="revoke a key; a running server refuses it within seconds")
    store_flags(revoke)
    revoke.add_argument("name")


def _keys(settings: Settings, args: argparse.Namespace) -> int:
    from hippograph.access.keys import create_key, list_keys, revoke_key
    from hippograph.store import open_store

    store = open_store(settings)
    try:
        store.setup_schema()  # a key may be the first thing a new store holds
        if args.keys_command == "create":
            created = create_key(
                store,
                args.name,
                KeyRole(args.role),
                args.namespaces or (),
                all_namespaces=args.all_namespaces,
                rate_per_s=args.rate,
            )
            scope = "all namespaces" if created.key.all_namespaces else ", ".join(created.key.namespaces)
            print(f"created key {created.key.name} ({created.key.role.value}; {scope}); its secret, shown once:")
            print(created.secret, flush=True)
        elif args.keys_command == "list":
            for key in list_keys(store):
                scope = "*" if key.all_namespaces else ",".join(key.namespaces)
                used = key.last_used_at.isoformat(timespec="seconds") if key.last_used_at else "never"
                created_at = key.created_at.isoformat(timespec="seconds")
                print(f"{key.name}\t{key.role.value}\t{scope}\tcreated {created_at}\tlast used {used}")
        else:
            revoke_key(store, args.name)
            print(f"revoked key {args.name}")
    finally:
        store.close()
    return 0
