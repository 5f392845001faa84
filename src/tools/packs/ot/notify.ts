/**
 * `ot.notify` (docs/specs/002-ot-tools.md, "Notify Message"): routes a message to the file of the first topic whose
 * glob pattern matches (config `notify.topics: [{pattern, file}]`, in order) and appends it as a YAML document
 * `---\nts: ...\ntopic: ...\nmessage: ...`. Otto has no file system: topic files are records in its files store
 * (IndexedDB) that the panel can open and download. A configured path keeps only its last segment
 * (`~/notes/todo.yaml` → `todo.yaml`), since stored names are flat.
 */
import { stringify } from 'yaml';
import { z } from '../../../shared/zod.ts';
import type { OttoConfig } from '../../../config/schema.ts';
import { otTool } from './common.ts';
import type { ResolvedDeps } from './env.ts';
import type { OtStores } from './runtime.ts';

export const NO_MATCHING_TOPIC = 'SKIP: no matching topic';

/** fnmatch-style glob → RegExp: `*` any run, `?` one character, `[abc]` / `[!abc]` sets; case-sensitive. */
export function globToRegExp(glob: string): RegExp {
  let re = '^';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') re += '[\\s\\S]*';
    else if (c === '?') re += '[\\s\\S]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        let set = glob.slice(i + 1, end);
        const negate = set.startsWith('!');
        if (negate) set = set.slice(1);
        re += `[${negate ? '^' : ''}${set.replace(/[\\\]^]/g, '\\$&')}]`;
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  return new RegExp(`${re}$`);
}

export function matchTopic(
  topics: OttoConfig['notify']['topics'],
  topic: string,
): { pattern: string; file: string } | undefined {
  return topics.find((t) => globToRegExp(t.pattern).test(topic));
}

/** The stored file name for a configured topic file (its last path segment). */
export function topicFileName(file: string): string {
  const parts = file.split(/[/\\]/).filter(Boolean);
  return parts.at(-1) ?? file;
}

/** One YAML document: `---` then `ts`, `topic`, `message` (block style, strings quoted when needed). */
export function notifyDocument(ts: string, topic: string, message: string): string {
  return `---\n${stringify({ ts, topic, message }, { lineWidth: 0 })}`;
}

// Appends to one file are serialised, so concurrent notifications never lose each other.
const queues = new Map<string, Promise<unknown>>();
function serialised<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const prev = queues.get(key) ?? Promise.resolve();
  const next = prev.then(fn, fn);
  const settled = next.catch(() => undefined);
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return next;
}

export async function notify(
  topics: OttoConfig['notify']['topics'],
  stores: Pick<OtStores, 'getFile' | 'saveFile'>,
  topic: string,
  message: string,
  now: () => Date = () => new Date(),
): Promise<string> {
  const match = matchTopic(topics, topic);
  if (!match) return NO_MATCHING_TOPIC;
  const file = topicFileName(match.file);
  await serialised(file, async () => {
    const old = (await stores.getFile(file))?.content ?? '';
    const doc = notifyDocument(now().toISOString(), topic, message);
    await stores.saveFile(file, old && !old.endsWith('\n') ? `${old}\n${doc}` : old + doc, 'text/yaml');
  });
  return `OK: ${topic} -> ${file}`;
}

export function notifyTool(deps: ResolvedDeps) {
  return otTool({
    name: 'notify',
    description:
      'Publish a message to a topic: it is appended as a YAML document to the file of the first configured topic pattern (config notify.topics, glob patterns) that matches. The files are kept in Otto and can be opened or downloaded from the panel.',
    parameters: z.object({
      topic: z.string().min(1).describe('Topic name, e.g. "notes" or "status:build"'),
      message: z.string().describe('The message to record'),
    }),
    effect: 'changes',
    examples: ['ot.notify(topic="notes", message="Remember to review PR #123")'],
    returns: '"OK: <topic> -> <file>" or "SKIP: no matching topic".',
    spanFields: (args) => ({ topic: args.topic, messageLen: args.message.length }),
    run: (args, ctx) => notify(ctx.config.notify.topics, deps.stores, args.topic, args.message),
  });
}
