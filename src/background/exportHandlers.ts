/**
 * Exporting a conversation as Markdown or JSON. The worker builds the export (the panel never sees more than the
 * finished text) and redacts every string with the stored secret values and anything shaped like an API key.
 * Reasoning items' `encrypted_content` is dropped: it is opaque, large, and useless outside the API.
 */
import { outputText } from '../agent/outputText.ts';
import type { Handlers } from './panelPort.ts';
import type { Settings } from './settings.ts';
import type { ConversationStore } from '../storage/conversations.ts';
import { runForDisplay } from '../storage/runStateSchema.ts';
import type { ConversationRecord, ItemRecord } from '../storage/records.ts';
import type { RunState } from '../storage/runRecords.ts';
import type { ToolRegistry } from '../tools/ToolRegistry.ts';
import { redactDeep, redactSecrets } from '../config/redact.ts';
import type { ExportFile } from '../port/replies.ts';

type ExportHandlers = Pick<Handlers, 'conversations.export'>;

export interface ExportDeps {
  store: ConversationStore;
  settings: () => Promise<Settings>;
  registry: () => ToolRegistry;
}

export interface ExportInput {
  conversation: ConversationRecord;
  items: readonly ItemRecord[];
  state?: RunState | undefined;
  secrets: readonly string[];
  qualifiedName?: (apiName: string) => string | undefined;
  exportedAt?: number;
}

// The reply lives with the protocol (port/replies.ts).
export type { ExportFile } from '../port/replies.ts';

type Item = Record<string, unknown>;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((c: Item) =>
      typeof c?.text === 'string' ? c.text : typeof c?.refusal === 'string' ? `(refused) ${c.refusal}` : '',
    )
    .join('');
}

function summaryOf(item: Item): string {
  const summary = Array.isArray(item.summary) ? (item.summary as Item[]) : [];
  return summary
    .map((s) => (typeof s.text === 'string' ? s.text : ''))
    .filter(Boolean)
    .join('\n\n');
}

function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

function pretty(args: unknown): string {
  if (typeof args !== 'string') return JSON.stringify(args ?? null, null, 2);
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

const MAX_OUTPUT_IN_MARKDOWN = 4000;

/** Encrypted reasoning is an opaque blob: exports leave it out. */
const OPAQUE_KEYS = new Set(['encrypted_content']);

/** Each secret plus its JSON-escaped form (a secret inside tool arguments is stored escaped). */
export function withEscapedForms(secrets: readonly string[]): string[] {
  const out = new Set<string>();
  for (const s of secrets) {
    out.add(s);
    out.add(JSON.stringify(s).slice(1, -1));
  }
  // Longest first, so a secret that contains another is replaced whole.
  return [...out].sort((a, b) => b.length - a.length);
}

function slug(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 50) || 'conversation'
  );
}

export function exportMarkdown(input: ExportInput): ExportFile {
  const { conversation, items } = input;
  const name = (api: string) => input.qualifiedName?.(api) ?? api;
  const outputs = new Map<string, string>();
  for (const { item } of items)
    if (item.type === 'function_call_output') outputs.set(String(item.call_id), outputText(item.output));
  const lines: string[] = [`# ${conversation.title || 'Conversation'}`, ''];
  lines.push(`_Exported from Otto on ${new Date(input.exportedAt ?? Date.now()).toISOString()}_`, '');
  for (const { item } of items) {
    switch (item.type) {
      case 'message':
        lines.push(item.role === 'user' ? '## You' : '## Otto', '', textOf(item.content), '');
        break;
      case 'reasoning': {
        const s = summaryOf(item);
        if (s) lines.push('<details><summary>Reasoning</summary>', '', s, '', '</details>', '');
        break;
      }
      case 'function_call': {
        const out = outputs.get(String(item.call_id));
        const status = out === undefined ? 'no result' : out.startsWith('Error:') ? 'error' : 'ok';
        lines.push(
          `### Tool call: \`${name(String(item.name))}\` (${status})`,
          '',
          fence(pretty(item.arguments), 'json'),
          '',
        );
        if (out !== undefined) {
          const clipped =
            out.length > MAX_OUTPUT_IN_MARKDOWN
              ? `${out.slice(0, MAX_OUTPUT_IN_MARKDOWN)}\n… (${out.length} characters in all)`
              : out;
          lines.push('Result:', '', fence(clipped), '');
        }
        break;
      }
      case 'function_call_output':
        break;
      default:
        if (typeof item.text === 'string') lines.push(`> _${item.text}_`, '');
    }
  }
  if (input.state?.usage.responses) {
    const u = input.state.usage;
    lines.push(
      '---',
      '',
      `_Last run: ${u.responses} responses, ${u.inputTokens} input / ${u.outputTokens} output tokens._`,
      '',
    );
  }
  return {
    filename: `otto-${slug(redactSecrets(conversation.title, input.secrets))}.md`,
    mimeType: 'text/markdown',
    text: redactSecrets(lines.join('\n'), input.secrets),
  };
}

export function exportJson(input: ExportInput): ExportFile {
  const { conversation, items, state } = input;
  const data = {
    format: 'otto.conversation',
    version: 1,
    exportedAt: new Date(input.exportedAt ?? Date.now()).toISOString(),
    conversation,
    items: items.map(({ seq, createdAt, item }) => {
      const named =
        item.type === 'function_call' && input.qualifiedName
          ? { ...item, tool: input.qualifiedName(String(item.name)) }
          : item;
      return { seq, createdAt, item: named };
    }),
    ...(state
      ? { run: { status: state.status, stopReason: state.stopReason, usage: state.usage, lastError: state.lastError } }
      : {}),
  };
  return {
    filename: `otto-${slug(redactSecrets(conversation.title, input.secrets))}.json`,
    mimeType: 'application/json',
    text: JSON.stringify(
      redactDeep(data, (t) => redactSecrets(t, input.secrets), OPAQUE_KEYS),
      null,
      2,
    ),
  };
}

export function exportHandlers(deps: ExportDeps): ExportHandlers {
  return {
    'conversations.export': async (req) => {
      const conversation = await deps.store.get(req.conversationId);
      if (!conversation) throw new Error(`No conversation ${req.conversationId}.`);
      // A run state that cannot be read leaves out only the run's summary: the transcript is what is exported.
      const [items, { state }, { secrets }] = await Promise.all([
        deps.store.transcript(req.conversationId),
        runForDisplay(deps.store.getRun(req.conversationId)),
        deps.settings(),
      ]);
      const registry = deps.registry();
      const qualifiedName = (api: string) => {
        const tool = registry.resolve(api);
        return tool ? `${tool.pack}.${tool.name}` : undefined;
      };
      const input: ExportInput = {
        conversation,
        items,
        state,
        secrets: withEscapedForms(Object.values(secrets)),
        qualifiedName,
      };
      return req.format === 'json' ? exportJson(input) : exportMarkdown(input);
    },
  };
}
