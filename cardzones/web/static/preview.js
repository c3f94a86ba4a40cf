// A closer look at a card: hovering a card (or tapping it) opens a large
// preview with its name, types, stats, counters and text, made from the
// card's object in this viewer's view and nothing else. A card the viewer
// may not see is an object with no face ({"hidden": true}): its preview is
// the back alone. The card's picture is shown only when the server was
// started with pictures on (serve --images) and the view gives the card an
// https address; the browser loads it from there, never through the server.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  // Object keys that are not shown as stats.
  const META = new Set(["id", "name", "types", "keywords", "public", "owner", "controller",
                        "under", "placed", "equipped_to", "hidden", "text", "image",
                        "counters", "face_down"]);
  let pinned = false;
  let shownFor = null;

  function words(text) {
    return String(text).replace(/_/g, " ");
  }

  function statRows(obj) {
    const rows = [];
    for (const [key, value] of Object.entries(obj)) {
      if (META.has(key) || value === null || value === undefined) continue;
      if (typeof value === "object" && !Array.isArray(value)) continue;
      const text = Array.isArray(value) ? value.map(words).join(", ") : String(value);
      rows.push(h("div", { class: "p-stat", "data-stat": key },
                  h("dt", { text: words(key) }), h("dd", { text })));
    }
    return rows;
  }

  function counterRows(obj) {
    const counters = obj.counters;
    if (!counters || typeof counters !== "object") return [];
    const entries = Array.isArray(counters) ? counters.map((c) => [c.kind || c.name, c.count])
      : Object.entries(counters);
    return entries.filter(([, n]) => n).map(([kind, n]) =>
      h("li", { class: "p-counter", "data-counter": kind, text: `${n} × ${words(kind)}` }));
  }

  // A paragraph of rules text with its marks drawn, never parsed as HTML:
  // **words** in bold, and each of the rule set's symbols ({r}) as its glyph,
  // named by its words for a screen reader and on hover.
  function rich(para, symbols) {
    const out = [];
    const marks = /\*\*([^*]+)\*\*|\{([a-z]+)\}/g;
    let last = 0;
    for (let found = marks.exec(para); found; found = marks.exec(para)) {
      if (found.index > last) out.push(para.slice(last, found.index));
      const symbol = found[2] !== undefined ? (symbols || {})[found[2]] : null;
      if (found[1] !== undefined) out.push(h("strong", { text: found[1] }));
      else if (Array.isArray(symbol)) {
        out.push(h("span", { class: "p-symbol", "data-symbol": found[2], title: symbol[0],
                             "aria-label": symbol[0], text: symbol[1] }));
      } else out.push(found[0]);
      last = marks.lastIndex;
    }
    if (last < para.length) out.push(para.slice(last));
    return out;
  }

  // The preview of one object; `where` names its zone in words.
  function build(obj, where, facedown, images, symbols) {
    const box = clear($("preview"));
    if (obj.hidden) {
      box.appendChild(h("div", { class: "p-back", "aria-label": "the back of a card" }));
      box.appendChild(h("p", { class: "p-where", text: `a card you may not see, in ${where}` }));
      return box;
    }
    if (images && typeof obj.image === "string" && obj.image.startsWith("https://")) {
      box.appendChild(h("img", { class: "p-image", src: obj.image, alt: obj.name,
                                 referrerpolicy: "no-referrer" }));
    }
    box.appendChild(h("h3", { class: "p-name", text: obj.name }));
    if (Array.isArray(obj.types) && obj.types.length) {
      box.appendChild(h("div", { class: "p-types", text: obj.types.map(words).join(" · ") }));
    }
    if (Array.isArray(obj.keywords) && obj.keywords.length) {
      box.appendChild(h("div", { class: "p-keywords", text: obj.keywords.map(words).join(" · ") }));
    }
    const stats = statRows(obj);
    if (stats.length) box.appendChild(h("dl", { class: "p-stats" }, stats));
    const counters = counterRows(obj);
    if (counters.length) box.appendChild(h("ul", { class: "p-counters" }, counters));
    if (typeof obj.text === "string" && obj.text) {
      for (const para of obj.text.split(/\n+/)) box.appendChild(h("p", { class: "p-text" }, rich(para, symbols)));
    }
    const notes = [];
    if (facedown) notes.push("face down");
    if (Array.isArray(obj.under) && obj.under.length) notes.push(`${obj.under.length} under it`);
    if (Array.isArray(obj.placed) && obj.placed.length) notes.push(`${obj.placed.length} placed on it`);
    notes.push(`in ${where}`);
    box.appendChild(h("p", { class: "p-where", text: notes.join(" · ") }));
    return box;
  }

  // options: images (the server shows pictures), pin (stays until hide(true)),
  // facedown (a face-down card in a public zone that this viewer may see).
  function show(obj, where, options) {
    const { pin, facedown, near, images, symbols } = options || {};
    if (pinned && !pin) return;
    pinned = Boolean(pin);
    shownFor = obj;
    const box = build(obj, where, facedown, images, symbols);
    box.dataset.pinned = pinned ? "yes" : "";
    // On the other side of the window from the card, so that it hides
    // neither the card nor its menu.
    box.dataset.side = near && near.left + near.width / 2 > innerWidth / 2 ? "left" : "right";
    box.hidden = false;
  }

  function hide(force) {
    if (pinned && !force) return;
    pinned = false;
    shownFor = null;
    const box = $("preview");
    box.hidden = true;
    clear(box);
  }

  window.cardzonesPreview = Object.freeze({
    show, hide,
    get shown() { return shownFor; },
  });
})();
