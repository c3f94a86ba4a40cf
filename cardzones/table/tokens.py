"""Seat tokens and table ids.

A token is the only thing that tells the server who is asking. It is 192
random bits from :mod:`secrets` (32 URL-safe characters), it travels in a
link's fragment (which browsers neither send to servers nor write into
logs), and the store keeps only its SHA-256 digest, so a copy of the database
hands out no seat. A fast digest is enough for a random secret this long: no
one can guess a preimage of a 192-bit token, however fast they hash.

>>> token = new_token()
>>> len(token) >= 22, matches(token, token_digest(token)), matches("x" + token, token_digest(token))
(True, True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

#: Random bytes in a seat token: 192 bits.
TOKEN_BYTES = 24
#: Random bytes in a table id: ids are not secret, but should not be guessed.
TABLE_ID_BYTES = 12


def new_token() -> str:
    """A new seat or spectator token."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_table_id() -> str:
    """A new table id. It never starts with ``-``, which a command line would
    take for an option (``cardzones export ID``)."""
    while True:
        table_id = secrets.token_urlsafe(TABLE_ID_BYTES)
        if not table_id.startswith("-"):
            return table_id


def is_table_id(text: str) -> bool:
    """Whether ``text`` could be a table id: 1 to 64 URL-safe characters. Any
    other text names no table, and is not sent to the store.

    >>> is_table_id("XgAZuqD-s9S5DN_K"), is_table_id("a/b"), is_table_id("")
    (True, False, False)
    """
    return 0 < len(text) <= 64 and all(c in _URL_SAFE for c in text)


_URL_SAFE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def token_digest(token: str) -> str:
    """What the store keeps of a token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def matches(token: str, digest: str) -> bool:
    """Whether ``token`` is the token of ``digest``, compared in constant time."""
    return hmac.compare_digest(token_digest(token), digest)
