// The schema step for results, statistics and files: a database of the previous version upgrades in place.
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { DB_VERSION, openOttoDB } from '../../src/storage/db.ts';

const NEW_STORES = [
  'results',
  'resultChunks',
  'statsToolCalls',
  'statsModelRequests',
  'statsSavings',
  'statsRollups',
  'files',
];

describe('results/stats/files migration', () => {
  it('a fresh profile has the new stores and their indexes', async () => {
    const db = await openOttoDB(`mig-fresh-${Math.random()}`);
    expect([...db.objectStoreNames]).toEqual(expect.arrayContaining(NEW_STORES));
    const tx = db.transaction(['results', 'statsToolCalls', 'statsModelRequests', 'statsSavings', 'files']);
    expect([...tx.objectStore('results').indexNames]).toEqual(['byExpires']);
    expect([...tx.objectStore('statsToolCalls').indexNames].sort()).toEqual(['byToolTs', 'byTs']);
    expect([...tx.objectStore('statsModelRequests').indexNames]).toEqual(['byTs']);
    expect([...tx.objectStore('statsSavings').indexNames]).toEqual(['byTs']);
    expect([...tx.objectStore('files').indexNames]).toEqual(['byCreated']);
    db.close();
  });

  it('upgrades a database of the version before, keeping its data', async () => {
    const name = `mig-old-${Math.random()}`;
    // Version 2 is the schema before the results/stats/files step (2 → 3): its stores, built as steps 0 → 1 → 2 do.
    const old = await openDB(name, 2, {
      upgrade(db) {
        db.createObjectStore('meta', { keyPath: 'key' });
        db.createObjectStore('conversations', { keyPath: 'id' }).createIndex('byUpdated', 'updatedAt');
        db.createObjectStore('items', { keyPath: ['conversationId', 'seq'] }).createIndex(
          'byConversation',
          'conversationId',
        );
        db.createObjectStore('runs', { keyPath: 'conversationId' });
        db.createObjectStore('sitePermissions', { keyPath: 'origin' });
      },
    });
    await old.put('meta', { key: 'k', value: 7, updatedAt: 1 });
    old.close();
    const db = await openOttoDB(name);
    expect(db.version).toBe(DB_VERSION);
    expect([...db.objectStoreNames]).toEqual(expect.arrayContaining(NEW_STORES));
    expect((await db.get('meta', 'k'))?.value).toBe(7);
    db.close();
  });
});
