// The TLS cells: the openai SDK against a second gateway that serves TLS itself (docs/configuration.md, "TLS")
// with the suite's self-signed certificate (certificate.mjs). `openai-https` runs chat cells over https://;
// `openai-realtime` runs the SDK's realtime client, which always dials wss://. Each cell runs in its own node
// process started with NODE_EXTRA_CA_CERTS (Node reads it at start-up only), as a user trusts a private CA;
// the suite's process itself does not trust the certificate.
//   node secure.mjs <client> <scenario> <vendor> <gateway url>   (one cell; prints {"ok", "reason"})
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import { MASTER_KEY } from './stack.mjs';
import { VENDOR_IDS, REALTIME_MODELS, NO_REALTIME, CellFailure, expect, excerpt, reasonOf } from './vendors.mjs';
import { chat } from './official.mjs';

const SELF = fileURLToPath(import.meta.url);
const CHILD_TIMEOUT_MS = 45_000;

/**
 * One realtime session as the SDK's docs show it: open, configure a text session, send a user text item and
 * ask for a response; the response's events stream back, `response.done` carries its usage; close. Then the
 * caller's own usage report shows the session metered (docs/endpoints.md, "Realtime", Metering).
 */
async function realtimeTextTurn(ctx, v) {
  const model = REALTIME_MODELS[v];
  const client = new OpenAI({ baseURL: `${ctx.gateway}/api/v1`, apiKey: MASTER_KEY, maxRetries: 0, timeout: 30_000 });
  const rt = new OpenAIRealtimeWS({ model }, client);
  expect(rt.url.protocol === 'wss:', `the SDK dialed ${rt.url}`);
  const types = [];
  let text = '';
  let closed = null;
  const closing = new Promise((resolve) => rt.socket.on('close', (code, reason) => { closed = { code, reason: String(reason) }; resolve(closed); }));
  const response = await new Promise((resolve, reject) => {
    rt.on('error', reject);
    rt.on('event', (e) => types.push(e.type));
    rt.on('response.output_text.delta', (e) => { text += e.delta; });
    rt.on('response.done', (e) => resolve(e.response));
    closing.then((c) => reject(new CellFailure(`the session closed (${c.code} ${c.reason}) before response.done; events: ${types.join(', ')}`)));
    rt.socket.on('open', () => {
      rt.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], instructions: 'Answer briefly.' } });
      rt.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Say hello.' }] } });
      rt.send({ type: 'response.create' });
    });
  }).finally(() => rt.close());
  const { code } = await closing;
  for (const t of ['session.created', 'session.updated', 'conversation.item.added', 'response.created', 'response.output_text.done']) {
    expect(types.includes(t), `no ${t} event; events: ${types.join(', ')}`);
  }
  expect(text.startsWith(`Hello from ${model.replace('platform/', '')}.`), `streamed text is ${JSON.stringify(excerpt(text, 120))}`);
  expect(response.status === 'completed', `response.done status ${response.status}`);
  const u = response.usage ?? {};
  expect(u.input_tokens > 0 && u.output_tokens > 0 && u.total_tokens === u.input_tokens + u.output_tokens, `response.done usage ${excerpt(JSON.stringify(u))}`);
  expect(code === 1000, `close code ${code} ${closed.reason}`);
  await expectMetered(client, model, u);
}

/** The caller's `/usage` report shows the model's tokens once the ledger row (written at response.done) is in. */
async function expectMetered(client, model, u) {
  let row = null;
  for (let i = 0; i < 25; i++) {
    const report = await client.get('/usage', { query: { group_by: 'model' } });
    row = report.data.find((r) => r.model === model);
    if (row?.output_tokens >= u.output_tokens) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new CellFailure(`/usage does not show the session's ${u.output_tokens} output tokens: ${excerpt(JSON.stringify(row))}`);
}

/** client → [inbound protocol, scenarios]; a scenario with `realtime` needs a realtime model on the vendor. */
const SECURE_CLIENTS = {
  'openai-https': ['chat', { text: chat.text, stream: chat.stream }],
  'openai-realtime': ['realtime', { text_turn: realtimeTextTurn }],
};

/** Runs one cell in a node process that trusts the suite's certificate; its last stdout line is the verdict. */
function inChild(ctx, client, scenario, vendor) {
  expect(ctx.gateway.startsWith('https://'), `the TLS gateway's URL is ${ctx.gateway}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SELF, client, scenario, vendor, ctx.gateway], {
      env: { PATH: process.env.PATH, HOME: ctx.dir, NODE_EXTRA_CA_CERTS: ctx.ca }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err = (err + d).slice(-4000); });
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      let verdict = null;
      try { verdict = JSON.parse(out.trim().split('\n').at(-1)); } catch { /* no verdict: reported below */ }
      if (verdict?.ok) resolve();
      else reject(new CellFailure(verdict?.reason ?? `the cell's process exited with ${code}: ${excerpt(err || out, 300)}`));
    });
  });
}

export function secureCells() {
  const cells = [];
  for (const [client, [protocol, scenarios]] of Object.entries(SECURE_CLIENTS)) {
    for (const scenario of Object.keys(scenarios)) {
      for (const vendor of VENDOR_IDS) {
        const cell = { kind: 'sdk', stack: 'tls', client, scenario, vendor, protocol };
        if (protocol === 'realtime' && !REALTIME_MODELS[vendor]) cell.na = NO_REALTIME;
        else cell.run = (ctx) => inChild(ctx, client, scenario, vendor);
        cells.push(cell);
      }
    }
  }
  return cells;
}

if (process.argv[1] === SELF) {
  const [client, scenario, vendor, gateway] = process.argv.slice(2);
  let verdict;
  try {
    await SECURE_CLIENTS[client][1][scenario]({ gateway }, vendor);
    verdict = { ok: true };
  } catch (e) {
    verdict = { ok: false, reason: reasonOf(e) };
  }
  process.stdout.write(`${JSON.stringify(verdict)}\n`);
  process.exit(0);
}
