"""A database of an older schema, from one of the fixtures an older judge made, for the tests that the
judge upgrades it in place (``tests/service/fixtures/schema_*.db``)."""

from __future__ import annotations

import shutil
from pathlib import Path

from alembic import command
from sqlalchemy import MetaData, create_engine, select, text

from judge.store.database import alembic_config
from tests.support.harness import fresh_database_url

FIXTURES = Path(__file__).parents[1] / "service" / "fixtures"


def database_at(tmp_path: Path, revision: str) -> str:
    """The rows of ``schema_<revision>.db`` in a database of that schema: a copy of the fixture; on
    PostgreSQL (``JUDGE_TEST_DATABASE_URL``), a new database taken to ``revision`` and filled with its rows."""
    shutil.copyfile(FIXTURES / f"schema_{revision}.db", tmp_path / "judge.db")
    fixture, url = f"sqlite:///{tmp_path / 'judge.db'}", fresh_database_url(schema=False)
    if url is None:
        return fixture
    command.upgrade(alembic_config(url), revision)
    source, target = create_engine(fixture), create_engine(url)
    old, new = MetaData(), MetaData()
    old.reflect(source)
    new.reflect(target)
    with source.connect() as reading, target.begin() as writing:
        for table in reversed(new.sorted_tables):  # what the migrations wrote (the secrets) gives way
            if table.name != "alembic_version":
                writing.execute(table.delete())
        for table in new.sorted_tables:
            rows = [dict(row._mapping) for row in reading.execute(select(old.tables[table.name]))]
            if table.name == "alembic_version" or not rows:
                continue
            writing.execute(table.insert(), rows)
            if "id" in table.c:  # the ids were written: the sequence goes on after them
                writing.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                                     f"{max(row['id'] for row in rows)})"))
    source.dispose()
    target.dispose()
    return url
