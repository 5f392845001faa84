/**
 * docs/specs/004-tool-sdk.md "Safe HTTP Requests": safeRequest returns [true, data] or [false, message] and never
 * throws.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { safeRequest, type FullResponse } from '../../src/sdk/index.ts';

let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    switch (url.pathname) {
      case '/json':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ ok: true, n: 3 }));
      case '/text':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        return res.end('plain text ✓');
      case '/missing':
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end(`Not here. ${'x'.repeat(500)}`);
      case '/empty-error':
        res.writeHead(503);
        return res.end();
      case '/slow':
        setTimeout(() => res.end('late'), 2000);
        return;
      case '/bad-json':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{nope');
      case '/png':
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': '4' });
        return res.end(Buffer.from([1, 2, 3, 4]));
      case '/big':
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end('y'.repeat(5000));
      case '/latin1':
        res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' });
        return res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9])); // "café"
      case '/drop':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
        res.write('partial');
        setTimeout(() => res.destroy(), 20);
        return;
      default:
        res.writeHead(500);
        res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('Requirement: Safe HTTP Requests', () => {
  it('Scenario: Successful request — (true, data): JSON parsed by content type, text as text', async () => {
    expect(await safeRequest(`${base}/json`)).toEqual([true, { ok: true, n: 3 }]);
    expect(await safeRequest(`${base}/text`)).toEqual([true, 'plain text ✓']);
    expect(await safeRequest(`${base}/text`, { parse: 'text', method: 'GET' })).toEqual([true, 'plain text ✓']);
  });

  it('Scenario: HTTP error — (false, "HTTP error (status): <first 200 characters of the body>")', async () => {
    const [ok, msg] = await safeRequest(`${base}/missing`);
    expect(ok).toBe(false);
    expect(msg).toBe(`HTTP error (404): ${`Not here. ${'x'.repeat(500)}`.slice(0, 200)}`);
    expect(await safeRequest(`${base}/empty-error`)).toEqual([false, 'HTTP error (503): ']);
  });

  it('Scenario: Connection error — a refused connection is (false, "Request failed: <message>")', async () => {
    const [ok, msg] = await safeRequest('http://127.0.0.1:1/nothing-listens-here');
    expect(ok).toBe(false);
    expect(msg).toMatch(/^Request failed: fetch failed/);
  });

  it('a timeout is "Request timeout: ..."', async () => {
    const [ok, msg] = await safeRequest(`${base}/slow`, { timeout: 100 });
    expect(ok).toBe(false);
    expect(msg).toBe(`Request timeout: ${base}/slow did not answer within 0.1 s`);
  });

  it('a connection that breaks mid-body is "Connection error: ..."', async () => {
    const [ok, msg] = await safeRequest(`${base}/drop`);
    expect(ok).toBe(false);
    expect(msg).toMatch(/^Connection error: /);
  });

  it('never throws: a bad URL, bad JSON and a caller abort all come back as messages', async () => {
    expect(await safeRequest('not a url')).toEqual([false, expect.stringMatching(/^Request failed: /)]);
    expect(await safeRequest(`${base}/bad-json`)).toEqual([
      false,
      expect.stringMatching(/^Request failed: invalid JSON/),
    ]);
    const abort = new AbortController();
    abort.abort();
    expect(await safeRequest(`${base}/json`, { signal: abort.signal })).toEqual([
      false,
      expect.stringMatching(/^Request failed: /),
    ]);
  });

  it('parse "full": status, final URL, content type, text or a binary note, and cuts at maxBytes', async () => {
    const [ok, res] = await safeRequest<FullResponse>(`${base}/text`, { parse: 'full' });
    expect(ok).toBe(true);
    expect(res).toMatchObject({
      status: 200,
      url: `${base}/text`,
      binary: false,
      text: 'plain text ✓',
      truncated: false,
    });
    const [, png] = await safeRequest<FullResponse>(`${base}/png`, { parse: 'full' });
    expect(png).toMatchObject({ binary: true, bytes: 4, contentType: 'image/png' });
    expect((png as FullResponse).text).toBeUndefined();
    const [, big] = await safeRequest<FullResponse>(`${base}/big`, { parse: 'full', maxBytes: 1000 });
    expect(big).toMatchObject({ truncated: true, bytes: 1000 });
    expect((big as FullResponse).text).toHaveLength(1000);
  });

  it('decodes the charset the server names', async () => {
    expect(await safeRequest(`${base}/latin1`)).toEqual([true, 'café']);
  });
});
