// Drawing the board: the bar, the log, each player's mat, the zones and the
// cards, and where a refusal is said (see board-state.js).
"use strict";

// ------------------------------------------------------------------
// Rendering
// ------------------------------------------------------------------

function shownView() {
  return state.replay ? state.replay.steps[state.replay.index].view : state.view;
}

function shownLog() {
  if (!state.replay) return state.log;
  return state.replay.steps.slice(1, state.replay.index + 1).flatMap((s) => s.log);
}

function viewer() {
  return state.replay ? state.replay.as : state.seat;
}

// This seat's vote to finish: "agree", "concede" or null.
function myVote() {
  const votes = state.finish;
  if (!votes || !state.seat) return null;
  if (votes.conceded.includes(state.seat)) return "concede";
  return votes.agreed.includes(state.seat) ? "agree" : null;
}

function canAct() {
  return Boolean(state.seat) && !state.replay && !state.finished && myVote() !== "concede"
    && state.connection === "connected";
}

// A card being dragged keeps its element: what arrives meanwhile is drawn
// when the drag ends.
let dragging = false;
let renderLater = false;

function render() {
  if (dragging) {
    renderLater = true;
    return;
  }
  renderLater = false;
  const view = shownView();
  const board = clear($("board"));
  renderBar(view);
  renderLog();
  renderChat();
  if (!view) return;
  board.dataset.ruleset = view.ruleset;
  const players = view.players;
  const me = viewer() && players.includes(viewer()) ? viewer() : players[0];
  const others = players.filter((p) => p !== me);
  for (const player of others) board.appendChild(mat(view, player, "top"));
  const procedure = window.cardzonesProcedure && window.cardzonesProcedure.panel(view);
  if (procedure) board.appendChild(procedure);
  board.appendChild(shared(view));
  board.appendChild(mat(view, me, "bottom"));
  renderBrowse(view);
  showRefusal();
}

// A pile opened to browse: every card of it, each with its menu, in a
// panel over the board, until it is closed or the pile is gone.
function openBrowse(zoneName) {
  state.browse = zoneName;
  closeMenus();
  render();
}

function renderBrowse(view) {
  const panel = clear($("browse"));
  const zone = state.browse ? view.zones.find((z) => z.zone === state.browse) : null;
  panel.hidden = !zone;
  if (!zone) return;
  panel.appendChild(h("div", { class: "browse-title" },
                      h("span", { text: `${window.cardzonesWords.zone(zone.zone)}: ${zone.count} card${zone.count === 1 ? "" : "s"}` }),
                      h("button", { type: "button", class: "browse-close", text: "Close",
                                    onclick: () => { state.browse = null; render(); } })));
  const cards = h("div", { class: "cards" });
  zone.objects.forEach((obj, i) => cards.appendChild(cardEl(view, zone, obj, obj.id || `${zone.zone}[${i}]`)));
  panel.appendChild(cards);
}

function renderBar(view) {
  const who = $("who");
  if (state.replay) {
    who.textContent = `replay as ${state.replay.as === null ? "spectator" : state.replay.as}`;
  } else if (state.seat === undefined) {
    who.textContent = "";
  } else {
    who.textContent = state.seat === null ? "spectator" : `you are ${state.seat}`;
  }
  const turn = $("turn");
  if (view) {
    const parts = [`turn ${view.turn}`, `${view.turn_player}'s turn`];
    if (view.phase) parts.push(view.phase);
    if (state.won && !state.replay) parts.push(`${state.won} won`);
    if (state.finished && !state.replay) parts.push(`game over (finished by ${state.finished.by})`);
    turn.textContent = parts.join(" · ");
  }
  $("actions-btn").hidden = !canAct();
  $("judge-btn").hidden = !canAct();
  const playing = Boolean(state.seat) && !state.finished && !state.replay;
  const proposed = Boolean(state.finish && state.finish.agreed.length);
  $("finish-btn").hidden = !(playing && !proposed && !myVote());
  $("concede-btn").hidden = !(playing && myVote() !== "concede");
  renderFinish(playing);
  renderFuse();
  renderTakeBack();
}

// The fuse of a proposal to finish, which the server never lets a table
// set under its floor: how long a proposal waits, or, once one stands, the
// time it finishes the game (docs/protocol.md, Finishing a game).
function renderFuse() {
  const fuse = $("finish-fuse");
  const until = state.finish && state.finish.until;
  fuse.hidden = !state.finishAfter || Boolean(state.finished) || Boolean(state.replay);
  fuse.textContent = until
    ? `the game finishes at ${new Date(until * 1000).toLocaleTimeString()}`
    : `a proposal to finish waits ${Math.round(state.finishAfter / 60)} min`;
}

// A proposal to finish the game, and the others' answer to it: nobody
// finishes alone (docs/protocol.md, Finishing a game).
function renderFinish(playing) {
  const votes = state.finish;
  const bar = $("finish-bar");
  const open = Boolean(votes && (votes.agreed.length || votes.conceded.length)) && !state.finished
    && !state.replay;
  bar.hidden = !open;
  if (!open) return;
  const parts = [];
  if (votes.agreed.length) parts.push(`${votes.agreed.join(" and ")} ${votes.agreed.length > 1 ? "agree" : "proposes"} to finish the game`);
  if (votes.conceded.length) parts.push(`${votes.conceded.join(" and ")} conceded`);
  const others = state.view ? state.view.players.filter((p) => !votes.agreed.includes(p) && !votes.conceded.includes(p)) : [];
  if (others.length) parts.push(`waiting for ${others.join(" and ")}`);
  if (votes.until) {
    const at = new Date(votes.until * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    parts.push(`it ends at ${at} unless a seat plays on`);
  }
  $("finish-text").textContent = parts.join(" · ");
  $("finish-accept").hidden = !(playing && !myVote());
  $("finish-decline").hidden = !(playing && myVote() !== "concede" && votes.agreed.length);
}

async function vote(kind) {
  const { status, data } = await api("finish", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ vote: kind }) });
  if (status !== 200) {
    notice(data.error || `HTTP ${status}`);
    return;
  }
  state.finish = data.finish;
  if (data.finished) state.finished = data.finished;
  render();
}

// The log in words, scrolled to its newest entry.
function renderLog() {
  const list = clear($("log"));
  const view = shownView();
  const players = view ? view.players : [];
  for (const entry of shownLog()) {
    list.appendChild(h("li", { class: `entry ${entry.event}` },
                       window.cardzonesWords.entry(entry, players)));
  }
  list.scrollTop = list.scrollHeight;
}

// The player's cards whose life total shows by their name: those of the
// types the rule set's layout names (GET /api/rulesets).
function lifeShown(view, player) {
  const types = layout(view).life_shown || [];
  const out = [];
  for (const zone of zonesOf(view, player)) {
    for (const obj of zone.objects) {
      if (!obj.hidden && typeof obj.life === "number" && (obj.types || []).some((t) => types.includes(t))) {
        out.push(obj);
      }
    }
  }
  return out;
}

function zonesOf(view, owner) {
  return view.zones.filter((z) => z.owner === owner);
}

// The rule set's layout of a mat (GET /api/rulesets): areas, rows, order.
function layout(view) {
  return state.boards[view.ruleset] || {};
}

function mat(view, player, side) {
  const board = layout(view);
  const areas = board.areas || {};
  const box = h("section", { class: `mat ${side}`, "data-player": player,
                             "aria-label": `${player}'s area` });
  box.dataset.ruleset = view.ruleset;
  const title = h("h2", { class: "player", text: player });
  for (const obj of lifeShown(view, player)) {
    title.appendChild(h("span", { class: "life", "data-life": obj.life, title: `${obj.name}'s life`,
                                  text: `♥ ${obj.life}` }));
  }
  box.appendChild(title);
  const grid = h("div", { class: "slots" });
  const rows = board.rows || [];
  if (rows.length) {
    // Each mat faces the table's middle: the opponent's is upside down.
    const shown = side === "top" ? [...rows].reverse() : rows;
    grid.classList.add("laid-out");
    grid.style.gridTemplateAreas = shown.map((row) => JSON.stringify(row)).join(" ");
    grid.style.gridTemplateColumns = `repeat(${rows[0].trim().split(/\s+/).length}, minmax(0, 1fr))`;
  }
  const hand = h("div", { class: "hand-row" });
  for (const zone of zonesOf(view, player)) {
    const node = zoneEl(view, zone);
    const area = areas[zone.type];
    if (zone.type === "hand") {
      hand.appendChild(node);
      continue;
    }
    if (area) {
      const number = zone.zone.split(".")[2];
      const name = number ? `${area}${number}` : area;
      node.dataset.area = name;
      node.style.gridArea = name;
      const at = (board.order || []).indexOf(name);
      if (at >= 0) node.style.order = at + 1;
      if ((board.wide || []).includes(name)) node.classList.add("wide");
    }
    grid.appendChild(node);
  }
  if (side === "top") box.append(hand, grid);
  else box.append(grid, hand);
  return box;
}

function shared(view) {
  const box = h("section", { class: "shared", "aria-label": "between the players" });
  for (const zone of zonesOf(view, null)) box.appendChild(zoneEl(view, zone));
  return box;
}

function zoneTitle(view, zone) {
  const [, type, number] = zone.zone.includes(".") ? zone.zone.split(".") : [null, zone.zone];
  const label = (layout(view).labels || {})[zone.type] || window.cardzonesWords.label(type || zone.type);
  return number ? `${label} ${number}` : label;
}

// A zone the rule set lays out as a pile of face-up cards (a discard pile):
// one card high, the newest on top, its count in its title, and all of it to
// browse.
function isStacked(view, zone) {
  return (layout(view).stacked || []).includes(zone.type);
}

function isPile(zone) {
  // A deck is a face-down pile: it shows as a count, with its top to take.
  return zone.ordered && !zone.public && zone.type === "deck";
}

function zoneEl(view, zone) {
  const node = h("div", { class: `zone z-${zone.type}`, "data-zone": zone.zone,
                          "aria-label": zone.zone });
  node.appendChild(h("div", { class: "zone-title" }, zoneTitle(view, zone),
                     h("span", { class: "count", text: zone.count })));
  const cards = h("div", { class: "cards" });
  if (isPile(zone)) {
    if (zone.count > 0) {
      const top = zone.objects[0];
      const el = top && !top.hidden ? cardEl(view, zone, top, `${zone.zone}[0]`)
        : cardEl(view, zone, { hidden: true }, `${zone.zone}[0]`);
      el.classList.add("pile");
      el.appendChild(h("span", { class: "pile-count", text: zone.count }));
      cards.appendChild(el);
    }
  } else {
    zone.objects.forEach((obj, i) => cards.appendChild(cardEl(view, zone, obj, obj.id || `${zone.zone}[${i}]`)));
  }
  node.appendChild(cards);
  if (isStacked(view, zone)) {
    node.classList.add("stacked");
    if (zone.count > 1) {
      const title = node.firstChild;
      title.insertBefore(h("button", { type: "button", class: "browse", "data-browse": zone.zone,
                                      title: `every card of ${window.cardzonesWords.zone(zone.zone)}`,
                                      text: `all ${zone.count}`,
                                      onclick: (ev) => { ev.stopPropagation(); openBrowse(zone.zone); } }),
                         title.lastChild);
    }
  }
  const pile = (layout(view).piles || {})[zone.type];
  if (pile && zone.owner) {
    // A drop target for the pile, in the zone's title row.
    const strip = h("span", { class: "pile-drop", "data-zone": `${zone.owner}.${pile}` }, pile);
    node.firstChild.insertBefore(strip, node.firstChild.lastChild);
    dropTarget(strip, `${zone.owner}.${pile}`);
  }
  dropTarget(node, zone.zone);
  return node;
}

// Dropping a card on a zone (or a pile) moves it there: one move act.
function dropTarget(node, to) {
  if (!canAct()) return;
  node.addEventListener("dragover", (ev) => {
    ev.preventDefault();
    ev.stopPropagation();
    node.classList.add("drop");
  });
  node.addEventListener("dragleave", () => node.classList.remove("drop"));
  node.addEventListener("drop", (ev) => {
    ev.preventDefault();
    ev.stopPropagation();
    node.classList.remove("drop");
    const ref = ev.dataTransfer.getData("text/plain");
    if (ref) act({ move: { card: ref, to } }, ref);
  });
}

function mine(obj, zone) {
  const seat = state.seat;
  if (!seat) return false;
  if (obj.hidden) return zone.owner === seat;  // named only in its own zones
  return (obj.controller || obj.owner) === seat;
}

// A face shows a card's numbers (power, strength, life...); its words
// (classes, brigades, alignments) are in its preview, one hover away, so that
// a card on the board stays small.
// A number the rule set's layout colours (its `coloured`) carries the
// colour's name, which board.css paints.
function stats(obj, board) {
  const coloured = (board && board.coloured) || {};
  const out = [];
  for (const [key, value] of Object.entries(obj)) {
    if (META.has(key) || value === null || typeof value === "object" && !Array.isArray(value)) continue;
    if (!(typeof value === "number" || /^[+-]?\d+$/.test(String(value)))) continue;
    const text = Array.isArray(value) ? value.join(", ").replace(/_/g, " ") : String(value);
    out.push(h("span", { class: "stat", "data-stat": key, "data-value": text,
                         "data-colour": (coloured[key] || {})[text] },
               h("span", { class: "k", text: key.replace(/_/g, " ") }),
               h("span", { class: "v", text })));
  }
  return out;
}

function cardEl(view, zone, obj, ref, pile) {
  const classes = ["card"];
  if (obj.hidden) classes.push("back");
  else if (!obj.public && zone.public) classes.push("facedown");
  if (pile) classes.push(pile);
  const node = h("div", { class: classes.join(" "), tabindex: "0" });
  if (ref) node.dataset.ref = ref;
  if (obj.hidden) {
    node.appendChild(h("span", { class: "back-mark", "aria-label": "a card you may not see" }));
  } else {
    node.appendChild(h("div", { class: "name", text: window.cardzonesWords.shortName(obj.name) }));
    if (obj.types && obj.types.length) node.appendChild(h("div", { class: "types", text: obj.types.join(" · ").replace(/_/g, " ") }));
    if (Array.isArray(obj.keywords) && obj.keywords.length) {
      node.appendChild(h("div", { class: "keywords", text: obj.keywords.join(" · ").replace(/_/g, " ") }));
    }
    const s = stats(obj, layout(view));
    if (s.length) node.appendChild(h("div", { class: "stats" }, s));
    const counters = obj.counters && typeof obj.counters === "object" ? Object.entries(obj.counters) : [];
    if (counters.length) {
      node.appendChild(h("div", { class: "counters" }, counters.map(([kind, n]) =>
        h("span", { class: "counter", "data-counter": kind, title: `${n} ${kind.replace(/_/g, " ")} counter(s)`,
                    text: `${n}× ${kind.replace(/_/g, " ")}` }))));
    }
    if (classes.includes("facedown")) node.appendChild(h("div", { class: "face-note", text: "face down" }));
  }
  // Sub-cards (under) and placed cards are tucked under their card.
  for (const [key, label] of [["under", "under"], ["placed", "placed"]]) {
    if (!obj[key] || !obj[key].length) continue;
    const tuck = h("div", { class: `tucked ${key}`, "aria-label": label });
    for (const kid of obj[key]) tuck.appendChild(cardEl(view, zone, kid, kid.id || null, "kid"));
    node.appendChild(tuck);
  }
  // A closer look: hovering shows the preview, a click or a tap keeps it
  // (with the card's menu, when the seat may act).
  const facedown = classes.includes("facedown");
  const look = (pin) => window.cardzonesPreview.show(
    obj, window.cardzonesWords.zone(zone.zone),
    { pin, facedown, near: node.getBoundingClientRect(), images: state.images,
      symbols: layout(view).symbols || {} });
  node.addEventListener("mouseenter", (ev) => {
    ev.stopPropagation();
    look(false);
  });
  node.addEventListener("mouseleave", () => window.cardzonesPreview.hide(false));
  node.addEventListener("focus", (ev) => {
    ev.stopPropagation();
    look(false);
  });
  if (!(ref && canAct())) {
    node.addEventListener("click", (ev) => {
      ev.stopPropagation();
      closeMenus();
      look(true);
    });
  }
  // A card placed on another (or under it) is dragged alone: its own
  // handle, and the drag stops at it, so its host stays where it is.
  if (ref && canAct() && (!pile || pile === "kid") && mine(obj, zone)) {
    node.draggable = true;
    node.addEventListener("dragstart", (ev) => {
      ev.dataTransfer.setData("text/plain", ref);
      ev.dataTransfer.effectAllowed = "move";
      ev.stopPropagation();
      dragging = true;
    });
    node.addEventListener("dragend", () => {
      dragging = false;
      if (renderLater) render();
    });
  }
  if (ref && canAct() && !pile) {
    node.addEventListener("click", (ev) => {
      ev.stopPropagation();
      cardMenu(view, zone, obj, ref, node);
      look(true);
    });
  } else if (ref && canAct() && pile === "kid") {
    node.addEventListener("click", (ev) => {
      ev.stopPropagation();
      cardMenu(view, zone, obj, ref, node);
      look(true);
    });
  } else if (ref && canAct()) {
    node.addEventListener("click", (ev) => {
      ev.stopPropagation();
      closeMenus();
      look(true);
    });
  }
  return node;
}

// A refusal is said once, in words, where the player is looking: beside the
// card it was about (kept inside the window, whatever the scroll), or under
// the bar when it was about no card on the board. The rule's id, when a rule
// refused it, is said once, after the words.
function refusalText(refusal) {
  let text = String(refusal.error);
  if (refusal.rule) {
    const rule = refusal.rule.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    text = text.replace(new RegExp(`\\s*[([]${rule}[)\\]]\\s*$`), "");
    text = `${text} [rule ${refusal.rule}]`;
  }
  return text;
}

function showRefusal() {
  const refusal = state.refusal;
  if (!refusal || state.replay) return;
  const bubble = h("div", { class: "refusal", role: "alert" }, refusalText(refusal));
  if (refusal.rule) bubble.dataset.rule = refusal.rule;
  let target = null;
  for (const node of document.querySelectorAll("#board [data-ref]")) {
    if (node.dataset.ref === refusal.ref) target = node;
  }
  // A card turned face down is drawn turned: its bubble would be too.
  if (target && !target.closest(".facedown")) {
    target.appendChild(bubble);
    placeRefusal(bubble, target);
  } else {
    $("board").prepend(bubble);
  }
}

// Beside its card (below it, else above it), and wholly inside the window.
function placeRefusal(bubble, card) {
  const near = card.getBoundingClientRect();
  const width = bubble.offsetWidth;
  const height = bubble.offsetHeight;
  const top = Math.max(4, Math.min(innerHeight - height - 4,
                                   near.bottom + 4 + height <= innerHeight ? near.bottom + 4 : near.top - height - 4));
  const left = Math.max(4, Math.min(innerWidth - width - 4, near.left + near.width / 2 - width / 2));
  bubble.style.left = `${left}px`;
  bubble.style.top = `${top}px`;
}
