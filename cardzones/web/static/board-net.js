// The board's connection: the WebSocket of the table protocol, the chat, the
// HTTP API and the notices (see board-state.js).
"use strict";

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
    legalOverHttp();
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
    state.won = w.won || null;
    state.finish = w.finish || null;
    state.finishAfter = w.finish_after || null;
    state.takeBack = w.take_back || null;
    addChat(w.chat || []);
    setConnection("connected");
    hideNotice();
    render();
  } else if (typeof frame.event === "number") {
    if (frame.event <= state.number) return;
    state.number = frame.event;
    state.view = frame.view;
    state.lastSeat = frame.seat;
    state.won = frame.won || null;  // every frame after a win says it (a take-back may undo it)
    state.log = state.log.concat(frame.log);
    render();
  } else if ("ack" in frame) {
    sent.delete(frame.ack);
  } else if (frame.chat) {
    addChat([frame.chat]);
    renderChat();
  } else if ("said" in frame) {
    said.delete(frame.said);
  } else if ("listed" in frame || ("refused" in frame && legalWaiting.has(frame.refused))) {
    legalAnswered(frame);
  } else if ("refused" in frame && said.has(frame.refused)) {
    said.delete(frame.refused);
    chatError(frame.error);
  } else if ("refused" in frame) {
    const ref = sent.get(frame.refused);
    sent.delete(frame.refused);
    state.refusal = { ref: ref || null, error: frame.error, rule: frame.rule || null };
    render();
  } else if ("take_back" in frame) {
    state.takeBack = frame.take_back;
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

// The seat's legal acts at the current position (entries {act, result}, on
// the socket or GET .../legal: askLegal), asked for only when a menu opens
// and kept until the next event. Without the endpoint, the menus are made
// from the action table's parameters alone. Resolves to the entries, null, or "later" when the
// server answered for an event the board has not been sent yet.
let legalAsked = null;
function loadLegal() {
  if (!legalOffered || !state.seat || state.replay) return Promise.resolve(null);
  const number = state.number;
  if (state.legalNumber === number && Array.isArray(state.legal)) return Promise.resolve(state.legal);
  if (legalAsked && legalAsked.number === number) return legalAsked.promise;
  const promise = askLegal().then(({ status, data }) => {
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

// The seat's legal acts asked on its socket when it is open (a legal frame,
// answered in order with the events: no HTTP request of its own), else over
// HTTP. Resolves to {status, data} as the HTTP answer would be.
const legalWaiting = new Map();  // request id of a legal frame -> its resolve
function askLegal() {
  if (!socket || socket.readyState !== WebSocket.OPEN || state.connection !== "connected") {
    return legalOverHttpNow();
  }
  requests += 1;
  const id = `l${requests}`;
  return new Promise((resolve) => {
    legalWaiting.set(id, resolve);
    socket.send(JSON.stringify({ legal: {}, id }));
  });
}

function legalOverHttpNow() {
  return api("legal").catch(() => ({ status: 0, data: null }));
}

function legalAnswered(frame) {
  const id = "listed" in frame ? frame.listed : frame.refused;
  const resolve = legalWaiting.get(id);
  if (!resolve) return;
  legalWaiting.delete(id);
  if ("listed" in frame) {
    resolve({ status: 200, data: frame });
  } else {
    // As the HTTP answer: 429 for a seat out of its budget, 400 otherwise.
    resolve({ status: "retry_after" in frame ? 429 : 400, data: { error: frame.error } });
  }
}

// The socket closed with legal frames unanswered: they are asked over HTTP.
function legalOverHttp() {
  const waiting = [...legalWaiting.values()];
  legalWaiting.clear();
  for (const resolve of waiting) legalOverHttpNow().then(resolve);
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
