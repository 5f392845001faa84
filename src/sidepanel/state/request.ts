/** How the store's slices talk to the worker: one typed request over the panel port. */
import type { RequestBody } from '../../shared/portClient.ts';

export type Request = <T>(body: RequestBody) => Promise<T>;
