/**
 * Conversations, their transcripts and their run state.
 *
 * A transcript is a list of Responses API items (user/assistant messages, reasoning, function_call,
 * function_call_output) plus Otto's local annotations (`otto.*` items, never sent to the model), each stored as its
 * own record keyed by (conversationId, seq) with `seq` contiguous from 0. Items are written as they complete. `append` and `truncate` optionally write the conversation's RunState in the same transaction, so an item
 * and the state that accounts for it are never out of step, whenever the worker dies.
 */
import type { IDBPDatabase, IDBPObjectStore } from 'idb';
import { db as sharedDb, type OttoDB } from './db.ts';
import type { AnswerLink } from '../shared/answerLink.ts';
import type { ConversationRecord, ItemRecord } from './records.ts';
import type { RunState } from './runRecords.ts';
import { StoredRunStateError, fromStored, toStored } from './runStateSchema.ts';

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
  /** Origin labels per item (same order as the items; data-flow guard, #23): kept on the item's record. */
  labels?: readonly (readonly string[] | undefined)[];
  /** The link verdicts per item (same order; assistant messages, issue #42 part 3): kept on the item's record. */
  links?: readonly (readonly AnswerLink[] | undefined)[];
  /** Sets the conversation's title from this text when it has none yet (first user message). */
  titleIfEmpty?: string;
  /**
   * The seq the first item gets, when the caller knows the transcript's length (the agent's RunSession keeps a copy
   * of it). Saves reading the last item; a seq that is already taken fails the write (ConstraintError), so a wrong
   * count can never overwrite an item. Omitted: after the last stored item.
   */
  seq?: number;
  /**
   * Whether writing items moves the conversation's `updatedAt` (its place in the list). Default true. The agent
   * passes false for the items of a run in progress: the user's message and the run's end move it, the steps between
   * need not cost a read and a write of the conversation record each.
   */
  touch?: boolean;
}

/** All items of one conversation: [id, 0] .. [id, +∞]. */
function range(conversationId: string, fromSeq = 0): IDBKeyRange {
  return IDBKeyRange.bound([conversationId, fromSeq], [conversationId, Infinity]);
}

/** The last item of a conversation's transcript, read in `store`'s transaction. */
async function lastItem(
  store: IDBPObjectStore<OttoDB, ['conversations', 'items', 'runs'], 'items', 'readwrite'>,
  conversationId: string,
): Promise<ItemRecord | undefined> {
  return (await store.openCursor(range(conversationId), 'prev'))?.value;
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
    const rec: ConversationRecord = {
      id: opts.id ?? this.#newId(),
      title: opts.title ?? '',
      createdAt: now,
      updatedAt: now,
    };
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
   *
   * Requests that depend on nothing are issued at once (the run state; the items, when the caller knows their seq),
   * so a step of the loop costs one round trip to IndexedDB plus the transaction's commit.
   */
  async append(
    conversationId: string,
    items: readonly Record<string, unknown>[],
    opts: AppendOptions = {},
  ): Promise<ItemRecord[]> {
    const tx = (await this.#db).transaction(['conversations', 'items', 'runs'], 'readwrite');
    const now = this.#now();
    const pending: Promise<unknown>[] = [];
    // Awaited together at the end; until then a rejection (the abort reaching every request) is not "unhandled".
    const track = <T>(p: Promise<T>): Promise<T> => {
      p.catch(() => undefined);
      pending.push(p);
      return p;
    };
    track(tx.done);
    const written: ItemRecord[] = [];
    const add = (first: number) => {
      for (const [i, item] of items.entries()) {
        const rec: ItemRecord = { conversationId, seq: first + i, createdAt: now, item };
        const labels = opts.labels?.[i];
        if (labels?.length) rec.labels = [...labels];
        const links = opts.links?.[i];
        if (links?.length) rec.links = links.map((l) => ({ ...l, from: [...l.from], values: [...l.values] }));
        track(tx.objectStore('items').add(rec));
        written.push(rec);
      }
    };
    try {
      // Independent of any read: issued at once. If the conversation turns out not to exist, the abort undoes them.
      if (opts.run) track(tx.objectStore('runs').put(toStored(opts.run)));
      if (items.length && opts.seq !== undefined) add(opts.seq);
      // Without a touch, only the conversation's existence matters: its key, not its record.
      const touch = items.length > 0 && opts.touch !== false;
      const convs = tx.objectStore('conversations');
      const last =
        items.length && opts.seq === undefined ? track(lastItem(tx.objectStore('items'), conversationId)) : undefined;
      const conv = touch ? await convs.get(conversationId) : await convs.getKey(conversationId);
      if (conv === undefined) throw new ConversationNotFoundError(conversationId);
      if (touch) {
        const rec = conv as ConversationRecord;
        const title = rec.title || (opts.titleIfEmpty ? titleFrom(opts.titleIfEmpty) : '');
        track(convs.put({ ...rec, title, updatedAt: Math.max(now, rec.updatedAt) }));
      }
      if (last) add(((await last)?.seq ?? -1) + 1);
      await Promise.all(pending);
      return written;
    } catch (err) {
      // A failed request has aborted the transaction already (its error is the transaction's, while the request
      // awaited here may only report the abort); a missing conversation aborts it here. Either way nothing of this
      // call is written, and the promises still pending settle with the abort.
      const cause = tx.error ?? err;
      try {
        tx.abort();
      } catch {
        // Already finished or aborting.
      }
      await Promise.allSettled(pending);
      throw cause;
    }
  }

  /** The conversation, its run state and its transcript, read in one transaction (a consistent snapshot). */
  async load(
    conversationId: string,
  ): Promise<{ conversation?: ConversationRecord; run?: RunState; items: ItemRecord[] }> {
    const tx = (await this.#db).transaction(['conversations', 'runs', 'items']);
    const [conversation, run, items] = await Promise.all([
      tx.objectStore('conversations').get(conversationId),
      tx.objectStore('runs').get(conversationId),
      tx.objectStore('items').getAll(range(conversationId)),
    ]);
    return { ...(conversation ? { conversation } : {}), ...(run ? { run: fromStored(run) } : {}), items };
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
    if (run) await tx.objectStore('runs').put(toStored(run));
    await tx.done;
    return n;
  }

  // ---- run state -------------------------------------------------------------------------------------------------

  /** The run state, checked (runStateSchema.ts): throws StoredRunStateError for one this version cannot use. */
  async getRun(conversationId: string): Promise<RunState | undefined> {
    const raw = await (await this.#db).get('runs', conversationId);
    return raw ? fromStored(raw) : undefined;
  }

  async putRun(run: RunState): Promise<void> {
    await (await this.#db).put('runs', toStored(run));
  }

  /** Every run state this version can use; one it cannot is passed by (its conversation reports it when opened). */
  async listRuns(): Promise<RunState[]> {
    const out: RunState[] = [];
    for (const raw of await (await this.#db).getAll('runs')) {
      try {
        out.push(fromStored(raw));
      } catch (err) {
        if (!(err instanceof StoredRunStateError)) throw err;
      }
    }
    return out;
  }

  /**
   * Marks a run found `running` as `interrupted`, re-reading it in the same transaction (so a run that moved on
   * meanwhile is left alone). Returns the updated state, or undefined when it was not running.
   */
  async markInterrupted(conversationId: string, now = this.#now()): Promise<RunState | undefined> {
    const tx = (await this.#db).transaction('runs', 'readwrite');
    const raw = await tx.store.get(conversationId);
    let run: RunState | undefined;
    try {
      run = raw && fromStored(raw);
    } catch (err) {
      if (!(err instanceof StoredRunStateError)) throw err; // a state this version cannot use is left as it is
    }
    if (!run || run.status !== 'running') {
      await tx.done;
      return undefined;
    }
    const next: RunState = { ...run, status: 'interrupted', stopReason: 'interrupted', updatedAt: now };
    await tx.store.put(toStored(next));
    await tx.done;
    return next;
  }
}
