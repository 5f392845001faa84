/**
 * Conversations, their transcripts and their run state.
 *
 * A transcript is a list of Responses API items (user/assistant messages, reasoning, function_call,
 * function_call_output) plus Otto's local annotations (`otto.*` items, never sent to the model), each stored as its
 * own record keyed by (conversationId, seq) with `seq` contiguous from 0. Items are written one at a time as they
 * complete. `append` and `truncate` optionally write the conversation's RunState in the same transaction, so an item
 * and the state that accounts for it are never out of step, whenever the worker dies.
 */
import type { IDBPDatabase } from 'idb';
import { db as sharedDb, type OttoDB } from './db.ts';
import type { ConversationRecord, ItemRecord } from './records.ts';
import type { RunState } from './runRecords.ts';

type Db = IDBPDatabase<OttoDB>;

export class ConversationNotFoundError extends Error {
  constructor(readonly conversationId: string) {
    super(`conversation '${conversationId}' not found`);
    this.name = 'ConversationNotFoundError';
  }
}

export interface AppendOptions {
  /** Written in the same transaction as the items. */
  run?: RunState;
  /** Sets the conversation's title from this text when it has none yet (first user message). */
  titleIfEmpty?: string;
}

/** All items of one conversation: [id, 0] .. [id, +∞]. */
function range(conversationId: string, fromSeq = 0): IDBKeyRange {
  return IDBKeyRange.bound([conversationId, fromSeq], [conversationId, Infinity]);
}

/** A title from the first line of a message, at most 60 characters. */
export function titleFrom(text: string): string {
  const line = text.trim().split(/\r?\n/, 1)[0]?.trim() ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

export class ConversationStore {
  readonly #db: Promise<Db>;
  readonly #now: () => number;
  readonly #newId: () => string;

  constructor(database: Db | Promise<Db> = sharedDb(), opts: { now?: () => number; newId?: () => string } = {}) {
    this.#db = Promise.resolve(database);
    this.#now = opts.now ?? Date.now;
    this.#newId = opts.newId ?? (() => crypto.randomUUID());
  }

  // ---- conversations ---------------------------------------------------------------------------------------------

  async create(opts: { id?: string; title?: string } = {}): Promise<ConversationRecord> {
    const now = this.#now();
    const rec: ConversationRecord = { id: opts.id ?? this.#newId(), title: opts.title ?? '', createdAt: now, updatedAt: now };
    await (await this.#db).add('conversations', rec);
    return rec;
  }

  async get(id: string): Promise<ConversationRecord | undefined> {
    return (await this.#db).get('conversations', id);
  }

  /** Newest activity first. */
  async list(): Promise<ConversationRecord[]> {
    const all = await (await this.#db).getAllFromIndex('conversations', 'byUpdated');
    return all.reverse();
  }

  async rename(id: string, title: string): Promise<ConversationRecord> {
    const tx = (await this.#db).transaction('conversations', 'readwrite');
    const rec = await tx.store.get(id);
    if (!rec) throw new ConversationNotFoundError(id);
    const next = { ...rec, title: title.trim() };
    await tx.store.put(next);
    await tx.done;
    return next;
  }

  /** Removes the conversation, all its items and its run state. Returns false when it did not exist. */
  async delete(id: string): Promise<boolean> {
    const tx = (await this.#db).transaction(['conversations', 'items', 'runs'], 'readwrite');
    const existed = (await tx.objectStore('conversations').getKey(id)) !== undefined;
    await Promise.all([
      tx.objectStore('conversations').delete(id),
      tx.objectStore('items').delete(range(id)),
      tx.objectStore('runs').delete(id),
    ]);
    await tx.done;
    return existed;
  }

  // ---- transcript ------------------------------------------------------------------------------------------------

  /**
   * Appends items at the end of the transcript (contiguous seq, even for concurrent callers) and, in the same
   * transaction, writes `opts.run`. With no items, only the run state is written. Throws ConversationNotFoundError
   * (and writes nothing) when the conversation does not exist.
   */
  async append(conversationId: string, items: readonly Record<string, unknown>[], opts: AppendOptions = {}): Promise<ItemRecord[]> {
    const tx = (await this.#db).transaction(['conversations', 'items', 'runs'], 'readwrite');
    const convs = tx.objectStore('conversations');
    const store = tx.objectStore('items');
    // Reads in parallel, writes issued together and awaited once through tx.done: one transaction either way, but
    // each sequential await costs a turn of the event loop on the agent's critical path.
    const [conv, last] = await Promise.all([
      convs.get(conversationId),
      items.length ? store.openCursor(range(conversationId), 'prev') : Promise.resolve(null),
    ]);
    if (!conv) {
      tx.abort();
      await tx.done.catch(() => undefined);
      throw new ConversationNotFoundError(conversationId);
    }
    const now = this.#now();
    const written: ItemRecord[] = [];
    const writes: Promise<unknown>[] = [];
    if (items.length) {
      let seq = last ? last.value.seq + 1 : 0;
      for (const item of items) {
        const rec: ItemRecord = { conversationId, seq: seq++, createdAt: now, item };
        writes.push(store.add(rec));
        written.push(rec);
      }
      const title = conv.title || (opts.titleIfEmpty ? titleFrom(opts.titleIfEmpty) : '');
      writes.push(convs.put({ ...conv, title, updatedAt: Math.max(now, conv.updatedAt) }));
    }
    if (opts.run) writes.push(tx.objectStore('runs').put(opts.run));
    // A failed write aborts the transaction, which tx.done reports; the individual rejections are the same error.
    for (const w of writes) w.catch(() => undefined);
    await tx.done;
    return written;
  }

  /** The transcript in order (from `fromSeq`, default 0). */
  async transcript(conversationId: string, fromSeq = 0): Promise<ItemRecord[]> {
    return (await this.#db).getAll('items', range(conversationId, fromSeq));
  }

  /** Number of items, which is also the next seq. */
  async length(conversationId: string): Promise<number> {
    const cursor = await (await this.#db).transaction('items').store.openCursor(range(conversationId), 'prev');
    return cursor ? cursor.value.seq + 1 : 0;
  }

  /**
   * Removes every item with seq ≥ fromSeq (the tail only, so seq stays contiguous) and writes `run` in the same
   * transaction. Returns how many items were removed.
   */
  async truncate(conversationId: string, fromSeq: number, run?: RunState): Promise<number> {
    const tx = (await this.#db).transaction(['items', 'runs'], 'readwrite');
    const items = tx.objectStore('items');
    const n = await items.count(range(conversationId, fromSeq));
    if (n) await items.delete(range(conversationId, fromSeq));
    if (run) await tx.objectStore('runs').put(run);
    await tx.done;
    return n;
  }

  // ---- run state -------------------------------------------------------------------------------------------------

  async getRun(conversationId: string): Promise<RunState | undefined> {
    return (await this.#db).get('runs', conversationId);
  }

  async putRun(run: RunState): Promise<void> {
    await (await this.#db).put('runs', run);
  }

  async listRuns(): Promise<RunState[]> {
    return (await this.#db).getAll('runs');
  }

  /**
   * Marks a run found `running` as `interrupted`, re-reading it in the same transaction (so a run that moved on
   * meanwhile is left alone). Returns the updated state, or undefined when it was not running.
   */
  async markInterrupted(conversationId: string, now = this.#now()): Promise<RunState | undefined> {
    const tx = (await this.#db).transaction('runs', 'readwrite');
    const run = await tx.store.get(conversationId);
    if (!run || run.status !== 'running') {
      await tx.done;
      return undefined;
    }
    const next: RunState = { ...run, status: 'interrupted', stopReason: 'interrupted', updatedAt: now };
    await tx.store.put(next);
    await tx.done;
    return next;
  }
}
