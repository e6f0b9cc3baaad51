// The table, live: apply each change the server streams (gmtools/live/), in order, once.
//
// The page starts at a cursor, the last change it already shows (data-cursor). Each event carries
// the change's id and the fragments it redraws, each with the id of the element it replaces; a
// roll's card goes into the log at its place by roll id. An id at or below the cursor is skipped,
// so a change that arrives twice (a reconnect, the GM's own action echoed back) is drawn once.
//
// Reconnecting: htmx's SSE extension, and a browser's own EventSource retry, do not resume from
// where we are (the retry repeats the first URL), so the stream is reopened here, with the cursor
// in the URL, after an error, when the phone wakes up or comes back online. When a stream cannot
// connect at all (a proxy that buffers, a server without streams), the page polls instead.
(function () {
  const root = document.querySelector("[data-live]");
  if (!root) return;
  let cursor = Number(root.dataset.cursor || 0);
  let source = null;
  let failures = 0;
  let retry = null;
  let pollTimer = null;
  let gone = false;

  function setStatus(state) {
    document.querySelectorAll("[data-live-status]").forEach((el) => { el.dataset.liveStatus = state; });
  }

  // Keep what the viewer has open (a <details>), and what they were typing or choosing, when its
  // element is redrawn: a change made elsewhere must not wipe a number half-typed into a card.
  function edited(field) {
    if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
    if (field.tagName === "SELECT") return [...field.options].some((o) => o.selected !== o.defaultSelected);
    return field.value !== field.defaultValue;
  }
  // A <details> is known by its classes and its rank among those with the same classes, not by its
  // rank alone: a redraw that adds or drops one (a scene's own panels) must not open or close another.
  function detailsByKey(root) {
    const seen = new Map();
    return [...root.querySelectorAll("details")].map((d) => {
      const rank = (seen.get(d.className) || 0) + 1;
      seen.set(d.className, rank);
      return [`${d.className}:${rank}`, d];
    });
  }
  function keepOpen(from, to) {
    const open = new Set(detailsByKey(from).filter(([, d]) => d.open).map(([key]) => key));
    detailsByKey(to).forEach(([key, d]) => { if (open.has(key)) d.open = true; });
    if (from.matches("details") && from.open) to.open = true;
    const fields = (el) => (el.matches("input, select, textarea") ? [el] : [...el.querySelectorAll("input, select, textarea")]);
    const twins = fields(to);
    fields(from).forEach((field, i) => {
      const twin = twins[i];
      if (!twin || twin.name !== field.name || twin.type !== field.type) return;
      const focused = document.activeElement === field;
      if (field.tagName === "SELECT") {
        // The composer's own lists (data-keep-value) are the GM's choice, whatever the server drew.
        const keep = edited(field) || field.hasAttribute("data-keep-value");
        if (keep && [...twin.options].some((o) => o.value === field.value)) twin.value = field.value;
      } else if (field.type === "checkbox" || field.type === "radio") {
        if (edited(field)) twin.checked = field.checked;
      } else if (edited(field)) {
        twin.value = field.value;
      }
      if (focused) requestAnimationFrame(() => twin.focus());
    });
  }

  function activate(el) {
    if (window.htmx) htmx.process(el);
  }

  function placeCard(card) {
    const log = document.querySelector("[data-log]") || document.getElementById("log-list");
    if (!log) return;
    const old = document.getElementById(card.id);
    if (old) { keepOpen(old, card); old.replaceWith(card); activate(card); return; }
    if (log.dataset.filtered === "true") return; // the GM is reading a filtered log
    const id = Number(card.dataset.roll);
    const after = [...log.querySelectorAll(":scope > [data-roll]")].find((c) => Number(c.dataset.roll) < id);
    if (after) after.before(card);
    else if (!log.querySelector("#log-more")) log.append(card);
    else return; // older than every card shown: it belongs to a page not loaded yet
    log.querySelectorAll("[data-empty]").forEach((el) => el.remove());
    activate(card);
  }

  function apply(id, html) {
    if (!(id > cursor)) return;
    cursor = id;
    const template = document.createElement("template");
    template.innerHTML = html;
    for (const el of [...template.content.children]) {
      el.removeAttribute("hx-swap-oob");
      if (el.matches("[data-roll]")) { placeCard(el); continue; }
      const old = el.id && document.getElementById(el.id);
      if (old) {
        keepOpen(old, el);
        // A part that scrolls within itself (the players' link panel) stays where the reader was in it.
        const scrolled = [...old.querySelectorAll("[data-keep-scroll]")].map((part) => part.scrollTop);
        old.replaceWith(el);
        el.querySelectorAll("[data-keep-scroll]").forEach((part, i) => { if (scrolled[i]) part.scrollTop = scrolled[i]; });
        activate(el);
      }
    }
    // The GM's odds and composer follow the turn, as after the GM's own clicks.
    document.body.dispatchEvent(new CustomEvent("turn-changed", { bubbles: true }));
    // Bubbling: the pages' own listeners (progress bars, the composer following the turn or a cast
    // change, the extended actions fitted to it, the remembered open lists) wait on the document.
    document.body.dispatchEvent(new CustomEvent("live-applied", { bubbles: true, detail: { id } }));
  }

  // While this page's own change is on its way, what the stream hears of it waits for the answer:
  // redrawn first by the stream, the clicked button would be gone when htmx swaps the answer in
  // (htmx finds the answer's out-of-band targets from the clicked element: oobErrorNoTarget).
  let ownWrites = 0;
  const held = [];
  function heard(id, html) {
    if (ownWrites > 0) held.push([id, html]); else apply(id, html);
  }
  function release() {
    ownWrites = Math.max(0, ownWrites - 1);
    if (ownWrites === 0) held.splice(0).forEach(([id, html]) => apply(id, html));
  }
  document.addEventListener("htmx:beforeRequest", (e) => {
    const verb = (e.detail.requestConfig && e.detail.requestConfig.verb) || "get";
    if (verb.toLowerCase() === "get") return;
    ownWrites += 1;
    let done = false;
    const finish = () => { if (!done) { done = true; release(); } };
    e.detail.xhr.addEventListener("loadend", finish);  // after htmx's own load handler has swapped
    setTimeout(finish, 5000);  // never hold the stream for long
  });
  // A row of the turn order being dragged waits too: redrawn under the GM's hand, the list the
  // row was dragged from would be gone, and the drop would post nothing (static/gmtools.js posts
  // the order at dragend, before this listener releases, so the answer is held for as well).
  let dragging = false;
  document.addEventListener("dragstart", (e) => {
    if (dragging || !(e.target.closest && e.target.closest("[data-order-list] [data-order-id]"))) return;
    dragging = true;
    ownWrites += 1;
  });
  document.addEventListener("dragend", () => {
    if (!dragging) return;
    dragging = false;
    release();
  });

  function withCursor(url) {
    return url + (url.includes("?") ? "&" : "?") + "after=" + cursor;
  }

  function linkGone() {
    gone = true;
    if (source) source.close();
    clearTimeout(retry);
    clearInterval(pollTimer);
    setStatus("gone");
    root.classList.add("live-gone");  // what is on screen is no longer followed
  }

  function connect() {
    if (gone) return;
    clearTimeout(retry);
    if (source) source.close();
    setStatus(failures ? "offline" : "connecting");
    let opened = false;
    source = new EventSource(withCursor(root.dataset.stream));
    source.onopen = () => { opened = true; failures = 0; setStatus("live"); };
    source.addEventListener("change", (e) => heard(Number(e.lastEventId), e.data));
    source.addEventListener("gone", linkGone);
    source.addEventListener("reload", () => window.location.reload());
    source.onerror = () => {
      source.close();
      source = null;
      failures += 1;
      if (!opened && failures >= 3) { startPolling(); return; }
      setStatus("offline");
      retry = setTimeout(connect, Math.min(500 * 2 ** failures, 8000));
    };
  }

  async function poll() {
    try {
      const response = await fetch(withCursor(root.dataset.poll), { headers: { Accept: "application/json" } });
      if (response.status === 404) { linkGone(); return; }
      if (response.status === 204) { setStatus("polling"); return; }
      if (!response.ok) throw new Error(response.status);
      const data = await response.json();
      if (data.reload) { window.location.reload(); return; }
      data.events.forEach((e) => heard(e.id, e.html));
      cursor = Math.max(cursor, data.cursor);
      setStatus("polling");
    } catch (error) {
      setStatus("offline");
    }
  }

  function startPolling() {
    if (pollTimer) return;
    poll();
    pollTimer = setInterval(poll, 3000);
  }

  // A phone that slept, or a network that came back: resume at once, from the cursor.
  function resume() {
    if (gone || pollTimer) return;
    if (!source || source.readyState === EventSource.CLOSED) { failures = Math.min(failures, 1); connect(); }
  }
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") resume(); });
  window.addEventListener("online", resume);
  // Offline, the stream is dead even if the browser has not noticed: drop it, resume when back.
  window.addEventListener("offline", () => {
    if (source) { source.close(); source = null; }
    clearTimeout(retry);
    setStatus("offline");
  });

  // The GM's own roll can come back through the stream before htmx swaps in the answer to the
  // click: the card htmx has just placed wins, the streamed copy goes.
  document.addEventListener("htmx:load", (e) => {
    const el = e.detail.elt;
    if (!el.matches || !el.matches("[data-roll]")) return;
    document.querySelectorAll(`[id="${el.id}"]`).forEach((other) => { if (other !== el) other.remove(); });
  });

  // A filtered log (the GM's story/episode/scene/turn filter) takes no live cards.
  document.addEventListener("change", (e) => {
    const form = e.target.closest && e.target.closest(".log-filter");
    const log = document.getElementById("log-list");
    if (form && log) log.dataset.filtered = [...new FormData(form).values()].some((v) => v) ? "true" : "false";
  });

  // For tests and the curious: where this page stands.
  window.gmtoolsLive = { cursor: () => cursor, held: () => held.length };
  if (window.EventSource) connect(); else startPolling();
})();

// The composer follows a cast change (a character made, edited, copied or deleted: at this table, in
// another tab, in the admin). The change redraws the composer's character list, marked
// data-composer-follow; the rest of the composer (the traits it offers and their ratings, Teamwork's
// list, the game's options for the character) is asked again for the character chosen, with the traits
// the GM had chosen (kept by id, while the character still has them), and every other choice is put
// back as the GM left it; the odds follow.
(function () {
  let asked = null;
  function snapshot(form) {
    return [...form.elements].filter((f) => f.name && f.type !== "hidden" && f.name !== "character").map((f) => (
      { name: f.name, type: f.type, value: f.value, checked: f.checked, focused: f === document.activeElement }));
  }
  // What the GM had, put back into the composer drawn again (as its markup's own state, before it is swapped in).
  function restore(fresh, before) {
    let changed = false;
    for (const old of before) {
      const field = [...fresh.querySelectorAll("[name]")].find((f) => f.name === old.name
        && (f.type === "checkbox" || f.type === "radio" ? f.value === old.value : true));
      if (!field || field.disabled) continue;
      if (field.type === "checkbox" || field.type === "radio") {
        if (field.hasAttribute("checked") !== old.checked) { field.toggleAttribute("checked", old.checked); changed = true; }
      } else if (field.tagName === "SELECT") {
        const option = [...field.options].find((o) => o.value === old.value);
        if (option && !option.selected) {
          field.querySelectorAll("option[selected]").forEach((o) => o.removeAttribute("selected"));
          option.setAttribute("selected", "");
          changed = true;
        }
      } else if (field.tagName === "TEXTAREA") {
        if (field.textContent !== old.value) { field.textContent = old.value; changed = true; }
      } else if (field.getAttribute("value") !== old.value) {
        field.setAttribute("value", old.value);
        changed = true;
      }
      if (old.focused) field.setAttribute("data-refocus", "");
    }
    return changed;
  }
  async function follow() {
    const marked = document.querySelector("#composer-character[data-composer-follow]");
    if (!marked) return;
    marked.removeAttribute("data-composer-follow");
    const form = document.getElementById("composer");
    const select = form && form.querySelector("[name=character]");
    if (!select || !select.dataset.url) return;
    const params = new URLSearchParams({ character: select.value });
    for (const name of ["first", "second", "pool_from"]) {
      const field = form.querySelector(`[name=${name}]`);
      if (field && field.value) params.set(name, field.value);
    }
    const request = asked = {};
    const response = await fetch(`${select.dataset.url}?${params}`, { headers: { "HX-Request": "true" } });
    // A later change, or the GM's own pick of another character, has asked since: that answer wins.
    const current = document.querySelector("#composer [name=character]");
    if (request !== asked || !response.ok || !current || current.value !== params.get("character")) return;
    const fresh = document.createElement("template");
    fresh.innerHTML = await response.text();
    // What the GM has now, read once the answer is here: a trait chip clicked while it was on its way
    // (a cast change redrawn late, on a loaded machine) stays chosen, not undone by the state before it.
    const now = document.getElementById("composer");
    if (!now) return;
    const before = snapshot(now);
    const open = [...now.querySelectorAll("details")].map((d) => d.open);
    const changed = restore(fresh.content, before);
    fresh.content.querySelectorAll("#composer details").forEach((d, i) => d.toggleAttribute("open", Boolean(open[i])));
    htmx.swap(document.getElementById("composer-wrap"), fresh.innerHTML, { swapStyle: "innerHTML" }, {
      afterSettleCallback: () => {
        const focus = document.querySelector("#composer [data-refocus]");
        if (focus) { focus.removeAttribute("data-refocus"); focus.focus(); }
        if (changed) document.body.dispatchEvent(new CustomEvent("composer-changed", { bubbles: true }));
      },
    });
  }
  document.addEventListener("live-applied", follow);
  document.addEventListener("htmx:afterSwap", follow);
})();
