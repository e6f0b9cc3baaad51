// The character panel (templates/characters.html): a <dialog> beside the table that the Characters
// section's forms open in. It opens when htmx draws a form into it, and closes when a save empties it,
// on Cancel or ✕, or on Esc (the browser's own for a modal dialog); closing forgets the form, so
// closing a sheet with unsaved edits asks first (and so does leaving the page).
(function () {
  const panel = () => document.getElementById("character-panel");
  document.addEventListener("htmx:afterSwap", (event) => {
    const dialog = panel();
    if (!dialog || event.detail.target !== dialog) return;
    if (dialog.children.length) {
      if (!dialog.open) dialog.showModal();
    } else if (dialog.open) {
      dialog.close();
    }
  });
  // Once htmx has settled (and restored focus where it could): a refused form focuses its first
  // field in error, a new form its first field (showModal() has put the focus on ✕, the first button).
  // A trait row's fields are marked by aria-invalid alone (their classes are the row's): a refused
  // row far down the sheet is scrolled to, its error beside it, the summary still atop the sheet.
  document.addEventListener("htmx:afterSettle", (event) => {
    const dialog = panel();
    if (!dialog || event.detail.target !== dialog || !dialog.open) return;
    const invalid = dialog.querySelector(".is-invalid, [aria-invalid=true]");
    const first = dialog.querySelector("input:not([type=hidden]):not([disabled]), select, textarea");
    if (invalid) invalid.focus();
    else if (first && !(dialog.contains(document.activeElement) && document.activeElement !== dialog
                            && !document.activeElement.matches("[data-close-panel]"))) first.focus();
  });

  // A category's "Add": the next row, copied from the formset's empty form (its <template>), counted in
  // TOTAL_FORMS so that the formset reads it; as many as wanted, all saved with the sheet.
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-add-row]");
    const rows = button && button.closest("[data-rows]");
    if (!rows) return;
    const total = rows.querySelector(`input[name="${rows.dataset.rows}-TOTAL_FORMS"]`);
    const copy = document.createElement("template");
    copy.innerHTML = rows.querySelector("template[data-empty-row]").innerHTML.replaceAll("__prefix__", total.value);
    const row = copy.content.firstElementChild;
    rows.querySelector("[data-row-list]").append(row);
    total.value = Number(total.value) + 1;
    const first = row.querySelector("input:not([type=hidden]), select, textarea");
    if (first) first.focus();
  });

  // Unsaved: a field of the sheet no longer as drawn (a row added and left blank is nothing to lose),
  // or a sheet the server refused (drawn with what was typed, none of it saved).
  function changed(field) {
    if (!field.name || ["hidden", "button", "submit"].includes(field.type)) return false;
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") return [...field.options].some((o) => o.selected !== o.defaultSelected);
    return field.value !== field.defaultValue;
  }
  function unsaved() {
    const dialog = panel();
    const sheet = dialog && dialog.open && dialog.querySelector("form[data-unsaved]");
    if (!sheet) return null;
    return sheet.hasAttribute("data-refused") || [...sheet.elements].some(changed) ? sheet : null;
  }
  // Close the panel, after asking if that would throw edits away; false if the GM keeps them.
  function closePanel() {
    const sheet = unsaved();
    if (sheet && !window.confirm(sheet.dataset.unsaved)) return false;
    panel().close();
    return true;
  }
  document.addEventListener("click", (event) => {
    const dialog = panel();
    if (!dialog || !event.target.closest) return;
    if (event.target.closest("[data-close-panel]") || event.target === dialog) closePanel();
  });
  // Esc: asked before the browser's own close of a modal dialog, which a second Esc in a row (no
  // click or typing between them) would do without a cancelable "cancel" event.
  document.addEventListener("keydown", (event) => {
    const dialog = panel();
    if (event.key !== "Escape" || !dialog || !dialog.open || !unsaved()) return;
    event.preventDefault();
    event.stopPropagation();
    closePanel();
  }, true);
  document.addEventListener("cancel", (event) => {
    if (event.target !== panel() || !unsaved()) return;
    event.preventDefault();
    closePanel();
  }, true);
  window.addEventListener("beforeunload", (event) => {
    if (!unsaved()) return;
    event.preventDefault();
    event.returnValue = "";  // older browsers ask only when this is set
  });
  document.addEventListener("close", (event) => {
    if (event.target === panel()) event.target.innerHTML = "";
  }, true);
})();
