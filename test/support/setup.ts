// Unit tests run in node: give them an in-memory IndexedDB and jitless zod, as in the extension.
import 'fake-indexeddb/auto';
import '../../src/shared/zod.ts';
