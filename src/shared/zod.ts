/**
 * The one place zod is imported from. MV3 pages and the service worker forbid `new Function`, and zod v4 probes
 * for it unless `jitless` is set before any schema is defined — so every module takes `z` from here.
 */
import { z } from 'zod';

z.config({ jitless: true });

export { z };
