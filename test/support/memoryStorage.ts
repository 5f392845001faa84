/**
 * An in-memory `chrome.storage` area for unit tests: `get` of a key or a list of keys answers only the keys it
 * holds, `set` merges. Values are copied on the way in and out, as Chrome serialises them, so a test cannot pass by
 * mutating what it read. `data` is the stored state, for asserting on what was (or was not) written.
 */
export type MemoryStorage = chrome.storage.LocalStorageArea & { data: Record<string, unknown> };

export function memoryStorage(): MemoryStorage {
  const data: Record<string, unknown> = {};
  return {
    data,
    async get(keys: string | string[]) {
      const out: Record<string, unknown> = {};
      for (const k of Array.isArray(keys) ? keys : [keys]) if (k in data) out[k] = structuredClone(data[k]);
      return out;
    },
    async set(items: Record<string, unknown>) {
      Object.assign(data, structuredClone(items));
    },
  } as unknown as MemoryStorage;
}
