/** Proxy tool results as the reference formats them. */
import { describe, expect, it } from 'vitest';
import { EMPTY_RESPONSE, formatCallResult, McpToolError } from '../../src/mcp/index.ts';

describe('formatCallResult', () => {
  it('joins text parts with newlines', () => {
    expect(
      formatCallResult({
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      }),
    ).toBe('one\ntwo');
  });

  it('summarises binary parts as [Binary content: <type>]', () => {
    expect(
      formatCallResult({
        content: [
          { type: 'text', text: 'a chart' },
          { type: 'image', data: 'iVBOR', mimeType: 'image/png' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
          { type: 'resource', resource: { uri: 'file:///a.pdf', blob: 'JVBER', mimeType: 'application/pdf' } },
        ],
      }),
    ).toBe('a chart\n[Binary content: image/png]\n[Binary content: audio/wav]\n[Binary content: application/pdf]');
  });

  it('an empty result is "Tool returned empty response."', () => {
    expect(formatCallResult({ content: [] })).toBe(EMPTY_RESPONSE);
    expect(formatCallResult({ content: [{ type: 'text', text: '   ' }] })).toBe('Tool returned empty response.');
    expect(formatCallResult({})).toBe(EMPTY_RESPONSE);
  });

  it('embedded text resources, resource links and structured-only results are surfaced', () => {
    expect(
      formatCallResult({ content: [{ type: 'resource', resource: { uri: 'mem://x', text: 'inline text' } }] }),
    ).toBe('inline text');
    expect(formatCallResult({ content: [{ type: 'resource_link', uri: 'https://e.x/doc', name: 'doc' }] })).toBe(
      '[Resource: doc https://e.x/doc]',
    );
    expect(formatCallResult({ content: [], structuredContent: { sum: 3 } })).toBe('{"sum":3}');
    expect(formatCallResult({ toolResult: { legacy: true } })).toBe('{"legacy":true}');
  });

  it('isError results are errors carrying the server text', () => {
    expect(() => formatCallResult({ isError: true, content: [{ type: 'text', text: 'quota exceeded' }] })).toThrow(
      new McpToolError('quota exceeded'),
    );
    expect(() => formatCallResult({ isError: true, content: [] })).toThrow(
      'The tool reported an error without a message.',
    );
  });
});
