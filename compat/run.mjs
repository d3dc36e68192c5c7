#!/usr/bin/env node
// The compatibility suite: real clients against the built gateway and its vendor simulator.
//   node run.mjs [--jar PATH] [--only REGEX] [--jobs N] [--docs FILE] [--record DIR]
// Writes results/results.json (one entry per cell: client, scenario, vendor, ok, na, reason) and, for CLI cells,
// results/requests/<cell>.json (what the CLI sent). Exits non-zero when a cell fails that known.json does not
// list, or a listed cell passes. --docs regenerates the matrix page; --record writes the CLI request fixtures.
import { mkdirSync, mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStack } from './lib/stack.mjs';
import { cliCells } from './lib/cli.mjs';
import { sdkCells } from './lib/sdk.mjs';
import { secureCells } from './lib/secure.mjs';
import { selfSignedCertificate } from './lib/certificate.mjs';
import { CellFailure, reasonOf } from './lib/vendors.mjs';
import { renderMatrix } from './lib/matrix.mjs';
import { recordFixtures } from './lib/record.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const args = parseArgs(process.argv.slice(2));
const jar = resolve(args.jar ?? join(ROOT, 'gateway', 'target', 'gateway.jar'));
const jobs = Number(args.jobs ?? 4);
const only = args.only ? new RegExp(args.only) : null;
const RESULTS = join(HERE, 'results');
const CELL_TIMEOUT_MS = { cli: 240_000, sdk: 60_000 };

function parseArgs(list) {
  const out = {};
  for (let i = 0; i < list.length; i++) {
    const m = /^--([a-z]+)$/.exec(list[i]);
    if (!m) throw new Error(`unknown argument ${list[i]}`);
    out[m[1]] = list[i + 1] && !list[i + 1].startsWith('--') ? list[++i] : true;
  }
  return out;
}

export const cellId = (c) => `${c.client}/${c.scenario}/${c.vendor}`;

async function runCell(cell, stacks) {
  // not applicable (e.g. realtime on a vendor without a realtime model): not run, shown as n/a with its reason
  if (cell.na) return { ok: null, na: cell.na, reason: null, ms: 0 };
  const started = Date.now();
  const stack = stacks[cell.stack ?? 'plain'];
  const ctx = { gateway: stack.gateway, sim: stack.sim, dir: stack.dir, ca: stack.ca, record: (exchanges) => { cell.requests = exchanges; } };
  let timer;
  try {
    await Promise.race([cell.run(ctx), new Promise((_, reject) => {
      timer = setTimeout(() => reject(new CellFailure(`cell timed out after ${CELL_TIMEOUT_MS[cell.kind] / 1000} s`)), CELL_TIMEOUT_MS[cell.kind]);
    })]);
    return { ok: true, na: null, reason: null, ms: Date.now() - started };
  } catch (e) {
    return { ok: false, na: null, reason: reasonOf(e), ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

async function pool(items, n, fn) {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

/**
 * The plain gateway, and the TLS one when a selected cell needs it (secure.mjs), started side by side. The TLS
 * gateway's certificate is made for this run in a temporary directory; `ca` is its path for NODE_EXTRA_CA_CERTS.
 */
async function startStacks(cells) {
  const java = process.env.JAVA_HOME;
  const tls = cells.some((c) => c.stack === 'tls' && !c.na) ? selfSignedCertificate(mkdtempSync(join(tmpdir(), 'mg-compat-tls-')), java) : null;
  const started = await Promise.allSettled([startStack(jar, java), tls ? startStack(jar, java, { tls }) : null]);
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(started.filter((s) => s.status === 'fulfilled' && s.value).map((s) => s.value.stop()));
    throw failed.reason;
  }
  const [plain, secure] = started.map((s) => s.value);
  return secure ? { plain, tls: { ...secure, ca: tls.cert } } : { plain };
}

async function main() {
  const cells = [...cliCells(), ...sdkCells(), ...secureCells()].filter((c) => !only || only.test(cellId(c)));
  const known = JSON.parse(readFileSync(join(HERE, 'known.json'), 'utf8'));
  rmSync(RESULTS, { recursive: true, force: true });
  mkdirSync(join(RESULTS, 'requests'), { recursive: true });
  const stacks = await startStacks(cells);
  const results = [];
  const started = Date.now();
  try {
    // CLI cells first: they are the slow ones, so the SDK cells fill the pool around them
    await pool(cells, jobs, async (cell) => {
      const r = await runCell(cell, stacks);
      const entry = { client: cell.client, scenario: cell.scenario, vendor: cell.vendor, protocol: cell.protocol ?? null, ...r };
      results.push(entry);
      if (cell.requests) writeFileSync(join(RESULTS, 'requests', `${cellId(cell).replaceAll('/', '--')}.json`), JSON.stringify(cell.requests, null, 1));
      if (r.na) process.stdout.write(`n/a  ${cellId(cell)}\n`);
      else process.stdout.write(`${r.ok ? 'ok  ' : 'FAIL'} ${cellId(cell)} (${r.ms} ms)${r.ok ? '' : `: ${r.reason}`}\n`);
    });
  } finally {
    await Promise.all(Object.values(stacks).map((s) => s.stop()));
    if (stacks.tls) rmSync(dirname(stacks.tls.ca), { recursive: true, force: true });
  }
  const order = new Map(cells.map((c, i) => [cellId(c), i]));
  results.sort((a, b) => order.get(cellId(a)) - order.get(cellId(b)));
  for (const r of results) r.known = known[cellId(r)] ?? null;
  writeFileSync(join(RESULTS, 'results.json'), JSON.stringify(results, null, 1));

  const unexpected = results.filter((r) => r.ok === false && !r.known);
  const fixed = results.filter((r) => r.ok && r.known);
  const passed = results.filter((r) => r.ok).length;
  const na = results.filter((r) => r.na).length;
  const failed = results.length - passed - na;
  console.log(`\ncompat: ${results.length} cells in ${Math.round((Date.now() - started) / 1000)} s; ${passed} pass, ${failed} fail (${failed - unexpected.length} known), ${na} not applicable`);
  for (const r of unexpected) console.log(`  unexpected failure: ${cellId(r)}: ${r.reason}`);
  for (const r of fixed) console.log(`  listed in known.json but passes now (remove it): ${cellId(r)}`);
  if (args.docs) {
    writeFileSync(resolve(args.docs), renderMatrix(results, { only: args.only }));
    console.log(`compat: wrote ${args.docs}`);
  }
  if (args.record) recordFixtures(cells, resolve(args.record));
  const bad = unexpected.length + fixed.length;
  // the closing line CI reads: cells that break the suite fail; known failures and n/a cells count as skipped
  console.log(`compat: ${passed} passed, ${bad} failed, ${results.length - passed - unexpected.length} skipped`);
  process.exit(bad === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
