"""JSON text for what the server sends and keeps: event frames, answers,
snapshots.

A table's server writes a view into every frame of every event for every
viewer, and a snapshot of the whole game every few dozen events; with the
standard library's encoder that writing was about a tenth of an act's CPU.
orjson writes the same JSON several times faster. What it writes is the same
JSON value as the standard library's, keys in the same order and with no
spaces; a text frame holds characters beyond ASCII as themselves (UTF-8) where
``json.dumps`` wrote ``\\uXXXX`` escapes, which every JSON reader takes alike.

orjson is stricter in a few corners, and there the standard library writes
the value as it always did: keys that are not strings (orjson is told to
write numbers and booleans as the standard library does, as strings),
integers past 64 bits, and strings that are not valid Unicode (a lone
surrogate). Dataclasses, dates and other values the standard library refuses
are passed to the standard library, which refuses them as before: nothing
is sent that was not sent before.

>>> dumps({"event": 3, "seat": "alice", "log": [], 1: True})
'{"event":3,"seat":"alice","log":[],"1":true}'
>>> dumps({"name": "Æther"}) == '{"name":"Æther"}'
True
>>> dumps({"big": 2**70}) == '{"big":%d}' % 2**70
True
>>> encode({"legal": [{"act": {"draw": {}}, "result": "moved"}]})
b'{"legal":[{"act":{"draw":{}},"result":"moved"}]}'
"""

from __future__ import annotations

import json
from typing import Any

import orjson

#: Numbers and booleans as keys written as strings, as ``json.dumps`` writes
#: them; dataclasses and dates refused, as ``json.dumps`` refuses them.
_OPTIONS = (
    orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME
)


def _refuse(value: Any) -> Any:
    # Anything orjson cannot write natively goes to the standard library.
    raise TypeError(f"{type(value).__name__} is not JSON")


def dumps(data: Any) -> str:
    """``data`` as compact JSON text (a frame): ``json.dumps(data,
    separators=(",", ":"))`` as a JSON value, with characters beyond ASCII
    written as themselves."""
    try:
        return orjson.dumps(data, default=_refuse, option=_OPTIONS).decode()
    except TypeError:
        return json.dumps(data, separators=(",", ":"))


def encode(data: Any) -> bytes:
    """``data`` as the UTF-8 JSON of an HTTP answer, as Starlette's
    JSONResponse writes it (compact, characters beyond ASCII as themselves;
    a NaN or an infinity, which no answer holds, is written as null where
    JSONResponse would refuse it)."""
    try:
        return orjson.dumps(data, default=_refuse, option=_OPTIONS)
    except TypeError:
        return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def fragment(data: Any) -> orjson.Fragment | None:
    """``data`` written once as a part of later frames (an
    ``orjson.Fragment``, which :func:`dumps` writes as it is), or None where
    orjson does not write it (:func:`dumps` then writes the whole frame
    with the standard library, which takes no fragment)."""
    try:
        return orjson.Fragment(orjson.dumps(data, default=_refuse, option=_OPTIONS))
    except TypeError:
        return None
