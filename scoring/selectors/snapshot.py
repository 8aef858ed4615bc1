"""One snapshot for a read that spans several queries.

An export, a backup, the ledger, the stats and the share page each read a
session's players, rounds and entries in separate queries. Between two of them
another phone may save or undo a round; read outside a transaction, the second
query can see a round the first did not (or miss one it did), and the page
answers 500. Inside `read_snapshot()` every query sees the database as it was
at the first: PostgreSQL at REPEATABLE READ; SQLite in one read transaction
(deferred, so it never takes the write lock that saves use: settings sets
IMMEDIATE for writes).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections, transaction


@contextmanager
def read_snapshot(using: str = DEFAULT_DB_ALIAS) -> Iterator[None]:
    """Run the block's queries in one snapshot. Inside a transaction already
    (a save, a test case), the block simply joins it."""
    connection = connections[using]
    if connection.in_atomic_block:
        yield
        return
    connection.ensure_connection()
    if connection.vendor == "sqlite":
        # SQLite's wrapper only; django-stubs does not know the attribute yet.
        sqlite: Any = connection
        mode = sqlite.transaction_mode
        sqlite.transaction_mode = None  # a plain (deferred) BEGIN
        try:
            atomic = transaction.atomic(using)
            atomic.__enter__()
        finally:
            sqlite.transaction_mode = mode
        try:
            yield
        except BaseException as error:
            atomic.__exit__(type(error), error, error.__traceback__)  # rolls back
            raise
        else:
            atomic.__exit__(None, None, None)
        return
    with transaction.atomic(using):
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield
