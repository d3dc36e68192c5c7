// The official Node SDKs: openai (chat completions and Responses) and @anthropic-ai/sdk (messages), each
// over the features of the matrix (sdk.mjs FEATURES), on every vendor.
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { MASTER_KEY } from './stack.mjs';
import { VENDORS, SIGNED_REASONING, VISIBLE_REASONING, CellFailure, expect, excerpt } from './vendors.mjs';
import { PNG_BASE64, PNG_DATA_URL, WEATHER, TIME, CITY_SCHEMA, hello, TOOL_RESULT, ONE_IMAGE, LONG_SYSTEM } from './fixtures.mjs';

const openai = (ctx) => new OpenAI({ baseURL: `${ctx.gateway}/api/v1`, apiKey: MASTER_KEY, maxRetries: 0, timeout: 30_000 });
const anthropic = (ctx) => new Anthropic({ baseURL: `${ctx.gateway}/api`, authToken: MASTER_KEY, apiKey: null, maxRetries: 0, timeout: 30_000 });

const startsHello = (text, v, what = 'answer') => expect(String(text ?? '').startsWith(hello(v)), `${what} is ${JSON.stringify(excerpt(text, 120))}, expected "${hello(v)} …"`);
const saysToolResult = (text, what = 'answer after the tool result') => expect(String(text ?? '').startsWith(TOOL_RESULT), `${what} is ${JSON.stringify(excerpt(text, 120))}`);

/**
 * Sends one request per bad field; the SDK must surface each as its API error with status 400 whose `param` or
 * message names the field (docs/contract.md: bad input gets a 400 naming the field, on every path). Lists every
 * field that went otherwise.
 */
async function refusesEach(send, ApiError, cases) {
  const wrong = [];
  for (const { field, body, names } of cases) {
    try {
      await send(body);
      wrong.push(`${field}: accepted`);
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 400) {
        wrong.push(`${field}: ${e.status ? `HTTP ${e.status}` : e.name} ${excerpt(e.message, 100)}`);
        continue;
      }
      const param = e.param ?? e.error?.param ?? null;
      const message = String(e.error?.error?.message ?? e.error?.message ?? e.message);
      if (param !== field && !names.some((n) => message.toLowerCase().includes(n))) {
        wrong.push(`${field}: 400 without naming it (param ${param}): ${excerpt(message, 100)}`);
      }
    }
  }
  if (wrong.length) throw new CellFailure(wrong.join('; '));
}

// ---- chat completions -------------------------------------------------------------------------------------

const chatTool = (t) => ({ type: 'function', function: t });
const user = (content) => ({ role: 'user', content });

async function chatToolLoop(ctx, v, { prompt, tools, n, extra = {} }) {
  const c = openai(ctx);
  const messages = [user(prompt)];
  const r1 = await c.chat.completions.create({ model: VENDORS[v].model, messages, tools: tools.map(chatTool), ...extra });
  const msg = r1.choices[0].message;
  const calls = msg.tool_calls ?? [];
  expect(calls.length === n, `expected ${n} tool call(s), got ${calls.length}: ${excerpt(JSON.stringify(msg))}`);
  expect(new Set(calls.map((x) => x.id)).size === n, `tool call ids not distinct: ${calls.map((x) => x.id)}`);
  for (const call of calls) JSON.parse(call.function.arguments);
  messages.push(msg, ...calls.map((call) => ({ role: 'tool', tool_call_id: call.id, content: `result of ${call.function.name}` })));
  const r2 = await c.chat.completions.create({ model: VENDORS[v].model, messages, tools: tools.map(chatTool), ...extra });
  saysToolResult(r2.choices[0].message.content);
}

export const chat = {
  text: async (ctx, v) => {
    const r = await openai(ctx).chat.completions.create({ model: VENDORS[v].model, messages: [user('Say hello.')] });
    startsHello(r.choices[0].message.content, v);
    expect(r.choices[0].finish_reason === 'stop', `finish_reason ${r.choices[0].finish_reason}`);
  },
  stream: async (ctx, v) => {
    const s = await openai(ctx).chat.completions.create({ model: VENDORS[v].model, messages: [user('Say hello.')], stream: true });
    let text = '';
    let finish = null;
    for await (const chunk of s) {
      text += chunk.choices[0]?.delta?.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    startsHello(text, v, 'streamed text');
    expect(finish === 'stop', `finish_reason ${finish}`);
  },
  tools: (ctx, v) => chatToolLoop(ctx, v, { prompt: 'Weather in Paris?', tools: [WEATHER], n: 1 }),
  parallel_tools: (ctx, v) => chatToolLoop(ctx, v, { prompt: 'Weather and time? [[sim:parallel_tools=2]]', tools: [WEATHER, TIME], n: 2 }),
  thinking_multi_turn: (ctx, v) => chatToolLoop(ctx, v, { prompt: 'Think, then check the weather.', tools: [WEATHER], n: 1, extra: { reasoning_effort: 'low' } }),
  images: async (ctx, v) => {
    const r = await openai(ctx).chat.completions.create({ model: VENDORS[v].model, messages: [user([
      { type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: PNG_DATA_URL } }])] });
    expect(String(r.choices[0].message.content).endsWith(ONE_IMAGE), `answer ${JSON.stringify(excerpt(r.choices[0].message.content))} does not see the image`);
  },
  cache_control: async (ctx, v) => {
    const body = { model: VENDORS[v].model, messages: [
      { role: 'system', content: [{ type: 'text', text: LONG_SYSTEM, cache_control: { type: 'ephemeral' } }] }, user('Say hello.')] };
    await openai(ctx).chat.completions.create(body);
    const r = await openai(ctx).chat.completions.create({ ...body, messages: [...body.messages.slice(0, 1), user('Say hello again.')] });
    startsHello(r.choices[0].message.content, v);
    const cached = r.usage?.prompt_tokens_details?.cached_tokens ?? 0;
    expect(cached > 0, `the second call reports no cached tokens: ${excerpt(JSON.stringify(r.usage))}`);
  },
  structured_output: async (ctx, v) => {
    const r = await openai(ctx).chat.completions.create({ model: VENDORS[v].model, messages: [user('A city?')],
      response_format: { type: 'json_schema', json_schema: { name: 'city', schema: CITY_SCHEMA, strict: true } } });
    const o = JSON.parse(r.choices[0].message.content);
    expect(typeof o.city === 'string' && Number.isInteger(o.population), `not the schema's object: ${excerpt(r.choices[0].message.content)}`);
  },
  usage: async (ctx, v) => {
    const r = await openai(ctx).chat.completions.create({ model: VENDORS[v].model, messages: [user('Say hello.')] });
    const u = r.usage ?? {};
    expect(u.prompt_tokens > 0 && u.completion_tokens > 0 && u.total_tokens === u.prompt_tokens + u.completion_tokens, `usage ${excerpt(JSON.stringify(u))}`);
    const s = await openai(ctx).chat.completions.create({ model: VENDORS[v].model, messages: [user('Say hello.')], stream: true, stream_options: { include_usage: true } });
    let su = null;
    for await (const chunk of s) su = chunk.usage ?? su;
    expect(su?.prompt_tokens > 0 && su?.completion_tokens > 0, `stream usage ${excerpt(JSON.stringify(su))}`);
  },
  forced_tool: async (ctx, v) => {
    const r = await openai(ctx).chat.completions.create({ model: VENDORS[v].model, messages: [user('Weather in Paris?')],
      tools: [WEATHER, TIME].map(chatTool), tool_choice: { type: 'function', function: { name: WEATHER.name } } });
    const calls = r.choices[0].message.tool_calls ?? [];
    expect(calls.length === 1 && calls[0].function.name === WEATHER.name, `expected one ${WEATHER.name} call: ${excerpt(JSON.stringify(r.choices[0].message))}`);
  },
  reasoning: async (ctx, v) => {
    const r = await openai(ctx).chat.completions.create({ model: VENDORS[v].model, messages: [user('Think, then say hello.')], reasoning_effort: 'low' });
    const m = r.choices[0].message;
    startsHello(m.content, v);
    if (VISIBLE_REASONING.has(v)) expect(m.reasoning_content, `no reasoning_content (vendor ${v} shows its reasoning): ${excerpt(JSON.stringify(m))}`);
    else expect(r.usage?.completion_tokens_details?.reasoning_tokens > 0, `no reasoning tokens: ${excerpt(JSON.stringify(r.usage))}`);
  },
  invalid_field: (ctx, v) => refusesEach((extra) => openai(ctx).chat.completions.create({ model: VENDORS[v].model, messages: [user('Say hello.')], ...extra }),
    OpenAI.APIError, [
      { field: 'temperature', body: { temperature: 3 }, names: ['temperature'] },
      { field: 'top_logprobs', body: { logprobs: true, top_logprobs: 30 }, names: ['top_logprobs'] },
      { field: 'logit_bias', body: { logit_bias: { 1000: 200 } }, names: ['logit_bias'] },
    ]),
};

// ---- Responses --------------------------------------------------------------------------------------------

const respTool = (t) => ({ type: 'function', name: t.name, description: t.description, parameters: t.parameters, strict: true });

async function responsesToolLoop(ctx, v, { prompt, tools, n, extra = {} }) {
  const c = openai(ctx);
  const input = [{ role: 'user', content: prompt }];
  const r1 = await c.responses.create({ model: VENDORS[v].model, input, tools: tools.map(respTool), ...extra });
  const calls = r1.output.filter((i) => i.type === 'function_call');
  expect(calls.length === n, `expected ${n} function_call item(s), got ${excerpt(JSON.stringify(r1.output.map((i) => i.type)))}`);
  for (const call of calls) JSON.parse(call.arguments);
  if (extra.reasoning && SIGNED_REASONING.has(v)) {
    // a stateless caller (store: false, as Codex) can replay signed reasoning only from encrypted_content
    const rs = r1.output.find((i) => i.type === 'reasoning');
    expect(rs?.encrypted_content, `reasoning item without encrypted_content (vendor ${v} signs its reasoning): ${excerpt(JSON.stringify(rs ?? r1.output.map((i) => i.type)))}`);
  }
  input.push(...r1.output, ...calls.map((call) => ({ type: 'function_call_output', call_id: call.call_id, output: `result of ${call.name}` })));
  const r2 = await c.responses.create({ model: VENDORS[v].model, input, tools: tools.map(respTool), ...extra });
  saysToolResult(r2.output_text);
}

export const responses = {
  text: async (ctx, v) => {
    const r = await openai(ctx).responses.create({ model: VENDORS[v].model, input: 'Say hello.' });
    startsHello(r.output_text, v);
    expect(r.status === 'completed', `status ${r.status}`);
  },
  stream: async (ctx, v) => {
    const s = await openai(ctx).responses.create({ model: VENDORS[v].model, input: 'Say hello.', stream: true });
    let text = '';
    let done = null;
    for await (const e of s) {
      if (e.type === 'response.output_text.delta') text += e.delta;
      if (e.type === 'response.completed') done = e.response;
    }
    startsHello(text, v, 'streamed text');
    expect(done?.output_text === undefined || done.output_text === text || done.output?.length, 'no response.completed');
    const message = done?.output?.filter((i) => i.type === 'message') ?? [];
    expect(message.length === 1, `response.completed has ${message.length} message items: ${excerpt(JSON.stringify(done?.output?.map((i) => i.type)))}`);
  },
  tools: (ctx, v) => responsesToolLoop(ctx, v, { prompt: 'Weather in Paris?', tools: [WEATHER], n: 1 }),
  parallel_tools: (ctx, v) => responsesToolLoop(ctx, v, { prompt: 'Weather and time? [[sim:parallel_tools=2]]', tools: [WEATHER, TIME], n: 2 }),
  thinking_multi_turn: (ctx, v) => responsesToolLoop(ctx, v, { prompt: 'Think, then check the weather.', tools: [WEATHER], n: 1,
    extra: { reasoning: { effort: 'low' }, include: ['reasoning.encrypted_content'], store: false } }),
  images: async (ctx, v) => {
    const r = await openai(ctx).responses.create({ model: VENDORS[v].model, input: [{ role: 'user', content: [
      { type: 'input_text', text: 'What is this?' }, { type: 'input_image', image_url: PNG_DATA_URL, detail: 'auto' }] }] });
    expect(r.output_text.endsWith(ONE_IMAGE), `answer ${JSON.stringify(excerpt(r.output_text))} does not see the image`);
  },
  structured_output: async (ctx, v) => {
    const r = await openai(ctx).responses.create({ model: VENDORS[v].model, input: 'A city?',
      text: { format: { type: 'json_schema', name: 'city', schema: CITY_SCHEMA, strict: true } } });
    const o = JSON.parse(r.output_text);
    expect(typeof o.city === 'string' && Number.isInteger(o.population), `not the schema's object: ${excerpt(r.output_text)}`);
  },
  usage: async (ctx, v) => {
    const r = await openai(ctx).responses.create({ model: VENDORS[v].model, input: 'Say hello.' });
    const u = r.usage ?? {};
    expect(u.input_tokens > 0 && u.output_tokens > 0 && u.total_tokens === u.input_tokens + u.output_tokens, `usage ${excerpt(JSON.stringify(u))}`);
  },
  forced_tool: async (ctx, v) => {
    const r = await openai(ctx).responses.create({ model: VENDORS[v].model, input: 'Weather in Paris?',
      tools: [WEATHER, TIME].map(respTool), tool_choice: { type: 'function', name: WEATHER.name } });
    const calls = r.output.filter((i) => i.type === 'function_call');
    expect(calls.length === 1 && calls[0].name === WEATHER.name, `expected one ${WEATHER.name} call: ${excerpt(JSON.stringify(r.output))}`);
  },
  reasoning: async (ctx, v) => {
    const r = await openai(ctx).responses.create({ model: VENDORS[v].model, input: 'Think, then say hello.', reasoning: { effort: 'low', summary: 'auto' } });
    startsHello(r.output_text, v);
    const summary = r.output.filter((i) => i.type === 'reasoning').flatMap((i) => i.summary ?? []).map((s) => s.text).join('');
    expect(summary, `no reasoning summary: ${excerpt(JSON.stringify(r.output))}`);
  },
  invalid_field: (ctx, v) => refusesEach((extra) => openai(ctx).responses.create({ model: VENDORS[v].model, input: 'Say hello.', ...extra }),
    OpenAI.APIError, [
      { field: 'temperature', body: { temperature: 3 }, names: ['temperature'] },
      { field: 'reasoning.effort', body: { reasoning: { effort: 'extreme' } }, names: ['reasoning.effort', 'effort'] },
      { field: 'text.format.type', body: { text: { format: { type: 'yaml' } } }, names: ['text.format', 'format'] },
    ]),
};

// ---- messages ---------------------------------------------------------------------------------------------

const msgTool = (t) => ({ name: t.name, description: t.description, input_schema: t.parameters });
const textOf = (m) => m.content.filter((b) => b.type === 'text').map((b) => b.text).join('');

async function messagesToolLoop(ctx, v, { prompt, tools, n, extra = {} }) {
  const c = anthropic(ctx);
  const messages = [user(prompt)];
  const base = { model: VENDORS[v].model, max_tokens: 4096, tools: tools.map(msgTool), ...extra };
  const r1 = await c.messages.create({ ...base, messages });
  const calls = r1.content.filter((b) => b.type === 'tool_use');
  expect(calls.length === n, `expected ${n} tool_use block(s), got ${excerpt(JSON.stringify(r1.content.map((b) => b.type)))}`);
  if (extra.thinking && VISIBLE_REASONING.has(v)) {
    expect(r1.content.some((b) => b.type === 'thinking'), `no thinking block: ${excerpt(JSON.stringify(r1.content.map((b) => b.type)))}`);
  }
  messages.push({ role: 'assistant', content: r1.content },
    { role: 'user', content: calls.map((b) => ({ type: 'tool_result', tool_use_id: b.id, content: `result of ${b.name}` })) });
  const r2 = await c.messages.create({ ...base, messages });
  saysToolResult(textOf(r2));
}

export const messages = {
  text: async (ctx, v) => {
    const r = await anthropic(ctx).messages.create({ model: VENDORS[v].model, max_tokens: 1024, messages: [user('Say hello.')] });
    startsHello(textOf(r), v);
    const texts = r.content.filter((b) => b.type === 'text');
    expect(texts.length === 1, `${texts.length} text blocks: ${excerpt(JSON.stringify(r.content.map((b) => b.type)))}`);
    expect(r.content.at(-1).type === 'text', `the answer ends with a ${r.content.at(-1).type} block, after the text`);
    expect(r.stop_reason === 'end_turn', `stop_reason ${r.stop_reason}`);
  },
  stream: async (ctx, v) => {
    const s = anthropic(ctx).messages.stream({ model: VENDORS[v].model, max_tokens: 1024, messages: [user('Say hello.')] });
    const m = await s.finalMessage();
    startsHello(textOf(m), v, 'streamed text');
    const texts = m.content.filter((b) => b.type === 'text');
    expect(texts.length === 1, `${texts.length} text blocks: ${excerpt(JSON.stringify(m.content.map((b) => b.type)))}`);
    expect(m.content.at(-1).type === 'text', `the stream ends with a ${m.content.at(-1).type} block, after the text`);
  },
  tools: (ctx, v) => messagesToolLoop(ctx, v, { prompt: 'Weather in Paris?', tools: [WEATHER], n: 1 }),
  parallel_tools: (ctx, v) => messagesToolLoop(ctx, v, { prompt: 'Weather and time? [[sim:parallel_tools=2]]', tools: [WEATHER, TIME], n: 2 }),
  thinking_multi_turn: (ctx, v) => messagesToolLoop(ctx, v, { prompt: 'Think, then check the weather.', tools: [WEATHER], n: 1,
    extra: { thinking: { type: 'adaptive' }, output_config: { effort: 'low' } } }),
  images: async (ctx, v) => {
    const r = await anthropic(ctx).messages.create({ model: VENDORS[v].model, max_tokens: 1024, messages: [user([
      { type: 'text', text: 'What is this?' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } }])] });
    expect(textOf(r).endsWith(ONE_IMAGE), `answer ${JSON.stringify(excerpt(textOf(r)))} does not see the image`);
  },
  cache_control: async (ctx, v) => {
    const body = { model: VENDORS[v].model, max_tokens: 1024,
      system: [{ type: 'text', text: LONG_SYSTEM, cache_control: { type: 'ephemeral' } }] };
    await anthropic(ctx).messages.create({ ...body, messages: [user('Say hello.')] });
    const r = await anthropic(ctx).messages.create({ ...body, messages: [user('Say hello again.')] });
    startsHello(textOf(r), v);
    expect((r.usage.cache_read_input_tokens ?? 0) > 0, `the second call reports no cache read: ${excerpt(JSON.stringify(r.usage))}`);
  },
  structured_output: async (ctx, v) => {
    const r = await anthropic(ctx).messages.create({ model: VENDORS[v].model, max_tokens: 1024, messages: [user('A city?')],
      output_config: { format: { type: 'json_schema', schema: CITY_SCHEMA } } });
    const o = JSON.parse(textOf(r));
    expect(typeof o.city === 'string' && Number.isInteger(o.population), `not the schema's object: ${excerpt(textOf(r))}`);
  },
  usage: async (ctx, v) => {
    const r = await anthropic(ctx).messages.create({ model: VENDORS[v].model, max_tokens: 1024, messages: [user('Say hello.')] });
    expect(r.usage.input_tokens > 0 && r.usage.output_tokens > 0, `usage ${excerpt(JSON.stringify(r.usage))}`);
    // LangChain and others read input tokens from message_start only
    const s = await anthropic(ctx).messages.create({ model: VENDORS[v].model, max_tokens: 1024, messages: [user('Say hello.')], stream: true });
    let start = null;
    let final = null;
    for await (const e of s) {
      if (e.type === 'message_start') start = e.message.usage;
      if (e.type === 'message_delta') final = e.usage;
    }
    expect(start?.input_tokens > 0, `message_start.usage.input_tokens is ${start?.input_tokens} (message_delta says ${final?.input_tokens})`);
  },
  // no thinking asked for: vendor A's default thinking must not turn a forced tool into a 400
  forced_tool: async (ctx, v) => {
    const r = await anthropic(ctx).messages.create({ model: VENDORS[v].model, max_tokens: 1024, messages: [user('Weather in Paris?')],
      tools: [WEATHER, TIME].map(msgTool), tool_choice: { type: 'tool', name: WEATHER.name } });
    const calls = r.content.filter((b) => b.type === 'tool_use');
    expect(calls.length === 1 && calls[0].name === WEATHER.name, `expected one ${WEATHER.name} tool_use: ${excerpt(JSON.stringify(r.content))}`);
  },
  reasoning: async (ctx, v) => {
    const r = await anthropic(ctx).messages.create({ model: VENDORS[v].model, max_tokens: 4096, messages: [user('Think, then say hello.')],
      thinking: { type: 'adaptive' }, output_config: { effort: 'low' } });
    startsHello(textOf(r), v);
    if (VISIBLE_REASONING.has(v)) {
      const thinking = r.content.filter((b) => b.type === 'thinking').map((b) => b.thinking).join('');
      expect(thinking, `no thinking text (vendor ${v} shows its reasoning): ${excerpt(JSON.stringify(r.content))}`);
    }
  },
  invalid_field: (ctx, v) => refusesEach((extra) => anthropic(ctx).messages.create({ model: VENDORS[v].model, max_tokens: 1024, messages: [user('Say hello.')], ...extra }),
    Anthropic.APIError, [
      { field: 'cache_control', body: { system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral', ttl: '2h' } }] }, names: ['cache_control', 'ttl'] },
      { field: 'output_config.effort', body: { thinking: { type: 'adaptive' }, output_config: { effort: 'extreme' } }, names: ['output_config.effort', 'effort'] },
    ]),
};
