// The card menus, the bar's menus and the action forms (see board-state.js).
"use strict";

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

// Whether a card may be named for a parameter that is for some types of
// card alone (its `card_types` in the action table: the source of an
// ability), as far as the seat sees the card; any card for any other.
function ofTypes(param, obj) {
  const types = param.card_types || [];
  return !types.length || (!obj.hidden && (obj.types || []).some((t) => types.includes(t)));
}

// The actions of the table that can take this card: for each card
// parameter whose role allows it (acts_on: the seat's own card; target:
// anyone's), one entry with that parameter filled in. A parameter for the
// card's own types is the one its menu fills, alone (an ability's source,
// from the menu of the card whose ability it is); `typed` says so.
function offers(obj, zone) {
  const out = [];
  for (const action of table()) {
    if (action.turn_player && state.view.turn_player !== state.seat) continue;
    if (obj.hidden && zone.owner !== state.seat) continue;
    const fit = cardParams(action).filter((p) => (p.role !== "acts_on" || mine(obj, zone)) && ofTypes(p, obj));
    const typed = fit.find((p) => (p.card_types || []).length);
    if (typed) {
      out.push({ action, param: typed, typed: true });
      continue;
    }
    for (const param of fit) {
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
    const seen = new Set();  // the things done so far: another way of one goes under More
    const parts = window.cardzonesProcedureParts;
    const offered = (entries || []).filter((e) => e.result !== "failed").map((e) => e.act);
    for (const entry of entries || []) {
      const step = entry.act;
      const name = Object.keys(step)[0];
      // A judge's acts are in the judge's menu alone (the server lists them
      // only when asked for).
      if (entry.result === "failed" || menus.isJudge(actionNamed(name)) || !keep(step)) continue;
      // A card with several ways to pay is one entry that asks which
      // (board-procedure-parts.js).
      const ways = parts && parts.waysOf(step, offered, state.view, ref);
      if (ways && ways.steps[0] !== step) continue;
      const said = ways ? parts.waysEntry(ways, ref, state.view) : menus.entry(step, ref, state.view);
      const other = !ways && parts && parts.alternative(step, seen, state.view);
      groups.get(said.group).push(menuButton(said.text, {
        class: other ? "legal unlisted" : "legal", "data-action": name, "data-act": JSON.stringify(step),
        title: said.full, "aria-label": said.full,
      }, ways ? (ev) => {
        ev.stopPropagation();
        parts.openWays(ev.currentTarget, ways, ref, state.view);
        if (!$("menu").hidden) place($("menu"), lastAnchor);
      } : () => act(step, ref)));
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
      // A form that would say what a one-click entry says ("End the turn"),
      // asking for nothing it needs, is the same entry twice.
      const same = [...slot.querySelectorAll("button.legal")].some(
        (b) => b.textContent === button.textContent.replace(/…$/, ""));
      if (action && oneClick && (!rest.length || same && rest.every((p) => !p.required))) button.remove();
      // A form whose every choice the legal acts list (cards, zones, words
      // from a list), none of them on this card, offers what the rules would
      // refuse now ("Attack with it" for a card in a hand): it goes under
      // More, for a player who means to try it all the same.
      const listed = Array.isArray(entries) && rest.every((p) => LISTED_KINDS.has(p.kind));
      if (action && ref && listed && !oneClick && button.isConnected) button.classList.add("unlisted");
    }
    trimMenu(menu);
    slot.dataset.ready = "yes";
    if (!menu.hidden) place(menu, lastAnchor);
  });
  fill(0);
  return slot;
}

// The kinds of parameter whose every value the legal acts list.
const LISTED_KINDS = new Set(["card", "cards", "zone", "dest", "zone_name", "player", "choice",
                              "position", "bool"]);

// A menu shows its likeliest entries, at most MENU_SHOWN, in its groups'
// order; the rest are under "More", one click away.
const MENU_SHOWN = 12;

// How unlikely an entry is, within its group: a move to another player's
// zone, face down, or to the bottom of a pile comes after the plain ones.
function unlikely(button) {
  let step = null;
  try {
    step = JSON.parse(button.dataset.act || "null");
  } catch (_) {
    step = null;
  }
  const args = step && typeof step === "object" ? Object.values(step)[0] : null;
  if (button.classList.contains("unlisted")) return 100;
  if (!args || typeof args !== "object") return 0;
  let score = 0;
  const to = typeof args.to === "string" ? args.to : typeof args.onto === "string" ? args.onto : null;
  const owner = to && to.includes(".") ? to.split(".")[0] : null;
  if (owner && state.view && state.view.players.includes(owner) && owner !== state.seat) score += 4;
  if (args.face) score += 1;
  if (args.position === "bottom") score += 1;
  return score;
}

function trimMenu(menu) {
  for (const group of menu.querySelectorAll(".menu-group")) {
    const buttons = [...group.querySelectorAll(":scope > button")];
    buttons.sort((a, b) => unlikely(a) - unlikely(b)).forEach((b) => group.appendChild(b));
  }
  const old = menu.querySelector(".menu-more");
  if (old) old.remove();
  const entries = [...menu.querySelectorAll(".menu-group > button")];
  // The form of what the card itself does (its own ability, with it as the
  // source) is its likeliest use: it stays in view whatever else there is.
  const own = (b) => (b.dataset.typed ? 0 : 1);
  const likely = entries.filter((b) => !b.classList.contains("unlisted")).sort((a, b) => own(a) - own(b));
  const unlisted = entries.filter((b) => b.classList.contains("unlisted"));
  if (likely.length <= MENU_SHOWN && !unlisted.length) return;
  const rest = [...(likely.length <= MENU_SHOWN ? [] : likely.slice(MENU_SHOWN - 1)), ...unlisted];
  for (const button of rest) {
    button.hidden = true;
    button.classList.add("more-entry");
  }
  for (const group of menu.querySelectorAll(".menu-group")) {
    if (![...group.querySelectorAll(":scope > button")].some((b) => !b.hidden)) group.hidden = true;
  }
  menu.appendChild(menuButton(`More (${rest.length})…`, { class: "menu-more" }, (ev) => {
    ev.stopPropagation();
    for (const button of menu.querySelectorAll(".more-entry")) button.hidden = false;
    for (const group of menu.querySelectorAll(".menu-group")) group.hidden = false;
    ev.currentTarget.remove();
    if (!menu.hidden) place(menu, lastAnchor);
  }));
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
  const list = offers(obj, zone).filter(({ action, param, typed }) => !menus.isJudge(action)
                                        && (param.required || typed) && menus.fits(action, obj, null));
  const many = (action) => list.filter((o) => o.action === action).length > 1;
  const more = list.flatMap(({ action, param, typed }) => {
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
    const attrs = { "data-action": action.name, "data-param": param.name, title: action.doc || "" };
    if (typed) attrs["data-typed"] = "yes";
    return [menuButton(label, attrs, () => openForm(action, given, ref, anchor))];
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
// ("Assyria (alice's hand)", "a card in alice's deck"); for a
// parameter of some types of card alone, only the cards seen to be of them.
function cardChoices(param) {
  const out = [];
  const view = state.view;
  const words = window.cardzonesWords;
  const role = param.role;
  const walk = (zone, obj, ref) => {
    if (ref && (role !== "acts_on" || mine(obj, zone)) && ofTypes(param, obj)) {
      const where = words.zone(zone.zone);
      out.push([ref, obj.hidden ? `a card in ${where}` : `${obj.name} (${where})`]);
    }
    for (const key of ["under", "placed"]) for (const kid of obj[key] || []) walk(zone, kid, kid.id || null);
  };
  for (const zone of view.zones) {
    // Cards the seat may not look at are all alike: a pile of them is
    // offered by its top and its bottom card, not once a card.
    const hidden = zone.objects.filter((o) => o.hidden && !o.id).length;
    let seen = 0;
    zone.objects.forEach((obj, i) => {
      if (obj.hidden && !obj.id) {
        seen += 1;
        if (zone.owner !== state.seat || !ofTypes(param, obj)) return;
        const where = words.zone(zone.zone);
        if (seen === 1) {
          out.push([`${zone.zone}[${i}]`, zone.ordered ? `the top card of ${where}` : `a card in ${where}`]);
        } else if (seen === hidden && zone.ordered) {
          out.push([`${zone.zone}[${i}]`, `the bottom card of ${where}`]);
        }
        return;
      }
      walk(zone, obj, obj.id || (zone.owner === state.seat ? `${zone.zone}[${i}]` : null));
    });
  }
  return out;
}

// The cards the seat's legal acts now name for a parameter of an action
// (the targets in play of a set-aside), or null when none of them fills
// that parameter: the rules leave it open, or the acts are not in yet.
function legalCards(actionName, param) {
  if (!actionName || !Array.isArray(state.legal) || state.legalNumber !== state.number) return null;
  const out = new Set();
  for (const entry of state.legal) {
    const args = entry && entry.act ? entry.act[actionName] : null;
    if (args && typeof args === "object" && args[param.name] !== undefined) [].concat(args[param.name]).forEach((v) => out.add(v));
  }
  return out.size ? out : null;
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
function field(param, value, prefix, actionName) {
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
    // Only the cards the rules would take, where the legal acts say which.
    const named = legalCards(actionName, param);
    const pickable = cardChoices(param).filter(([ref]) => !named || named.has(ref) || names(value, ref));
    options(input, pickable, param.kind === "card" && !param.required);
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
  // A change of a card's stats offers the stats the card has: each game's
  // own (power and defense, or strength and toughness), not every game's.
  // A card with none of them (a card with no numbers yet) is offered them all.
  const about = ref ? window.cardzonesMenus.objects(state.view).get(ref) : null;
  const own = about && !about.obj.hidden
    && action.params.some((p) => p.kind === "delta" && p.name in about.obj);
  const hasStat = (p) => p.kind !== "delta" || !own || p.name in about.obj;
  const shown = action.params
    .filter((p) => p.name !== action.actor && p.kind !== "action" && !others.includes(p.name))
    .filter(hasStat)
    .map((p) => (p.name === only ? { ...p, required: true } : p));
  for (const param of shown) form.appendChild(field(param, given[param.name], undefined, action.name));
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
