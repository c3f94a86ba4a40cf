// The page that creates a table: POST /api/tables, then the links to send.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const form = $("create");
  // The rule sets whose deck lists the server reads (its card index has their cards).
  const deckGames = new Set();
  // The rule sets with a game procedure a table may run (GET /api/rulesets).
  const procedureGames = new Set();
  // Each rule set's words about its deck lists, and an example of one
  // (GET /api/rulesets: deck_list_help, deck_list_example).
  const HELP = {};
  const PLACEHOLDER = {};

  let shownFrom = null;
  function showFrom() {
    const from = form.elements.from.value;
    for (const name of ["scenario", "setup", "decks"]) $("from-" + name).hidden = from !== name;
    // A scenario text says it itself (procedure: true).
    $("procedure-label").hidden = from === "scenario" || !procedureGames.has($("ruleset").value);
    // Deck lists are for playing by the rules' turn, a written position
    // for playing by hand, unless the player says otherwise.
    if (from !== shownFrom) $("procedure").checked = from === "decks";
    shownFrom = from;
  }

  function showDecks() {
    // Deck lists are a choice only for a rule set whose cards the server has.
    const ruleset = $("ruleset").value;
    const offered = deckGames.has(ruleset);
    $("from-decks-label").hidden = !offered;
    if (!offered && form.elements.from.value === "decks") form.elements.from.value = "scenario";
    $("decks-help").textContent = HELP[ruleset] || "";
    for (const area of document.querySelectorAll("textarea.deck")) {
      area.placeholder = PLACEHOLDER[ruleset] || "";
    }
    showFrom();
  }

  function deckFields(players) {
    // Keep what was typed for a player still named.
    const typed = {};
    for (const area of document.querySelectorAll("textarea.deck")) typed[area.dataset.player] = area.value;
    const box = clear($("deck-fields"));
    for (const player of players) {
      const area = h("textarea", { rows: 6, spellcheck: "false", "data-player": player, class: "deck",
                                   "aria-label": `${player}'s deck list` });
      area.value = typed[player] || "";
      const file = h("input", { type: "file", accept: ".txt,.dek,text/plain",
                                "aria-label": `${player}'s deck list file` });
      file.addEventListener("change", async () => {
        if (file.files[0]) area.value = await file.files[0].text();
      });
      box.appendChild(h("div", { class: "deck-field" },
                        h("span", { class: "deck-player", text: `${player}'s deck list` }), file, area));
    }
    showDecks();
  }

  function players() {
    return $("players").value.split(",").map((p) => p.trim()).filter(Boolean);
  }

  async function load() {
    const answer = await fetch("/api/rulesets");
    const data = await answer.json();
    const first = data.rulesets[0];
    if (first) $("scenario").placeholder = `ruleset: ${first.name}\nsetup:\n  alice.deck: [A, B]`;
    for (const ruleset of data.rulesets) {
      $("ruleset").appendChild(h("option", { value: ruleset.name, text: ruleset.name }));
      if (ruleset.deck_lists) deckGames.add(ruleset.name);
      if (ruleset.procedure) procedureGames.add(ruleset.name);
      HELP[ruleset.name] = ruleset.deck_list_help || "";
      PLACEHOLDER[ruleset.name] = ruleset.deck_list_example || "";
    }
    deckFields(players());
  }

  function parseJson(id) {
    try {
      return JSON.parse($(id).value || "{}");
    } catch (err) {
      throw new Error(`${id}: not valid JSON (${err.message})`);
    }
  }

  function body() {
    const from = form.elements.from.value;
    if (from === "scenario") {
      const text = $("scenario").value;
      if (!text.trim()) throw new Error("choose a scenario file or paste its text");
      return { scenario: text };
    }
    const out = { ruleset: $("ruleset").value };
    const names = players();
    if (names.length) out.players = names;
    const seed = $("seed").value.trim();
    if (seed) {
      if (!/^\d+$/.test(seed)) throw new Error("seed: a whole number, or nothing for a secret one");
      out.seed = Number(seed);
    }
    if (!$("procedure-label").hidden) out.procedure = $("procedure").checked;
    if (from === "setup") {
      out.cards = parseJson("cards");
      out.setup = parseJson("setup");
    } else {
      out.decks = {};
      for (const area of document.querySelectorAll("textarea.deck")) {
        out.decks[area.dataset.player] = area.value;
      }
    }
    return out;
  }

  function showLinks(created) {
    const list = clear($("link-list"));
    for (const [who, link] of Object.entries(created.links)) {
      const url = new URL(link, location.href).href;
      const field = h("input", { readonly: true, value: url, class: "link", "data-seat": who,
                                 "aria-label": `${who}'s link` });
      const copy = h("button", { type: "button", text: "Copy" });
      copy.addEventListener("click", async () => {
        field.select();
        try {
          await navigator.clipboard.writeText(url);
          copy.textContent = "Copied";
        } catch (_) {
          copy.textContent = "Select and copy";
        }
      });
      const open = h("a", { href: url, target: "_blank", rel: "noopener noreferrer", text: "Open" });
      list.appendChild(h("li", {}, h("span", { class: "seat", text: who }), field, copy, open));
    }
    $("links").hidden = false;
  }

  form.addEventListener("change", (ev) => {
    if (ev.target.name === "from") showFrom();
  });
  $("players").addEventListener("input", () => deckFields(players()));
  $("ruleset").addEventListener("change", showDecks);
  $("scenario-file").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (file) $("scenario").value = await file.text();
  });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("error").hidden = true;
    let request;
    try {
      request = body();
    } catch (err) {
      $("error").textContent = err.message;
      $("error").hidden = false;
      return;
    }
    const answer = await fetch("/api/tables", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request),
    });
    const data = await answer.json().catch(() => ({ error: `HTTP ${answer.status}` }));
    if (answer.status !== 201) {
      $("error").textContent = data.error || `HTTP ${answer.status}`;
      $("error").hidden = false;
      return;
    }
    showLinks(data);
  });
  showFrom();
  load();
})();
