// The game page: fetches the reader's status, log and board, follows live changes (server-sent
// events), steps the replay, pans and zooms the board. No game data is in the HTML: everything
// comes from /api/g/<id>/..., with this page's own link (?t=) if it has one. Read-only.
"use strict";

(function () {
  const game = document.body.dataset.game;
  const token = new URLSearchParams(window.location.search).get("t") || "";
  const state = { step: null, steps: 0, logPage: 1, logPages: 1, scale: 1, x: 0, y: 0, refused: false };
  const $ = (id) => document.getElementById(id);

  function api(path, params) {
    const query = new URLSearchParams(params || {});
    if (token) query.set("t", token);
    const text = query.toString();
    return "/api/g/" + game + "/" + path + (text ? "?" + text : "");
  }

  function notice(text) {
    $("notice").textContent = text;
  }

  function line(parent, tag, text, cls) {
    const el = document.createElement(tag);
    el.textContent = text;
    if (cls) el.className = cls;
    parent.appendChild(el);
    return el;
  }

  function showStatus(status) {
    $("title").textContent = status.system + " (" + status.scenario + ")" + (status.viewer ? " — " + status.viewer : "");
    document.title = $("title").textContent;
    const box = $("status");
    box.replaceChildren();
    line(box, "h2", "Status");
    line(box, "p", "Game " + status.state + ". Sides: " + status.sides.join(", ") + ".");
    for (const text of status.summary) line(box, "p", text);
    const seats = line(box, "ul", "");
    for (const seat of status.seats) {
      line(seats, "li", seat.label + ": " + seat.holder + (seat.acts ? " — to act" : ""), seat.acts ? "acts" : "");
    }
    if (status.result) line(box, "p", "Result: " + status.result, "result");
    if (status.private) {
      $("private").hidden = false;
      $("private-text").textContent = status.private.join("\n") || "(nothing private right now)";
    }
  }

  function showLog(data) {
    const list = $("log");
    list.replaceChildren();
    if (!data.log.length) line(list, "li", "(no orders yet)", "empty");
    for (const text of data.log) line(list, "li", text);
    state.logPages = data.log_pages;
    state.logPage = data.log_page;
    $("log-page").textContent = "page " + data.log_page + " of " + data.log_pages;
    $("newer").disabled = data.log_page <= 1;
    $("older").disabled = data.log_page >= data.log_pages;
  }

  function showReplay(data) {
    state.steps = data.steps;
    const scrub = $("scrub");
    scrub.max = String(data.steps);
    scrub.value = String(data.step === null ? data.steps : data.step);
    $("position").textContent = data.step === null ? "live" : "step " + data.step + " of " + data.steps;
    $("caption").textContent = data.caption;
    $("live").disabled = data.step === null;
    document.body.classList.toggle("replaying", data.step !== null);
  }

  async function load() {
    const params = { log: String(state.logPage) };
    if (state.step !== null) params.step = String(state.step);
    let response;
    try {
      response = await fetch(api("page", params), { cache: "no-cache" });
    } catch (err) {
      notice("The server cannot be reached; retrying.");
      return;
    }
    const data = await response.json();
    if (!response.ok) {
      state.refused = true;
      notice(data.error || "This page cannot be shown.");
      document.body.classList.add("refused");
      return;
    }
    show(data);
  }

  function show(data) {
    notice("");
    showStatus(data.status);
    showLog(data);
    showReplay(data);
    const src = api("board.png", Object.fromEntries(new URLSearchParams(data.board)));
    if ($("board").getAttribute("src") !== src) $("board").src = src;
    document.body.dataset.loaded = data.step === null ? "live" : "step-" + data.step;
  }

  function go(step) {
    state.step = step === null ? null : Math.max(0, Math.min(step, state.steps));
    state.logPage = 1;
    load();
  }

  function applyZoom() {
    $("board").style.transform = "translate(" + state.x + "px," + state.y + "px) scale(" + state.scale + ")";
  }

  function zoom(factor) {
    state.scale = Math.max(0.25, Math.min(8, state.scale * factor));
    applyZoom();
  }

  function listen() {
    if (!window.EventSource || state.refused) return;
    const source = new EventSource(api("events"));
    source.addEventListener("change", (event) => {
      document.body.dataset.changes = String(Number(document.body.dataset.changes || "0") + 1);
      // the event carries the live page's first log page: shown as is, no request needed
      if (state.step === null && state.logPage === 1) show(JSON.parse(event.data));
      else if (state.step === null) load();
      else fetch(api("page", { step: "0" })).then((r) => r.json()).then((d) => { state.steps = d.steps; $("scrub").max = String(d.steps); });
    });
    source.addEventListener("refused", (event) => {
      source.close();
      state.refused = true;
      notice(JSON.parse(event.data));
      document.body.classList.add("refused");
    });
  }

  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go((state.step === null ? state.steps : state.step) - 1));
  $("next").addEventListener("click", () => go(state.step === null ? state.steps : state.step + 1));
  $("live").addEventListener("click", () => go(null));
  $("scrub").addEventListener("change", (event) => go(Number(event.target.value)));
  $("newer").addEventListener("click", () => { state.logPage -= 1; load(); });
  $("older").addEventListener("click", () => { state.logPage += 1; load(); });
  $("zoom-in").addEventListener("click", () => zoom(1.25));
  $("zoom-out").addEventListener("click", () => zoom(0.8));
  $("zoom-reset").addEventListener("click", () => { state.scale = 1; state.x = 0; state.y = 0; applyZoom(); });
  const frame = $("board-frame");
  frame.addEventListener("wheel", (event) => { event.preventDefault(); zoom(event.deltaY < 0 ? 1.1 : 0.9); }, { passive: false });
  let drag = null;
  frame.addEventListener("pointerdown", (event) => { drag = { x: event.clientX - state.x, y: event.clientY - state.y }; frame.setPointerCapture(event.pointerId); });
  frame.addEventListener("pointermove", (event) => { if (drag) { state.x = event.clientX - drag.x; state.y = event.clientY - drag.y; applyZoom(); } });
  frame.addEventListener("pointerup", () => { drag = null; });
  load().then(listen);
})();
