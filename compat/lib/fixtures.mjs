// What the SDK cells send: the same tools, image and schema on every client, and what the simulator answers.
import { VENDORS } from './vendors.mjs';

/** A valid 1x1 PNG. */
export const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
export const PNG_DATA_URL = `data:image/png;base64,${PNG_BASE64}`;

export const WEATHER = {
  name: 'get_weather',
  description: 'Current weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
};
export const TIME = {
  name: 'get_time',
  description: 'Current time in a time zone',
  parameters: { type: 'object', properties: { zone: { type: 'string' } }, required: ['zone'], additionalProperties: false },
};

export const CITY_SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' }, population: { type: 'integer' } },
  required: ['city', 'population'],
  additionalProperties: false,
};

/** The simulator's text answer starts so for a vendor (vendor-sim/README.md, "Deterministic answers"). */
export function hello(vendor) {
  return `Hello from ${VENDORS[vendor].upstream}.`;
}

export const TOOL_RESULT = 'Tool result received:';
export const ONE_IMAGE = 'I see 1 image(s).';
/** A long system prompt (> 1024 tokens) so that every vendor's prompt cache can take it. */
export const LONG_SYSTEM = `You are a careful assistant. ${'Answer briefly and precisely. '.repeat(200)}`;
