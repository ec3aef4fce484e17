"""Acknowledgements carried several to a message (SPEC §B8, since protocol 10).

A seat's ``ack`` is an envelope of its own, signed by it. The host no longer passes each on to
every other joiner as it comes — with the acks sent it, (N − 1)² frames per entry — but collects
them and sends each joiner one ``acks`` message holding many, each as a short **item**::

    [seat, seq, entry or nil, state or nil, sig]

``nil`` for ``entry`` stands for the digest of logged entry ``seq``, and for ``state`` for that
entry's own ``state`` field (the host's acknowledgement): the usual case, an ack that agrees, costs
its seat, its number and its 64-byte signature. From an item and the log anyone rebuilds the ack
envelope byte for byte (an envelope is the canonical encoding of its four fields), so its author's
signature is checked as if the envelope itself had come, and the envelope — not the item — is what
a peer keeps, passes on in a catch-up and shows as evidence. A transcript keeps the items too
(record ``acks``), relative to the log it holds.

Pure functions; nothing here touches the network.
"""

from __future__ import annotations

from typing import Callable, Sequence

from p2pgames import canonical
from p2pgames.session._messages import MAX_ACKS, Envelope, is_ack_item

__all__ = ["AckItem", "MAX_ACKS", "ack_item", "ack_from_item", "acks_of_record", "is_ack_item"]

AckItem = list  # [seat, seq, entry | None, state | None, sig]

# What the log says of entry ``seq``: its digest and its ``state`` field, or None if it holds no
# such entry.
Logged = Callable[[int], "tuple[bytes, bytes] | None"]


def ack_item(seat: int, envelope: Envelope, logged: tuple[bytes, bytes] | None) -> AckItem:
    """``seat``'s acknowledgement ``envelope`` as an item, against ``logged`` — the digest and the
    ``state`` field of the entry it acknowledges, as our log holds it (None: write both out)."""
    body = envelope.body
    entry, state = logged if logged is not None else (None, None)
    return [
        seat,
        body["seq"],
        None if body["entry"] == entry else body["entry"],
        None if body["state"] == state else body["state"],
        envelope.signature,
    ]


def ack_from_item(item: AckItem, game_id: bytes, key: bytes, logged: Logged) -> Envelope | None:
    """The acknowledgement envelope ``item`` stands for, as its seat (whose public key is ``key``)
    signed it for game ``game_id``; None if it leaves out a field of an entry ``logged`` does not
    hold (it can't be rebuilt; an honest peer never sends one). The signature is not checked."""
    _, seq, entry, state, signature = item
    if entry is None or state is None:
        known = logged(seq)
        if known is None:
            return None
        entry = known[0] if entry is None else entry
        state = known[1] if state is None else state
    body = {"game_id": game_id, "seq": seq, "entry": entry, "state": state}
    raw = canonical.encode({"kind": "ack", "sender": key, "body": body, "sig": signature})
    return Envelope("ack", key, body, signature, raw)


def acks_of_record(value: object, game_id: bytes, keys: Sequence[bytes], logged: Logged) -> list[tuple[int, Envelope]]:
    """The acknowledgements a transcript's ``acks`` record holds (SPEC §B11): ``(seat, envelope)``
    for each item, ``keys`` being the seats' public keys; an item of an entry ``logged`` does not
    hold that leaves out what only the log says is skipped. Signatures are not checked. Raises
    :class:`ValueError` for a record of another shape, or an item of a seat not at the table."""
    if not (isinstance(value, tuple | list) and 0 < len(value) <= MAX_ACKS and all(is_ack_item(item) for item in value)):
        raise ValueError("an acks record is a list of 1 to 1024 acknowledgements [seat, seq, entry, state, sig]")
    acks = []
    for item in value:
        if item[0] >= len(keys):
            raise ValueError(f"an acks record holds an acknowledgement of seat {item[0]}, which is not at the table")
        envelope = ack_from_item(item, game_id, keys[item[0]], logged)
        if envelope is not None:
            acks.append((item[0], envelope))
    return acks
