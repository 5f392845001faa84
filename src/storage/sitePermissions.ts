/**
 * Origins where the user chose "always allow on this site": destructive tool calls acting on a page of such an
 * origin run without asking. Kept per origin (`https://example.com`), revocable.
 */
import type { IDBPDatabase } from 'idb';
import { db as sharedDb, type OttoDB } from './db.ts';
import type { SitePermissionRecord } from './runRecords.ts';

type Db = IDBPDatabase<OttoDB>;

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
    return (await this.#db).getAll('sitePermissions');
  }
}
