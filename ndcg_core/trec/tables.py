r"""The table every qrels and run becomes: ids as integer codes, one value per row.

Both file readers (:mod:`.line_reader`, :mod:`.fast_reader`), the dict and DataFrame forms
(:func:`as_table`) and the evaluator (:mod:`.evaluate`) share one shape, :class:`Table`:

- ``query_codes``, ``doc_codes``: one code per row into ``query_names`` / ``doc_names``
  (the unique ids, in the ids' byte order: code-point order is UTF-8 byte order);
- ``values``: the relevance labels (int64) of a qrels, the scores (float64) of a run;
- ``attrs``: ``source`` (the name used in messages), ``run_id`` for a run;
- ``doc_keys``: set by the fast reader only. Each document id's bytes packed big-endian
  into 64-bit words, zero-padded (ids hold no NUL byte, so the packing is one-to-one):
  integer order of the keys is C ``strcmp``'s byte order, so joins and tie-breaks compare
  codes, never strings. ``doc_names`` is then a :class:`KeyNames`, whose strings are made
  on first use. The keys a table keeps are packed into fewer words where the ids allow
  (:func:`packed_keys`: only the byte positions that vary, ClueWeb's 25-byte ids in one
  word), in the same order; ``doc_names.plan`` (:class:`KeyPlan`) unpacks them, and two
  tables packed unalike are joined by writing one's keys in the other's plan
  (:func:`repack_keys`).

:func:`table_frame` turns a table into the DataFrame that :func:`ndcg_core.trec.read_qrels`
and :func:`~ndcg_core.trec.read_run` return.

>>> table = as_table({"q1": {"d2": 1, "d1": 2}}, "qrels")
>>> table.doc_names.tolist(), table.doc_codes.tolist(), table.values.tolist()
(['d1', 'd2'], [1, 0], [1, 2])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np

from .._lazy import pd

__all__ = [
    "Table",
    "KeyNames",
    "as_table",
    "make_table",
    "table_frame",
    "qrels_frame",
    "run_frame",
    "encode_ids",
    "encode_grouped_ids",
    "first_duplicate",
    "plan_of_ranges",
    "factorize_keys",
    "has_repeated_pair",
    "KeySort",
    "sorted_factorization",
    "packed_factorization",
    "packed_keys",
    "KeyPlan",
    "unpack_keys",
    "repack_keys",
    "doc_key_plan",
    "pack_keys",
    "packing_plan",
    "sort_words",
    "factorize_grouped_keys",
    "key_names",
]


class Table(NamedTuple):
    """A checked qrels or run: ids as codes into unique names, one value per row.

    Attributes
    ----------
    query_codes, doc_codes : numpy.ndarray
        One code per row (int32, or int64 for a huge file) into the names.
    query_names, doc_names : numpy.ndarray or KeyNames
        The unique ids (str), in byte order.
    values : numpy.ndarray
        Relevance labels (int64) or scores (float64), one per row, in file order.
    attrs : dict
        ``source`` (the name used in messages); ``run_id`` for a run.
    doc_keys : numpy.ndarray or None
        Shape (len(doc_names), words): each document id's key, when the fast reader made
        them, packed as ``doc_names.plan`` says (:func:`doc_key_plan`). Rows are in byte
        order, so document codes compare as the ids do; ``doc_names`` is then a
        :class:`KeyNames`.
    """

    query_codes: np.ndarray
    query_names: np.ndarray
    doc_codes: np.ndarray
    doc_names: np.ndarray
    values: np.ndarray
    attrs: dict
    doc_keys: np.ndarray | None = None


def _smallest_codes(codes: np.ndarray) -> np.ndarray:
    """Codes in the smallest of int32/int64 that holds them (halves the memory of a big run)."""
    small = len(codes) == 0 or int(codes.max(initial=0)) < np.iinfo(np.int32).max
    return codes.astype(np.int32 if small else np.int64, copy=False)


def encode_ids(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes and unique names, both in the ids' order (code-point order is UTF-8 byte
    order), as the fast reader's keys give them."""
    codes, names = pd.factorize(values, sort=True)
    return _smallest_codes(codes), np.asarray(names, dtype=object)


def encode_grouped_ids(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """encode_ids for a column written in runs of equal values (topic ids): hash one per run."""
    if len(values) < 2:
        return encode_ids(values)
    change = np.empty(len(values), dtype=bool)
    change[0] = True
    np.not_equal(values[1:], values[:-1], out=change[1:])
    heads = np.flatnonzero(change)
    head_codes, names = encode_ids(values[heads])
    return _smallest_codes(np.repeat(head_codes, np.diff(np.append(heads, len(values))))), names


def make_table(queries: np.ndarray, docs: np.ndarray, values: np.ndarray, attrs: dict | None = None) -> Table:
    """The table of id columns (object arrays of str) and their values (not checked here)."""
    query_codes, query_names = encode_grouped_ids(queries)
    doc_codes, doc_names = encode_ids(docs)
    return Table(query_codes, query_names, doc_codes, doc_names, values, dict(attrs or {}))


def first_duplicate(table: Table) -> int | None:
    """Row of the first (topic, document) pair seen before, or None.

    One in-place sort of the pairs' integer keys answers "any duplicate?"; only when there
    is one does a stable argsort find which row repeats first.
    """
    if len(table.values) < 2:
        return None
    keys = _pair_keys(table)
    keys.sort()
    if not (keys[1:] == keys[:-1]).any():
        return None
    keys = _pair_keys(table)
    order = np.argsort(keys, kind="stable")  # equal keys keep their rows' order
    ordered = keys[order]
    repeats = order[1:][ordered[1:] == ordered[:-1]]
    return int(repeats.min())


def _pair_keys(table: Table) -> np.ndarray:
    """topic code * number of documents + document code, one int64 per row (one array)."""
    keys = table.query_codes.astype(np.int64)
    keys *= max(len(table.doc_names), 1)
    keys += table.doc_codes
    return keys


def factorize_keys(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes and the unique keys, both in the ids' byte order (code 0 is the smallest id).

    Because the codes follow strcmp's order, joins are merges of sorted arrays and ties
    are broken by comparing codes: no string is compared anywhere. One sort of the keys
    gives both. Keys of several words are first packed into as few words as hold the
    bytes that vary (:func:`sort_words`: ClueWeb's 25-byte ids fit one); a one-word key
    small enough to carry its row number in its low bits is sorted directly (a sort of
    the values, not an argsort: about twice as fast), else argsorted (lexsorted for
    several words).

    >>> codes, uniques = factorize_keys(np.array([[7], [3], [7], [5]], dtype=np.uint64))
    >>> codes.tolist(), uniques[:, 0].tolist()
    ([2, 0, 2, 1], [3, 5, 7])
    """
    codes, uniques, _ = sorted_factorization(keys)
    return codes, uniques


class KeySort(NamedTuple):
    """The sort behind :func:`factorize_keys`: ``order`` lists the rows by id (the rows of
    one id in file order when ``stable``), ``repeat[i]`` says row ``order[i + 1]`` has
    the id of row ``order[i]``."""

    order: np.ndarray
    repeat: np.ndarray
    stable: bool


def sorted_factorization(keys: np.ndarray, *, overwrite: bool = False) -> tuple[np.ndarray, np.ndarray, KeySort]:
    """:func:`factorize_keys`' codes and uniques, and the sort that gave them (:class:`KeySort`).

    ``overwrite``: ``keys`` (C-contiguous) may be overwritten: one-word keys are then sorted
    in place, and the uniques of wider keys are moved into its first rows a word at a time,
    instead of gathered into a second array as large.
    """
    n = len(keys)
    if n == 0:
        return np.zeros(0, dtype=np.int32), keys[:0], KeySort(np.zeros(0, dtype=np.intp), np.zeros(0, dtype=bool), True)
    packed = sort_words(keys)
    change = np.empty(n, dtype=bool)
    change[0] = True
    if packed.shape[1] == 1:
        # a packed copy is this function's own, and so are the keys with ``overwrite``:
        # sorted in place (no second array as long)
        own = packed is not keys or (overwrite and packed.flags.c_contiguous)
        order, ordered, stable = _sorted_with_rows(packed[:, 0], own=own)
        np.not_equal(ordered[1:], ordered[:-1], out=change[1:])
        if packed is keys:  # the sorted values are the keys: each once, in order
            uniques = ordered[change][:, None]
            del ordered, packed
        else:
            del ordered, packed
            uniques = _unique_rows(keys, order[change], overwrite)
    else:  # the first word decides first: lexsort's last key (a stable sort)
        order, stable = np.lexsort(packed.T[::-1]), True
        ordered = np.take(packed, order, axis=0)
        np.any(ordered[1:] != ordered[:-1], axis=1, out=change[1:])
        del ordered, packed
        uniques = _unique_rows(keys, order[change], overwrite)
    kind = np.int32 if len(uniques) < np.iinfo(np.int32).max else np.int64
    rank = np.cumsum(change, dtype=kind)
    rank -= 1
    codes = np.empty(n, dtype=kind)
    codes[order] = rank
    del rank
    return codes, uniques, KeySort(order, ~change[1:], stable)


def packed_keys(keys: np.ndarray) -> tuple[np.ndarray, KeyPlan | None]:
    """Keys packed into fewer words (:func:`sort_words`) and the :class:`KeyPlan` that
    unpacks them; the keys themselves and None when packing saves no word. A table that
    keeps its document keys packed (a ClueWeb id's four words in one) lets the unpacked
    ones go as soon as this returns."""
    if keys.shape[1] < 2 or len(keys) == 0:
        return keys, None
    plan, low = _plan_and_low([keys])
    if plan is None:
        return keys, None
    return pack_keys(keys, plan), KeyPlan(keys.shape[1], plan, low)


def packed_factorization(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray, KeySort, KeyPlan | None]:
    """:func:`sorted_factorization` of the keys packed by :func:`packed_keys`: the uniques
    are packed too, and the :class:`KeyPlan` unpacks them (None: the keys' own words)."""
    packed, key_plan = packed_keys(keys)
    return (*sorted_factorization(packed, overwrite=packed is not keys), key_plan)


def _unique_rows(keys: np.ndarray, rows: np.ndarray, overwrite: bool) -> np.ndarray:
    """``keys[rows]`` (np.take: rows of several words at 5x fancy indexing's speed). With
    ``overwrite``, written into the first rows of ``keys`` one word at a time (a word's
    column is gathered whole before it is written), so no second array of all the keys exists;
    copied out when that leaves most of ``keys`` unused."""
    if not overwrite or keys.shape[1] == 1 or not keys.flags.c_contiguous:
        return np.take(keys, rows, axis=0)
    m = len(rows)
    for w in range(keys.shape[1]):
        # gathered from the strided column itself (np.take would first copy the column whole)
        keys[:m, w] = keys[:, w][rows]
    return keys[:m] if 2 * m >= len(keys) else keys[:m].copy()


def _sorted_with_rows(values: np.ndarray, own: bool = False) -> tuple[np.ndarray, np.ndarray, bool]:
    """(order, values[order], stable) of uint64 values: when the largest value leaves room
    for the row number in its low bits, one sort of value << bits | row (stable); else an
    argsort. ``own``: ``values`` (contiguous) may be overwritten, and is then sorted in place."""
    n = len(values)
    bits = max(int(n - 1).bit_length(), 1)
    if int(values.max()) < 1 << (64 - bits):
        if own and values.flags.c_contiguous:
            both = values
            both <<= np.uint64(bits)
        else:
            both = values << np.uint64(bits)
        rows = np.arange(n, dtype=np.uint64)
        both |= rows
        both.sort()
        # the row numbers, written over the arange's memory (uint64 and intp are one size)
        np.bitwise_and(both, np.uint64((1 << bits) - 1), out=rows)
        order = rows.view(np.intp)
        both >>= np.uint64(bits)
        return order, both, True
    order = np.argsort(values)
    return order, values[order], False


def has_repeated_pair(query_codes: np.ndarray, grouped: bool, docs: KeySort) -> bool | None:
    """Whether a (topic, document) pair occurs twice, read off the documents' sort without
    another sort; None when that cannot tell (the sort not stable, or a topic's rows not
    together: then use :func:`first_duplicate`).

    In a file whose topics each come in one run of rows, the rows of a document sorted by
    row number put two rows of one topic next to each other whenever there are two.
    """
    if not (grouped and docs.stable):
        return None
    if len(docs.order) < 2:
        return False
    topics = query_codes[docs.order]
    same = topics[1:] == topics[:-1]
    del topics
    same &= docs.repeat
    return bool(same.any())


def packing_plan(tables: Sequence[np.ndarray]) -> list[list[tuple[int, int, int, int]]] | None:
    """How :func:`pack_keys` packs keys so that the keys of all ``tables`` (same width)
    compare as before: per output word, the varying byte positions (word, byte, smallest
    byte, radix), most significant first. None when packing saves no word."""
    return _plan_and_low(tables)[0]


def _plan_and_low(tables: Sequence[np.ndarray]) -> tuple[list[list[tuple[int, int, int, int]]] | None, np.ndarray]:
    """:func:`packing_plan`, and every byte position's smallest byte ((words, 8) uint8: the
    value of the positions that do not vary)."""
    words = tables[0].shape[1]
    low = np.full((words, 8), 255, dtype=np.uint8)
    high = np.zeros((words, 8), dtype=np.uint8)
    if words == 1:
        return None, low
    for keys in tables:
        if len(keys):
            as_bytes = np.ascontiguousarray(keys).view(np.uint8).reshape(len(keys), words, 8)
            np.minimum(low, as_bytes.min(axis=0), out=low)
            np.maximum(high, as_bytes.max(axis=0), out=high)
    return plan_of_ranges(low, high), low


def plan_of_ranges(low: np.ndarray, high: np.ndarray) -> list[list[tuple[int, int, int, int]]] | None:
    """The :func:`packing_plan` of keys whose bytes lie between ``low`` and ``high``
    ((words, 8) uint8, a byte position each, in memory order); None when it saves no word."""
    words = low.shape[0]
    plan: list[list[tuple[int, int, int, int]]] = [[]]
    room = 1
    for w in range(words):
        for b in range(7, -1, -1):  # a word's most significant byte is its last in memory
            radix = int(high[w, b]) - int(low[w, b]) + 1
            if radix <= 1:
                continue
            if room * radix > 1 << 64:
                plan.append([])
                room = 1
            plan[-1].append((w, b, int(low[w, b]), radix))
            room *= radix
    return plan if len(plan) < words else None


class KeyPlan(NamedTuple):
    """How a table's document keys were packed (:func:`packed_factorization`): the width of
    the keys in words before packing, the :func:`packing_plan`, and each byte position's
    smallest byte, which is the byte itself where it does not vary."""

    words: int
    plan: list[list[tuple[int, int, int, int]]]
    low: np.ndarray

    def same_as(self, other: KeyPlan | None) -> bool:
        """Whether keys packed by the two plans compare with each other."""
        return (other is not None and self.words == other.words and self.plan == other.plan
                and bool(np.array_equal(self.low, other.low)))


def unpack_keys(packed: np.ndarray, key_plan: KeyPlan) -> np.ndarray:
    """The keys :func:`pack_keys` packed by ``key_plan``, as they were.

    >>> keys = np.array([[0x6131000000000000, 5], [0x6130000000000000, 0]], dtype=np.uint64)
    >>> codes, uniques, _, key_plan = packed_factorization(keys)
    >>> uniques.shape, [hex(w) for w in unpack_keys(uniques, key_plan)[1].tolist()]
    ((2, 1), ['0x6131000000000000', '0x5'])
    """
    n = len(packed)
    as_bytes = np.empty((n, key_plan.words, 8), dtype=np.uint8)
    as_bytes[:] = key_plan.low  # the positions that do not vary
    for column, positions in enumerate(key_plan.plan):
        value = packed[:, column].copy()
        digit = np.empty(n, dtype=np.uint64)
        for w, b, smallest, radix in reversed(positions):  # least significant digit first
            np.remainder(value, np.uint64(radix), out=digit)
            value //= np.uint64(radix)
            digit += np.uint64(smallest)
            as_bytes[:, w, b] = digit
    return as_bytes.view(np.uint64).reshape(n, key_plan.words)


def repack_keys(keys: np.ndarray, key_plan: KeyPlan) -> tuple[np.ndarray, np.ndarray]:
    """Which of ``keys`` (unpacked, sorted or not) can be written in ``key_plan`` (its bytes
    are ones that plan can hold), and those keys packed by it: equal keys pack equal, and
    the packed keys keep the order of the ids. A key that cannot be written is no key the
    plan's table holds."""
    n = len(keys)
    if keys.shape[1] > key_plan.words:  # longer ids than any of the plan's: those never fit
        fits = ~np.any(keys[:, key_plan.words :], axis=1)
        keys = keys[:, : key_plan.words]
    else:
        fits = np.ones(n, dtype=bool)
        if keys.shape[1] < key_plan.words:
            wider = np.zeros((n, key_plan.words), dtype=np.uint64)
            wider[:, : keys.shape[1]] = keys
            keys = wider
    # every byte within its position's range: (byte - smallest) wraps high below it (uint8),
    # and a position that does not vary has room 0 above its one byte
    room = np.zeros((key_plan.words, 8), dtype=np.uint8)
    for positions in key_plan.plan:
        for w, b, _smallest, radix in positions:
            room[w, b] = radix - 1
    above = np.ascontiguousarray(keys).view(np.uint8).reshape(n, 8 * key_plan.words) - key_plan.low.reshape(-1)
    within = above <= room.reshape(-1)
    del above
    if not within.all():  # one flat pass answers for the usual case where every key fits
        fits &= within.all(axis=1)
    return fits, pack_keys(keys if fits.all() else keys[fits], key_plan.plan)


def pack_keys(keys: np.ndarray, plan: list[list[tuple[int, int, int, int]]]) -> np.ndarray:
    """The keys packed by ``plan`` (from :func:`packing_plan`): same order, same equalities."""
    n = len(keys)
    as_bytes = np.ascontiguousarray(keys).view(np.uint8).reshape(n, keys.shape[1], 8)
    out = np.zeros((n, len(plan)), dtype=np.uint64)
    for column, positions in enumerate(plan):
        # Horner's rule on the raw bytes, the smallest bytes' share taken off once at the
        # end: uint64 arithmetic is exact modulo 2**64 and the packed value is below it.
        # One word: computed in place in the output (no second array as long)
        acc = out[:, 0] if len(plan) == 1 else np.zeros(n, dtype=np.uint64)
        offset = 0
        for w, b, smallest, radix in positions:
            acc *= np.uint64(radix)
            acc += as_bytes[:, w, b]
            offset = (offset * radix + smallest) % (1 << 64)
        acc -= np.uint64(offset)
        if len(plan) > 1:
            out[:, column] = acc
    return out


def sort_words(keys: np.ndarray) -> np.ndarray:
    """Keys (rows of big-endian words, see :class:`Table`) packed into fewer words with
    the same order and the same equalities: each byte position that varies among the
    rows becomes a digit of radix (its largest byte - its smallest + 1), the digits
    written most significant first into as few 64-bit words as hold them.

    Ids that share a prefix or a shape (``clueweb09-en0000-00-00000``: 11 varying digit
    positions, 10**11 values) pack into one word; keys that cannot be packed into fewer
    words are returned as they are.

    >>> keys = np.array([[0x6131000000000000, 0], [0x6130000000000000, 0], [0x6131000000000000, 1]], dtype=np.uint64)
    >>> sort_words(keys)[:, 0].tolist()  # "a1", "a0", "a1" then a varying last byte: two digits
    [2, 0, 3]
    """
    if len(keys) == 0:
        return keys
    plan = packing_plan([keys])
    return keys if plan is None else pack_keys(keys, plan)


def factorize_grouped_keys(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """factorize_keys for ids written in runs of equal values (topic ids)."""
    if len(keys) < 2:
        return factorize_keys(keys)
    change = np.empty(len(keys), dtype=bool)
    change[0] = True
    np.any(keys[1:] != keys[:-1], axis=1, out=change[1:])
    heads = np.flatnonzero(change)
    head_codes, uniques = factorize_keys(keys[heads])
    return _smallest_codes(np.repeat(head_codes, np.diff(np.append(heads, len(keys))))), uniques


def key_names(keys: np.ndarray) -> np.ndarray:
    """The ids (str, object array) of keys (see :class:`Table`), made a slice at a time."""
    names = np.empty(len(keys), dtype=object)
    width = 8 * keys.shape[1]
    for begin in range(0, len(keys), 1 << 16):
        packed = np.ascontiguousarray(keys[begin : begin + (1 << 16)].astype(">u8"))
        names[begin : begin + len(packed)] = packed.view(f"S{width}").ravel().astype(f"U{width}")
    return names


class KeyNames:
    """Document ids kept as their keys, made into str objects only when first needed.

    A million ids cost a tenth of a second and about 50 MB as Python strings; ndcg-eval
    joins, ranks and prints without them (only ``--explain`` and the DataFrames need them).
    Indexing and ``numpy.asarray`` give the object array of names.
    """

    __slots__ = ("keys", "plan", "_names")

    def __init__(self, keys: np.ndarray, plan: KeyPlan | None = None):
        self.keys = keys
        self.plan = plan  # how the keys were packed (None: the ids' own words)
        self._names: np.ndarray | None = None

    def names(self) -> np.ndarray:
        """The ids as an object array of str (made on the first call, then kept)."""
        if self._names is None:
            if self.plan is None:
                self._names = key_names(self.keys)
            else:  # unpacked a slice at a time: no array of every id's whole words
                names = np.empty(len(self.keys), dtype=object)
                for begin in range(0, len(self.keys), 1 << 16):
                    part = unpack_keys(self.keys[begin : begin + (1 << 16)], self.plan)
                    names[begin : begin + len(part)] = key_names(part)
                self._names = names
        return self._names

    def __len__(self) -> int:
        return len(self.keys)

    def __getitem__(self, item):  # type: ignore[no-untyped-def]
        return self.names()[item]

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.names())

    def __array__(self, dtype=None, copy=None):  # type: ignore[no-untyped-def]
        names = self.names()
        return names if dtype is None else names.astype(dtype)


def doc_key_plan(table: Table) -> KeyPlan | None:
    """How the table's ``doc_keys`` are packed (None: each id's own words)."""
    return table.doc_names.plan if isinstance(table.doc_names, KeyNames) else None


def _id_names(names: np.ndarray | KeyNames) -> np.ndarray:
    """The ids as an object array, whether kept as keys or as strings."""
    return names.names() if isinstance(names, KeyNames) else names


def _categorical(codes: np.ndarray, names: np.ndarray) -> pd.Categorical:
    """A categorical of unique ``names`` (from pd.factorize) without re-checking them.

    The public ``from_codes`` hashes every category again to check uniqueness, which on a
    run of a million documents costs as much as the factorisation itself. The names come
    from ``pd.factorize`` and are unique by construction, so pandas' own fast path is used
    when it exists; any change in it falls back to ``from_codes``.
    """
    categories = pd.Index(names, dtype=object)
    n = len(categories)
    small = np.int8 if n < 2**7 else np.int16 if n < 2**15 else np.int32 if n < 2**31 else np.int64
    try:
        dtype = pd.CategoricalDtype._from_fastpath(categories, ordered=False)  # type: ignore[attr-defined]
        result = pd.Categorical._simple_new(codes.astype(small, copy=False), dtype)  # type: ignore[attr-defined]
        if isinstance(result, pd.Categorical) and len(result) == len(codes):
            return result
    except (AttributeError, TypeError, ValueError):
        pass
    return pd.Categorical.from_codes(codes, categories=categories)


def table_frame(table: Table, value_name: str) -> pd.DataFrame:
    """The DataFrame the readers return: ``query_id``, ``doc_id`` (categorical) and
    ``value_name`` (``"relevance"`` or ``"score"``), with the table's ``attrs``."""
    frame = pd.DataFrame(
        {
            "query_id": _categorical(table.query_codes, table.query_names),
            "doc_id": _categorical(table.doc_codes, _id_names(table.doc_names)),
            value_name: table.values,
        },
        copy=False,
    )
    frame.attrs.update(table.attrs)
    return frame


def _id_column(frame: pd.DataFrame, column: str, kind: str) -> tuple[np.ndarray, np.ndarray]:
    series = frame[column]
    missing = series.isna().to_numpy()
    if missing.any():
        row = int(np.flatnonzero(missing)[0])
        raise ValueError(
            f"{kind} {column} must be given on every row; row {row} has none. "
            "Drop incomplete rows before evaluating."
        )
    if isinstance(series.dtype, pd.CategoricalDtype):
        names = np.asarray(series.cat.categories, dtype=object)
        if pd.api.types.infer_dtype(names, skipna=False) != "string":
            names = np.array([str(name) for name in names], dtype=object)
        return _smallest_codes(series.cat.codes.to_numpy()), names
    values = series.to_numpy(dtype=object)
    if pd.api.types.infer_dtype(values, skipna=False) != "string":
        values = series.astype(str).to_numpy(dtype=object)
    return encode_ids(values)


def _table_from(obj: object, kind: str, value_name: str) -> tuple[Table, np.ndarray]:
    """The table of a frame or dict, and the raw values (unchecked)."""
    columns = ["query_id", "doc_id", value_name]
    example = (
        "{'q1': {'d1': 2, 'd2': 0}}" if kind == "qrels" else "{'q1': {'d1': 2.5, 'd2': 1.0}}"
    )
    if isinstance(obj, pd.DataFrame):
        missing = [c for c in columns if c not in obj.columns]
        if missing:
            raise ValueError(
                f"{kind} must have columns {', '.join(columns)}; the table lacks {', '.join(missing)}. "
                f"Read files with read_{kind}(), which names the columns."
            )
        query_codes, query_names = _id_column(obj, "query_id", kind)
        doc_codes, doc_names = _id_column(obj, "doc_id", kind)
        raw = obj[value_name].to_numpy()
        return Table(query_codes, query_names, doc_codes, doc_names, raw, dict(obj.attrs)), raw
    if isinstance(obj, Mapping):
        queries: list[str] = []
        docs: list[str] = []
        values: list[object] = []
        for query_id, judged in obj.items():
            if not isinstance(judged, Mapping):
                raise TypeError(
                    f"{kind}[{query_id!r}] must be a {{doc_id: {value_name}}} dict; "
                    f"got {judged!r} ({type(judged).__name__}). Write {kind} as {example}."
                )
            for doc_id, value in judged.items():
                queries.append(str(query_id))
                docs.append(str(doc_id))
                values.append(value)
        raw = np.array(values, dtype=object)
        table = make_table(np.array(queries, dtype=object), np.array(docs, dtype=object), raw)
        return table, raw
    raise TypeError(
        f"{kind} must be a table from read_{kind}() or a {{query_id: {{doc_id: {value_name}}}}} dict; "
        f"got {type(obj).__name__}. Write {kind} as {example}."
    )


def _where(table: Table, row: int) -> str:
    return f"topic {table.query_names[table.query_codes[row]]!r}, document {table.doc_names[table.doc_codes[row]]!r}"


def _check_values(table: Table, raw: np.ndarray, kind: str) -> np.ndarray:
    if kind == "qrels":
        if raw.dtype.kind in "iu":
            return raw.astype(np.int64)
        for i, value in enumerate(raw):
            if isinstance(value, (bool, np.bool_)) or not (
                isinstance(value, Integral) or (isinstance(value, Real) and float(value).is_integer())
            ):
                raise TypeError(
                    f"qrels relevance for {_where(table, i)} must be an integer; "
                    f"got {value!r} ({type(value).__name__}). TREC labels are whole numbers such as 0, 1, 2, 3."
                )
        return raw.astype(np.int64)
    if raw.dtype.kind not in "iuf":
        for i, value in enumerate(raw):
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, Real):
                raise TypeError(
                    f"run score for {_where(table, i)} must be a number; got {value!r} ({type(value).__name__})."
                )
    scores = raw.astype(float)
    bad = ~np.isfinite(scores)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"run score for {_where(table, i)} must be a finite number; got {raw[i]!r}.")
    return scores


def as_table(obj: object, kind: str) -> Table:
    """Check a qrels or run and return it as a :class:`Table`.

    ``obj`` is a DataFrame (from the readers, or with the same columns), a
    ``{query_id: {doc_id: value}}`` dict, or a :class:`Table` (from
    :func:`ndcg_core.trec.files.read_qrels_table` / ``read_run_table``: checked already,
    returned as it is). ``kind`` is ``"qrels"`` (integer labels) or ``"run"`` (finite
    scores). A document listed twice for a topic is an error.
    """
    if isinstance(obj, Table):
        return obj
    value_name = "relevance" if kind == "qrels" else "score"
    table, raw = _table_from(obj, kind, value_name)
    table = table._replace(values=_check_values(table, raw, kind))
    duplicate = first_duplicate(table)
    if duplicate is not None:
        raise ValueError(
            f"{kind} lists {_where(table, duplicate)} twice; keep one entry per document and topic."
        )
    return table


def qrels_frame(qrels: object) -> pd.DataFrame:
    """Qrels as the table :func:`ndcg_core.trec.read_qrels` returns, from that table or a dict of dicts.

    Accepts ``{query_id: {doc_id: relevance}}`` (the form pytrec_eval, ir_measures and
    ranx use) and checks that every label is an integer and no document is listed twice.

    Examples
    --------
    >>> qrels_frame({"q1": {"d1": 2, "d2": 0}}).to_dict("list")
    {'query_id': ['q1', 'q1'], 'doc_id': ['d1', 'd2'], 'relevance': [2, 0]}
    """
    return table_frame(as_table(qrels, "qrels"), "relevance")


def run_frame(run: object) -> pd.DataFrame:
    """A run as the table :func:`ndcg_core.trec.read_run` returns, from that table or a dict of dicts.

    Accepts ``{query_id: {doc_id: score}}`` and checks that every score is a finite number.

    Examples
    --------
    >>> run_frame({"q1": {"d1": 2.5, "d2": 1}}).to_dict("list")
    {'query_id': ['q1', 'q1'], 'doc_id': ['d1', 'd2'], 'score': [2.5, 1.0]}
    """
    return table_frame(as_table(run, "run"), "score")
