// The worker's structured logger: levels, bounded ring buffer, spans, console echo, and the redaction hook.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Logger, MAX_LOG_TEXT, previewValue, setRedactor } from '../../src/shared/log.ts';

afterEach(() => {
  setRedactor();
  vi.restoreAllMocks();
});

describe('Logger', () => {
  it('keeps entries {ts, level, msg, fields} oldest first', () => {
    const logger = new Logger();
    logger.info('hello', { n: 1 });
    logger.warn('careful');
    const [a, b] = logger.entries();
    expect(a).toMatchObject({ level: 'info', msg: 'hello', fields: { n: 1 } });
    expect(typeof a!.ts).toBe('number');
    expect(b).toEqual({ ts: expect.any(Number), level: 'warn', msg: 'careful' });
  });

  it('the ring buffer is bounded: the oldest entries are overwritten', () => {
    const logger = new Logger({ capacity: 3 });
    for (let i = 0; i < 10; i++) logger.info(`m${i}`);
    expect(logger.entries().map((e) => e.msg)).toEqual(['m7', 'm8', 'm9']);
    logger.clear();
    expect(logger.entries()).toEqual([]);
  });

  it('entries below the level are dropped; enabled() says so before any work', () => {
    const logger = new Logger({ level: 'warn' });
    logger.debug('d');
    logger.info('i');
    logger.error('e');
    expect(logger.enabled('debug')).toBe(false);
    expect(logger.enabled('error')).toBe(true);
    expect(logger.entries().map((e) => e.msg)).toEqual(['e']);
  });

  it('entries() filters by level, time and count', () => {
    const logger = new Logger();
    logger.debug('a');
    logger.error('b');
    logger.error('c');
    expect(logger.entries({ level: 'error' }).map((e) => e.msg)).toEqual(['b', 'c']);
    expect(logger.entries({ limit: 1 }).map((e) => e.msg)).toEqual(['c']);
    expect(logger.entries({ since: Date.now() + 60_000 })).toEqual([]);
  });

  it('a span writes one entry with its name, fields and duration', async () => {
    const logger = new Logger();
    const span = logger.span('llm.transform', { model: 'm' });
    await new Promise((r) => setTimeout(r, 15));
    span.end({ chars: 10 });
    span.end(); // ignored
    const [entry] = logger.entries();
    expect(logger.entries()).toHaveLength(1);
    expect(entry).toMatchObject({
      level: 'info',
      msg: 'llm.transform',
      span: 'llm.transform',
      fields: { model: 'm', chars: 10 },
    });
    expect(entry!.durationMs).toBeGreaterThanOrEqual(10);
  });

  it('a failed span is an error entry carrying the message; withSpan rethrows', async () => {
    const logger = new Logger();
    await expect(logger.withSpan('ot.tools', undefined, () => Promise.reject(new Error('nope')))).rejects.toThrow(
      'nope',
    );
    expect(await logger.withSpan('ot.tools', { q: 'x' }, () => 5)).toBe(5);
    const [failed, ok] = logger.entries();
    expect(failed).toMatchObject({ level: 'error', span: 'ot.tools', fields: { error: 'nope' } });
    expect(ok).toMatchObject({ level: 'info', span: 'ot.tools', fields: { q: 'x' } });
  });

  it('console echo is off by default and follows its own level when on', () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const quiet = new Logger();
    quiet.error('x');
    expect(error).not.toHaveBeenCalled();
    const loud = new Logger({ console: 'warn' });
    loud.debug('d');
    loud.error('boom', { a: 1 });
    expect(debug).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalledWith('[otto] boom', { a: 1 });
  });
});

describe('Redaction', () => {
  it('every message and field passes through the redactor set at startup', () => {
    setRedactor((text) => text.split('s3cret-value').join('[redacted]'));
    const logger = new Logger();
    logger.info('token s3cret-value here', { header: 'Bearer s3cret-value', nested: { deep: ['s3cret-value'] }, n: 3 });
    const text = JSON.stringify(logger.entries());
    expect(text).not.toContain('s3cret-value');
    expect(logger.entries()[0]!.fields).toMatchObject({ header: 'Bearer [redacted]', n: 3 });
  });

  it('span names, fields and echoed console text are redacted as well', () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    setRedactor((text) => text.replaceAll('TOPSECRET', '***'));
    const logger = new Logger({ console: 'debug' });
    logger.span('call TOPSECRET', { key: 'TOPSECRET' }).end();
    expect(JSON.stringify(logger.entries())).not.toContain('TOPSECRET');
    expect(JSON.stringify(info.mock.calls)).not.toContain('TOPSECRET');
  });

  it('without a configured redactor, OpenAI-shaped keys are still masked', () => {
    const logger = new Logger();
    logger.error('auth failed for sk-abcdef1234567890');
    expect(logger.entries()[0]!.msg).toBe('auth failed for [redacted]');
  });

  it('huge strings are bounded so one entry cannot pin megabytes', () => {
    const logger = new Logger();
    logger.info('x'.repeat(1_000_000), { big: 'y'.repeat(1_000_000) });
    const [entry] = logger.entries();
    expect(entry!.msg.length).toBeLessThanOrEqual(MAX_LOG_TEXT + 1);
    expect((entry!.fields!.big as string).length).toBeLessThanOrEqual(MAX_LOG_TEXT + 1);
  });
});

describe('previewValue', () => {
  it('renders JSON-like text, bare strings, and stops at max + 1 characters', () => {
    expect(previewValue({ a: [1, 'b'], c: null }, 100)).toBe('{"a":[1,"b"],"c":null}');
    expect(previewValue('plain', 100)).toBe('plain');
    const big = Array.from({ length: 100_000 }, (_, i) => i);
    expect(previewValue(big, 20)).toHaveLength(21);
  });

  it('survives cycles', () => {
    const a: Record<string, unknown> = { x: 1 };
    a.self = a;
    expect(previewValue(a, 100)).toBe('{"x":1,"self":{…}}');
  });
});
