// The SDK cells: each client speaks one inbound protocol; each runs the matrix's features on every vendor.
import { VENDOR_IDS, ROW_IDS, CLOUD_CLIENTS } from './vendors.mjs';
import * as official from './official.mjs';
import * as fw from './frameworks.mjs';

export const FEATURES = ['text', 'stream', 'tools', 'parallel_tools', 'thinking_multi_turn', 'images', 'cache_control', 'structured_output', 'usage',
  'forced_tool', 'reasoning', 'invalid_field'];

/** client → [inbound protocol, cells by feature]. A feature a client cannot express has no cell. */
export const SDK_CLIENTS = {
  'openai-chat': ['chat', official.chat],
  'openai-responses': ['responses', official.responses],
  'anthropic-sdk': ['messages', official.messages],
  'ai-sdk-openai': ['responses', fw.aiSdkOpenAI],
  'ai-sdk-anthropic': ['messages', fw.aiSdkAnthropic],
  'ai-sdk-openai-compatible': ['chat', fw.aiSdkCompatible],
  'langchain-openai': ['chat', fw.langchainOpenAI],
  'langchain-anthropic': ['messages', fw.langchainAnthropic],
};

export function sdkCells() {
  const cells = [];
  for (const [client, [protocol, features]] of Object.entries(SDK_CLIENTS)) {
    for (const scenario of FEATURES) {
      if (!features[scenario]) continue;
      for (const vendor of CLOUD_CLIENTS.has(client) ? ROW_IDS : VENDOR_IDS) cells.push({ kind: 'sdk', client, scenario, vendor, protocol, run: (ctx) => features[scenario](ctx, vendor) });
    }
  }
  return cells;
}
