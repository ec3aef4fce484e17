"""Merkle trees (protocol/SPEC.md §C8): RFC 6962's shape with a domain-separated hash; every leaf's
path leads to the root, and nothing else does."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pgames import crypto

PREFIX = b"p2pgames/v1/merkle-tree\x00"


def leaf(data: bytes) -> bytes:
    return hashlib.sha256(PREFIX + b"\x00" + data).digest()


def node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(PREFIX + b"\x01" + left + right).digest()


def leaves(count: int) -> list[bytes]:
    return [hashlib.sha256(b"leaf %d" % i).digest() for i in range(count)]


def test_the_root_is_rfc_6962s_tree_with_the_domain_prefix():
    d = leaves(7)
    assert crypto.merkle_root(d[:1]) == leaf(d[0])
    assert crypto.merkle_root(d[:2]) == node(leaf(d[0]), leaf(d[1]))
    # Three leaves: the left subtree takes the largest power of two below 3, two of them.
    assert crypto.merkle_root(d[:3]) == node(node(leaf(d[0]), leaf(d[1])), leaf(d[2]))
    four = node(node(leaf(d[0]), leaf(d[1])), node(leaf(d[2]), leaf(d[3])))
    assert crypto.merkle_root(d[:4]) == four
    assert crypto.merkle_root(d[:5]) == node(four, leaf(d[4]))
    assert crypto.merkle_root(d[:7]) == node(four, node(node(leaf(d[4]), leaf(d[5])), leaf(d[6])))


def test_a_path_lists_the_siblings_from_the_leaf_up():
    d = leaves(5)
    four = node(node(leaf(d[0]), leaf(d[1])), node(leaf(d[2]), leaf(d[3])))
    assert crypto.merkle_path(d, 1) == (leaf(d[0]), node(leaf(d[2]), leaf(d[3])), leaf(d[4]))
    assert crypto.merkle_path(d, 4) == (four,)
    assert crypto.merkle_path(d[:1], 0) == ()
    assert [crypto.merkle_path_length(i, 5) for i in range(5)] == [3, 3, 3, 3, 1]
    assert [crypto.merkle_path_length(i, 84) for i in (0, 63, 64, 79, 80, 83)] == [7, 7, 6, 6, 4, 4]  # 64 + (16 + 4)


@settings(max_examples=30, deadline=None)
@given(count=st.integers(min_value=1, max_value=90), data=st.data())
def test_every_leafs_path_leads_to_the_root_and_no_other_leaf_or_place_does(count, data):
    d = leaves(count)
    root = crypto.merkle_root(d)
    index = data.draw(st.integers(min_value=0, max_value=count - 1))
    path = crypto.merkle_path(d, index)
    assert len(path) == crypto.merkle_path_length(index, count)
    assert crypto.check_merkle_path(d[index], index, count, path, root)
    assert crypto.check_merkle_path(d[index], index, count, list(path), root)  # a list will do
    other = data.draw(st.integers(min_value=0, max_value=count - 1))
    if other != index:
        assert not crypto.check_merkle_path(d[other], index, count, path, root)  # another leaf
        if crypto.merkle_path(d, other) != path:
            assert not crypto.check_merkle_path(d[index], other, count, path, root)  # another place
    assert not crypto.check_merkle_path(d[index], index, count + 1, path, crypto.merkle_root(d + leaves(1)))


def test_a_bad_path_is_refused():
    d = leaves(6)
    root = crypto.merkle_root(d)
    path = crypto.merkle_path(d, 2)
    assert crypto.check_merkle_path(d[2], 2, 6, path, root)
    flipped = bytes([path[0][0] ^ 1]) + path[0][1:]
    for bad in (path[:-1], path + path[-1:], (flipped, *path[1:]), path[::-1], (path[0][:31], *path[1:]),
                [*path[:-1], "not bytes"], None, b"".join(path)):
        assert crypto.check_merkle_path(d[2], 2, 6, bad, root) is False  # type: ignore[arg-type]
    # An inner node is no leaf: leaves 2 and 3's parent does not pass for a leaf one level up.
    parent = node(leaf(d[2]), leaf(d[3]))
    assert crypto.check_merkle_path(parent, 1, 3, path[1:], root) is False
    for junk in ((d[2], -1, 6), (d[2], 6, 6), (d[2], 2, 0), ("leaf", 2, 6), (d[2], True, 6), (d[2], 2.0, 6)):
        assert crypto.check_merkle_path(*junk, path, root) is False  # type: ignore[misc]
    assert crypto.check_merkle_path(d[2], 2, 6, path, root[:31]) is False


@pytest.mark.parametrize(("leaves_", "index"), [([], 0), ([b"a"], 1), ([b"a"], -1), ((b"a", "b"), 0), (b"ab", 0)])
def test_a_tree_needs_leaves_of_bytes_and_a_path_one_of_them(leaves_, index):
    with pytest.raises(crypto.CryptoError):
        crypto.merkle_path(leaves_, index)
    if not (isinstance(leaves_, list) and len(leaves_) == 1):
        with pytest.raises(crypto.CryptoError):
            crypto.merkle_root(leaves_)
    if not 0 <= index < len(leaves_):
        with pytest.raises(crypto.CryptoError):
            crypto.merkle_path_length(index, len(leaves_))


def test_a_paths_form_is_checked_on_its_own_before_where_it_leads():
    leaves = [bytes([n]) * 3 for n in range(5)]
    path = list(crypto.merkle_path(leaves, 4))
    assert crypto.merkle_path_fits(4, 5, path)
    assert not crypto.merkle_path_fits(4, 5, path + path)  # another depth
    assert not crypto.merkle_path_fits(0, 5, path)  # leaf 0's depth is 3, not 1
    assert not crypto.merkle_path_fits(4, 5, [path[0][:31]])
    assert not crypto.merkle_path_fits(5, 5, path) and not crypto.merkle_path_fits(4, 5, "x" * 32)
