/** Small key-value records (settings caches, markers) in the `meta` store. */
import { db } from './db.ts';

export async function putMeta(key: string, value: unknown): Promise<void> {
  await (await db()).put('meta', { key, value, updatedAt: Date.now() });
}

export async function getMeta<T = unknown>(key: string): Promise<T | undefined> {
  const rec = await (await db()).get('meta', key);
  return rec?.value as T | undefined;
}
