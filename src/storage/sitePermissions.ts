/**
 * Origins where the user chose "always allow on this site": destructive tool calls acting on a page of such an
 * origin run without asking. Kept per origin (`https://example.com`), revocable.
 *
 * Also the pairs of sites where the user chose "always" for a data flow (data read from `from` may go to `to`), in
 * the same store under the key `flow <from> -> <to>` (no migration; `list` leaves them out).
 */
import type { IDBPDatabase } from 'idb';
import { db as sharedDb, type OttoDB } from './db.ts';
import type { SitePermissionRecord } from './runRecords.ts';

type Db = IDBPDatabase<OttoDB>;

const FLOW_PREFIX = 'flow ';
const flowKey = (from: string, to: string): string => `${FLOW_PREFIX}${from} -> ${to}`;

export class SitePermissions {
  readonly #db: Promise<Db>;
  readonly #now: () => number;

  constructor(database: Db | Promise<Db> = sharedDb(), opts: { now?: () => number } = {}) {
    this.#db = Promise.resolve(database);
    this.#now = opts.now ?? Date.now;
  }

  async allow(origin: string): Promise<void> {
    await (await this.#db).put('sitePermissions', { origin, grantedAt: this.#now() });
  }

  async isAllowed(origin: string | undefined): Promise<boolean> {
    if (!origin) return false;
    return (await (await this.#db).getKey('sitePermissions', origin)) !== undefined;
  }

  async revoke(origin: string): Promise<void> {
    await (await this.#db).delete('sitePermissions', origin);
  }

  async list(): Promise<SitePermissionRecord[]> {
    return (await (await this.#db).getAll('sitePermissions')).filter((r) => !r.origin.startsWith(FLOW_PREFIX));
  }

  async allowFlow(from: string, to: string): Promise<void> {
    await (await this.#db).put('sitePermissions', { origin: flowKey(from, to), grantedAt: this.#now() });
  }

  async isFlowAllowed(from: string, to: string): Promise<boolean> {
    return (await (await this.#db).getKey('sitePermissions', flowKey(from, to))) !== undefined;
  }

  async revokeFlow(from: string, to: string): Promise<void> {
    await (await this.#db).delete('sitePermissions', flowKey(from, to));
  }
}
