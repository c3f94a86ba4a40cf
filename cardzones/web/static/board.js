// The replay, and the wiring of the page (see board-state.js).
"use strict";

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
// Take-backs: a seat asks, the others accept or refuse (docs/protocol.md,
// Taking back acts). An accepted one arrives as an event like any other.
// ------------------------------------------------------------------

// The request as it stands at the event the board shows (an act since has
// left it behind), refused or not; null when there is none.
function takeBackShown() {
  const request = state.takeBack;
  if (!request || request.after !== state.number || state.replay || state.finished) return null;
  return request;
}

function renderTakeBack() {
  const request = takeBackShown();
  const standing = Boolean(request && !request.refused);
  // A seat may take back its own acts since another seat last acted: the
  // button shows while the last event the board was sent is its own.
  $("takeback-btn").hidden = !(canAct() && !standing && state.number > 0
                               && (state.lastSeat === undefined || state.lastSeat === state.seat));
  $("takeback-bar").hidden = !request;
  if (!request) return;
  const acts = `${request.acts} act${request.acts === 1 ? "" : "s"}`;
  const mine = request.by === state.seat;
  let text;
  if (request.refused === request.by) {
    text = `${mine ? "you" : request.by} withdrew the request to take back ${acts}`;
  } else if (request.refused) {
    const who = request.refused === state.seat ? "you" : request.refused;
    text = `${who} refused: ${mine ? "your" : `${request.by}'s`} last ${acts} stand`;
  } else {
    const votes = state.finish || { conceded: [] };
    const waiting = state.view.players.filter((p) => p !== request.by && !request.accepted.includes(p)
                                                     && !votes.conceded.includes(p));
    const asks = mine ? "you ask" : `${request.by} asks`;
    text = `${asks} to take back ${mine ? "your" : "their"} last ${acts}`
      + (waiting.length ? ` · waiting for ${waiting.join(" and ")}` : "");
  }
  $("takeback-text").textContent = text;
  const answering = standing && canAct() && !request.accepted.includes(state.seat);
  $("takeback-accept").hidden = !(answering && !mine);
  $("takeback-refuse").hidden = !answering;
  $("takeback-refuse").textContent = mine ? "Withdraw" : "Refuse";
}

async function takeBack(body) {
  const { status, data } = await api("take-back", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (status !== 200) {
    notice(data.error || `HTTP ${status}`);
    return;
  }
  hideNotice();
  state.takeBack = data.take_back;
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
$("takeback-btn").addEventListener("click", () => takeBack({ acts: 1 }));
$("takeback-accept").addEventListener("click", () => takeBack({ answer: "accept" }));
$("takeback-refuse").addEventListener("click", () => takeBack({ answer: "refuse" }));
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
// A refusal beside its card follows the card as the page scrolls or the
// window changes, and stays inside the window.
const keepRefusal = () => {
  const bubble = document.querySelector("#board .card > .refusal");
  if (bubble) placeRefusal(bubble, bubble.parentElement);
};
window.addEventListener("scroll", keepRefusal, { passive: true });
window.addEventListener("resize", keepRefusal);

loadActions();
connect();
