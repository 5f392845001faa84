/**
 * The task scope by a small model call (issue #42, `agent.task_scope: model`, src/agent/scopeModel.ts): its cost and,
 * when a model is reachable, its accuracy on the labelled requests of bench/scopeRequests.ts.
 *
 *   - cost, always measured: the request's size in characters (instructions + the user's message, the whole input)
 *     and in tokens estimated at 4 characters a token, and the one extra round trip per user message;
 *   - accuracy and latency, only with OTTO_BENCH_MODEL, OTTO_BENCH_API_KEY (and OTTO_BENCH_BASE_URL, default
 *     https://api.openai.com/v1) set: each request is sent once through the client a run uses; the model's kinds
 *     alone and merged with the rules (the union a run uses) are scored. Without them it says "not measured: no model
 *     reachable" and reports the cost side only.
 */
import { OpenAIResponsesClient } from '../src/models/OpenAIResponsesClient.ts';
import { SCOPE_INSTRUCTIONS, mergeModelScope, scopeByModel, scopeRequest } from '../src/agent/scopeModel.ts';
import { scopeFromWords } from '../src/agent/scopeRules.ts';
import type { EffectKind } from '../src/shared/taskScope.ts';
import { HELD_OUT_REQUESTS, LABELLED_REQUESTS } from './scopeRequests.ts';
import { scoreSet } from './taskScope.bench.ts';
import type { BenchMetric } from './types.ts';

export const name = 'scopeModel';
export const rounds = 1;

const ALL = [...LABELLED_REQUESTS, ...HELD_OUT_REQUESTS];

/** Characters of one scope request as sent: the instructions and the input items' JSON. */
function requestChars(text: string): number {
  const r = scopeRequest([text]);
  return (r.instructions ?? '').length + JSON.stringify(r.input).length;
}

function costMetrics(): BenchMetric[] {
  const sizes = ALL.map(([t]) => requestChars(t));
  const mean = sizes.reduce((a, b) => a + b, 0) / sizes.length;
  return [
    { name: 'instructions_chars', value: SCOPE_INSTRUCTIONS.length, unit: 'chars' },
    { name: 'request_chars_mean', value: Math.round(mean), unit: 'chars' },
    { name: 'request_tokens_est', value: Math.round(mean / 4), unit: 'tokens (chars/4)' },
    { name: 'extra_round_trips', value: 1, unit: 'per user message' },
  ];
}

async function accuracyMetrics(model: string, apiKey: string, baseURL: string): Promise<BenchMetric[]> {
  const client = new OpenAIResponsesClient({ baseURL, apiKey, model, maxRetries: 1, timeoutMs: 30_000 });
  const answers = new Map<string, EffectKind[]>();
  const merged = new Map<string, EffectKind[]>();
  const ms: number[] = [];
  let failed = 0;
  for (const [text] of ALL) {
    const t = performance.now();
    const a = await scopeByModel(client, [text], AbortSignal.timeout(30_000));
    ms.push(performance.now() - t);
    if ('error' in a) failed++;
    const kinds = 'error' in a ? [] : a.effects;
    answers.set(text, kinds);
    merged.set(text, mergeModelScope(scopeFromWords(text), { effects: kinds, sites: [] }).effects);
  }
  ms.sort((a, b) => a - b);
  const out: BenchMetric[] = [
    { name: 'latency_p50', value: Math.round(ms[Math.floor(ms.length / 2)]!), unit: 'ms' },
    { name: 'failed_answers', value: failed, unit: `of ${ALL.length}` },
  ];
  for (const [label, set] of [
    ['labelled', LABELLED_REQUESTS],
    ['held_out', HELD_OUT_REQUESTS],
  ] as const) {
    for (const [kind, map] of [
      ['model', answers],
      ['union', merged],
    ] as const) {
      const r = scoreSet(set, (t) => map.get(t) ?? []);
      const unit = `of ${set.length}`;
      out.push(
        { name: `${kind}_${label}_exact`, value: r.exact, unit },
        { name: `${kind}_${label}_too_wide`, value: r.tooWide, unit },
        { name: `${kind}_${label}_too_narrow`, value: r.tooNarrow, unit },
      );
    }
  }
  return out;
}

export async function run(): Promise<BenchMetric[]> {
  const model = process.env.OTTO_BENCH_MODEL;
  const key = process.env.OTTO_BENCH_API_KEY;
  if (!model || !key) {
    console.error(
      'scopeModel: accuracy not measured: no model reachable (set OTTO_BENCH_MODEL and OTTO_BENCH_API_KEY, optionally OTTO_BENCH_BASE_URL)',
    );
    return costMetrics();
  }
  const base = process.env.OTTO_BENCH_BASE_URL ?? 'https://api.openai.com/v1';
  return [...costMetrics(), ...(await accuracyMetrics(model, key, base))];
}
