"""Classroom mode of ``ndcg-lab``: several marimo workers behind HAProxy, and live class questions.

- :mod:`.worker`   one marimo server process, with CPython's AST compile race (gh-106905) kept out;
- :mod:`.proxy`    the HAProxy configuration: sticky sessions, compressed and cacheable assets;
- :mod:`.supervise` starting, watching (restarting a worker that died) and stopping the processes;
- :mod:`.app`      the live-question web app (Starlette on uvicorn): the lecturer's projector
  page and the students' light answer page, over :mod:`ndcg_core.infra.classroom`.

This package imports marimo only in :mod:`.worker` (at run time, through its command line).
"""
