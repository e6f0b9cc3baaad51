// The table's keys (issue 10), listed in the help dialog that ? opens (templates/quick.html):
//   R        rolls what the composer shows (not while typing in a field);
//   Esc      closes a dialog (a modal one by the browser's own Esc), else a panel (one with a visible
//            [data-esc-close] button: Esc clicks it), else the open lists and drop-downs;
//   ↑ / ↓    picks the previous / next character of the turn order in the composer (the cards'
//            order when no scene is in play);
//   N        next turn (the time bar's Next turn, while a scene is in play);
//   ?        shows the help.
(function () {
  const TEXT_INPUTS = new Set(["text", "number", "search", "email", "password", "url", "tel", "date", "time",
                               "datetime-local", "month", "week"]);

  // Typing in a field: the key is the field's (a letter, an arrow moving the caret or the choice).
  function typing(target) {
    if (!target || !target.closest) return false;
    if (target.isContentEditable || target.closest("textarea")) return true;
    if (target.tagName === "INPUT") return TEXT_INPUTS.has((target.type || "text").toLowerCase());
    return false;
  }
  // Where the arrows are the field's own: a list, radio buttons, a slider.
  const ownsArrows = (target) => Boolean(target && (target.tagName === "SELECT" || ["radio", "range"].includes(target.type)));
  const openDialog = () => [...document.querySelectorAll("dialog[open]")].pop();

  function roll() {
    const button = document.getElementById("roll-button");
    const form = document.getElementById("composer");
    if (!button || button.disabled || !form || form.classList.contains("htmx-request")) return;
    // A composer swapped in a moment ago is wired by htmx a little later: wire it now (once; htmx
    // skips what it has already processed), so the roll is htmx's post, never the browser's own submit.
    htmx.process(form);
    button.click();
  }

  // The turn order's characters (or the cards'), and the one the composer holds.
  function step(by) {
    const select = document.querySelector("#composer [name=character]");
    if (!select) return;
    let ids = [...document.querySelectorAll("#turn-order [data-order-id]")].map((row) => row.dataset.orderId);
    if (!ids.length) ids = [...document.querySelectorAll(".character-card[id^='character-']")].map((c) => c.id.replace("character-", ""));
    ids = ids.filter((id) => [...select.options].some((o) => o.value === id));
    if (!ids.length) return;
    const at = ids.indexOf(select.value);
    const next = at < 0 ? (by > 0 ? 0 : ids.length - 1) : (at + by + ids.length) % ids.length;
    if (ids[next] === select.value) return;
    select.value = ids[next];
    select.dispatchEvent(new Event("change", { bubbles: true }));  // static/gmtools.js brings its composer
    const card = document.getElementById(`character-${ids[next]}`);
    if (card) card.scrollIntoView({ block: "nearest" });
  }

  function escape(event) {
    const dialog = openDialog();
    if (dialog) {
      // A modal dialog (the help, the character panel) closes by the browser's own Esc (its cancel event).
      if (!dialog.matches(":modal")) { dialog.close(); event.preventDefault(); }
      return;
    }
    const panels = [...document.querySelectorAll("[data-esc-close]")].filter((b) => b.offsetParent !== null);
    if (panels.length) { panels.pop().click(); return; }
    // The open lists and drop-downs; a card's trait list is a view the GM chose, and stays.
    document.querySelectorAll("details[open]:not([data-remember-open])").forEach((details) => {
      details.open = false;
      if (details.contains(document.activeElement)) document.activeElement.blur();
    });
  }

  function help() {
    const dialog = document.getElementById("keys-help");
    if (dialog && !dialog.open) dialog.showModal();
  }

  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Escape") { escape(event); return; }
    if (openDialog() || typing(event.target)) return;
    if ((event.key === "r" || event.key === "R") && !event.repeat) {
      event.preventDefault(); // also keeps a focused choice from jumping to an option starting with R
      roll();
    } else if ((event.key === "n" || event.key === "N") && !event.repeat) {
      const next = document.getElementById("next-turn");
      if (next) { event.preventDefault(); next.click(); }
    } else if (event.key === "?") {
      event.preventDefault();
      help();
    } else if ((event.key === "ArrowDown" || event.key === "ArrowUp") && !ownsArrows(event.target)) {
      event.preventDefault();
      step(event.key === "ArrowDown" ? 1 : -1);
    }
  });

  document.addEventListener("click", (event) => {
    if (event.target.closest && event.target.closest("[data-keys-help]")) help();
    const close = event.target.closest && event.target.closest("[data-close-dialog]");
    if (close) close.closest("dialog").close();
  });
  // A click on the dialog's backdrop closes it.
  document.addEventListener("click", (event) => {
    if (event.target.id !== "keys-help") return;
    const box = event.target.getBoundingClientRect();
    const inside = box.left <= event.clientX && event.clientX <= box.right && box.top <= event.clientY && event.clientY <= box.bottom;
    if (!inside) event.target.close();
  });
})();
