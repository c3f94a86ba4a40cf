// The board: one seat's (or the spectator's) view of one table, kept up to
// date over the table protocol's WebSocket (docs/protocol.md).
//
// What the page holds is what the server sent this viewer: the engine's view
// and the log as this viewer may know them. It never asks for more, and it
// renders with DOM APIs and textContent only. The token comes from the
// link's fragment, which the browser never sends to a server; it goes only
// into the hello frame and the Authorization header.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const TABLE = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
  const token = () => location.hash.slice(1);

  // Properties of a view object that are not shown as stats.
  const META = new Set(["id", "name", "types", "keywords", "public", "owner", "controller",
                        "under", "placed", "equipped_to", "hidden", "text", "image", "counters"]);
  // Everything the board knows, all of it from the server for this viewer.
  const state = {
    table: TABLE,
    seat: undefined,       // a player's name, or null for the spectator
    number: 0,             // the last event number seen
    view: null,
    log: [],
    chat: [],              // the table's chat lines, oldest first
    finished: null,
    finish: null,          // the standing votes to finish: {agreed, conceded, until}, or null
    actions: null,         // the rule set's action table (GET /api/rulesets)
    boards: {},            // each rule set's layout of a mat (GET /api/rulesets)
    legal: null,           // the seat's legal acts ({act, result}) after event legalNumber
    legalNumber: null,
    refusal: null,         // {ref, error, rule}: the last refused act, shown by its card
    connection: "connecting",
    replay: null,          // {as, steps, index} while replaying
    images: false,         // whether the server shows card pictures (serve --images)
  };
  Object.defineProperty(window, "cardzonesBoard", { value: state });

  let socket = null;
  let attempts = 0;
  let requests = 0;
  const sent = new Map();  // request id -> the card ref it was about
  const said = new Set();  // request ids of chat lines not yet answered
  let legalOffered = true;

  // ------------------------------------------------------------------
  // The connection
  // ------------------------------------------------------------------

  function setConnection(name, text) {
    state.connection = name;
    const badge = $("conn");
    badge.dataset.state = name;
    badge.textContent = text || name;
  }

  function connect() {
    if (!token()) {
      setConnection("closed", "no seat");
      notice("This link has no token after its #: ask for your seat's link.");
      return;
    }
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/api/tables/${encodeURIComponent(TABLE)}/ws`);
    socket = ws;
    ws.addEventListener("open", () => {
      const lastLine = state.chat.length ? state.chat[state.chat.length - 1].seq : 0;
      ws.send(JSON.stringify({ hello: token(), after: state.view ? state.number : 0,
                               chat_after: lastLine }));
    });
    ws.addEventListener("message", (ev) => {
      let frame;
      try {
        frame = JSON.parse(ev.data);
      } catch (_) {
        return;
      }
      receive(frame);
    });
    ws.addEventListener("close", (ev) => {
      if (socket !== ws) return;
      socket = null;
      if (ev.code === 4401) {
        setConnection("closed", "not a seat");
        notice("This link does not open a table: ask for your seat's link again.");
        return;
      }
      // Anything else (a restart, a lost network) is tried again, waiting
      // longer each time, up to 8 s, with some jitter so that every seat of
      // a restarted server does not come back in the same instant.
      const delay = Math.min(8000, 250 * 2 ** attempts) * (0.75 + Math.random() * 0.5);
      attempts += 1;
      setConnection("reconnecting", "reconnecting…");
      setTimeout(connect, delay);
    });
  }

  function receive(frame) {
    if (frame.welcome) {
      const w = frame.welcome;
      attempts = 0;
      // A first welcome holds the whole log; a reconnect's, the entries after
      // the number it said hello with.
      state.log = state.view ? state.log.concat(w.log) : w.log.slice();
      state.seat = w.seat;
      state.number = w.number;
      state.view = w.view;
      state.finished = w.finished || null;
      state.finish = w.finish || null;
      state.finishAfter = w.finish_after || null;
      addChat(w.chat || []);
      setConnection("connected");
      hideNotice();
      render();
    } else if (typeof frame.event === "number") {
      if (frame.event <= state.number) return;
      state.number = frame.event;
      state.view = frame.view;
      state.log = state.log.concat(frame.log);
      render();
    } else if ("ack" in frame) {
      sent.delete(frame.ack);
    } else if (frame.chat) {
      addChat([frame.chat]);
      renderChat();
    } else if ("said" in frame) {
      said.delete(frame.said);
    } else if ("refused" in frame && said.has(frame.refused)) {
      said.delete(frame.refused);
      chatError(frame.error);
    } else if ("refused" in frame) {
      const ref = sent.get(frame.refused);
      sent.delete(frame.refused);
      state.refusal = { ref: ref || null, error: frame.error, rule: frame.rule || null };
      render();
    } else if ("finish" in frame) {
      state.finish = frame.finish;
      render();
    } else if (frame.finished) {
      state.finished = frame.finished;
      render();
    } else if (frame.error) {
      notice(frame.error);
    }
  }

  function act(step, ref) {
    if (!socket || socket.readyState !== WebSocket.OPEN || state.connection !== "connected") {
      notice("Not connected: the act was not sent. The board reconnects by itself.");
      return;
    }
    requests += 1;
    const id = `c${requests}`;
    sent.set(id, ref || null);
    state.refusal = null;
    socket.send(JSON.stringify({ act: step, id, after: state.number }));
    closeMenus();
    render();
  }

  // ------------------------------------------------------------------
  // The chat
  // ------------------------------------------------------------------

  function addChat(lines) {
    const last = state.chat.length ? state.chat[state.chat.length - 1].seq : 0;
    for (const line of lines) if (line.seq > last) state.chat.push(line);
  }

  function say(text) {
    if (!socket || socket.readyState !== WebSocket.OPEN || state.connection !== "connected") {
      chatError("Not connected: the line was not sent.");
      return false;
    }
    requests += 1;
    const id = `m${requests}`;
    said.add(id);
    socket.send(JSON.stringify({ say: text, id }));
    return true;
  }

  function chatError(text) {
    const box = $("chat-error");
    box.textContent = text;
    box.hidden = !text;
  }

  // Chat lines are player text: shown with textContent, never as markup.
  function renderChat() {
    const list = clear($("chat"));
    const upto = state.replay ? state.replay.steps[state.replay.index].event : Infinity;
    for (const line of state.chat) {
      if (line.after > upto) continue;
      list.appendChild(h("li", { class: "line", "data-seq": line.seq },
                         h("span", { class: "said-by", text: `${line.seat}: ` }),
                         h("span", { class: "said", text: line.text })));
    }
    list.scrollTop = list.scrollHeight;
    $("chat-form").hidden = !(state.seat && !state.replay && state.connection === "connected");
  }

  async function api(path, options) {
    const init = Object.assign({ headers: {} }, options || {});
    init.headers.Authorization = `Bearer ${token()}`;
    const answer = await fetch(`/api/tables/${encodeURIComponent(TABLE)}/${path}`, init);
    const data = await answer.json().catch(() => ({}));
    return { status: answer.status, data };
  }

  async function loadActions() {
    const answer = await fetch("/api/rulesets");
    const data = await answer.json();
    state.actions = {};
    state.images = data.images === true;
    for (const ruleset of data.rulesets) {
      state.actions[ruleset.name] = ruleset.actions;
      state.boards[ruleset.name] = ruleset.board || {};
      window.cardzonesWords.useLabels((ruleset.board || {}).labels);
    }
    render();
  }

  // The seat's legal acts at the current position (GET .../legal: entries
  // {act, result}), asked for only when a menu opens and kept until the next
  // event. Without the endpoint, the menus are made from the action table's
  // parameters alone. Resolves to the entries, null, or "later" when the
  // server answered for an event the board has not been sent yet.
  let legalAsked = null;
  function loadLegal() {
    if (!legalOffered || !state.seat || state.replay) return Promise.resolve(null);
    const number = state.number;
    if (state.legalNumber === number && Array.isArray(state.legal)) return Promise.resolve(state.legal);
    if (legalAsked && legalAsked.number === number) return legalAsked.promise;
    const promise = api("legal").catch(() => ({ status: 0, data: null })).then(({ status, data }) => {
      if (status !== 200) {
        if (status === 404 || status === 405) legalOffered = false;
        // Asked too often (the server bounds it per seat): the menu still has
        // its forms; the next menu asks again.
        if (status === 429) {
          notice((data && data.error) || "too many requests for the legal acts: try again shortly");
          if (legalAsked && legalAsked.promise === promise) legalAsked = null;
        }
        return null;
      }
      // The server is already past the position the board shows: asked
      // again once the board has the event.
      if (data.number !== number) return "later";
      state.legal = data.legal;
      state.legalNumber = data.number;
      return state.legal;
    });
    legalAsked = { number, promise };
    return promise;
  }

  // ------------------------------------------------------------------
  // Notices
  // ------------------------------------------------------------------

  function notice(text) {
    const box = $("notice");
    box.textContent = text;
    box.hidden = false;
  }

  function hideNotice() {
    $("notice").hidden = true;
  }

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
    board.appendChild(shared(view));
    board.appendChild(mat(view, me, "bottom"));
    showRefusal();
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

  // The player's heroes that have a life total, to show it by their name.
  function heroes(view, player) {
    const out = [];
    for (const zone of zonesOf(view, player)) {
      for (const obj of zone.objects) {
        if (!obj.hidden && typeof obj.life === "number" && (obj.types || []).includes("hero")) out.push(obj);
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
    for (const hero of heroes(view, player)) {
      title.appendChild(h("span", { class: "life", "data-life": hero.life, title: `${hero.name}'s life`,
                                    text: `♥ ${hero.life}` }));
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

  function stats(obj) {
    const out = [];
    for (const [key, value] of Object.entries(obj)) {
      if (META.has(key) || value === null || typeof value === "object" && !Array.isArray(value)) continue;
      const text = Array.isArray(value) ? value.join(", ").replace(/_/g, " ") : String(value);
      out.push(h("span", { class: "stat", "data-stat": key, "data-value": text },
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
      node.appendChild(h("div", { class: "name", text: obj.name }));
      if (obj.types && obj.types.length) node.appendChild(h("div", { class: "types", text: obj.types.join(" · ").replace(/_/g, " ") }));
      if (Array.isArray(obj.keywords) && obj.keywords.length) {
        node.appendChild(h("div", { class: "keywords", text: obj.keywords.join(" · ").replace(/_/g, " ") }));
      }
      const s = stats(obj);
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
      { pin, facedown, near: node.getBoundingClientRect(), images: state.images });
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
    if (ref && canAct() && !pile) {
      if (mine(obj, zone)) {
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

  function showRefusal() {
    const refusal = state.refusal;
    if (!refusal || state.replay) return;
    const text = refusal.rule ? `${refusal.error} [rule ${refusal.rule}]` : refusal.error;
    const bubble = h("div", { class: "refusal", role: "alert" }, text);
    if (refusal.rule) bubble.dataset.rule = refusal.rule;
    let target = null;
    for (const node of document.querySelectorAll("#board [data-ref]")) {
      if (node.dataset.ref === refusal.ref) target = node;
    }
    if (target) target.appendChild(bubble);
    else $("board").prepend(bubble);
  }

  // ------------------------------------------------------------------
  // Menus and the action form
  // ------------------------------------------------------------------

  function table() {
    const view = state.view;
    return view && state.actions ? state.actions[view.ruleset] || [] : [];
  }

  // The action of the rule set's table called `name`, for what its entry
  // says of it ("judge"); undefined for a name the table has not.
  function actionNamed(name) {
    return table().find((a) => a.name === name);
  }

  function closeMenus() {
    window.cardzonesPreview.hide(true);
    $("menu").hidden = true;
    clear($("menu"));
    $("form").hidden = true;
    clear($("form"));
  }

  // A menu or form opens inside the window whatever its size: below its
  // anchor when it fits, else above, else from the top, scrolling within
  // itself. On a phone-sized screen it is a sheet at the bottom (board.css).
  function place(box, anchor) {
    const rect = anchor.getBoundingClientRect();
    box.hidden = false;
    box.style.left = box.style.top = "";
    if (matchMedia("(max-width: 760px)").matches) return;
    const width = box.offsetWidth;
    const height = box.offsetHeight;
    const left = Math.max(4, Math.min(rect.left, innerWidth - width - 4));
    let top = rect.bottom + 4;
    if (top + height > innerHeight - 4) top = rect.top - height - 4;
    if (top < 4) top = Math.max(4, innerHeight - height - 4);
    box.style.left = `${left}px`;
    box.style.top = `${top}px`;
  }

  function cardParams(action) {
    return action.params.filter((p) => p.kind === "card" || p.kind === "cards");
  }

  // The actions of the table that can take this card: for each card
  // parameter whose role allows it (acts_on: the seat's own card; target:
  // anyone's), one entry with that parameter filled in.
  function offers(obj, zone) {
    const out = [];
    for (const action of table()) {
      if (action.turn_player && state.view.turn_player !== state.seat) continue;
      for (const param of cardParams(action)) {
        if (param.role === "acts_on" && !mine(obj, zone)) continue;
        if (obj.hidden && zone.owner !== state.seat) continue;
        if (!param.required && cardParams(action).some((p) => p.required && p !== param)) continue;
        out.push({ action, param });
      }
    }
    return out;
  }

  // Whether an act names a card ref anywhere in its arguments.
  function names(value, ref) {
    if (value === ref) return true;
    if (Array.isArray(value)) return value.some((v) => names(v, ref));
    if (value && typeof value === "object") return Object.values(value).some((v) => names(v, ref));
    return false;
  }

  // Whether an act fills in one of its action's card parameters.
  function takesCard(step) {
    const name = Object.keys(step)[0];
    const args = step[name];
    const action = table().find((a) => a.name === name);
    if (!action || !args || typeof args !== "object") return false;
    return cardParams(action).some((p) => args[p.name] !== undefined
                                       && !(Array.isArray(args[p.name]) && !args[p.name].length));
  }

  function menuButton(text, attrs, onclick) {
    return h("button", Object.assign({ type: "button", role: "menuitem", text, onclick }, attrs));
  }

  // The one-click entries of a menu, grouped and in words: the legal acts
  // that pass `keep`, less those whose effect fails under the rules (3.0.11),
  // which would change nothing. Filled in when /legal answers, if the menu
  // is still open.
  let menuShown = 0;
  function legalSection(keep, ref) {
    const menus = window.cardzonesMenus;
    const slot = h("div", { class: "menu-legal", "aria-busy": "true" });
    if (!(legalOffered && state.seat)) return slot;
    slot.appendChild(h("div", { class: "menu-empty", text: "…" }));
    const shown = menuShown;
    const fill = (tries) => loadLegal().then((entries) => {
      if (shown !== menuShown || !slot.isConnected) return;
      if (entries === "later" && tries < 20) {
        setTimeout(() => fill(tries + 1), 100);
        return;
      }
      if (entries === "later") entries = null;
      clear(slot);
      slot.removeAttribute("aria-busy");
      const groups = new Map(menus.GROUPS.map((g) => [g, []]));
      for (const entry of entries || []) {
        const step = entry.act;
        const name = Object.keys(step)[0];
        // A judge's acts are in the judge's menu alone (the server lists them
        // only when asked for).
        if (entry.result === "failed" || menus.isJudge(actionNamed(name)) || !keep(step)) continue;
        const said = menus.entry(step, ref, state.view);
        groups.get(said.group).push(menuButton(said.text, {
          class: "legal", "data-action": name, "data-act": JSON.stringify(step),
          title: said.full, "aria-label": said.full,
        }, () => act(step, ref)));
      }
      for (const [group, buttons] of groups) {
        if (!buttons.length) continue;
        slot.appendChild(h("div", { class: "menu-group", "data-group": group },
                           h("div", { class: "menu-group-title", text: group }), buttons));
      }
      // A form that would ask for nothing but the card is left out once a
      // one-click entry does the same.
      const menu = $("menu");
      for (const button of menu.querySelectorAll('[data-group="choose"] button[data-action]')) {
        const action = table().find((a) => a.name === button.dataset.action);
        const rest = action ? action.params.filter((p) => p.name !== action.actor && p.name !== button.dataset.param
                                                    && p.kind !== "action" && p.name !== "cause") : [];
        const oneClick = slot.querySelector(`button.legal[data-action="${button.dataset.action}"]`);
        if (action && !rest.length && oneClick) button.remove();
      }
      slot.dataset.ready = "yes";
      if (!menu.hidden) place(menu, lastAnchor);
    });
    fill(0);
    return slot;
  }

  let lastAnchor = null;
  function openMenu(title, anchor) {
    closeMenus();
    menuShown += 1;
    lastAnchor = anchor;
    const menu = $("menu");
    menu.appendChild(h("div", { class: "menu-title", text: title }));
    return menu;
  }

  function cardMenu(view, zone, obj, ref, anchor) {
    const menus = window.cardzonesMenus;
    const where = window.cardzonesWords.zone(zone.zone);
    const menu = openMenu(obj.hidden ? `a card in ${where}` : obj.name, anchor);
    menu.appendChild(legalSection((step) => names(step, ref), ref));
    // The actions that need more than the card: a form each.
    const list = offers(obj, zone).filter(({ action, param }) => !menus.isJudge(action) && param.required
                                          && menus.fits(action, obj, null));
    const many = (action) => list.filter((o) => o.action === action).length > 1;
    const more = list.flatMap(({ action, param }) => {
      const given = { [param.name]: param.kind === "cards" ? [ref] : ref };
      // An action that takes exactly one of some parameters (life: damage,
      // lose or gain) is one entry for each, whose form asks for that one.
      const variants = exactlyOne(action);
      if (variants.length) {
        return variants.filter((only) => menus.fits(action, obj, only)).map((only) => menuButton(menus.variant(action, only), {
          "data-action": action.name, "data-param": param.name, "data-variant": only,
          title: action.doc || "" }, () => openForm(action, given, ref, anchor, only)));
      }
      const label = many(action) ? `${menus.title(action)} (as ${menus.field(param.name)})` : menus.title(action);
      return [menuButton(label, { "data-action": action.name, "data-param": param.name, title: action.doc || "" },
                         () => openForm(action, given, ref, anchor))];
    });
    if (more.length) {
      menu.appendChild(h("div", { class: "menu-group", "data-group": "choose" },
                         h("div", { class: "menu-group-title", text: "Choose more" }), more));
    } else {
      menu.appendChild(h("div", { class: "menu-empty", text: "nothing more to do with this card" }));
    }
    place(menu, anchor);
  }

  // The bar's menus: the acts that name no card, and the forms of the
  // actions; the judge's menu holds the judge's actions alone.
  function actionsMenu(anchor, judge) {
    const menus = window.cardzonesMenus;
    const menu = openMenu(judge ? "Judge" : "Actions", anchor);
    if (!judge) menu.appendChild(legalSection((step) => !takesCard(step), null));
    const forms = [];
    for (const action of table()) {
      if (menus.isJudge(action) !== Boolean(judge)) continue;
      if (action.turn_player && state.view.turn_player !== state.seat) continue;
      // An action on a card is in that card's menu (the judge's acts excepted).
      if (!judge && cardParams(action).some((p) => p.required)) continue;
      forms.push(menuButton(menus.title(action), { "data-action": action.name, title: action.doc || "" },
                            () => openForm(action, {}, null, anchor)));
    }
    if (forms.length) {
      menu.appendChild(h("div", { class: "menu-group", "data-group": "choose" },
                         h("div", { class: "menu-group-title", text: judge ? "A judge's acts" : "Choose more" }),
                         forms));
    }
    place(menu, anchor);
  }

  // Every way the seat may name a card now: the handles its view gives and
  // the positions of its own zones' cards it may not see, each said in words
  // ("Assyria (alice's territory)", "a card in alice's deck").
  function cardChoices(role) {
    const out = [];
    const view = state.view;
    const words = window.cardzonesWords;
    const walk = (zone, obj, ref) => {
      if (ref && (role !== "acts_on" || mine(obj, zone))) {
        const where = words.zone(zone.zone);
        out.push([ref, obj.hidden ? `a card in ${where}` : `${obj.name} (${where})`]);
      }
      for (const key of ["under", "placed"]) for (const kid of obj[key] || []) walk(zone, kid, kid.id || null);
    };
    for (const zone of view.zones) {
      zone.objects.forEach((obj, i) => walk(zone, obj, obj.id || (zone.owner === state.seat ? `${zone.zone}[${i}]` : null)));
    }
    return out;
  }

  // The labels of effects the seat may negate now: those its legal acts name.
  function effectLabels() {
    const out = new Set();
    for (const entry of Array.isArray(state.legal) ? state.legal : []) {
      const step = entry && entry.act ? entry.act : entry;
      if (step && step.negate && typeof step.negate.effect === "string") out.add(step.negate.effect);
    }
    return [...out];
  }

  function options(select, pairs, optional, fallback) {
    if (optional) select.appendChild(h("option", { value: "", text: fallback || "—" }));
    for (const [value, text] of pairs) select.appendChild(h("option", { value, text }));
    return select;
  }

  // One field of a form, in words: cards, zones, players and effects are
  // chosen from lists; a parameter with fields of its own (an ongoing bonus)
  // is a group of fields. Nothing asks for a handle or for JSON.
  function field(param, value, prefix) {
    const menus = window.cardzonesMenus;
    const name = prefix ? `${prefix}.${param.name}` : param.name;
    const id = `f-${name.replace(/\./g, "-")}`;
    const text = menus.field(param.name) + (param.required ? "" : " (optional)");
    const label = h("label", { for: id, text });
    const zones = () => state.view.zones.map((z) => [z.zone, window.cardzonesWords.zone(z.zone)]);
    let input;
    if (param.kind === "mapping" && Array.isArray(param.fields)) {
      const box = h("fieldset", { class: "subfields", "data-name": name },
                    h("legend", { text }));
      for (const sub of param.fields) box.appendChild(field({ ...sub, required: false }, undefined, name));
      if (param.doc) box.title = param.doc;
      return box;
    }
    if (param.kind === "card" || param.kind === "cards") {
      input = h("select", { id, name, multiple: param.kind === "cards" });
      options(input, cardChoices(param.role), param.kind === "card" && !param.required);
      for (const option of input.options) {
        if (Array.isArray(value) ? value.includes(option.value) : value === option.value) option.selected = true;
      }
    } else if (param.kind === "choice") {
      input = options(h("select", { id, name }), (param.options || []).map((o) => [o, String(o).replace(/_/g, " ")]),
                      !param.required, param.default ? `— (${String(param.default).replace(/_/g, " ")})` : "—");
    } else if (param.kind === "bool") {
      input = h("input", { id, name, type: "checkbox" });
    } else if (param.kind === "player") {
      input = options(h("select", { id, name }), state.view.players.map((p) => [p, p]), true);
    } else if (param.kind === "dest" || param.kind === "zone" || param.kind === "zone_choice") {
      input = options(h("select", { id, name }), zones(), !param.required);
    } else if (param.kind === "position") {
      input = options(h("select", { id, name }), [["top", "on top"], ["bottom", "at the bottom"]], true,
                      param.default ? `— (${param.default})` : "—");
    } else if (param.kind === "effect") {
      const labels = effectLabels();
      input = options(h("select", { id, name }), labels.map((l) => [l, menus.effectWords(l)]), false);
      if (!labels.length) input.appendChild(h("option", { value: "", text: "no effect to negate now" }));
    } else if (param.kind === "int") {
      input = h("input", { id, name, type: "number", inputmode: "numeric", autocomplete: "off" });
      if (param.default !== undefined) input.placeholder = String(param.default);
    } else {
      input = h("input", { id, name, autocomplete: "off" });
      if (param.kind === "delta") input.placeholder = "+2 or -1";
      else if (param.default !== undefined) input.placeholder = String(param.default);
    }
    input.dataset.kind = param.kind;
    if (param.doc) input.title = param.doc;
    return h("div", { class: "field" }, label, input);
  }

  // The value a field holds, as the act takes it (undefined: left empty).
  function fieldValue(form, param, prefix) {
    const name = prefix ? `${prefix}.${param.name}` : param.name;
    if (param.kind === "mapping" && Array.isArray(param.fields)) {
      const out = {};
      for (const sub of param.fields) {
        const v = fieldValue(form, sub, name);
        if (v !== undefined) out[sub.name] = v;
      }
      return Object.keys(out).length ? out : undefined;
    }
    const input = form.elements[name];
    if (!input) return undefined;
    let value;
    if (param.kind === "cards") value = Array.from(input.selectedOptions).map((o) => o.value);
    else if (param.kind === "bool") value = input.checked ? true : undefined;
    else value = input.value.trim();
    if (value === undefined || value === "" || (Array.isArray(value) && !value.length)) return undefined;
    if (param.kind === "int") value = Number(value);
    return value;
  }

  // The parameters of which an action takes exactly one, if any.
  function exactlyOne(action) {
    const group = (action.one_of || []).find((g) => g.exactly);
    return group ? group.names.filter((n) => action.params.some((p) => p.name === n)) : [];
  }

  // A form for the action; `only`, one of the parameters of which it takes
  // exactly one, is then the one it asks for (and it asks for it).
  function openForm(action, given, ref, anchor, only) {
    closeMenus();
    const menus = window.cardzonesMenus;
    const form = $("form");
    form.appendChild(h("div", { class: "menu-title", "data-action": action.name,
                                text: (only ? menus.variant(action, only) : menus.title(action)).replace(/…$/, "") }));
    if (action.doc) form.appendChild(h("p", { class: "doc", text: action.doc }));
    const others = only ? exactlyOne(action).filter((n) => n !== only) : [];
    const shown = action.params
      .filter((p) => p.name !== action.actor && p.kind !== "action" && !others.includes(p.name))
      .map((p) => (p.name === only ? { ...p, required: true } : p));
    for (const param of shown) form.appendChild(field(param, given[param.name]));
    // The counters already on the card, offered for a counter's name.
    const known = ref ? window.cardzonesMenus.objects(state.view).get(ref) : null;
    const counters = known && known.obj.counters ? Object.keys(known.obj.counters) : [];
    const named = form.elements.namedItem("name");
    if (counters.length && named && named.tagName === "INPUT") {
      const list = h("datalist", { id: "f-name-counters" }, counters.map((c) => h("option", { value: c })));
      named.setAttribute("list", "f-name-counters");
      named.after(list);
      if (only === "remove" && counters.length === 1) named.value = counters[0];
    }
    // An effect may be named, so that a later negate can name it too.
    const negates = table().some((a) => a.params.some((p) => p.kind === "effect"));
    const labelled = negates && action.params.some((p) => p.kind === "mapping" || p.name === "source");
    if (labelled) form.appendChild(field({ name: "as", kind: "word" }, undefined));
    form.appendChild(h("div", { class: "form-buttons" },
                       h("button", { type: "submit", text: "Do it" }),
                       h("button", { type: "button", text: "Cancel", onclick: closeMenus })));
    form.onsubmit = (ev) => {
      ev.preventDefault();
      const args = {};
      for (const param of shown) {
        const value = fieldValue(form, param);
        if (value !== undefined) args[param.name] = value;
      }
      if (labelled) {
        const label = fieldValue(form, { name: "as", kind: "word" });
        if (label !== undefined) args.as = label;
      }
      act({ [action.name]: args }, ref);
    };
    place(form, anchor);
    const first = form.querySelector("select, input, textarea");
    if (first) first.focus();
  }

  // ------------------------------------------------------------------
  // Replay
  // ------------------------------------------------------------------

  async function openReplay(as) {
    const query = as === undefined ? "" : `?as=${encodeURIComponent(as === null ? "spectator" : as)}`;
    const { status, data } = await api(`history${query}`);
    if (status !== 200) {
      notice(data.error || `the replay could not be loaded (HTTP ${status})`);
      return;
    }
    closeMenus();
    state.replay = { as: data.seat, steps: data.steps, index: data.steps.length - 1 };
    const select = clear($("replay-as"));
    const own = state.seat;
    const choices = state.finished && own ? [...state.view.players, null] : [own];
    for (const who of choices) {
      const option = h("option", { value: who === null ? "spectator" : who,
                                   text: who === null ? "spectator" : who });
      if (who === data.seat) option.selected = true;
      select.appendChild(option);
    }
    select.disabled = choices.length < 2;
    const range = $("replay-step");
    range.max = String(data.steps.length - 1);
    $("replay-bar").hidden = false;
    document.body.classList.add("replaying");
    step(state.replay.index);
  }

  function step(index) {
    const replay = state.replay;
    if (!replay) return;
    replay.index = Math.max(0, Math.min(index, replay.steps.length - 1));
    $("replay-step").value = String(replay.index);
    const current = replay.steps[replay.index];
    const by = current.seat ? ` (${current.seat})` : "";
    $("replay-pos").textContent = `event ${current.event} of ${replay.steps.length - 1}${by}`;
    render();
  }

  function closeReplay() {
    state.replay = null;
    $("replay-bar").hidden = true;
    document.body.classList.remove("replaying");
    render();
  }

  // ------------------------------------------------------------------
  // Wiring
  // ------------------------------------------------------------------

  $("actions-btn").addEventListener("click", (ev) => {
    ev.stopPropagation();
    actionsMenu(ev.currentTarget, false);
  });
  $("judge-btn").addEventListener("click", (ev) => {
    ev.stopPropagation();
    actionsMenu(ev.currentTarget, true);
  });
  $("replay-btn").addEventListener("click", () => openReplay(undefined));
  $("chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("chat-text");
    const text = input.value.trim();
    if (!text) return;
    chatError("");
    if (say(text)) input.value = "";
  });
  $("replay-as").addEventListener("change", (ev) => {
    const value = ev.target.value;
    openReplay(value === "spectator" ? null : value);
  });
  $("replay-first").addEventListener("click", () => step(0));
  $("replay-prev").addEventListener("click", () => step(state.replay.index - 1));
  $("replay-next").addEventListener("click", () => step(state.replay.index + 1));
  $("replay-last").addEventListener("click", () => step(Infinity));
  $("replay-step").addEventListener("input", (ev) => step(Number(ev.target.value)));
  $("replay-close").addEventListener("click", closeReplay);
  // Two clicks each: a proposal to finish, and a concession, cannot be
  // taken back by a click.
  function twoClicks(button, again, done) {
    const first = button.textContent;
    button.addEventListener("click", () => {
      if (button.dataset.confirm !== "yes") {
        button.dataset.confirm = "yes";
        button.textContent = again;
        return;
      }
      button.dataset.confirm = "";
      button.textContent = first;
      done();
    });
  }
  twoClicks($("finish-btn"), "Really propose to finish?", () => vote("agree"));
  twoClicks($("concede-btn"), "Really concede?", () => vote("concede"));
  $("finish-accept").addEventListener("click", () => vote("agree"));
  $("finish-decline").addEventListener("click", () => vote("decline"));
  document.addEventListener("click", (ev) => {
    // A click outside the menu and the form closes them (a menu item that
    // opened the form is gone from the page by now).
    if (!ev.target.isConnected) return;
    if (!$("menu").contains(ev.target) && !$("form").contains(ev.target)
        && !$("preview").contains(ev.target)) closeMenus();
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") closeMenus();
  });
  window.addEventListener("hashchange", () => location.reload());

  loadActions();
  connect();
})();
