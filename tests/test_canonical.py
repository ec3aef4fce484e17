"""Canonical msgpack (``p2pgames.canonical``): one byte encoding per value, and nothing else decodes.

Checked against an independent encoder written here from the rules (protocol/SPEC.md §A1: shortest
form of every item, map keys in UTF-8 byte order) and against ``protocol/vectors/canonical.json``,
which another implementation can check itself against. Hypothesis runs are deterministic
(``derandomize=True``).
"""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path
from typing import Any, Callable

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2pgames import canonical
from p2pgames.canonical import MAX_DEPTH, CanonicalError

VECTORS = Path(__file__).resolve().parents[1] / "protocol" / "vectors" / "canonical.json"

PROPERTY = settings(
    max_examples=150, derandomize=True, database=None, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

INT_BOUNDARIES = [
    0, 1, 31, 32, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1,
    -1, -31, -32, -33, -127, -128, -129, -32767, -32768, -32769, -(2**31), -(2**31) - 1, -(2**63),
]


# -- an independent encoder, written from the rules ------------------------------------------------


def reference(value: Any, choose: Callable[[list], Any] = lambda options: options[0], order=None) -> bytes:
    """msgpack of ``value``. By default the canonical form (the first option everywhere: the
    shortest header, keys in UTF-8 byte order); ``choose`` may pick wider headers, ``order`` another
    key order, to make the other, non-canonical encodings of the same value."""
    if value is None:
        return b"\xc0"
    if value is True or value is False:
        return b"\xc3" if value else b"\xc2"
    if type(value) is int:
        return choose(_int_forms(value))
    if type(value) is str:
        data = value.encode("utf-8")
        return choose(_sized(len(data), (0xA0, 31), [(0xD9, "B"), (0xDA, ">H"), (0xDB, ">I")])) + data
    if type(value) is bytes:
        return choose(_sized(len(value), None, [(0xC4, "B"), (0xC5, ">H"), (0xC6, ">I")])) + value
    if type(value) in (list, tuple):
        head = choose(_sized(len(value), (0x90, 15), [(0xDC, ">H"), (0xDD, ">I")]))
        return head + b"".join(reference(item, choose, order) for item in value)
    if type(value) is dict:
        head = choose(_sized(len(value), (0x80, 15), [(0xDE, ">H"), (0xDF, ">I")]))
        keys = sorted(value, key=lambda key: key.encode("utf-8"))
        if order is not None:
            keys = order(keys)
        return head + b"".join(reference(key, choose, order) + reference(value[key], choose, order) for key in keys)
    raise TypeError(type(value))


def _int_forms(value: int) -> list[bytes]:
    forms = []
    if 0 <= value <= 0x7F:
        forms.append(bytes([value]))
    if -32 <= value < 0:
        forms.append(struct.pack("b", value))
    if value >= 0:
        forms += [bytes([code]) + struct.pack(fmt, value) for code, fmt, top in
                  ((0xCC, ">B", 2**8), (0xCD, ">H", 2**16), (0xCE, ">I", 2**32), (0xCF, ">Q", 2**64)) if value < top]
    forms += [bytes([code]) + struct.pack(fmt, value) for code, fmt, bits in
              ((0xD0, ">b", 7), (0xD1, ">h", 15), (0xD2, ">i", 31), (0xD3, ">q", 63)) if -(2**bits) <= value < 2**bits]
    return forms


def _sized(size: int, fix: tuple[int, int] | None, wide: list[tuple[int, str]]) -> list[bytes]:
    forms = [bytes([fix[0] | size])] if fix is not None and size <= fix[1] else []
    for code, fmt in wide:
        if size < 2 ** (8 * struct.calcsize(fmt)):
            forms.append(bytes([code]) + struct.pack(fmt, size))
    return forms


def test_the_reference_encoder_agrees_with_msgpack_on_boundaries():
    # Spot checks by hand of the reference itself, so it is a reference.
    assert reference(128) == bytes.fromhex("cc80")
    assert reference(-33) == bytes.fromhex("d0df")
    assert reference(-32) == bytes.fromhex("e0")
    assert reference(2**64 - 1) == bytes.fromhex("cfffffffffffffffff")
    assert reference(-(2**63)) == bytes.fromhex("d38000000000000000")
    assert reference("a" * 32) == bytes.fromhex("d920") + b"a" * 32
    assert reference({"b": 1, "a": None}) == bytes.fromhex("82a161c0a16201")
    for value in INT_BOUNDARIES:
        assert msgpack.unpackb(reference(value)) == value


# -- values ----------------------------------------------------------------------------------------

TEXT = st.text(st.characters(codec="utf-8"), max_size=40)
INTS = st.integers(-(2**63), 2**64 - 1) | st.sampled_from(INT_BOUNDARIES) | st.integers(-40, 300)
LEAVES = st.none() | st.booleans() | INTS | TEXT | st.binary(max_size=300)
VALUES = st.recursive(
    LEAVES,
    lambda children: st.lists(children, max_size=20) | st.dictionaries(TEXT, children, max_size=20),
    max_leaves=60,
)


def as_decoded(value: Any) -> Any:
    """What decoding gives back for ``value``: every list a tuple."""
    if isinstance(value, (list, tuple)):
        return tuple(as_decoded(item) for item in value)
    if isinstance(value, dict):
        return {key: as_decoded(item) for key, item in value.items()}
    return value


def same(a: Any, b: Any) -> bool:
    """Equal, and of the same types all the way down (``True == 1`` is not good enough here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[key], b[key]) for key in a)
    return a == b


@PROPERTY
@given(VALUES)
def test_round_trip(value):
    data = canonical.encode(value)
    assert data == reference(value)
    decoded = canonical.decode(data)
    assert same(decoded, as_decoded(value))
    assert canonical.encode(decoded) == data
    assert canonical.digest(value) == canonical.digest(decoded)


@PROPERTY
@given(VALUES, st.data())
def test_every_other_encoding_of_a_value_is_refused(value, data):
    """Wider headers anywhere, or map keys in another order: the same value, refused."""
    widen = data.draw(st.booleans())

    def choose(options: list) -> Any:
        return data.draw(st.sampled_from(options)) if widen else options[0]

    def order(keys: list) -> list:
        return data.draw(st.permutations(keys)) if len(keys) > 1 else keys

    other = reference(value, choose, order)
    assert msgpack.unpackb(other, strict_map_key=False) == msgpack.unpackb(canonical.encode(value))
    if other == canonical.encode(value):
        assert same(canonical.decode(other), as_decoded(value))
    else:
        with pytest.raises(CanonicalError):
            canonical.decode(other)


@PROPERTY
@given(st.binary(max_size=200) | VALUES.map(canonical.encode).flatmap(
    lambda data: st.tuples(st.integers(0, len(data)), st.integers(0, 255)).map(
        lambda cut: data[:cut[0]] + bytes([cut[1]]) + data[cut[0] + 1:])))
def test_decode_takes_any_bytes(data):
    """Anything at all: a value whose encoding is exactly these bytes, or CanonicalError."""
    try:
        value = canonical.decode(data)
    except CanonicalError as error:
        assert str(error) and not str(error).endswith(": ")
    else:
        assert canonical.encode(value) == data


@PROPERTY
@given(st.dictionaries(TEXT, st.integers(0, 9), min_size=2, max_size=30))
def test_map_keys_are_in_utf8_byte_order(mapping):
    data = canonical.encode(mapping)
    keys = [key for key, _ in msgpack.unpackb(data, object_pairs_hook=list)]
    assert keys == sorted(mapping, key=lambda key: key.encode("utf-8"))


def test_map_key_order_is_by_utf8_bytes_not_utf16_units():
    # U+FFFF sorts before U+10000 in UTF-8 (and code points), after it in UTF-16 code units.
    value = {"\U00010000": 1, "\uffff": 2, "é": 3, "z": 4, "": 5, "a": 6, "ab": 7}
    data = canonical.encode(value)
    keys = [key for key, _ in msgpack.unpackb(data, object_pairs_hook=list)]
    assert keys == ["", "a", "ab", "z", "é", "\uffff", "\U00010000"]
    scrambled = bytes([0x87]) + b"".join(reference(key) + reference(value[key]) for key in value)
    with pytest.raises(CanonicalError):
        canonical.decode(scrambled)


# -- what is refused -------------------------------------------------------------------------------


def nested(depth: int, leaf: Any = 0) -> Any:
    """``depth`` arrays one inside the other around ``leaf``."""
    for _ in range(depth):
        leaf = [leaf]
    return leaf


@pytest.mark.parametrize("value", [
    1.5, 0.0, -0.0, math.inf, math.nan, [1, 2.0], {"a": 1.0},  # floats
    {1: "a"}, {b"k": 1}, {None: 1}, {True: 1}, {(1,): 2}, {"a": {2: 3}},  # keys that are no strings
    2**64, -(2**63) - 1, 2**200, [2**64], {"a": -(2**64)},  # more than 64 bits
    nested(MAX_DEPTH + 2), {"a": nested(MAX_DEPTH + 1)}, nested(MAX_DEPTH + 1, []),  # too deep
    {1, 2}, frozenset(), object(), complex(1, 2), msgpack.ExtType(1, b"x"), [msgpack.ExtType(127, b"")],
    "\ud800", ["ok", "\udfff"], {"\udc80": 1},  # lone surrogates have no UTF-8 form
    type("IntLike", (int,), {})(3), type("StrLike", (str,), {})("s"),  # look-alikes
])
def test_encode_refuses(value):
    with pytest.raises(CanonicalError):
        canonical.encode(value)


def test_a_value_that_contains_itself_is_refused():
    loop: list = []
    loop.append(loop)
    with pytest.raises(CanonicalError):
        canonical.encode(loop)


def test_nesting_limit_is_the_same_both_ways():
    """The outermost container is at depth 0; containers deeper than MAX_DEPTH are refused."""
    deepest = nested(MAX_DEPTH + 1)  # MAX_DEPTH + 1 arrays: the innermost at depth MAX_DEPTH
    assert canonical.decode(canonical.encode(deepest)) == as_decoded(deepest)
    too_deep = reference(nested(MAX_DEPTH + 2))
    with pytest.raises(CanonicalError, match="nesting"):
        canonical.decode(too_deep)
    with pytest.raises(CanonicalError):
        canonical.decode(b"\x91" * 100_000 + b"\xc0")


@pytest.mark.parametrize("hex_data, why", [
    ("cc01", "1 as uint8"), ("cd0001", "1 as uint16"), ("d000", "0 as int8"), ("d0ff", "-1 as int8"),
    ("d1ff80", "-128 as int16"), ("d300000000000000ff", "255 as int64"), ("d90161", "'a' as str8"),
    ("c50000", "empty bytes as bin16"), ("dc0000", "[] as array16"), ("de0000", "{} as map16"),
    ("82a162c0a161c0", "keys out of order"), ("82a161c0a161c0", "the same key twice"),
    ("ca3fc00000", "a float32"), ("cb3ff8000000000000", "a float64"), ("d40100", "an ext type"),
    ("d6ff00000000", "a timestamp"), ("810102", "an integer key"), ("81c40161c0", "a bytes key"),
    ("c0c0", "trailing bytes"), ("92c0", "an array cut short"), ("a2ff61", "a str that is no UTF-8"),
    ("c1", "the never-used byte"), ("", "nothing"), ("dd00000002c0", "an array claiming 2 items, holding 1"),
    ("dbffffffff", "a string claiming 4 GiB"),
])
def test_decode_refuses(hex_data, why):
    with pytest.raises(CanonicalError) as caught:
        canonical.decode(bytes.fromhex(hex_data))
    assert str(caught.value)


@pytest.mark.parametrize("data", ["text", 5, None, [b"\xc0"]])
def test_decode_refuses_what_is_not_bytes(data):
    with pytest.raises(CanonicalError):
        canonical.decode(data)


def test_decode_size_limit():
    data = canonical.encode(b"x" * 1000)
    assert canonical.decode(data, max_size=len(data)) == b"x" * 1000
    with pytest.raises(CanonicalError):
        canonical.decode(data, max_size=len(data) - 1)


def test_bytes_like_values_encode_as_bytes():
    assert canonical.encode(bytearray(b"ab")) == canonical.encode(b"ab") == canonical.encode(memoryview(b"ab"))
    assert canonical.decode(bytearray(canonical.encode([1]))) == (1,)


# -- the vector file -------------------------------------------------------------------------------


def from_description(description: Any) -> Any:
    """A value from its JSON description in canonical.json (see the file's ``description``)."""
    (kind, content), = description.items()
    if kind == "nil":
        return None
    if kind == "bool":
        return content
    if kind == "int":
        return int(content)
    if kind == "str":
        return content
    if kind == "str_repeat":
        return content[0] * content[1]
    if kind == "bytes":
        return bytes.fromhex(content)
    if kind == "bytes_repeat":
        return bytes.fromhex(content[0]) * content[1]
    if kind == "array":
        return [from_description(item) for item in content]
    if kind == "array_repeat":
        return [from_description(content[0])] * content[1]
    if kind == "nested":
        return nested(content[1], from_description(content[0]))
    if kind == "map":
        return {key: from_description(item) for key, item in content}
    if kind == "map_range":  # {"k0": 0, "k1": 1, …}
        return {f"{content[0]}{i}": i for i in range(content[1])}
    if kind == "float":
        return float(content)
    if kind == "map_int_keys":
        return {int(key): from_description(item) for key, item in content}
    raise ValueError(f"unknown description {kind!r}")


def vector_cases(section: str) -> list[dict]:
    return json.loads(VECTORS.read_text(encoding="utf-8"))[section]


def test_the_vector_file_covers_the_boundaries():
    cases = vector_cases("values")
    values = [from_description(case["value"]) for case in cases]
    ints = {value for value in values if type(value) is int}
    assert set(INT_BOUNDARIES) <= ints
    assert any(isinstance(value, dict) and any(not key.isascii() for key in value) for value in values)
    heads = {bytes.fromhex(case.get("hex") or case["hex_prefix"])[0] for case in cases}
    # every msgpack head byte canonical encoding uses, bar the fix ranges' inner values
    assert {0xC0, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xCC, 0xCD, 0xCE, 0xCF, 0xD0, 0xD1, 0xD2, 0xD3,
            0xD9, 0xDA, 0xDB, 0xDC, 0xDD, 0xDE, 0xDF, 0x00, 0x7F, 0xE0, 0xFF, 0xA0, 0xBF, 0x90, 0x9F,
            0x80, 0x8F} <= heads


@pytest.mark.parametrize("case", vector_cases("values"), ids=lambda case: case["name"])
def test_vector_values(case):
    value = from_description(case["value"])
    data = canonical.encode(value)
    assert data == reference(value)
    if "hex" in case:
        assert data.hex() == case["hex"]
    else:
        assert data.hex().startswith(case["hex_prefix"])
        assert len(data) == case["length"]
        assert canonical.digest(value).hex() == case["sha256"]
    assert same(canonical.decode(data), as_decoded(value))


@pytest.mark.parametrize("case", vector_cases("refused_bytes"), ids=lambda case: case["name"])
def test_vector_refused_bytes(case):
    with pytest.raises(CanonicalError):
        canonical.decode(bytes.fromhex(case["hex"]))


@pytest.mark.parametrize("case", vector_cases("refused_values"), ids=lambda case: case["name"])
def test_vector_refused_values(case):
    with pytest.raises(CanonicalError):
        canonical.encode(from_description(case["value"]))
