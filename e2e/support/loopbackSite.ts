/**
 * A site of a test's own on loopback (another origin than the fixture pages): it serves what the test says for each
 * path and records every request it gets, so a test can say what reached it (a collector that must receive nothing,
 * a bank whose orders are counted).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackSite {
  origin: string;
  host: string;
  /** Every request, in order: its path with the query, and its body. */
  hits: { path: string; body: string }[];
  close(): Promise<void>;
}

/**
 * Serves `pages(path)` as HTML; a path `pages` maps to undefined is a 404, and one it maps to null is recorded and
 * never answered (a page that takes forever to load).
 */
export async function startSite(pages: (path: string) => string | undefined | null): Promise<LoopbackSite> {
  const hits: LoopbackSite['hits'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      hits.push({ path: req.url ?? '/', body });
      const page = pages(new URL(req.url ?? '/', 'http://x').pathname);
      if (page === null) return;
      if (page === undefined) res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(page);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A small HTML document. */
export const html = (title: string, body: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;
