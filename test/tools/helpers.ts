// Shared fixtures for the tools tests: a context with its own logger, and a reader for [TOOL EXECUTION] lines.
import { Logger, type LogEntry } from '../../src/shared/log.ts';
import { toolContext } from '../support/toolContext.ts';

/** The shared test context (test/support/toolContext.ts), under the name these tests know. */
export const makeCtx = toolContext;

export function newLogger(): Logger {
  return new Logger({ capacity: 10_000 });
}

/** The interceptor's lines only, in order. */
export function toolLines(logger: Logger): string[] {
  return logger
    .entries()
    .filter((e: LogEntry) => e.msg.startsWith('[TOOL EXECUTION]'))
    .map((e) => e.msg);
}
