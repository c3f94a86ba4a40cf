"""The cache of log summaries behind every view's handles: shared by every
game and by the threads of a server, bounded, and evicted by whichever thread
comes first to a key without failing the others."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from cardzones import new_game
from cardzones.kernel import handles


class _Racing(dict[int, Any]):
    """A cache in which another thread has always just evicted the key a
    thread is about to evict."""

    def pop(self, key: int, *default: Any) -> Any:
        dict.pop(self, key, None)
        return dict.pop(self, key, *default)


def _game_with_moves(seed: int) -> Any:
    game = new_game("fab", ["alice", "bob"], seed=seed)
    card = game.new_card(game.card_def("Snatch"), game.zone("alice", "hand"))
    game.move(card, game.zone("alice", "graveyard"))
    return game


def test_an_eviction_another_thread_made_first_fails_no_view(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    racing = _Racing()
    monkeypatch.setattr(handles, "_SUMMARIES", racing)
    monkeypatch.setattr(handles, "_SUMMARY_LIMIT", 8)
    for seed in range(40):
        game = _game_with_moves(seed)
        assert game.view("alice")["zones"]
    assert len(racing) <= 8


def test_the_cache_stays_bounded_under_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    cache: dict[int, Any] = {}
    monkeypatch.setattr(handles, "_SUMMARIES", cache)
    monkeypatch.setattr(handles, "_SUMMARY_LIMIT", 16)
    games = [_game_with_moves(seed) for seed in range(64)]
    failures: list[BaseException] = []

    def show(part: list[Any]) -> None:
        try:
            for _ in range(20):
                for game in part:
                    game.view("bob")
        except BaseException as error:  # reported below, in the main thread
            failures.append(error)

    threads = [threading.Thread(target=show, args=(games[i::4],)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not failures
    assert len(cache) <= 16
