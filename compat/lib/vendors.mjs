// The four vendors and the model the suite calls on each (docs/contract.md §2.1), with the vendor's own id,
// which the simulator echoes in its deterministic answer ("Hello from <upstream>. You said: ...").
export const VENDORS = {
  A: { model: 'platform/vendorA-sonnet-5', upstream: 'vendorA-sonnet-5', name: 'A (Anthropic)' },
  B: { model: 'platform/vendorB-5.5', upstream: 'vendorB-5.5', name: 'B (OpenAI)' },
  C: { model: 'vendorC-pro-3', upstream: 'vendorC-pro-3', name: 'C (Gemini)' },
  D: { model: 'vendorD-plus-latest', upstream: 'vendorD-plus-latest', name: 'D (Qwen)' },
};

export const VENDOR_IDS = Object.keys(VENDORS);

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
