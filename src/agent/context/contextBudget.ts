/**
 * How many tokens a request may hold (`agent.context_budget`, #23), and how many it holds.
 *
 * Counting: characters ÷ a ratio, where the ratio starts at 4 and is corrected by what the server reports for the
 * previous request (`usage.input_tokens` is the server's own tokenizer's count of exactly what was sent). A bundled
 * tokenizer would know one family's vocabulary (OpenAI's) and still be wrong for the local and third-party models
 * Otto talks to; the server's count is right for all of them. Measured (docs/decisions.md, #23 continued):
 * gpt-tokenizer's o200k_base is 2.7 MB minified (1.07 MB gzip), 3.3× the whole worker (806 KB), and a service worker cannot
 * load it lazily (no `import()` there); on the corpus pages chars ÷ 4 is off by 4% on a whole request.
 * Images are counted as a fixed cost per image, not by the length of their data URL.
 */
import type { ResponseItem } from '../../models/events.ts';

/** Context windows (input tokens) of common models; matched on the last path segment, longest prefix first. */
export const KNOWN_WINDOWS: ReadonlyArray<readonly [prefix: string, tokens: number]> = [
  ['gpt-5', 272_000], // 400k total, of which 128k are reserved for output
  ['gpt-4.1', 1_047_576],
  ['gpt-4o', 128_000],
  ['gpt-4-turbo', 128_000],
  ['gpt-4-32k', 32_768],
  ['gpt-4', 8_192],
  ['gpt-3.5-turbo', 16_385],
  ['o1-mini', 128_000],
  ['o1', 200_000],
  ['o3', 200_000],
  ['o4-mini', 200_000],
  ['codex', 200_000],
  ['claude', 200_000],
  ['gemini', 1_048_576],
  ['llama-3', 128_000],
  ['llama3', 128_000],
  ['mistral-large', 128_000],
  ['mistral', 32_000],
  ['qwen', 32_768],
  ['deepseek', 64_000],
];

/** An unknown model (a local server's): a window most current models have; a smaller one answers with an error we recover from. */
export const UNKNOWN_WINDOW = 32_768;
/** The share of the window a request may fill: the rest is room for the answer and for the estimate's error. */
export const BUDGET_SHARE = 0.75;
/** Tokens an image part counts for (a 768-px high-detail image is 765 tokens; low detail 85). */
export const IMAGE_TOKENS = 800;
export const DEFAULT_CHARS_PER_TOKEN = 4;

export function knownWindow(model: string): number | undefined {
  const name = (model.toLowerCase().split('/').pop() ?? '').trim();
  let best: readonly [string, number] | undefined;
  for (const entry of KNOWN_WINDOWS) {
    if (name.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best?.[1];
}

/** The budget in force: the configured number, or 75% of the model's window (unknown models: of 32k). */
export function contextBudget(setting: number | 'auto' | undefined, model: string): number {
  if (typeof setting === 'number') return setting;
  return Math.floor((knownWindow(model) ?? UNKNOWN_WINDOW) * BUDGET_SHARE);
}

/** Characters of the parts of a request other than its input (instructions: as they are; tool definitions: as JSON). */
export function extraChars(extra: readonly unknown[]): number {
  let chars = 0;
  for (const e of extra) chars += typeof e === 'string' ? e.length : (JSON.stringify(e) ?? '').length;
  return chars;
}

/**
 * Characters and images of what a request sends (input, instructions, tool definitions). `extra` may be given as its
 * `extraChars`, for a caller that measures the same instructions and tools more than once.
 */
export function requestSize(
  input: readonly ResponseItem[],
  extra: readonly unknown[] | number = [],
): { chars: number; images: number } {
  let images = 0;
  const json = JSON.stringify(input, (key, value: unknown) => {
    if (key === 'image_url' && typeof value === 'string') {
      images++;
      return '';
    }
    return value;
  });
  return { chars: json.length + (typeof extra === 'number' ? extra : extraChars(extra)), images };
}

/** Tokens for a size, with the calibrated characters-per-token ratio. */
export function estimateTokens(
  size: { chars: number; images: number },
  charsPerToken = DEFAULT_CHARS_PER_TOKEN,
): number {
  return Math.ceil(size.chars / charsPerToken) + size.images * IMAGE_TOKENS;
}

/** The ratio the server's count implies for a request of this size (bounded: one odd report cannot wreck it). */
export function calibrate(size: { chars: number; images: number }, inputTokens: number): number | undefined {
  const textTokens = inputTokens - size.images * IMAGE_TOKENS;
  if (!(textTokens > 100) || size.chars < 400) return undefined;
  return Math.min(6, Math.max(2, size.chars / textTokens));
}
