// Model Gateway console (docs/console.md). Plain browser JavaScript, no build step: the pages, this file and
// uPlot are served from the gateway's jar. Signed in with a key, the key lives in `session` only (never
// localStorage or a cookie): reloading the page signs out. Signed in with the organisation's identity provider, an
// HttpOnly session cookie is the credential, and every change carries the session's X-CSRF-Token. What the
// console shows and offers follows the principal's permissions (/api/v1/console/me); the gateway enforces them. Every element is built with h(), never innerHTML, so no name or model id
// coming from the API can inject markup.
'use strict';

const session = { key: null, mode: null, me: null, keyNames: {}, teamNames: {} };
const view = document.getElementById('view');
const HOUR = 3600000, DAY = 86400000;

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : String(c));
  return el;
}

class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error && body.error.message) || ('HTTP ' + status));
    this.status = status;
  }
}

async function api(path, options = {}) {
  const method = options.method || 'GET';
  const headers = options.body ? { 'content-type': 'application/json' } : {};
  if (session.key) headers.authorization = 'Bearer ' + session.key;
  else if (method !== 'GET' && session.me && session.me.csrf_token) headers['x-csrf-token'] = session.me.csrf_token;
  const r = await fetch(path, { method, headers, body: options.body ? JSON.stringify(options.body) : undefined, cache: 'no-store', credentials: 'same-origin' });
  if (options.raw && r.ok) return r;
  const body = await r.json().catch(() => null);
  if (r.status === 401 && session.me) signOut((session.mode === 'cookie' ? 'Your session has ended: ' : 'Your key is no longer accepted: ')
    + ((body && body.error && body.error.message) || 'signed out'));
  if (!r.ok) throw new ApiError(r.status, body);
  return body;
}

// ---- sign-in ----

document.getElementById('signin-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const input = document.getElementById('signin-key');
  const error = document.getElementById('signin-error');
  error.textContent = '';
  session.key = input.value.trim();
  try {
    session.me = await api('/api/v1/console/me');
  } catch (err) {
    session.key = null;
    error.textContent = 'Sign-in failed: ' + err.message;
    return;
  }
  input.value = '';
  await enter(session.me, 'key');
});

/** What the principal may do: a permission it holds, and how far it reaches (its org, some teams, its own). */
const reachOf = p => session.me && session.me.permissions ? session.me.permissions[p] : undefined;
const can = p => !!reachOf(p);
const orgWide = p => !!(reachOf(p) && reachOf(p).org);
const reachesTeam = (p, teamId) => { const r = reachOf(p); return !!r && (r.org || (!!teamId && (r.teams || []).includes(teamId))); };
const reachesKey = (p, k) => reachesTeam(p, k.team_id) || (!!reachOf(p) && reachOf(p).own && !!k.owner_user_id && k.owner_user_id === session.me.id);
/** A platform key's own view: its usage, limits and requests. */
const isApiKey = () => session.me.kind === 'api_key';

function whoText(me) {
  if (me.kind === 'master') return 'Signed in with the master key';
  if (me.kind === 'api_key') return 'Key ' + me.name + ' (read-only)';
  const roles = me.grants.map(g => g.label).join(', ');
  return (me.kind === 'user' ? me.name : 'Admin key ' + me.name) + (roles ? ' · ' + roles : '');
}

async function enter(me, mode) {
  session.me = me;
  session.mode = mode;
  document.getElementById('signin').hidden = true;
  document.getElementById('nav').hidden = false;
  view.hidden = false;
  document.getElementById('who').textContent = whoText(me);
  const shown = { 'nav-keys': can('keys:read') || can('teams:read'), 'nav-audit': can('audit:read'),
    'nav-limits': isApiKey() || can('limits:read'), 'nav-models': mode === 'key' };
  for (const [id, on] of Object.entries(shown)) document.getElementById(id).hidden = !on;
  await loadKeyNames().catch(() => {});
  if (!location.hash || location.hash === '#') location.hash = '#usage'; else route();
}

// a session cookie (HttpOnly: this page cannot read it) signs in without a key; the providers are the buttons
(async function resume() {
  const providers = await fetch('/auth/providers', { cache: 'no-store' }).then(r => r.ok ? r.json() : { data: [] }).catch(() => ({ data: [] }));
  if (providers.data.length) {
    document.getElementById('signin-buttons').replaceChildren(...providers.data.map(p =>
      h('a', { class: 'button', href: p.login_url, id: 'signin-with-' + p.id }, 'Sign in with ' + p.name)));
    document.getElementById('signin-providers').hidden = false;
  }
  const r = await fetch('/api/v1/console/me', { cache: 'no-store', credentials: 'same-origin' }).catch(() => null);
  if (r && r.ok && !session.me) await enter(await r.json(), 'cookie');
})();

document.getElementById('signout').addEventListener('click', async () => {
  if (session.mode !== 'cookie') { signOut(''); return; }
  try {
    // the gateway ends the session; the identity provider's own sign-out follows, when it has one
    const out = await api('/auth/logout', { method: 'POST' });
    signOut('Signed out.');
    if (out.logout_url) location.assign(out.logout_url);
  } catch (err) {
    signOut('Sign-out: ' + err.message);
  }
});

function signOut(message) {
  leave(); leave = () => {}; // no screen's timer may keep asking with the next key
  session.key = null; session.mode = null; session.me = null; session.keyNames = {}; session.teamNames = {};
  view.replaceChildren();
  view.hidden = true;
  document.getElementById('nav').hidden = true;
  document.getElementById('signin').hidden = false;
  document.getElementById('signin-error').textContent = message;
  document.getElementById('signin-key').focus();
}

async function loadKeyNames() {
  const [keys] = await Promise.all([can('keys:read') ? api('/api/v1/admin/keys') : { data: [] }, loadTeams()]);
  session.keyNames = Object.fromEntries(keys.data.map(k => [k.id, k.name]));
  return keys.data;
}

async function loadTeams() {
  const teams = can('teams:read') ? await api('/api/v1/admin/teams') : { data: [] };
  session.teamNames = Object.fromEntries(teams.data.map(t => [t.id, t.name]));
  return teams.data;
}

const keyLabel = id => session.keyNames[id] ? session.keyNames[id] + ' (' + id + ')' : id;
const teamLabel = id => !id ? 'no team' : session.teamNames[id] ? session.teamNames[id] + ' (' + id + ')' : id;
/** A usage group's label: key and team ids by name, '' as none. */
const groupLabel = (dimension, id) => dimension === 'key' ? keyLabel(id) : dimension === 'team' ? (id ? teamLabel(id) : '(no team)')
  : (id || (dimension === 'none' ? 'all' : '(none)'));

// ---- routing ----

const screens = { usage: usageScreen, keys: keysScreen, limits: limitsScreen, models: modelsScreen, requests: requestsScreen, request: requestScreen, audit: auditScreen };
let leave = () => {};

window.addEventListener('hashchange', route);

async function route() {
  if (!session.me) return;
  leave(); leave = () => {};
  const [name, arg] = location.hash.slice(1).split('/');
  const screen = screens[name] || usageScreen;
  for (const a of document.querySelectorAll('nav a')) a.toggleAttribute('aria-current', a.getAttribute('href') === '#' + (name === 'request' ? 'requests' : name));
  for (const a of document.querySelectorAll('nav a[aria-current]')) a.setAttribute('aria-current', 'page');
  view.replaceChildren(h('p', { class: 'note' }, 'Loading…'));
  try {
    await screen(arg && decodeURIComponent(arg));
  } catch (err) {
    view.replaceChildren(h('p', { class: 'error', role: 'alert' }, 'Could not load this screen: ' + err.message));
  }
  document.body.dataset.screen = name || 'usage';
  document.getElementById('main').focus({ preventScroll: true });
}

function title(text) {
  document.title = text + ' · Model Gateway console';
  return h('h2', {}, text);
}

// ---- formatting ----

const fmtInt = n => Number(n).toLocaleString('en-US');
const fmtUsd = s => '$' + Number(s).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 });
const fmtPct = x => isFinite(x) ? (100 * x).toFixed(1) + '%' : '–';
const fmtMs = v => v < 0 || v === null || v === undefined ? '–' : fmtInt(Math.round(v)) + ' ms';
const isoDate = ms => new Date(ms).toISOString().slice(0, 10);

function table(headers, rows, caption, id) {
  return h('div', { class: 'table-wrap' }, h('table', { id },
    caption ? h('caption', { class: 'note' }, caption) : null,
    h('thead', {}, h('tr', {}, headers.map(([label, num]) => h('th', { scope: 'col', class: num ? 'num' : null }, label)))),
    h('tbody', {}, rows.length ? rows.map(cells => h('tr', {}, cells.map((c, i) => h('td', { class: headers[i][1] ? 'num' : null }, c))))
      : h('tr', {}, h('td', { colspan: headers.length }, 'Nothing yet.')))));
}

// ---- usage ----

const BOUNDS = [100, 250, 500, 1000, 2500, 5000, 10000, 30000, 60000];

function percentile(counts, p) {
  const total = counts.reduce((a, b) => a + b, 0);
  if (!total) return null;
  const rank = p * total;
  let seen = 0;
  for (let i = 0; i < counts.length; i++) {
    if (counts[i] > 0 && seen + counts[i] >= rank) {
      const low = i === 0 ? 0 : BOUNDS[i - 1];
      if (i === BOUNDS.length) return low;
      return low + (rank - seen) / counts[i] * (BOUNDS[i] - low);
    }
    seen += counts[i];
  }
  return BOUNDS[BOUNDS.length - 1];
}

const usageState = { grain: 'hour', dimension: 'none', from: null, to: null };
const charts = [];

async function usageScreen() {
  const now = Date.now();
  if (!usageState.from) { usageState.to = isoDate(now); usageState.from = isoDate(now - 1 * DAY); }
  if (isApiKey() && (usageState.dimension === 'key' || usageState.dimension === 'team')) usageState.dimension = 'none';
  const form = h('form', { class: 'controls', 'aria-label': 'Usage range and grouping', onsubmit: e => { e.preventDefault(); read(); draw(); } },
    h('label', {}, 'From', h('input', { type: 'date', id: 'usage-from', name: 'from', value: usageState.from, required: true })),
    h('label', {}, 'To (inclusive)', h('input', { type: 'date', id: 'usage-to', name: 'to', value: usageState.to, required: true })),
    h('label', {}, 'Per', select('usage-grain', [['hour', 'hour'], ['day', 'day']], usageState.grain)),
    h('label', {}, 'Group by', select('usage-dimension', [['none', 'nothing'], ...(!isApiKey() ? [['key', 'key'], ['team', 'team']] : []), ['model', 'model'], ['vendor', 'vendor'], ['user', 'user']], usageState.dimension)),
    h('button', { type: 'submit' }, 'Show'),
    h('button', { type: 'button', class: 'secondary', onclick: exportCsv }, 'Export CSV'));
  const out = h('div', { id: 'usage-out' });
  view.replaceChildren(title(!isApiKey() ? 'Usage and cost' : 'Usage and cost of key ' + session.me.name), form, out);
  if (isApiKey()) out.before(await ownLimits());
  function read() {
    usageState.from = form.from.value; usageState.to = form.to.value;
    usageState.grain = form.querySelector('#usage-grain').value; usageState.dimension = form.querySelector('#usage-dimension').value;
  }
  async function draw() {
    const q = new URLSearchParams({ grain: usageState.grain, dimension: usageState.dimension, from: usageState.from, to: usageState.to });
    out.replaceChildren(h('p', { class: 'note' }, 'Loading…'));
    try {
      renderUsage(out, await api('/api/v1/console/usage?' + q));
    } catch (err) {
      out.replaceChildren(h('p', { class: 'error', role: 'alert' }, err.message));
    }
  }
  async function exportCsv() {
    read();
    const q = new URLSearchParams({ grain: usageState.grain, dimension: usageState.dimension, from: usageState.from, to: usageState.to });
    try {
      const r = await api('/api/v1/console/usage.csv?' + q, { raw: true });
      const a = h('a', { href: URL.createObjectURL(await r.blob()), download: 'usage-' + usageState.from + '-' + usageState.to + '-' + usageState.grain + '.csv' });
      document.body.append(a); a.click(); a.remove();
    } catch (err) {
      out.prepend(h('p', { class: 'error', role: 'alert' }, 'Export failed: ' + err.message));
    }
  }
  await draw();
  const timer = setInterval(() => { if (document.visibilityState === 'visible') draw(); }, 15000);
  leave = () => { clearInterval(timer); destroyCharts(); };
}

function select(id, options, value, name) {
  return h('select', { id, name: name || id }, options.map(([v, label]) => h('option', { value: v, selected: v === value }, label)));
}

function destroyCharts() {
  while (charts.length) charts.pop().destroy();
}

function renderUsage(out, usage) {
  destroyCharts();
  const step = usage.grain === 'hour' ? HOUR : DAY;
  const from = Date.parse(usage.from), to = Date.parse(usage.to);
  const xs = [];
  for (let t = from; t < to; t += step) xs.push(t / 1000);
  const index = new Map(xs.map((x, i) => [x * 1000, i]));
  const zeros = () => xs.map(() => 0);
  const tot = { requests: zeros(), errors: zeros(), input: zeros(), cacheRead: zeros(), cacheWrite: zeros(), output: zeros(), reasoning: zeros(),
    lat: xs.map(() => new Array(10).fill(0)), ttft: xs.map(() => new Array(10).fill(0)) };
  const groups = new Map();
  for (const r of usage.data) {
    const i = index.get(r.bucket_ms);
    if (i === undefined) continue;
    tot.requests[i] += r.requests; tot.errors[i] += r.errors; tot.input[i] += r.input_tokens; tot.cacheRead[i] += r.cache_read_tokens;
    tot.cacheWrite[i] += r.cache_write_tokens; tot.output[i] += r.output_tokens - r.reasoning_tokens; tot.reasoning[i] += r.reasoning_tokens;
    r.latency_histogram.forEach((n, b) => tot.lat[i][b] += n);
    r.ttft_histogram.forEach((n, b) => tot.ttft[i][b] += n);
    const g = groups.get(r.group) || { cost: zeros(), requests: 0, errors: 0, tokens: 0, cacheRead: 0, input: 0, usd: 0 };
    g.cost[i] += Number(r.cost_usd); g.requests += r.requests; g.errors += r.errors; g.usd += Number(r.cost_usd);
    g.tokens += r.input_tokens + r.cache_read_tokens + r.cache_write_tokens + r.output_tokens;
    g.cacheRead += r.cache_read_tokens; g.input += r.input_tokens + r.cache_read_tokens + r.cache_write_tokens;
    groups.set(r.group, g);
  }
  const sum = a => a.reduce((x, y) => x + y, 0);
  const allIn = sum(tot.input) + sum(tot.cacheRead) + sum(tot.cacheWrite);
  const totalUsd = [...groups.values()].reduce((a, g) => a + g.usd, 0);
  out.replaceChildren(
    h('div', { class: 'cards', role: 'list', 'aria-label': 'Totals for the range' },
      card('Requests', fmtInt(sum(tot.requests)), 'usage-total-requests'),
      card('Cost', fmtUsd(totalUsd)),
      card('Tokens', fmtInt(allIn + sum(tot.output) + sum(tot.reasoning))),
      card('Cache-hit ratio', fmtPct(sum(tot.cacheRead) / allIn)),
      card('Error rate', fmtPct(sum(tot.errors) / sum(tot.requests))),
      card('Latency p95', fmtMs(percentile(tot.lat.reduce((a, b) => a.map((n, k) => n + b[k]), new Array(10).fill(0)), 0.95)))),
    h('div', { class: 'charts' },
      figure('chart-tokens', 'Tokens by class, stacked'),
      figure('chart-cost', 'Cost (USD)' + (usage.dimension === 'none' ? '' : ' by ' + usage.dimension)),
      figure('chart-requests', 'Requests and errors'),
      figure('chart-ratios', 'Cache-hit ratio and error rate'),
      figure('chart-latency', 'Latency and time to first token (estimated from histograms)')),
    h('h3', {}, usage.dimension === 'none' ? 'Totals' : 'By ' + usage.dimension),
    table([[usage.dimension === 'none' ? 'All' : usage.dimension], ['Requests', 1], ['Tokens', 1], ['Cost', 1], ['Cache-hit', 1], ['Errors', 1]],
      [...groups.entries()].sort((a, b) => b[1].usd - a[1].usd).map(([name, g]) => [
        groupLabel(usage.dimension, name),
        fmtInt(g.requests), fmtInt(g.tokens), fmtUsd(g.usd), fmtPct(g.cacheRead / g.input), fmtPct(g.errors / g.requests)]), null, 'usage-groups'));
  const width = () => Math.max(280, out.querySelector('figure').clientWidth - 20);
  // uPlot's own time axis, in UTC like the buckets
  const tzDate = ts => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC');
  const yAxis = fmt => [{}, { size: 70, values: (u, ticks) => ticks.map(fmt) }];
  const palette = ['#0b5cad', '#c2410c', '#1a7f37', '#7e22ce', '#b42318', '#0e7490', '#a16207', '#be185d', '#4d7c0f', '#334155'];
  // stacked bars: each series is drawn as the cumulative sum of its class and those below it, widest first,
  // so each class shows as its own band; the legend shows the class's own value
  const classes = [['Input', tot.input], ['Cache read', tot.cacheRead], ['Cache write', tot.cacheWrite], ['Output', tot.output], ['Reasoning', tot.reasoning]];
  const stacked = []; let acc = zeros();
  for (const [, data] of classes) { acc = acc.map((v, i) => v + data[i]); stacked.push(acc); }
  const order = classes.map((_, i) => classes.length - 1 - i);
  const bars = uPlot.paths.bars({ size: [0.7, 40] });
  plot('chart-tokens', [xs, ...order.map(i => stacked[i])], order.map(i => ({ label: classes[i][0], fill: palette[i], stroke: palette[i], paths: bars,
    points: { show: false }, value: (u, v, s, idx) => idx === null ? '–' : fmtInt(classes[i][1][idx]) })), null, yAxis(v => fmtInt(v)));
  const costGroups = [...groups.entries()].sort((a, b) => b[1].usd - a[1].usd).slice(0, 10);
  plot('chart-cost', [xs, ...costGroups.map(([, g]) => g.cost)], costGroups.map(([name], i) => ({
    label: usage.dimension === 'key' ? (session.keyNames[name] || name) : usage.dimension === 'team' ? (session.teamNames[name] || name || 'no team') : (name || 'all'), stroke: palette[i], width: 2, value: (u, v) => v === null ? '–' : fmtUsd(v) })),
    null, yAxis(v => '$' + Number(v.toPrecision(3))));
  plot('chart-requests', [xs, tot.requests, tot.errors], [{ label: 'Requests', stroke: palette[0], width: 2 }, { label: 'Errors', stroke: palette[4], width: 2 }]);
  plot('chart-ratios', [xs, xs.map((_, i) => { const d = tot.input[i] + tot.cacheRead[i] + tot.cacheWrite[i]; return d ? tot.cacheRead[i] / d : null; }),
    xs.map((_, i) => tot.requests[i] ? tot.errors[i] / tot.requests[i] : null)],
    [{ label: 'Cache-hit ratio', stroke: palette[2], width: 2, value: (u, v) => v === null ? '–' : fmtPct(v) },
      { label: 'Error rate', stroke: palette[4], width: 2, value: (u, v) => v === null ? '–' : fmtPct(v) }],
    { y: { range: [0, 1] } }, yAxis(v => Math.round(v * 100) + '%'));
  plot('chart-latency', [xs, tot.lat.map(c => percentile(c, 0.5)), tot.lat.map(c => percentile(c, 0.95)), tot.ttft.map(c => percentile(c, 0.5)), tot.ttft.map(c => percentile(c, 0.95))],
    [['Latency p50', 0], ['Latency p95', 1], ['TTFT p50', 2], ['TTFT p95', 3]].map(([label, i]) => ({ label, stroke: palette[i + 5], width: 2, value: (u, v) => v === null ? '–' : fmtMs(v) })),
    null, yAxis(v => fmtInt(v) + ' ms'));

  function plot(id, data, series, scales, axes) {
    const target = out.querySelector('#' + id);
    charts.push(new uPlot({ width: width(), height: 220, tzDate, axes: axes || [{}, { size: 60 }], scales: Object.assign({ x: { time: true } }, scales || {}),
      series: [{ label: usage.grain === 'hour' ? 'Hour (UTC)' : 'Day (UTC)', value: (u, v) => v === null ? '–' : new Date(v * 1000).toISOString().slice(0, usage.grain === 'hour' ? 16 : 10).replace('T', ' ') }, ...series] },
    data, target));
    target.setAttribute('role', 'img');
  }
}

function card(label, value, id) {
  return h('div', { class: 'card', role: 'listitem' }, label, h('b', { id }, value));
}

function figure(id, caption) {
  return h('figure', { 'aria-labelledby': id + '-caption' }, h('figcaption', { id: id + '-caption' }, caption), h('div', { id, 'aria-label': caption }));
}

// ---- limits, shared by the limits screen and a key's own view ----

const PERIODS = [['lifetime', 'lifetime'], ['month', 'month'], ['week', 'week'], ['day', 'day']];

/** A bucket as a meter and what is left of it; "no limit" when it has none. */
function bucket(w) {
  return w ? h('span', { class: 'bucket' }, h('meter', { min: 0, max: w.limit, value: Math.min(w.used, w.limit), 'aria-label': fmtInt(w.used) + ' of ' + fmtInt(w.limit) + ' used' }), ' ',
    fmtInt(w.remaining) + ' of ' + fmtInt(w.limit) + ' left') : 'no limit';
}

/** "$25.00 a month (spent $1.20 this month)", or "none" when there is no budget. */
function budgetText(usd, period, periodSpent) {
  const spent = { day: 'today', week: 'this week', month: 'this month', lifetime: 'in all' }[period] || '';
  if (!usd) return 'none (spent ' + fmtUsd(periodSpent) + ' ' + spent + ')';
  return fmtUsd(usd) + (period === 'lifetime' ? ' in all' : ' a ' + period) + ' (spent ' + fmtUsd(periodSpent) + ' ' + spent + ')';
}

// ---- a key's own limits (read-only view) ----

async function ownLimits() {
  const [me, limits] = await Promise.all([api('/api/v1/console/me'), api('/api/v1/limits')]);
  session.me = me;
  const k = limits.key, t = limits.team;
  return h('div', { id: 'own-limits-view' },
    h('section', { 'aria-labelledby': 'own-limits' }, h('h3', { id: 'own-limits' }, 'Limits and budget of this key'),
      h('dl', { id: 'own-limits-list' },
        h('dt', {}, 'Requests per minute'), h('dd', { id: 'own-requests' }, bucket(k.requests)),
        h('dt', {}, 'Tokens per minute'), h('dd', { id: 'own-tokens' }, bucket(k.tokens)),
        h('dt', {}, 'Calls in flight'), h('dd', {}, k.max_concurrent ?? 'no limit'),
        h('dt', {}, 'Budget'), h('dd', { id: 'own-budget' }, budgetText(k.budget_usd, k.budget_period, k.period_spent_usd)),
        h('dt', {}, 'Models'), h('dd', {}, me.allowed_models.length ? me.allowed_models.join(', ') : 'all'),
        h('dt', {}, 'Per-model limits'), h('dd', {}, k.model_limits.length ? k.model_limits.map(m => h('span', {}, m.models, ': ', bucket(m.requests), ' ', bucket(m.tokens), ' ')) : 'none'),
        h('dt', {}, 'Expires'), h('dd', {}, me.expires_at || 'never'))),
    t ? h('section', { 'aria-labelledby': 'own-team' }, h('h3', { id: 'own-team' }, 'Team ' + t.name + ' (shared by its keys)'),
      h('dl', { id: 'own-team-list' },
        h('dt', {}, 'Requests per minute'), h('dd', {}, bucket(t.requests)),
        h('dt', {}, 'Tokens per minute'), h('dd', {}, bucket(t.tokens)),
        h('dt', {}, 'Budget'), h('dd', { id: 'own-team-budget' }, budgetText(t.budget_usd, t.budget_period, t.period_spent_usd)),
        h('dt', {}, 'Models'), h('dd', {}, t.models.length ? t.models.join(', ') : 'all'))) : null);
}

// ---- keys and teams ----

async function keysScreen() {
  if (!can('keys:read') && !can('teams:read')) { view.replaceChildren(title('Keys and teams'), h('p', {}, 'Keys and teams need the keys:read or teams:read permission.')); return; }
  const [keys, teams] = await Promise.all([loadKeyNames(), can('teams:read') ? api('/api/v1/admin/teams').then(t => t.data) : []]);
  // the teams a key may be created in or moved to: those keys:write reaches
  const keyTeams = teams.filter(t => reachesTeam('keys:write', t.id));
  const message = h('div', { id: 'keys-message', role: 'status' });
  const showSecret = (what, name, secret) => {
    document.getElementById('keys-message').replaceChildren(
      h('p', {}, 'Key ', h('b', {}, name), ' ' + what + '. Copy its secret now: it is shown this once and never stored.'),
      h('p', { class: 'secret', id: 'new-key-secret', tabindex: '0', 'aria-label': 'The new key' }, secret));
    document.getElementById('new-key-secret').focus();
  };
  const form = can('keys:write') ? keyForm(null, keyTeams, async (body) => {
    const created = await api('/api/v1/admin/keys', { method: 'POST', body });
    await keysScreen();
    showSecret('created', created.name, created.key);
  }) : null;
  const teamForm = orgWide('teams:write') ? teamFormOf(null, async (body) => {
    const created = await api('/api/v1/admin/teams', { method: 'POST', body });
    await keysScreen();
    document.getElementById('keys-message').replaceChildren(h('p', {}, 'Team ', h('b', {}, created.name), ' created.'));
  }) : null;
  const failed = err => document.getElementById('keys-message').replaceChildren(h('p', { class: 'error', role: 'alert' }, err.message));
  const keyActions = k => reachesKey('keys:write', k) ? h('span', {},
    h('button', { type: 'button', class: 'secondary', 'aria-label': 'Edit ' + k.name, onclick: () => editKey(k, keyTeams) }, 'Edit'), ' ',
    h('button', { type: 'button', class: 'secondary', 'aria-label': (k.disabled ? 'Enable ' : 'Disable ') + k.name,
      onclick: async () => { try { await api('/api/v1/admin/keys/' + k.id, { method: 'PATCH', body: { disabled: !k.disabled } }); await keysScreen(); } catch (err) { failed(err); } } },
    k.disabled ? 'Enable' : 'Disable'), ' ',
    h('button', { type: 'button', class: 'secondary', 'aria-label': 'Rotate ' + k.name,
      onclick: async () => {
        if (!confirm('Rotate key ' + k.name + '? A new secret is made; the old one keeps working for the grace period.')) return;
        try { const rotated = await api('/api/v1/admin/keys/' + k.id + '/rotate', { method: 'POST', body: {} }); await keysScreen(); showSecret('rotated', rotated.name, rotated.key); }
        catch (err) { failed(err); }
      } }, 'Rotate'), ' ',
    h('button', { type: 'button', class: 'danger', 'aria-label': 'Delete ' + k.name,
      onclick: async () => { if (confirm('Delete key ' + k.name + '? Its usage stays in the ledger.')) { try { await api('/api/v1/admin/keys/' + k.id, { method: 'DELETE' }); await keysScreen(); } catch (err) { failed(err); } } } },
    'Delete')) : '–';
  const teamActions = t => reachesTeam('teams:write', t.id) ? h('span', {},
    h('button', { type: 'button', class: 'secondary', 'aria-label': 'Edit team ' + t.name, onclick: () => editTeam(t) }, 'Edit'), ' ',
    orgWide('teams:write') ? h('button', { type: 'button', class: 'danger', 'aria-label': 'Delete team ' + t.name,
      onclick: async () => {
        if (!confirm('Delete team ' + t.name + '?')) return;
        try { await api('/api/v1/admin/teams/' + t.id, { method: 'DELETE' }); await keysScreen(); } catch (err) { failed(err); }
      } }, 'Delete') : null) : '–';
  // replaceChildren takes nodes only: the optional parts flattened, the absent ones dropped
  view.replaceChildren(...[title('Keys and teams'), message,
    form ? [h('h3', {}, 'Create a key'), form] : null,
    can('keys:read') ? [h('h3', {}, 'Keys'),
      table([['Name'], ['Id'], ['Prefix'], ['Team'], ['Models'], ['RPM', 1], ['TPM', 1], ['Budget'], ['Spent', 1], ['State'], ['Created'], ['Actions']],
        keys.map(k => [k.name, k.id, k.prefix + '…', k.team_id ? session.teamNames[k.team_id] || k.team_id : '–', k.models.length ? k.models.join(', ') : 'all', k.rpm ?? '–', k.tpm ?? '–',
          budgetText(k.budget_usd, k.budget_period, k.period_spent_usd), fmtUsd(k.spent_usd), k.disabled ? 'disabled' : 'active', k.created_at.slice(0, 10),
          keyActions(k)]), null, 'keys-table')] : null,
    teamForm ? [h('h3', {}, 'Create a team'), teamForm] : null,
    can('teams:read') ? [h('h3', {}, 'Teams'),
      h('p', { class: 'note' }, 'A team\'s allow-list, limits and budget apply to its keys on top of each key\'s own.'),
      table([['Name'], ['Id'], ['Models'], ['RPM', 1], ['TPM', 1], ['Budget'], ['Spent', 1], ['Keys', 1], ['Created'], ['Actions']],
        teams.map(t => [t.name, t.id, t.models.length ? t.models.join(', ') : 'all', t.rpm ?? '–', t.tpm ?? '–',
          budgetText(t.budget_usd, t.budget_period, t.period_spent_usd), fmtUsd(t.spent_usd), keys.filter(k => k.team_id === t.id).length, t.created_at.slice(0, 10),
          teamActions(t)]), null, 'teams-table')] : null].flat().filter(Boolean));
}

function editKey(k, teams) {
  const form = keyForm(k, teams, async (body) => {
    await api('/api/v1/admin/keys/' + k.id, { method: 'PATCH', body });
    await keysScreen();
    document.getElementById('keys-message').replaceChildren(h('p', {}, 'Key ', h('b', {}, body.name), ' saved.'));
  });
  view.replaceChildren(title('Edit key ' + k.name), form,
    h('button', { type: 'button', class: 'secondary', onclick: () => keysScreen() }, 'Cancel'));
  form.querySelector('input').focus();
}

function editTeam(t) {
  const form = teamFormOf(t, async (body) => {
    await api('/api/v1/admin/teams/' + t.id, { method: 'PATCH', body });
    await keysScreen();
    document.getElementById('keys-message').replaceChildren(h('p', {}, 'Team ', h('b', {}, body.name), ' saved.'));
  });
  view.replaceChildren(title('Edit team ' + t.name), form,
    h('button', { type: 'button', class: 'secondary', onclick: () => keysScreen() }, 'Cancel'));
  form.querySelector('input').focus();
}

// not a number: sent as typed, so the admin API's 400 names the field
const num = v => v.trim() === '' ? null : (Number.isFinite(Number(v)) ? Number(v) : v.trim());
const globs = v => v.split(',').map(s => s.trim()).filter(Boolean);

/** A form's text field with its label; ids are "<form>-<name>". */
function field(form, name, label, value, attrs = {}) {
  return h('label', {}, label, h('input', Object.assign({ id: form + '-' + name, name, value: value ?? '' }, attrs)));
}

/** Creating, all empty fields are left out; editing, they are sent as null ("no limit"). */
function withoutEmpty(body) {
  for (const key of Object.keys(body)) if (body[key] === null || (Array.isArray(body[key]) && !body[key].length)) delete body[key];
  return body;
}

/** The key create and edit form: empty fields mean "no limit" (sent as null when editing). */
function keyForm(k, teams, submit) {
  const id = k ? 'edit' : 'new';
  const error = h('p', { class: 'error', role: 'alert' });
  const form = h('form', { 'aria-label': k ? 'Edit key' : 'Create a key', onsubmit: async e => {
    e.preventDefault();
    error.textContent = '';
    const f = form.elements;
    const body = { name: f.name.value.trim(), models: globs(f.models.value), team_id: f.team_id.value || null,
      rpm: num(f.rpm.value), tpm: num(f.tpm.value), max_concurrent: num(f.max_concurrent.value),
      budget_usd: f.budget_usd.value.trim() || null, budget_period: f.budget_period.value, expires_at: f.expires_at.value.trim() || null };
    try { await submit(k ? body : withoutEmpty(body)); } catch (err) { error.textContent = err.message; }
  } },
    field(id, 'name', 'Name', k && k.name, { required: true, autocomplete: 'off' }),
    h('label', {}, 'Team', h('select', { id: id + '-team_id', name: 'team_id' },
      orgWide('keys:write') || (reachOf('keys:write') || {}).own ? h('option', { value: '' }, 'no team') : null,
      teams.map(t => h('option', { value: t.id, selected: k && k.team_id === t.id }, t.name)))),
    field(id, 'models', 'Allowed models (globs, comma-separated; empty: all)', k && k.models.join(', ')),
    field(id, 'rpm', 'Requests per minute', k && k.rpm, { inputmode: 'numeric' }),
    field(id, 'tpm', 'Tokens per minute', k && k.tpm, { inputmode: 'numeric' }),
    field(id, 'max_concurrent', 'Calls in flight', k && k.max_concurrent, { inputmode: 'numeric' }),
    field(id, 'budget_usd', 'Budget (USD)', k && k.budget_usd, { inputmode: 'decimal' }),
    h('label', {}, 'Budget period', select(id + '-budget_period', PERIODS, k ? k.budget_period : 'lifetime', 'budget_period')),
    field(id, 'expires_at', 'Expires (ISO instant)', k && k.expires_at, { placeholder: '2027-01-01T00:00:00Z' }),
    h('button', { type: 'submit' }, k ? 'Save' : 'Create key'), error);
  return form;
}

/** The team create and edit form. */
function teamFormOf(t, submit) {
  const id = t ? 'team-edit' : 'team-new';
  const error = h('p', { class: 'error', role: 'alert' });
  const form = h('form', { 'aria-label': t ? 'Edit team' : 'Create a team', onsubmit: async e => {
    e.preventDefault();
    error.textContent = '';
    const f = form.elements;
    const body = { name: f.name.value.trim(), models: globs(f.models.value), rpm: num(f.rpm.value), tpm: num(f.tpm.value),
      budget_usd: f.budget_usd.value.trim() || null, budget_period: f.budget_period.value };
    try { await submit(t ? body : withoutEmpty(body)); } catch (err) { error.textContent = err.message; }
  } },
    field(id, 'name', 'Team name', t && t.name, { required: true, autocomplete: 'off' }),
    field(id, 'models', 'Allowed models (globs, comma-separated; empty: all)', t && t.models.join(', ')),
    field(id, 'rpm', 'Requests per minute (shared)', t && t.rpm, { inputmode: 'numeric' }),
    field(id, 'tpm', 'Tokens per minute (shared)', t && t.tpm, { inputmode: 'numeric' }),
    field(id, 'budget_usd', 'Budget (USD)', t && t.budget_usd, { inputmode: 'decimal' }),
    h('label', {}, 'Budget period', select(id + '-budget_period', PERIODS, t ? t.budget_period : 'lifetime', 'budget_period')),
    h('button', { type: 'submit' }, t ? 'Save team' : 'Create team'), error);
  return form;
}

// ---- limits ----

async function limitsScreen() {
  const out = h('div');
  view.replaceChildren(title('Limits'), h('p', { class: 'note' }, (!isApiKey() ? 'Each key\'s and team\'s' : 'This key\'s')
    + ' rate-limit buckets as they are now (what is left), and budgets in their period; refreshed every 5 seconds.'), out);
  async function draw() {
    if (isApiKey()) { out.replaceChildren(await ownLimits()); return; }
    const limits = await api('/api/v1/admin/rate-limits');
    session.teamNames = Object.assign(session.teamNames, Object.fromEntries(limits.teams.map(t => [t.team_id, t.name])));
    out.replaceChildren(h('h3', {}, 'Keys'),
      table([['Key'], ['Team'], ['Requests / min'], ['Tokens / min'], ['Calls in flight', 1], ['Budget'], ['Spent in all', 1], ['Per-model limits']],
        limits.data.map(k => [k.name + (k.disabled ? ' (disabled)' : ''), k.team_id ? session.teamNames[k.team_id] || k.team_id : '–',
          bucket(k.requests), bucket(k.tokens), k.max_concurrent ?? '–', budgetText(k.budget_usd, k.budget_period, k.period_spent_usd), fmtUsd(k.spent_usd),
          k.model_limits.length ? h('span', {}, k.model_limits.map(m => h('span', {}, m.models, ': ', bucket(m.requests), ' ', bucket(m.tokens)))) : '–']), null, 'limits-keys'),
      h('h3', {}, 'Teams'),
      table([['Team'], ['Requests / min (shared)'], ['Tokens / min (shared)'], ['Budget'], ['Spent in all', 1]],
        limits.teams.map(t => [t.name, bucket(t.requests), bucket(t.tokens), budgetText(t.budget_usd, t.budget_period, t.period_spent_usd), fmtUsd(t.spent_usd)]),
        null, 'limits-teams'));
  }
  await draw();
  const timer = setInterval(() => { if (document.visibilityState === 'visible') draw().catch(() => {}); }, 5000);
  leave = () => clearInterval(timer);
}

// ---- models and deployments ----

async function modelsScreen() {
  const models = await api('/api/v1/models');
  const price = v => v === undefined || v === null ? '–' : '$' + v;
  const deployments = h('div', { id: 'deployments' });
  view.replaceChildren(title('Models'), h('p', { class: 'note' }, 'The effective catalogue; prices in USD per million tokens.'),
    table([['Model'], ['Vendor'], ['Upstream id'], ['Kind'], ['Context', 1], ['Input', 1], ['Output', 1], ['Cache read', 1], ['Cache write 5m', 1], ['Status']],
      models.data.map(m => [m.id, m.vendor, m.upstream_model, m.kind, fmtInt(m.context_window), price(m.pricing.input), price(m.pricing.output),
        price(m.pricing.cache_read), price(m.pricing.cache_write_5m), m.status + (m.replacement ? ' → ' + m.replacement : '')]), null, 'models-table'),
    can('config:read') ? h('section', { 'aria-labelledby': 'deployments-title' }, h('h3', { id: 'deployments-title' }, 'Deployments'),
      h('p', { class: 'note' }, 'Each deployment\'s health: its circuit breaker and, while it cools down after failures or a rate limit, until when. Refreshed every 5 seconds.'),
      deployments) : null);
  if (!can('config:read')) return;
  async function draw() {
    const config = await api('/api/v1/admin/config');
    const rows = [];
    for (const [model, m] of Object.entries(config.models)) {
      for (const d of m.deployments) {
        rows.push([model, d.id, d.provider, d.weight,
          h('span', { class: d.state === 'cooling' ? 'status-error' : 'status-ok' }, d.state),
          d.breaker.replace('_', '-'), d.cooling_until ? d.cooling_until.replace('T', ' ').slice(0, 19) + ' UTC (' + fmtInt(Math.ceil(d.ready_in_ms / 1000)) + ' s)' : '–']);
      }
    }
    // the cooling ones first: they are what an operator opens this for
    rows.sort((a, b) => (b[4].textContent === 'cooling') - (a[4].textContent === 'cooling'));
    deployments.replaceChildren(table([['Model'], ['Deployment'], ['Provider'], ['Weight', 1], ['State'], ['Breaker'], ['Cooling until']],
      rows, null, 'deployments-table'));
  }
  await draw();
  const timer = setInterval(() => { if (document.visibilityState === 'visible') draw().catch(() => {}); }, 5000);
  leave = () => clearInterval(timer);
}

// ---- audit log ----

const ACTIONS = [['', 'any'], ['key.create', 'key.create'], ['key.update', 'key.update'], ['key.delete', 'key.delete'],
  ['team.create', 'team.create'], ['team.update', 'team.update'], ['team.delete', 'team.delete'], ['reprice', 'reprice'], ['alerts.update', 'alerts.update']];
const TARGET_TYPES = [['', 'any'], ['key', 'keys'], ['team', 'teams'], ['ledger', 'ledger (repricing)'], ['alerts', 'alert settings']];
const auditFilter = { action: '', target_type: '', target: '', actor: '' };

/** What changed: the fields whose values differ, "name: a → b"; a creation's or deletion's settings whole. */
function changeText(before, after) {
  const show = v => v === null || v === undefined ? '–' : Array.isArray(v) ? (v.length ? v.join(', ') : '[]') : typeof v === 'object' ? JSON.stringify(v) : String(v);
  if (!before && !after) return '–';
  if (!before || !after) {
    const s = before || after;
    return (before ? 'removed: ' : '') + Object.entries(s).filter(([, v]) => v !== null && !(typeof v === 'object' && !Object.keys(v).length)).map(([k, v]) => k + ' ' + show(v)).join('; ');
  }
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const changed = keys.filter(k => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  return changed.length ? changed.map(k => k + ': ' + show(before[k]) + ' → ' + show(after[k])).join('; ') : 'no change';
}

async function auditScreen() {
  if (!can('audit:read')) { view.replaceChildren(title('Audit log'), h('p', {}, 'The audit log needs the audit:read permission (auditor or org_admin).')); return; }
  await loadKeyNames();
  const form = h('form', { class: 'controls', 'aria-label': 'Filter the audit log', onsubmit: e => { e.preventDefault(); read(); first(); } },
    h('label', {}, 'Action', select('audit-action', ACTIONS, auditFilter.action, 'action')),
    h('label', {}, 'Changes to', select('audit-target-type', TARGET_TYPES, auditFilter.target_type, 'target_type')),
    h('label', {}, 'Target id (key or team)', h('input', { id: 'audit-target', name: 'target', value: auditFilter.target, autocomplete: 'off', spellcheck: 'false' })),
    h('label', {}, 'Actor id (user, key, master)', h('input', { id: 'audit-actor', name: 'actor', value: auditFilter.actor, autocomplete: 'off', spellcheck: 'false' })),
    h('button', { type: 'submit' }, 'Filter'));
  const list = h('div', { id: 'audit-list' });
  const more = h('button', { type: 'button', class: 'secondary', id: 'audit-older', hidden: true }, 'Older entries');
  view.replaceChildren(title('Audit log'), h('p', { class: 'note' }, 'Every change to keys, teams, prices and alerts, newest first, 50 a page.'), form, list, h('p', {}, more));
  const rows = [];
  let next = null;
  function read() {
    auditFilter.action = form.querySelector('#audit-action').value;
    auditFilter.target_type = form.querySelector('#audit-target-type').value;
    auditFilter.target = form.target.value.trim();
    auditFilter.actor = form.actor.value.trim();
  }
  const target = e => e.target_type === 'key' ? keyLabel(e.target_id) : e.target_type === 'team' ? teamLabel(e.target_id) : e.target_type + (e.target_id ? ' ' + e.target_id : '');
  async function page() {
    const q = new URLSearchParams({ limit: '50' });
    for (const [k, v] of Object.entries(auditFilter)) if (v) q.set(k, v);
    if (next) q.set('before', next);
    const answer = await api('/api/v1/console/audit?' + q);
    rows.push(...answer.data);
    next = answer.next;
    more.hidden = !next;
    // an actor's name filters the log by that actor
    const actor = e => h('button', { type: 'button', class: 'link', 'aria-label': 'Only the changes of ' + (e.actor_name || e.actor),
      onclick: () => { form.actor.value = e.actor; read(); first(); } },
      e.actor_name || (e.actor === 'master' ? 'master key' : keyLabel(e.actor)), e.actor_kind ? ' (' + e.actor_kind + ')' : null);
    list.replaceChildren(table([['Time (UTC)'], ['Actor'], ['Role'], ['Source'], ['Action'], ['Target'], ['Change']],
      rows.map(e => [e.at.replace('T', ' ').slice(0, 19), actor(e), e.actor_role || '–', e.source || '–', e.action, target(e),
        h('span', { class: 'change' }, changeText(e.before, e.after))]), null, 'audit-table'));
  }
  async function first() { rows.length = 0; next = null; await page(); }
  more.addEventListener('click', () => page().catch(err => list.append(h('p', { class: 'error', role: 'alert' }, err.message))));
  await first();
}

// ---- requests ----

const requestFilter = { key: '', user: '', model: '', status: '' };

async function requestsScreen() {
  const form = h('form', { class: 'controls', 'aria-label': 'Filter requests', onsubmit: e => { e.preventDefault(); read(); first(); } },
    !isApiKey() ? h('label', {}, 'Key id', h('input', { id: 'requests-key', name: 'key', value: requestFilter.key, autocomplete: 'off' })) : null,
    h('label', {}, 'User id', h('input', { id: 'requests-user', name: 'user', value: requestFilter.user, autocomplete: 'off', maxlength: 40 })),
    h('label', {}, 'Model', h('input', { id: 'requests-model', name: 'model', value: requestFilter.model, autocomplete: 'off' })),
    h('label', {}, 'Status', select('requests-status', [['', 'any'], ['ok', 'succeeded'], ['error', 'failed']], requestFilter.status)),
    h('button', { type: 'submit' }, 'Filter'));
  const list = h('div', { id: 'requests-list' });
  const more = h('button', { type: 'button', class: 'secondary', id: 'requests-older', hidden: true }, 'Older requests');
  view.replaceChildren(title('Requests'), h('p', { class: 'note' }, 'The last 24 hours, newest first.'), form, list, h('p', {}, more));
  const rows = [];
  let next = null;
  function read() {
    requestFilter.key = !isApiKey() ? form.key.value.trim() : '';
    requestFilter.user = form.user.value.trim();
    requestFilter.model = form.model.value.trim();
    requestFilter.status = form.querySelector('#requests-status').value;
  }
  async function page() {
    const q = new URLSearchParams({ limit: '50' });
    for (const [k, v] of Object.entries(requestFilter)) if (v) q.set(k, v);
    if (next) q.set('before', next);
    const answer = await api('/api/v1/console/requests?' + q);
    rows.push(...answer.data);
    next = answer.next;
    more.hidden = !next;
    list.replaceChildren(table([['Time (UTC)'], ['Status'], ['Model'], ['Key'], ['User'], ['Attempts', 1], ['Latency', 1], ['TTFT', 1], ['Tokens in / out', 1], ['Cost', 1], ['Trace id']],
      rows.map(r => [h('a', { href: '#request/' + encodeURIComponent(r.id) }, r.at.replace('T', ' ').slice(0, 19)),
        h('span', { class: r.status >= 400 ? 'status-error' : 'status-ok' }, r.status), r.model ?? '–', keyLabel(r.key_id), r.user_id ?? '–', r.attempts,
        fmtMs(r.latency_ms), fmtMs(r.ttft_ms), fmtInt(r.input_tokens + r.cache_read_tokens + r.cache_write_5m_tokens + r.cache_write_1h_tokens) + ' / ' + fmtInt(r.output_tokens),
        fmtUsd(r.cost_usd), r.trace_id ?? '–'])));
  }
  async function first() { rows.length = 0; next = null; await page(); }
  more.addEventListener('click', () => page().catch(err => list.append(h('p', { class: 'error', role: 'alert' }, err.message))));
  await first();
}

async function requestScreen(id) {
  const r = await api('/api/v1/console/requests/' + encodeURIComponent(id));
  const fields = [['Time', r.at], ['Status', r.status], ['Trace id', r.trace_id], ['Key', keyLabel(r.key_id)], ['User', r.user_id], ['Model', r.model],
    ['Answered by', r.answered_model], ['Vendor', r.vendor], ['Attempts', r.attempts], ['Latency', fmtMs(r.latency_ms)], ['Time to first token', fmtMs(r.ttft_ms)],
    ['Input tokens', fmtInt(r.input_tokens)], ['Cache read tokens', fmtInt(r.cache_read_tokens)], ['Cache write tokens (5 min)', fmtInt(r.cache_write_5m_tokens)],
    ['Cache write tokens (1 h)', fmtInt(r.cache_write_1h_tokens)], ['Output tokens', fmtInt(r.output_tokens)], ['Reasoning tokens', fmtInt(r.reasoning_tokens)],
    ['Cost', fmtUsd(r.cost_usd)], ['Ledger id', r.id]];
  view.replaceChildren(title('Request ' + (r.trace_id || r.id)), h('p', {}, h('a', { href: '#requests' }, '← All requests')),
    h('dl', { id: 'request-detail' }, fields.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v ?? '–')])));
}
