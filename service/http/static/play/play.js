// The Skyline playground: plain JavaScript over the public API, nothing a third-party client
// could not do. The page is "/play"; "/play#game=<id>&token=<seat token>" opens it as a seat
// (the fragment never leaves the browser), "/play#game=<id>" as a spectator.
"use strict";

const $ = (id) => document.getElementById(id);

const session = {
  game: null, // the game id
  token: null, // this seat's token, or null for a spectator
  shown: null, // the last GET /games/{id}
  listing: null, // the last GET /games/{id}/moves
  stream: null, // the EventSource
  boardUrl: null, // the blob: URL of the board picture shown
  ticket: 0, // refreshes started; only the latest one may paint
  pending: false, // a move is being sent
  seen: -1, // the newest version a refresh has been started for
};

// ---- the API ------------------------------------------------------------------------------

class Refusal extends Error {
  constructor(status, problem) {
    super(problem.detail || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

async function call(path, { method = "GET", body, rawBody, token, accept = "application/json" } = {}) {
  const headers = { Accept: accept };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined || rawBody !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    body: rawBody !== undefined ? rawBody : body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  if (!response.ok) {
    let problem = {};
    try {
      problem = await response.json();
    } catch (ignored) {
      problem = { detail: response.statusText };
    }
    throw new Refusal(response.status, problem);
  }
  return response;
}

const getJson = async (path, token) => (await call(path, { token })).json();

// ---- small DOM helpers --------------------------------------------------------------------

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key in node && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) node.append(child);
  return node;
}

function showRefusal(error) {
  const box = $("refusal");
  box.replaceChildren();
  if (!error) {
    box.hidden = true;
    return;
  }
  const problem = error.problem || {};
  box.append(
    element("strong", { text: `Refused (${error.status || "network"})` }),
    " ",
    element("code", { class: "code", text: problem.code || "error" }),
    element("div", { class: "detail", text: problem.detail || error.message }),
  );
  box.hidden = false;
}

function seatName(shown, seat) {
  const entry = (shown && shown.seats || []).find((s) => s.seat === seat);
  if (!entry) return `seat ${seat}`;
  if (entry.name) return `seat ${seat} (${entry.name})`;
  if (entry.kind === "bot") return `seat ${seat} (bot ${entry.level || entry.bot})`;
  return `seat ${seat}`;
}

// ---- the new-game form ----------------------------------------------------------------------

let catalog = null;

function titleEntry() {
  return catalog.titles.find((t) => t.title === $("title").value);
}

function fillSeats() {
  const entry = titleEntry();
  const count = Number($("seat-count").value);
  const box = $("seats");
  box.querySelectorAll(".seat-row").forEach((row) => row.remove());
  for (let seat = 0; seat < count; seat += 1) {
    const kind = element("select", { name: `seat-${seat}-kind`, "data-seat": seat, class: "seat-kind" });
    kind.append(element("option", { value: "human", text: "human" }));
    for (const level of entry.levels) {
      kind.append(element("option", { value: `bot:${level.level}`, text: `bot, ${level.level}: ${level.description}` }));
    }
    kind.value = seat === 0 ? "human" : "bot:easy";
    const name = element("input", { name: `seat-${seat}-name`, placeholder: "name (optional)", maxlength: "40", class: "seat-name" });
    kind.addEventListener("change", () => { name.hidden = kind.value !== "human"; });
    name.hidden = kind.value !== "human";
    box.append(element("div", { class: "seat-row" }, element("span", { text: `Seat ${seat}` }), kind, name));
  }
}

function fillOptions() {
  const entry = titleEntry();
  const box = $("options");
  box.querySelectorAll(".option").forEach((row) => row.remove());
  const properties = (entry.options && entry.options.properties) || {};
  if (!Object.keys(properties).length) {
    box.append(element("p", { class: "option hint", text: "This title has no options." }));
  }
  for (const [name, schema] of Object.entries(properties)) {
    let input;
    if (schema.type === "boolean") {
      input = element("input", { type: "checkbox", name, "data-option": name, "data-type": "boolean" });
      input.checked = Boolean(schema.default);
    } else if (Array.isArray(schema.enum)) {
      input = element("select", { name, "data-option": name, "data-type": "enum" });
      for (const value of schema.enum) input.append(element("option", { value: JSON.stringify(value), text: String(value) }));
      if (schema.default !== undefined) input.value = JSON.stringify(schema.default);
    } else if (schema.type === "integer" || schema.type === "number") {
      input = element("input", {
        type: "number", name, "data-option": name, "data-type": "number",
        min: schema.minimum, max: schema.maximum, step: schema.type === "integer" ? "1" : "any",
      });
      if (schema.default !== undefined) input.value = String(schema.default);
    } else {
      input = element("input", { type: "text", name, "data-option": name, "data-type": "text" });
      if (schema.default !== undefined) input.value = String(schema.default);
    }
    box.append(element("div", { class: "option" },
      element("label", {}, input, ` ${name.replaceAll("_", " ")}`),
      element("div", { class: "hint", text: schema.description || "" })));
  }
}

function fillTitle() {
  const entry = titleEntry();
  $("summary").textContent = entry.summary || "";
  const count = $("seat-count");
  count.replaceChildren();
  for (let n = entry.seats.min; n <= entry.seats.max; n += 1) count.append(element("option", { value: n, text: n }));
  // Three seats suit every title (New York needs an option for two); a human and two bots.
  count.value = String(Math.min(entry.seats.max, Math.max(entry.seats.min, 3)));
  fillSeats();
  fillOptions();
}

function readForm() {
  const seats = [...document.querySelectorAll(".seat-row")].map((row) => {
    const kind = row.querySelector(".seat-kind").value;
    if (kind === "human") {
      const name = row.querySelector(".seat-name").value.trim();
      return name ? { kind: "human", name } : { kind: "human" };
    }
    return { kind: "bot", level: kind.slice(4) };
  });
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const type = input.dataset.type;
    if (type === "boolean") options[input.dataset.option] = input.checked;
    else if (type === "enum") options[input.dataset.option] = JSON.parse(input.value);
    else if (type === "number" && input.value !== "") options[input.dataset.option] = Number(input.value);
    else if (type === "text" && input.value !== "") options[input.dataset.option] = input.value;
  }
  const body = JSON.stringify({ title: $("title").value, seats, options });
  const seed = $("seed").value.trim();
  // A seed may exceed 2^53: it is written into the JSON as typed, never through a Number.
  return /^\d{1,19}$/.test(seed) ? `${body.slice(0, -1)},"seed":${seed}}` : body;
}

async function createGame(event) {
  event.preventDefault();
  const button = $("create");
  button.disabled = true;
  try {
    const created = await (await call("/games", { method: "POST", rawBody: readForm() })).json();
    const links = $("seat-links");
    links.replaceChildren();
    for (const seat of created.seats) {
      if (seat.kind !== "human") continue;
      const href = `/play#game=${encodeURIComponent(created.id)}&token=${encodeURIComponent(seat.token)}`;
      links.append(element("li", {}, element("a", { href, class: "seat-link", "data-seat": seat.seat,
        text: `Play ${seat.name ? `seat ${seat.seat} (${seat.name})` : `seat ${seat.seat}`}` })));
    }
    links.append(element("li", {}, element("a", { href: `/play#game=${encodeURIComponent(created.id)}`,
      class: "spectator-link", text: "Watch as a spectator" })));
    $("created").hidden = false;
    $("created").dataset.game = created.id;
    showSetupRefusal(null);
  } catch (error) {
    showSetupRefusal(error);
  } finally {
    button.disabled = false;
  }
}

function showSetupRefusal(error) {
  let box = $("setup-refusal");
  if (!box) {
    box = element("div", { id: "setup-refusal", class: "refusal", role: "alert" });
    $("new-game").append(box);
  }
  box.replaceChildren();
  box.hidden = !error;
  if (error) {
    const problem = error.problem || {};
    box.append(element("code", { text: problem.code || "error" }), ` ${problem.detail || error.message}`);
    if (problem.errors) box.append(element("pre", { text: JSON.stringify(problem.errors, null, 1) }));
  }
}

async function openSetup() {
  $("game").hidden = true;
  $("setup").hidden = false;
  if (!catalog) {
    catalog = await getJson("/catalog");
    for (const entry of catalog.titles) $("title").append(element("option", { value: entry.title, text: entry.name }));
    $("title").addEventListener("change", fillTitle);
    $("seat-count").addEventListener("change", fillSeats);
    $("new-game").addEventListener("submit", createGame);
    fillTitle();
  }
  document.body.dataset.ready = "setup";
}

// ---- the game page ------------------------------------------------------------------------

function paintStatus(shown) {
  $("game-title").textContent = `${shown.title} · game ${shown.id}`;
  const who = shown.you === null ? "You are watching as a spectator." : `You are ${seatName(shown, shown.you)}.`;
  const acting = shown.to_act.length ? `To act: ${shown.to_act.map((s) => seatName(shown, s)).join(", ")}.` : "";
  $("game-status").textContent = `${who} Version ${shown.version}, ${shown.status}. ${acting}`;
  document.body.dataset.version = String(shown.version);
  document.body.dataset.status = shown.status;
}

function paintMoves(shown, listing) {
  const box = $("moves");
  box.replaceChildren();
  box.dataset.version = String(listing.version);
  const note = $("moves-note");
  if (shown.you === null) note.textContent = "Spectators have no moves.";
  else if (shown.status === "finished") note.textContent = "The game is over.";
  else if (!listing.moves.length) note.textContent = "Waiting for the other seats…";
  else note.textContent = `${listing.moves.length} legal move${listing.moves.length === 1 ? "" : "s"}; choose one.`;
  const groups = new Map();
  listing.moves.forEach((entry, index) => {
    const type = entry.move.type;
    if (!groups.has(type)) groups.set(type, element("fieldset", {}, element("legend", { text: type.replaceAll("_", " ") })));
    groups.get(type).append(element("button", {
      type: "button", class: "move", "data-index": index, "data-type": type, "data-version": listing.version,
      text: entry.label,
    }));
  });
  for (const group of groups.values()) box.append(group);
}

function paintResult(shown, record) {
  const result = shown.result;
  $("result").hidden = !result;
  if (!result) return;
  const body = $("result-table").querySelector("tbody");
  body.replaceChildren();
  const order = result.ranks.map((rank, seat) => ({ rank, seat })).sort((a, b) => a.rank - b.rank);
  for (const { rank, seat } of order) {
    body.append(element("tr", {}, element("td", { text: rank }), element("td", { text: seatName(shown, seat) }),
      // A resignation between two seats ends the game before the rules count any score.
      element("td", { text: [(result.scores || [])[seat], (result.resigned || [])[seat] ? "resigned" : ""]
        .filter((part) => part !== undefined && part !== "").join(" ") })));
  }
  if (record) {
    $("record").textContent = JSON.stringify(record, null, 1);
    $("record").dataset.loaded = "true";
  }
}

async function fetchBoard() {
  const response = await call(`/games/${encodeURIComponent(session.game)}/board.svg`, {
    token: session.token, accept: "image/svg+xml",
  });
  return URL.createObjectURL(await response.blob());
}

// Reads the game, the seat's moves and the picture; only the latest refresh paints.
async function refresh() {
  const ticket = ++session.ticket;
  const id = encodeURIComponent(session.game);
  try {
    const [shown, listing, boardUrl] = await Promise.all([
      getJson(`/games/${id}`, session.token),
      getJson(`/games/${id}/moves`, session.token),
      fetchBoard(),
    ]);
    const record = shown.status === "finished" ? await getJson(`/games/${id}/record`) : null;
    if (ticket !== session.ticket) {
      URL.revokeObjectURL(boardUrl);
      return;
    }
    session.shown = shown;
    session.listing = listing;
    session.seen = Math.max(session.seen, listing.version);
    paintStatus(shown);
    paintMoves(shown, listing);
    paintResult(shown, record);
    const old = session.boardUrl;
    session.boardUrl = boardUrl;
    $("board").src = boardUrl;
    if (old) URL.revokeObjectURL(old);
    document.body.dataset.painted = String(listing.version);
    if (shown.status === "finished") closeStream("the game is over");
  } catch (error) {
    if (ticket === session.ticket) showRefusal(error);
  }
}

async function play(button) {
  if (session.pending || !session.listing) return;
  const listing = session.listing;
  const entry = listing.moves[Number(button.dataset.index)];
  // Seats choosing at the same time (a sealed bid) send no version: the move is judged on the
  // state it meets, as the API prescribes, so one seat's bid never makes another's stale.
  const together = listing.to_act.length > 1;
  const body = together ? { move: entry.move } : { move: entry.move, version: Number(button.dataset.version) };
  session.pending = true;
  $("moves").querySelectorAll("button").forEach((b) => { b.disabled = true; });
  try {
    const path = `/games/${encodeURIComponent(session.game)}/actions`;
    const reply = await (await call(path, { method: "POST", body, token: session.token })).json();
    // The refresh below reads the game at this version at least: the stream's news of it is old.
    session.seen = Math.max(session.seen, reply.version);
    showRefusal(null);
  } catch (error) {
    showRefusal(error);
  } finally {
    session.pending = false;
  }
  await refresh();
}

function describeEntry(entry) {
  const kinds = (entry.events || []).map((e) => e.type.replaceAll("_", " "));
  return `v${entry.version}: ${seatName(session.shown, entry.seat)} — ${kinds.join(", ") || "moved"}`;
}

function closeStream(why) {
  if (session.stream) {
    session.stream.close();
    session.stream = null;
    $("live-status").dataset.state = "closed";
    $("live-status").textContent = `stream closed: ${why}`;
  }
}

// A spectator-level stream says "something moved" (EventSource cannot send a token); the seat's
// own view and moves are then read with its token. EventSource reconnects by itself after a
// drop and sends Last-Event-ID, so the stream resumes after the last version it delivered.
function openStream() {
  closeStream("reopened");
  const stream = new EventSource(`/games/${encodeURIComponent(session.game)}/events`);
  session.stream = stream;
  const live = $("live");
  const status = (state, text) => {
    $("live-status").dataset.state = state;
    $("live-status").textContent = text;
  };
  stream.onopen = () => status("live", "live");
  stream.onerror = () => {
    if (session.stream !== stream) return;
    $("live-status").dataset.drops = String(Number($("live-status").dataset.drops || 0) + 1);
    status("reconnecting", "reconnecting (resumes from the last version seen)…");
  };
  stream.addEventListener("snapshot", () => refresh());
  stream.addEventListener("move", (message) => {
    const entry = JSON.parse(message.data);
    live.prepend(element("li", { class: "live-move", "data-version": entry.version, "data-seat": entry.seat,
      text: describeEntry(entry) }));
    if (entry.version > session.seen) {
      session.seen = entry.version;
      // What is listed is stale now: no click until the new listing is in.
      $("moves").querySelectorAll("button").forEach((b) => { b.disabled = true; });
      refresh();
    }
  });
  stream.addEventListener("finished", () => {
    closeStream("the game is over");
    refresh();
  });
  stream.addEventListener("gone", () => closeStream("the game expired"));
}

async function openGame(game, token) {
  $("setup").hidden = true;
  $("game").hidden = false;
  $("live").replaceChildren();
  $("result").hidden = true;
  showRefusal(null);
  Object.assign(session, { game, token, shown: null, listing: null, seen: -1 });
  await refresh();
  if (session.shown) {
    document.body.dataset.ready = "game";
    if (session.shown.status !== "finished") openStream();
  }
}

function route() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const game = fragment.get("game");
  closeStream("left the game");
  if (game) openGame(game, fragment.get("token"));
  else openSetup();
}

document.addEventListener("DOMContentLoaded", () => {
  $("moves").addEventListener("click", (event) => {
    const button = event.target.closest("button.move");
    if (button && !button.disabled) play(button);
  });
  window.addEventListener("hashchange", route);
  route();
});
