/**
 * Batches (docs/specs/004-tool-sdk.md, "Batch Execution" and "Item Normalization"): run one function over many items
 * with a concurrency limit, keep the original order, and format the results as labelled sections — the reference's
 * `=== <label> ===\n<content>`, sections joined by a blank line.
 *
 * A failing item does not fail the batch: its section reads `Error: <message>` (a tool that fetches ten pages
 * should still return nine). An aborted signal stops new items from starting and rejects with the abort reason.
 */
import { formatOutput } from '../shared/outputFormat.ts';
import { errorMessage } from '../shared/errorMessage.ts';

/** An item: a value used as its own label (strings), or a `[value, label]` pair. */
export type BatchItem<V = string> = V | readonly [V, string];

export interface BatchOptions {
  /** At most this many items run at once; default min(items, 10). Must be a positive integer. */
  maxWorkers?: number;
  /** Stops starting new items when aborted (e.g. the tool's `ctx.signal`). */
  signal?: AbortSignal;
}

export interface BatchFormatOptions extends BatchOptions {
  /** Section marker (default `===`). */
  separator?: string;
  /** Turns one result into its section's text; default: strings as they are, anything else as flow YAML. */
  format?: (result: unknown, label: string) => string;
}

export type BatchResult<V, R> =
  { value: V; label: string; ok: true; result: R } | { value: V; label: string; ok: false; error: string };

export const DEFAULT_MAX_WORKERS = 10;

function isPair(item: unknown): item is readonly [unknown, string] {
  return Array.isArray(item) && item.length === 2 && typeof item[1] === 'string';
}

/**
 * `normalize_items`: every item as a `[value, label]` pair — a string labels itself, a pair is kept as it is, any
 * other value is labelled by its text.
 */
export function normalizeItems<V = string>(items: readonly BatchItem<V>[]): [V, string][] {
  return items.map((item) => (isPair(item) ? [item[0] as V, item[1]] : [item as V, String(item)]));
}

function workersFor(count: number, requested: number | undefined): number {
  if (requested === undefined) return Math.max(1, Math.min(count, DEFAULT_MAX_WORKERS));
  if (!Number.isInteger(requested) || requested < 1)
    throw new RangeError(`maxWorkers must be a positive integer, got: ${String(requested)}`);
  return requested;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

/**
 * Runs `fn(value, label)` over the items, at most `maxWorkers` at a time, and returns one result per item in the
 * original order (each `ok` with its result, or not with the error message).
 */
export async function batchMap<V, R>(
  items: readonly BatchItem<V>[],
  fn: (value: V, label: string) => R | Promise<R>,
  options: BatchOptions = {},
): Promise<BatchResult<V, R>[]> {
  const pairs = normalizeItems(items);
  const workers = workersFor(pairs.length, options.maxWorkers);
  const { signal } = options;
  const results = new Array<BatchResult<V, R>>(pairs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      if (signal?.aborted) throw abortReason(signal);
      const i = next++;
      if (i >= pairs.length) return;
      const [value, label] = pairs[i]!;
      try {
        results[i] = { value, label, ok: true, result: await fn(value, label) };
      } catch (error) {
        if (signal?.aborted) throw abortReason(signal);
        results[i] = { value, label, ok: false, error: errorMessage(error) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(workers, pairs.length) }, worker));
  return results;
}

/** The reference's sections: `=== <label> ===\n<content>`, joined by a blank line, in the items' order. */
export function formatBatchResults<V, R>(
  results: readonly BatchResult<V, R>[],
  options: Pick<BatchFormatOptions, 'separator' | 'format'> = {},
): string {
  const sep = options.separator ?? '===';
  const format = options.format ?? ((r: unknown) => (typeof r === 'string' ? r : formatOutput(r)));
  return results
    .map((r) => `${sep} ${r.label} ${sep}\n${r.ok ? format(r.result, r.label) : `Error: ${r.error}`}`)
    .join('\n\n');
}

/**
 * `batch_execute(items, fn, max_workers=...)`: runs `fn` over the items concurrently (default min(items, 10) at a
 * time) and returns the formatted output, labels and original order kept. An empty list gives ''.
 */
export async function batchExecute<V, R>(
  items: readonly BatchItem<V>[],
  fn: (value: V, label: string) => R | Promise<R>,
  options: BatchFormatOptions = {},
): Promise<string> {
  return formatBatchResults(await batchMap(items, fn, options), options);
}
