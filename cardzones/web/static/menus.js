// The menus' words: an act as a person says it ("Move to alice's discard",
// "Place on Assyria", "End the turn"), the group it is listed under, and
// whether an action belongs in the judge's menu (its action table says so).
// An action's own words are its rule set's (its "menu" in the action table,
// GET /api/rulesets); the words here are the board's own, for the actions
// that have none. Cards are named by what this viewer's view shows of them,
// never by their handles; an action with no words anywhere is said from its
// name and its arguments.
"use strict";

(function () {
  const W = () => window.cardzonesWords;

  // The groups of a menu, in the order they are listed.
  const GROUPS = ["Play", "Move to", "Place it on", "Move", "Card", "Turn", "Other"];
  // The group of each action of a player's menus. Which actions are a
  // judge's is not said here: the rule set's action table marks them
  // ("judge": true in GET /api/rulesets), and they are in the judge's menu.
  const GROUP_OF = {
    play: "Play", discard: "Play", dominant: "Play", add_layer: "Play", attack: "Play",
    move: "Move", place: "Move", set_aside: "Move", return: "Move", draw: "Move", shuffle: "Move",
    flip: "Card", modify: "Card", life: "Card", counter: "Card", negate: "Card",
    create_token: "Card", tap: "Card", untap: "Card",
    end_turn: "Turn", start_turn: "Turn", phase: "Turn", end_battle: "Turn", resolve: "Turn",
    remove_layer: "Turn",
  };
  // Whether an action of the rule set's table is a judge's or an
  // administrator's correction rather than a move of the game: the table
  // says so (its "judge" key), for any rule set, a new one too.
  function isJudge(action) {
    return Boolean(action && action.judge);
  }
  // An action's name in a menu, where it opens a form.
  const TITLES = {
    play: "Play", discard: "Discard", dominant: "Play as a dominant…", attack: "Attack with it",
    add_layer: "Add a layer…", move: "Move to…", place: "Place…", set_aside: "Set aside…",
    return: "Return from the set-aside area", draw: "Draw…", shuffle: "Shuffle…",
    flip: "Turn over…", modify: "Change its stats…", life: "Life…", counter: "Counters…",
    negate: "Negate an effect…", create_token: "Create a token…", end_turn: "End the turn",
    start_turn: "Start the turn as the rules do", phase: "Go to a phase…", end_battle: "End the battle",
    resolve: "Resolve the top layer", remove_layer: "Remove a layer…",
    put_under: "Put a card under it…", grant: "Grant a keyword…", clear: "Clear what effects did",
    create_zone: "Make a zone…", remove_zone: "Remove a zone…",
    tap: "Tap it", untap: "Untap it", allow_look: "Let a player look at their deck…",
    zone_choice: "Choose which of your zones your cards go to…",
  };
  // The entries of an action that takes exactly one of some parameters.
  const VARIANTS = {
    "life.damage": "Deal damage…", "life.lose": "Lose life…", "life.gain": "Gain life…",
    "counter.add": "Put counters on it…", "counter.remove": "Remove counters…",
  };
  // Whether a card's menu offers an action's entry for it: life for a card
  // with a life total, counters on a card one may see, and taking off only
  // those it has. Anything else is offered, and the rules decide.
  const FITS = {
    life: (obj) => typeof obj.life === "number",
    counter: (obj) => !obj.hidden,
    "counter.remove": (obj) => Boolean(obj.counters && Object.keys(obj.counters).length),
  };
  function fits(action, obj, only) {
    const whole = FITS[action.name];
    const part = only ? FITS[`${action.name}.${only}`] : null;
    return (!whole || whole(obj)) && (!part || part(obj));
  }
  // A parameter's name in a form.
  const FIELDS = {
    card: "card", cards: "cards", to: "to", position: "where in the zone", face: "face",
    onto: "onto", in: "in the zone", source: "played from (its source)", order: "in this order",
    ongoing: "with a bonus", played_on: "played on", duration: "for how many turns",
    area: "set-aside area", in_battle: "in battle", effect: "the effect", target: "target",
    count: "how many", player: "player", zone: "zone", phase: "phase", keyword: "keyword",
    kind: "kind", layer: "layer", top: "the card to put under", colon: "a colon ability",
    cause: "caused by", until: "until", choose_zone: "which zone", controller: "controller",
    as: "name this effect (to negate it later)", damage: "damage", lose: "life lost",
    gain: "life gained", add: "how many to put on it", remove: "how many to take off",
    name: "the counter (such as +1_power)",
  };

  function words(text) {
    return String(text).replace(/_/g, " ");
  }

  function cap(text) {
    return text ? text[0].toUpperCase() + text.slice(1) : text;
  }

  // Every object of the view by its handle, with its zone.
  function objects(view) {
    const out = new Map();
    const walk = (zone, obj) => {
      if (obj.id) out.set(obj.id, { obj, zone });
      for (const key of ["under", "placed"]) for (const kid of obj[key] || []) walk(zone, kid);
    };
    for (const zone of view ? view.zones : []) for (const obj of zone.objects) walk(zone, obj);
    return out;
  }

  // A card ref in words: a handle by the name the view shows, ZONE[i] by
  // its place ("the top card of alice's deck").
  function cardWords(ref, view, found) {
    const known = (found || objects(view)).get(ref);
    if (known) return known.obj.hidden ? `a card in ${W().zone(known.zone.zone)}` : known.obj.name;
    const at = /^(.*)\[(-?\d+)\]$/.exec(String(ref));
    if (at) {
      const zone = view && view.zones.find((z) => z.zone === at[1]);
      const where = W().zone(at[1]);
      if (at[2] === "0" && zone && zone.ordered) return `the top card of ${where}`;
      if (at[2] === "-1" && zone && zone.ordered) return `the bottom card of ${where}`;
      return `a card in ${where}`;
    }
    return "a card";
  }

  function valueWords(key, value, view, found) {
    if (Array.isArray(value)) return value.map((v) => valueWords(key, v, view, found)).join(", ");
    if (value && typeof value === "object") {
      return Object.entries(value).map(([k, v]) => `${words(k)} ${valueWords(k, v, view, found)}`).join(", ");
    }
    if (typeof value === "string") {
      if (found.has(value) || /\[-?\d+\]$/.test(value)) return cardWords(value, view, found);
      if (view && view.zones.some((z) => z.zone === value)) return W().zone(value);
      return words(value);
    }
    return String(value);
  }

  // The words the rule set's action table gives an action ("menu"), or null.
  function ownWords(name) {
    const action = typeof actionNamed === "function" ? actionNamed(name) : null;
    return action && action.menu && typeof action.menu === "object" ? action.menu : null;
  }

  // An act said in its action's own words ("says", or "about" in the menu of
  // the card an argument names): {name} is that argument in words, the
  // menu's own card "it", and a part in brackets is said only when the
  // arguments it names are given. Null for an action without a sentence.
  function ownSentence(name, args, ref, view, found) {
    const own = ownWords(name);
    if (!own || typeof own.says !== "string") return null;
    const about = Object.entries(own.about || {}).find(([k]) => ref && args[k] === ref);
    const given = (k) => args[k] !== undefined && args[k] !== null && args[k] !== false;
    const isRef = (v) => typeof v === "string" && (found.has(v) || /\[-?\d+\]$/.test(v));
    const one = (k, v) => (ref && v === ref ? "it"
      : isRef(v) ? W().shortName(cardWords(v, view, found)) : valueWords(k, v, view, found));
    const say = (k) => (Array.isArray(args[k]) ? args[k].map((v) => one(k, v)).join(", ") : one(k, args[k]));
    const names = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    return String(about ? about[1] : own.says)
      .replace(/\[([^\]]*)\]/g, (whole, part) => (names(part).every(given) ? part : ""))
      .replace(/\{(\w+)\}/g, (whole, k) => (given(k) ? say(k) : ""));
  }

  // One act as a menu entry says it. `ref` is the card the menu is about
  // (not named again), or null in the bar's menu.
  function describe(step, ref, view) {
    const name = Object.keys(step)[0];
    const raw = step[name];
    const args = raw && typeof raw === "object" && !Array.isArray(raw) ? raw : { value: raw };
    const found = objects(view);
    const own = ownSentence(name, args, ref, view, found);
    if (own !== null) return own;
    const card = (r) => cardWords(r, view, found);
    const other = (r) => (r === ref ? "it" : card(r));
    const zone = (z) => W().zone(z);
    const face = args.face === "down" ? " face down" : args.face === "up" ? " face up" : "";
    const pos = args.position === "bottom" ? "the bottom of " : args.position === "top" ? "the top of " : "";
    const subject = ref ? "" : args.card ? ` ${card(args.card)}` : "";
    // An attack that names its target names an opponent, by their name.
    const aimed = typeof args.target === "string" && !found.has(args.target)
      ? `, against ${args.target}` : "";
    switch (name) {
      case "play": return `Play${subject}${aimed}`;
      case "discard": return `Discard${subject}`;
      case "move": return `Move${subject}${face} to ${pos}${zone(args.to)}`;
      case "flip": return `Turn${subject} face ${args.face}`;
      case "draw": return args.count && args.count !== 1 ? `Draw ${args.count} cards` : "Draw a card";
      case "shuffle": return `Shuffle ${zone(args.zone)}`;
      case "end_turn": return "End the turn";
      case "start_turn": return "Start the turn as the rules do";
      case "attack": return (ref && args.card === ref ? "Attack with it" : `Attack with ${card(args.card)}`) + aimed;
      case "end_battle": return "End the battle";
      case "resolve": return "Resolve the top layer";
      case "phase": return `Go to the ${words(args.phase !== undefined ? args.phase : args.value)} phase`;
      case "remove_layer": return `Remove layer ${args.layer}`;
      case "negate": return `Negate ${effectWords(args.effect)}`;
      case "return": return `Return ${(args.cards || []).map(other).join(", ")} from the set-aside area`;
      case "set_aside": return `Set aside ${(args.cards || []).map(other).join(", ")}`;
      case "place": {
        const what = (args.cards || []).map(other).join(", ");
        const where = args.onto ? ` on ${other(args.onto)}` : args.in ? ` in ${zone(args.in)}` : "";
        return `Place ${what}${where}`;
      }
      case "dominant": return `Play ${other(args.card)} as a dominant on ${other(args.target)}`;
      case "create_token": return `Create a ${args.card} token in ${zone(args.to)}`;
      case "tap": return `Tap${subject || " it"}`;
      case "untap": return `Untap${subject || " it"}`;
      case "allow_look": return args.allowed === false
        ? `Stop looking at ${zone(args.zone)}` : `Look at ${zone(args.zone)}`;
      case "zone_choice": return `Send your cards to ${zone(args.zone)}, of its kind, until you choose again`;
      case "modify": {
        // The stats are the action table's, each game's own ("+1 defense").
        const change = (v) => (typeof v === "number" ? `${v > 0 ? "+" : ""}${v}` : String(v));
        const changes = Object.entries(args)
          .filter(([k, v]) => k !== "card" && k !== "until" && /^[+-]?\d+$/.test(String(v)))
          .map(([k, v]) => `${change(v)} ${words(k)}`).join(", ");
        const until = args.until ? ` until ${words(args.until)}` : "";
        return `Give ${args.card === ref ? "it" : card(args.card)} ${changes}${until}`;
      }
      case "life": {
        const who = args.card === ref ? "it" : card(args.card);
        if (args.damage !== undefined) return `Deal ${args.damage} damage to ${who}`;
        if (args.lose !== undefined) return `${cap(who)} loses ${args.lose} life`;
        if (args.gain !== undefined) return `${cap(who)} gains ${args.gain} life`;
        return `Life of ${who}`;
      }
      default: {
        // A word chosen from a list is said alone ("Add layer: activated").
        const shown = Object.entries(args).filter(([k, v]) => k !== "by" && v !== ref);
        const said = (k, v) => (typeof v === "string" && !found.has(v) && !/\[-?\d+\]$/.test(v)
                                && !(view && view.zones.some((z) => z.zone === v)) ? words(v) : `${words(k)} ${valueWords(k, v, view, found)}`);
        const rest = shown.map(([k, v]) => said(k, v)).join(", ");
        return cap(`${words(name)}${rest ? `: ${rest}` : ""}`);
      }
    }
  }

  // A one-click entry of a menu: its group and its words. In a card's menu,
  // the many moves and placings of the card are listed by where they go,
  // under "Move to" and "Place it on"; `full` is the whole sentence.
  function entry(step, ref, view) {
    const name = Object.keys(step)[0];
    const args = step[name];
    const own = window.cardzonesProcedure && window.cardzonesProcedure.entry(step, ref, view);
    if (own) return own;
    const full = describe(step, ref, view);
    if (ref && name === "move" && args && args.card === ref) {
      const face = args.face === "down" ? "face down to " : args.face === "up" ? "face up to " : "";
      const pos = args.position === "bottom" ? "the bottom of " : "";
      return { group: "Move to", text: `${face}${pos}${W().zone(args.to)}`, full };
    }
    if (ref && name === "place" && args && args.onto && Array.isArray(args.cards)
        && args.cards.length === 1 && args.cards[0] === ref && !args.in) {
      return { group: "Place it on", text: cardWords(args.onto, view), full };
    }
    return { group: group(name), text: full, full };
  }

  // An effect's label in words: a seat's own label as it wrote it; the
  // name another seat's labelled effect has for this one ("effect-" and a
  // keyed digest, which tells nothing of that seat's words) as another
  // seat's effect, with the digest's end to tell two apart.
  function effectWords(label) {
    const other = /^effect-([0-9a-f]+)$/.exec(String(label));
    return other ? `another seat's effect (${other[1].slice(-4)})` : `“${label}”`;
  }

  function group(name) {
    const own = ownWords(name);
    return (own && own.group) || GROUP_OF[name] || "Other";
  }

  function title(action) {
    const own = action && action.menu;
    return (own && own.title) || TITLES[action.name] || cap(`${words(action.name)}…`);
  }

  function variant(action, only) {
    return VARIANTS[`${action.name}.${only}`] || `${title(action).replace(/…$/, "")}: ${words(only)}…`;
  }

  function field(name) {
    return FIELDS[name] || words(name);
  }

  window.cardzonesMenus = Object.freeze({
    GROUPS, describe, entry, group, title, variant, field, cardWords, objects, fits,
    effectWords, isJudge,
  });
})();
