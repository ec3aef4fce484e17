"""Merkle trees: one 32-byte root that commits to a list of leaves, and short proofs of one leaf.

The tree is RFC 6962's (§2.1), with a domain-separated hash. For leaves ``d_0 … d_{c−1}``:

* a leaf's hash is ``H(MERKLE_TREE ‖ 0x00 ‖ d_i)``;
* the root of one leaf is its hash; of ``c ≥ 2`` leaves, ``H(MERKLE_TREE ‖ 0x01 ‖ left ‖ right)``
  where ``left`` is the root of the first ``k`` leaves, ``right`` of the rest, and ``k`` is the
  largest power of two below ``c``.

The leaf and node bytes differ in their first byte after the prefix, so no leaf can pass for an
inner node or the other way round. A leaf's *path* (RFC 6962's "audit path") lists, from the leaf
up, the root of each subtree beside it on its way to the root: its length is fixed by the leaf's
index and the leaf count (:func:`merkle_path_length`), and a path of another length is refused.
Finding a second leaf (or path) that leads to the same root is finding a SHA-256 collision.

Used by the lock escrow (protocol/SPEC.md §B16, §C8): a dealer signs one root per holder over the
digests of that holder's shares, and a holder who publishes a share later proves it with its path.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from . import _domains
from ._errors import CryptoError

__all__ = ["MERKLE_HASH_SIZE", "merkle_root", "merkle_path", "merkle_path_length", "merkle_path_fits", "check_merkle_path"]

#: A root, and every item of a path: a SHA-256 digest.
MERKLE_HASH_SIZE = 32


def merkle_root(leaves: Sequence[bytes]) -> bytes:
    """The root of the tree over ``leaves`` (byte strings, in order).

    Raises :class:`CryptoError` if there are no leaves or one is not bytes.
    """
    return _root([_leaf_hash(leaf) for leaf in _leaves(leaves)])


def merkle_path(leaves: Sequence[bytes], index: int) -> tuple[bytes, ...]:
    """The path of leaf ``index`` in the tree over ``leaves``: the sibling subtrees' roots, from
    the leaf up, :func:`merkle_path_length` of them.

    Raises :class:`CryptoError` if there are no leaves, one is not bytes, or ``index`` is not one
    of their positions.
    """
    hashes = [_leaf_hash(leaf) for leaf in _leaves(leaves)]
    _position(index, len(hashes))
    path: list[bytes] = []
    while len(hashes) > 1:  # from the top down; reversed at the end
        split = _split(len(hashes))
        if index < split:
            path.append(_root(hashes[split:]))
            hashes = hashes[:split]
        else:
            path.append(_root(hashes[:split]))
            hashes, index = hashes[split:], index - split
    return tuple(reversed(path))


def merkle_path_length(index: int, count: int) -> int:
    """How many hashes the path of leaf ``index`` of ``count`` has: its depth in the tree
    (⌈log₂ count⌉ or one less). Raises :class:`CryptoError` if ``index`` is not in [0, count)."""
    _position(index, count)
    return len(_sides(index, count))


def merkle_path_fits(index: int, count: int, path: object) -> bool:
    """Whether ``path`` has the form of the path of leaf ``index`` of ``count``: a list of exactly
    :func:`merkle_path_length` 32-byte hashes (what it leads to is :func:`check_merkle_path`'s).
    Never raises on bad input."""
    return (type(index) is int and type(count) is int and 0 <= index < count and isinstance(path, (tuple, list))
            and all(isinstance(item, bytes) and len(item) == MERKLE_HASH_SIZE for item in path)
            and len(path) == merkle_path_length(index, count))


def check_merkle_path(leaf: bytes, index: int, count: int, path: Sequence[bytes], root: bytes) -> bool:
    """Whether ``leaf`` is leaf ``index`` of a tree of ``count`` leaves whose root is ``root``, as
    ``path`` shows: a list of exactly :func:`merkle_path_length` 32-byte hashes, from the leaf up.
    Never raises on bad input (anything malformed is ``False``)."""
    if not (isinstance(leaf, bytes) and isinstance(root, bytes) and merkle_path_fits(index, count, path)):
        return False
    node = _leaf_hash(leaf)
    for sibling, sibling_is_left in zip(path, reversed(_sides(index, count))):
        node = _node_hash(sibling, node) if sibling_is_left else _node_hash(node, sibling)
    return node == root


def _leaves(leaves: Sequence[bytes]) -> Sequence[bytes]:
    if not isinstance(leaves, (tuple, list)) or not leaves or not all(isinstance(leaf, bytes) for leaf in leaves):
        raise CryptoError("a Merkle tree has one or more leaves, each bytes")
    return leaves


def _position(index: int, count: int) -> None:
    if type(count) is not int or count < 1 or type(index) is not int or not 0 <= index < count:
        raise CryptoError(f"leaf {index!r} is not one of {count!r} leaves")


def _sides(index: int, count: int) -> list[bool]:
    """Walking down from the root to leaf ``index`` of ``count``: at each level, whether the
    sibling subtree is on the left (the leaf in the right subtree). Its length is the leaf's depth."""
    sides = []
    while count > 1:
        split = _split(count)
        sides.append(index >= split)
        if index < split:
            count = split
        else:
            count, index = count - split, index - split
    return sides


def _split(count: int) -> int:
    """The largest power of two below ``count`` (≥ 2): the size of the left subtree."""
    return 1 << ((count - 1).bit_length() - 1)


def _leaf_hash(leaf: bytes) -> bytes:
    return hashlib.sha256(_domains.MERKLE_TREE + b"\x00" + leaf).digest()


def _node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(_domains.MERKLE_TREE + b"\x01" + left + right).digest()


def _root(hashes: list[bytes]) -> bytes:
    if len(hashes) == 1:
        return hashes[0]
    split = _split(len(hashes))
    return _node_hash(_root(hashes[:split]), _root(hashes[split:]))
