"""Join codes: parsed and printed back, and whether one can lead to a given host key."""

from __future__ import annotations

import pytest

from p2pgames.crypto import Identity, reproducible_bytes
from p2pgames.net import JoinCode

HOST = Identity.generate(reproducible_bytes(b"host")(32)).public_key
OTHER = Identity.generate(reproducible_bytes(b"other")(32)).public_key


@pytest.mark.parametrize("text, code", [
    ("127.0.0.1:40123", JoinCode("127.0.0.1", 40123)),
    (f"example.org:1/{HOST.fingerprint()}", JoinCode("example.org", 1, HOST.fingerprint())),
    (f" [::1]:65535/{HOST.fingerprint().upper()} ", JoinCode("::1", 65535, HOST.fingerprint())),
])
def test_a_join_code_reads_back_as_it_prints(text, code):
    assert JoinCode.parse(text) == code
    assert JoinCode.parse(str(code)) == code


def test_a_code_leads_to_the_host_its_fingerprint_names_or_to_any_without_one():
    assert JoinCode("h", 1, HOST.fingerprint()).other_host_than(HOST) is None
    assert JoinCode("h", 1, HOST.fingerprint().replace("-", "").upper()).other_host_than(HOST) is None
    assert JoinCode("h", 1).other_host_than(HOST) is None  # the host's key is checked when it answers
    assert JoinCode("h", 1, OTHER.fingerprint()).other_host_than(HOST) == (
        f"the join code's key {OTHER.fingerprint()} is not the key of your game's host "
        f"({HOST.fingerprint()}): that is another table"
    )
