"""ndcg_core.infra.store: where the SQLite file lives, WAL, and clear messages for bad files."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from ndcg_core.infra import store

store.register_schema("test_store", "CREATE TABLE IF NOT EXISTS test_store (n INTEGER)")


def test_folder_argument_then_environment_then_user_folder(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(store.DATA_DIR_ENV, str(tmp_path / "env"))
    assert store.data_dir(tmp_path / "arg") == tmp_path / "arg"
    assert store.data_dir() == tmp_path / "env"
    monkeypatch.delenv(store.DATA_DIR_ENV)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert store.store_path() == tmp_path / "xdg" / "ndcg-lab" / store.FILE_NAME


def test_the_file_is_in_wal_mode_and_keeps_what_was_written(tmp_path) -> None:
    with store.connect(tmp_path) as db:
        db.execute("INSERT INTO test_store VALUES (7)")
    raw = sqlite3.connect(store.store_path(tmp_path))
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert raw.execute("SELECT n FROM test_store").fetchall() == [(7,)]


def test_an_error_inside_the_block_rolls_back(tmp_path) -> None:
    with pytest.raises(ZeroDivisionError):
        with store.connect(tmp_path) as db:
            db.execute("INSERT INTO test_store VALUES (1)")
            1 / 0
    with store.connect(tmp_path, write=False) as db:
        assert db.execute("SELECT count(*) FROM test_store").fetchone() == (0,)


def test_a_file_that_is_not_a_database_is_named_and_left_alone(tmp_path) -> None:
    path = store.store_path(tmp_path)
    path.write_bytes(b"this is a text file, not SQLite" * 40)
    before = path.read_bytes()
    with pytest.raises(store.StoreError, match=r"is not an NDCG Lab database .*left as it is; move it away"):
        with store.connect(tmp_path):
            pass
    assert path.read_bytes() == before


def test_a_locked_file_gives_a_message_not_a_hang(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(store, "BUSY_TIMEOUT", 0.2)
    with store.connect(tmp_path):
        pass
    holder = sqlite3.connect(store.store_path(tmp_path), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(store.StoreError, match=r"is locked by another program .*Nothing was lost"):
            with store.connect(tmp_path) as db:
                db.execute("INSERT INTO test_store VALUES (1)")
    finally:
        holder.execute("ROLLBACK")


def test_writers_in_threads_lose_nothing(tmp_path) -> None:
    def write(n: int) -> None:
        for i in range(20):
            with store.connect(tmp_path) as db:
                db.execute("INSERT INTO test_store VALUES (?)", (n * 100 + i,))

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    with store.connect(tmp_path, write=False) as db:
        assert db.execute("SELECT count(DISTINCT n) FROM test_store").fetchone() == (80,)
