// --record: the requests Claude Code and Codex sent in a run become fixtures for the gateway's Java tests
// (fixtures/clients/, fixtures/MANIFEST.md), which replay them to every vendor.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** cell id → [fixture file, index of the request in that cell]: one of each shape a CLI sends. */
const PICKS = {
  'claude-code/plain/A': [['claude-code', 'plain.json', 0]],
  'claude-code/bash_tool/A': [['claude-code', 'bash-tool-call.json', 0], ['claude-code', 'bash-tool-result.json', 1]],
  'claude-code/continue/A': [['claude-code', 'continue-second-turn.json', 1]],
  'codex/plain/B': [['codex', 'plain.json', 0]],
  'codex/shell_tool/B': [['codex', 'shell-tool-call.json', 0], ['codex', 'shell-tool-result.json', 1]],
};

export function recordFixtures(cells, dir) {
  for (const cell of cells) {
    const picks = PICKS[`${cell.client}/${cell.scenario}/${cell.vendor}`];
    if (!picks || !cell.requests) continue;
    for (const [client, file, index] of picks) {
      const ex = cell.requests.filter((e) => e.method === 'POST')[index];
      if (!ex) continue;
      mkdirSync(join(dir, client), { recursive: true });
      const fixture = { method: ex.method, path: ex.path, headers: ex.headers, body: JSON.parse(ex.body) };
      writeFileSync(join(dir, client, file), `${JSON.stringify(fixture, null, 1)}\n`);
      console.log(`compat: recorded ${client}/${file}`);
    }
  }
}
