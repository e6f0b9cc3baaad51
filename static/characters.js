// The character panel (templates/characters.html): a <dialog> beside the table that the Characters
// section's forms open in. It opens when htmx draws a form into it, and closes when a save empties it,
// on Cancel or ✕, or on Esc (the browser's own for a modal dialog); closing forgets the form.
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
  document.addEventListener("htmx:afterSettle", (event) => {
    const dialog = panel();
    if (!dialog || event.detail.target !== dialog || !dialog.open) return;
    const invalid = dialog.querySelector(".is-invalid");
    const first = dialog.querySelector("input:not([type=hidden]):not([disabled]), select, textarea");
    if (invalid) invalid.focus();
    else if (first && !(dialog.contains(document.activeElement) && document.activeElement !== dialog
                            && !document.activeElement.matches("[data-close-panel]"))) first.focus();
  });
  document.addEventListener("click", (event) => {
    const dialog = panel();
    if (!dialog || !event.target.closest) return;
    if (event.target.closest("[data-close-panel]") || event.target === dialog) dialog.close();
  });
  document.addEventListener("close", (event) => {
    if (event.target === panel()) event.target.innerHTML = "";
  }, true);
})();
