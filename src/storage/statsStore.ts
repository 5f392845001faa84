/**
 * Statistics in IndexedDB (issue 6, "Statistics"), recorded only while config `stats.enabled`:
 *   statsToolCalls       every tool call {tool, ts, duration_ms, success, error_type, chars_in, chars_out}
 *   statsModelRequests   every model request {model, ts, input_tokens, output_tokens, cached_tokens, latency_ms}
 *   statsSavings         what was kept out of the model's context {ts, source, tool, chars_kept_out,
 *                        round_trips_avoided} — the result store today, code mode later
 *   statsRollups         per hour and per UTC day, the sums of each kind and name, updated in the same transaction
 *                        as the raw record.
 * `computeStats` answers from rollups plus the raw records of the window's partial first hour, so it reads a few
 * hundred records however many calls were made (100,000 calls: see bench/stats.bench.ts). Raw records and hourly
 * rollups older than RETENTION_DAYS are pruned (every PRUNE_EVERY writes); daily rollups are kept, so `all` stays
 * complete.
 */
import type { IDBPDatabase } from 'idb';
import { buildStatsHtml } from '../results/statsHtml.ts';
import {
  cannotWrite,
  modelContribution,
  mergeContribution,
  parsePeriod,
  PERIOD_MS,
  savingContribution,
  STATS_DISABLED,
  StatsAggregator,
  StatsError,
  toolContribution,
  toReport,
  type Contribution,
  type ModelRequestStat,
  type SavingStat,
  type StatsAggregate,
  type StatsReport,
  type ToolCallStat,
} from '../results/statsLogic.ts';
import { db as sharedDb, type OttoDB } from './db.ts';
import { FileStore, fileNameProblem } from './files.ts';
import type { StatsRollupRecord } from './resultRecords.ts';
import { errorMessage } from '../shared/errorMessage.ts';

type Db = IDBPDatabase<OttoDB>;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Raw records and hourly rollups are kept this long (a month window needs 30 days of them at its start edge). */
export const RETENTION_DAYS = 32;
/** Old records are pruned on every PRUNE_EVERY-th write. */
export const PRUNE_EVERY = 500;

/** A tool call as the interceptor reports it (its `ToolCallRecord`), with an optional time (default now). */
export interface ToolCallInput {
  tool: string;
  durationMs: number;
  success: boolean;
  errorType?: string;
  charsIn: number;
  charsOut: number;
  ts?: number;
}

export interface ModelRequestInput {
  model: string;
  inputTokens: number;
  outputTokens: number;
  /** Input tokens served from the provider's prompt cache (`usage.input_tokens_details.cached_tokens`, #23). */
  cachedTokens?: number;
  latencyMs: number;
  ts?: number;
}

export interface SavingInput {
  /** `result_store` or `code_mode`. */
  source: string;
  tool?: string;
  charsKeptOut?: number;
  roundTripsAvoided?: number;
  ts?: number;
}

export interface ComputeStatsOptions {
  /** day | week | month | all (default all). */
  period?: string;
  /** Only this tool ('' = all tools). */
  tool?: string;
  /** Name of an HTML report to save in Otto's files (must end in .html). */
  output?: string;
  now?: number;
  /** Overrides the store's `enabled` (config stats.enabled). */
  enabled?: boolean;
}

export interface StatsBatch {
  toolCalls?: readonly ToolCallInput[];
  modelRequests?: readonly ModelRequestInput[];
  savings?: readonly SavingInput[];
}

const rollupKey = (res: 'h' | 'd', start: number, c: Contribution): [string, number, string, string] => [
  res,
  start,
  c.kind,
  c.name,
];

function cloneContribution(c: Contribution): Contribution {
  return c.kind === 'model' ? { ...c, hist: { ...c.hist } } : { ...c };
}

export interface StatsStoreOptions {
  /** Whether to record (config `stats.enabled`); read on every call. Default always. */
  enabled?: () => boolean;
  now?: () => number;
  files?: FileStore;
  /**
   * Records wait this long to be written together, in one transaction, instead of one each. The worker passes a
   * delay so that a run's statistics are written after its steps, not between them (each stats write reads and
   * updates rollups: several milliseconds in Chromium). Reads (`computeStats`, `aggregate`) write what waits first.
   * A worker stopped meanwhile loses at most that much of statistics, never transcript. Default 0: at once.
   */
  flushDelayMs?: number;
}

export class StatsStore {
  readonly #db: Promise<Db>;
  readonly #enabled: () => boolean;
  readonly #now: () => number;
  readonly #files: FileStore;
  #writes = 0;
  readonly #delay: number;
  /** Records waiting for the next flush, stamped when they were recorded. */
  #waiting: { toolCalls: ToolCallInput[]; modelRequests: ModelRequestInput[]; savings: SavingInput[] } | undefined;
  #flushed: Promise<void> | undefined;
  /** Settles `#flushed` when its flush is written. */
  #settle: { resolve: () => void; reject: (e: unknown) => void } | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Writes run one after another. */
  #chain: Promise<void> = Promise.resolve();

  constructor(database: Db | Promise<Db> = sharedDb(), opts: StatsStoreOptions = {}) {
    this.#db = Promise.resolve(database);
    this.#enabled = opts.enabled ?? (() => true);
    this.#now = opts.now ?? Date.now;
    this.#files = opts.files ?? new FileStore(this.#db);
    this.#delay = opts.flushDelayMs ?? 0;
  }

  get enabled(): boolean {
    return this.#enabled();
  }

  recordToolCall(r: ToolCallInput): Promise<void> {
    return this.recordBatch({ toolCalls: [r] });
  }

  recordModelRequest(r: ModelRequestInput): Promise<void> {
    return this.recordBatch({ modelRequests: [r] });
  }

  /** Characters kept out of the model's context, or model round trips avoided. */
  recordSaving(r: SavingInput): Promise<void> {
    return this.recordBatch({ savings: [r] });
  }

  /**
   * Writes raw records and their rollups in one transaction (after `flushDelayMs`, together with whatever else was
   * recorded meanwhile). Resolves when they are written. Nothing is recorded while stats are disabled.
   */
  recordBatch(batch: StatsBatch): Promise<void> {
    if (!this.#enabled()) return Promise.resolve();
    if (this.#delay <= 0) return this.#serial(() => this.#write(batch));
    const ts = this.#now();
    const w = (this.#waiting ??= { toolCalls: [], modelRequests: [], savings: [] });
    for (const r of batch.toolCalls ?? []) w.toolCalls.push({ ...r, ts: r.ts ?? ts });
    for (const r of batch.modelRequests ?? []) w.modelRequests.push({ ...r, ts: r.ts ?? ts });
    for (const r of batch.savings ?? []) w.savings.push({ ...r, ts: r.ts ?? ts });
    this.#timer ??= setTimeout(() => void this.flush().catch(() => undefined), this.#delay);
    // One promise per flush, shared by everything recorded for it.
    return (this.#flushed ??= new Promise<void>((resolve, reject) => (this.#settle = { resolve, reject })));
  }

  /** Writes whatever waits for the delay now. Resolves when it is written. */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#waiting;
    const settle = this.#settle;
    this.#waiting = undefined;
    this.#flushed = undefined;
    this.#settle = undefined;
    if (!batch) return this.#chain;
    const written = this.#serial(() => this.#write(batch));
    written.then(settle?.resolve, settle?.reject);
    return written;
  }

  #serial(write: () => Promise<void>): Promise<void> {
    const next = this.#chain.then(write);
    this.#chain = next.catch(() => undefined);
    return next;
  }

  async #write(batch: StatsBatch): Promise<void> {
    const now = this.#now();
    const toolCalls: ToolCallStat[] = (batch.toolCalls ?? []).map((r) => ({
      tool: r.tool,
      ts: r.ts ?? now,
      duration_ms: r.durationMs,
      success: r.success,
      error_type: r.success ? null : (r.errorType ?? 'Error'),
      chars_in: r.charsIn,
      chars_out: r.charsOut,
    }));
    const models: ModelRequestStat[] = (batch.modelRequests ?? []).map((r) => ({
      model: r.model,
      ts: r.ts ?? now,
      input_tokens: r.inputTokens,
      output_tokens: r.outputTokens,
      cached_tokens: r.cachedTokens ?? 0,
      latency_ms: r.latencyMs,
    }));
    const savings: SavingStat[] = (batch.savings ?? []).map((r) => ({
      ts: r.ts ?? now,
      source: r.source,
      tool: r.tool ?? '',
      chars_kept_out: r.charsKeptOut ?? 0,
      round_trips_avoided: r.roundTripsAvoided ?? 0,
    }));
    const n = toolCalls.length + models.length + savings.length;
    if (!n) return;

    // Rollups of the batch, merged in memory first.
    const rollups = new Map<string, StatsRollupRecord>();
    const addRollups = (c: Contribution): void => {
      for (const [res, size] of [
        ['h', HOUR],
        ['d', DAY],
      ] as const) {
        const start = Math.floor(c.t / size) * size;
        const id = JSON.stringify(rollupKey(res, start, c));
        const have = rollups.get(id);
        if (have) mergeContribution(have as Contribution, c);
        else rollups.set(id, { ...cloneContribution(c), t: start, res, start } as StatsRollupRecord);
      }
    };
    toolCalls.forEach((r) => addRollups(toolContribution(r)));
    models.forEach((r) => addRollups(modelContribution(r)));
    savings.forEach((r) => addRollups(savingContribution(r)));

    const db = await this.#db;
    const tx = db.transaction(['statsToolCalls', 'statsModelRequests', 'statsSavings', 'statsRollups'], 'readwrite');
    const pending: Promise<unknown>[] = [];
    for (const r of toolCalls) pending.push(tx.objectStore('statsToolCalls').add(r));
    for (const r of models) pending.push(tx.objectStore('statsModelRequests').add(r));
    for (const r of savings) pending.push(tx.objectStore('statsSavings').add(r));
    const store = tx.objectStore('statsRollups');
    for (const r of rollups.values()) {
      pending.push(
        store.get(rollupKey(r.res, r.start, r)).then((old) => {
          if (old) mergeContribution(old as Contribution, r as Contribution);
          return store.put(old ?? r);
        }),
      );
    }
    await Promise.all(pending);
    await tx.done;

    const before = this.#writes;
    this.#writes += n;
    if (Math.floor(before / PRUNE_EVERY) !== Math.floor(this.#writes / PRUNE_EVERY)) await this.prune(now);
  }

  /** Removes raw records and hourly rollups older than RETENTION_DAYS before `now`. */
  async prune(now = this.#now()): Promise<void> {
    const cutoff = now - RETENTION_DAYS * DAY;
    const db = await this.#db;
    const tx = db.transaction(['statsToolCalls', 'statsModelRequests', 'statsSavings', 'statsRollups'], 'readwrite');
    const old = IDBKeyRange.upperBound(cutoff, true);
    for (const name of ['statsToolCalls', 'statsModelRequests', 'statsSavings'] as const) {
      const keys = await tx.objectStore(name).index('byTs').getAllKeys(old);
      await Promise.all(keys.map((k) => tx.objectStore(name).delete(k)));
    }
    await tx.objectStore('statsRollups').delete(IDBKeyRange.bound(['h'], ['h', cutoff], false, true));
    await tx.done;
  }

  /** Removes every statistic (the panel's "reset"). */
  async clear(): Promise<void> {
    await this.flush();
    const db = await this.#db;
    const tx = db.transaction(['statsToolCalls', 'statsModelRequests', 'statsSavings', 'statsRollups'], 'readwrite');
    await Promise.all([
      tx.objectStore('statsToolCalls').clear(),
      tx.objectStore('statsModelRequests').clear(),
      tx.objectStore('statsSavings').clear(),
      tx.objectStore('statsRollups').clear(),
    ]);
    await tx.done;
  }

  /**
   * The aggregate of a window (for the reply and the panel's Stats view). Throws StatsError for an invalid period.
   * Reads, in one read-only transaction: raw records of [start, next whole hour), hourly rollups up to the next
   * whole UTC day (month) or to now (day, week), daily rollups after that (month, all).
   */
  async aggregate(opts: { period?: string; tool?: string; now?: number } = {}): Promise<StatsAggregate> {
    await this.flush();
    const period = parsePeriod(opts.period);
    const tool = opts.tool ? opts.tool : undefined;
    const now = opts.now ?? this.#now();
    const agg = new StatsAggregator(period, tool);
    const db = await this.#db;
    const tx = db.transaction(['statsToolCalls', 'statsModelRequests', 'statsSavings', 'statsRollups']);
    const rollups = tx.objectStore('statsRollups');
    let start: number | undefined;
    const reads: Promise<void>[] = [];
    const addAll = (p: Promise<Contribution[]>): void => {
      reads.push(p.then((cs) => cs.forEach((c) => agg.add(c))));
    };
    if (period === 'all') {
      addAll(rollups.getAll(IDBKeyRange.bound(['d'], ['e'], false, true)));
    } else {
      start = now - PERIOD_MS[period];
      const h = Math.ceil(start / HOUR) * HOUR;
      const d = Math.ceil(start / DAY) * DAY;
      if (h > start) {
        const edge = IDBKeyRange.bound(start, h, false, true);
        const calls =
          tool === undefined
            ? tx.objectStore('statsToolCalls').index('byTs').getAll(edge)
            : tx
                .objectStore('statsToolCalls')
                .index('byToolTs')
                .getAll(IDBKeyRange.bound([tool, start], [tool, h], false, true));
        addAll(calls.then((rs) => rs.map(toolContribution)));
        addAll(
          tx
            .objectStore('statsModelRequests')
            .index('byTs')
            .getAll(edge)
            .then((rs) => rs.map(modelContribution)),
        );
        addAll(
          tx
            .objectStore('statsSavings')
            .index('byTs')
            .getAll(edge)
            .then((rs) => rs.map(savingContribution)),
        );
      }
      if (period === 'month') {
        if (d > h) addAll(rollups.getAll(IDBKeyRange.bound(['h', h], ['h', d], false, true)));
        addAll(rollups.getAll(IDBKeyRange.bound(['d', d], ['e'], false, true)));
      } else {
        addAll(rollups.getAll(IDBKeyRange.bound(['h', h], ['i'], false, true)));
      }
    }
    await Promise.all(reads);
    await tx.done;
    return agg.finish({ start, end: now });
  }

  /**
   * `ot.stats`: the reply with every key of the reference. Throws StatsError whose message is the exact error text,
   * checked in this order: disabled, invalid period, unusable report name, report write failure.
   */
  async computeStats(opts: ComputeStatsOptions = {}): Promise<StatsReport> {
    if (!(opts.enabled ?? this.#enabled())) throw new StatsError(STATS_DISABLED);
    parsePeriod(opts.period);
    const output = opts.output;
    if (output !== undefined) {
      const problem = fileNameProblem(output, '.html');
      if (problem) throw new StatsError(cannotWrite(output, problem));
    }
    const now = opts.now ?? this.#now();
    const agg = await this.aggregate({ ...opts, now });
    const report = toReport(agg, output ?? null);
    if (output !== undefined) {
      try {
        await this.#files.save(output, buildStatsHtml(report, agg, now), 'text/html');
      } catch (error) {
        throw new StatsError(cannotWrite(output, errorMessage(error)));
      }
    }
    return report;
  }
}

let defaultStats: StatsStore | undefined;
/** The statistics store of this context (shared database). */
export function statsStore(): StatsStore {
  defaultStats ??= new StatsStore();
  return defaultStats;
}

export const recordToolCall = (r: ToolCallInput): Promise<void> => statsStore().recordToolCall(r);
export const recordModelRequest = (r: ModelRequestInput): Promise<void> => statsStore().recordModelRequest(r);
export const recordSaving = (r: SavingInput): Promise<void> => statsStore().recordSaving(r);
export const computeStats = (opts?: ComputeStatsOptions): Promise<StatsReport> => statsStore().computeStats(opts);

/**
 * A synchronous sink for the interceptor's `onRecord` hook: records in the background and reports a failure to
 * `onError` (default: console.warn) instead of rejecting — statistics never break a tool call.
 */
export function toolCallRecorder(
  store: StatsStore | (() => StatsStore) = statsStore,
  onError: (error: unknown) => void = (error) => console.warn('[stats] could not record a tool call:', error),
): (record: ToolCallInput) => void {
  return (record) => {
    const s = typeof store === 'function' ? store() : store;
    s.recordToolCall(record).catch(onError);
  };
}
