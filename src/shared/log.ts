/**
 * A tiny structured logger for the service worker. Entries go to a bounded ring buffer (a later developer view reads
 * it with `entries()`), optionally echoed to the console. Every string that enters an entry — the message and any
 * field — first passes through the redactor installed with `setRedactor`, so secrets never reach the buffer or the
 * console. It is on the interceptor's hot path: no allocation beyond the entry itself when a level is enabled, and
 * callers can ask `enabled(level)` before building expensive messages.
 */
import { round2 } from './round.ts';
import { errorMessage } from './errorMessage.ts';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export type LogFields = Record<string, unknown>;

export interface LogEntry {
  /** Wall-clock time (ms since epoch). */
  readonly ts: number;
  readonly level: LogLevel;
  readonly msg: string;
  readonly fields?: Readonly<LogFields>;
  /** Set on span entries (`llm.transform`, `ot.tools`, ...): the span's name and how long it ran. */
  readonly span?: string;
  readonly durationMs?: number;
}

/** An open span: ending it writes one entry with the span's name, fields and duration. */
export interface LogSpan {
  readonly name: string;
  /** Writes the span entry (level info) with the start fields merged with `fields`. Later calls are ignored. */
  end(fields?: LogFields): void;
  /** Writes the span entry at level error with `error` set to the failure's message. Later calls are ignored. */
  fail(error: unknown, fields?: LogFields): void;
}

export interface LoggerOptions {
  /** Ring buffer size in entries (default 1000). The oldest entry is overwritten first. */
  capacity?: number;
  /** Entries below this level are dropped before any work is done (default 'debug'). */
  level?: LogLevel;
  /** Echo entries at or above this level to the console; false (the default) echoes nothing. */
  console?: LogLevel | false;
}

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** Longest string kept in an entry; a runaway tool argument must not pin megabytes in the buffer. */
export const MAX_LOG_TEXT = 4000;

// The default masks anything shaped like an OpenAI key, so even logs written before startup installs the real
// redactor (which also knows the configured secret values) carry no key.
const KEY_SHAPE = /sk-[A-Za-z0-9_-]{6,}/g;
const defaultRedactor = (text: string): string => (text.includes('sk-') ? text.replace(KEY_SHAPE, '[redacted]') : text);
let redactor: (text: string) => string = defaultRedactor;

/** Installs the redaction hook applied to every logged string (all loggers). Pass nothing to restore the default. */
export function setRedactor(fn?: (text: string) => string): void {
  redactor = fn ?? defaultRedactor;
}

/** Redacts and bounds one string exactly as the logger does; for code that builds log-like text elsewhere. */
export function redactLogText(text: string): string {
  return redactor(text.length > MAX_LOG_TEXT ? text.slice(0, MAX_LOG_TEXT) + '…' : text);
}

/**
 * A bounded, JSON-like preview of any value, built incrementally so a huge argument costs at most `max` characters
 * of work, not a full `JSON.stringify`. Strings come out bare (as a person would read them in a log line). The result
 * has at most `max + 1` characters: one more than `max` tells the caller the value was cut.
 */
export function previewValue(value: unknown, max: number): string {
  if (typeof value === 'string') return value.length > max ? value.slice(0, max + 1) : value;
  const out: string[] = [];
  let budget = max + 1; // one extra so the caller can tell the text was cut
  const seen = new Set<object>();
  const push = (s: string): boolean => {
    if (budget <= 0) return false;
    const piece = s.length > budget ? s.slice(0, budget) : s;
    out.push(piece);
    budget -= piece.length;
    return budget > 0;
  };
  const walk = (v: unknown, depth: number): boolean => {
    switch (typeof v) {
      case 'string':
        return push(JSON.stringify(v.length > budget ? v.slice(0, budget) : v));
      case 'number':
      case 'boolean':
      case 'bigint':
        return push(String(v));
      case 'undefined':
        return push('undefined');
      case 'function':
        return push('[Function]');
      case 'symbol':
        return push(v.toString());
    }
    if (v === null) return push('null');
    const obj = v as object;
    if (obj instanceof Error) return push(`${obj.name}: ${obj.message}`);
    if (seen.has(obj) || depth > 6) return push(Array.isArray(obj) ? '[…]' : '{…}');
    seen.add(obj);
    if (Array.isArray(obj)) {
      if (!push('[')) return false;
      for (let i = 0; i < obj.length; i++) {
        if (i > 0 && !push(',')) return false;
        if (!walk(obj[i], depth + 1)) return false;
      }
      return push(']');
    }
    if (!push('{')) return false;
    let first = true;
    for (const key in obj) {
      if (!Object.prototype.hasOwnProperty.call(obj, key)) continue;
      if (!first && !push(',')) return false;
      first = false;
      if (!push(JSON.stringify(key) + ':')) return false;
      if (!walk((obj as Record<string, unknown>)[key], depth + 1)) return false;
    }
    return push('}');
  };
  walk(value, 0);
  return out.join('');
}

function cleanField(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
      return redactLogText(value);
    case 'number':
    case 'boolean':
    case 'undefined':
      return value;
  }
  if (value === null) return null;
  // Objects are flattened to redacted text: a live reference could change (or carry a secret) after logging.
  return redactor(previewValue(value, MAX_LOG_TEXT));
}

function cleanFields(fields: LogFields): LogFields {
  const out: LogFields = {};
  for (const key in fields) out[key] = cleanField(fields[key]);
  return out;
}

export class Logger {
  private readonly buffer: (LogEntry | undefined)[];
  private next = 0;
  private size = 0;
  private minRank: number;
  private echoRank: number;

  constructor(options: LoggerOptions = {}) {
    const capacity = Math.max(1, Math.floor(options.capacity ?? 1000));
    this.buffer = new Array<LogEntry | undefined>(capacity);
    this.minRank = RANK[options.level ?? 'debug'];
    this.echoRank = options.console ? RANK[options.console] : Infinity;
  }

  get capacity(): number {
    return this.buffer.length;
  }

  /** True when an entry at `level` would be kept: check it before building a costly message. */
  enabled(level: LogLevel): boolean {
    return RANK[level] >= this.minRank;
  }

  setLevel(level: LogLevel): void {
    this.minRank = RANK[level];
  }

  setConsole(level: LogLevel | false): void {
    this.echoRank = level ? RANK[level] : Infinity;
  }

  debug(msg: string, fields?: LogFields): void {
    if (this.minRank <= 0) this.write('debug', msg, fields);
  }

  info(msg: string, fields?: LogFields): void {
    if (this.minRank <= 1) this.write('info', msg, fields);
  }

  warn(msg: string, fields?: LogFields): void {
    if (this.minRank <= 2) this.write('warn', msg, fields);
  }

  error(msg: string, fields?: LogFields): void {
    this.write('error', msg, fields);
  }

  log(level: LogLevel, msg: string, fields?: LogFields): void {
    if (RANK[level] >= this.minRank) this.write(level, msg, fields);
  }

  /** Starts a timed span; the entry is written when it ends (`end`) or fails (`fail`). */
  span(name: string, fields?: LogFields): LogSpan {
    const start = performance.now();
    let open = true;
    const finish = (level: LogLevel, extra: LogFields | undefined): void => {
      if (!open) return;
      open = false;
      if (RANK[level] < this.minRank) return;
      const merged = fields && extra ? { ...fields, ...extra } : (extra ?? fields);
      this.write(level, name, merged, name, round2(performance.now() - start));
    };
    return {
      name,
      end: (extra) => finish('info', extra),
      fail: (error, extra) => finish('error', { ...extra, error: errorMessage(error) }),
    };
  }

  /** Runs `fn` inside a span: ended on success, failed (and rethrown) on error. */
  async withSpan<T>(name: string, fields: LogFields | undefined, fn: () => Promise<T> | T): Promise<T> {
    const span = this.span(name, fields);
    try {
      const value = await fn();
      span.end();
      return value;
    } catch (error) {
      span.fail(error);
      throw error;
    }
  }

  /** The buffered entries, oldest first (a copy). */
  entries(filter: { level?: LogLevel; since?: number; limit?: number } = {}): LogEntry[] {
    const cap = this.buffer.length;
    const out: LogEntry[] = [];
    const minRank = filter.level ? RANK[filter.level] : 0;
    for (let i = 0; i < this.size; i++) {
      const entry = this.buffer[(this.next - this.size + i + cap) % cap];
      if (!entry || RANK[entry.level] < minRank) continue;
      if (filter.since !== undefined && entry.ts < filter.since) continue;
      out.push(entry);
    }
    return filter.limit !== undefined ? out.slice(-filter.limit) : out;
  }

  clear(): void {
    this.buffer.fill(undefined);
    this.next = 0;
    this.size = 0;
  }

  private write(level: LogLevel, msg: string, fields?: LogFields, span?: string, durationMs?: number): void {
    const entry: { -readonly [K in keyof LogEntry]: LogEntry[K] } = { ts: Date.now(), level, msg: redactLogText(msg) };
    if (fields) entry.fields = cleanFields(fields);
    if (span !== undefined) {
      entry.span = span === msg ? entry.msg : redactLogText(span);
      entry.durationMs = durationMs;
    }
    this.buffer[this.next] = entry;
    this.next = (this.next + 1) % this.buffer.length;
    if (this.size < this.buffer.length) this.size++;
    if (RANK[level] >= this.echoRank) echo(entry);
  }
}

function echo(entry: LogEntry): void {
  const text = entry.span ? `[otto] ${entry.msg} (${entry.durationMs}ms)` : `[otto] ${entry.msg}`;
  const args: unknown[] = entry.fields ? [text, entry.fields] : [text];
  if (entry.level === 'error') console.error(...args);
  else if (entry.level === 'warn') console.warn(...args);
  else if (entry.level === 'info') console.info(...args);
  else console.debug(...args);
}

/** The service worker's shared logger. */
export const log = new Logger();
