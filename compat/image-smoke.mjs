// The official SDKs' first calls against a running gateway, for scripts/image-test.sh (the container image run as a
// container runtime would): a chat completion and a streamed one with the openai SDK on vendor B's model, a message
// with @anthropic-ai/sdk on vendor A's, each answered by the vendor simulator behind the gateway.
//   node compat/image-smoke.mjs GATEWAY_URL PLATFORM_KEY
// Prints one line per call; exits 1 on the first that fails.
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { VENDORS } from './lib/vendors.mjs';
import { hello } from './lib/fixtures.mjs';

const [url, key] = process.argv.slice(2);
if (!url || !key) {
  console.error('usage: node compat/image-smoke.mjs GATEWAY_URL PLATFORM_KEY');
  process.exit(2);
}
const openai = new OpenAI({ baseURL: `${url}/api/v1`, apiKey: key, maxRetries: 0, timeout: 30_000 });
const anthropic = new Anthropic({ baseURL: `${url}/api`, authToken: key, apiKey: null, maxRetries: 0, timeout: 30_000 });
const user = (content) => ({ role: 'user', content });

function expectHello(what, text, vendor) {
  if (!String(text ?? '').startsWith(hello(vendor))) throw new Error(`${what}: ${JSON.stringify(text)}, expected "${hello(vendor)} …"`);
  console.log(`image-smoke: ${what}: ${JSON.stringify(text)}`);
}

const calls = {
  'openai chat completion': async () => {
    const r = await openai.chat.completions.create({ model: VENDORS.B.model, messages: [user('Say hello.')] });
    expectHello('openai chat completion', r.choices[0].message.content, 'B');
  },
  'openai streamed chat completion': async () => {
    const s = await openai.chat.completions.create({ model: VENDORS.B.model, messages: [user('Say hello.')], stream: true });
    let text = '';
    for await (const chunk of s) text += chunk.choices[0]?.delta?.content ?? '';
    expectHello('openai streamed chat completion', text, 'B');
  },
  'anthropic message': async () => {
    const m = await anthropic.messages.create({ model: VENDORS.A.model, max_tokens: 64, messages: [user('Say hello.')] });
    expectHello('anthropic message', m.content.find((b) => b.type === 'text')?.text, 'A');
  },
};

for (const [name, call] of Object.entries(calls)) {
  try {
    await call();
  } catch (e) {
    console.error(`image-smoke: ${name} failed: ${e.status ? `HTTP ${e.status} ` : ''}${e.message}`);
    process.exit(1);
  }
}
