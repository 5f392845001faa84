/**
 * The relay's wire (#29): JSON messages over one WebSocket between Otto's service worker and the `otto mcp` CLI on
 * 127.0.0.1. Both ends validate every message with these schemas and drop what does not parse. The CLI is the
 * server (it listens); the worker connects with the path token the connect page handed it.
 */
import { z } from './zod.ts';

/** Who is asking: the MCP client's `initialize` clientInfo, bounded (it is text from outside). */
export const BridgeClient = z.object({
  name: z.string().min(1).max(100),
  version: z.string().max(50).optional(),
});
export type BridgeClient = z.infer<typeof BridgeClient>;

const id = z.string().min(1).max(100);

/** CLI → worker. */
export const RelayToExtension = z.discriminatedUnion('type', [
  /** Sent on every (re)connection: who the client is, and whether the user already allowed this session. */
  z.object({ type: z.literal('hello'), client: BridgeClient, allowed: z.boolean(), session: id }),
  /** One MCP tools/call: the tool's wire name and its arguments as the client sent them. */
  z.object({
    type: z.literal('call'),
    id,
    name: z.string().min(1).max(64),
    arguments: z.record(z.string(), z.unknown()),
  }),
  z.object({ type: z.literal('ping'), at: z.number() }),
]);
export type RelayToExtension = z.infer<typeof RelayToExtension>;

/** One content part of a result, as MCP carries it. */
export const BridgeContent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), data: z.string(), mimeType: z.string().max(100) }),
]);
export type BridgeContent = z.infer<typeof BridgeContent>;

/** Worker → CLI. */
export const ExtensionToRelay = z.discriminatedUnion('type', [
  /** The user's answer on the connect page. `message` says why in the user's words when not allowed. */
  z.object({ type: z.literal('answer'), allowed: z.boolean(), message: z.string().max(1000).optional() }),
  z.object({ type: z.literal('result'), id, content: z.array(BridgeContent).max(100), isError: z.boolean() }),
  /** The user pressed Disconnect in the panel: every later call fails with `message`. */
  z.object({ type: z.literal('disconnect'), message: z.string().max(1000) }),
  z.object({ type: z.literal('pong'), at: z.number() }),
]);
export type ExtensionToRelay = z.infer<typeof ExtensionToRelay>;

/** The connect page's address: the relay's port and path token travel in the fragment, never sent to a server. */
export function connectUrl(extensionId: string, port: number, token: string): string {
  return `chrome-extension://${extensionId}/src/connect/index.html#port=${port}&token=${token}`;
}

/** Parses the connect page's fragment; undefined when it is not one of ours. */
export function parseConnectHash(hash: string): { port: number; token: string } | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const port = Number(params.get('port'));
  const token = params.get('token') ?? '';
  if (!Number.isInteger(port) || port < 1 || port > 65535 || !/^[A-Za-z0-9_-]{32,128}$/.test(token)) return undefined;
  return { port, token };
}

/** The relay's WebSocket address (loopback only). */
export function relayUrl(port: number, token: string): string {
  return `ws://127.0.0.1:${port}/${token}`;
}
