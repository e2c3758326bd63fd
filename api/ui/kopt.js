// kopt dashboard: the pages behind api/dashboard.html, served by koptd at /ui/kopt.js.
// Plain JavaScript, no build step, nothing from the network: every page reads the /v1 API with
// the token kept in this browser's localStorage. Routes (location.hash):
//   #/                jobs (and workers)          #/batches        batches
//   #/jobs/ID         a job: rounds timeline, speedup plot, sweeps, evidence, best kernel
//   #/batches/ID      a batch: per-job table, aggregate, speedup distribution
//   #/patterns[/V]    the pattern index: versions, a version's diff, patterns, statistics
// A page that has rendered sets data-page and data-ready on <main id="app">.
"use strict";

const $ = (id) => document.getElementById(id);
const POLL_MS = 3000;
const TERMINAL = ["succeeded", "failed", "cancelled"];
let generation = 0;   // a newer navigation makes an older page's late answers moot
let timer = null;

function esc(s) {
  return String(s ?? "").replace(/[&<>"']/g, (c) =>
    ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}
function num(x, d = 2) { return x === null || x === undefined || Number.isNaN(Number(x)) ? "" : Number(x).toFixed(d); }
function speed(x) { return x === null || x === undefined ? "" : num(x, 3) + "x"; }
function token() { return localStorage.getItem("kopt_token") || ""; }

async function call(path, asText) {
  const r = await fetch(path, { headers: { Authorization: "Bearer " + token() } });
  if (!r.ok) {
    let why = r.status + " " + r.statusText;
    try { const p = await r.json(); why = p.detail || p.title || why; } catch (e) { /* not JSON */ }
    const err = new Error(path + ": " + why);
    err.status = r.status;
    throw err;
  }
  return asText ? r.text() : r.json();
}

function ready(page, html) {
  const app = $("app");
  app.innerHTML = html;
  app.dataset.page = page;
  app.dataset.ready = "1";
}

function kv(pairs) {
  return '<dl class="kv">' + pairs.filter((p) => p[1] !== undefined && p[1] !== null && p[1] !== "")
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join("") + "</dl>";
}
function cards(pairs) {
  return '<div class="cards">' + pairs.map(([k, v, id]) =>
    `<div class="card"${id ? ` id="${id}"` : ""}><div class="v">${esc(v)}</div><div class="k">${esc(k)}</div></div>`).join("") + "</div>";
}
function level(l) { return l ? `<span class="level l${l}">L${l}</span>` : ""; }
function state(s) { return `<span class="${esc(s)}">${esc(s)}</span>`; }

// ------------------------------------------------------------------------------ plots (SVG)

const W = 680, H = 230, ML = 48, MR = 16, MT = 14, MB = 30;

function ticks(lo, hi, n) {
  const step = Math.pow(10, Math.floor(Math.log10((hi - lo) / n || 1)));
  const s = [1, 2, 5, 10].map((m) => m * step).find((v) => (hi - lo) / v <= n) || step * 10;
  const out = [];
  for (let v = Math.ceil(lo / s) * s; v <= hi + 1e-9; v += s) out.push(+v.toFixed(6));
  return out;
}

// The incumbent's speedup after each round: a step line, a dot per round (green accepted,
// red not, grey the baseline), the level reached written under each dot.
function speedupPlot(points) {
  const maxX = Math.max(1, points.length - 1);
  const ys = points.map((p) => p.y);
  const lo = Math.min(1, ...ys), hi = Math.max(1.05, ...ys) * 1.08;
  const x = (v) => ML + (W - ML - MR) * (v / maxX);
  const y = (v) => H - MB - (H - MT - MB) * ((v - lo) / (hi - lo));
  let s = `<svg class="plot" id="speedup-plot" viewBox="0 0 ${W} ${H}" role="img" aria-label="speedup of the incumbent over rounds">`;
  for (const t of ticks(lo, hi, 5)) {
    s += `<line x1="${ML}" x2="${W - MR}" y1="${y(t)}" y2="${y(t)}" stroke="#e5e5e5"/>`;
    s += `<text x="${ML - 6}" y="${y(t) + 4}" text-anchor="end">${t}x</text>`;
  }
  s += `<line x1="${ML}" x2="${W - MR}" y1="${y(1)}" y2="${y(1)}" stroke="#999" stroke-dasharray="3 3"/>`;
  let d = "";
  points.forEach((p, i) => { d += (i ? `H${x(p.x)}V${y(p.y)}` : `M${x(p.x)} ${y(p.y)}`); });
  s += `<path d="${d}" fill="none" stroke="#0a58ca" stroke-width="2"/>`;
  for (const p of points) {
    const c = p.x === 0 ? "#888" : p.ok ? "#198754" : "#b02a37";
    s += `<circle class="round-dot ${p.x === 0 ? "baseline" : p.ok ? "accepted" : "rejected"}" cx="${x(p.x)}" cy="${y(p.y)}" r="4.5" fill="${c}">` +
      `<title>${esc(p.label)}</title></circle>`;
    s += `<text x="${x(p.x)}" y="${H - MB + 14}" text-anchor="middle">${p.x === 0 ? "base" : p.x}</text>`;
    if (p.level) s += `<text x="${x(p.x)}" y="${y(p.y) - 8}" text-anchor="middle">L${p.level}</text>`;
  }
  s += `<text x="${W / 2}" y="${H - 2}" text-anchor="middle">round</text></svg>`;
  return s;
}

// Sorted speedups of a batch's succeeded jobs as bars on a log scale, with 1x, 2x and 5x.
function distributionPlot(jobs) {
  const ok = jobs.filter((j) => j.state === "succeeded" && j.speedup > 0).sort((a, b) => a.speedup - b.speedup);
  const vals = ok.map((j) => j.speedup);
  const lo = Math.log2(Math.min(0.8, ...vals)), hi = Math.log2(Math.max(6, ...vals) * 1.2);
  const y = (v) => H - MB - (H - MT - MB) * ((Math.log2(v) - lo) / (hi - lo));
  const bw = (W - ML - MR) / Math.max(1, ok.length);
  let s = `<svg class="plot" id="dist-plot" viewBox="0 0 ${W} ${H}" role="img" aria-label="speedup distribution">`;
  for (const [t, c] of [[1, "#999"], [2, "#0a58ca"], [5, "#6f42c1"]]) {
    s += `<line x1="${ML}" x2="${W - MR}" y1="${y(t)}" y2="${y(t)}" stroke="${c}" stroke-dasharray="4 3"/>`;
    s += `<text x="${ML - 6}" y="${y(t) + 4}" text-anchor="end">${t}x</text>`;
  }
  ok.forEach((j, i) => {
    const top = y(Math.max(j.speedup, 1)), bot = y(Math.min(j.speedup, 1));
    s += `<rect class="bar" x="${ML + i * bw + bw * 0.12}" y="${top}" width="${bw * 0.76}" height="${Math.max(1, bot - top)}" ` +
      `fill="${j.speedup >= 1 ? "#198754" : "#b02a37"}"><title>${esc((j.operator || j.name || j.id) + ": " + speed(j.speedup))}</title></rect>`;
    if (ok.length <= 40) s += `<text x="${ML + (i + 0.5) * bw}" y="${H - MB + 14}" text-anchor="middle">${esc(String(j.operator || j.name || "").slice(0, 10))}</text>`;
  });
  s += "</svg>";
  return s;
}

// ------------------------------------------------------------------------------ diffs

function diffBlock(text) {
  if (!text) return '<p class="muted">no diff</p>';
  return '<pre class="diff">' + text.split("\n").map((l) => {
    const cls = l.startsWith("+++") || l.startsWith("---") ? "" : l.startsWith("+") ? "add" : l.startsWith("-") ? "del" : l.startsWith("@@") ? "hunk" : "";
    return cls ? `<span class="${cls}">${esc(l)}</span>` : esc(l);
  }).join("\n") + "</pre>";
}

// ------------------------------------------------------------------------------ pages

async function listPage(gen) {
  const jobs = await call("/v1/jobs?limit=100");
  let workers = { workers: [] };
  try { workers = await call("/v1/workers"); } catch (e) { /* a submitter may read jobs only */ }
  if (gen !== generation) return;
  const rows = jobs.jobs.map((j) => {
    const p = j.progress || {};
    const prog = p.step ? `${esc(p.step)} round ${p.round ?? "-"}/${p.rounds ?? j.rounds}${p.level ? " L" + p.level : ""}` : "";
    return `<tr><td><a href="#/jobs/${esc(j.id)}"><code>${esc(j.id.slice(0, 8))}</code></a></td><td>${esc(j.name)}</td>` +
      `<td>${state(j.state)}</td><td>${esc(j.backend)}</td><td>${prog}</td><td class="num">${j.best ? speed(j.best.speedup) : ""}</td>` +
      `<td>${j.batch_id ? `<a href="#/batches/${esc(j.batch_id)}">batch</a>` : ""}</td><td>${esc(j.created_at)}</td><td>${esc(j.error)}</td></tr>`;
  }).join("");
  ready("jobs", `<h2>Jobs</h2><p class="muted">workers: ${esc(workers.workers.map((w) => w.id + " " + w.state).join(", ") || "none")}</p>` +
    `<table id="jobs"><thead><tr><th>job</th><th>name</th><th>state</th><th>backend</th><th>progress</th><th class="num">best</th>` +
    `<th>batch</th><th>created</th><th>error</th></tr></thead><tbody>${rows}</tbody></table>`);
  timer = setTimeout(() => render(gen), POLL_MS);
}

async function batchesPage(gen) {
  const b = await call("/v1/batches?limit=100");
  if (gen !== generation) return;
  const rows = b.batches.map((x) => `<tr><td><a href="#/batches/${esc(x.id)}"><code>${esc(x.id.slice(0, 8))}</code></a></td>` +
    `<td>${esc(x.name)}</td><td>${esc(x.state)}</td><td class="num">${x.jobs}</td><td>${esc(x.policy)}</td>` +
    `<td><a href="#/patterns/${x.pattern_index ?? ""}">${esc(x.pattern_index ?? "")}</a></td><td>${esc(x.created_at)}</td></tr>`).join("");
  ready("batches", `<h2>Batches</h2><table id="batches"><thead><tr><th>batch</th><th>name</th><th>state</th><th class="num">jobs</th>` +
    `<th>policy</th><th>pattern index</th><th>created</th></tr></thead><tbody>${rows}</tbody></table>`);
}

// The incumbent's speedup after each round: the product of the accepted rounds' speedups.
function incumbentPoints(rounds) {
  let cur = 1;
  const pts = [{ x: 0, y: 1, ok: true, label: "baseline: 1x" }];
  for (const r of rounds) {
    const sp = r.timing && r.timing.speedup;
    if (r.accepted && sp > 0) cur *= sp;
    pts.push({ x: r.round, y: cur, ok: r.accepted, level: r.level_reached,
      label: `round ${r.round}: L${r.level_reached} ${r.rewrite_family || ""} ${r.accepted ? "accepted " + speed(sp) : "not accepted"}; incumbent ${speed(cur)}` });
  }
  return pts;
}

function sweepTable(sweep) {
  const c = (sweep && sweep.candidates) || [];
  if (!c.length) return '<p class="muted">no sweep</p>';
  return `<table class="sweep"><thead><tr><th>candidate</th><th>change</th><th>status</th><th class="num">time ms</th><th>reason</th></tr></thead><tbody>` +
    c.map((x) => {
      const ch = x.structural ? `${x.structural.name || x.structural} ${JSON.stringify(x.structural.params || "")}` : JSON.stringify(x.changes || {});
      const t = x.time_ms ?? (x.screen && x.screen.time_ms);
      return `<tr><td>${esc(x.id)}</td><td><code>${esc(ch)}</code></td><td>${esc(x.status)}</td><td class="num">${num(t, 4)}</td><td>${esc(x.reason || "")}</td></tr>`;
    }).join("") + "</tbody></table>" +
    (sweep.incumbent ? `<p class="muted">incumbent on the screen case: ${num(sweep.incumbent.time_ms, 4)} ms</p>` : "");
}

function evidenceList(esc_) {
  return (esc_ || []).map((e) => {
    const t = e.tests || {};
    const fams = (e.families || []).map((f) => `${f.family}${f.direction ? " " + f.direction : ""} (needs L${f.needs_level})`).join(", ");
    const pat = e.patterns ? ` <span class="tag">pattern index v${esc(e.patterns.version)}${e.patterns.settled_by ? ": settled by " + esc(e.patterns.settled_by) : ""}</span>` : "";
    return `<li>${level(e.level)}${e.available === false ? ' <span class="muted">unavailable</span>' : ""}${pat} ` +
      `tests: hotspot ${t.hotspot ? "yes" : "no"}, one family ${t.one_family ? "yes" : "no"}, sufficient ${t.sufficient ? "yes" : "no"}` +
      `${e.hotspot ? "; hotspot " + esc(e.hotspot) : ""}${fams ? "; families: " + esc(fams) : ""}<br><span class="muted">${esc(e.why)}</span></li>`;
  }).join("");
}

async function jobPage(id, gen) {
  const [job, rr] = await Promise.all([call(`/v1/jobs/${id}`), call(`/v1/jobs/${id}/rounds`)]);
  const rounds = rr.rounds || [];
  let source = "";
  if (job.best && job.best.kernel_sha256) {
    try { source = await call(`/v1/jobs/${id}/kernel`, true); } catch (e) { source = ""; }
  }
  if (gen !== generation) return;
  const best = job.best || {}, spec = job.spec || {};
  const settled = rounds.filter((r) => r.level_reached === 1 && r.evidence && r.evidence.l1 && r.evidence.l1.settled_by).length;
  const levels = [1, 2, 3, 4].map((l) => rounds.filter((r) => r.level_reached === l).length);
  let html = `<h2>Job ${esc(job.name || job.id)}</h2>` + kv([
    ["id", `<code>${esc(job.id)}</code>`], ["state", state(job.state)], ["operator", esc(spec.operator)],
    ["backend", esc(job.backend)], ["policy", esc(job.policy)], ["proposer", esc(job.proposer)],
    ["pattern index", best.pattern_index ? `<a href="#/patterns/${best.pattern_index}">v${esc(best.pattern_index)}</a>` : esc(spec.pattern_index)],
    ["batch", job.batch_id ? `<a href="#/batches/${esc(job.batch_id)}">${esc(job.batch_id)}</a>` : ""],
    ["stop reason", esc(best.stop_reason)], ["error", esc(job.error)]]);
  html += cards([["best speedup", speed(best.speedup) || "-", "best-speedup"], ["rounds run", `${rounds.length} / ${job.rounds}`],
    ["best round", best.round ?? "-"], ["settled at L1", settled, "settled-l1"],
    ["levels L1/L2/L3/L4", levels.join(" / ")]]);
  html += "<h3>Speedup of the incumbent over rounds</h3>" + (rounds.length ? speedupPlot(incumbentPoints(rounds)) : '<p class="muted">no rounds yet</p>');
  html += `<h3>Rounds</h3><table id="rounds"><thead><tr><th>round</th><th>level</th><th>family</th><th>proposer</th><th>outcome</th>` +
    `<th>pattern</th><th class="num">candidates</th></tr></thead><tbody>`;
  for (const r of rounds) {
    const l1 = (r.evidence && r.evidence.l1) || {};
    const sp = r.timing && r.timing.speedup;
    const outcome = r.accepted ? `<span class="accepted">accepted ${speed(sp)}</span>` : `<span class="rejected">not accepted</span>: ${esc(r.reject_reason)}`;
    const pat = l1.settled_by ? `settled by ${esc(l1.settled_by)}` : l1.applied ? `guided by ${esc(l1.applied)}` : "";
    const nc = ((r.evidence && r.evidence.sweep && r.evidence.sweep.candidates) || []).length;
    html += `<tr class="round" data-round="${r.round}"><td>${r.round}</td><td>${level(r.level_reached)}</td><td>${esc(r.rewrite_family)}</td>` +
      `<td>${esc(r.proposer)}</td><td>${outcome}</td><td>${pat}</td><td class="num">${nc}</td></tr>` +
      `<tr><td></td><td colspan="6"><details><summary>hypothesis, evidence per level, sweep</summary>` +
      `<p>${esc(r.hypothesis)}</p><h3>Evidence</h3><ul class="evidence">${evidenceList(r.escalation)}</ul>` +
      `<h3>Sweep</h3>${sweepTable(r.evidence && r.evidence.sweep)}` +
      `${r.diff ? "<h3>Candidate diff</h3>" + diffBlock(r.diff) : ""}</details></td></tr>`;
  }
  html += "</tbody></table>";
  const acc = rounds.filter((r) => r.accepted);
  html += `<h3>Best kernel</h3><div id="best-diff">` + (acc.length
    ? `<p>reached from the initial kernel by round${acc.length > 1 ? "s" : ""} ${acc.map((r) => r.round).join(", ")}:</p>` +
      acc.map((r) => `<p>round ${r.round} (${esc(r.rewrite_family)}, ${speed(r.timing && r.timing.speedup)})</p>` + diffBlock(r.diff)).join("")
    : '<p class="muted">no round was accepted: the initial kernel is the best</p>') + "</div>";
  if (source) html += `<details><summary>best kernel source</summary><pre>${esc(source)}</pre></details>`;
  ready("job", html);
  if (!TERMINAL.includes(job.state)) timer = setTimeout(() => render(gen), POLL_MS);
}

async function batchPage(id, gen) {
  const b = await call(`/v1/batches/${id}`);
  if (gen !== generation) return;
  const a = b.aggregate || {};
  let html = `<h2>Batch ${esc(b.name || b.id)}</h2>` + kv([
    ["id", `<code>${esc(b.id)}</code>`], ["state", esc(b.state)], ["policy", esc(b.policy)],
    ["pattern index", b.pattern_index ? `<a href="#/patterns/${b.pattern_index}">v${esc(b.pattern_index)}</a>${b.pattern_index_frozen ? ' <span class="tag frozen">frozen</span>' : ""}` : ""],
    ["synthesized after", b.synthesized_version ? `<a href="#/patterns/${b.synthesized_version}">v${esc(b.synthesized_version)}</a>` : b.synthesize_after ? "when it ends" : ""],
    ["synthesis error", esc(b.synthesis_error)], ["created", esc(b.created_at)], ["finished", esc(b.finished_at)]]);
  html += `<div id="aggregate">` + cards([["jobs", a.jobs], ["succeeded", a.succeeded], ["failed", a.failed], ["cancelled", a.cancelled],
    ["geomean speedup", speed(a.geomean_speedup) || "-", "agg-geomean"], ["median speedup", speed(a.median_speedup) || "-", "agg-median"],
    ["geomean, failures as 1x", speed(a.geomean_speedup_all) || "-"], [">= 2x", a.at_least_2x], [">= 5x", a.at_least_5x],
    ["rounds to best (median)", a.rounds_to_best_median ?? "-"], ["seconds to best (median)", num(a.seconds_to_best_median, 1) || "-"],
    ["rounds settled at L1", `${a.rounds_settled_l1 ?? 0} of ${a.rounds ?? 0}`], ["device seconds", num(a.device_seconds, 1)]]) + "</div>";
  html += "<h3>Speedup distribution</h3>" + distributionPlot(b.jobs || []) +
    `<p class="muted">${(b.jobs || []).filter((j) => j.state === "succeeded").length} succeeded jobs plotted; ` +
    `${(a.failures || []).length} failed or cancelled count in the denominator.</p>`;
  html += `<h3>Jobs</h3><table id="batch-jobs"><thead><tr><th>job</th><th>name</th><th>operator</th><th>state</th><th class="num">speedup</th>` +
    `<th class="num">best round</th><th class="num">rounds</th><th class="num">settled L1</th><th class="num">s to best</th><th class="num">device s</th><th>pattern index</th><th>error</th></tr></thead><tbody>` +
    (b.jobs || []).map((j) => `<tr><td><a href="#/jobs/${esc(j.id)}"><code>${esc(j.id.slice(0, 8))}</code></a></td><td>${esc(j.name)}</td>` +
      `<td>${esc(j.operator)}</td><td>${state(j.state)}</td><td class="num">${speed(j.speedup)}</td><td class="num">${j.best_round ?? ""}</td>` +
      `<td class="num">${j.rounds}</td><td class="num">${j.settled_l1}</td><td class="num">${num(j.seconds_to_best, 1)}</td>` +
      `<td class="num">${num(j.device_seconds, 1)}</td><td>${esc(j.pattern_index)}</td><td>${esc(j.error)}</td></tr>`).join("") + "</tbody></table>";
  html += `<h3>Failures</h3><ul id="failures">` + ((a.failures || []).map((f) =>
    `<li><a href="#/jobs/${esc(f.id)}">${esc(f.operator || f.name || f.id)}</a> ${state(f.state)}: ${esc(f.reason)}</li>`).join("") || "<li>none</li>") + "</ul>";
  ready("batch", html);
  if (b.state !== "done") timer = setTimeout(() => render(gen), POLL_MS);
}

function statsCell(stats) {
  const rows = Object.entries(stats || {}).map(([be, s]) =>
    `${esc(be)}: accepted ${s.accepted}/${s.tried} (${s.operators} op), settled ${s.settled}` +
    `${s.speedup && s.speedup.median ? ", median " + speed(s.speedup.median) : ""}${s.seconds_saved ? ", " + num(s.seconds_saved, 1) + " s saved" : ""}`);
  return rows.length ? rows.join("<br>") : '<span class="muted">not observed yet</span>';
}

async function patternsPage(version, gen) {
  const vs = await call("/v1/patterns/versions?limit=100");
  const cur = version || (vs.versions[0] && vs.versions[0].version);
  const [pv, diff] = cur ? await Promise.all([call(`/v1/patterns?version=${cur}`), call(`/v1/patterns/versions/${cur}/diff`)]) : [null, null];
  if (gen !== generation) return;
  let html = `<h2>Pattern index versions</h2><table id="versions"><thead><tr><th>version</th><th>origin</th><th>parent</th><th>frozen</th>` +
    `<th>created</th><th class="num">active</th><th class="num">retired</th><th>read</th><th>note</th></tr></thead><tbody>` +
    vs.versions.map((v) => `<tr${v.version === cur ? ' class="current"' : ""}><td><a href="#/patterns/${v.version}">v${v.version}</a></td>` +
      `<td>${esc(v.origin)}</td><td>${v.parent ? "v" + v.parent : ""}</td><td>${v.frozen ? '<span class="tag frozen">frozen</span>' : ""}</td>` +
      `<td>${esc(v.created_at)}</td><td class="num">${v.active}</td><td class="num">${v.retired}</td>` +
      `<td>${v.source && v.source.rounds !== undefined ? `${v.source.rounds} rounds, ${(v.source.operators || []).length} operators` : ""}</td><td>${esc(v.note)}</td></tr>`).join("") +
    "</tbody></table>";
  if (pv) {
    html += `<h2>Version ${cur}${pv.version.frozen ? ' <span class="tag frozen">frozen</span>' : ""}</h2>` +
      `<h3>Changes from ${diff.from ? "v" + diff.from : "nothing (the seed)"}</h3>` +
      `<pre id="diff">${esc((diff.text || []).join("\n") || "no change")}</pre>`;
    html += `<h3>Patterns (${pv.counts.active} active, ${pv.counts.retired} retired)</h3><table id="patterns"><thead><tr><th>pattern</th><th>when</th>` +
      `<th>then</th><th>statistics</th><th>provenance</th></tr></thead><tbody>` +
      pv.patterns.map((p) => {
        const act = p.action || {};
        const pref = act.prefer ? " prefer " + Object.entries(act.prefer).map(([k, v]) => `${k}=${[].concat(v).join("|")}`).join(" ") : "";
        const prov = p.provenance || {};
        const refs = (prov.references || []).map((u, i) => `<a href="${esc(u)}" rel="noreferrer">[${i + 1}]</a>`).join(" ");
        return `<tr class="pattern" data-name="${esc(p.name)}"><td><b>${esc(p.name)}</b><br><span class="tag ${esc(p.status)}">${esc(p.status)}</span>` +
          `<span class="tag">${esc(p.origin)}</span><span class="tag">since v${esc(p.entered_version)}</span>` +
          `${p.retired_reason ? `<br><span class="muted">${esc(p.retired_reason)}</span>` : ""}</td>` +
          `<td>${esc(p.when)}</td><td>${esc(p.rewrite_family)}${act.direction ? " " + esc(act.direction) : ""}${act.structural ? " (" + esc(act.structural) + ")" : ""}` +
          `<span class="muted">${esc(pref)}</span><details><summary>guidance</summary>${esc(p.guidance)}</details></td>` +
          `<td>${statsCell(p.stats)}</td><td>${prov.operators && prov.operators.length ? "operators: " + esc(prov.operators.join(", ")) + "<br>" : ""}` +
          `${prov.rounds ? `${prov.rounds} rounds of ${prov.jobs} jobs` : esc(prov.source || "")}${refs ? "<br>" + refs : ""}</td></tr>`;
      }).join("") + "</tbody></table>";
  }
  ready("patterns", html);
}

// ------------------------------------------------------------------------------ routing

async function render(gen) {
  if (gen !== generation) return;
  const h = location.hash.replace(/^#\/?/, "");
  const parts = h.split("/").filter(Boolean);
  try {
    if (parts[0] === "jobs" && parts[1]) await jobPage(encodeURIComponent(parts[1]), gen);
    else if (parts[0] === "batches" && parts[1]) await batchPage(encodeURIComponent(parts[1]), gen);
    else if (parts[0] === "batches") await batchesPage(gen);
    else if (parts[0] === "patterns") await patternsPage(parts[1] ? Number(parts[1]) : 0, gen);
    else await listPage(gen);
    $("err").textContent = "";
  } catch (e) {
    if (gen !== generation) return;
    $("err").textContent = "cannot read the API: " + e.message + (token() ? "" : " (paste a token above)");
    $("app").dataset.ready = "error";
  }
}

function navigate() {
  clearTimeout(timer);
  generation += 1;
  $("app").dataset.ready = "";
  render(generation);
}

$("tok").value = token();
$("save").onclick = () => { localStorage.setItem("kopt_token", $("tok").value.trim()); navigate(); };
window.addEventListener("hashchange", navigate);
navigate();
