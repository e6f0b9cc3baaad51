// Faster rolls from a character's card (issue 10).
// A trait chip puts that character and that trait in the composer: an Attribute (Approach) goes to
// the composer's first trait, an Ability or Skill to its second, a pool chip (Willpower roll) to
// "Roll"; the odds follow. For the character already in the composer the choice is made in place
// (the difficulty and options stay); for another, the composer comes back for it with that trait.
(function () {
  function composer() { return document.getElementById("composer"); }

  // What was asked of a composer still on its way (an Attribute, then quickly an Ability: both kept).
  let pending = null;

  function choose(chip) {
    const form = composer();
    const select = form && form.querySelector("[name=character]");
    if (!select) return;
    const character = chip.dataset.characterId;
    const which = chip.dataset.quick; // first | second | pool
    if (select.value === character && !(pending && pending.character === character)) {
      htmx.process(form); // a composer swapped in a moment ago: its odds follow this change too
      let changed = null;
      if (which === "pool") {
        const from = form.querySelector("[name=pool_from]");
        if (from) { from.value = chip.dataset.pool; changed = from; }
      } else {
        const field = form.querySelector(`[name=${which}]`);
        if (!field) return;
        field.value = chip.dataset.trait;
        changed = field;
        const from = form.querySelector("[name=pool_from]");
        if (from && from.value !== "traits") from.value = "traits";
      }
      if (changed) changed.dispatchEvent(new Event("change", { bubbles: true }));
      mark();
      return;
    }
    const values = pending && pending.character === character ? { ...pending } : { character };
    if (which === "pool") values.pool_from = chip.dataset.pool;
    else { values[which] = chip.dataset.trait; delete values.pool_from; }
    pending = values;
    htmx.ajax("GET", select.dataset.url, { source: select, target: "#composer-wrap", swap: "innerHTML", values })
      .catch(() => {}); // replaced by a later click: nothing to do
  }

  document.addEventListener("click", (event) => {
    const chip = event.target.closest && event.target.closest("[data-quick]");
    if (chip) choose(chip);
  });

  // The chips of what the composer holds are drawn pressed.
  function mark() {
    const form = composer();
    const value = (name) => ((form && form.querySelector(`[name=${name}]`)) || {}).value;
    const character = value("character");
    const from = value("pool_from") || "traits";
    document.querySelectorAll("[data-quick]").forEach((chip) => {
      let on = false;
      if (chip.dataset.characterId === character) {
        on = chip.dataset.quick === "pool" ? from === chip.dataset.pool
          : from === "traits" && value(chip.dataset.quick) === chip.dataset.trait;
      }
      chip.classList.toggle("active", on);
      chip.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }
  document.addEventListener("change", (event) => { if (event.target.closest && event.target.closest("#composer")) mark(); });
  document.addEventListener("DOMContentLoaded", mark);

  // A card's trait list stays open (or closed) as the GM left it, through every redraw of the card
  // and a reload of the page.
  const KEY = "gmtools-open";
  const remembered = () => { try { return new Set(JSON.parse(localStorage.getItem(KEY) || "[]")); } catch (e) { return new Set(); } };
  document.addEventListener("toggle", (event) => {
    const details = event.target;
    if (!details.dataset || !details.dataset.rememberOpen) return;
    const open = remembered();
    if (details.open) open.add(details.dataset.rememberOpen); else open.delete(details.dataset.rememberOpen);
    try { localStorage.setItem(KEY, JSON.stringify([...open])); } catch (e) { /* private mode: not remembered */ }
  }, true);
  document.addEventListener("htmx:afterSettle", () => {
    const select = document.querySelector("#composer [name=character]");
    if (pending && select && select.value === pending.character) pending = null;
  });

  function restore() {
    const open = remembered();
    document.querySelectorAll("details[data-remember-open]:not([open])").forEach((details) => {
      if (open.has(details.dataset.rememberOpen)) details.open = true;
    });
    mark();
  }
  // After htmx draws (a click's answer, out of band too) and after a live change (static/live.js).
  htmx.onLoad(restore);
  document.addEventListener("htmx:afterSettle", restore);
  document.addEventListener("live-applied", restore);

})();
