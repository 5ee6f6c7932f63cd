"""The child side of :mod:`ndcg_core.infra.sandbox`: run by path in a fresh ``python -I``.

It imports nothing from ndcg_core (the child sees only the standard library and
RestrictedPython). Steps: read one JSON request from stdin; lower the OS limits (CPU time,
address space, no new processes, no file writes, no new file descriptors); compile the
learner's text with RestrictedPython; call the named function on each case; write one JSON
line to stdout. Anything the learner's code prints is collected and dropped (only its size
is reported), so the output the parent reads is bounded.
"""

import builtins as _builtins
import inspect
import json
import math
import resource
import sys

from RestrictedPython import compile_restricted, limited_builtins, safe_builtins
from RestrictedPython.Eval import default_guarded_getitem, default_guarded_getiter
from RestrictedPython.Guards import guarded_iter_unpack_sequence, guarded_unpack_sequence, safer_getattr
from RestrictedPython.PrintCollector import PrintCollector

#: Modules a learner may import (read-only, no file, process or network access).
ALLOWED_IMPORTS = {"math": math}


def _limit(cpu_seconds, memory_bytes):
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    # no new file descriptors: stdin, stdout and stderr are open already
    resource.setrlimit(resource.RLIMIT_NOFILE, (3, 3))


def _import(name, globals=None, locals=None, fromlist=(), level=0):
    if level == 0 and name in ALLOWED_IMPORTS:
        return ALLOWED_IMPORTS[name]
    raise ImportError(
        f"import {name} is not allowed here: only math can be imported (log2 is math.log2). "
        "Your function needs nothing else.")


def _inplacevar(op, x, y):
    ops = {"+=": lambda: x + y, "-=": lambda: x - y, "*=": lambda: x * y, "/=": lambda: x / y,
           "//=": lambda: x // y, "%=": lambda: x % y, "**=": lambda: x ** y}
    if op not in ops:
        raise SyntaxError(f"{op} is not allowed here")
    return ops[op]()


def _write(obj):
    return obj  # learners' own lists and dicts may be changed (rels.sort() is reported, not refused)


def _globals():
    builtins = dict(safe_builtins)
    builtins.update(limited_builtins)
    for name in ("sum", "min", "max", "sorted", "enumerate", "zip", "reversed", "any", "all", "map",
                 "filter", "dict", "set", "iter", "next"):
        builtins[name] = getattr(_builtins, name)
    builtins["range"] = range  # lazy: a long loop meets the CPU limit, not a 1,000-element cap
    builtins["__import__"] = _import
    return {
        "__builtins__": builtins,
        "__name__": "learner",
        "__metaclass__": type,
        "_getattr_": safer_getattr,
        "_getitem_": default_guarded_getitem,
        "_getiter_": default_guarded_getiter,
        "_iter_unpack_sequence_": guarded_iter_unpack_sequence,
        "_unpack_sequence_": guarded_unpack_sequence,
        "_inplacevar_": _inplacevar,
        "_write_": _write,
        "_print_": PrintCollector,
        "math": math,
    }


def _number(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _shown(value):
    try:
        text = repr(value)
    except Exception:  # a learner's object may break repr
        text = "<an object that cannot be shown>"
    return text if len(text) <= 40 else text[:37] + "..."


def main():
    request = json.loads(sys.stdin.readline())
    _limit(int(request["cpu_seconds"]), int(request["memory_bytes"]))
    name = request["function"]
    try:
        code = compile_restricted(request["source"], "<your code>", "exec")
    except SyntaxError as err:
        lines = err.args[0] if err.args and isinstance(err.args[0], (list, tuple)) else [str(err)]
        return {"status": "refused", "message": "; ".join(str(x) for x in lines)}
    env = _globals()
    try:
        exec(code, env)
    except MemoryError:
        return {"status": "memory"}
    except (Exception, SystemExit, KeyboardInterrupt) as err:  # raise SystemExit is the learner's too
        return {"status": "error", "message": type(err).__name__ + (f": {err}" if str(err) else "")}
    func = env.get(name)
    defined = sorted(k for k, v in env.items() if inspect.isfunction(v) and not k.startswith("_"))
    if not inspect.isfunction(func):
        return {"status": "missing", "defined": defined}
    try:
        inspect.signature(func).bind([], 1)
    except TypeError:
        return {"status": "signature", "signature": f"{name}{inspect.signature(func)}"}
    results = []
    for rels, k in request["cases"]:
        given = list(rels)
        try:
            got = func(given, k)
        except MemoryError:
            return {"status": "memory"}
        except RecursionError:
            results.append({"error": "RecursionError", "message": "maximum recursion depth exceeded"})
            continue
        except (Exception, SystemExit, KeyboardInterrupt) as err:  # raise SystemExit in the function too
            results.append({"error": type(err).__name__, "message": str(err)[:200]})
            continue
        results.append({"value": _number(got), "shown": _shown(got), "type": type(got).__name__,
                         "changed": None if given == list(rels) else _shown(given)})
    return {"status": "ok", "results": results}


if __name__ == "__main__":
    try:
        out = main()
    except MemoryError:
        out = {"status": "memory"}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
