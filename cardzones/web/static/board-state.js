// The board: one seat's (or the spectator's) view of one table, kept up to
// date over the table protocol's WebSocket (docs/protocol.md).
//
// What the page holds is what the server sent this viewer: the engine's view
// and the log as this viewer may know them. It never asks for more, and it
// renders with DOM APIs and textContent only. The token comes from the
// link's fragment, which the browser never sends to a server; it goes only
// into the hello frame and the Authorization header.
//
// The board is in parts, loaded in this order by play.html, which share the
// page's scope: what the board knows (this file), the connection and the
// chat (board-net.js), the drawing of the board (board-render.js), the menus
// and forms (board-menus.js), and the replay, the take-backs and the wiring
// (board.js).
"use strict";

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
  won: null,             // the player the game procedure says won (the table's `won`)
  finish: null,          // the standing votes to finish: {agreed, conceded, until}, or null
  finishAfter: null,     // how long a proposal to finish waits here, in seconds
  takeBack: null,        // the request to take back acts: {by, acts, to, after, accepted, refused}
  lastSeat: undefined,   // the seat of the last event this board was sent (undefined: not known)
  actions: null,         // the rule set's action table (GET /api/rulesets)
  boards: {},            // each rule set's layout of a mat (GET /api/rulesets)
  legal: null,           // the seat's legal acts ({act, result}) after event legalNumber
  legalNumber: null,
  refusal: null,         // {ref, error, rule}: the last refused act, shown by its card
  connection: "connecting",
  replay: null,          // {as, steps, index} while replaying
  browse: null,          // the zone of the pile being browsed
  images: false,         // whether the server shows card pictures (serve --images)
};
Object.defineProperty(window, "cardzonesBoard", { value: state });

let socket = null;
let attempts = 0;
let requests = 0;
const sent = new Map();  // request id -> the card ref it was about
const said = new Set();  // request ids of chat lines not yet answered
let legalOffered = true;
