// Cells that run the real CLIs, Claude Code (print mode) and Codex (`codex exec`), each in its own temporary
// HOME / CODEX_HOME and working directory, through a recording proxy in front of the gateway.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { recordingProxy, MASTER_KEY } from './stack.mjs';
import { VENDORS, ROW_IDS, CLOUD_IDS, expect, excerpt } from './vendors.mjs';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'node_modules', '.bin');
const CLI_TIMEOUT_MS = 90_000;

/** Anything but loopback goes to a closed port, so a client that tries the internet fails fast, offline. */
const OFFLINE = { HTTPS_PROXY: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9', NO_PROXY: '127.0.0.1,localhost' };

function run(cmd, args, { env, cwd, timeoutMs = CLI_TIMEOUT_MS }) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => { timedOut = true; try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, timeoutMs);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr, timedOut }); });
  });
}

function tmp(prefix) {
  return mkdtempSync(join(tmpdir(), `mg-compat-${prefix}-`));
}

function failed(turn, r) {
  if (r.timedOut) return `${turn}: timed out after ${CLI_TIMEOUT_MS / 1000} s`;
  return `${turn}: exit ${r.code}; ${excerpt(r.stderr.split('\n').filter((l) => /error|Error|API/.test(l)).join(' ') || r.stdout || r.stderr)}`;
}

// ---- Claude Code ----------------------------------------------------------------------------------------

/** Claude Code with a gateway key (platform keys are Bearer: ANTHROPIC_AUTH_TOKEN) and no other traffic. */
function claudeEnv(home, baseUrl, model) {
  return {
    PATH: process.env.PATH, HOME: home, ...OFFLINE,
    ANTHROPIC_BASE_URL: `${baseUrl}/api`,
    ANTHROPIC_AUTH_TOKEN: MASTER_KEY,
    // its background model (titles, summaries) is the same model: nothing asks for a model the catalogue lacks
    ANTHROPIC_SMALL_FAST_MODEL: model,
    ANTHROPIC_DEFAULT_HAIKU_MODEL: model,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_BUG_COMMAND: '1',
  };
}

async function claude(ctx, { home, cwd, model, prompt, extra = [] }) {
  const args = ['-p', '--model', model, ...extra, '--', prompt];
  return run(join(BIN, 'claude'), args, { env: claudeEnv(home, ctx.url, model), cwd });
}

function hello(vendor) {
  return `Hello from ${VENDORS[vendor].upstream}.`;
}

/** Every Claude Code cell: its own HOME (settings, sessions) and project directory. */
async function claudeCell(ctx, vendor, body) {
  const home = tmp('claude-home');
  const cwd = tmp('claude-work');
  const proxy = await recordingProxy(ctx.gateway);
  try {
    await body({ ...ctx, url: proxy.url }, { home, cwd, model: VENDORS[vendor].model });
    // Claude Code retries some refusals in another shape (e.g. without thinking blocks): the cell fails anyway
    const refused = proxy.exchanges.find((e) => e.status >= 400);
    expect(!refused, `a request was refused (Claude Code then retried it otherwise): ${refused?.status} ${excerpt(refused?.answer, 300)}`);
  } finally {
    ctx.record(proxy.exchanges);
    await proxy.close();
  }
}

const claudeScenarios = {
  /** A plain answer, the default tools declared (the directive keeps the simulator from calling one). */
  plain: (vendor) => (ctx) => claudeCell(ctx, vendor, async (c, s) => {
    const r = await claude(c, { ...s, prompt: '[[sim:tool=none]] Say hello.' });
    expect(r.code === 0, failed('claude -p', r));
    expect(r.stdout.includes(hello(vendor)), `the answer printed is ${JSON.stringify(excerpt(r.stdout, 120))}, expected "${hello(vendor)} You said: …"`);
  }),
  /** The model calls Bash; Claude Code really runs it (the file exists afterwards) and sends the result back. */
  bash_tool: (vendor) => (ctx) => claudeCell(ctx, vendor, async (c, s) => {
    const prompt = 'Write the file. [[sim:tool=Bash;args={"command":"echo compat-ok > out.txt","description":"Write out.txt"}]]';
    const r = await claude(c, { ...s, prompt, extra: ['--allowedTools', 'Bash'] });
    expect(r.code === 0, failed('claude -p', r));
    const file = join(s.cwd, 'out.txt');
    expect(existsSync(file) && readFileSync(file, 'utf8').trim() === 'compat-ok', `Bash did not run: out.txt missing; output ${JSON.stringify(excerpt(r.stdout, 120))}`);
    expect(r.stdout.includes('Tool result received'), `after the tool ran, the answer printed is ${JSON.stringify(excerpt(r.stdout, 120))}`);
  }),
  /** `-c` continues the last session: the second turn sends the first one's history. */
  continue: (vendor) => (ctx) => claudeCell(ctx, vendor, async (c, s) => {
    const r1 = await claude(c, { ...s, prompt: '[[sim:tool=none]] Remember the word mango.' });
    expect(r1.code === 0 && r1.stdout.includes(hello(vendor)), `turn 1: ${failed('claude -p', r1)}`);
    const r2 = await claude(c, { ...s, prompt: 'Which word?', extra: ['-c'] });
    expect(r2.code === 0, failed('turn 2 (-c)', r2));
    expect(r2.stdout.includes(hello(vendor)), `turn 2 (-c) printed ${JSON.stringify(excerpt(r2.stdout, 120))}`);
    expect(r2.stdout.includes('Which word?') || r2.stdout.includes('You said:'), 'turn 2 answer does not echo the prompt');
  }),
  /**
   * Switching vendor mid-session: the session starts on another vendor (A, or B when the cell is A's), goes on
   * with `-c --model <this vendor>`, and comes back: each turn replays the others' history, thinking included.
   * A cloud row starts on its cloud-served model, goes to vendor B and comes back to the cloud.
   */
  switch_vendor: (vendor) => (ctx) => claudeCell(ctx, vendor, async (c, s) => {
    const other = VENDORS[vendor].family === 'A' ? 'B' : 'A';
    const turns = CLOUD_IDS.includes(vendor) ? [[vendor, []], [other, ['-c']], [vendor, ['-c']]]
      : [[other, []], [vendor, ['-c']], [other, ['-c']]];
    for (const [i, [v, extra]] of turns.entries()) {
      const r = await claude(c, { ...s, model: VENDORS[v].model, prompt: `[[sim:tool=none]] Turn ${i + 1}.`, extra });
      expect(r.code === 0, failed(`turn ${i + 1} on ${v}`, r));
      expect(r.stdout.includes(hello(v)), `turn ${i + 1} on ${v} printed ${JSON.stringify(excerpt(r.stdout, 120))}`);
    }
  }),
};

// ---- Codex ------------------------------------------------------------------------------------------------

/**
 * The documented recipe (docs/compatibility.md): a model provider pointing at the gateway's Responses API;
 * the hosted web_search tool off (the contract keeps it for one model); no analytics.
 */
export function codexConfig(baseUrl) {
  return `# Codex CLI on Model Gateway (docs/compatibility.md)
model_provider = "gateway"
web_search = "disabled"

[model_providers.gateway]
name = "Model Gateway"
base_url = "${baseUrl}/api/v1"
env_key = "GATEWAY_API_KEY"
wire_api = "responses"

[analytics]
enabled = false
`;
}

async function codexCell(ctx, vendor, body) {
  const home = tmp('codex-home');
  const codexHome = join(home, '.codex');
  const cwd = tmp('codex-work');
  const proxy = await recordingProxy(ctx.gateway);
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(join(codexHome, 'config.toml'), codexConfig(proxy.url));
  const env = { PATH: process.env.PATH, HOME: home, CODEX_HOME: codexHome, GATEWAY_API_KEY: MASTER_KEY, ...OFFLINE };
  const codex = (prompt, extra = []) => run(join(BIN, 'codex'),
    ['exec', '--skip-git-repo-check', '-m', VENDORS[vendor].model, ...extra, prompt], { env, cwd });
  try {
    await body(codex, cwd);
  } finally {
    ctx.record(proxy.exchanges);
    await proxy.close();
  }
}

/** Codex prints "ERROR: <body>" for a refused request and then exits non-zero or with an empty answer. */
function codexFailed(r) {
  const err = r.stdout.split('\n').concat(r.stderr.split('\n')).find((l) => l.startsWith('ERROR:'));
  return err ? `codex exec: ${excerpt(err, 300)}` : failed('codex exec', r);
}

const codexScenarios = {
  plain: (vendor) => (ctx) => codexCell(ctx, vendor, async (codex) => {
    const r = await codex('[[sim:tool=none]] Say hello.');
    expect(r.code === 0 && !/^ERROR:/m.test(r.stdout + r.stderr), codexFailed(r));
    expect(r.stdout.includes(hello(vendor)), `the answer printed is ${JSON.stringify(excerpt(r.stdout, 120))}`);
  }),
  /** The model calls exec_command; Codex runs it (outside its sandbox) and sends the output back. */
  shell_tool: (vendor) => (ctx) => codexCell(ctx, vendor, async (codex, cwd) => {
    const r = await codex('Write the file. [[sim:tool=exec_command;args={"cmd":"echo compat-ok > out.txt"}]]',
      ['--dangerously-bypass-approvals-and-sandbox']);
    expect(r.code === 0 && !/^ERROR:/m.test(r.stdout + r.stderr), codexFailed(r));
    const file = join(cwd, 'out.txt');
    expect(existsSync(file) && readFileSync(file, 'utf8').trim() === 'compat-ok', `the shell tool did not run: out.txt missing; output ${JSON.stringify(excerpt(r.stdout, 120))}`);
    expect(r.stdout.includes('Tool result received'), `after the tool ran, the answer printed is ${JSON.stringify(excerpt(r.stdout, 120))}`);
  }),
};

/** All CLI cells: { client, scenario, vendor, run(ctx) }. */
export function cliCells() {
  const cells = [];
  for (const [client, scenarios] of [['claude-code', claudeScenarios], ['codex', codexScenarios]]) {
    for (const [scenario, make] of Object.entries(scenarios)) {
      for (const vendor of ROW_IDS) cells.push({ kind: 'cli', client, scenario, vendor, run: make(vendor) });
    }
  }
  return cells;
}
