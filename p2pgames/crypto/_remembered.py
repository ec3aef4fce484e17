"""What the package remembers of its own answers, and a way to do without it for a while.

Three memos keep pure results: the lock deck's last products (``_deck._products``, with the card
points and scalar inverses they need), the ElGamal deck's (``_elgamal._products``, with the
batches of shares whose proof holds, ``_elgamal._batches``) and the signatures this process has
verified (``_identity._VERIFIED``). None changes an answer. Timing is the one thing they change,
so a benchmark turns them off.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from . import _deck, _elgamal, _identity

__all__ = ["nothing_remembered"]


@contextlib.contextmanager
def nothing_remembered() -> Iterator[None]:
    """Within it, every product, card point, inverse and signature check is computed afresh and
    none is kept. This is for timing what the cryptography itself costs, and for timing several
    peers in one process as if each were in its own (``scripts/bench``). Not for use across
    threads or tasks that expect the memos."""
    saved = _deck.REMEMBERED_PRODUCTS, _elgamal.REMEMBERED_PRODUCTS, _identity._VERIFIED_MAX
    _deck.REMEMBERED_PRODUCTS = _elgamal.REMEMBERED_PRODUCTS = _identity._VERIFIED_MAX = 0
    try:
        yield
    finally:
        _deck.REMEMBERED_PRODUCTS, _elgamal.REMEMBERED_PRODUCTS, _identity._VERIFIED_MAX = saved
