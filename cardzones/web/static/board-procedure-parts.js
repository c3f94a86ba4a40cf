// The parts of a game procedure's view that any procedure may show, drawn
// from the field's own keys (board-procedure.js draws the rest): whose
// priority it is and whom the game waits for, each player's points, the
// numbered links of a chain of plays with the players and cards of each, and
// the result. Its words are the field's keys and the action table's names,
// never a game's: a procedure that shows the same shapes is drawn the same.
//
// It also lays out the seat's acts for a procedure that passes priority: a
// card that may be paid for in several ways (which cards pay for it) is one
// entry that asks which, each way by its cards' names and values, one click
// to pick; the first way of doing any other thing is one click and the
// other ways are under More;
// an act whose one choice is a set of cards is a selection confirmed once;
// and the pass is always in view, with "Pass until something happens",
// which passes each time the seat gets priority back until another seat
// does anything but pass or the game asks this seat for something else.
//
// Cards are named only as this viewer's view names them.
"use strict";

(function () {
  const M = () => window.cardzonesMenus;

  function words(text) {
    return String(text).replace(/_/g, " ");
  }

  function cap(text) {
    return text ? text[0].toUpperCase() + text.slice(1) : text;
  }

  // Whether a value names a card of the view (a handle it shows).
  function isCard(value, found) {
    return typeof value === "string" && found.has(value);
  }

  function cardEl(handle, view, found) {
    return h("span", { class: "proc-card", "data-card": handle,
                       text: window.cardzonesWords.shortName(M().cardWords(handle, view, found)) });
  }

  // -- the field drawn ------------------------------------------------

  // Each key of the field whose value gives every player a number (their
  // points of some kind), as one line per player.
  function pointsEl(field, view) {
    const kinds = Object.keys(field).filter((k) => {
      const v = field[k];
      return v && typeof v === "object" && !Array.isArray(v)
        && view.players.every((p) => typeof v[p] === "number");
    });
    if (!kinds.length) return null;
    // A player the field lists as out of the game says so beside their name.
    const out = Array.isArray(field.out) ? field.out : [];
    return h("ul", { class: "proc-points", "aria-label": "each player's points" }, view.players.map((p) => h(
      "li", { class: "proc-player", "data-player": p, "data-priority": field.priority === p ? "yes" : "no",
              "data-out": out.includes(p) ? "yes" : "no" },
      h("span", { class: "proc-player-name", text: out.includes(p) ? `${p} (out)` : p }),
      kinds.map((k) => h("span", { class: "proc-point", "data-kind": k,
                                   text: `${words(k)} ${field[k][p]}` })))));
  }

  // Who has priority, whom the game waits for, and the phase and step.
  function whereEl(field) {
    const parts = [];
    for (const key of ["phase", "step"]) {
      if (typeof field[key] === "string") parts.push(h("span", { class: `proc-${key}`, text: `${key}: ${words(field[key])}` }));
    }
    if ("priority" in field) {
      parts.push(h("span", { class: "proc-priority", "data-player": field.priority || "",
                             text: field.priority ? `${field.priority} has priority` : "no one has priority" }));
    }
    if (field.waiting_for && field.waiting_for !== field.priority) {
      parts.push(h("span", { class: "proc-waiting", "data-player": field.waiting_for,
                             text: `waiting for ${field.waiting_for}` }));
    }
    return parts.length ? h("div", { class: "proc-where" }, parts) : null;
  }

  // One value of a link in words: a player, a card, a list of cards, a
  // number or a yes/no, each after its key.
  function valueEl(key, value, view, found) {
    const label = h("span", { class: "proc-key", text: `${words(key)} ` });
    if (Array.isArray(value)) {
      const cards = value.filter((v) => isCard(v, found));
      return h("span", { class: "proc-value", "data-key": key }, label,
               cards.length ? cards.map((c) => cardEl(c, view, found)) : h("span", { text: "none" }));
    }
    if (isCard(value, found)) return h("span", { class: "proc-value", "data-key": key }, label, cardEl(value, view, found));
    if (typeof value === "boolean") {
      return h("span", { class: "proc-value", "data-key": key, "data-yes": value ? "yes" : "no",
                         text: value ? words(key) : `no ${words(key)}` });
    }
    if (typeof value === "number" || (typeof value === "string" && view.players.includes(value))) {
      return h("span", { class: "proc-value", "data-key": key }, label, h("span", { text: String(value) }));
    }
    return null;  // a card no longer shown, or a value with no words here
  }

  // The field's lists of numbered records (a chain's links), each record a
  // row of its values in the order the field gives them.
  function chainsEl(field, view) {
    const found = M().objects(view);
    const out = [];
    for (const [key, list] of Object.entries(field)) {
      if (!Array.isArray(list) || !list.length || !list.every((e) => e && typeof e.number === "number")) continue;
      out.push(h("ol", { class: "proc-links", "data-key": key, "aria-label": words(key) }, list.map((record) => h(
        "li", { class: "proc-link", "data-number": record.number, "data-resolved": record.resolved ? "yes" : "no" },
        h("span", { class: "proc-link-number", text: `${record.number}` }),
        Object.entries(record).filter(([k]) => k !== "number" && k !== "resolved")
          .map(([k, v]) => valueEl(k, v, view, found))))));
    }
    return out;
  }

  function resultEl(field) {
    const result = field.result;
    if (!result || typeof result !== "object" || !result.reason) return null;
    return h("span", { class: "proc-reason", text: words(result.reason) });
  }

  // The parts drawn after board-procedure.js's head and battle.
  function parts(field, view) {
    return [whereEl(field), pointsEl(field, view), ...chainsEl(field, view), resultEl(field)].filter(Boolean);
  }

  // -- the acts' words ------------------------------------------------

  // An act with a list of cards beside the card it is about ("Play Warm
  // Up, with: Red Ore") says the list too, so that two ways of doing the
  // same thing read apart. Null for any other act.
  function listedWords(step, ref, view) {
    const name = Object.keys(step)[0];
    const args = step[name];
    if (!args || typeof args !== "object" || !view || !view.procedure) return null;
    const found = M().objects(view);
    const lists = Object.entries(args).filter(([, v]) => Array.isArray(v) && v.length && v.every((c) => isCard(c, found)));
    if (!lists.length) return null;
    const rest = Object.fromEntries(Object.entries(args).filter(([, v]) => !Array.isArray(v)));
    const base = Object.keys(rest).some((k) => k !== "by")
      ? M().describe({ [name]: rest }, ref, view) : cap(words(name));
    const said = lists.map(([k, v]) => `${words(k)}: ${v.map((c) => window.cardzonesWords.shortName(
      M().cardWords(c, view, found))).join(", ")}`).join("; ");
    const text = `${base}, ${said}`;
    return { group: M().group(name), text, full: text };
  }

  // -- the acts laid out ----------------------------------------------

  // The key of a way of doing a thing: the act's name and the cards it is
  // about (its single card values); acts with the same key are ways of one.
  function thingOf(step, found) {
    const name = Object.keys(step)[0];
    const args = step[name] && typeof step[name] === "object" ? step[name] : {};
    const cards = Object.keys(args).sort().filter((k) => isCard(args[k], found)).map((k) => `${k}=${args[k]}`);
    return `${name}|${cards.join(",")}`;
  }

  // Whether a listed act is another way of doing what an earlier one of the
  // same list does (board-menus.js puts it under More).
  function alternative(step, seen, view) {
    if (!view || !view.procedure || !("priority" in view.procedure)) return false;
    const found = M().objects(view);
    const key = thingOf(step, found);
    const args = Object.values(step)[0];
    const about = args && typeof args === "object" && Object.values(args).some((v) => isCard(v, found));
    if (!about) return false;
    if (seen.has(key)) return true;
    seen.add(key);
    return false;
  }

  // The acts of one name whose only difference is one list of cards: the
  // list's key, or null.
  function choiceKey(steps) {
    if (steps.length < 2) return null;
    const argsOf = (s) => Object.values(s)[0] || {};
    const keys = new Set(steps.flatMap((s) => Object.keys(argsOf(s))));
    const listed = [...keys].filter((k) => steps.some((s) => Array.isArray(argsOf(s)[k])));
    if (listed.length !== 1) return null;
    const others = [...keys].filter((k) => k !== listed[0]);
    const same = (s) => JSON.stringify(others.map((k) => argsOf(s)[k]));
    return steps.every((s) => same(s) === same(steps[0])) ? listed[0] : null;
  }

  // -- choosing among ways of paying ------------------------------------

  // The ways of doing what `step` does among `steps` (the legal acts): the
  // acts of its name about the same card that differ in one list of cards
  // alone (the cards that pay). `{key, steps}`, `step`'s way first listed as
  // the server lists them; null when there is one way alone. With `ref` (a
  // card's menu), only an act about that card itself: another card's play
  // that would pay with it is one entry of its own.
  function waysOf(step, steps, view, ref) {
    if (!view || !view.procedure || !("priority" in view.procedure)) return null;
    const found = M().objects(view);
    const args = Object.values(step)[0];
    if (!args || typeof args !== "object" || !Object.values(args).some((v) => isCard(v, found))) return null;
    if (ref && !Object.values(args).includes(ref)) return null;
    const thing = thingOf(step, found);
    const same = steps.filter((s) => thingOf(s, found) === thing);
    const key = same.length > 1 ? choiceKey(same) : null;
    return key ? { key, steps: same } : null;
  }

  // One way in words: each card of its list by the name the view gives it,
  // with its value of the list's key when the view shows one (the card's
  // number of that name), and "no" and the key for an empty list.
  function wayWords(step, key, view, found) {
    const cards = (Object.values(step)[0] || {})[key] || [];
    if (!cards.length) return `no ${words(key)}`;
    return cards.map((c) => {
      const known = found.get(c);
      const value = known && !known.obj.hidden && typeof known.obj[key] === "number"
        ? ` (${words(key)} ${known.obj[key]})` : "";
      return `${window.cardzonesWords.shortName(M().cardWords(c, view, found))}${value}`;
    }).join(" + ");
  }

  // The entry that opens the choice: the act without its list, and what is
  // chosen: "choose the" and the list's key, with "…".
  function waysEntry(ways, ref, view) {
    const step = ways.steps[0];
    const name = Object.keys(step)[0];
    const rest = Object.assign({}, Object.values(step)[0]);
    delete rest[ways.key];
    const base = Object.keys(rest).some((k) => k !== "by")
      ? M().describe({ [name]: rest }, ref, view) : cap(words(name));
    const text = `${base}, choose the ${words(ways.key)}…`;
    return { group: M().group(name), text, full: text };
  }

  // The prompt: one button for each way, a click picks it and sends the act.
  function waysEl(ways, ref, view) {
    const found = M().objects(view);
    const name = Object.keys(ways.steps[0])[0];
    const box = h("div", { class: "proc-ways", role: "group", "aria-label": `choose the ${words(ways.key)}` },
                  h("span", { class: "proc-ways-title", text: `${cap(words(ways.key))}:` }));
    for (const s of ways.steps) {
      const said = listedWords(s, ref, view) || M().entry(s, ref, view);
      box.appendChild(h("button", {
        type: "button", class: "proc-way", "data-action": name, "data-act": JSON.stringify(s),
        text: wayWords(s, ways.key, view, found), title: said.full, "aria-label": said.full,
        onclick: (ev) => {
          ev.stopPropagation();
          act(s, ref);
        },
      }));
    }
    return box;
  }

  // Opens the prompt right after `anchor` (a panel's or a menu's entry), or
  // closes it when it is open there.
  function openWays(anchor, ways, ref, view) {
    const next = anchor.nextElementSibling;
    if (next && next.classList.contains("proc-ways")) {
      next.remove();
      anchor.setAttribute("aria-expanded", "false");
      return;
    }
    anchor.after(waysEl(ways, ref, view));
    anchor.setAttribute("aria-expanded", "true");
  }

  // The cards chosen so far in a selection, kept while the position lasts.
  let chosen = { number: -1, cards: [] };

  // A selection: every card any of the acts names in its list, toggled by
  // a click each, and one button that sends the act with those cards.
  function selectionEl(name, key, steps, view) {
    const found = M().objects(view);
    if (chosen.number !== state.number) chosen = { number: state.number, cards: [] };
    const cards = [];
    for (const s of steps) for (const c of Object.values(s)[0][key] || []) if (!cards.includes(c)) cards.push(c);
    const template = Object.assign({}, Object.values(steps[0])[0]);
    delete template[key];
    const stepOf = () => ({ [name]: chosen.cards.length ? Object.assign({}, template, { [key]: chosen.cards.slice() }) : template });
    const confirm = h("button", { type: "button", class: "proc-act proc-confirm", "data-action": name });
    const say = () => {
      const step = stepOf();
      const said = listedWords(step, null, view) || M().entry(step, null, view);
      confirm.textContent = said.text;
      confirm.title = said.full;
      confirm.setAttribute("aria-label", said.full);
      confirm.dataset.act = JSON.stringify(step);
    };
    confirm.onclick = () => act(stepOf(), null);
    const toggles = cards.map((c) => {
      const button = h("button", { type: "button", class: "proc-toggle", "data-card": c, "aria-pressed": "false",
                                   text: window.cardzonesWords.shortName(M().cardWords(c, view, found)) });
      const show = () => button.setAttribute("aria-pressed", chosen.cards.includes(c) ? "true" : "false");
      button.onclick = () => {
        chosen.cards = chosen.cards.includes(c) ? chosen.cards.filter((x) => x !== c) : cards.filter((x) => x === c || chosen.cards.includes(x));
        show();
        say();
      };
      show();
      return button;
    });
    say();
    return h("div", { class: "proc-select", "data-action": name, "aria-label": `choose the ${words(key)}` },
             h("span", { class: "proc-select-title", text: `${words(key)}:` }), toggles, confirm);
  }

  // -- passing until something happens ----------------------------------

  // {priority}: on while the seat lets the board pass for it; `priority` is
  // who had priority at the last event seen, to tell a pass from an act.
  let passing = null;
  let seenNumber = -1;

  function passAct(entries) {
    const item = (entries || []).find((e) => Object.keys(e.act)[0] === "pass" && e.result !== "failed");
    return item ? item.act : null;
  }

  function stopPassing() {
    passing = null;
  }

  // Called with each view drawn: another seat's event that was not a pass
  // (it held no priority before, or still holds it after: it played,
  // declared or conceded) stops the passing, and so does an event of this
  // seat's own; otherwise, with priority back, the board passes again.
  function watch(view) {
    const field = view && view.procedure;
    if (!passing || !field || state.replay) {
      seenNumber = state.number;
      return;
    }
    if (state.number !== seenNumber) {
      const mine = state.lastSeat === state.seat;
      const passed = !mine && passing.priority === state.lastSeat && field.priority !== state.lastSeat;
      if ((mine && !passing.sent) || (!mine && !passed) || field.winner) stopPassing();
      if (passing) passing.sent = false;
      if (passing) passing.priority = field.priority;
      seenNumber = state.number;
    }
    if (!passing) return;
    if (field.waiting_for === state.seat && field.priority !== state.seat) {
      stopPassing();  // the game asks this seat for something other than a pass
      return;
    }
    if (field.priority !== state.seat || passing.sent) return;
    passing.sent = true;
    const number = state.number;
    loadLegal().then((entries) => {
      if (!passing || state.number !== number) return;
      const step = passAct(Array.isArray(entries) ? entries : []);
      if (step) act(step, null);
      else stopPassing();
    });
  }

  // The pass bar: the pass and the passing until something happens, always
  // in view while the seat has priority.
  function passBar(step, view) {
    const said = (window.cardzonesProcedure.entry(step, null, view) || M().entry(step, null, view));
    const until = "Pass until something happens";
    return h("div", { class: "proc-passbar", role: "group", "aria-label": "passing" },
             h("button", { type: "button", class: "proc-act proc-pass", "data-action": "pass",
                           "data-act": JSON.stringify(step), text: said.text, title: said.full,
                           "aria-label": said.full, onclick: () => act(step, null) }),
             h("button", { type: "button", class: "proc-act proc-pass-until", "data-action": "pass",
                           text: until, "aria-label": until, "aria-pressed": passing ? "true" : "false",
                           title: "pass now and each time you get priority back, until another player does anything but pass or the game asks you for something else",
                           onclick: () => {
                             passing = { priority: state.seat, sent: true };
                             seenNumber = state.number;
                             act(step, null);
                           } }));
  }

  // The seat's acts laid out into `slot` (board-procedure.js's list): the
  // pass bar, the selections, the first way of each thing, and the other
  // ways under More. False for a procedure that passes no priority, which
  // board-procedure.js lists as it is.
  function layActs(slot, items, view, button) {
    const field = view.procedure;
    if (!("priority" in field)) return false;
    const found = M().objects(view);
    const steps = items.map((i) => i.act);
    const byName = new Map();
    for (const s of steps) {
      const name = Object.keys(s)[0];
      if (!byName.has(name)) byName.set(name, []);
      byName.get(name).push(s);
    }
    const pass = passAct(items);
    if (pass && field.priority === state.seat) slot.appendChild(passBar(pass, view));
    const more = [];
    const seen = new Set();
    for (const [name, group] of byName) {
      if (name === "pass") continue;
      const key = choiceKey(group);
      if (key && !group.some((s) => Object.values(Object.values(s)[0] || {}).some((v) => isCard(v, found)))) {
        slot.appendChild(selectionEl(name, key, group, view));
        continue;
      }
      for (const s of group) {
        // A card with several ways to pay is one entry that asks which.
        const ways = waysOf(s, group, view);
        if (ways && ways.steps[0] !== s) continue;
        if (ways) {
          const said = waysEntry(ways, null, view);
          const opener = h("button", { type: "button", class: "proc-act proc-ways-open", "data-action": name,
                                       text: said.text, title: said.full, "aria-label": said.full,
                                       "aria-expanded": "false" });
          opener.onclick = () => openWays(opener, ways, null, view);
          slot.appendChild(opener);
          continue;
        }
        const other = name === "concede" || alternative(s, seen, view);
        if (other) more.push(button(s));
        else slot.appendChild(button(s));
      }
    }
    if (more.length) {
      for (const b of more) b.hidden = true;
      const toggle = h("button", { type: "button", class: "proc-more", text: `More (${more.length})…`,
                                   onclick: () => {
                                     for (const b of more) b.hidden = false;
                                     toggle.remove();
                                   } });
      slot.appendChild(toggle);
      for (const b of more) slot.appendChild(b);
    }
    return true;
  }

  window.cardzonesProcedureParts = Object.freeze({
    parts, listedWords, alternative, layActs, watch, waysOf, waysEntry, openWays,
  });
})();
