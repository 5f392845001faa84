// Shared fixtures for the tools tests: a context with its own logger, and a reader for [TOOL EXECUTION] lines.
import { DEFAULT_CONFIG } from '../../src/config/schema.ts';
import { Logger, type LogEntry } from '../../src/shared/log.ts';
import type { ToolContext } from '../../src/tools/context.ts';

export function makeCtx(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    signal: new AbortController().signal,
    config: DEFAULT_CONFIG,
    getSecret: () => undefined,
    logger: new Logger(),
    callTool: () => Promise.reject(new Error('callTool not wired in this test')),
    ...overrides,
  };
}

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
