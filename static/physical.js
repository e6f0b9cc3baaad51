// "I rolled real dice" (issue 24, templates/physical.html, gmtools/physical.py): ticked, the entry
// shows; the keypad appends a face to the list being filled (the dice, then V5's Hunger dice), ⌫
// takes the last one off, each list counts "3 of 5" against the roll as composed (the odds panel's
// [data-physical-wanted], redrawn as the roll changes), scifi's 10s add a die each as they come, and
// Enter rolls. Typing "7 8 2 0" works too. The server checks it all again: this only helps.
(function () {
  const SEPARATORS = /[\s,;]+/;
  const FATE = { "-": -1, "−": -1, "-1": -1, "−1": -1, "0": 0, "+": 1, "+1": 1, "1": 1 };
  // One token a die; a run typed with no separator is a die a character ("78201", "--0+"), but Fate's
  // "-1"/"+1" and a d10's one or two digits read whole (gmtools/physical.py, _dice).
  const run = (token, fate) => (fate ? !(token in FATE) && /^[-−0+]+$/.test(token) : /^[0-9]{3,}$/.test(token));
  const tokens = (input, fate) => input.value.split(SEPARATORS).filter(Boolean)
    .flatMap((token) => (run(token, fate) ? [...token] : [token]));
  const fateOf = (box) => Boolean((wanted(box) || {}).fate);
  const face = (token, fate) => (fate ? FATE[token] : (token === "0" ? 10 : Number(token)));

  function wanted(box) {
    const form = box.closest("form");
    const span = form && form.querySelector("[data-physical-wanted]");
    if (!span) return null;
    return { dice: Number(span.dataset.dice), hunger: Number(span.dataset.hunger),
             explodes: span.dataset.explodes ? Number(span.dataset.explodes) : null, fate: span.dataset.fate === "true" };
  }

  // How many normal dice the faces call for: the pool, and one more for each exploding face among
  // them (rules.dice.Entry.wanted).
  function normalWanted(entry, faces) {
    let want = entry.dice;
    for (let i = 0; entry.explodes !== null && i < Math.min(want, faces.length); i++) {
      if (faces[i] === entry.explodes) want += 1;
    }
    return want;
  }

  const rows = (box) => [...box.querySelectorAll("[data-physical-row]")].filter((row) => !row.hidden);

  // Each list's count, the explosions, which keypad; what each list still wants (Infinity: unknown).
  function update(box) {
    const on = toggleOf(box).checked;
    box.querySelector("[data-physical-entry]").hidden = !on;
    const entry = wanted(box);
    const fate = Boolean(entry && entry.fate);
    box.querySelectorAll("[data-keypad]").forEach((pad) => { pad.hidden = (pad.dataset.keypad === "fate") !== fate; });
    const normal = box.querySelector("[data-physical-row=faces]");
    normal.querySelector("input").placeholder = fate ? box.dataset.exampleFate : box.dataset.exampleD10;
    const hunger = box.querySelector("[data-physical-row=hunger_faces]");
    hunger.hidden = !(entry && entry.hunger);
    if (entry && !entry.hunger) hunger.querySelector("input").value = "";  // a roll without Hunger dice posts none
    const given = tokens(normal.querySelector("input"), fate);
    const want = entry ? normalWanted(entry, given.map((t) => face(t, fate))) : null;
    const count = (row, n, of) => {
      row.dataset.want = of === null ? "Infinity" : String(of);
      row.dataset.given = String(n);
      row.querySelector("[data-physical-count]").textContent =
        of === null ? "" : box.dataset.countText.replace("{given}", n).replace("{wanted}", of);
    };
    count(normal, given.length, want);
    if (!hunger.hidden) count(hunger, tokens(hunger.querySelector("input"), false).length, entry.hunger);
    const more = entry && want !== null ? want - entry.dice : 0;
    const note = box.querySelector("[data-physical-explosions]");
    note.hidden = more <= 0;
    note.textContent = more === 1 ? box.dataset.explosionsOne : box.dataset.explosionsMany.replace("{n}", more);
  }

  // The list a key goes to: the one last typed in or tapped while it wants more, else the first that does.
  function target(box) {
    const shown = rows(box);
    const wants = (row) => Number(row.dataset.given) < Number(row.dataset.want);
    const last = shown.find((row) => row.dataset.physicalRow === box.dataset.active);
    if (last && wants(last)) return last;
    return shown.find(wants) || last || shown[0];
  }

  function press(box, key) {
    const backspace = key === "Backspace";
    let row = target(box);
    const fate = fateOf(box);
    if (backspace && !tokens(row.querySelector("input"), fate).length) {
      row = rows(box).reverse().find((r) => tokens(r.querySelector("input"), fate).length) || row;
    }
    const input = row.querySelector("input");
    const list = tokens(input, fate);
    if (backspace) list.pop(); else list.push(key);
    input.value = list.join(" ");
    box.dataset.active = row.dataset.physicalRow;
    update(box);
  }

  // The entry of the form the element is in (its toggle is beside the form's Roll button, outside the entry).
  const boxOf = (element) => {
    const form = element && element.closest && element.closest("form");
    return form && form.querySelector("[data-physical]");
  };
  const toggleOf = (box) => box.closest("form").querySelector("[data-physical-toggle]");

  document.addEventListener("click", (event) => {
    const key = event.target.closest && event.target.closest("[data-physical] [data-key]");
    if (key) press(boxOf(key), key.dataset.key);
  });
  document.addEventListener("focusin", (event) => {
    const row = event.target.closest && event.target.closest("[data-physical-row]");
    if (row) boxOf(row).dataset.active = row.dataset.physicalRow;
  });
  document.addEventListener("input", (event) => {
    const box = event.target.closest && event.target.closest("[data-physical]");
    if (box) update(box);
  });
  document.addEventListener("change", (event) => {
    const box = boxOf(event.target);
    if (!box || !event.target.matches("[data-physical-toggle]")) return;
    // A table that throws real dice goes on throwing them: kept across the composer's redraws in this tab,
    // for this campaign's composer or this character's link alone (data-remember): another table's starts unticked.
    sessionStorage.setItem(box.dataset.remember, event.target.checked ? "on" : "");
    update(box);
    const first = box.querySelector("[data-physical-row=faces] input");
    if (event.target.checked && window.matchMedia("(pointer: fine)").matches) first.focus();
  });
  // Enter rolls from anywhere in the entry (a keypad button would otherwise press itself again); the
  // keyboard's faces and Backspace work on the keypad as on its buttons.
  document.addEventListener("keydown", (event) => {
    const box = event.target.closest && event.target.closest("[data-physical]");
    if (!box || event.target.matches("input[type=text]")) return;
    if (event.key === "Enter") {
      event.preventDefault();
      const form = box.closest("form");
      const button = form.querySelector("button[type=submit]");
      if (!button || button.disabled) return;
      // As keys.js's R: a form swapped in a moment ago is wired by htmx now, so the roll is never the browser's own post.
      if (window.htmx) htmx.process(form);
      button.click();
    } else if (event.target.matches("[data-key]") && /^([0-9+\-]|Backspace)$/.test(event.key)) {
      event.preventDefault();
      press(box, event.key);
    }
  });

  // A check from a character's card (V5's rouse check: [data-physical-check]) while the composer's
  // "I rolled real dice" is ticked: the face thrown is asked for as the click leaves (views.check);
  // cancelled, nothing is rolled.
  document.addEventListener("htmx:confirm", (event) => {
    const button = event.target.closest && event.target.closest("[data-physical-check]");
    if (!button) return;
    const toggle = document.querySelector("[data-physical-toggle]");
    if (!(toggle && toggle.checked)) { button.removeAttribute("hx-vals"); return; }
    event.preventDefault();
    const faces = window.prompt(button.dataset.physicalCheck);
    if (faces === null) return;
    button.setAttribute("hx-vals", JSON.stringify({ physical: "on", faces }));
    event.detail.issueRequest(true);
  });

  function drawn() {
    document.querySelectorAll("[data-physical]").forEach((box) => {
      const toggle = toggleOf(box);
      if (!("drawnOnce" in box.dataset)) {
        box.dataset.drawnOnce = "";
        toggle.checked = toggle.checked || sessionStorage.getItem(box.dataset.remember) === "on";
      }
      update(box);
    });
  }
  document.addEventListener("DOMContentLoaded", drawn);
  document.addEventListener("htmx:afterSettle", drawn);
  // A roll made: its faces were that roll's; the next starts empty.
  document.addEventListener("htmx:afterRequest", (event) => {
    const form = event.detail.elt;
    if (!form.matches || !event.detail.successful || event.detail.xhr.status !== 200) return;
    const box = form.querySelector && form.querySelector("[data-physical]");
    if (!box || (event.detail.requestConfig && event.detail.requestConfig.verb) !== "post") return;
    box.querySelectorAll("[data-physical-row] input").forEach((input) => { input.value = ""; });
    delete box.dataset.active;
    update(box);
  });
})();
