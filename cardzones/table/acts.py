"""From a seat's act to an engine call: the one place where the table turns
what a player sends into a change of the game.

An act is one step of the scenario step language with the rule set's actions,
as JSON: ``{"move": {"card": "o628dc6a8bcab", "to": "alice.graveyard"}}``. The
actions are the rule set's own action table (``Ruleset.actions``), the same
one the scenario runner and ``cardzones actions`` read; the table keeps no
list of actions. Applying an act (:func:`apply_act`) takes two steps:

1. **Bind** it for the seat (:func:`bind_act`) in the one pass of
   :func:`~cardzones.acts.binding.bind`, with the seat's resolver,
   :class:`~cardzones.table.seat_refs.SeatRefs`, and the seat policy. A card
   is named by the handle (``id``) that the seat's own view gives it, or by
   ``ZONE[i]``, the i-th object of that zone as the seat's view lists it.
   Nothing else names a card: no ``$label``, no ``NAME@ZONE`` (both would let
   a seat follow or find a card it may not see). A handle the seat's view
   does not give now, including one another viewer's view gives, is refused
   as ``no such card``, whatever card it may name for someone else. The same
   pass checks the seat policy below as it resolves each value, and writes
   the **stored act**: the same step with every card named by its physical
   card (``#17``) and the acting player written out. The stored act is
   secret-bearing (a physical card follows a card through every hidden
   stretch), never sent to a player, and it replays exactly, whatever handles
   views give in the future.
2. **Run** the action with the bound arguments. Replay and export apply
   stored acts (:func:`apply_stored`): bound with
   :class:`~cardzones.table.context.StoredRefs`, which reads ``#N``, and run
   the same way, so a replayed game is the game that was played.

Any refusal raises :class:`~cardzones.table.refusals.Refusal`, with the
engine's message and rule id when a rule refused it. A refusal leaves the game
exactly as it was, and its message names cards only as the seat named them.

This module holds the two steps; the game's context and the resolver of
stored acts are :mod:`cardzones.table.context`, how a seat names things
:mod:`cardzones.table.seat_refs`, and the refusals and their wording
:mod:`cardzones.table.refusals`.

The seat policy
---------------

The engine checks the rules with the acting player set to the seat. On top of
that, a seat may act only on what is its own, as a player at a physical table
would: the seat policy, stated once, in :mod:`cardzones.acts.seats`, and
checked by the same pass that binds the act; legal actions follow it too.
The table adds two things a seat may not do that a scenario may:

- name a card by its name (``ParamKind.NAME``: fab's ``create_token``) other
  than one of the table's token cards: a card of its start position with the
  type ``token`` (a table made from card data keeps every token card of the
  game). The other cards of the start position are where the hidden cards
  are: if a seat could name them, the answer (a token with that card's
  printed types, or a refusal) would tell it whether the card is in the game.
  Any other name gets the same refusal, with the closest token names;
- act at all as a spectator.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardzones.acts.actions import Action, ArgumentError, Param, ParamKind, table_of
from cardzones.acts.binding import bind, bind_written
from cardzones.acts.seats import SeatPolicy
from cardzones.acts.zone_choices import ZoneChoices
from cardzones.errors import CardzonesError, IllegalAction, ScenarioError
from cardzones.kernel.results import ActionResult, MoveResult
from cardzones.kernel.state import Checkpoint
from cardzones.table.context import LabelState, TableContext
from cardzones.table.refusals import (
    NOT_AT_A_TABLE,
    Refusal,
    as_label,
    message_of,
    refuse_labels,
    seat_message,
)
from cardzones.table.seat_refs import SeatRefs

log = logging.getLogger(__name__)

#: Keys a step may carry beside its action (docs/scenarios.md) that a table
#: takes (those it does not: :data:`~cardzones.table.refusals.NOT_AT_A_TABLE`).
_STEP_KEYS = frozenset({"as"})


@dataclass
class Bound:
    """An act bound for a seat: the action and its arguments as ``run`` takes
    them, the stored act, and how the seat named each physical card, so that a
    message names cards as the seat did."""

    action: Action
    args: dict[str, Any]
    stored: dict[str, Any]
    names: dict[str, str] = field(default_factory=dict)


class _Stored:
    """Writes the stored act (:class:`~cardzones.acts.binding.Writer`): the act
    as the seat sent it, with every card as its physical card (``#17``) and
    the actor written out."""

    def action(
        self, action: Action, raw: Mapping[str, Any], args: Mapping[str, Any], out: dict[str, Any]
    ) -> dict[str, Any]:
        stored = dict(raw)
        if action.actor is not None:
            stored[action.actor] = str(args[action.actor])
        for name, value in out.items():
            if name != action.actor:
                stored[name] = value
        return stored

    def value(self, param: Param, raw: Any, bound: Any, written: Any) -> Any:
        kind = param.kind
        if kind is ParamKind.CARD:
            return f"#{bound}"
        if kind is ParamKind.CARDS:
            stored = [f"#{card}" for card in bound]
            return stored[0] if isinstance(raw, str) else stored
        if isinstance(bound, ZoneChoices) and isinstance(raw, Mapping):
            # A card a choice is for, as its physical card, as any card is.
            keys = [f"#{key}" if isinstance(key, int) else key for key, _ in bound.pairs]
            return dict(zip(keys, raw.values(), strict=True))
        if kind is ParamKind.MAPPING and isinstance(raw, Mapping):
            return {key: written.get(key, value) for key, value in raw.items()}
        if kind is ParamKind.ACTION and written is not None:
            return written
        return raw


_STORED = _Stored()


def bind_act(ctx: TableContext, seat: str | None, act: Any) -> Bound:
    """The bound and stored act for ``seat``'s act in the table's game, or a
    :class:`Refusal`: the one pass (:func:`~cardzones.acts.binding.bind`)
    resolves the seat's names, checks the seat policy and writes the stored
    act. Nothing changes."""
    game = ctx.game
    if seat is None:
        raise Refusal("a spectator cannot act")
    if not isinstance(act, dict) or not act:
        raise Refusal('an act is one action, such as {"move": {"card": ID, "to": ZONE}}')
    refuse_labels(act)
    table = table_of(game)
    keys = [k for k in act if k not in _STEP_KEYS]
    for key in keys:
        if key in NOT_AT_A_TABLE:
            raise Refusal(NOT_AT_A_TABLE[key])
    if len(keys) != 1:
        raise Refusal(f"an act holds exactly one action, found {len(keys)}")
    name = keys[0]
    action = table.get(name)
    if action is None:
        raise Refusal(
            f"unknown action {name!r} for {game.ruleset.name}; actions are "
            + ", ".join(sorted(table))
        )
    raw = _args(action, act[name])
    if "as" in act:
        if "as" in raw:
            raise Refusal("as: is given twice")
        raw["as"] = act["as"]
    if "as" in raw:
        as_label(raw["as"])
    refs = SeatRefs(ctx, seat)
    try:
        args, stored = bind_written(
            action,
            raw,
            refs,
            _STORED,
            table=table,
            reserved=_STEP_KEYS,
            seat=SeatPolicy(game, seat),
        )
    except ArgumentError as exc:
        raise Refusal(message_of(exc)) from None
    except Refusal:
        raise
    except CardzonesError as exc:  # the seat policy, citing a rule where one decides it
        raise Refusal(str(exc), getattr(exc, "rule", None)) from None
    except Exception:  # an engine bug: the seat gets no detail, the log does
        log.exception("an act could not be bound")
        raise Refusal("internal error: the act was not applied") from None
    names = {f"#{card}": text for card, text in refs.names.items()}
    return Bound(action, args, {name: stored}, names)


def _args(action: Action, raw: Any) -> dict[str, Any]:
    if raw is None:
        return {}
    if isinstance(raw, dict):
        return dict(raw)
    if isinstance(raw, str | int) and not isinstance(raw, bool) and action.bare is not None:
        # A bare value, as in {"phase": "upkeep"}, is the action's one argument.
        return {action.bare: raw}
    raise Refusal(f"{action.name} takes a mapping of its arguments")


# ----------------------------------------------------------------------
# Applying an act
# ----------------------------------------------------------------------


@dataclass(frozen=True)
class Applied:
    """An act that the rules accepted: the stored act, what it did, and what
    puts the table back as it was before it (the game's checkpoint and the
    labels), until the act is an event."""

    stored: dict[str, Any]
    result: MoveResult
    checkpoint: Checkpoint
    labels: LabelState


def apply_act(ctx: TableContext, seat: str | None, act: Any) -> Applied:
    """Apply ``seat``'s act to the table's game, or raise :class:`Refusal` and
    change nothing: bound once for the seat (:func:`bind_act`), then run.

    >>> from cardzones.table.creation import Creation
    >>> ctx = Creation("fab", ("alice", "bob"), 7, {}, {"alice.deck": ["A", "B"]}).build()
    >>> applied = apply_act(ctx, "alice", {"move": {"card": "alice.deck[0]", "to": "alice.hand"}})
    >>> applied.result.value, applied.stored["move"]["by"]
    ('moved', 'alice')
    >>> apply_act(ctx, "bob", {"move": {"card": "alice.deck[0]", "to": "bob.hand"}})
    Traceback (most recent call last):
    ...
    cardzones.table.refusals.Refusal: card: alice.deck[0]: a card you may not look at ...
    """
    bound = bind_act(ctx, seat, act)
    ((_, args),) = bound.stored.items()
    checkpoint, labels = ctx.game.checkpoint(), ctx.state()
    done = _run(
        ctx, bound.action, lambda: bound.args, args.get("as"), bound.names, checkpoint, seat
    )
    return Applied(bound.stored, done.result, checkpoint, labels)


def apply_stored(
    ctx: TableContext, stored: dict[str, Any], names: dict[str, str] | None = None
) -> ActionResult:
    """Apply a stored act to the table's game with the rule set's action (a
    replay, an export), and say what it did. A refusal rolls everything back
    (the game, the labels) and raises :class:`Refusal`, whose message names a
    card as ``names`` says the seat named it."""
    if not isinstance(stored, dict) or len(stored) != 1:
        raise Refusal("a stored act holds exactly one action")
    ((name, args),) = stored.items()
    table = table_of(ctx.game)
    action = table.get(name)
    if action is None:
        raise Refusal(f"unknown action {name!r}")
    label = args.get("as") if isinstance(args, dict) else None
    # The stored act writes out who acted; "by" is who acts in every action.
    seat = None
    if isinstance(args, dict):
        seat = args.get("by", args.get(action.actor) if action.actor else None)
    return _run(
        ctx,
        action,
        lambda: bind(action, args, ctx.refs, table=table, reserved=_STEP_KEYS),
        label,
        names or {},
        ctx.game.checkpoint(),
        None if seat is None else str(seat),
    )


def _run(
    ctx: TableContext,
    action: Action,
    bound: Callable[[], dict[str, Any]],
    label: Any,
    names: dict[str, str],
    checkpoint: Checkpoint,
    seat: str | None = None,
) -> ActionResult:
    """Run ``action`` with the arguments ``bound`` gives; ``as:`` names what
    it made. A refusal puts the game back to ``checkpoint``, taken just
    before, and the labels as they were."""
    game = ctx.game
    labels = ctx.state()

    def fail(text: str, rule: str | None) -> Refusal:
        return Refusal(seat_message(text, names), rule)

    try:
        done = action.run(game, bound())
        if label is not None:
            # as: names what the action made: a card (a token, a layer), an effect, or both.
            key = as_label(label)
            if done.card is not None:
                ctx.labels[key] = done.card
            if done.effect is not None:
                ctx.effects[key] = done.effect
                if seat is not None:
                    ctx.effect_seats[key] = seat
        return done
    except ArgumentError as exc:
        refusal = fail(message_of(exc), None)
    except IllegalAction as exc:
        refusal = fail(str(exc), exc.rule)
    except ScenarioError as exc:
        refusal = fail(exc.message, None)
    except CardzonesError as exc:
        refusal = fail(str(exc), None)
    except Exception:  # an engine bug: the seat gets no detail, the log does
        log.exception("an act raised an unexpected error")
        refusal = Refusal("internal error: the act was not applied")
    game.rollback(checkpoint)
    ctx.restore(labels)
    try:
        raise refusal
    finally:  # the refusal's traceback holds this frame: no cycle through the table
        del refusal
