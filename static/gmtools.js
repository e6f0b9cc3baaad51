// Drag and drop for the turn order. The server owns the order: on drop we post the new list
// and htmx swaps in what the server answers. The ↑/↓ buttons do the same from the keyboard.
(function () {
  let dragged = null;
  document.addEventListener("dragstart", (event) => {
    dragged = event.target.closest("[data-order-id]");
    if (!dragged) return;
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", dragged.dataset.orderId);
    dragged.classList.add("dragging");
  });
  document.addEventListener("dragover", (event) => {
    const list = event.target.closest("[data-order-list]");
    if (!list || !dragged || !list.contains(dragged)) return;
    event.preventDefault();
    const rows = [...list.querySelectorAll("[data-order-id]:not(.dragging)")];
    const after = rows.find((row) => event.clientY < row.getBoundingClientRect().top + row.offsetHeight / 2);
    list.insertBefore(dragged, after || null);
  });
  document.addEventListener("drop", (event) => {
    if (event.target.closest("[data-order-list]")) event.preventDefault();
  });
  document.addEventListener("dragend", () => {
    if (!dragged) return;
    const row = dragged;
    dragged = null;
    row.classList.remove("dragging");
    const list = row.closest("[data-order-list]");
    if (!list) return;
    const order = [...list.querySelectorAll("[data-order-id]")].map((r) => r.dataset.orderId).join(",");
    htmx.ajax("POST", list.dataset.orderUrl, { source: list, target: "#turn-order", swap: "outerHTML", values: { order } });
  });
})();

// The table's drop-down panels (players' link, export): one open at a time, closed by Esc or a click elsewhere.
(function () {
  const panels = () => document.querySelectorAll("details.dropdown-details[open]");
  document.addEventListener("toggle", (event) => {
    const opened = event.target;
    if (!opened.matches || !opened.matches("details.dropdown-details") || !opened.open) return;
    panels().forEach((other) => { if (other !== opened) other.open = false; });
  }, true);
  document.addEventListener("click", (event) => {
    panels().forEach((panel) => { if (!panel.contains(event.target)) panel.open = false; });
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") panels().forEach((panel) => { panel.open = false; });
  });
})();

// Refusals (422, see gmtools/views.py) show beside what was clicked: in the nearest section that has
// a place for them (the composer, a character's card, a roll's card, the time bar...), else in the
// table's message bar. The section's next successful request clears it; nothing else changes.
(function () {
  document.addEventListener("htmx:beforeSwap", (event) => {
    if (event.detail.xhr.status !== 422) return;
    const source = event.detail.requestConfig && event.detail.requestConfig.elt;
    const section = source && source.closest("[data-refusals]");
    const slot = section && section.querySelector("[data-refusal-slot]");
    if (!slot) return;
    event.detail.target = slot;
    event.detail.swapOverride = "innerHTML";
    // What the section said of its last success ("Rolled: ..." on a player's phone) is past: beside a
    // refusal it read as if this one went through too (the walkthrough of issue 24).
    section.querySelectorAll("[data-said-done]").forEach((said) => said.remove());
  });
  // Something done since: the table has moved on, and an old refusal would only mislead.
  document.addEventListener("htmx:afterRequest", (event) => {
    const method = (event.detail.requestConfig && event.detail.requestConfig.verb) || "get";
    if (!event.detail.successful || event.detail.xhr.status === 422 || method.toLowerCase() === "get") return;
    document.querySelectorAll("[data-refusal-slot], #table-messages").forEach((slot) => { slot.innerHTML = ""; });
  });
  document.addEventListener("click", (event) => {
    const close = event.target.closest && event.target.closest("[data-dismiss-refusal]");
    if (close) close.closest("[role=alert]").remove();
  });
})();

// After a roll, what it spent or decided (Willpower, stunt dice, invocations, specialty, secret)
// goes back to its default, so the next roll does not spend it again by mistake; the odds follow.
(function () {
  document.addEventListener("htmx:afterRequest", (event) => {
    const form = event.detail.elt;
    if (!form.matches || !form.matches("#composer") || !event.detail.successful || event.detail.xhr.status !== 200) return;
    const changed = [];
    form.querySelectorAll("[data-reset-after-roll]").forEach((field) => {
      if (field.type === "checkbox") {
        if (field.checked) { field.checked = false; changed.push(field); }
      } else if (field.tagName === "SELECT") {
        if (field.selectedIndex !== 0) { field.selectedIndex = 0; changed.push(field); }
      } else if (field.value !== (field.type === "number" ? "0" : "")) {
        // The opposition and the note were this roll's: the next one starts without them.
        field.value = field.type === "number" ? "0" : "";
        changed.push(field);
      }
    });
    // Each field says it changed (the opposing character's traits follow it); the odds follow once.
    changed.forEach((field) => field.dispatchEvent(new Event("change", { bubbles: true })));
    // What the GM composed was rolled: the composer may follow the turn order again (below).
    form.dispatchEvent(new CustomEvent("composer-rolled", { bubbles: true }));
  });
})();

// The composer follows the character picked in it. Asked here rather than by an hx-trigger on the
// select: a composer swapped in a moment ago is wired by htmx only when it settles, and a pick made
// before then (a quick GM, a test) would change the select and leave the rest of the composer behind.
(function () {
  document.addEventListener("change", (event) => {
    const select = event.target;
    if (!select.matches || !select.matches("#composer [name=character]")) return;
    htmx.ajax("GET", select.dataset.url, { source: select, target: "#composer-wrap", swap: "innerHTML",
                                           values: { character: select.value } })
      .catch(() => {}); // replaced by a later pick: nothing to do
  });
})();

// The composer's character, picked from elsewhere: a click on a character's card (not one of its
// buttons or fields) or on its name in the turn order, and the turn order's character to act.
//
// The composer follows "to act" each time it moves to another character (Next turn, a roll that
// ends an action, the same from another tab), unless the GM has changed a field of the composer
// since it was drawn or since the last roll: that roll in the making is kept, and the composer
// follows once it is rolled (or when the GM picks a character). A pick made by the GM meanwhile
// is the GM's: the composer does not jump away from it until "to act" moves again.
(function () {
  function pick(id) {
    const select = document.querySelector("#composer [name=character]");
    if (!select || select.value === id || ![...select.options].some((o) => o.value === id)) return;
    select.value = id;
    select.dispatchEvent(new Event("change", { bubbles: true }));  // brings its composer (above)
  }
  document.addEventListener("click", (event) => {
    const name = event.target.closest && event.target.closest("[data-pick-character]");
    if (name) { pick(name.dataset.pickCharacter); return; }
    const card = event.target.closest && event.target.closest(".character-card[id^='character-']");
    if (!card || event.target.closest("button, input, select, textarea, a, label, form, summary")) return;
    pick(card.id.replace("character-", ""));
  });

  const toAct = () => {
    const row = document.querySelector("#turn-order [aria-current=step][data-order-id]");
    return row ? row.dataset.orderId : null;
  };
  let seen = null; // "to act" when the composer was last in step with the turn order
  let drawn = null; // the composer form that was: a new one is in step
  // The GM's own changes (the character's brings a new composer; a reset after a roll is no change).
  const edit = (event) => {
    const form = event.target.closest && event.target.closest("#composer");
    if (form && event.target.name && event.target.name !== "character") form.dataset.edited = "";
  };
  document.addEventListener("input", edit);
  document.addEventListener("change", edit);

  let followed = null; // the character the composer moved to by itself: said under its list once drawn
  function follow() {
    const form = document.getElementById("composer");
    if (form !== drawn) {
      drawn = form;
      seen = toAct();
      const select = form && form.querySelector("[name=character]");
      if (select && followed === select.value) {
        // A GM about to roll for the character before would roll for another: the move is said.
        const note = document.createElement("div");
        note.className = "form-text followed-note";
        note.setAttribute("role", "status");
        note.dataset.testid = "followed-note";
        note.textContent = form.dataset.followedNote;
        select.classList.add("followed");
        select.insertAdjacentElement("afterend", note);
      }
      followed = null;
      return;
    }
    const now = toAct();
    if (now === seen || (form && "edited" in form.dataset)) return;
    seen = now;
    if (now) { followed = now; pick(now); }
  }
  document.addEventListener("composer-rolled", (event) => {
    delete event.target.dataset.edited;
    follow();
  });
  document.addEventListener("htmx:afterSettle", follow);
  document.addEventListener("live-applied", follow);
  document.addEventListener("DOMContentLoaded", follow);
})();

// The opposing character's traits follow it: its box comes back for the character picked (its best
// pool chosen, the dice typed beside it kept), then the odds price the new opposition.
(function () {
  document.addEventListener("change", (event) => {
    const select = event.target;
    if (!select.matches || !select.matches("#composer [name=opponent_character]")) return;
    const box = select.closest("[data-url]");
    const form = select.form;
    htmx.ajax("GET", box.dataset.url, { source: select, target: "#composer-opposition", swap: "outerHTML",
                                        values: { part: "opposition", opponent_character: select.value,
                                                  character: form.elements.character.value,
                                                  opponent_dice: (form.elements.opponent_dice || {}).value || 0 } })
      .then(() => document.body.dispatchEvent(new CustomEvent("composer-changed", { bubbles: true })))
      .catch(() => {}); // replaced by a later pick, or the composer redrawn meanwhile: nothing to do
  });
})();

// When the odds already know the roll will be refused (their warning shows), the Roll button says
// so and cannot be pressed; it comes back as soon as the odds accept the roll again.
(function () {
  document.addEventListener("htmx:afterSettle", (event) => {
    const odds = document.getElementById("odds");
    const button = document.getElementById("roll-button");
    if (!odds || !button || !(event.detail.elt === odds || odds.contains(event.detail.elt) || event.detail.elt.contains(odds))) return;
    const refused = odds.querySelector("[data-testid=odds-error]") !== null;
    button.disabled = refused;
    button.textContent = refused ? button.dataset.labelRefused : button.dataset.label;
    // What the turn leaves on offer (Exalted's Willpower, spent this turn or back with the next): the
    // odds, redrawn after each change at the table, name the composer's fields drawn unavailable now.
    const off = odds.querySelector("[data-disabled-fields]");
    if (!off) return;
    const names = off.dataset.disabledFields.split(" ").filter(Boolean);
    // A box still ticked stays so, and posts: the odds and Roll then say why it cannot be had (the
    // choice is the GM's or the player's to take back, never dropped unseen).
    odds.closest("form").querySelectorAll("[data-field] input[type=checkbox]").forEach((box) => {
      const disabled = names.includes(box.name) && !box.checked;
      box.disabled = disabled;
      const label = box.labels && box.labels[0];
      if (label) label.classList.toggle("text-body-secondary", disabled);
    });
  });
})();

// An opposed roll is judged against the other side, not the difficulty: the difficulty dims and
// says so while the composer has an opposition (an opposing character, dice, or in Fate an opponent's name).
(function () {
  function sync() {
    const form = document.getElementById("composer");
    if (!form) return;
    const dice = Number((form.querySelector("[name=opponent_dice]") || {}).value || 0);
    const named = form.dataset.opposedByName === "true" && (form.querySelector("[name=opponent]") || {}).value;
    const character = (form.querySelector("[name=opponent_character]") || {}).value;
    const difficulty = form.querySelector("[name=difficulty]");
    if (!difficulty) return;
    const opposed = dice > 0 || Boolean(named) || Boolean(character);
    difficulty.classList.toggle("opposed-ignored", opposed);
    difficulty.title = opposed ? form.dataset.opposedNote : "";
  }
  const inComposer = (event) => { if (event.target.closest && event.target.closest("#composer")) sync(); };
  document.addEventListener("input", inComposer);
  document.addEventListener("change", inComposer);  // a list picked (the opposing character), or reset after a roll
  document.addEventListener("htmx:afterSettle", sync);
  document.addEventListener("DOMContentLoaded", sync);
})();

// Progress bars (extended actions) carry their fill as data-percent: a Content Security Policy without
// 'unsafe-inline' refuses style="" in the markup, not a width set from a script. Filled on load, after
// each htmx swap and after each live change.
(function () {
  function fill(root) {
    root.querySelectorAll("[data-percent]").forEach((bar) => {
      bar.style.width = `${parseFloat(bar.dataset.percent.replace(",", ".")) || 0}%`;
    });
  }
  document.addEventListener("DOMContentLoaded", () => fill(document));
  document.addEventListener("htmx:afterSettle", () => fill(document));
  document.addEventListener("live-applied", () => fill(document));
})();

// The odds follow the composer: any change but the character's (that one brings a new composer), and
// typing in a number field. htmx would filter the events with expressions it evaluates, which the
// Content Security Policy refuses (no eval): they are told apart here and named for #odds' hx-trigger.
(function () {
  function tell(event, name) {
    if (event.target.closest && event.target.closest("#composer")) {
      document.body.dispatchEvent(new CustomEvent(name, { bubbles: true }));
    }
  }
  // The character's and the opposing character's changes are priced once their lists are redrawn.
  document.addEventListener("change", (e) => {
    if (e.target.name !== "character" && e.target.name !== "opponent_character") tell(e, "composer-changed");
  });
  document.addEventListener("input", (e) => { if (e.target.type === "number") tell(e, "composer-typed"); });
})();

// A field's maxlength stops typing and cuts pasted text without a word (a long name pasted from a wiki
// lost its end unseen): once the text reaches the limit, a note under the field says so; it goes
// again when the text is shorter.
(function () {
  function check(field) {
    if (!(field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) || field.maxLength <= 0) return;
    const full = field.value.length >= field.maxLength;
    let note = field.nextElementSibling && field.nextElementSibling.matches(".length-limit") ? field.nextElementSibling : null;
    if (full && !note) {
      note = document.createElement("div");
      note.className = "form-text text-warning-emphasis length-limit";
      note.setAttribute("role", "status");
      field.insertAdjacentElement("afterend", note);
    }
    if (note) {
      note.hidden = !full;
      note.textContent = full ? document.body.dataset.lengthLimit.replace("{max}", field.maxLength) : "";
    }
  }
  document.addEventListener("input", (event) => check(event.target));
})();

// "Roll into extended action" offers only the actions of the character in the composer and those
// nobody rolls yet (each option's data-roller, gmtools/composer.py RollerSelect): a roll goes into an
// action only for its roller, and the server refuses any other. The list is redrawn by the server
// for every tab at once (after a roll, a new action, a live change), so it is fitted here to this
// tab's composer; an action that is no longer this character's is no longer chosen.
(function () {
  function fit() {
    const form = document.getElementById("composer");
    const list = form && form.querySelector("[name=extended]");
    const who = form && form.querySelector("[name=character]");
    if (!list || !who) return;
    let dropped = false;
    list.querySelectorAll("option[data-roller]").forEach((option) => {
      const theirs = option.dataset.roller === "any" || option.dataset.roller === who.value;
      option.hidden = option.disabled = !theirs;
      if (!theirs && option.selected) { list.value = ""; dropped = true; }
    });
    if (dropped) list.dispatchEvent(new Event("change", { bubbles: true }));
  }
  // A list the composer keeps (data-keep-value) swapped out of band keeps the GM's choice, as the live
  // changes keep it (static/live.js): a new extended action is on offer, not chosen.
  document.addEventListener("htmx:oobBeforeSwap", (event) => {
    const old = event.detail.target;
    const fresh = event.detail.fragment && event.detail.fragment.firstElementChild;
    if (!old.matches("select[data-keep-value]") || !fresh || !fresh.matches("select")) return;
    const kept = [...fresh.options].find((o) => o.value === old.value);
    if (kept) [...fresh.options].forEach((o) => { o.defaultSelected = o === kept; });
  });
  document.addEventListener("DOMContentLoaded", fit);
  document.addEventListener("htmx:afterSettle", fit);
  document.addEventListener("live-applied", fit);

  // Picking an action selects the traits it is rolled with (its option's data-first and data-second):
  // the composer's character is already its roller (fit, above); the odds follow the traits' change.
  document.addEventListener("change", (event) => {
    const list = event.target;
    const form = list.closest && list.closest("#composer");
    const option = form && list.name === "extended" ? list.selectedOptions[0] : null;
    if (!option || !("first" in option.dataset)) return;
    const from = form.querySelector("[name=pool_from]");
    if (from) from.value = "traits";
    let changed = null;
    ["first", "second"].forEach((name) => {
      const field = form.querySelector(`[name=${name}]`);
      const value = option.dataset[name];
      if (field && [...field.options].some((o) => o.value === value)) { field.value = value; changed = field; }
    });
    if (changed) changed.dispatchEvent(new Event("change", { bubbles: true }));
  });
})();

// One click, one roll: the second click of a double click on Roll is not a second roll, even when
// the first one's answer came back in between (a quick server answers within a double click's
// interval, and the answer brings the next roll's key). While a roll is on its way the button is
// off and the form drops another submit (hx-disabled-elt, hx-sync in templates/table.html); the
// server refuses a key it has rolled (gmtools/services/rolls.py, refuse_made). The same for the
// buttons that roll at one click elsewhere (data-one-click: V5's Rouse on the card).
document.addEventListener("click", (event) => {
  if (event.detail > 1 && event.target.closest && event.target.closest("#roll-button, [data-one-click]")) {
    event.preventDefault();
    event.stopImmediatePropagation();
  }
}, true);

// A character's page (templates/player.html) follows the GM's switch "Players roll their own
// characters": when a change at the table says it flipped, the page is drawn again, with its
// composer or without (issue 24).
(function () {
  document.addEventListener("live-applied", () => {
    const wrap = document.querySelector("[data-rolling]");
    const state = document.getElementById("players-roll");
    if (wrap && state && wrap.dataset.rolling !== state.dataset.on) window.location.reload();
  });
})();

// A list of ticks redrawn from the server (Fate's aspects to invoke, [data-keep-ticks]) keeps what was
// ticked or unticked while its request was on the way: the redraw was composed before, the page is
// the latest word (issue 24's walkthrough: a tick 0–120 ms before a redraw went, and the roll without it).
(function () {
  const kept = new Map();
  const ticks = (element) => [...element.querySelectorAll("input[type=checkbox]")];
  document.addEventListener("htmx:beforeSwap", (event) => {
    const target = event.detail.target;
    if (target && target.matches && target.matches("[data-keep-ticks]") && target.id) {
      kept.set(target.id, new Map(ticks(target).map((box) => [`${box.name}=${box.value}`, box.checked])));
    }
  });
  document.addEventListener("htmx:afterSettle", (event) => {
    const element = event.detail.elt;
    const states = element && element.id && kept.get(element.id);
    if (!states) return;
    kept.delete(element.id);
    const drawn = document.getElementById(element.id);
    if (!drawn) return;
    ticks(drawn).forEach((box) => {
      const state = states.get(`${box.name}=${box.value}`);
      if (state !== undefined && !box.disabled) box.checked = state;
    });
  });
})();

// On a phone the turn order is one row scrolled sideways (static/gmtools.css): the one to act is brought
// into it, sideways only (the page itself does not move).
(function () {
  function centre() {
    const chips = document.querySelector(".player-head .turn-chips");
    const current = chips && chips.querySelector(".turn-current");
    if (!current || chips.scrollWidth <= chips.clientWidth) return;
    chips.scrollLeft = current.offsetLeft - chips.offsetLeft - (chips.clientWidth - current.offsetWidth) / 2;
  }
  document.addEventListener("DOMContentLoaded", centre);
  document.addEventListener("live-applied", centre);
})();

// A part that scrolls within itself ([data-keep-scroll]: the players' link panel), redrawn by a click in
// it (a link made, cut or renewed), stays where the GM was in it; static/live.js does the same when the
// table's other tabs redraw it.
(function () {
  const kept = new Map();
  document.addEventListener("htmx:beforeSwap", (event) => {
    const target = event.detail.target;
    if (target && target.id && target.querySelector) {
      const parts = [...target.querySelectorAll("[data-keep-scroll]")].map((part) => part.scrollTop);
      if (parts.length) kept.set(target.id, parts);
    }
  });
  document.addEventListener("htmx:afterSwap", () => {
    kept.forEach((parts, id) => {
      const drawn = document.getElementById(id);
      if (drawn) drawn.querySelectorAll("[data-keep-scroll]").forEach((part, i) => { if (parts[i]) part.scrollTop = parts[i]; });
    });
    kept.clear();
  });
})();

// A new campaign's time zone is the GM's browser's (gmtools.views.CampaignForm): every time shown reads in it.
document.addEventListener("DOMContentLoaded", () => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zone) document.querySelectorAll("input[data-browser-zone]").forEach((input) => { input.value = zone; });
});

// Focus that a redraw took away comes back (issue 26): Next turn, Start scene and the like redraw the
// part that holds their own button (htmx's answer, then the GM's stream), and the focus fell to the
// page's body, three Tabs from where the GM was. In a part marked data-keep-focus (the time bar, the
// turn order), the control focused last, once gone from the page, hands the focus to what it names
// in data-focus-after (Start scene: the new scene's Next turn), else to its namesake in what replaced
// it (the same id: Next turn), else to the redrawn part. Only then: a focus the GM moved
// elsewhere meanwhile is left alone, and a part not marked (the composer, whose arrows are the
// turn order's keys once its field is left) keeps the browser's own way.
(function () {
  let last = null; // { element, id, after, part }
  document.addEventListener("focusin", (event) => {
    const element = event.target;
    const part = element.closest && element.closest("[data-keep-focus][id]");
    last = part ? { element, id: element.id, after: element.dataset.focusAfter, part: part.id } : null;
  });
  const visible = (element) => element && element.getClientRects().length > 0;
  function restore() {
    if (!last || last.element.isConnected) return;
    if (document.activeElement && document.activeElement !== document.body) return;
    const candidates = [last.after && document.querySelector(last.after), last.id && document.getElementById(last.id),
                        last.part && document.getElementById(last.part)];
    const target = candidates.find(visible);
    if (!target) return;
    if (!target.matches("a[href], button, input, select, textarea, summary, [tabindex]")) target.setAttribute("tabindex", "-1");
    target.focus();
  }
  document.addEventListener("htmx:afterSettle", restore);
  document.addEventListener("live-applied", restore);
})();

// A skip link (base.html's skip block) takes the focus to the first field of its target (the composer),
// not merely scrolls there: the next Tab is then the composer's, not the page's header.
(function () {
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a[data-skip-to]");
    if (!link) return;
    const target = document.querySelector(link.getAttribute("href"));
    const field = target && target.querySelector("select, input:not([type=hidden]), textarea, button");
    if (!field) return;
    event.preventDefault();
    field.focus();
  });
})();
