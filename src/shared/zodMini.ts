/**
 * zod's tree-shakable API (`zod/mini`) for code that ships in the content script, which is injected into every
 * frame of every page: the classic `z` namespace costs ~90 KB there, the functions a schema actually uses a
 * fraction of it. Schemas built here are ordinary zod v4 schemas, so the worker parses them like any other.
 * Jitless for the same reason as src/shared/zod.ts (no `new Function` in MV3), and English messages, which
 * zod/mini does not load by itself.
 */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config({ jitless: true, ...en() });

export { z };
