/**
 * Otto's one IndexedDB database, opened through idb. The schema is versioned: `MIGRATIONS[n]` upgrades a database
 * from version n to n+1, and opening runs every step between the stored version and `DB_VERSION` in order, so a
 * profile several versions behind upgrades in one go. Later issues add a step; they never edit an old one.
 */
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import type { ConversationRecord, ItemRecord, MetaRecord } from './records.ts';
import type { SitePermissionRecord } from './runRecords.ts';
import type { StoredRunState } from './runStateSchema.ts';
import type { ScheduleRunRecord } from './scheduleRunRecord.ts';
import type {
  FileRecord,
  ResultChunkRecord,
  ResultMetaRecord,
  StatsRollupRecord,
  StoredModelRequest,
  StoredSaving,
  StoredToolCall,
} from './resultRecords.ts';

export const DB_NAME = 'otto';

export interface OttoDB extends DBSchema {
  meta: { key: string; value: MetaRecord };
  conversations: { key: string; value: ConversationRecord; indexes: { byUpdated: number } };
  items: { key: [string, number]; value: ItemRecord; indexes: { byConversation: string } };
  runs: { key: string; value: StoredRunState };
  sitePermissions: { key: string; value: SitePermissionRecord };
  results: { key: string; value: ResultMetaRecord; indexes: { byExpires: number } };
  resultChunks: { key: [string, number]; value: ResultChunkRecord };
  statsToolCalls: { key: number; value: StoredToolCall; indexes: { byTs: number; byToolTs: [string, number] } };
  statsModelRequests: { key: number; value: StoredModelRequest; indexes: { byTs: number } };
  statsSavings: { key: number; value: StoredSaving; indexes: { byTs: number } };
  statsRollups: { key: [string, number, string, string]; value: StatsRollupRecord };
  files: { key: string; value: FileRecord; indexes: { byCreated: number } };
  scheduleRuns: { key: string; value: ScheduleRunRecord; indexes: { bySchedule: [string, number] } };
}

type UpgradeTx = IDBPTransaction<OttoDB, StoreNames<OttoDB>[], 'versionchange'>;
type Migration = (db: IDBPDatabase<OttoDB>, tx: UpgradeTx) => void;

const MIGRATIONS: Migration[] = [
  // 0 → 1: key-value metadata, conversations, and their transcript items keyed by (conversation, sequence).
  (db) => {
    db.createObjectStore('meta', { keyPath: 'key' });
    const conv = db.createObjectStore('conversations', { keyPath: 'id' });
    conv.createIndex('byUpdated', 'updatedAt');
    const items = db.createObjectStore('items', { keyPath: ['conversationId', 'seq'] });
    items.createIndex('byConversation', 'conversationId');
  },
  // 1 → 2: the agent's run state per conversation (resumable after the worker dies), and the origins where the user
  // chose "always allow on this site" for destructive tools.
  (db) => {
    db.createObjectStore('runs', { keyPath: 'conversationId' });
    db.createObjectStore('sitePermissions', { keyPath: 'origin' });
  },
  // 2 → 3: large tool results (meta by handle, with an expiry index for the TTL sweep; text in chunks of lines keyed
  // (handle, chunk index)); statistics (raw tool calls, model requests and savings by time, tool calls also by
  // (tool, time); hourly and daily rollups keyed (resolution, bucket start, kind, name)); generic files.
  (db) => {
    db.createObjectStore('results', { keyPath: 'handle' }).createIndex('byExpires', 'expiresAt');
    db.createObjectStore('resultChunks', { keyPath: ['handle', 'index'] });
    const calls = db.createObjectStore('statsToolCalls', { keyPath: 'id', autoIncrement: true });
    calls.createIndex('byTs', 'ts');
    calls.createIndex('byToolTs', ['tool', 'ts']);
    db.createObjectStore('statsModelRequests', { keyPath: 'id', autoIncrement: true }).createIndex('byTs', 'ts');
    db.createObjectStore('statsSavings', { keyPath: 'id', autoIncrement: true }).createIndex('byTs', 'ts');
    db.createObjectStore('statsRollups', { keyPath: ['res', 'start', 'kind', 'name'] });
    db.createObjectStore('files', { keyPath: 'name' }).createIndex('byCreated', 'createdAt');
  },
  // 3 → 4: the history of scheduled runs (#46), one record per run, by (schedule, start time).
  (db) => {
    db.createObjectStore('scheduleRuns', { keyPath: 'id' }).createIndex('bySchedule', ['scheduleId', 'started']);
  },
];

export const DB_VERSION = MIGRATIONS.length;

export function openOttoDB(name = DB_NAME): Promise<IDBPDatabase<OttoDB>> {
  return openDB<OttoDB>(name, DB_VERSION, {
    upgrade(db, oldVersion, _newVersion, tx) {
      for (let v = oldVersion; v < DB_VERSION; v++) MIGRATIONS[v]!(db, tx);
    },
    blocking(_current, _next, event) {
      // Another context wants a newer schema: step aside so its upgrade is not blocked forever.
      (event.target as IDBDatabase).close();
    },
  });
}

let shared: Promise<IDBPDatabase<OttoDB>> | undefined;
/** The database of this context, opened once. */
export function db(): Promise<IDBPDatabase<OttoDB>> {
  shared ??= openOttoDB();
  return shared;
}
