// Agent frameworks: the Vercel AI SDK (its OpenAI, Anthropic and OpenAI-compatible providers) and LangChain JS
// (ChatOpenAI, ChatAnthropic), as their users call them, on every vendor.
import { generateText, streamText, tool, jsonSchema, stepCountIs, Output } from 'ai';
import { createOpenAI } from '@ai-sdk/openai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { ChatOpenAI } from '@langchain/openai';
import { ChatAnthropic } from '@langchain/anthropic';
import { HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { MASTER_KEY } from './stack.mjs';
import { VENDORS, VISIBLE_REASONING, expect, excerpt } from './vendors.mjs';
import { PNG_BASE64, PNG_DATA_URL, WEATHER, TIME, CITY_SCHEMA, hello, TOOL_RESULT, ONE_IMAGE, LONG_SYSTEM } from './fixtures.mjs';

const startsHello = (text, v, what = 'answer') => expect(String(text ?? '').startsWith(hello(v)), `${what} is ${JSON.stringify(excerpt(text, 120))}, expected "${hello(v)} …"`);
const isCity = (o, raw) => expect(o && typeof o.city === 'string' && Number.isInteger(o.population), `not the schema's object: ${excerpt(JSON.stringify(raw ?? o))}`);

// the SDK's console warnings about unknown model ids (it knows only vendor ids) would drown the report
globalThis.AI_SDK_LOG_WARNINGS = false;

// ---- Vercel AI SDK ----------------------------------------------------------------------------------------

const aiTools = (list) => Object.fromEntries(list.map((t) => [t.name, tool({
  description: t.description, inputSchema: jsonSchema(t.parameters), execute: async () => `result of ${t.name}`,
})]));

function aiSdk(makeModel, { thinking, reasoning = thinking, cache, toolLoop }) {
  const loop = async (ctx, v, prompt, tools, n, providerOptions = toolLoop) => {
    const r = await generateText({ model: makeModel(ctx, v), prompt, tools: aiTools(tools), stopWhen: stepCountIs(3), maxRetries: 0, providerOptions });
    const calls = r.steps[0]?.toolCalls ?? [];
    expect(calls.length === n, `expected ${n} tool call(s) in step 1, got ${calls.length}; finish ${r.steps[0]?.finishReason}`);
    expect(r.text.startsWith(TOOL_RESULT), `answer after the tool results is ${JSON.stringify(excerpt(r.text, 120))}`);
  };
  const cells = {
    text: async (ctx, v) => startsHello((await generateText({ model: makeModel(ctx, v), prompt: 'Say hello.', maxRetries: 0 })).text, v),
    stream: async (ctx, v) => {
      let error = null;
      const r = streamText({ model: makeModel(ctx, v), prompt: 'Say hello.', maxRetries: 0, onError: ({ error: e }) => { error = e; } });
      const text = await r.text;
      expect(!error, `stream error: ${excerpt(error?.message ?? error)}`);
      startsHello(text, v, 'streamed text');
    },
    tools: (ctx, v) => loop(ctx, v, 'Weather in Paris?', [WEATHER], 1),
    parallel_tools: (ctx, v) => loop(ctx, v, 'Weather and time? [[sim:parallel_tools=2]]', [WEATHER, TIME], 2),
    thinking_multi_turn: (ctx, v) => loop(ctx, v, 'Think, then check the weather.', [WEATHER], 1, thinking),
    images: async (ctx, v) => {
      const r = await generateText({ model: makeModel(ctx, v), maxRetries: 0, messages: [{ role: 'user', content: [
        { type: 'text', text: 'What is this?' }, { type: 'image', image: Buffer.from(PNG_BASE64, 'base64'), mediaType: 'image/png' }] }] });
      expect(r.text.endsWith(ONE_IMAGE), `answer ${JSON.stringify(excerpt(r.text))} does not see the image`);
    },
    structured_output: async (ctx, v) => {
      const r = await generateText({ model: makeModel(ctx, v), prompt: 'A city?', maxRetries: 0, output: Output.object({ schema: jsonSchema(CITY_SCHEMA) }) });
      isCity(r.output, r.text);
    },
    usage: async (ctx, v) => {
      const r = await generateText({ model: makeModel(ctx, v), prompt: 'Say hello.', maxRetries: 0 });
      expect(r.usage.inputTokens > 0 && r.usage.outputTokens > 0, `usage ${excerpt(JSON.stringify(r.usage))}`);
      const s = streamText({ model: makeModel(ctx, v), prompt: 'Say hello.', maxRetries: 0 });
      const su = await s.usage;
      expect(su.inputTokens > 0 && su.outputTokens > 0, `stream usage ${excerpt(JSON.stringify(su))}`);
    },
    // the AI SDK's tool-forcing path (toolChoice naming a tool), with no reasoning asked for
    forced_tool: async (ctx, v) => {
      const r = await generateText({ model: makeModel(ctx, v), prompt: 'Weather in Paris?', tools: aiTools([WEATHER, TIME]),
        toolChoice: { type: 'tool', toolName: WEATHER.name }, stopWhen: stepCountIs(1), maxRetries: 0, providerOptions: toolLoop });
      const calls = r.steps[0]?.toolCalls ?? [];
      expect(calls.length === 1 && calls[0].toolName === WEATHER.name, `expected one ${WEATHER.name} call, got ${excerpt(JSON.stringify(calls.map((c) => c.toolName)))}; finish ${r.finishReason}`);
    },
    reasoning: async (ctx, v) => {
      const r = await generateText({ model: makeModel(ctx, v), prompt: 'Think, then say hello.', maxRetries: 0, providerOptions: reasoning });
      startsHello(r.text, v);
      if (VISIBLE_REASONING.has(v)) expect(r.reasoningText, `no reasoning text (vendor ${v} shows its reasoning); usage ${excerpt(JSON.stringify(r.usage))}`);
      else expect((r.usage.outputTokenDetails?.reasoningTokens ?? r.usage.reasoningTokens ?? 0) > 0, `no reasoning tokens: ${excerpt(JSON.stringify(r.usage))}`);
    },
  };
  if (cache) {
    cells.cache_control = async (ctx, v) => {
      const call = (prompt) => generateText({ model: makeModel(ctx, v), maxRetries: 0,
        instructions: { role: 'system', content: LONG_SYSTEM, providerOptions: cache }, prompt });
      await call('Say hello.');
      const r = await call('Say hello again.');
      startsHello(r.text, v);
      expect((r.usage.inputTokenDetails?.cacheReadTokens ?? r.usage.cachedInputTokens ?? 0) > 0, `the second call reports no cache read: ${excerpt(JSON.stringify(r.usage))}`);
    };
  }
  return cells;
}

// store on (the Responses default): the provider then refers to earlier output items by item_reference
export const aiSdkOpenAI = aiSdk((ctx, v) => createOpenAI({ baseURL: `${ctx.gateway}/api/v1`, apiKey: MASTER_KEY })(VENDORS[v].model),
  // forceReasoning: the provider sends reasoning options only for model ids it knows to reason, or when told so
  { thinking: { openai: { reasoningEffort: 'low', store: true } }, reasoning: { openai: { reasoningEffort: 'low', reasoningSummary: 'auto', forceReasoning: true } },
    toolLoop: { openai: { store: true } } });
export const aiSdkAnthropic = aiSdk((ctx, v) => createAnthropic({ baseURL: `${ctx.gateway}/api/v1`, authToken: MASTER_KEY })(VENDORS[v].model),
  { thinking: { anthropic: { thinking: { type: 'adaptive' } } }, cache: { anthropic: { cacheControl: { type: 'ephemeral' } } } });
export const aiSdkCompatible = aiSdk((ctx, v) => createOpenAICompatible({ name: 'gateway', baseURL: `${ctx.gateway}/api/v1`, apiKey: MASTER_KEY, includeUsage: true, supportsStructuredOutputs: true })(VENDORS[v].model),
  { thinking: { gateway: { reasoningEffort: 'low' } } });

// ---- LangChain --------------------------------------------------------------------------------------------

const lcTool = (t) => ({ type: 'function', function: t });

function langchain(make, { thinking, reasoning = thinking, cacheSystem, reasoningOf }) {
  const loop = async (ctx, v, prompt, tools, n, options = {}) => {
    const model = make(ctx, v, options).bindTools(tools.map(lcTool));
    const messages = [new HumanMessage(prompt)];
    const ai = await model.invoke(messages);
    expect(ai.tool_calls?.length === n, `expected ${n} tool call(s), got ${ai.tool_calls?.length}: ${excerpt(JSON.stringify(ai.content))}`);
    messages.push(ai, ...ai.tool_calls.map((c) => new ToolMessage({ tool_call_id: c.id, content: `result of ${c.name}` })));
    const r2 = await model.invoke(messages);
    expect(r2.text.startsWith(TOOL_RESULT), `answer after the tool results is ${JSON.stringify(excerpt(r2.text, 120))}`);
  };
  const cells = {
    text: async (ctx, v) => startsHello((await make(ctx, v).invoke('Say hello.')).text, v),
    stream: async (ctx, v) => {
      let text = '';
      for await (const chunk of await make(ctx, v).stream('Say hello.')) text += chunk.text;
      startsHello(text, v, 'streamed text');
    },
    tools: (ctx, v) => loop(ctx, v, 'Weather in Paris?', [WEATHER], 1),
    parallel_tools: (ctx, v) => loop(ctx, v, 'Weather and time? [[sim:parallel_tools=2]]', [WEATHER, TIME], 2),
    thinking_multi_turn: (ctx, v) => loop(ctx, v, 'Think, then check the weather.', [WEATHER], 1, thinking),
    images: async (ctx, v) => {
      const r = await make(ctx, v).invoke([new HumanMessage({ content: [
        { type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: PNG_DATA_URL } }] })]);
      expect(r.text.endsWith(ONE_IMAGE), `answer ${JSON.stringify(excerpt(r.text))} does not see the image`);
    },
    structured_output: async (ctx, v) => {
      const o = await make(ctx, v).withStructuredOutput({ title: 'city', ...CITY_SCHEMA }).invoke('A city?');
      isCity(o);
    },
    usage: async (ctx, v) => {
      const r = await make(ctx, v).invoke('Say hello.');
      const u = r.usage_metadata ?? {};
      expect(u.input_tokens > 0 && u.output_tokens > 0, `usage_metadata ${excerpt(JSON.stringify(u))}`);
      let su = null;
      for await (const chunk of await make(ctx, v, { streamUsage: true }).stream('Say hello.')) {
        if (chunk.usage_metadata) su = { input_tokens: (su?.input_tokens ?? 0) + chunk.usage_metadata.input_tokens, output_tokens: (su?.output_tokens ?? 0) + chunk.usage_metadata.output_tokens };
      }
      expect(su?.input_tokens > 0 && su?.output_tokens > 0, `stream usage_metadata ${excerpt(JSON.stringify(su))}`);
    },
    // withStructuredOutput by function calling forces the schema's tool; the caller asked for no reasoning
    forced_tool: async (ctx, v) => {
      const o = await make(ctx, v).withStructuredOutput({ title: 'city', ...CITY_SCHEMA }, { method: 'functionCalling' }).invoke('A city?');
      isCity(o);
    },
    reasoning: async (ctx, v) => {
      const r = await make(ctx, v, reasoning).invoke('Think, then say hello.');
      startsHello(r.text, v);
      // B shows no reasoning; the messages protocol has no reasoning-token count either, so only the answer counts there
      if (VISIBLE_REASONING.has(v)) expect(reasoningOf(r), `no reasoning (vendor ${v} shows its reasoning): ${excerpt(JSON.stringify({ content: r.content, additional_kwargs: r.additional_kwargs }))}`);
      else if (r.usage_metadata?.output_token_details) expect(r.usage_metadata.output_token_details.reasoning > 0, `no reasoning tokens: ${excerpt(JSON.stringify(r.usage_metadata))}`);
    },
  };
  if (cacheSystem) {
    cells.cache_control = async (ctx, v) => {
      const system = new SystemMessage({ content: [{ type: 'text', text: LONG_SYSTEM, cache_control: { type: 'ephemeral' } }] });
      await make(ctx, v).invoke([system, new HumanMessage('Say hello.')]);
      const r = await make(ctx, v).invoke([system, new HumanMessage('Say hello again.')]);
      startsHello(r.text, v);
      const read = r.usage_metadata?.input_token_details?.cache_read ?? 0;
      expect(read > 0, `the second call reports no cache read: ${excerpt(JSON.stringify(r.usage_metadata))}`);
    };
  }
  return cells;
}

export const langchainOpenAI = langchain((ctx, v, o = {}) => new ChatOpenAI({ model: VENDORS[v].model, apiKey: MASTER_KEY, maxRetries: 0,
  configuration: { baseURL: `${ctx.gateway}/api/v1` }, ...o }), { thinking: { reasoning: { effort: 'low' } },
  // ChatOpenAI sends `reasoning` only for model ids it knows as OpenAI reasoning models: others take the raw field
  reasoning: { modelKwargs: { reasoning_effort: 'low' } }, reasoningOf: (m) => m.additional_kwargs?.reasoning_content });
export const langchainAnthropic = langchain((ctx, v, o = {}) => new ChatAnthropic({ model: VENDORS[v].model, maxRetries: 0, maxTokens: 4096,
  anthropicApiUrl: `${ctx.gateway}/api`, apiKey: 'unused', clientOptions: { authToken: MASTER_KEY }, ...o }),
{ thinking: { thinking: { type: 'adaptive' } }, cacheSystem: true,
  reasoningOf: (m) => (Array.isArray(m.content) ? m.content.filter((b) => b.type === 'thinking').map((b) => b.thinking).join('') : '') });
