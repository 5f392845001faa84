import { describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { DB_VERSION, openOttoDB } from '../../src/storage/db.ts';

describe('IndexedDB schema', () => {
  it('creates every store of the current version on a new profile', async () => {
    const db = await openOttoDB(`fresh-${Math.random()}`);
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames]).toEqual(expect.arrayContaining(['meta', 'conversations', 'items']));
    db.close();
  });

  it('upgrades a version-1 database in place, keeping its data', async () => {
    const name = `old-${Math.random()}`;
    const v1 = await openDB(name, 1, {
      upgrade(db) {
        db.createObjectStore('meta', { keyPath: 'key' });
        db.createObjectStore('conversations', { keyPath: 'id' }).createIndex('byUpdated', 'updatedAt');
        db.createObjectStore('items', { keyPath: ['conversationId', 'seq'] }).createIndex(
          'byConversation',
          'conversationId',
        );
      },
    });
    await v1.put('meta', { key: 'k', value: 42, updatedAt: 1 });
    v1.close();
    const db = await openOttoDB(name);
    expect(db.version).toBe(DB_VERSION);
    expect((await db.get('meta', 'k'))?.value).toBe(42);
    db.close();
  });
});
