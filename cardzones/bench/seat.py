"""A seat of the benchmark's tables: its socket's frames read as they come,
its acts drawn from its view, and its menus, asked on its socket as the
board asks them, or over HTTP."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from cardzones.bench.position import GAME
from cardzones.rulesets import get_ruleset

#: The zone type of a seat's pile that its played cards go to.
CLEAR_TO = get_ruleset(GAME).clear_to
#: The frames a seat of the closed loop sends in any second at most: under
#: the protocol's 100 a connection, past which the server closes it (an act
#: and its menu on the socket are two frames).
SEND_CAP = 90


class _Seat:
    """One seat's connection: it plays, and reads every frame it gets."""

    def __init__(self, name: str, rng: random.Random) -> None:
        self.name = name
        self.rng = rng
        self.view: dict[str, Any] = {}
        self.number = 0
        self.waiting: asyncio.Future[dict[str, Any]] | None = None
        self.event = asyncio.Event()
        #: the answers awaited to the seat's legal frames, by their label
        self.menus: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self.asked = 0
        #: when the seat's last frames were sent (:meth:`send`)
        self.sent: deque[float] = deque()

    def counts(self) -> dict[str, int]:
        return {z["zone"]: z["count"] for z in self.view.get("zones", ())}

    def next_act(self) -> dict[str, Any]:
        """A legal act, drawn from what the seat's view allows."""
        me, counts = self.name, self.counts()
        choices: list[dict[str, Any]] = []
        if counts.get(f"{me}.deck", 0):
            choices += [{"move": {"card": f"{me}.deck[0]", "to": f"{me}.hand"}}] * 3
        pile = f"{me}.{CLEAR_TO}"
        if counts.get(f"{me}.hand", 0):
            choices += [{"move": {"card": f"{me}.hand[0]", "to": pile}}] * 2
        if counts.get(pile, 0):
            choices += [{"move": {"card": f"{pile}[0]", "to": f"{me}.deck", "position": "bottom"}}]
        if self.view.get("turn_player") == me:
            choices.append({"end_turn": {}})
        return self.rng.choice(choices)

    async def read(self, ws: Any) -> None:
        try:
            async for text in ws:
                self.take(json.loads(text))
        except asyncio.CancelledError:
            raise
        except Exception:
            pass  # the socket broke: an end as any other
        self.fail(ConnectionError("the seat's socket closed"))

    def fail(self, gone: Exception) -> None:
        """The socket closed: whatever waits for an answer gets none, said
        rather than waited for."""
        for waiting in [*self.menus.values(), self.waiting]:
            if waiting is not None and not waiting.done():
                waiting.set_exception(gone)
        self.menus.clear()

    def take(self, frame: dict[str, Any]) -> None:
        """A frame the seat got: its view, or the answer to what it asked."""
        label = frame.get("listed", frame.get("refused"))
        if "welcome" in frame:
            self.view, self.number = frame["welcome"]["view"], frame["welcome"]["number"]
        elif "event" in frame:
            self.view, self.number = frame["view"], frame["event"]
            self.event.set()
        elif isinstance(label, str) and label in self.menus:
            answered = self.menus.pop(label)
            if not answered.done():
                answered.set_result(frame)
        elif (
            ("ack" in frame or "refused" in frame)
            and self.waiting is not None
            and not self.waiting.done()
        ):
            self.waiting.set_result(frame)

    async def send(self, ws: Any, frame: dict[str, Any]) -> None:
        """Send a frame, at most :data:`SEND_CAP` in any second."""
        while len(self.sent) >= SEND_CAP:
            wait = 1.0 - (time.monotonic() - self.sent[0])
            if wait <= 0:
                self.sent.popleft()
            else:
                await asyncio.sleep(wait)
        self.sent.append(time.monotonic())
        await ws.send(json.dumps(frame))

    async def ask_menu(self, ws: Any, card: str | None) -> dict[str, Any]:
        """Ask the seat's menu on a card (None: its end of turn) on its
        socket, as the board does, and wait for the answer (``listed``, or
        ``refused``)."""
        frame, answer = self.menu_frame(card)
        await self.send(ws, frame)
        return await answer

    def menu_frame(self, card: str | None) -> tuple[dict[str, Any], asyncio.Future[dict[str, Any]]]:
        """The ``legal`` frame that asks the seat's menu on a card (None: its
        end of turn), labelled apart from its acts, and the future its
        answer will be set on (:meth:`take`)."""
        self.asked += 1
        label = f"m{self.asked}"
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.menus[label] = answer
        asked = {"card": card} if card is not None else {"actions": ["end_turn"]}
        return {"legal": asked, "id": label}, answer


#: Asks a seat's menu on a card (None: its end of turn) and waits for it.
Menu = Callable[[str | None], Awaitable[None]]
#: Makes a seat's :data:`Menu` once its socket is open.
MenuMaker = Callable[[Any, _Seat], Menu]
#: How the menu loop asks its menus: on the seat's socket, as the board does
#: when its socket is open, or over HTTP, as it does without one.
MENU_WAYS = ("socket", "http")


def _menu_maker(
    way: str | None, client: httpx.AsyncClient, table: str, token: str
) -> MenuMaker | None:
    """A seat's menus asked ``way`` (:data:`MENU_WAYS`; None: no menus)."""
    if way is None:
        return None
    if way == "http":
        return lambda ws, seat: _menu(client, table, token)
    if way != "socket":
        raise ValueError(f"menus: one of {', '.join(MENU_WAYS)}, not {way!r}")

    def on_socket(ws: Any, seat: _Seat) -> Menu:
        async def ask(card: str | None) -> None:
            answer = await seat.ask_menu(ws, card)
            if "listed" not in answer:
                raise RuntimeError(f"a menu was refused: {answer.get('error')}")

        return ask

    return on_socket


def _menu(client: httpx.AsyncClient, table: str, token: str) -> Menu:
    """A seat's menu as the board asks it over HTTP: the legal acts on a card."""
    auth = {"Authorization": f"Bearer {token}"}

    async def ask(card: str | None) -> None:
        query = {"card": card} if card is not None else {"actions": "end_turn"}
        answer = await client.get(f"/api/tables/{table}/legal", params=query, headers=auth)
        answer.raise_for_status()

    return ask
