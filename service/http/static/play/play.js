// The Skyline playground: plain JavaScript over the public API, nothing a third-party client
// could not do. The page is "/play" (a new game and the lobby); "/play#game=<id>&token=<seat
// token>" opens it as a seat (the fragment never leaves the browser), "/play#game=<id>" as a
// spectator, and "/play#join=<id>" offers the open seats of a waiting game. "/play#game=<id>&player"
// opens it with the player key this browser remembers (never in the URL), "&seat=<k>" naming the
// seat when the player holds two of that game.
"use strict";

const $ = (id) => document.getElementById(id);

// ---- the page's words: /play/words.json, in the language chosen -------------------------------
// Every sentence a person reads is a message of the service's catalogues (playground.* in
// engines/locales/<language>.po): a language is its .po file. The choice is the switch's (kept in
// local storage), else the browser's Accept-Language as the server negotiates it, else English.
const LANGUAGE_STORE = "skyline.language";
const speech = { language: "en", words: {}, plural: null, list: null };

function storedLanguage() {
  try {
    return localStorage.getItem(LANGUAGE_STORE);
  } catch (ignored) {
    return null;
  }
}

// A word by id, its {placeholders} filled; a plural word takes its form by params.count.
function t(id, params = {}) {
  let said = speech.words[id];
  if (said === undefined) {
    console.error(`no word ${id} in ${speech.language}`);
    return id;
  }
  if (typeof said === "object") said = said[speech.plural.select(Number(params.count))] || said.other;
  return said.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// A list as the language joins one ("A, B and C", « A, B et C »).
const joined = (items) => speech.list.format(items.map(String));

async function loadWords() {
  // The page's own ?lang= (the switch's, when local storage is refused), else the stored choice.
  const chosen = new URLSearchParams(location.search).get("lang") || storedLanguage();
  const response = await fetch(`/play/words.json${chosen ? `?lang=${encodeURIComponent(chosen)}` : ""}`);
  const said = await response.json();
  Object.assign(speech, {
    language: said.language,
    words: said.words,
    plural: new Intl.PluralRules(said.language),
    list: new Intl.ListFormat(said.language, { style: "long", type: "conjunction" }),
  });
  document.documentElement.lang = said.language;
  const switcher = $("language");
  switcher.replaceChildren(...Object.entries(said.languages).map(([code, name]) =>
    element("option", { value: code, lang: code, text: name })));
  switcher.value = said.language;
  applyWords();
}

// The words of the page's own markup: data-i18n is the text, data-i18n-<attribute> an attribute.
function applyWords() {
  for (const node of document.querySelectorAll("*")) {
    for (const { name, value } of [...node.attributes]) {
      if (name === "data-i18n") node.textContent = t(value);
      else if (name.startsWith("data-i18n-")) node.setAttribute(name.slice("data-i18n-".length), t(value));
    }
  }
}

// The page is read again in the language chosen: every text it has written is then in it.
function switchLanguage() {
  try {
    localStorage.setItem(LANGUAGE_STORE, $("language").value);
  } catch (ignored) {
    // not kept: the choice lasts for this page only
  }
  const url = new URL(location.href);
  url.searchParams.set("lang", $("language").value);
  location.replace(url.toString());
}

const session = {
  game: null, // the game id
  token: null, // this seat's token (or the player key), or null for a spectator
  seat: null, // the seat a player key names (`?seat=`) when it holds more than one of the game
  shown: null, // the last GET /games/{id}
  listing: null, // the last GET /games/{id}/moves
  stream: null, // the EventSource
  boardUrl: null, // the blob: URL of the board picture shown
  replay: null, // the past version shown (GET /games/{id}/versions/{n}), or null: the game now
  replayUrl: null, // the blob: URL of that version's picture
  opened: 0, // games opened on this page: a read of a game left meanwhile does not paint
  rematchTimer: null, // the next read of a finished game, to learn of its rematch
  reading: null, // the reads under way (a promise), one at a time
  again: false, // news came while reading: read once more after
  pending: false, // a move or a seat's action is being sent
  seen: -1, // the newest version a refresh has been started for
  logRead: 0, // the log is read up to this version (to know who has moved, for abort)
  moved: new Set(), // the seats that made a move (their own, or a stand-in's on a timeout)
  skew: 0, // the server's clock minus this one's (ms), when they differ by more than a Date's rounding
  leaving: false, // the seat is being given back: its token is about to stop working
};

// What the service writes in the log for seats and clocks; any other event is a move's.
const SEAT_EVENTS = new Set(["seat_joined", "seat_left", "game_started", "game_aborted", "game_expired", "seat_resigned",
  "turn_timed_out"]);
const LOBBY_PAGE = 10;

// ---- the API ------------------------------------------------------------------------------

class Refusal extends Error {
  constructor(status, problem) {
    super(problem.detail || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

async function call(path, { method = "GET", body, rawBody, token, accept = "application/json" } = {}) {
  if (token && token === session.token && session.seat !== null && path.startsWith("/games/")) {
    path = withSeat(path, session.seat);
  }
  const headers = { Accept: accept, "Accept-Language": speech.language };
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
const post = async (path, token, body) => (await call(path, { method: "POST", token, body })).json();
const gamePath = (game, tail = "") => `/games/${encodeURIComponent(game)}${tail}`;
const seatHash = (game, token) => `#game=${encodeURIComponent(game)}&token=${encodeURIComponent(token)}`;
const withSeat = (path, seat) => `${path}${path.includes("?") ? "&" : "?"}seat=${encodeURIComponent(seat)}`;
const joinUrl = (game) => `${location.origin}/play#join=${encodeURIComponent(game)}`;

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

// A refusal's status, code and sentence in the box given (the game's, the lobby's, the join's).
function showRefusal(error, box = $("refusal")) {
  box.replaceChildren();
  if (!error) {
    box.hidden = true;
    return;
  }
  const problem = error.problem || {};
  box.append(
    element("strong", { text: t("refusal.refused", { status: error.status || t("refusal.network") }) }),
    " ",
    element("code", { class: "code", text: problem.code || "error" }),
    element("div", { class: "detail", text: problem.detail || error.message }),
  );
  box.hidden = false;
}

// A bot level by its name in the language (tests/pictures/test_playground_words.py: every level of
// the catalog has one); a level the page does not know yet shows its code.
const levelName = (level) => (`level.${level}` in speech.words ? t(`level.${level}`) : level);

function seatName(shown, seat) {
  const entry = (shown && shown.seats || []).find((s) => s.seat === seat);
  if (!entry) return t("seat.plain", { seat });
  if (entry.name) return t("seat.named", { seat, name: entry.name });
  if (entry.kind === "bot") return t("seat.bot", { seat, level: levelName(entry.level || entry.bot) });
  return t("seat.plain", { seat });
}

// How a seat of a waiting game (in the lobby, the join page, the waiting box) is described.
function seatSummary(seat) {
  if (seat.kind === "open") {
    return seat.name ? t("seat.open_for", { seat: seat.seat, name: seat.name }) : t("seat.open", { seat: seat.seat });
  }
  if (seat.kind === "bot") return t("seat.taken_bot", { seat: seat.seat, level: levelName(seat.level || seat.bot) });
  return t("seat.taken", { seat: seat.seat, name: seat.name || t("seat.a_player") });
}

function showSection(name) {
  for (const section of ["player", "setup", "lobby", "join", "game"]) $(section).hidden = !name.includes(section);
}

// ---- the new-game form ----------------------------------------------------------------------

let catalog = null;

function titleEntry() {
  return catalog.titles.find((t) => t.title === $("title").value);
}

const titleName = (title) => ((catalog && catalog.titles.find((t) => t.title === title)) || { name: title }).name;

// Listing a game in the lobby is for one that waits for players: one with an open seat.
function fillListed() {
  const open = [...document.querySelectorAll(".seat-kind")].some((kind) => kind.value === "open");
  $("listed").disabled = !open;
  if (!open) $("listed").checked = false;
}

function fillSeats() {
  const entry = titleEntry();
  const count = Number($("seat-count").value);
  const box = $("seats");
  box.querySelectorAll(".seat-row").forEach((row) => row.remove());
  for (let seat = 0; seat < count; seat += 1) {
    const kind = element("select", { name: `seat-${seat}-kind`, "data-seat": seat, class: "seat-kind" });
    kind.append(element("option", { value: "human", text: t("setup.kind.human") }));
    kind.append(element("option", { value: "open", text: t("setup.kind.open") }));
    for (const level of entry.levels) {
      kind.append(element("option", { value: `bot:${level.level}`,
        text: t("setup.kind.bot", { level: levelName(level.level), description: level.description }) }));
    }
    kind.value = seat === 0 ? "human" : "bot:easy";
    const name = element("input", { name: `seat-${seat}-name`, placeholder: t("setup.name_optional"), maxlength: "40", class: "seat-name" });
    const named = () => {
      name.hidden = kind.value.startsWith("bot:");
      // An open seat's name says whom it is kept for; the joiner's own name replaces it.
      name.placeholder = kind.value === "open" ? t("setup.meant_for") : t("setup.name_optional");
    };
    kind.addEventListener("change", () => {
      named();
      fillListed();
    });
    named();
    box.append(element("div", { class: "seat-row" }, element("span", { text: t("setup.seat", { seat }) }), kind, name));
  }
  fillListed();
}

function fillOptions() {
  const entry = titleEntry();
  const box = $("options");
  box.querySelectorAll(".option").forEach((row) => row.remove());
  const properties = (entry.options && entry.options.properties) || {};
  if (!Object.keys(properties).length) {
    box.append(element("p", { class: "option hint", text: t("setup.no_options") }));
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
      element("label", {}, input, " ", element("code", { text: name })),
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
  // With a player key remembered, the first human seat is the player's (the key goes with the
  // request); the others stay seats of their tokens alone.
  let bindable = Boolean(playerKey());
  const seats = [...document.querySelectorAll(".seat-row")].map((row) => {
    const kind = row.querySelector(".seat-kind").value;
    if (kind === "human" || kind === "open") {
      const name = row.querySelector(".seat-name").value.trim();
      const seat = name ? { kind, name } : { kind };
      if (kind === "human" && bindable) {
        seat.player = "me";
        bindable = false;
      }
      return seat;
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
  const request = { title: $("title").value, seats, options };
  if ($("listed").checked && !$("listed").disabled) request.listed = true;
  if ($("clock-on").checked) {
    // Sent as typed: too few seconds are the server's to refuse, with its sentence.
    request.clock = { turn_seconds: Number($("turn-seconds").value), on_timeout: $("on-timeout").value };
    if (request.clock.on_timeout === "stand_in") {
      request.clock.timeouts_to_resign = Number($("timeouts-to-resign").value);
    }
  }
  const body = JSON.stringify(request);
  const seed = $("seed").value.trim();
  // A seed may exceed 2^53: it is written into the JSON as typed, never through a Number.
  return /^\d{1,19}$/.test(seed) ? `${body.slice(0, -1)},"seed":${seed}}` : body;
}

async function createGame(event) {
  event.preventDefault();
  const button = $("create");
  button.disabled = true;
  try {
    const created = await (await call("/games", { method: "POST", rawBody: readForm(), token: playerKey() })).json();
    const links = $("seat-links");
    links.replaceChildren();
    for (const seat of created.seats) {
      if (seat.kind === "open") {
        links.append(element("li", { class: "open-seat", "data-seat": seat.seat,
          text: t("created.open_seat", { seat: seatSummary(seat) }) }));
      }
      if (seat.kind !== "human") continue;
      const href = `/play${seatHash(created.id, seat.token)}`;
      links.append(element("li", {}, element("a", { href, class: "seat-link", "data-seat": seat.seat,
        text: t("created.play", { seat: seat.name ? t("seat.named", { seat: seat.seat, name: seat.name })
          : t("seat.plain", { seat: seat.seat }) }) })));
    }
    links.append(element("li", {}, element("a", { href: `/play#game=${encodeURIComponent(created.id)}`,
      class: "spectator-link", text: t("join.watch") })));
    const waiting = created.status === "waiting";
    $("join-box").hidden = !waiting;
    $("join-link").href = waiting ? joinUrl(created.id) : "";
    $("join-link").textContent = waiting ? joinUrl(created.id) : "";
    $("created").hidden = false;
    $("created").dataset.game = created.id;
    showSetupRefusal(null);
    if (waiting) loadLobby(false); // a listed game shows there at once
    if (playerKey()) loadMyGames();
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

async function loadCatalog() {
  if (catalog) return;
  catalog = await getJson("/catalog");
  for (const entry of catalog.titles) {
    $("title").append(element("option", { value: entry.title, text: entry.name }));
    $("lobby-title").append(element("option", { value: entry.title, text: entry.name }));
  }
  for (const entry of catalog.titles) $("seek-title").append(element("option", { value: entry.title, text: entry.name }));
  $("seek-title").addEventListener("change", fillSeekSeats);
  fillSeekSeats();
  const most = Math.max(...catalog.titles.map((entry) => entry.seats.max));
  for (let n = 2; n <= most; n += 1) $("lobby-seats").append(element("option", { value: n, text: n }));
  $("title").addEventListener("change", fillTitle);
  $("seat-count").addEventListener("change", fillSeats);
  $("new-game").addEventListener("submit", createGame);
  $("clock-on").addEventListener("change", () => { $("clock-fields").hidden = !$("clock-on").checked; });
  $("on-timeout").addEventListener("change", () => {
    $("timeouts-field").hidden = $("on-timeout").value !== "stand_in";
  });
  fillTitle();
}

async function openSetup() {
  showSection(["player", "setup", "lobby"]);
  await loadCatalog();
  paintPlayer();
  await Promise.all([loadLobby(false), loadMyGames(), loadSeeks(), loadRatings()]);
  document.body.dataset.ready = "setup";
}

// ---- the player: a key kept in this browser, and "my games" --------------------------------

const KEY_STORE = "skyline.player-key";
const ID_STORE = "skyline.player-id"; // the id POST /players gave with the key (a pasted key has none)
const myGamesRead = { ticket: 0 }; // the latest read of my games paints, an older one not

// Local storage may be refused (a privacy setting): the page then works with no player.
function playerKey() {
  try {
    return localStorage.getItem(KEY_STORE);
  } catch (ignored) {
    return null;
  }
}

function keepKey(key) {
  try {
    localStorage.setItem(KEY_STORE, key);
    return true;
  } catch (error) {
    showRefusal({ status: "storage", problem: { code: "storage_refused",
      detail: t("player.storage_refused") } }, $("player-refusal"));
    return false;
  }
}

function paintPlayer(newKey = null) {
  const known = Boolean(playerKey());
  $("player-none").hidden = known;
  $("player-known").hidden = !known;
  $("player-new").hidden = !newKey;
  $("new-key").textContent = newKey || "";
  document.body.dataset.player = known ? "known" : "none";
  if (!known) {
    $("my-games").replaceChildren();
    $("my-turn-badge").textContent = "";
    delete $("my-turn-badge").dataset.count;
  }
}

async function becomePlayer() {
  const button = $("become-player");
  button.disabled = true;
  try {
    const created = await post("/players", null, undefined);
    if (!keepKey(created.key)) return;
    try {
      localStorage.setItem(ID_STORE, created.id);
    } catch (ignored) {
      // the key was kept: the id is only the ratings' default
    }
    $("ratings-id").value = created.id;
    showRefusal(null, $("player-refusal"));
    paintPlayer(created.key);
    await Promise.all([loadMyGames(), loadSeeks(), loadRatings()]);
  } catch (error) {
    showRefusal(error, $("player-refusal"));
  } finally {
    button.disabled = false;
  }
}

// A pasted key is kept only once the service has taken it (a read of my games).
async function usePastedKey(event) {
  event.preventDefault();
  const key = $("key-input").value.trim();
  if (!key) return;
  try {
    await getJson("/players/me/games?limit=1", key);
  } catch (error) {
    showRefusal(error, $("player-refusal"));
    return;
  }
  if (!keepKey(key)) return;
  $("key-input").value = "";
  showRefusal(null, $("player-refusal"));
  paintPlayer();
  await Promise.all([loadMyGames(), loadSeeks()]);
}

function forgetKey() {
  try {
    localStorage.removeItem(KEY_STORE);
    localStorage.removeItem(ID_STORE);
  } catch (ignored) {
    // nothing was kept
  }
  myGamesRead.ticket += 1; // a read of my games under way paints nothing
  showRefusal(null, $("player-refusal"));
  paintPlayer();
}

function myGameRow(game) {
  const row = element("li", { class: "my-game", "data-game": game.id, "data-status": game.status,
    "data-my-turn": String(game.my_turn) });
  row.append(element("strong", { text: titleName(game.title) }), ` · ${t(`status.${game.status}`)}`);
  if (game.my_turn) row.append(` · ${t("my_games.your_turn")}`);
  if (game.my_deadline) {
    row.append(` · ${t("my_games.until")} `, element("time", { datetime: game.my_deadline,
      text: new Date(game.my_deadline).toLocaleTimeString(speech.language) }));
  }
  const open = (text, hash) => element("a", { class: "my-game-link", href: `/play${hash}`, text });
  const base = `#game=${encodeURIComponent(game.id)}&player`;
  if (game.my_seats.length > 1) {
    for (const seat of game.my_seats) row.append(" ", open(t("my_games.play_seat", { seat }), `${base}&seat=${seat}`));
  } else if (game.my_seats.length) {
    row.append(" ", open(t("my_games.open"), base));
  }
  // The join page sends the key: the seat taken is bound to the player.
  if (game.invitation) row.append(" ", open(t("my_games.invitation"), `#join=${encodeURIComponent(game.id)}`));
  return row;
}

// The first page of my live games (the most urgent first) and the badge of my turns.
async function loadMyGames() {
  const key = playerKey();
  if (!key) return;
  const ticket = ++myGamesRead.ticket;
  try {
    const page = await getJson("/players/me/games?limit=50", key);
    if (ticket !== myGamesRead.ticket) return;
    $("my-games").replaceChildren(...page.games.map(myGameRow));
    $("my-games-empty").hidden = page.games.length > 0;
    const badge = $("my-turn-badge");
    badge.textContent = String(page.counts.my_turn);
    badge.dataset.count = String(page.counts.my_turn);
    badge.title = t("player.my_turn_count", { count: page.counts.my_turn });
    showRefusal(null, $("player-refusal"));
  } catch (error) {
    if (ticket === myGamesRead.ticket) showRefusal(error, $("player-refusal"));
  }
}

// ---- ratings (public) and seeks (the key's own) ----------------------------------------------

function rememberedId() {
  try {
    return localStorage.getItem(ID_STORE);
  } catch (ignored) {
    return null;
  }
}

const ratingsRead = { ticket: 0 };
const number = (value) => value.toFixed(2);

// GET /players/{id}: the id typed, else the player's own (when this browser made it).
async function loadRatings(event) {
  if (event) event.preventDefault();
  if (!$("ratings-id").value.trim() && rememberedId()) $("ratings-id").value = rememberedId();
  const id = $("ratings-id").value.trim();
  const ticket = ++ratingsRead.ticket;
  $("ratings").hidden = true;
  $("ratings-empty").hidden = true;
  if (!id) return;
  try {
    const player = await getJson(`/players/${encodeURIComponent(id)}`);
    if (ticket !== ratingsRead.ticket) return;
    const rows = Object.entries(player.ratings).map(([title, rated]) => element("tr",
      { class: "rating", "data-title": title, "data-provisional": String(rated.provisional) },
      element("td", { text: titleName(title) }), element("td", { text: number(rated.rating) }),
      element("td", { text: number(rated.mu) }), element("td", { text: number(rated.sigma) }),
      element("td", { text: String(rated.games) }),
      element("td", { text: rated.provisional ? t("ratings.provisional") : "" })));
    $("ratings-rows").replaceChildren(...rows);
    $("ratings").hidden = rows.length === 0;
    $("ratings-empty").hidden = rows.length > 0;
    $("ratings").dataset.player = player.id;
    showRefusal(null, $("ratings-refusal"));
  } catch (error) {
    if (ticket === ratingsRead.ticket) showRefusal(error, $("ratings-refusal"));
  }
}

function fillSeekSeats() {
  const entry = catalog.titles.find((t) => t.title === $("seek-title").value);
  const seats = [];
  for (let n = Math.max(2, entry.seats.min); n <= entry.seats.max; n += 1) {
    seats.push(element("option", { value: n, text: n }));
  }
  $("seek-seats").replaceChildren(...seats);
}

function seekRow(seek) {
  const row = element("li", { class: "seek", "data-seek": seek.id, "data-status": seek.status },
    element("strong", { text: titleName(seek.title) }),
    ` · ${t("lobby.seats", { count: seek.seats })}${seek.rated ? ` · ${t("seek.rated")}` : ""}`
      + ` · ${t(`seek.status.${seek.status}`)}`);
  if (seek.game) {
    row.append(" ", element("a", { class: "seek-game", href: `/play#game=${encodeURIComponent(seek.game)}&player`,
      text: t("seek.open_game") }));
  }
  if (seek.status === "waiting") {
    row.append(" ", element("button", { type: "button", class: "cancel-seek", "data-seek": seek.id, text: t("seek.cancel") }));
  }
  return row;
}

const seeksRead = { ticket: 0 };

async function loadSeeks() {
  const key = playerKey();
  if (!key) return;
  const ticket = ++seeksRead.ticket;
  try {
    const page = await getJson("/seeks", key);
    if (ticket !== seeksRead.ticket) return;
    $("seeks").replaceChildren(...page.seeks.map(seekRow));
    showRefusal(null, $("seek-refusal"));
  } catch (error) {
    if (ticket === seeksRead.ticket) showRefusal(error, $("seek-refusal"));
  }
}

async function seek(event) {
  event.preventDefault();
  const button = $("seek");
  button.disabled = true;
  try {
    const body = { title: $("seek-title").value, seats: Number($("seek-seats").value), rated: $("seek-rated").checked };
    const made = await post("/seeks", playerKey(), body);
    showRefusal(null, $("seek-refusal"));
    await loadSeeks();
    if (made.status === "matched") await loadMyGames();
  } catch (error) {
    showRefusal(error, $("seek-refusal"));
  } finally {
    button.disabled = false;
  }
}

async function cancelSeek(event) {
  const button = event.target.closest("button.cancel-seek");
  if (!button) return;
  button.disabled = true;
  try {
    await call(`/seeks/${encodeURIComponent(button.dataset.seek)}`, { method: "DELETE", token: playerKey() });
  } catch (error) {
    showRefusal(error, $("seek-refusal"));
  }
  await loadSeeks();
}

// ---- the lobby and joining ------------------------------------------------------------------

const lobby = { cursor: null, ticket: 0 };

function lobbyRow(game) {
  const open = game.open_seats.length;
  const options = Object.entries(game.options || {}).map(([name, value]) => `${name}: ${value}`);
  const created = new Date(game.created);
  return element("li", { class: "lobby-game", "data-game": game.id, "data-title": game.title },
    element("strong", { text: titleName(game.title) }),
    ` · ${t("lobby.seats", { count: game.seats.length })}${game.rated ? ` · ${t("lobby.rated")}` : ""}`
      + ` · ${t("lobby.created")} `,
    element("time", { datetime: game.created, text: created.toLocaleString(speech.language) }),
    element("div", { class: "lobby-seats", text: game.seats.map(seatSummary).join(" · ") }),
    options.length ? element("div", { class: "hint", text: options.join(", ") }) : "",
    element("div", { class: "lobby-open", text: t("lobby.open", { count: open }) }),
    element("button", { type: "button", class: "join", "data-game": game.id, text: t("lobby.join") }));
}

// The first page again (more = false), or the next one after the cursor of the last page read;
// a refusal shown stays when `keepRefusal` (the list read again after a join was refused).
async function loadLobby(more, keepRefusal = false) {
  const ticket = ++lobby.ticket;
  const query = new URLSearchParams({ limit: String(LOBBY_PAGE) });
  if ($("lobby-title").value) query.set("title", $("lobby-title").value);
  if ($("lobby-seats").value) query.set("seats", $("lobby-seats").value);
  const filters = query.toString();
  if (more) query.set("cursor", lobby.cursor);
  try {
    const page = await getJson(`/lobby?${query}`);
    if (ticket !== lobby.ticket) return;
    const list = $("lobby-games");
    if (!more) list.replaceChildren();
    list.dataset.query = filters; // what the list shows: its pages all answer these filters
    // A game listed on the page before may come again after newer ones pushed it down a page.
    const listed = new Set([...list.children].map((row) => row.dataset.game));
    for (const game of page.games) if (!listed.has(game.id)) list.append(lobbyRow(game));
    lobby.cursor = page.next;
    $("lobby-more").hidden = !page.next;
    $("lobby-empty").hidden = list.children.length > 0;
    if (!keepRefusal) showRefusal(null, $("lobby-refusal"));
  } catch (error) {
    if (ticket === lobby.ticket) showRefusal(error, $("lobby-refusal"));
  }
}

// Takes a seat (the first open one when none is named), then plays it: the token goes into the
// fragment, as for a seat this page created; the join link is replaced, so "back" skips it.
async function join(game, seat, name, refusalBox) {
  const body = {};
  if (seat !== undefined) body.seat = seat;
  if (name) body.name = name;
  try {
    // With a player key the seat taken is bound to the player (and an invitation can be taken).
    const joined = await post(gamePath(game, "/join"), playerKey(), body);
    location.replace(seatHash(joined.id, joined.token));
  } catch (error) {
    showRefusal(error, refusalBox);
    return false;
  }
  return true;
}

async function openJoin(game) {
  showSection(["join"]);
  showRefusal(null, $("join-refusal"));
  $("join-watch").href = `/play#game=${encodeURIComponent(game)}`;
  const list = $("join-seats");
  list.replaceChildren();
  try {
    await loadCatalog();
    const shown = await getJson(gamePath(game));
    $("join-title").textContent = t("join.title", { title: titleName(shown.title), id: shown.id });
    if (shown.status !== "waiting") {
      $("join-status").textContent = shown.status === "active"
        ? t("join.started") : t("join.ended", { status: t(`status.${shown.status}`) });
    } else {
      const open = shown.seats.filter((seat) => seat.kind === "open").length;
      $("join-status").textContent = t("join.waiting", { count: open });
    }
    for (const seat of shown.seats) {
      const row = element("li", { "data-seat": seat.seat, text: seatSummary(seat) });
      if (seat.kind === "open" && shown.status === "waiting") {
        row.append(" ", element("button", { type: "button", class: "take-seat", "data-seat": seat.seat,
          text: t("join.take", { seat: seat.seat }) }));
      }
      list.append(row);
    }
    document.body.dataset.status = shown.status;
  } catch (error) {
    $("join-title").textContent = t("join.heading");
    $("join-status").textContent = "";
    showRefusal(error, $("join-refusal"));
  }
  document.body.dataset.ready = "join";
}

// ---- the game page ------------------------------------------------------------------------

function paintStatus(shown) {
  $("game-title").textContent = t("game.title", { title: titleName(shown.title), id: shown.id });
  const who = shown.you === null ? t("game.spectator") : t("game.you_are", { seat: seatName(shown, shown.you) });
  let state = t("game.version_status", { version: shown.version, status: t(`status.${shown.status}`) });
  if (shown.status === "waiting") state = t("game.waiting");
  else if (shown.status === "aborted") state = t("game.aborted");
  else if (shown.status === "expired") state = t("game.expired");
  const acting = shown.to_act.length
    ? t("game.to_act", { seats: joined(shown.to_act.map((s) => seatName(shown, s))) }) : "";
  $("game-status").textContent = `${who} ${state} ${acting}`;
  document.body.dataset.version = String(shown.version);
  document.body.dataset.status = shown.status;
}

function paintWaiting(shown) {
  const waiting = shown.status === "waiting";
  $("waiting").hidden = !waiting;
  if (!waiting) return;
  $("waiting-seats").replaceChildren(...shown.seats.map((seat) => element("li", {
    class: seat.kind === "open" ? "open-seat" : "taken-seat", "data-seat": seat.seat,
    text: seat.seat === shown.you ? t("seat.you", { seat: seatSummary(seat) }) : seatSummary(seat),
  })));
  $("waiting-join-link").href = joinUrl(shown.id);
  $("waiting-join-link").textContent = joinUrl(shown.id);
}

function paintMoves(shown, listing) {
  const box = $("moves");
  box.replaceChildren();
  box.dataset.version = String(listing.version);
  const note = $("moves-note");
  const mine = ownSeat(shown);
  // A resigned seat is still listed the stand-in's moves; they are not its player's to send.
  const resigned = Boolean(mine) && mine.resigned && shown.status === "active";
  if (shown.you === null) note.textContent = t("moves.spectator");
  else if (shown.status === "finished") note.textContent = t("moves.over");
  else if (resigned) note.textContent = t("moves.resigned");
  else if (shown.status === "aborted") note.textContent = t("moves.aborted");
  else if (shown.status === "expired") note.textContent = t("moves.expired");
  else if (shown.status === "waiting") note.textContent = t("moves.not_started");
  else if (!listing.moves.length) note.textContent = t("moves.others");
  else note.textContent = t("moves.count", { count: listing.moves.length });
  const groups = new Map();
  (resigned ? [] : listing.moves).forEach((entry, index) => {
    const type = entry.move.type;
    if (!groups.has(type)) groups.set(type, element("fieldset", {}, element("legend", { text: t(`move_type.${type}`) })));
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
  $("result-reason").hidden = !result.reason;
  $("result-reason").dataset.reason = result.reason || "";
  // A title's reason is a code of its own (bankruptcy, last_shop...), said by its message.
  $("result-reason").textContent = result.reason === "resignation" ? t("result.by_resignation")
    : `result.reason.${result.reason}` in speech.words ? t(`result.reason.${result.reason}`) : result.reason || "";
  const body = $("result-table").querySelector("tbody");
  body.replaceChildren();
  const order = result.ranks.map((rank, seat) => ({ rank, seat })).sort((a, b) => a.rank - b.rank);
  for (const { rank, seat } of order) {
    body.append(element("tr", {}, element("td", { text: rank }), element("td", { text: seatName(shown, seat) }),
      // A resignation between two seats ends the game before the rules count any score.
      element("td", { text: [(result.scores || [])[seat], (result.resigned || [])[seat] ? t("result.resigned") : ""]
        .filter((part) => part !== undefined && part !== "").join(" ") })));
  }
  if (record) {
    $("record").textContent = JSON.stringify(record, null, 1);
    $("record").dataset.loaded = "true";
  }
}

// ---- a seat's actions: resign, abort, rematch ---------------------------------------------------

function ownSeat(shown) {
  return shown.you === null ? null : shown.seats.find((seat) => seat.seat === shown.you);
}

// An entry is a move unless all it says is about seats or clocks (a join, a resignation...).
function isMove(entry) {
  const events = entry.events || [];
  return "move" in entry || !events.length || events.some((event) => !SEAT_EVENTS.has(event.type));
}

function noteEntry(entry) {
  if (isMove(entry)) session.moved.add(entry.seat);
}

// As the server judges it: while waiting, or while some human seat has not moved yet.
function abortAllowed(shown) {
  const mine = ownSeat(shown);
  if (!mine || mine.kind !== "human") return false;
  if (shown.status === "waiting") return true;
  if (shown.status !== "active") return false;
  return shown.seats.some((seat) => seat.kind === "human" && !session.moved.has(seat.seat));
}

// Reads what the log says since last time, while it may still decide whether abort is offered.
async function readLog(shown) {
  const mine = ownSeat(shown);
  if (shown.status !== "active" || !mine || mine.kind !== "human" || !abortAllowed(shown)) return;
  if (session.logRead >= shown.version) return;
  const log = await getJson(gamePath(session.game, `/events?since=${session.logRead}`), session.token);
  for (const entry of log.events) {
    noteEntry(entry);
    session.logRead = Math.max(session.logRead, entry.version);
  }
}

function paintSeatActions(shown) {
  const mine = ownSeat(shown);
  const playing = Boolean(mine) && mine.kind === "human" && !mine.resigned;
  $("resign").hidden = !(playing && shown.status === "active");
  $("leave").hidden = !(playing && shown.status === "waiting");
  $("abort").hidden = !abortAllowed(shown);
  // A resigned player may ask too: the rematch keeps every player's seat.
  $("rematch").hidden = !(mine && shown.status === "finished");
  const asked = Boolean(mine && shown.status === "finished" && shown.rematch);
  $("rematch").textContent = asked ? t("actions.join_rematch") : t("actions.rematch");
  $("rematch-note").hidden = !asked;
  $("rematch-note").textContent = asked ? t("actions.rematch_asked") : "";
}

// The event stream ends with the game: a finished game's page reads the game every few seconds
// (for a quarter of an hour at most) until it shows a rematch, so that a player learns that
// another asked for one.
const REMATCH_POLL_MS = 3000;
const REMATCH_POLLS = 300;

function watchRematch(shown, polls = REMATCH_POLLS) {
  clearTimeout(session.rematchTimer);
  if (shown.status !== "finished" || !ownSeat(shown) || shown.rematch || polls <= 0) return;
  const opened = session.opened;
  session.rematchTimer = setTimeout(async () => {
    if (opened !== session.opened) return;
    let fresh;
    try {
      fresh = await readGame();
    } catch (error) {
      return; // the game expired, or the server is away: the button still asks
    }
    if (opened !== session.opened || !session.shown) return;
    if (fresh.rematch) {
      session.shown.rematch = fresh.rematch;
      paintSeatActions(session.shown);
    } else {
      watchRematch(session.shown, polls - 1);
    }
  }, REMATCH_POLL_MS);
}

async function seatAction(button, action, question) {
  if (session.pending) return;
  if (question && !window.confirm(question)) return;
  session.pending = true;
  button.disabled = true;
  // The stream's news of the leave may come before its reply: no read with the token meanwhile.
  session.leaving = action === "leave";
  try {
    const reply = await post(gamePath(session.game, `/${action}`), session.token);
    showRefusal(null);
    if (action === "rematch") {
      // The rematch is played as the same seat, with the new token the reply gives.
      location.hash = seatHash(reply.id, reply.token).slice(1);
      return;
    }
    if (action === "leave") {
      // The token no longer works: the game is watched as a spectator, its link forgotten.
      location.replace(`#game=${encodeURIComponent(reply.id)}`);
      return;
    }
  } catch (error) {
    session.leaving = false;
    showRefusal(error);
  } finally {
    session.pending = false;
    button.disabled = false;
  }
  await refresh();
}

// ---- the turn clock ---------------------------------------------------------------------------

const serverNow = () => Date.now() + session.skew;

function minutes(seconds) {
  const hours = Math.floor(seconds / 3600);
  const rest = `${String(Math.floor((seconds % 3600) / 60)).padStart(hours ? 2 : 1, "0")}:${String(seconds % 60).padStart(2, "0")}`;
  return hours ? `${hours}:${rest}` : rest;
}

// A Date header is whole seconds: a difference within them is rounding, not a wrong clock.
function noteServerTime(response) {
  const told = Date.parse(response.headers.get("Date") || "");
  if (Number.isNaN(told)) return;
  const skew = told - Date.now();
  session.skew = Math.abs(skew) > 2000 ? skew : 0;
}

function paintClock(shown) {
  const clocked = "deadlines" in shown;
  $("clock").hidden = !clocked;
  const list = $("deadlines");
  list.replaceChildren();
  if (!clocked) return;
  $("clock-rules").textContent = clockRules(shown.clock);
  const entries = Object.entries(shown.status === "active" ? shown.deadlines : {});
  if (!entries.length) {
    list.append(element("li", { class: "hint", text: shown.status === "active"
      ? t("clock.no_player_time") : t("clock.no_time") }));
  }
  for (const [seat, deadline] of entries) {
    list.append(element("li", { class: "deadline", "data-seat": seat, "data-deadline": deadline }));
  }
  tickClock();
}

// What happens when a seat's time runs out, as the game was created (GET /games/{id} `clock`).
function clockRules(clock) {
  if (!clock) return "";
  const per = t("clock.per_turn", { time: minutes(clock.turn_seconds) });
  if (resignsAtOnce(clock)) return `${per} ${t("clock.resigns")}`;
  return `${per} ${t("clock.stand_in", { count: clock.timeouts_to_resign })}`;
}

function resignsAtOnce(clock) {
  return clock.on_timeout === "resign" || clock.timeouts_to_resign === 1;
}

// What the server does for a seat whose time is up (a stand-in's turn or, at the last timeout
// allowed in a row, a resignation: "acts" says both).
function timeUpAction(you) {
  const clock = session.shown && session.shown.clock;
  if (clock && resignsAtOnce(clock)) return you ? t("clock.you_resign") : t("clock.seat_resigns");
  return you ? t("clock.acts_for_you") : t("clock.acts_for_seat");
}

function tickClock() {
  for (const item of $("deadlines").querySelectorAll("li.deadline")) {
    const seat = Number(item.dataset.seat);
    const ms = Date.parse(item.dataset.deadline) - serverNow();
    // Whole seconds left, rounded down: a deadline is given rounded up to its second.
    const left = Math.max(0, Math.floor(ms / 1000));
    const you = Boolean(session.shown) && session.shown.you === seat;
    const who = you ? t("clock.you") : seatName(session.shown, seat);
    item.dataset.remaining = String(left);
    if (ms > 0) {
      item.textContent = t("clock.left", { who, time: minutes(left) });
      item.classList.toggle("hurry", left <= 10);
    } else {
      item.dataset.expired = "true";
      item.classList.add("expired");
      item.textContent = t("clock.up", { who, action: timeUpAction(you) });
    }
  }
}

function noteTimeout(entry) {
  const timedOut = (entry.events || []).find((event) => event.type === "turn_timed_out");
  if (!timedOut) return;
  const resigned = entry.events.some((event) => event.type === "seat_resigned");
  const when = new Date(timedOut.deadline).toLocaleTimeString(speech.language);
  const note = $("timeout-note");
  note.textContent = t(resigned ? "clock.timed_out_resigned" : "clock.timed_out_stand_in",
    { seat: seatName(session.shown, timedOut.seat), when });
  note.dataset.seat = String(timedOut.seat);
  note.dataset.version = String(entry.version);
  note.hidden = false;
}

// ---- reading and playing ------------------------------------------------------------------

async function fetchBoard() {
  const response = await call(gamePath(session.game, "/board.svg"), {
    token: session.token, accept: "image/svg+xml",
  });
  return URL.createObjectURL(await response.blob());
}

async function readGame() {
  const response = await call(gamePath(session.game), { token: session.token });
  noteServerTime(response);
  return response.json();
}

// Reads the game, the seat's moves and the picture, and paints them. One read at a time: news
// arriving meanwhile asks for one more read after it (moves coming faster than a read takes,
// as bots playing out a game, would otherwise start reads that each cancel the one before,
// and nothing would be painted until the end). The promise is kept when a read that started
// after the call has painted.
function refresh() {
  session.again = true;
  // Started in a later microtask: a loop with nothing to await would otherwise end (and clear
  // `reading`) before its promise is stored, and stay stored, settled, for ever.
  if (!session.reading) session.reading = Promise.resolve().then(readUntilCurrent);
  return session.reading;
}

async function readUntilCurrent() {
  try {
    while (session.again) {
      session.again = false;
      if (!session.leaving) await readAndPaint();
    }
  } finally {
    session.reading = null;
  }
}

async function readAndPaint() {
  const opened = session.opened;
  try {
    const [shown, listing, boardUrl] = await Promise.all([
      readGame(),
      getJson(gamePath(session.game, "/moves"), session.token),
      fetchBoard(),
    ]);
    const record = shown.status === "finished" ? await getJson(gamePath(session.game, "/record")) : null;
    if (opened === session.opened) await readLog(shown);
    if (opened !== session.opened) {
      URL.revokeObjectURL(boardUrl);
      return;
    }
    session.shown = shown;
    session.listing = listing;
    paintStatus(shown);
    paintWaiting(shown);
    paintClock(shown);
    paintSeatActions(shown);
    paintMoves(shown, listing);
    if (listing.version < Math.max(session.seen, shown.version) || session.pending) {
      // A newer version is known (a move sent, news from the stream, the game read alongside)
      // and read next, or a move is on its way whose reply will make this listing old: it is
      // painted to show the game going on, but its moves are stale, not to be clicked.
      $("moves").querySelectorAll("button").forEach((b) => { b.disabled = true; });
    }
    paintResult(shown, record);
    watchRematch(shown);
    const old = session.boardUrl;
    session.boardUrl = boardUrl;
    if (session.replay === null) $("board").src = boardUrl; // a past version stays on show
    if (old) URL.revokeObjectURL(old);
    paintReplay();
    document.body.dataset.painted = String(listing.version);
    session.seen = Math.max(session.seen, listing.version);
    if (shown.status === "finished") closeStream(t("live.why.over"));
    if (shown.status === "aborted") closeStream(t("live.why.aborted"));
    if (shown.status === "expired") closeStream(t("live.why.expired"));
  } catch (error) {
    if (opened === session.opened) showRefusal(error);
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
    const reply = await post(gamePath(session.game, "/actions"), session.token, body);
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

// ---- replay: any version of the game, drawn from GET /games/{id}/versions/{n} ----------------

function paintReplay(then = null) {
  const last = session.shown ? session.shown.version : 0;
  const at = session.replay === null ? last : session.replay;
  $("replay-version").max = String(last);
  if (document.activeElement !== $("replay-version")) $("replay-version").value = String(at);
  $("replay-first").disabled = at <= 0;
  $("replay-back").disabled = at <= 0;
  $("replay-forward").disabled = at >= last;
  $("replay-latest").disabled = session.replay === null;
  if (session.replay === null) {
    $("replay-status").textContent = t("replay.now", { version: last });
    delete document.body.dataset.replay;
  } else if (then) {
    const made = then.entry ? describeEntry(then.entry) : t("replay.as_created");
    $("replay-status").textContent = t(then.status === "waiting" ? "replay.then_waiting" : "replay.then",
      { version: then.version, last, made });
    document.body.dataset.replay = String(then.version);
  }
}

async function showVersion(wanted) {
  const last = session.shown ? session.shown.version : 0;
  const n = Math.max(0, Math.min(last, Math.trunc(Number(wanted) || 0)));
  const old = session.replayUrl;
  if (n === last) {
    session.replay = null;
    session.replayUrl = null;
    if (session.boardUrl) $("board").src = session.boardUrl;
    if (old) URL.revokeObjectURL(old);
    paintReplay();
    return;
  }
  session.replay = n;
  const opened = session.opened;
  try {
    const [then, picture] = await Promise.all([
      getJson(gamePath(session.game, `/versions/${n}`), session.token),
      call(gamePath(session.game, `/versions/${n}/board.svg`), { token: session.token, accept: "image/svg+xml" }),
    ]);
    const url = URL.createObjectURL(await picture.blob());
    if (opened !== session.opened || session.replay !== n) {
      URL.revokeObjectURL(url); // another version was asked for meanwhile
      return;
    }
    session.replayUrl = url;
    $("board").src = url;
    if (old) URL.revokeObjectURL(old);
    showRefusal(null);
    paintReplay(then);
  } catch (error) {
    if (opened === session.opened) showRefusal(error);
  }
}

function stepVersion(by) {
  const at = session.replay === null ? (session.shown ? session.shown.version : 0) : session.replay;
  return showVersion(at + by);
}

// An entry of the log: its seat events by name, and "moved" for a move (whose events are the
// title's own codes; its label was the listing's).
function describeEntry(entry) {
  const seatEvents = (entry.events || []).filter((e) => SEAT_EVENTS.has(e.type)).map((e) => `event.${e.type}`);
  const kinds = [...new Set([...(isMove(entry) ? ["event.moved"] : []), ...seatEvents])];
  const what = kinds.map((id) => t(id)).join(", ");
  return t("live.entry", { version: entry.version, seat: seatName(session.shown, entry.seat), what });
}

function closeStream(why) {
  if (session.stream) {
    session.stream.close();
    session.stream = null;
    $("live-status").dataset.state = "closed";
    $("live-status").textContent = t("live.closed", { why });
  }
}

// A spectator-level stream says "something moved" (EventSource cannot send a token); the seat's
// own view and moves are then read with its token. EventSource reconnects by itself after a
// drop and sends Last-Event-ID, so the stream resumes after the last version it delivered.
// Seats joining, the start, resignations and timeouts come as entries of the same log.
function openStream() {
  closeStream(t("live.why.reopened"));
  const stream = new EventSource(gamePath(session.game, "/events"));
  session.stream = stream;
  const live = $("live");
  const status = (state, text) => {
    $("live-status").dataset.state = state;
    $("live-status").textContent = text;
  };
  stream.onopen = () => status("live", t("live.live"));
  stream.onerror = () => {
    if (session.stream !== stream) return;
    $("live-status").dataset.drops = String(Number($("live-status").dataset.drops || 0) + 1);
    status("reconnecting", t("live.reconnecting"));
  };
  stream.addEventListener("snapshot", () => refresh());
  stream.addEventListener("move", (message) => {
    const entry = JSON.parse(message.data);
    const timedOut = (entry.events || []).some((event) => event.type === "turn_timed_out");
    live.prepend(element("li", { class: timedOut ? "live-move live-timeout" : "live-move",
      "data-version": entry.version, "data-seat": entry.seat, text: describeEntry(entry) }));
    noteEntry(entry);
    noteTimeout(entry);
    if (entry.version > session.seen) {
      session.seen = entry.version;
      // What is listed is stale now: no click until the new listing is in.
      $("moves").querySelectorAll("button").forEach((b) => { b.disabled = true; });
      refresh();
    }
  });
  stream.addEventListener("finished", () => {
    closeStream(t("live.why.over"));
    refresh();
  });
  stream.addEventListener("expired", () => {
    closeStream(t("live.why.idle"));
    refresh();
  });
  stream.addEventListener("aborted", () => {
    closeStream(t("live.why.aborted"));
    refresh();
  });
  stream.addEventListener("gone", () => closeStream(t("live.why.expired")));
}

async function openGame(game, token, seat = null) {
  showSection(["game"]);
  $("live").replaceChildren();
  $("result").hidden = true;
  $("timeout-note").hidden = true;
  showRefusal(null);
  Object.assign(session, {
    game, token, seat, shown: null, listing: null, seen: -1, logRead: 0, moved: new Set(), leaving: false,
    replay: null,
    opened: session.opened + 1,
  });
  try {
    await loadCatalog(); // the titles' names
  } catch (error) {
    showRefusal(error);
  }
  await refresh();
  if (session.shown) {
    document.body.dataset.game = game;
    document.body.dataset.ready = "game";
    if (!["finished", "aborted", "expired"].includes(session.shown.status)) openStream();
  }
}

function route() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const game = fragment.get("game");
  closeStream(t("live.why.left"));
  document.body.dataset.ready = "loading";
  delete document.body.dataset.game;
  session.seat = null;
  if (game && fragment.has("player")) {
    const seat = fragment.get("seat");
    openGame(game, playerKey(), seat === null || seat === "" ? null : Number(seat));
  } else if (game) openGame(game, fragment.get("token"));
  else if (fragment.get("join")) openJoin(fragment.get("join"));
  else openSetup();
}

document.addEventListener("DOMContentLoaded", async () => {
  // The words first: everything the page writes after is in them. Without them (the server
  // away) the markup's English stays, and the console says why.
  try {
    await loadWords();
  } catch (error) {
    console.error(`the page's words could not be read: ${error}`);
  }
  $("language").addEventListener("change", switchLanguage);
  $("moves").addEventListener("click", (event) => {
    const button = event.target.closest("button.move");
    if (button && !button.disabled) play(button);
  });
  $("resign").addEventListener("click", () => seatAction($("resign"), "resign", t("actions.confirm_resign")));
  $("abort").addEventListener("click", () => seatAction($("abort"), "abort", t("actions.confirm_abort")));
  $("rematch").addEventListener("click", () => seatAction($("rematch"), "rematch"));
  $("leave").addEventListener("click", () => seatAction($("leave"), "leave"));
  $("replay-first").addEventListener("click", () => showVersion(0));
  $("replay-back").addEventListener("click", () => stepVersion(-1));
  $("replay-forward").addEventListener("click", () => stepVersion(1));
  $("replay-latest").addEventListener("click", () => showVersion(Infinity));
  $("replay").addEventListener("submit", (event) => {
    event.preventDefault();
    showVersion($("replay-version").value);
  });
  $("lobby-refresh").addEventListener("click", () => loadLobby(false));
  $("lobby-more").addEventListener("click", () => loadLobby(true));
  $("lobby-title").addEventListener("change", () => loadLobby(false));
  $("lobby-seats").addEventListener("change", () => loadLobby(false));
  $("lobby-games").addEventListener("click", async (event) => {
    const button = event.target.closest("button.join");
    if (!button) return;
    button.disabled = true;
    if (!await join(button.dataset.game, undefined, $("lobby-name").value.trim(), $("lobby-refusal"))) {
      button.disabled = false;
      loadLobby(false, true); // the game may have started or gone meanwhile: the list as it is now
    }
  });
  $("join-seats").addEventListener("click", async (event) => {
    const button = event.target.closest("button.take-seat");
    if (!button) return;
    button.disabled = true;
    const game = new URLSearchParams(location.hash.slice(1)).get("join");
    if (!await join(game, Number(button.dataset.seat), $("join-name").value.trim(), $("join-refusal"))) {
      button.disabled = false;
    }
  });
  $("become-player").addEventListener("click", becomePlayer);
  $("paste-key").addEventListener("submit", usePastedKey);
  $("forget-key").addEventListener("click", forgetKey);
  $("my-games-refresh").addEventListener("click", () => loadMyGames());
  $("seek-form").addEventListener("submit", seek);
  $("seeks").addEventListener("click", cancelSeek);
  $("seeks-refresh").addEventListener("click", async () => {
    await loadSeeks();
    await loadMyGames(); // a seek matched meanwhile: its game is in My games too
  });
  $("ratings-form").addEventListener("submit", loadRatings);
  setInterval(tickClock, 1000);
  window.addEventListener("hashchange", route);
  route();
});
