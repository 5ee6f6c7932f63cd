"""Document keys packed into fewer words keep the ids' byte order and equalities
(tables.factorize_keys, sort_words, pack_keys): the order ranking and joins rely on."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ndcg_core.trec.tables import factorize_keys, pack_keys, packing_plan, sort_words


def keys_of(ids: list[bytes], words: int) -> np.ndarray:
    """Each id's bytes as big-endian 64-bit words, zero-padded (the fast reader's keys)."""
    out = np.zeros((len(ids), words), dtype=np.uint64)
    for row, text in enumerate(ids):
        padded = text.ljust(8 * words, b"\0")
        out[row] = np.frombuffer(padded, dtype=">u8")
    return out


ascii_ids = st.lists(
    st.one_of(
        st.binary(min_size=1, max_size=30).map(lambda b: bytes(33 + x % 94 for x in b)),
        st.integers(0, 10**9).map(lambda n: f"clueweb09-en{n // 10**7:04d}-{n // 10**5 % 100:02d}-{n % 10**5:05d}".encode()),
        st.integers(0, 9_000_000).map(lambda n: str(n).encode()),
    ),
    min_size=1,
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(ascii_ids)
def test_factorized_codes_follow_byte_order(ids):
    words = -(-max(len(i) for i in ids) // 8)
    codes, uniques = factorize_keys(keys_of(ids, words))
    expected = sorted(set(ids))
    assert uniques.tolist() == keys_of(expected, words).tolist()
    assert [expected[c] for c in codes.tolist()] == ids


@settings(max_examples=200, deadline=None)
@given(ascii_ids, ascii_ids)
def test_two_tables_packed_alike_compare_as_their_ids(left, right):
    words = -(-max(len(i) for i in left + right) // 8)
    a, b = keys_of(left, words), keys_of(right, words)
    plan = packing_plan([a, b])
    pa, pb = (a, b) if plan is None else (pack_keys(a, plan), pack_keys(b, plan))
    for i, x in enumerate(left):
        for j, y in enumerate(right[:8]):
            assert (tuple(pa[i]) < tuple(pb[j])) == (x < y) and (tuple(pa[i]) == tuple(pb[j])) == (x == y)


def test_clueweb_ids_pack_into_one_word():
    ids = [b"clueweb09-en0042-17-00031", b"clueweb09-en0003-99-12345", b"clueweb09-en0042-17-00030"]
    packed = sort_words(keys_of(ids, 4))
    assert packed.shape == (3, 1)
    assert packed[:, 0].argsort().tolist() == [1, 2, 0]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from([b"a", b"b", b"clueweb09-en0001-02-00003", b"9"])), min_size=1, max_size=40),
       st.booleans())
def test_a_repeated_pair_is_found_from_the_documents_sort(pairs, grouped):
    from ndcg_core.trec.tables import has_repeated_pair, sorted_factorization

    if grouped:
        pairs = sorted(pairs, key=lambda p: p[0])  # each topic's rows together, in a stable order
    topics = np.array([t for t, _ in pairs])
    _, _, docs = sorted_factorization(keys_of([d for _, d in pairs], 4))
    found = has_repeated_pair(topics, grouped, docs)
    if grouped:
        assert found == (len(set(pairs)) < len(pairs))
    else:
        assert found is None


@settings(max_examples=300, deadline=None)
@given(ascii_ids)
def test_packed_uniques_unpack_to_the_ids_in_byte_order(ids):
    """The fast reader keeps a table's document keys packed (ClueWeb's four words in one):
    the packed uniques are the ids in byte order, and unpack to their own words."""
    from ndcg_core.trec.tables import KeyNames, packed_factorization, unpack_keys

    words = -(-max(len(i) for i in ids) // 8)
    expected = sorted(set(ids))
    codes, uniques, _, key_plan = packed_factorization(keys_of(ids, words))
    assert [expected[c] for c in codes.tolist()] == ids
    if key_plan is None:  # nothing to pack: the keys' own rows
        assert uniques.tolist() == keys_of(expected, words).tolist()
    else:
        assert uniques.shape[1] < words
        assert unpack_keys(uniques, key_plan).tolist() == keys_of(expected, words).tolist()
        assert [tuple(u) for u in uniques.tolist()] == sorted(tuple(u) for u in uniques.tolist())
    assert KeyNames(uniques, key_plan).names().tolist() == [i.decode() for i in expected]


@settings(max_examples=300, deadline=None)
@given(ascii_ids, ascii_ids, st.booleans())
def test_keys_repacked_in_another_tables_plan_fit_exactly_the_ids_it_can_hold(left, right, run_wider):
    """The qrels' keys written in the run's packing: an id fits when its bytes are ones the
    run's plan can hold (every id of the run does); fitting ids compare as the ids do."""
    from ndcg_core.trec.tables import packed_factorization, repack_keys

    words = -(-max(len(i) for i in left + right) // 8)
    _, run_uniques, _, key_plan = packed_factorization(keys_of(right, words + run_wider))
    if key_plan is None:
        return
    run_ids = sorted(set(right))
    fits, packed = repack_keys(keys_of(left, words + (not run_wider)), key_plan)  # narrower or wider keys
    assert all(fits[i] for i, x in enumerate(left) if x in set(right))  # every run id fits
    fitted = [x for x, ok in zip(left, fits.tolist()) if ok]
    for x, p in zip(fitted, packed.tolist()):
        for y, u in zip(run_ids[:8], run_uniques.tolist()[:8]):
            assert (tuple(p) < tuple(u)) == (x < y) and (tuple(p) == tuple(u)) == (x == y)
