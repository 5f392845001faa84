/**
 * A count of every message that reached the worker, accepted or dropped, by channel. It is how tests (and a curious
 * developer in DevTools) can see that a forged message reached nothing.
 */
export interface Traffic {
  accepted: number;
  rejected: number;
  lastRejection?: string;
}

export const traffic: Record<'port' | 'runtime', Traffic> = {
  port: { accepted: 0, rejected: 0 },
  runtime: { accepted: 0, rejected: 0 },
};

export function reject(channel: keyof typeof traffic, why: string): void {
  traffic[channel].rejected++;
  traffic[channel].lastRejection = why;
}
