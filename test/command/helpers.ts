import { expect } from 'vitest';
import { CommandError, type CallFn, type SourcePosition } from '../../src/command/index.ts';

/** Runs `fn`, expects a CommandError, and returns it. */
export function catchCommandError(fn: () => unknown): CommandError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CommandError);
    return error as CommandError;
  }
  throw new Error('expected a CommandError, but nothing was thrown');
}

export async function catchCommandErrorAsync(fn: () => Promise<unknown>): Promise<CommandError> {
  try {
    await fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CommandError);
    return error as CommandError;
  }
  throw new Error('expected a CommandError, but nothing was thrown');
}

export interface RecordedCall {
  name: string;
  args: Record<string, unknown>;
  position: SourcePosition;
}

/** A fake `call` that records every invocation and returns `result(name, args)` (default: `<name>`). */
export function recordingCall(
  result: (name: string, args: Record<string, unknown>) => unknown = (name) => `<${name}>`,
): {
  call: CallFn;
  calls: RecordedCall[];
} {
  const calls: RecordedCall[] = [];
  const call: CallFn = async (name, args, position) => {
    calls.push({ name, args, position });
    return result(name, args);
  };
  return { call, calls };
}
