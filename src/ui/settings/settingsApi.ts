/** Settings requests shared by the options page, the panel's settings view and the setup card. */
import type { ConnectionTestResult } from '../../port/replies.ts';
import type { PortClient } from '../../port/portClient.ts';
import type { ConfigStatus } from '../../config/status.ts';
import { patchYaml, type YamlEdit } from '../../config/edit.ts';
import type { ServerStatus, ServerTestResult } from '../../mcp/manager.ts';

export type { ServerStatus, ServerTestResult };

export type AgentApi = 'responses' | 'chat' | 'auto';

/**
 * Servers people use, with the wire each speaks (`agent.api`). Local servers get `auto`: newer builds of LM Studio,
 * Ollama and vLLM have the Responses API, older ones only Chat Completions. Azure's host is the user's resource.
 */
export const BASE_URL_PRESETS: readonly { label: string; url: string; api: AgentApi }[] = [
  { label: 'OpenAI', url: 'https://api.openai.com/v1', api: 'responses' },
  { label: 'Azure OpenAI', url: 'https://YOUR-RESOURCE.openai.azure.com/openai/v1', api: 'responses' },
  { label: 'OpenRouter', url: 'https://openrouter.ai/api/v1', api: 'chat' },
  { label: 'Anthropic (OpenAI-compatible)', url: 'https://api.anthropic.com/v1', api: 'chat' },
  {
    label: 'Google Gemini (OpenAI-compatible)',
    url: 'https://generativelanguage.googleapis.com/v1beta/openai',
    api: 'chat',
  },
  { label: 'Groq', url: 'https://api.groq.com/openai/v1', api: 'responses' },
  { label: 'DeepSeek', url: 'https://api.deepseek.com/v1', api: 'chat' },
  { label: 'Mistral', url: 'https://api.mistral.ai/v1', api: 'chat' },
  { label: 'Ollama', url: 'http://127.0.0.1:11434/v1', api: 'auto' },
  { label: 'LM Studio', url: 'http://127.0.0.1:1234/v1', api: 'auto' },
  { label: 'vLLM', url: 'http://127.0.0.1:8000/v1', api: 'auto' },
  { label: 'llama.cpp server', url: 'http://127.0.0.1:8080/v1', api: 'chat' },
];

export const MODEL_SUGGESTIONS = [
  'gpt-5',
  'gpt-5-mini',
  'gpt-5-nano',
  'gpt-4.1',
  'gpt-4.1-mini',
  'o4-mini',
  'gpt-oss-20b',
  'qwen3:8b',
  'llama3.1:8b',
];

export type { ConnectionTestResult };

/** The stored text and its state (`status`, `version`, `problems`, `warnings`; see config/status.ts). */
export async function loadYaml(client: PortClient): Promise<{ yaml: string } & ConfigStatus> {
  return client.request({ type: 'config.get' });
}

/** Applies form edits to the stored YAML (comments kept) and saves; the worker validates. Returns the new text. */
export async function saveConfigEdits(client: PortClient, edits: readonly YamlEdit[]): Promise<string> {
  const { yaml } = await loadYaml(client);
  const next = patchYaml(yaml, edits);
  await client.request({ type: 'config.save', yaml: next });
  return next;
}

export async function secretNames(client: PortClient): Promise<string[]> {
  return (await client.request({ type: 'secrets.get_names' })).names;
}

export async function updateSecrets(
  client: PortClient,
  set: Record<string, string>,
  remove: string[] = [],
): Promise<string[]> {
  return (await client.request({ type: 'secrets.update', set, remove })).names;
}

export function testConnection(
  client: PortClient,
  opts: { baseUrl?: string; model?: string; apiKey?: string; api?: AgentApi },
): Promise<ConnectionTestResult> {
  return client.request({ type: 'settings.test', ...opts });
}

// ---- MCP servers (worker side: background/mcp.ts). Header values go worker-ward only; replies carry names. ----

export interface ServerChange {
  name: string;
  url?: string;
  headers?: Record<string, string>;
  timeout?: number;
  enabled?: boolean;
}

export async function listServers(client: PortClient): Promise<ServerStatus[]> {
  return (await client.request({ type: 'servers.list' })).servers;
}

/** A throw-away connection: a configured server by name, or a URL before it is added. Nothing is saved. */
export function testServer(
  client: PortClient,
  target: { name: string } | { url: string; name?: string; headers?: Record<string, string>; timeout?: number },
): Promise<ServerTestResult> {
  return client.request({ type: 'servers.test', ...target });
}

/** Adds or edits `servers.<name>` in the stored YAML (comments kept) and applies it. */
export async function setServer(client: PortClient, change: ServerChange): Promise<ServerStatus[]> {
  return (await client.request({ type: 'servers.set', ...change })).servers;
}

export async function removeServer(client: PortClient, name: string): Promise<ServerStatus[]> {
  return (await client.request({ type: 'servers.remove', name })).servers;
}

export async function reconnectServer(client: PortClient, name?: string): Promise<ServerStatus[]> {
  return (await client.request({ type: 'servers.reconnect', ...(name ? { name } : {}) })).servers;
}

/** Turns one server tool on (approving its current definition) or off. */
export async function setServerTool(
  client: PortClient,
  name: string,
  tool: string,
  enabled: boolean,
): Promise<ServerStatus[]> {
  return (await client.request({ type: 'servers.tool', name, tool, enabled })).servers;
}
