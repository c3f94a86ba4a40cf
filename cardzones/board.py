"""Render a player view and a log with Rich. It only ever reads views, never
the game itself, so it cannot show what the viewer may not see."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardzones.errors import CardzonesError
from cardzones.rulesets import get_ruleset
from cardzones.rulesets.base import Board


def _card_text(obj: dict[str, Any], zone_public: bool) -> Text:
    """One object as a line. Its face is named only where it is not the zone's
    default: a private card in a public zone is face down, a public one in a
    private zone face up; a card in one's own hand is neither."""
    if obj.get("hidden"):
        return Text("(hidden)", style="dim italic")
    text = Text(str(obj["name"]), style="bold" if obj.get("public") else "yellow")
    details = []
    for key in ("power", "defense", "strength", "toughness"):
        if key in obj and obj[key] is not None:
            details.append(f"{key} {obj[key]}")
    if obj.get("keywords"):
        details.append(", ".join(obj["keywords"]))
    if obj.get("kind"):
        details.append(f"{obj['kind']} layer")
    public = bool(obj.get("public"))
    if public != zone_public:
        details.append("face up" if public else "face down")
    if obj.get("equipped_to") and len(obj["equipped_to"]) > 1:
        details.append("equipped to " + " + ".join(obj["equipped_to"]))
    if details:
        text.append(f"  [{'; '.join(details)}]", style="dim")
    return text


def _zone_lines(zone: dict[str, Any]) -> Text:
    out = Text()
    for i, obj in enumerate(zone["objects"]):
        if i:
            out.append("\n")
        if zone["ordered"]:
            out.append(f"{i}. ", style="dim")
        out.append_text(_card_text(obj, zone["public"]))
        for key, word in (("under", "under"), ("placed", "on it")):
            for kid in obj.get(key, []):
                out.append(f"\n   └ {word}: ", style="cyan")
                out.append_text(_card_text(kid, zone["public"]))
    return out


def _kept_when_empty(name: Any) -> frozenset[str]:
    """The zone types a board shows even when empty: a player's deck and
    hand, and those the rule set's mat gives a whole row or a pile of their
    own (:class:`~cardzones.rulesets.base.Board`)."""
    try:
        mat = get_ruleset(name).board
    except CardzonesError:
        mat = Board()  # a view of a rule set this program does not have
    return frozenset({"deck", "hand", *mat.wide, *mat.piles})


def board(view: dict[str, Any], title: str | None = None) -> RenderableType:
    """A table of every zone of a view: shared zones, then each player's."""
    table = Table(show_header=True, header_style="bold", expand=True)
    table.add_column("zone", style="green", no_wrap=True)
    table.add_column("n", justify="right")
    table.add_column("cards")
    kept = _kept_when_empty(view.get("ruleset"))
    for zone in view["zones"]:
        if not zone["objects"] and zone["type"] not in kept:
            continue
        table.add_row(zone["zone"], str(zone["count"]), _zone_lines(zone))
    phase = f", {view['phase']} phase" if view.get("phase") else ""
    viewer = view.get("viewer")
    who = "everything (author)" if view.get("omniscient") else (viewer or "spectator")
    heading = title or f"{view['ruleset']}: turn {view['turn']} ({view['turn_player']}{phase})"
    procedure = view.get("procedure")
    if procedure is not None:
        table.caption = procedure_line(procedure)
    return Panel(table, title=heading, subtitle=f"as seen by {who}")


def procedure_line(procedure: dict[str, Any]) -> str:
    """A game procedure as a view shows it, in one line, in the words of its
    own keys: where the game is, whom it waits for or who won, each
    player's numbers, and how many of each list there are.

    >>> line = procedure_line({"phase": "action", "step": "defend", "priority": None,
    ...     "waiting_for": "bob", "action_points": {"alice": 0, "bob": 0},
    ...     "resource_points": {"alice": 1, "bob": 0}, "result": None,
    ...     "links": [{"number": 1}]})
    >>> for part in line.split("; "):
    ...     print(part)
    action phase, defend step
    waiting for bob
    action points: alice 0, bob 0
    resource points: alice 1, bob 0
    links: 1
    """
    where = f"{procedure.get('phase')} phase"
    if procedure.get("step"):
        where += f", {procedure['step']} step"
    parts = [where]
    result = procedure.get("result")
    if isinstance(result, dict):
        winner = result.get("winner")
        parts.append(f"{winner} wins" if winner else "a draw")
    elif procedure.get("waiting_for"):
        parts.append(f"waiting for {procedure['waiting_for']}")
    for key, value in procedure.items():
        words = key.replace("_", " ")
        if isinstance(value, dict) and all(isinstance(n, int) for n in value.values()):
            parts.append(f"{words}: " + ", ".join(f"{p} {n}" for p, n in value.items()))
        elif isinstance(value, list):
            parts.append(f"{words}: {len(value)}")
    return "; ".join(parts)


def log_table(log: list[dict[str, Any]], limit: int | None = None) -> RenderableType:
    """The log as a table; with ``limit``, only its last entries, and the title
    says how many of how many it shows."""
    table = Table(show_header=True, header_style="bold", expand=True)
    for column in ("#", "turn", "event", "from", "to", "card"):
        table.add_column(column)
    trimmed = limit is not None and 0 < limit < len(log)
    entries = log[-limit:] if trimmed and limit is not None else log
    for entry in entries:
        card = entry.get("card")
        name = Text("")
        if card:
            name = Text(card["name"], style="yellow" if entry.get("private") else "")
            if entry.get("private"):
                name.append(" (private)", style="dim")
        table.add_row(
            str(entry["seq"]),
            str(entry["turn"]),
            entry["event"],
            str(entry.get("from") or entry.get("zone") or ""),
            str(entry.get("to") or entry.get("note") or ""),
            name,
        )
    title = "event log"
    if trimmed:
        title += f": the last {len(entries)} of {len(log)} entries"
    return Panel(table, title=title)


def render(
    view: dict[str, Any],
    log: list[dict[str, Any]],
    title: str | None = None,
    limit: int | None = None,
) -> RenderableType:
    return Group(board(view, title), log_table(log, limit))
