// The rows of the matrix: the four vendors and the model the suite calls on each (docs/contract.md §2.1), then
// vendor A's models that the demo serves through the simulated clouds (docs/clouds.md, "In demo mode"). Each with
// the id the upstream knows it by, which the simulator echoes in its deterministic answer ("Hello from <upstream>.
// You said: ..."), and the vendor whose model it is (`family`).
export const VENDORS = {
  A: { model: 'platform/vendorA-sonnet-5', upstream: 'vendorA-sonnet-5', name: 'A (Anthropic)', family: 'A' },
  B: { model: 'platform/vendorB-5.5', upstream: 'vendorB-5.5', name: 'B (OpenAI)', family: 'B' },
  C: { model: 'vendorC-pro-3', upstream: 'vendorC-pro-3', name: 'C (Gemini)', family: 'C' },
  D: { model: 'vendorD-plus-latest', upstream: 'vendorD-plus-latest', name: 'D (Qwen)', family: 'D' },
  'A-bedrock': { model: 'platform/vendorA-opus-4.8', upstream: 'us.anthropic.claude-opus-4-8-v1:0', name: 'A on AWS Bedrock (InvokeModel)', family: 'A' },
  'A-vertex': { model: 'platform/vendorA-sonnet-4.8', upstream: 'claude-sonnet-4-8@20260101', name: 'A on Google Vertex AI (rawPredict)', family: 'A' },
};

/** The vendors' own APIs: every client runs on these. */
export const VENDOR_IDS = ['A', 'B', 'C', 'D'];
/** Vendor A's models on the clouds: the CLIs and the official SDKs run on these (CLOUD_CLIENTS). */
export const CLOUD_IDS = ['A-bedrock', 'A-vertex'];
export const ROW_IDS = [...VENDOR_IDS, ...CLOUD_IDS];
export const CLOUD_CLIENTS = new Set(['claude-code', 'codex', 'openai-chat', 'openai-responses', 'anthropic-sdk']);

/**
 * The realtime model of each vendor (`kind: realtime` in the catalogue), or null: vendor B's is the only one, so a
 * realtime cell on another vendor is not applicable, with this reason.
 */
export const REALTIME_MODELS = { A: null, B: 'platform/vendorB-realtime', C: null, D: null };
export const NO_REALTIME = 'the catalogue\'s realtime model is on vendor B only: Anthropic has no realtime API, and Gemini Live and '
  + 'Qwen-Omni realtime are not translated ([endpoints.md, Realtime](endpoints.md#realtime--get-realtimemodelid-websocket))';

const rowsOf = (families) => ROW_IDS.filter((v) => families.includes(VENDORS[v].family));
/** Rows whose reasoning comes back signed (A: thinking signatures, C: thought signatures). */
export const SIGNED_REASONING = new Set(rowsOf(['A', 'C']));
/** Rows that show their reasoning text (B reasons without showing it, and reports reasoning tokens). */
export const VISIBLE_REASONING = new Set(rowsOf(['A', 'C', 'D']));

/** A failed expectation: the cell is ❌ with this reason. */
export class CellFailure extends Error {}

export function expect(cond, reason) {
  if (!cond) throw new CellFailure(reason);
}

/** A short, one-line excerpt of a client's output or a body, for reasons. */
export function excerpt(s, max = 240) {
  const t = String(s ?? '').replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

/** Why a cell failed, in one line: an SDK's HTTP error with its status and message, or the expectation. */
export function reasonOf(e) {
  if (e instanceof CellFailure) return e.message;
  if (e?.status) return `HTTP ${e.status}: ${excerpt(e.error?.error?.message ?? e.error?.message ?? e.message, 300)}`;
  if (e?.statusCode) return `HTTP ${e.statusCode}: ${excerpt(e.responseBody ?? e.message, 300)}`;
  if (e?.lastError) return reasonOf(e.lastError);
  // a connection error's message is generic ("Connection error.", "fetch failed"): its innermost cause says why
  let root = e;
  while (root?.cause instanceof Error) root = root.cause;
  const cause = root !== e && root.message !== e.message ? ` (${root.message})` : '';
  return excerpt(`${e?.name ?? 'Error'}: ${e?.message ?? e}${cause}`, 300);
}
