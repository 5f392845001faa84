/**
 * Approximate list prices, in US dollars per 1 million tokens (input, output), for the cost estimate of `ot.stats`.
 * They are public list prices as of mid-2025, without cached-input discounts, batch pricing or regional markups; a
 * model is matched by its name or the longest listed prefix (`gpt-4o-mini-2024-07-18` → `gpt-4o-mini`), a provider
 * prefix (`openai/`) ignored. Models not listed (local servers, other vendors) are left out of the estimate and named
 * in the reply. This is an estimate, never a bill.
 */
export interface Price {
  input: number;
  output: number;
}

export const PRICES_PER_MILLION: Readonly<Record<string, Price>> = {
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  o3: { input: 2, output: 8 },
  'o3-mini': { input: 1.1, output: 4.4 },
  'o4-mini': { input: 1.1, output: 4.4 },
};

const KEYS_LONGEST_FIRST = Object.keys(PRICES_PER_MILLION).sort((a, b) => b.length - a.length);

/** The price entry for a model name, or undefined when it is not listed. */
export function priceFor(model: string): { key: string; price: Price } | undefined {
  const name = model.toLowerCase().replace(/^[a-z0-9_-]+\//, '');
  for (const key of KEYS_LONGEST_FIRST) {
    if (name === key || name.startsWith(`${key}-`)) return { key, price: PRICES_PER_MILLION[key]! };
  }
  return undefined;
}

/** Dollars for a number of tokens at a model's price, or undefined when the model is not listed. */
export function costUsd(model: string, inputTokens: number, outputTokens: number): number | undefined {
  const p = priceFor(model)?.price;
  if (!p) return undefined;
  return (inputTokens * p.input + outputTokens * p.output) / 1_000_000;
}

/** Whether a model name is in the price table (for the panel's cost caveat). */
export const isPriced = (model: string): boolean => priceFor(model) !== undefined;
