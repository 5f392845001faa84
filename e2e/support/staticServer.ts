/** A loopback static server for fixture pages. Two of them give two origins (127.0.0.1 on two ports). */
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.pdf': 'application/pdf',
  '.csv': 'text/csv; charset=utf-8',
};

export interface StaticServer {
  origin: string;
  port: number;
  /** How many requests this path (with its query) has had since the server started. */
  requests(pathAndQuery: string): number;
  close(): Promise<void>;
}

export async function startStaticServer(root: string): Promise<StaticServer> {
  const counts = new Map<string, number>();
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    counts.set(url.pathname + url.search, (counts.get(url.pathname + url.search) ?? 0) + 1);
    // A page that never finishes loading: for tools that must time out rather than hang the run.
    if (url.pathname === '/hang') return;
    // `/status/500`: an error answer, for pages whose requests fail (console and network tools).
    const status = /^\/status\/(\d{3})$/.exec(url.pathname);
    if (status) {
      res.writeHead(Number(status[1]), { 'content-type': 'application/json' }).end('{"error":"server error"}');
      return;
    }
    // `?download`: served as an attachment, so a browser saves it instead of showing it.
    const attach = url.searchParams.has('download')
      ? { 'content-disposition': `attachment; filename="${path.basename(url.pathname)}"` }
      : {};
    const file = path.join(root, path.normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, ''));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
        ...attach,
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests: (pathAndQuery) => counts.get(pathAndQuery) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
