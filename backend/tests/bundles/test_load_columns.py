"""The bundle load writes every column of the tables it fills, or names it as left to the database."""

from __future__ import annotations

import pytest

from smriti.bundles import write


def test_each_written_table_covers_its_model() -> None:
    for table, left in write._LEFT_TO_THE_DATABASE.items():
        written = write._written(table)
        assert set(written) | left == set(write._model_columns(table)), table
        assert not set(written) & left, table


def test_a_statement_that_leaves_out_a_column_of_the_model_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """What a migration adding a column does to the load: it fails here (and at import) until the
    load writes the column or names it as the database's."""
    columns = (*write._model_columns("repos"), "owner")
    monkeypatch.setattr(write, "_model_columns", lambda table: columns)
    with pytest.raises(RuntimeError, match=r"repos columns differ from the model: missing \['owner'\]"):
        write._written("repos", ("id", "name", "description", "created_at", "updated_at"))
    assert "owner" in write._written("repos")
