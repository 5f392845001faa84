/**
 * What `ot.stats` adds up (docs/specs/002-ot-tools.md "Runtime Statistics"): a *contribution* is either one raw record (a tool call, a
 * model request, a saving) or a rollup holding the sums of many records of one kind and name over an hour or a day.
 * Raw records become contributions here, and rollups grow by merging contributions into them.
 */
import { latencyBin } from './latencyHistogram.ts';

export interface ToolContribution {
  kind: 'tool';
  name: string;
  /** Record time, or the rollup's bucket start. */
  t: number;
  calls: number;
  success: number;
  errors: number;
  duration_ms: number;
  chars_in: number;
  chars_out: number;
}

export interface ModelContribution {
  kind: 'model';
  name: string;
  t: number;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  /** Input tokens the provider served from its prompt cache (#23); absent in records from before. */
  cached_tokens?: number;
  latency_ms: number;
  hist: Record<string, number>;
}

export interface SavingContribution {
  kind: 'saving';
  /** The tool whose output was kept out ('' when not attributable to one tool). */
  name: string;
  t: number;
  chars_kept_out: number;
  round_trips_avoided: number;
}

export type Contribution = ToolContribution | ModelContribution | SavingContribution;

export interface ToolCallStat {
  tool: string;
  ts: number;
  duration_ms: number;
  success: boolean;
  error_type: string | null;
  chars_in: number;
  chars_out: number;
}

export interface ModelRequestStat {
  model: string;
  ts: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens?: number;
  latency_ms: number;
}

export interface SavingStat {
  ts: number;
  /** Where the saving came from: `result_store` (large output kept out), `code_mode` (round trips avoided). */
  source: string;
  /** The tool concerned, '' when not one tool. */
  tool: string;
  chars_kept_out: number;
  round_trips_avoided: number;
}

export function toolContribution(r: ToolCallStat): ToolContribution {
  return {
    kind: 'tool',
    name: r.tool,
    t: r.ts,
    calls: 1,
    success: r.success ? 1 : 0,
    errors: r.success ? 0 : 1,
    duration_ms: r.duration_ms,
    chars_in: r.chars_in,
    chars_out: r.chars_out,
  };
}

export function modelContribution(r: ModelRequestStat): ModelContribution {
  return {
    kind: 'model',
    name: r.model,
    t: r.ts,
    requests: 1,
    input_tokens: r.input_tokens,
    output_tokens: r.output_tokens,
    cached_tokens: r.cached_tokens ?? 0,
    latency_ms: r.latency_ms,
    hist: { [latencyBin(r.latency_ms)]: 1 },
  };
}

export function savingContribution(r: SavingStat): SavingContribution {
  return {
    kind: 'saving',
    name: r.tool,
    t: r.ts,
    chars_kept_out: r.chars_kept_out,
    round_trips_avoided: r.round_trips_avoided,
  };
}

/** Adds `c` into `into` (same kind and name): how rollups grow. */
export function mergeContribution<C extends Contribution>(into: C, c: C): C {
  if (into.kind === 'tool' && c.kind === 'tool') {
    into.calls += c.calls;
    into.success += c.success;
    into.errors += c.errors;
    into.duration_ms += c.duration_ms;
    into.chars_in += c.chars_in;
    into.chars_out += c.chars_out;
  } else if (into.kind === 'model' && c.kind === 'model') {
    into.requests += c.requests;
    into.input_tokens += c.input_tokens;
    into.output_tokens += c.output_tokens;
    into.cached_tokens = (into.cached_tokens ?? 0) + (c.cached_tokens ?? 0);
    into.latency_ms += c.latency_ms;
    for (const k in c.hist) into.hist[k] = (into.hist[k] ?? 0) + c.hist[k]!;
  } else if (into.kind === 'saving' && c.kind === 'saving') {
    into.chars_kept_out += c.chars_kept_out;
    into.round_trips_avoided += c.round_trips_avoided;
  }
  return into;
}
