// The system under test: the built gateway jar's demo mode (the real gateway in front of the vendor simulator,
// both on loopback, free ports), started in a temporary directory so its database and files stay there.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const MASTER_KEY = 'pk-compat-suite';

/**
 * Starts `java -jar gateway.jar demo`; resolves once it printed its two URLs. With `tls` ({cert, key}: PEM
 * files) the gateway serves TLS on its port (docs/configuration.md, "TLS") and its URL is `https://`.
 */
export async function startStack(jar, javaHome, { tls = null, timeoutMs = 90_000 } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'mg-compat-gw-'));
  const java = javaHome ? join(javaHome, 'bin', 'java') : 'java';
  const child = spawn(java, ['-XX:+UseZGC', '--enable-native-access=ALL-UNNAMED', '-Xmx1g', '-jar', jar, 'demo'], {
    cwd: dir,
    // only what the demo reads: a free port and the suite's key; no vendor key or URL of the caller's leaks in
    env: { PATH: process.env.PATH, HOME: dir, GATEWAY_PORT: '0', GATEWAY_MASTER_KEY: MASTER_KEY, GATEWAY_ACCESS_LOG: 'OFF',
      ...(tls ? { GATEWAY_TLS_CERT_FILE: tls.cert, GATEWAY_TLS_KEY_FILE: tls.key } : {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => { err = (err + d).slice(-20_000); });
  const urls = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gateway did not start in ${timeoutMs} ms:\n${err}`)), timeoutMs);
    child.stdout.on('data', (d) => {
      out += d;
      const m = /the gateway on (https?:\/\/127\.0\.0\.1:\d+)\/api\/v1, vendors simulated on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) { clearTimeout(timer); resolve({ gateway: m[1], sim: m[2] }); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`gateway exited with ${code}:\n${err}`)); });
  });
  child.removeAllListeners('exit');
  return {
    ...urls,
    dir,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', resolve);
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    }),
  };
}

/** The simulator's request log (what each vendor received), for assertions on what the gateway sent upstream. */
export async function simRequests(simUrl) {
  const r = await fetch(`${simUrl}/_sim/requests`);
  return r.json();
}

/**
 * A loopback proxy in front of the gateway that records every request a client sends (method, path, the
 * headers that shape the call, the body) and the response status: the fixtures of what real CLIs send.
 */
export async function recordingProxy(target) {
  const exchanges = [];
  const t = new URL(target);
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const entry = { method: req.method, path: req.url, headers: keptHeaders(req.headers), body: body.toString('utf8') };
      exchanges.push(entry);
      const up = http.request({ host: t.hostname, port: t.port, method: req.method, path: req.url, headers: req.headers }, (ur) => {
        entry.status = ur.statusCode;
        res.writeHead(ur.statusCode, ur.headers);
        const answer = [];
        ur.on('data', (c) => { answer.push(c); res.write(c); });
        ur.on('end', () => { entry.answer = Buffer.concat(answer).toString('utf8'); res.end(); });
      });
      up.on('error', (e) => { entry.status = 502; res.writeHead(502); res.end(String(e)); });
      up.end(body);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    exchanges,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(resolve); }),
  };
}

const KEPT = ['content-type', 'accept', 'anthropic-version', 'anthropic-beta', 'user-agent', 'x-stainless-lang', 'openai-beta', 'originator', 'version'];

function keptHeaders(h) {
  const out = {};
  for (const k of KEPT) if (h[k] !== undefined) out[k] = h[k];
  return out;
}
