/**
 * Panel requests for the settings UI: secret names (never values), merging secret edits, "Test connection", the
 * config for download (redacted), and API tool names → qualified names for rebuilding tool cards from a transcript.
 * Nothing here sends a secret value towards the panel: every text that leaves is redacted with the stored secrets
 * and the key under test.
 */
import type { Handlers } from './panelPort.ts';
import type { Settings } from './settings.ts';
import type { ToolRegistry } from '../tools/ToolRegistry.ts';
import { NO_KEY_MESSAGE, clientFor } from './modelClient.ts';
import type { ResponseItem } from '../models/events.ts';
import type { Transport } from '../models/transport.ts';
import { redactSecrets } from '../config/redact.ts';
import { loadConfig, saveSecrets, SECRETS_KEY } from '../config/configStore.ts';
import { formatProblems } from '../config/parse.ts';
import { mergeSecretsText, secretValueProblem } from '../config/secretsText.ts';
import type { ConnectionTestResult } from '../port/replies.ts';

type SettingsHandlers = Pick<
  Handlers,
  'secrets.get_names' | 'secrets.update' | 'settings.test' | 'config.export' | 'tools.resolve'
>;

export interface SettingsDeps {
  settings: () => Promise<Settings>;
  /** Called after secrets change, so the next request sees them. */
  invalidate: () => void;
  registry: () => ToolRegistry;
  storage?: chrome.storage.LocalStorageArea;
}

// The reply lives with the protocol (port/replies.ts), where the settings page reads it too.
export type { ConnectionTestResult } from '../port/replies.ts';

/** What the connection test asks: a tiny task that needs one tool call. */
const TEST_TOOL = {
  type: 'function',
  function: {
    name: 'otto_ping',
    description: 'Confirms that tool calling works. Call it once, with no arguments.',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
  },
};
const TEST_MESSAGE: ResponseItem = {
  type: 'message',
  role: 'user',
  content: [{ type: 'input_text', text: 'Connection test: call the otto_ping tool once, then reply OK.' }],
};

const TEST_TIMEOUT_MS = 20_000;

function needsKey(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname.endsWith('openai.com');
  } catch {
    return false;
  }
}

/** Stored secrets text with `set` merged in and `remove` dropped, comments kept. Pure (config/secretsText.ts). */
export function mergeSecretsYaml(text: string, set: Record<string, string>, remove: readonly string[]): string {
  return mergeSecretsText(text, set, remove);
}

/** One minimal, non-streamed request: does this base URL + model + key answer? */
export async function testConnection(
  req: {
    baseUrl?: string | undefined;
    model?: string | undefined;
    apiKey?: string | undefined;
    api?: 'responses' | 'chat' | 'auto' | undefined;
  },
  current: Settings,
  fetchImpl?: typeof fetch,
): Promise<ConnectionTestResult> {
  const baseURL = req.baseUrl?.trim() || current.config.agent.base_url;
  const model = req.model?.trim() || current.config.agent.model;
  const apiKey = req.apiKey?.trim() || current.secrets.OPENAI_API_KEY || '';
  const hide = (text: string) => redactSecrets(text, [...Object.values(current.secrets), apiKey]);
  try {
    if (!/^https?:$/.test(new URL(baseURL).protocol)) throw new Error('not http');
  } catch {
    return {
      ok: false,
      kind: 'bad_request',
      message: hide(`"${baseURL}" is not an http(s) URL. Use e.g. https://api.openai.com/v1.`),
    };
  }
  if (!apiKey && needsKey(baseURL)) return { ok: false, kind: 'auth', message: NO_KEY_MESSAGE };
  const api = req.api ?? current.config.agent.api;
  const trial: Settings = {
    config: {
      ...current.config,
      agent: {
        ...current.config.agent,
        base_url: baseURL,
        model,
        api,
        max_retries: 0,
        request_timeout: TEST_TIMEOUT_MS / 1000,
      },
    },
    secrets: { ...current.secrets, OPENAI_API_KEY: apiKey },
  };
  // The same client a run uses, so the test proves what a run will do; `auto`'s discovery is not remembered here.
  const memory = new Map<string, Transport>();
  const client = clientFor(
    trial,
    { get: async (u) => memory.get(u), set: async (u, t) => void memory.set(u, t) },
    fetchImpl,
  );
  const started = Date.now();
  let wire: Transport = api === 'chat' ? 'chat' : 'responses';
  let called = false;
  let answered = model;
  for await (const event of client.stream({ input: [TEST_MESSAGE], tools: [TEST_TOOL] })) {
    if (event.type === 'notice') wire = 'chat';
    else if (event.type === 'function_call.done') called = true;
    else if (event.type === 'completed' && event.model) answered = event.model;
    else if (event.type === 'failed') {
      const info = event.error;
      return {
        ok: false,
        kind: info.kind,
        ...(info.status ? { status: info.status } : {}),
        message: hide(info.message),
      };
    }
  }
  const latencyMs = Date.now() - started;
  const over = wire === 'chat' ? 'Chat Completions' : 'the Responses API';
  const tools = called
    ? 'It called a tool, so tool use works.'
    : 'It did not call the test tool: this model may not use tools well.';
  return {
    ok: true,
    model: answered,
    latencyMs,
    transport: wire,
    toolCalled: called,
    message: hide(`Connected: ${answered} answered at ${baseURL} over ${over} in ${latencyMs} ms. ${tools}`),
  };
}

export function settingsHandlers(deps: SettingsDeps): SettingsHandlers {
  const storage = () => deps.storage ?? chrome.storage.local;
  return {
    'secrets.get_names': async () => {
      const { secrets } = await deps.settings();
      return { names: Object.keys(secrets).sort() };
    },
    'secrets.update': async (req) => {
      // Refused before anything is stored: a pasted zero-width character would only surface later as a failed request.
      for (const [name, value] of Object.entries(req.set)) {
        const problem = secretValueProblem(name, value);
        if (problem) throw new Error(problem);
      }
      const got = await storage().get(SECRETS_KEY);
      const text = typeof got[SECRETS_KEY] === 'string' ? (got[SECRETS_KEY] as string) : '';
      const out = await saveSecrets(mergeSecretsYaml(text, req.set, req.remove), storage());
      // Problems name only line/column and the key path, never the values.
      if (!out.ok) throw new Error(formatProblems(out.problems));
      deps.invalidate();
      return { saved: true, names: Object.keys(out.value).sort() };
    },
    'settings.test': async (req) => testConnection(req, await deps.settings()),
    'config.export': async () => {
      const [{ yaml }, { secrets }] = await Promise.all([loadConfig(storage()), deps.settings()]);
      return { filename: 'otto-config.yaml', text: redactSecrets(yaml, Object.values(secrets)) };
    },
    'tools.resolve': (req) => {
      const registry = deps.registry();
      const out: Record<string, string> = {};
      for (const name of req.names) {
        const tool = registry.resolve(name);
        if (tool) out[name] = `${tool.pack}.${tool.name}`;
      }
      return out;
    },
  };
}
