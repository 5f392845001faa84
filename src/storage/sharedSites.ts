/**
 * Sites whose tabs the user chose to "always" share with Otto (#27): a tab of such an origin joins a run's tab group
 * without a question. Kept in the `meta` store (one small list; no schema step needed), revocable from settings.
 */
import { getMeta, putMeta } from './meta.ts';

export interface SharedSite {
  /** `https://bank.example` */
  origin: string;
  grantedAt: number;
}

const KEY = 'tabs.sharedSites';

export class SharedSites {
  readonly #read: () => Promise<SharedSite[] | undefined>;
  readonly #write: (sites: SharedSite[]) => Promise<void>;
  readonly #now: () => number;

  constructor(
    opts: {
      read?: () => Promise<SharedSite[] | undefined>;
      write?: (sites: SharedSite[]) => Promise<void>;
      now?: () => number;
    } = {},
  ) {
    this.#read = opts.read ?? (() => getMeta<SharedSite[]>(KEY));
    this.#write = opts.write ?? ((sites) => putMeta(KEY, sites));
    this.#now = opts.now ?? Date.now;
  }

  async list(): Promise<SharedSite[]> {
    const sites = await this.#read();
    return Array.isArray(sites) ? sites : [];
  }

  async has(origin: string | undefined): Promise<boolean> {
    if (!origin) return false;
    return (await this.list()).some((s) => s.origin === origin);
  }

  async add(origin: string): Promise<void> {
    const sites = await this.list();
    if (sites.some((s) => s.origin === origin)) return;
    await this.#write([...sites, { origin, grantedAt: this.#now() }]);
  }

  /** Returns whether the origin was listed. */
  async revoke(origin: string): Promise<boolean> {
    const sites = await this.list();
    const rest = sites.filter((s) => s.origin !== origin);
    if (rest.length === sites.length) return false;
    await this.#write(rest);
    return true;
  }
}
