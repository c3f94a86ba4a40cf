"""A handle is the keyed hash of its object id and context under a secret
made from the game's handle key: made once per key and copied for each
handle, it gives the digests the secret made afresh gives, so handles stay
what they were for games stored before, and differ between keys."""

from __future__ import annotations

import hashlib
import threading

from hypothesis import given
from hypothesis import strategies as st

from cardzones.kernel.handles import object_handle


def _afresh(key: str, oid: int, context: str) -> str:
    secret = hashlib.blake2b(f"cardzones:{key}".encode(), digest_size=16).digest()
    data = oid.to_bytes(8, "little") + context.encode()
    return "o" + hashlib.blake2b(data, key=secret, digest_size=6).hexdigest()


@given(st.text(max_size=40), st.integers(0, 2**63 - 1), st.text(max_size=60))
def test_a_handle_is_the_hash_under_a_secret_made_afresh(key: str, oid: int, context: str) -> None:
    assert object_handle(key, oid, context) == _afresh(key, oid, context)
    assert object_handle(key, oid, context) == object_handle(key, oid, context)  # kept secret


def test_handles_of_many_keys_and_threads_are_each_keys_own() -> None:
    keys = [f"key{i}" for i in range(1500)]  # more keys than are kept at once
    wrong: list[str] = []

    def work(offset: int) -> None:
        for i, key in enumerate(keys[offset:] + keys[:offset]):
            if object_handle(key, i, "zone:1") != _afresh(key, i, "zone:1"):
                wrong.append(key)

    threads = [threading.Thread(target=work, args=(n * 300,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not wrong
    assert len({object_handle(key, 7) for key in keys}) == len(keys)
