// The four vendors and the model the suite calls on each (docs/contract.md §2.1), with the vendor's own id,
// which the simulator echoes in its deterministic answer ("Hello from <upstream>. You said: ...").
export const VENDORS = {
  A: { model: 'platform/vendorA-sonnet-5', upstream: 'vendorA-sonnet-5', name: 'A (Anthropic)' },
  B: { model: 'platform/vendorB-5.5', upstream: 'vendorB-5.5', name: 'B (OpenAI)' },
  C: { model: 'vendorC-pro-3', upstream: 'vendorC-pro-3', name: 'C (Gemini)' },
  D: { model: 'vendorD-plus-latest', upstream: 'vendorD-plus-latest', name: 'D (Qwen)' },
};

export const VENDOR_IDS = Object.keys(VENDORS);

/**
 * The realtime model of each vendor (`kind: realtime` in the catalogue), or null: vendor B's is the only one, so a
 * realtime cell on another vendor is not applicable, with this reason.
 */
export const REALTIME_MODELS = { A: null, B: 'platform/vendorB-realtime', C: null, D: null };
export const NO_REALTIME = 'the catalogue\'s realtime model is on vendor B only: Anthropic has no realtime API, and Gemini Live and '
  + 'Qwen-Omni realtime are not translated ([endpoints.md, Realtime](endpoints.md#realtime--get-realtimemodelid-websocket))';

/** Vendors whose reasoning comes back signed (A: thinking signatures, C: thought signatures). */
export const SIGNED_REASONING = new Set(['A', 'C']);
/** Vendors that show their reasoning text (B reasons without showing it, and reports reasoning tokens). */
export const VISIBLE_REASONING = new Set(['A', 'C', 'D']);

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
