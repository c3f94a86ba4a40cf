"""``GET /api/tables/ID/legal`` with its cost bounded per seat.

Building a seat's legal acts tries every candidate on the live game and takes
it back, under the table's lock: tens of milliseconds for a game in progress,
a second for a thousand cards. So that no page, however it loops, can take
that time from other seats and tables, each seat (and the spectator) of each
table gets:

- **an answer kept per position**: the list is computed once per event
  number (and set of action names asked for), and asked again it is answered
  from memory until the next event;
- **one computation at a time**: a seat's requests wait for each other, so
  that a second request for the same position finds the first one's answer;
  only a few may wait, and the rest get ``429`` at once;
- **a budget of time**: each request is charged the time its answer took
  to make, not its wait for a worker thread or the table's lock (at least
  :data:`MIN_CHARGE`, and for an answer from memory the time its bytes take
  to send, at :data:`BYTES_PER_SECOND`) against a credit of :data:`BURST`
  seconds that comes back at :data:`RATE` seconds a second. A seat out of
  credit gets ``429`` with ``Retry-After``, and its next request is served
  once the credit is back;
- **a budget per person**: the same charge is made against the budget of
  the client's address (:data:`PERSON_BURST`, :data:`PERSON_RATE`), whose
  computations run one at a time too, so that a client holding every seat
  of a table and its spectator link gets one budget, not one a seat;
- **an answer of bounded size**: the answer is encoded once per position
  and kept as bytes, in pages of at most :data:`PAGE_BYTES`; a longer list
  says where the next page starts (``next``, asked for with ``?from=``);
- **the event loop when it can**: a list is made on the event loop, with no
  trip to a worker thread, when the table can be read there (nothing need
  be read from the store first, and an act half-way on it is waited for)
  and the seat's last list of the same kind took under
  :data:`INLINE_LISTING`; any other is made in a worker thread, under the
  table's lock.

The same desk answers ``GET .../legal`` and the WebSocket's ``legal``
frames (:mod:`cardzones.web.routes.socket_legal`): a seat has one budget
and one memory of its lists, whichever way it asks.

>>> budget = Budget(now=0.0)
>>> budget.charge(BURST + 1.0, now=0.0)
>>> budget.wait(now=0.0) > 0
True
>>> budget.wait(now=60.0)
0.0
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardzones.table.json_text import encode
from cardzones.table.table import Table

#: The seconds of computing a seat may spend at once, from a full credit.
BURST = 3.0
#: The seconds of computing a seat's credit gets back each second.
RATE = 0.25
#: What a request costs at least, however quick: a loop of answers from
#: memory is bounded too.
MIN_CHARGE = 0.01
#: Requests of one seat that may wait while its computation runs.
MAX_WAITING = 4
#: Lists kept per seat (one per set of action names asked for), all of one position.
KEPT_LISTS = 8
#: Seats whose state is kept; the least recently asked are forgotten first.
KEPT_SEATS = 10_000
#: A person's (a client address's) credit and its return, for all the seats
#: it asks for together, however many it holds: two seats' burst (two players
#: behind one address asking at once), one seat's return.
PERSON_BURST, PERSON_RATE = 2 * BURST, RATE
#: Requests of one person that may wait while one of theirs runs.
PERSON_WAITING = 2 * MAX_WAITING
#: The bytes an answer from memory is charged as costing a second to send:
#: the server's writing them and the kernel's carrying them, measured
#: against the other tables' latency (docs/performance.md).
BYTES_PER_SECOND = 10_000_000
#: The most bytes of acts one answer lists; the rest is on the next page.
PAGE_BYTES = 500_000

#: A list is made on the event loop only when the seat's last list of the
#: same kind (:func:`shape`) took less than this many seconds: the loop
#: serves every table, and a long list (a thousand cards) is made in a
#: worker thread, where the interpreter's switch interval lets the loop run
#: meanwhile.
INLINE_LISTING = 0.005

#: The most action names one request may ask for, and the longest name.
MAX_NAMES, MAX_NAME = 64, 64

#: The answer a seat out of credit, or with too many requests waiting, gets.
BUSY = "too many requests for the legal acts from this seat: ask again in {wait} s"


class Busy(Exception):
    """The seat may not ask now: try again after ``retry_after`` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(BUSY.format(wait=retry_after))
        self.retry_after = retry_after


@dataclass
class Budget:
    """A seat's credit of computing time (a token bucket of seconds)."""

    now: float
    credit: float = BURST
    burst: float = BURST
    rate: float = RATE

    def _refill(self, now: float) -> None:
        self.credit = min(self.burst, self.credit + max(0.0, now - self.now) * self.rate)
        self.now = max(self.now, now)

    def wait(self, now: float) -> float:
        """Seconds until the seat may ask again (0: it may now)."""
        self._refill(now)
        return 0.0 if self.credit > 0 else -self.credit / self.rate + 1e-9

    #: all it was ever charged
    charged: float = 0.0

    def charge(self, seconds: float, now: float) -> None:
        self._refill(now)
        self.credit -= max(MIN_CHARGE, seconds)
        self.charged += max(MIN_CHARGE, seconds)

    async def settle(self, now: float) -> float:
        """:meth:`wait`, as a :class:`Credit`."""
        return self.wait(now)


class Credit(Protocol):
    """A credit of computing time: a :class:`Budget` in one process, or one
    shared by several (:class:`~cardzones.web.shared_rates.SharedBucket`)."""

    async def settle(self, now: float) -> float:
        """Seconds until the credit may be drawn on (0: now)."""
        ...

    #: all it was ever charged
    charged: float

    def charge(self, seconds: float, now: float) -> None:
        """Spend ``seconds`` of it."""
        ...


#: Makes the credit of a seat ("legal", "TABLE SEAT") or of a person
#: ("legal_person", ADDRESS): ``(kind, key, now, burst, rate)``.
CreditMaker = Callable[[str, str, float, float, float], Credit]


def local_credit(kind: str, key: str, now: float, burst: float, rate: float) -> Credit:
    """A credit kept in this process's memory."""
    return Budget(now, burst, burst, rate)


#: What a request asks for: the action names (None: all), the card and the
#: zone as the seat named them (None: any), and whether a judge's actions are
#: listed without being named.
Asked = tuple[tuple[str, ...] | None, str | None, str | None, bool]
#: The kind of a list, for its cost: whether it is narrowed to some action
#: names, to a card or a zone, and whether a judge's actions are in it.
Shape = tuple[bool, bool, bool]


def shape(key: Asked) -> Shape:
    """The kind of list ``key`` asks for (:data:`Shape`).

    >>> shape((None, "o1", None, False))
    (False, True, False)
    """
    return key[0] is not None, key[1] is not None or key[2] is not None, key[3]


@dataclass
class SeatLegal:
    """What one seat of one table has asked for."""

    budget: Credit
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    waiting: int = 0
    #: the number of the position the lists below are for
    number: int = -1
    lists: OrderedDict[Asked, list[dict[str, Any]]] = field(default_factory=OrderedDict)
    #: the encoded pages of the lists above, by list and first entry
    pages: dict[tuple[Asked, int], bytes] = field(default_factory=dict)
    #: the seconds the seat's last list of each kind took to make
    took: dict[Shape, float] = field(default_factory=dict)

    def quick(self, key: Asked) -> bool:
        """Whether the seat's last list of ``key``'s kind was quick enough to
        make the next one on the event loop (unknown: it was not)."""
        return self.took.get(shape(key), math.inf) < INLINE_LISTING

    def kept(self, number: int, key: Asked) -> list[dict[str, Any]] | None:
        return self.lists.get(key) if number == self.number else None

    def keep(self, number: int, key: Asked, legal: list[dict[str, Any]]) -> None:
        if number != self.number:
            self.number = number
            self.lists.clear()
            self.pages.clear()
        self.lists[key] = legal
        while len(self.lists) > KEPT_LISTS:
            gone, _ = self.lists.popitem(last=False)
            for page in [p for p in self.pages if p[0] == gone]:
                del self.pages[page]


@dataclass
class Person:
    """What one client address has asked for, all its seats together."""

    budget: Credit
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    waiting: int = 0


def encode_page(number: int, legal: list[dict[str, Any]], start: int) -> bytes:
    """The answer ``{"number": N, "legal": [...]}`` listing the acts from
    ``start`` on, as many as :data:`PAGE_BYTES` holds (one at least), with
    ``"next"``, the first entry of the next page, when there are more.

    >>> encode_page(3, [{"act": {"draw": {}}, "result": "moved"}] * 2, 1)
    b'{"number":3,"legal":[{"act":{"draw":{}},"result":"moved"}]}'
    """
    parts: list[bytes] = []
    size = 0
    at = start
    while at < len(legal):
        part = encode(legal[at])
        if parts and size + len(part) > PAGE_BYTES:
            break
        parts.append(part)
        size += len(part) + 1
        at += 1
    more = b',"next":%d' % at if at < len(legal) else b""
    return b'{"number":%d,"legal":[%s]%s}' % (number, b",".join(parts), more)


#: Runs a function on the table once it is up to date, under its lock
#: (:meth:`cardzones.web.hub.OpenTables.read` of the table).
Reader = Callable[[Callable[[Table], Any]], Awaitable[Any]]


def _forget(kept: OrderedDict[Any, SeatLegal] | OrderedDict[Any, Person]) -> None:
    """Forget the least recently asked past :data:`KEPT_SEATS`, unless one is
    computing or has requests waiting."""
    extra = len(kept) - KEPT_SEATS
    for key in list(kept)[: max(0, extra)]:
        if not kept[key].lock.locked() and not kept[key].waiting:
            del kept[key]


class LegalDesk:
    """The legal acts of every seat this process serves, bounded per seat."""

    def __init__(
        self, clock: Callable[[], float] = time.time, budget: CreditMaker = local_credit
    ) -> None:
        self.clock = clock
        #: makes each seat's and person's credit (kept across processes or not)
        self.budget = budget
        self.seats: OrderedDict[tuple[str, str | None], SeatLegal] = OrderedDict()
        self.people: OrderedDict[str, Person] = OrderedDict()
        #: whether each client address has a budget of its own besides its
        #: seats' (a load test whose every seat is on one address lifts it)
        self.per_person = True
        #: lists computed (not answered from memory), for the tests and the bench
        self.computed = 0

    def _seat(self, table_id: str, viewer: str | None) -> SeatLegal:
        key = (table_id, viewer)
        seat = self.seats.get(key)
        if seat is None:
            credit = self.budget("legal", f"{table_id} {viewer}", self.clock(), BURST, RATE)
            seat = self.seats[key] = SeatLegal(credit)
            _forget(self.seats)
        self.seats.move_to_end(key)
        return seat

    async def ready(self, table_id: str, viewer: str | None) -> None:
        """Make the seat's budget ready for its first request (a seat's
        socket asks this once welcomed): a budget shared across processes
        draws its first share now, so that the seat's first menu is not
        the one to wait for the store's round trip. A thousand seats asking
        their first menus at once would otherwise each draw then, together
        filling the worker threads and the store's short connections ahead
        of the menus' own reads."""
        await self._seat(table_id, viewer).budget.settle(self.clock())

    def _person(self, address: str) -> Person:
        person = self.people.get(address)
        if person is None:
            budget = self.budget("legal_person", address, self.clock(), PERSON_BURST, PERSON_RATE)
            person = self.people[address] = Person(budget)
            _forget(self.people)
        self.people.move_to_end(address)
        return person

    async def page(
        self,
        read: Reader,
        table_id: str,
        viewer: str | None,
        wanted: Sequence[str] | None,
        *,
        card: str | None = None,
        zone: str | None = None,
        judge: bool = False,
        start: int = 0,
        person: str | None = None,
        current: Callable[[], int | None] | None = None,
        inline: Callable[[], Awaitable[Table | None]] | None = None,
    ) -> tuple[int, bytes]:
        """As :meth:`answer`, the number of the event the answer is of and
        the answer's JSON as sent, from entry ``start`` on
        (:func:`encode_page`), charged to the seat and to the ``person`` (a
        client address) asking. ``current`` gives the table's number when
        it is known to be up to date without reading the store or taking
        its lock (None: it may not be): a page kept for that number is then
        answered at once, with no worker thread and no query. ``inline``
        gives the table once it may be read on the event loop (None: it
        may not be, and is read through ``read``); a list the seat has made
        quickly before is then made there (:data:`INLINE_LISTING`)."""
        key: Asked = (None if wanted is None else tuple(sorted(set(wanted))), card, zone, judge)

        def kept(seat: SeatLegal) -> tuple[tuple[int, bytes], bool, int] | None:
            number = current() if current is not None else None
            body = seat.pages.get((key, start)) if number == seat.number else None
            return None if body is None else ((seat.number, body), False, len(body))

        async def here(seat: SeatLegal) -> Table | None:
            return await inline() if inline is not None and seat.quick(key) else None

        got: tuple[int, bytes] = await self._served(
            read,
            table_id,
            viewer,
            lambda seat, t: self._page(seat, t, viewer, key, start),
            lambda got: got,
            None if person is None or not self.per_person else self._person(person),
            kept,
            here,
        )
        return got

    async def answer(
        self,
        read: Reader,
        table_id: str,
        viewer: str | None,
        wanted: Sequence[str] | None,
        *,
        card: str | None = None,
        zone: str | None = None,
        judge: bool = False,
    ) -> tuple[int, list[dict[str, Any]]]:
        """The table's number and ``viewer``'s legal acts at it (of the
        ``wanted`` actions, or all, a judge's with ``judge``; on the ``card``
        or ``zone`` the seat names, or any). Raises :class:`Busy` when the
        seat has asked too much, and :class:`~cardzones.table.refusals.Refusal`
        for a card or zone the seat cannot name."""
        key: Asked = (None if wanted is None else tuple(sorted(set(wanted))), card, zone, judge)
        listed: tuple[int, list[dict[str, Any]]] = await self._served(
            read,
            table_id,
            viewer,
            lambda seat, t: self._list(seat, t, viewer, key),
            lambda got: ((got[0], got[1]), got[2], 0),
            None,
        )
        return listed

    async def _served(
        self,
        read: Reader,
        table_id: str,
        viewer: str | None,
        make: Callable[[SeatLegal, Table], Any],
        split: Callable[[Any], tuple[Any, bool, int]],
        person: Person | None,
        kept: Callable[[SeatLegal], tuple[Any, bool, int] | None] | None = None,
        here: Callable[[SeatLegal], Awaitable[Table | None]] | None = None,
    ) -> Any:
        """What ``make`` makes of the table for the seat, within the seat's
        and the person's budgets and one at a time for each; ``split`` tells
        the answer from what ``make`` gave, whether it was computed, and the
        bytes sent from memory. ``kept`` answers from memory without the
        table, when it can; ``here`` gives the table when ``make`` may run
        on the event loop, without ``read``'s trip to a worker thread."""
        seat = self._seat(table_id, viewer)
        if seat.waiting >= MAX_WAITING or (person is not None and person.waiting >= PERSON_WAITING):
            raise Busy(1)
        seat.waiting += 1
        if person is not None:
            person.waiting += 1
        try:
            async with contextlib.AsyncExitStack() as held:
                if person is not None:
                    await held.enter_async_context(person.lock)
                await held.enter_async_context(seat.lock)
                now = self.clock()
                wait = max(
                    await seat.budget.settle(now),
                    0.0 if person is None else await person.budget.settle(now),
                )
                if wait > 0:
                    raise Busy(max(1, math.ceil(wait)))
                # Charged the time its answer took to make, not its wait
                # for a worker thread or the table's lock: a server behind
                # would otherwise spend its seats' budgets on its own queue
                # (and, with a budget shared across processes, draw again
                # for it, adding to the queue).
                took = 0.0

                def timed(table: Table) -> Any:
                    nonlocal took
                    began = time.perf_counter()
                    try:
                        return make(seat, table)
                    finally:
                        took += time.perf_counter() - began

                size = 0
                try:
                    got = kept(seat) if kept is not None else None
                    table = None if got is not None or here is None else await here(seat)
                    if table is not None:
                        # Nothing may change the table until this returns:
                        # no await between the look (here's last) and the list.
                        got = split(timed(table))
                    elif got is None:
                        got = split(await read(timed))
                    made, fresh, size = got
                finally:
                    cost = max(MIN_CHARGE, took, size / BYTES_PER_SECOND)
                    seat.budget.charge(cost, self.clock())
                    if person is not None:
                        person.budget.charge(cost, self.clock())
                if fresh:
                    self.computed += 1
                return made
        finally:
            seat.waiting -= 1
            if person is not None:
                person.waiting -= 1

    @staticmethod
    def _list(
        seat: SeatLegal, table: Table, viewer: str | None, key: Asked
    ) -> tuple[int, list[dict[str, Any]], bool]:
        kept = seat.kept(table.number, key)
        if kept is not None:
            return table.number, kept, False
        start = time.perf_counter()
        legal = table.legal(viewer, key[0], card=key[1], zone=key[2], judge=key[3])
        seat.took[shape(key)] = time.perf_counter() - start
        seat.keep(table.number, key, legal)
        return table.number, legal, True

    @classmethod
    def _page(
        cls, seat: SeatLegal, table: Table, viewer: str | None, key: Asked, start: int
    ) -> tuple[tuple[int, bytes], bool, int]:
        """In a worker thread, or on the event loop when the table may be
        read there: the page and its number, from memory when it was made
        at this position (charged by its size), else made and kept (charged
        by the time that took)."""
        number, legal, fresh = cls._list(seat, table, viewer, key)
        body = seat.pages.get((key, start)) if not fresh else None
        if body is not None:
            return (number, body), False, len(body)
        body = encode_page(number, legal, start)
        seat.pages[(key, start)] = body
        return (number, body), fresh, 0


#: The values of ``?judge=``.
JUDGE_WORDS = {"1": True, "true": True, "0": False, "false": False}


def judge_asked(text: str | None) -> bool:
    """Whether ``?judge=`` asks for a judge's actions too: ``1`` or ``true``
    does, ``0``, ``false`` or none does not. Raises ValueError for any other
    value.

    >>> judge_asked("1"), judge_asked(None), judge_asked("false")
    (True, False, False)
    """
    if text is None:
        return False
    if text in JUDGE_WORDS:
        return JUDGE_WORDS[text]
    raise ValueError("judge: 1 or true, 0 or false")


def wanted_actions(text: str | None) -> list[str] | None:
    """The action names of ``?actions=a,b`` (None: all). Raises ValueError
    when there are too many or one is too long."""
    if not text:
        return None
    names = [n.strip() for n in text.split(",", MAX_NAMES + 1) if n.strip()]
    if len(names) > MAX_NAMES:
        raise ValueError(f"actions: at most {MAX_NAMES} names")
    if any(len(n) > MAX_NAME for n in names):
        raise ValueError(f"actions: a name has at most {MAX_NAME} characters")
    return names or None
