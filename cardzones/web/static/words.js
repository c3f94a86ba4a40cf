// The board's words: zones and log entries as a person says them
// ("alice's deck", "alice moved Snatch from alice's hand to the stack").
// Everything here is made from what the server sent this viewer; a card the
// viewer may not see is "a card".
"use strict";

(function () {
  // Zone types that read better in other words, as each rule set names them
  // (its board's labels, GET /api/rulesets); any other type is its own words.
  const LABELS = {};

  function useLabels(labels) {
    for (const [type, words] of Object.entries(labels || {})) {
      if (typeof words === "string") LABELS[type] = words;
    }
  }

  // "alice.discard" -> "alice's discard"; "stack" -> "the stack";
  // "alice.pile.2" -> "alice's pile 2".
  function zone(name) {
    if (typeof name !== "string" || !name) return "somewhere";
    const parts = name.split(".");
    if (parts.length === 1) return `the ${label(parts[0])}`;
    const [owner, type, number] = parts;
    const what = number ? `${label(type)} ${number}` : label(type);
    return `${owner}'s ${what}`;
  }

  function label(type) {
    return LABELS[type] || String(type).replace(/_/g, " ");
  }

  function card(entry) {
    return entry.card && entry.card.name ? shortName(entry.card.name) : "a card";
  }

  // A card's name as a player says it: without the printing a table's card
  // keeps to tell printings of one name apart ("Stormy Seas (set 3E)", "Ahab
  // ( C)"), which the card's preview shows.
  function shortName(name) {
    return String(name).replace(/\s\((?:set\s[^()]*|\s[^()]*)\)$/, "");
  }

  // Zone names in a note ("moved to alice.deck") said in words too: only
  // names that start with one of the game's players.
  function note(text, players) {
    return String(text).replace(/([A-Za-z0-9_-]+)\.([a-z_]+)(?:\.(\d+))?\b/g,
                                (whole, owner) => (players.includes(owner) ? zone(whole) : whole));
  }

  // One log entry as a sentence; `players` are the game's players.
  function entry(e, players) {
    players = players || [];
    const by = e.by ? `${e.by} ` : "";
    switch (e.event) {
      case "moved": {
        const what = card(e);
        const from = e.from ? ` from ${zone(e.from)}` : "";
        const to = e.to ? ` to ${zone(e.to)}` : "";
        const why = e.note ? ` (${note(e.note, players)})` : "";
        return by ? `${by}moved ${what}${from}${to}${why}` : `${cap(what)} moved${from}${to}${why}`;
      }
      case "flipped": {
        const where = e.to || e.from;
        return `${by || "the rules "}flipped ${card(e)}${where ? ` in ${zone(where)}` : ""}`;
      }
      case "created":
        return `${by || "the rules "}created ${card(e)}${e.to ? ` in ${zone(e.to)}` : ""}`;
      case "ceased":
        return `${cap(card(e))} ceased to exist${e.from ? ` (it was in ${zone(e.from)})` : ""}`;
      case "shuffled":
        return `${by || "the rules "}shuffled ${zone(e.zone)}`;
      case "turn":
        return e.note ? note(e.note, players) : `turn ${e.turn}`;
      default: {
        const text = (e.note ? note(e.note, players) : String(e.event)).replace(/_/g, " ");
        // A note that already says who acted ("alice puts 1 +1 power counter ...").
        // Notes are kept as written: they may start with a player's name.
        if (!by || text.startsWith(by)) return text;
        return `${by.trim()}: ${text}`;
      }
    }
  }

  function cap(text) {
    return text ? text[0].toUpperCase() + text.slice(1) : text;
  }

  window.cardzonesWords = Object.freeze({ zone, label, entry, useLabels, shortName });
})();
