/**
 * Settles like `promise`, or rejects as soon as `signal` aborts — so an operation that ignores its signal cannot
 * hold up whoever is waiting on it. `reason` builds the rejection (default: the signal's own reason).
 */
export function raceAbort<T>(
  promise: Promise<T>,
  signal: AbortSignal,
  reason: () => unknown = () => signal.reason,
): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(reason());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reason());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
