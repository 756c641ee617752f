// The influence sandbox page. The server computes every layer (docs/sandbox-api.md); this
// script edits the scene through /api/, fetches the shown layer as a binary frame and draws
// it with the colour tables of influence::render (/api/colormap). window.sandbox exposes the
// same functions the controls use, for scripts and tests (tests/browser.rs).
"use strict";

const $ = (id) => document.getElementById(id);
const PRESET_TEAMS = ["red", "blue", "green", "gold", "purple", "grey"];
/** Height of the title line above the map (its layer and step). */
const HEAD = 30;
const MAX_RATE = 61; // the rate slider's last stop: one step per frame
const params = new URLSearchParams(location.search);

const state = {
  scene: null, lut: null, frame: null, image: null, layer: params.get("layer") || "influence",
  tool: "select", selected: null, playing: false, rate: 20, acc: 0, lastTick: 0, lastFetch: 0,
  dirty: true, inflight: false, pending: 0, waiters: [], painted: [], hover: null, drag: null,
  scale: 1, brush: 2, running: true,
  defaults: { team: "red", strength: 10, falloff: "linear", radius: 30 },
};

// ---------------------------------------------------------------- the API

class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

async function api(method, path, body, type = "application/json") {
  state.pending++;
  try {
    const init = { method, headers: {} };
    if (method === "POST" || method === "PUT") {
      init.headers["Content-Type"] = type;
      init.body = body === undefined ? "{}" : typeof body === "string" ? body : JSON.stringify(body);
    }
    const r = await fetch("/api/" + path, init);
    const ct = r.headers.get("Content-Type") || "";
    if (!r.ok) {
      let message = "HTTP " + r.status;
      try { message = (await r.json()).error; } catch (_) { /* not JSON */ }
      throw new ApiError(r.status, message);
    }
    if (ct.startsWith("application/json")) return await r.json();
    if (ct.startsWith("application/octet-stream")) return await r.arrayBuffer();
    return await r.text();
  } finally {
    state.pending--;
    settle();
  }
}

function report(e) {
  console.error(e);
  const t = $("toast");
  t.textContent = e.message || String(e);
  t.title = t.textContent;
  clearTimeout(report.timer);
  report.timer = setTimeout(() => { t.textContent = ""; }, 6000);
}

/** Runs an edit; a refused one is shown, not thrown (the scene stays as it was). */
async function edit(method, path, body, type) {
  state.pending++; // until the answer is applied, so idle() cannot resolve in between
  try {
    const r = await api(method, path, body, type);
    setScene(r.scene || r);
    return r;
  } catch (e) {
    report(e);
    return null;
  } finally {
    state.pending--;
    settle();
  }
}

// ---------------------------------------------------------------- frames

function decode(buf) {
  const dv = new DataView(buf);
  if (dv.getUint32(0, true) !== 0x4c464e49) throw new Error("not a layer frame"); // "INFL"
  const w = dv.getUint32(8, true), h = dv.getUint32(12, true), n = w * h;
  return {
    w, h, version: dv.getUint32(16, true), done: dv.getUint32(20, true), target: dv.getUint32(24, true),
    kind: dv.getUint8(28), drawFront: dv.getUint8(29) === 1, lo: dv.getFloat32(32, true), hi: dv.getFloat32(36, true),
    predicted: dv.getUint32(40, true), lastSeen: dv.getUint32(44, true),
    values: new Float32Array(buf, 48, n), flags: new Uint8Array(buf, 48 + 4 * n, n), routes: decodeRoutes(dv, 48 + 5 * n),
  };
}

/** The routes after the flags: a count, then per route a length and its cells. */
function decodeRoutes(dv, at) {
  const routes = [], count = dv.getUint32(at, true);
  at += 4;
  for (let r = 0; r < count; r++) {
    const len = dv.getUint32(at, true), cells = new Uint32Array(len);
    for (let i = 0; i < len; i++) cells[i] = dv.getUint32(at + 4 + 4 * i, true);
    routes.push(cells);
    at += 4 + 4 * len;
  }
  return routes;
}

/** The colour-table index of v, as influence::render::Scale::unit places it. */
function lutIndex(f, v, top) {
  if (f.kind === 0) {
    const t = f.hi > 0 ? Math.min(1, Math.max(-1, v / f.hi)) : 0;
    return Math.round((t + 1) / 2 * top);
  }
  const t = f.hi > f.lo ? Math.min(1, Math.max(0, (v - f.lo) / (f.hi - f.lo))) : 0;
  return Math.round(t * top);
}

function paint(f) {
  const canvas = $("map"), ctx = canvas.getContext("2d");
  if (!state.image || state.image.width !== f.w || state.image.height !== f.h) {
    canvas.width = f.w;
    canvas.height = f.h;
    state.image = ctx.createImageData(f.w, f.h);
    layout();
  }
  const px = state.image.data, lut = f.kind === 0 ? state.lut.div : state.lut.seq, top = state.lut.size - 1;
  const [wall, front, nan] = [state.lut.obstacle, state.lut.frontline, state.lut.nan];
  for (let i = 0, o = 0; i < f.values.length; i++, o += 4) {
    const fl = f.flags[i], v = f.values[i];
    let c, k = -1;
    if (fl & 1) c = wall;
    else if (f.drawFront && fl & 2) c = front;
    else if (v !== v) c = nan;
    else k = lutIndex(f, v, top) * 3;
    if (k >= 0 && f.faint) { px[o] = fade(lut[k]); px[o + 1] = fade(lut[k + 1]); px[o + 2] = fade(lut[k + 2]); }
    else if (k >= 0) { px[o] = lut[k]; px[o + 1] = lut[k + 1]; px[o + 2] = lut[k + 2]; }
    else { px[o] = c[0]; px[o + 1] = c[1]; px[o + 2] = c[2]; }
    px[o + 3] = 255;
  }
  ctx.putImageData(state.image, 0, 0);
  drawLegend(f);
}

/** A colour channel washed out towards white, as figures fade the map under a front line. */
const fade = (v) => 255 - Math.floor((255 - v) * 3 / 10);

function drawLegend(f) {
  const c = $("legend"), ctx = c.getContext("2d"), lut = f.kind === 0 ? state.lut.div : state.lut.seq;
  const img = ctx.createImageData(c.width, 1), top = state.lut.size - 1, look = f.faint ? fade : (v) => v;
  for (let x = 0; x < c.width; x++) {
    const k = Math.round(x / (c.width - 1) * top) * 3;
    img.data.set([look(lut[k]), look(lut[k + 1]), look(lut[k + 2]), 255], x * 4);
  }
  for (let y = 0; y < c.height; y++) ctx.putImageData(img, 0, y);
  const fmt = (v) => (Math.abs(v) >= 1000 || (v !== 0 && Math.abs(v) < 0.01) ? v.toExponential(1) : +v.toFixed(2)).toString();
  $("legend-lo").textContent = fmt(f.lo);
  $("legend-mid").textContent = f.kind === 0 ? "0" : fmt((f.lo + f.hi) / 2);
  $("legend-hi").textContent = fmt(f.hi);
  showFigure();
}

/** A team's colour ("#rrggbb", from the scene) and marker shape (by its place in the teams). */
function teamStyle(team) {
  const s = state.scene, shapes = state.lut.shapes, i = Math.max(0, s.teams.indexOf(team));
  return { color: s.team_colors[i] || "#888888", shape: shapes[i % shapes.length] };
}

/** What explains the picture, as figures show it: the title and step above the map, the
 * colour bar's unit and which side is whose, and the legend of teams, front line and marks. */
function showFigure() {
  const s = state.scene, f = state.frame;
  if (!s || !f) return;
  const kind = s.propagation ? s.propagation.kind : "none";
  $("figure-title").textContent = `${s.map.name}: ${f.layer}`;
  $("figure-step").textContent = kind === "diffuse" || kind === "flood"
    ? `step ${f.done}` + (f.done < f.target ? ` / ${f.target}` : "") : "";
  const influence = f.layer === "influence" || f.layer === "frontline";
  $("legend-name").textContent = (f.layer === "heat" ? "heat" : "influence") + (f.faint ? " (faded)" : "");
  const others = s.teams.filter((t) => t !== s.perspective);
  const ends = influence && s.perspective && others.length > 0;
  $("legend-low-end").textContent = ends ? `< ${others.join(", ")} ahead` : "";
  $("legend-high-end").textContent = ends ? `${s.perspective} ahead >` : "";
  const entries = s.teams.map((t) => ({ name: t, ...teamStyle(t) }));
  if (f.drawFront) entries.push({ name: "front line", mark: "front" });
  if (f.lastSeen !== 0xffffffff) entries.push({ name: "last seen", mark: "seen" });
  if (f.predicted !== 0xffffffff) entries.push({ name: "predicted", mark: "predicted" });
  const key = JSON.stringify(entries);
  if ($("team-legend").dataset.key === key) return;
  $("team-legend").dataset.key = key;
  $("team-legend").replaceChildren(...entries.map((e) => {
    const li = document.createElement("li"), c = document.createElement("canvas"), name = document.createElement("span");
    c.width = c.height = 32;
    const ctx = c.getContext("2d");
    ctx.scale(2, 2);
    if (e.mark === "front") { ctx.fillStyle = rgb(state.lut.frontline); ctx.fillRect(0, 6, 16, 4); }
    else if (e.mark === "seen") lastSeenMark(ctx, 8, 8, 5);
    else if (e.mark === "predicted") predictedMark(ctx, 8, 8, 4);
    else marker(ctx, e.shape, 8, 8, 6, e.color, "#000", 1.5);
    name.textContent = e.name;
    if (e.color) { name.style.color = e.color; li.dataset.team = e.name; }
    li.append(c, name);
    return li;
  }));
}

const rgb = (c) => `rgb(${c[0]},${c[1]},${c[2]})`;

async function fetchFrame(advance) {
  state.inflight = true;
  state.dirty = false;
  state.lastFetch = performance.now();
  try {
    // The front-line layer is drawn as figures draw it: the influence map faded, with the
    // front line in its own colour over it (the frame of `influence` carries both).
    const shown = state.layer, faint = shown === "frontline";
    const f = decode(await api("POST", "frame", { layer: faint ? "influence" : shown, advance }));
    Object.assign(f, { layer: shown, faint });
    state.frame = f;
    paint(f);
    drawOverlay();
    countFrame();
    showSteps();
    if (!state.scene || f.version !== state.scene.version % 2 ** 32) setScene(await api("GET", "scene"));
  } catch (e) {
    if (e.status === 404 && state.layer !== "influence") { state.layer = "influence"; state.dirty = true; }
    else report(e);
  } finally {
    state.inflight = false;
    settle();
  }
}

function countFrame() {
  const now = performance.now();
  state.frameCount = (state.frameCount || 0) + 1;
  state.painted.push(now);
  while (state.painted.length && state.painted[0] < now - 1000) state.painted.shift();
  const live = state.playing || (state.frame && state.frame.done < state.frame.target);
  $("fps").textContent = live ? state.painted.length + " fps" : "";
}

function tick(now) {
  if (!state.running) return;
  requestAnimationFrame(tick);
  const dt = state.lastTick ? Math.min(0.25, (now - state.lastTick) / 1000) : 0;
  state.lastTick = now;
  if (state.inflight || !state.lut) return;
  let advance = 0;
  if (state.playing) {
    if (state.rate >= MAX_RATE) advance = 1;
    else { state.acc += dt * state.rate; advance = Math.floor(state.acc); state.acc -= advance; }
  }
  const catching = state.frame && state.frame.done < state.frame.target;
  if (advance > 0 || state.dirty || catching || now - state.lastFetch > 1000) fetchFrame(Math.min(advance, 1000));
}

/** Resolves when no request is pending and the frame shows the current scene. */
function idle() {
  return new Promise((resolve) => { state.waiters.push(resolve); settle(); });
}

function settle() {
  const f = state.frame, s = state.scene;
  const current = f && s && f.version === s.version % 2 ** 32 && f.done >= f.target;
  if (state.pending === 0 && !state.inflight && !state.dirty && current) {
    state.waiters.splice(0).forEach((w) => w());
  }
}

// ---------------------------------------------------------------- the scene

function setScene(s) {
  const changed = !state.scene || state.scene.version !== s.version;
  state.scene = s;
  if (state.frame && s.steps.target !== state.frame.target) state.dirty = true; // a step is not an edit
  if (!changed) return;
  state.dirty = true;
  if (state.selected !== null && !s.sources.some((src) => src.id === state.selected)) state.selected = null;
  const m = s.map;
  $("summary").textContent = `${m.name} · ${m.width}×${m.height} cells, cell size ${m.cell_size} · ` +
    `${s.sources.length} source${s.sources.length === 1 ? "" : "s"}` + (s.error ? ` · ${s.error}` : "");
  fillSelect($("layer"), s.layers, state.layer);
  if (!s.layers.includes(state.layer)) state.layer = s.layers.includes("influence") ? "influence" : s.layers[0];
  $("layer").value = state.layer;
  fillSelect($("perspective"), s.teams, s.perspective);
  fillSelect($("route-layer"), s.layers, $("route-layer").value || "theirs");
  showRoutes();
  const teams = [...s.teams, ...PRESET_TEAMS.filter((t) => !s.teams.includes(t))];
  fillSelect($("team"), teams, $("team").value || state.defaults.team);
  showSource();
  showPropagation();
  showSteps();
  drawOverlay();
}

/** A route as its [[path]] table (without what was found). */
const pathTable = ({ from, to, layer, weight }) => ({ from, to, layer, weight });
const setPaths = (paths) => edit("PUT", "paths", { paths });

function showRoutes() {
  const fmt = (v) => (Math.abs(v) >= 1000 ? v.toExponential(2) : v.toFixed(1));
  $("routes").replaceChildren(...state.scene.paths.map((p, i) => {
    const li = document.createElement("li"), text = document.createElement("span"), del = document.createElement("button");
    text.textContent = `avoid ${p.layer || "theirs"} ×${p.weight ?? 1}: ` +
      (p.reachable ? `${fmt(p.length)} long, exposure ${fmt(p.exposure)}` : p.note || "unreachable");
    del.textContent = "×";
    del.title = "remove this route";
    del.onclick = () => setPaths(state.scene.paths.filter((_, j) => j !== i).map(pathTable));
    li.append(text, del);
    return li;
  }));
}

function fillSelect(select, items, value) {
  const want = items.join("\n");
  if (select.dataset.items !== want) {
    select.replaceChildren(...items.map((t) => new Option(t, t)));
    select.dataset.items = want;
  }
  if (value !== undefined && value !== null && items.includes(value)) select.value = value;
}

const sourceById = (id) => state.scene && state.scene.sources.find((s) => s.id === id);
const cellSize = () => state.scene.map.cell_size;
const origin = () => state.scene.map.origin;
/** World position of the centre of cell (x, y). */
const centre = (x, y) => [origin()[0] + (x + 0.5) * cellSize(), origin()[1] + (y + 0.5) * cellSize()];

/** The source table the panel describes, at `at`, keeping a band's points or ring from `base`. */
function specFromPanel(at, base) {
  const falloff = $("falloff").value, num = (id) => Number($(id).value);
  const s = { team: $("team").value, at, strength: num("strength-n"), falloff };
  if (falloff !== "band" && falloff !== "point") s.radius = num("radius-n");
  if (falloff === "exponential") s.rate = num("rate");
  if (falloff === "halving") s.step = num("step");
  if (falloff === "polynomial") s.power = num("power");
  if (falloff === "gaussian") s.sigma = num("sigma");
  if (falloff === "band") {
    if (base && base.falloff === "band" && (base.points || base.ring)) {
      if (base.points) s.points = base.points; else s.ring = base.ring;
      if (base.radius !== undefined) s.radius = base.radius;
    } else {
      for (const k of ["full", "accuracy_end", "accuracy", "movement_end"]) s[k] = num(k);
    }
  }
  if ($("distance").value !== "euclidean") s.distance = $("distance").value;
  if ($("mode").value) s.mode = $("mode").value;
  return s;
}

function showSource() {
  const src = sourceById(state.selected), s = src || state.defaults;
  $("source-title").textContent = src ? `Source ${src.id} (${src.team})` : "New source";
  $("delete-source").disabled = !src;
  if (src) $("team").value = src.team;
  const set = (id, v) => { if (v !== undefined && document.activeElement !== $(id)) $(id).value = v; };
  set("strength", s.strength); set("strength-n", s.strength);
  $("falloff").value = s.falloff;
  if (s.radius !== undefined) { set("radius", s.radius); set("radius-n", s.radius); }
  for (const k of ["rate", "step", "power", "sigma", "full", "accuracy_end", "accuracy", "movement_end"]) set(k, s[k]);
  $("distance").value = s.distance || "euclidean";
  $("mode").value = s.mode || "";
  showFalloffParams();
}

function showFalloffParams() {
  const f = $("falloff").value;
  for (const el of document.querySelectorAll("#source-panel [data-for]")) {
    const key = el.dataset.for;
    el.hidden = key === "radius" ? f === "band" || f === "point" : key !== f;
  }
}

/** The panel changed: edit the selected source, or the defaults for new ones. */
function panelChanged() {
  showFalloffParams();
  const src = sourceById(state.selected);
  if (!src) {
    state.defaults = specFromPanel(undefined);
    return;
  }
  const { id, ...base } = src;
  putSource(id, specFromPanel(base.at, base));
}

/** Sends a source's new table; while one is on its way the latest waits its turn. */
function putSource(id, spec) {
  const q = (putSource.queue ||= new Map());
  const busy = q.has(id);
  q.set(id, spec);
  if (busy) return;
  (async () => {
    while (q.has(id)) {
      const next = q.get(id);
      await edit("PUT", "sources/" + id, next);
      if (q.get(id) === next) q.delete(id);
    }
  })();
}

function showPropagation() {
  const p = state.scene.propagation, kind = p ? p.kind : "none", focus = document.activeElement;
  if (focus !== $("prop-kind")) $("prop-kind").value = kind;
  const set = (id, v) => { if (v !== undefined && v !== null && focus !== $(id)) $(id).value = v; };
  if (p) {
    set("decay", p.decay); set("momentum", p.momentum ?? 1);
    set("decay-kind", p.decay_kind || "exponential");
    set("heat", p.heat ?? 1); set("cooling", p.cooling ?? 0.1); set("barrier", p.barrier_radius ?? 0);
    set("prop-neighbours", p.neighbours ? String(p.neighbours) : "");
  }
  for (const el of document.querySelectorAll("[data-kinds]")) el.hidden = !el.dataset.kinds.split(" ").includes(kind);
  for (const id of ["decay", "momentum", "heat", "cooling", "barrier"]) $(id + "-out").textContent = $(id).value;
  const pr = state.scene.prediction;
  $("prediction").textContent = pr
    ? `guess: cell (${pr.cell[0]}, ${pr.cell[1]}) after ${pr.steps} steps, ${pr.warm} warm cells (${pr.stop.replace(/_/g, " ")})`
    : "";
  $("tools").querySelector('[data-tool="seen"]').disabled = kind !== "flood";
}

function showSteps() {
  const f = state.frame;
  if (!f || !state.scene) return;
  const kind = state.scene.propagation ? state.scene.propagation.kind : "none";
  $("steps").textContent = kind === "diffuse" || kind === "flood"
    ? `step ${f.target}` + (f.done < f.target ? ` (replaying ${f.done}/${f.target})` : "") : "";
  showFigure();
  $("play").textContent = state.playing ? "Pause" : "Play";
  $("play").setAttribute("aria-pressed", String(state.playing));
}

/** The [propagation] table the panel describes ({kind: "none"} for none). */
function propagationFromPanel() {
  const kind = $("prop-kind").value, p = state.scene.propagation;
  if (kind === "none") return { kind };
  const spec = { kind };
  if (kind === "diffuse" || kind === "steady") {
    spec.decay = Number($("decay").value);
    spec.momentum = Number($("momentum").value);
    if ($("decay-kind").value !== "exponential") spec.decay_kind = $("decay-kind").value;
    if (p && p.kind !== "flood" && p.threshold !== undefined) spec.threshold = p.threshold;
  } else {
    const old = p && p.kind === "flood" ? p : null;
    spec.last_seen = old ? old.last_seen : defaultLastSeen();
    if (old && old.velocity) spec.velocity = old.velocity;
    if (Number($("heat").value) !== 1) spec.heat = Number($("heat").value);
    spec.cooling = Number($("cooling").value);
    spec.barrier_radius = Number($("barrier").value);
    if (old && old.max_new !== undefined) spec.max_new = old.max_new;
  }
  if ($("prop-neighbours").value) spec.neighbours = Number($("prop-neighbours").value);
  return spec;
}

/** The walkable cell nearest the map's middle (where a new flood starts). */
function defaultLastSeen() {
  const f = state.frame, { width: w, height: h } = state.scene.map;
  let best = null, bestD = Infinity;
  for (let i = 0; f && i < f.flags.length; i++) {
    if (f.flags[i] & 1) continue;
    const x = i % w, y = (i - x) / w, d = (x - w / 2) ** 2 + (y - h / 2) ** 2;
    if (d < bestD) { bestD = d; best = [x, y]; }
  }
  return centre(...(best || [0, 0]));
}

function setPropagation(spec) {
  const q = (setPropagation.q ||= { busy: false, next: null });
  q.next = spec;
  if (q.busy) return Promise.resolve();
  q.busy = true;
  return (async () => {
    while (q.next) {
      const s = q.next;
      q.next = null;
      if (!(await edit("PUT", "propagation", s))) showPropagation();
    }
    q.busy = false;
  })();
}

// ---------------------------------------------------------------- the overlay and input

function layout() {
  const stage = $("stage"), map = $("map"), ov = $("overlay");
  if (!state.image) return;
  const { width: w, height: h } = state.image, pad = 16, room = stage.clientHeight - HEAD;
  const s = Math.max(0.1, Math.min((stage.clientWidth - 2 * pad) / w, (room - 2 * pad) / h));
  const cw = Math.round(w * s), ch = Math.round(h * s);
  const left = Math.round((stage.clientWidth - cw) / 2), top = HEAD + Math.round((room - ch) / 2);
  for (const c of [map, ov]) Object.assign(c.style, { width: cw + "px", height: ch + "px", left: left + "px", top: top + "px" });
  const dpr = window.devicePixelRatio || 1;
  ov.width = Math.round(cw * dpr);
  ov.height = Math.round(ch * dpr);
  state.scale = cw / w;
  drawOverlay();
}

/** CSS pixels within the overlay of world position p. */
function toScreen(p) {
  const cs = cellSize(), o = origin();
  return [(p[0] - o[0]) / cs * state.scale, (p[1] - o[1]) / cs * state.scale];
}

/** A team's marker: its shape (the figures' shapes, in their proportions) filled with its colour. */
function marker(ctx, shape, x, y, r, fill, outline, width) {
  const poly = (pts) => { ctx.moveTo(x + pts[0][0] * r, y + pts[0][1] * r); for (const [px, py] of pts.slice(1)) ctx.lineTo(x + px * r, y + py * r); ctx.closePath(); };
  const a = 1 / 2.6;
  ctx.beginPath();
  if (shape === "circle") ctx.arc(x, y, r, 0, 2 * Math.PI);
  else if (shape === "square") poly([[-0.82, -0.82], [0.82, -0.82], [0.82, 0.82], [-0.82, 0.82]]);
  else if (shape === "triangle") poly([[0, -1], [1.155, 0.75], [-1.155, 0.75]]);
  else if (shape === "triangle-down") poly([[0, 1], [1.155, -0.75], [-1.155, -0.75]]);
  else if (shape === "plus") poly([[-a, -1], [a, -1], [a, -a], [1, -a], [1, a], [a, a], [a, 1], [-a, 1], [-a, a], [-1, a], [-1, -a], [-a, -a]]);
  else poly([[0, -1.1], [1.1, 0], [0, 1.1], [-1.1, 0]]);
  ctx.fillStyle = fill; ctx.fill();
  ctx.lineWidth = width; ctx.strokeStyle = outline; ctx.stroke();
}

/** The last-seen mark: a ring in its colour between two black ones. */
function lastSeenMark(ctx, x, y, r) {
  for (const [width, colour] of [[4.4, "#000"], [2, rgb(state.lut.last_seen)]]) {
    ctx.lineWidth = width; ctx.strokeStyle = colour;
    ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI); ctx.stroke();
  }
}

/** The predicted mark: a ring with a cross-hair, in its colour, outlined black. */
function predictedMark(ctx, x, y, r) {
  for (const [width, colour] of [[4.4, "#000"], [2, rgb(state.lut.predicted)]]) {
    ctx.lineWidth = width; ctx.strokeStyle = colour;
    ctx.beginPath(); ctx.arc(x, y, r, 0, 2 * Math.PI);
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      ctx.moveTo(x + dx * r / 2, y + dy * r / 2); ctx.lineTo(x + dx * (r + 4), y + dy * (r + 4));
    }
    ctx.stroke();
  }
}

function drawOverlay() {
  const ov = $("overlay"), ctx = ov.getContext("2d"), s = state.scene;
  if (!s || !state.image) return;
  const dpr = ov.width / parseFloat(ov.style.width || "1");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, ov.width, ov.height);
  const cellPx = state.scale, w = s.map.width;
  if (state.hover) {
    const [hx, hy] = state.hover;
    ctx.strokeStyle = "rgba(255,255,255,.8)"; ctx.lineWidth = 1;
    ctx.strokeRect(hx * cellPx - 0.5, hy * cellPx - 0.5, cellPx + 1, cellPx + 1);
  }
  const f = state.frame;
  if (f && f.lastSeen !== 0xffffffff) {
    const [x, y] = [(f.lastSeen % w + 0.5) * cellPx, (Math.floor(f.lastSeen / w) + 0.5) * cellPx];
    lastSeenMark(ctx, x, y, 11); // wider than the predicted mark: both show on one cell
    ctx.strokeStyle = "#fff"; ctx.lineWidth = 2;
    const v = s.propagation && s.propagation.velocity;
    if (v && (v[0] || v[1])) {
      const n = Math.hypot(v[0], v[1]), [ex, ey] = [x + v[0] / n * 24, y + v[1] / n * 24];
      ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(ex, ey); ctx.stroke();
      const a = Math.atan2(v[1], v[0]);
      ctx.beginPath(); ctx.moveTo(ex, ey);
      ctx.lineTo(ex - 7 * Math.cos(a - 0.5), ey - 7 * Math.sin(a - 0.5));
      ctx.lineTo(ex - 7 * Math.cos(a + 0.5), ey - 7 * Math.sin(a + 0.5)); ctx.closePath();
      ctx.fillStyle = "#fff"; ctx.fill();
    }
  }
  if (f && f.predicted !== 0xffffffff) {
    const [x, y] = [(f.predicted % w + 0.5) * cellPx, (Math.floor(f.predicted / w) + 0.5) * cellPx];
    predictedMark(ctx, x, y, 7);
  }
  const centreOf = (c) => [(c % w + 0.5) * cellPx, (Math.floor(c / w) + 0.5) * cellPx];
  for (const route of f ? f.routes : []) {
    if (route.length < 2) continue;
    for (const [width, colour] of [[4, "#fff"], [2, "#000"]]) {
      ctx.lineWidth = width; ctx.strokeStyle = colour; ctx.lineJoin = "round";
      ctx.beginPath();
      route.forEach((c, i) => (i ? ctx.lineTo(...centreOf(c)) : ctx.moveTo(...centreOf(c))));
      ctx.stroke();
    }
  }
  const ends = s.paths.flatMap((p) => [p.from, p.to].map(toScreen));
  if (state.routeStart) ends.push(toScreen(centre(...state.routeStart)));
  for (const [x, y] of ends) {
    ctx.beginPath(); ctx.arc(x, y, 4, 0, 2 * Math.PI);
    ctx.fillStyle = "#fff"; ctx.fill(); ctx.lineWidth = 1.5; ctx.strokeStyle = "#000"; ctx.stroke();
  }
  const r = Math.max(5, Math.min(9, cellPx * 1.5));
  for (const src of s.sources) {
    const at = state.drag && state.drag.id === src.id ? state.drag.at : src.at;
    const [x, y] = toScreen(at), sel = src.id === state.selected;
    if (sel && src.radius !== undefined) {
      ctx.setLineDash([4, 4]); ctx.lineWidth = 1; ctx.strokeStyle = "rgba(255,255,255,.7)";
      ctx.beginPath(); ctx.arc(x, y, src.radius / cellSize() * cellPx, 0, 2 * Math.PI); ctx.stroke();
      ctx.setLineDash([]);
    }
    const { color, shape } = teamStyle(src.team);
    marker(ctx, shape, x, y, sel ? r + 2 : r, color, sel ? "#fff" : "#000", sel ? 2.5 : 1.5);
  }
}

/** The cell under a pointer event, or null off the map. */
function cellOf(e) {
  const rect = $("overlay").getBoundingClientRect(), m = state.scene.map;
  const x = Math.floor((e.clientX - rect.left) / state.scale), y = Math.floor((e.clientY - rect.top) / state.scale);
  return x >= 0 && y >= 0 && x < m.width && y < m.height ? [x, y] : null;
}

/** Client coordinates of the centre of cell (x, y) (for scripted clicks). */
function cellToClient(x, y) {
  const rect = $("overlay").getBoundingClientRect();
  return [rect.left + (x + 0.5) * state.scale, rect.top + (y + 0.5) * state.scale];
}

function sourceNear(e) {
  const rect = $("overlay").getBoundingClientRect();
  let best = null, bestD = 12 * 12;
  for (const src of state.scene.sources) {
    const [x, y] = toScreen(src.at), d = (x - (e.clientX - rect.left)) ** 2 + (y - (e.clientY - rect.top)) ** 2;
    if (d <= bestD) { best = src; bestD = d; }
  }
  return best;
}

/** Cells of the brush along the segment a → b. */
function brushCells(a, b) {
  const out = new Map(), r = state.brush, m = state.scene.map;
  const n = Math.max(Math.abs(b[0] - a[0]), Math.abs(b[1] - a[1]), 1);
  for (let i = 0; i <= n; i++) {
    const cx = Math.round(a[0] + (b[0] - a[0]) * i / n), cy = Math.round(a[1] + (b[1] - a[1]) * i / n);
    for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) {
      const x = cx + dx, y = cy + dy;
      if (dx * dx + dy * dy <= r * r + r && x >= 0 && y >= 0 && x < m.width && y < m.height) out.set(y * m.width + x, [x, y]);
    }
  }
  return [...out.values()];
}

/** Queues wall edits; one request at a time carries everything queued. */
function paintWalls(cells, blocked) {
  const q = (paintWalls.q ||= { busy: false, cells: new Map(), blocked });
  if (q.blocked !== blocked) q.cells.clear();
  q.blocked = blocked;
  for (const c of cells) q.cells.set(c[1] * 1e6 + c[0], c);
  if (q.busy) return Promise.resolve();
  q.busy = true;
  return (async () => {
    while (q.cells.size) {
      const body = { cells: [...q.cells.values()], blocked: q.blocked };
      q.cells.clear();
      await edit("POST", "walls", body);
    }
    q.busy = false;
  })();
}

async function addSource(spec) {
  const r = await edit("POST", "sources", spec);
  return r ? r.id : null;
}

function onPointerDown(e) {
  if (!state.scene || e.button > 0) return;
  const c = cellOf(e);
  try { $("overlay").setPointerCapture(e.pointerId); } catch (_) { /* a scripted event has no pointer to capture */ }
  if (state.tool === "select") {
    const src = sourceNear(e);
    state.selected = src ? src.id : null;
    if (src) state.drag = { id: src.id, at: src.at };
    showSource(); drawOverlay();
  } else if (state.tool === "add" && c) {
    // A new source takes the panel's values and is not selected, so the panel keeps
    // describing the next one; it can be dragged into place before the button is let go.
    const spec = specFromPanel(centre(...c));
    const drag = { id: null, at: spec.at };
    state.drag = drag;
    addSource(spec).then((id) => { drag.id = id; });
  } else if ((state.tool === "wall" || state.tool === "erase") && c) {
    state.drag = { last: c };
    paintWalls(brushCells(c, c), state.tool === "wall");
  } else if (state.tool === "route" && c) {
    if (!state.routeStart) { state.routeStart = c; drawOverlay(); return; }
    const from = centre(...state.routeStart);
    state.routeStart = null;
    const path = { from, to: centre(...c), layer: $("route-layer").value, weight: Number($("route-weight").value) };
    setPaths([...state.scene.paths.map(pathTable), path]);
  } else if (state.tool === "seen" && c) {
    state.drag = { seen: c, to: c };
  }
}

function onPointerMove(e) {
  if (!state.scene) return;
  const c = cellOf(e), d = state.drag;
  if (c && (!state.hover || c[0] !== state.hover[0] || c[1] !== state.hover[1])) { state.hover = c; hoverCell(c); drawOverlay(); }
  if (!d || !c) return;
  if (d.last) {
    paintWalls(brushCells(d.last, c), state.tool === "wall");
    d.last = c;
  } else if (d.seen) {
    d.to = c;
  } else if (d.id !== undefined) {
    const at = centre(...c);
    if (at[0] === d.at[0] && at[1] === d.at[1]) return;
    d.at = at;
    drawOverlay();
    const src = sourceById(d.id);
    if (src) { const { id, ...spec } = src; putSource(id, { ...spec, at }); }
  }
}

function onPointerUp() {
  const d = state.drag;
  state.drag = null;
  if (d && d.seen) {
    const [x, y] = d.seen, v = [d.to[0] - x, d.to[1] - y];
    const p = state.scene.propagation && state.scene.propagation.kind === "flood" ? { ...state.scene.propagation } : propagationFromPanel();
    p.kind = "flood";
    p.last_seen = centre(x, y);
    if (v[0] || v[1]) p.velocity = v; else delete p.velocity;
    delete p.max_steps;
    setPropagation(p);
  }
  drawOverlay();
}

function hoverCell(c) {
  const q = (hoverCell.q ||= { busy: false, next: null });
  q.next = c;
  if (q.busy) return;
  q.busy = true;
  (async () => {
    while (q.next) {
      const [x, y] = q.next;
      q.next = null;
      try { showCell(await api("GET", `cell?x=${x}&y=${y}`)); } catch (e) { /* the map changed under the pointer */ }
    }
    q.busy = false;
  })();
}

function showCell(v) {
  const fmt = (n) => (n === null ? "NaN" : Math.abs(n) >= 1e4 || (n !== 0 && Math.abs(n) < 1e-3) ? n.toExponential(3) : n.toFixed(4));
  const rows = [["cell", `${v.cell[0]}, ${v.cell[1]}`], ["world", `${v.world[0]}, ${v.world[1]}`], ["walkable", v.walkable ? "yes" : "no"]];
  v.layers.forEach((name, i) => rows.push([name.replace(/_/g, " "), fmt(v.values[i]), name === state.layer]));
  $("cell").tBodies[0].replaceChildren(...rows.map(([k, val, shown]) => {
    const tr = document.createElement("tr");
    if (shown) tr.className = "shown";
    tr.append(Object.assign(document.createElement("td"), { textContent: k }), Object.assign(document.createElement("td"), { textContent: val }));
    return tr;
  }));
}

function setTool(tool) {
  state.tool = tool;
  state.routeStart = null;
  if (tool !== "select" && state.selected !== null) { state.selected = null; showSource(); drawOverlay(); }
  for (const b of $("tools").querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.tool === tool));
  $("overlay").className = tool === "select" ? "select" : "";
}

function setLayer(name) {
  state.layer = name;
  $("layer").value = name;
  state.dirty = true;
  return idle();
}

// ---------------------------------------------------------------- controls

async function loadMap(request) {
  state.selected = null;
  const r = await edit("POST", "map", request);
  state.image = null;
  return r;
}

async function exportToml() {
  return api("GET", "export");
}

function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/toml" }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function bindControls() {
  for (const b of $("tools").querySelectorAll("button")) b.onclick = () => setTool(b.dataset.tool);
  $("brush").oninput = () => { state.brush = Number($("brush").value); $("brush-out").textContent = state.brush; };
  $("map-select").onchange = () => {
    const v = $("map-select").value, m = /^blank-(\d+)$/.exec(v);
    loadMap(m ? { width: Number(m[1]), height: Number(m[1]), name: `blank ${m[1]}×${m[1]}` } : { bundled: v });
  };
  $("map-upload").onchange = async () => {
    const file = $("map-upload").files[0];
    if (file) await loadMap({ movingai: await file.text(), name: file.name });
    $("map-upload").value = "";
  };
  const pair = (a, b) => {
    $(a).addEventListener("input", () => { $(b).value = $(a).value; panelChanged(); });
    $(b).addEventListener("change", () => { $(a).value = $(b).value; panelChanged(); });
  };
  pair("strength", "strength-n");
  pair("radius", "radius-n");
  for (const id of ["team", "falloff", "distance", "mode", "rate", "step", "power", "sigma", "full", "accuracy_end", "accuracy", "movement_end"]) {
    $(id).addEventListener("change", panelChanged);
  }
  $("delete-source").onclick = () => deleteSource(state.selected);
  $("layer").onchange = () => setLayer($("layer").value);
  $("perspective").onchange = () => edit("PUT", "perspective", { team: $("perspective").value });
  $("prop-kind").onchange = () => setPropagation(propagationFromPanel());
  for (const id of ["decay", "momentum", "heat", "cooling", "barrier"]) {
    $(id).addEventListener("input", () => { $(id + "-out").textContent = $(id).value; setPropagation(propagationFromPanel()); });
  }
  for (const id of ["decay-kind", "prop-neighbours"]) $(id).onchange = () => setPropagation(propagationFromPanel());
  const showRate = () => {
    state.rate = Number($("rate-hz").value);
    $("rate-out").textContent = state.rate >= MAX_RATE ? "max" : state.rate + "/s";
  };
  $("rate-hz").oninput = showRate;
  $("route-weight").oninput = () => { $("route-weight-out").textContent = $("route-weight").value; };
  showRate();
  $("play").onclick = () => (state.playing ? pause() : play());
  $("step-once").onclick = () => step(1);
  $("reset").onclick = () => reset();
  $("export").onclick = async () => { try { download("scene.toml", await exportToml()); } catch (e) { report(e); } };
  $("import").onchange = async () => {
    const file = $("import").files[0];
    if (file) { state.selected = null; await edit("POST", "import", await file.text(), "application/toml"); }
    $("import").value = "";
  };
  const ov = $("overlay");
  ov.addEventListener("pointerdown", onPointerDown);
  ov.addEventListener("pointermove", onPointerMove);
  ov.addEventListener("pointerup", onPointerUp);
  ov.addEventListener("pointercancel", onPointerUp);
  ov.addEventListener("pointerleave", () => { state.hover = null; drawOverlay(); });
  window.addEventListener("resize", layout);
  window.addEventListener("keydown", (e) => {
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    const keys = { v: "select", a: "add", w: "wall", e: "erase", r: "route", l: "seen" };
    if (keys[e.key]) setTool(keys[e.key]);
    else if (e.key === " ") { e.preventDefault(); state.playing ? pause() : play(); }
    else if (e.key === "s") step(1);
    else if ((e.key === "Delete" || e.key === "Backspace") && state.selected !== null) deleteSource(state.selected);
  });
}

const deleteSource = (id) => edit("DELETE", "sources/" + id);
const step = (n = 1) => edit("POST", "step", { steps: n });
const reset = () => edit("POST", "reset");
function play() { state.playing = true; state.acc = 0; showSteps(); }
function pause() { state.playing = false; showSteps(); }

/** Plays one step per frame for `ms` and returns the frames drawn per second. */
async function bench(ms = 3000) {
  const before = state.rate;
  state.rate = MAX_RATE;
  play();
  await new Promise((r) => setTimeout(r, 500));
  const n0 = state.frameCount || 0, t0 = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  const fps = ((state.frameCount || 0) - n0) / ((performance.now() - t0) / 1000);
  pause();
  state.rate = before;
  return fps;
}

async function init() {
  bindControls();
  setTool("select");
  const [lut, maps] = await Promise.all([api("GET", "colormap"), api("GET", "maps")]);
  const flat = (rows) => Uint8Array.from(rows.flat());
  state.lut = {
    size: lut.size, div: flat(lut.diverging), seq: flat(lut.sequential), obstacle: lut.obstacle, frontline: lut.frontline,
    nan: lut.nan, last_seen: lut.last_seen, predicted: lut.predicted, shapes: lut.shapes,
  };
  const opts = maps.map((m) => new Option(m.title, m.name));
  opts.push(new Option("Open 256×256", "blank-256"), new Option("Open 128×128", "blank-128"));
  $("map-select").replaceChildren(...opts);
  setScene(await api("GET", "scene"));
  const m = state.scene.map.name;
  $("map-select").value = maps.some((b) => b.name === m) ? m : "";
  requestAnimationFrame(tick);
  await idle();
  const cell = /^(\d+),(\d+)$/.exec(params.get("cell") || ""); // ?cell=x,y fills the cell panel
  if (cell) { state.hover = [Number(cell[1]), Number(cell[2])]; hoverCell(state.hover); drawOverlay(); }
}

window.sandbox = {
  state, api, idle, loadMap, addSource, deleteSource, paintWalls, setLayer, setPropagation, step, reset, play, pause,
  exportToml, cellToClient, bench, setTool, setPaths,
  importToml: (text) => edit("POST", "import", text, "application/toml"),
  setPerspective: (team) => edit("PUT", "perspective", { team }),
  updateSource: (id, spec) => edit("PUT", "sources/" + id, spec),
  /** [r, g, b] of cell (x, y) as drawn on the map canvas. */
  pixel: (x, y) => Array.from($("map").getContext("2d").getImageData(x, y, 1, 1).data.slice(0, 3)),
  stop: () => { state.running = false; },
  ready: null,
};
window.sandbox.ready = init().catch(report);

