// The game procedure on the board: the view's `procedure` field drawn for
// people (the battle as a battle, the souls each player rescued, the
// winner) and the procedure's acts that the seat's legal acts offer now,
// one click each (see board-state.js).
//
// It draws the parts of the field it knows and leaves out any other, and
// lists whatever the seat's legal acts are while a procedure runs (they are
// the procedure's acts then), so a rule set whose procedure shows the same
// field uses it as it is. Everything it shows comes from this viewer's view
// and this seat's /legal answer: a card is named only as the view names it.
"use strict";

(function () {
  const M = () => window.cardzonesMenus;
  const W = () => window.cardzonesWords;
  const parts = () => window.cardzonesProcedureParts;

  function words(text) {
    return String(text).replace(/_/g, " ");
  }

  // A card of the procedure's field ({id, name}) as a person says it.
  function cardName(card) {
    return card && card.name ? W().shortName(card.name) : "a card";
  }

  // A card ref of an act, by what the view shows of it.
  function named(ref, view) {
    return W().shortName(M().cardWords(ref, view));
  }

  // The phases in their order, as the action table gives them (the
  // `to` choices of the act that moves the turn on).
  function phases(name) {
    const action = typeof actionNamed === "function" ? actionNamed(name) : null;
    const to = action ? action.params.find((p) => p.name === "to") : null;
    return to && Array.isArray(to.options) ? to.options : [];
  }

  // The procedure's acts in words: `ref` is the card a menu is about (named
  // "it"), or null in the panel and the bar. Null for an act it has no
  // words for, which the menus then say as they say any other (in the words
  // its action table gives it, menus.js).
  const SAY = {
    open_game: () => "Open the game",
    proceed: (a, ref, view) => {
      if (a.to) return `Go to the ${words(a.to)} phase`;
      const order = phases("proceed");
      const here = order.indexOf(view.phase);
      if (here === order.length - 1 && here >= 0) return "End the turn";
      return here >= 0 ? `Next phase (${words(order[here + 1])})` : "Next phase";
    },
    block: (a, ref, view) => (a.card === ref ? "Block with it" : `Block with ${named(a.card, view)}`),
    enhance: (a, ref, view) => {
      if (a.card === ref) return `Play it on ${named(a.character, view)}`;
      if (a.character === ref) return `Enhance it with ${named(a.card, view)}`;
      return `Play ${named(a.card, view)} on ${named(a.character, view)}`;
    },
    pass: (a, ref, view) => {
      const battle = view.procedure && view.procedure.battle;
      return battle && battle.stage === "block" ? "Do not block" : "Pass";
    },
    discard_down: (a, ref, view) => {
      const limit = view.procedure && view.procedure.hand_limit;
      const down = typeof limit === "number" ? ` (down to ${limit})` : "";
      return a.card === ref ? `Discard it${down}` : `Discard ${named(a.card, view)}${down}`;
    },
    play_dominant: (a, ref, view) => (a.card === ref ? `Play it on ${named(a.target, view)}`
      : `Play ${named(a.card, view)} on ${named(a.target, view)}`),
  };
  // The group of a menu each act is listed under (menus.js's GROUPS).
  const GROUP = {
    open_game: "Turn", proceed: "Turn", pass: "Turn", block: "Play", enhance: "Play", discard_down: "Play", play_dominant: "Play",
  };

  // A menu entry of a procedure's act ({group, text, full}), or null for
  // any other act (menus.js asks here first).
  function entry(step, ref, view) {
    const name = Object.keys(step)[0];
    const args = step[name];
    if (!view || !view.procedure) return null;
    if (!SAY[name]) return parts() ? parts().listedWords(step, ref, view) : null;
    const text = SAY[name](args && typeof args === "object" ? args : {}, ref, view);
    return { group: GROUP[name], text, full: text };
  }

  // -- the field drawn ------------------------------------------------

  function stat(obj) {
    if (!obj) return null;
    const s = obj.strength;
    const t = obj.toughness;
    return typeof s === "number" || typeof t === "number" ? `${s ?? "–"}/${t ?? "–"}` : null;
  }

  // One character of a side with the enhancements played on it.
  function character(card, played, found) {
    const shown = found.get(card.id);
    const st = stat(shown && shown.obj);
    const box = h("li", { class: "proc-char", "data-card": card.id },
                  h("span", { class: "proc-name", text: cardName(card) }),
                  st ? h("span", { class: "proc-st", text: st }) : null);
    const on = played.filter((e) => e.on === card.id);
    if (on.length) {
      box.appendChild(h("ul", { class: "proc-enh" }, on.map((e) => h("li", {
        class: "proc-enhancement", "data-by": e.by, text: `+ ${cardName(e)} (${e.by})` }))));
    }
    return box;
  }

  function side(battle, which, player, cards, found) {
    const played = Array.isArray(battle.enhancements) ? battle.enhancements : [];
    const ids = new Set(cards.map((c) => c.id));
    // An enhancement whose character has left the battle is still its player's.
    const loose = played.filter((e) => e.by === player && !ids.has(e.on));
    const total = battle[which];
    const role = which === "good" ? "rescues with" : "blocks with";
    const box = h("div", { class: `proc-side ${which}`, "data-player": player || "",
                           "data-initiative": battle.initiative === player ? "yes" : "no" },
                  h("div", { class: "proc-side-title", text: `${player} ${role}` }));
    if (cards.length) {
      box.appendChild(h("ul", { class: "proc-chars" }, cards.map((c) => character(c, played, found))));
    } else {
      box.appendChild(h("div", { class: "proc-none",
                                 text: which === "evil" && battle.stage === "block" ? "no blocker yet" : "nobody" }));
    }
    if (loose.length) {
      box.appendChild(h("ul", { class: "proc-enh" }, loose.map((e) => h("li", {
        class: "proc-enhancement", "data-by": e.by, text: `+ ${cardName(e)} (${e.by})` }))));
    }
    if (total && typeof total === "object") {
      box.appendChild(h("div", { class: "proc-total",
                                 text: `total ${total.strength}/${total.toughness}` }));
    }
    return box;
  }

  function stageWords(battle) {
    if (battle.stage === "block") return `${battle.defender} decides on the block`;
    if (battle.stage === "enhance") return "enhancements";
    return words(battle.stage || "");
  }

  // The rule set's words for its battle (its layout's `battle`, GET
  // /api/rulesets): the fields that hold each side's characters, and what a
  // battle is fought for while its card is not known.
  function battleWords(view) {
    const board = typeof layout === "function" ? layout(view) : {};
    return (board && board.battle) || {};
  }

  function battleEl(battle, view) {
    const found = M().objects(view);
    const said = battleWords(view);
    const cards = (which) => (Array.isArray(battle[said[which]]) ? battle[said[which]] : []);
    const middle = h("div", { class: "proc-middle" },
                     h("div", { class: "proc-soul", "data-card": battle.soul ? battle.soul.id : "",
                                text: `for ${battle.soul ? cardName(battle.soul) : said.prize || "a card"}` }),
                     h("div", { class: "proc-stage", text: stageWords(battle) }),
                     battle.initiative ? h("div", { class: "proc-initiative",
                                                    text: `${battle.initiative} has initiative` }) : null,
                     battle.outcome ? h("div", { class: "proc-outcome",
                                                 text: `if it ended now: ${words(battle.outcome)}` }) : null);
    return h("div", { class: "proc-battle", "data-stage": battle.stage || "",
                      "data-initiative": battle.initiative || "", "aria-label": "the battle" },
             side(battle, "good", battle.rescuer, cards("good"), found),
             middle,
             side(battle, "evil", battle.defender, cards("evil"), found));
  }

  function head(field, view) {
    const box = h("div", { class: "proc-head" });
    // The souls each player rescued while the procedure ran; the winner is
    // who first holds the number it names (counting souls held before).
    if (field.rescued && typeof field.rescued === "object") {
      for (const player of view.players) {
        if (!(player in field.rescued)) continue;
        const n = field.rescued[player];
        box.appendChild(h("span", { class: "proc-rescued", "data-player": player,
                                    text: `${player} rescued ${n} soul${n === 1 ? "" : "s"}` }));
      }
    }
    if (typeof field.souls_to_win === "number") {
      box.appendChild(h("span", { class: "proc-note", text: `${field.souls_to_win} Redeemed Souls win` }));
    }
    if (field.winner) {
      box.appendChild(h("span", { class: "proc-winner", "data-player": field.winner,
                                  text: `${field.winner} won the game` }));
    } else if (field.opened === false) {
      box.appendChild(h("span", { class: "proc-note", text: "the game has not opened yet" }));
    }
    return box;
  }

  // -- the acts ---------------------------------------------------------

  // The seat's acts now, one button each, filled in when /legal answers
  // (if the panel still shows that position).
  function actsEl(view) {
    const slot = h("div", { class: "proc-acts", "aria-busy": "true", "aria-label": "your acts now" });
    const number = state.number;
    const fill = (tries) => loadLegal().then((entries) => {
      if (!slot.isConnected || state.number !== number) return;
      if (entries === "later" && tries < 20) {
        setTimeout(() => fill(tries + 1), 100);
        return;
      }
      slot.removeAttribute("aria-busy");
      const items = (Array.isArray(entries) ? entries : []).filter(
        (item) => item.result !== "failed" && !M().isJudge(actionNamed(Object.keys(item.act)[0])));
      const button = (step) => {
        const said = entry(step, null, view) || M().entry(step, null, view);
        return h("button", {
          type: "button", class: "proc-act", "data-action": Object.keys(step)[0], "data-act": JSON.stringify(step),
          text: said.text, title: said.full, "aria-label": said.full, onclick: () => act(step, null),
        });
      };
      // A procedure that passes priority lays its acts out (board-procedure-parts.js).
      if (!(parts() && parts().layActs(slot, items, view, button))) {
        for (const item of items) slot.appendChild(button(item.act));
      }
      if (!Array.isArray(entries)) {
        // No list (the server offers none, or asked too often): the cards'
        // menus and the bar's still have every act, by their forms.
        slot.appendChild(h("span", { class: "proc-note", text: "your acts are in the cards' menus" }));
      } else if (!slot.querySelector("button")) {
        slot.appendChild(h("span", { class: "proc-note", text: "nothing for you to do now" }));
      }
      slot.dataset.ready = "yes";
    });
    fill(0);
    return slot;
  }

  // The panel of the view's `procedure` field, or null for a game that
  // runs none.
  function panel(view) {
    const field = view && view.procedure;
    if (!field || typeof field !== "object") return null;
    const box = h("section", { id: "procedure", class: "procedure", "aria-label": "the game procedure" },
                  head(field, view));
    if (field.battle && typeof field.battle === "object") box.appendChild(battleEl(field.battle, view));
    if (parts()) for (const part of parts().parts(field, view)) box.appendChild(part);
    if (canAct() && !field.winner) box.appendChild(actsEl(view));
    if (parts() && canAct()) setTimeout(() => parts().watch(view), 0);
    return box;
  }

  window.cardzonesProcedure = Object.freeze({ panel, entry });
})();
