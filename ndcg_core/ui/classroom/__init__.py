"""Classroom mode of ``ndcg-lab``: several marimo workers behind HAProxy, and live class questions.

- :mod:`.worker`    one marimo server process: CPython's AST compile race (gh-106905) kept out,
  the notebooks parsed and compiled once per worker instead of once per student, warmed up
  before ``/health`` answers;
- :mod:`.proxy`     the HAProxy configuration: sticky sessions, compressed and cacheable assets,
  the client's address passed to the question app;
- :mod:`.supervise` starting, watching (restarting a worker that died) and stopping the processes;
- :mod:`.app`       the live-question web app (Starlette on uvicorn), made of :mod:`.routes`
  (the students' and the lecturer's handlers), :mod:`.auth` (the random secret, signed
  cookies, per-address login limits, the client address) and :mod:`.pages` (HTML templates
  in ``templates/``, shipped as package data), over :mod:`ndcg_core.infra.classroom`.

This package imports marimo only in :mod:`.worker` (at run time, through its command line).
"""
