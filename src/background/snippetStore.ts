/**
 * The worker's side of "Save as snippet" (#17, `ot.save_snippet`): read a conversation's transcript, find the steps
 * a repaired replay carried (replay/continue.ts), and write `snippets.<name>` into the YAML config with the same
 * editing the settings page uses (comments and other keys kept). The config change reloads tools and settings as
 * any save does.
 */
import { loadConfig, saveConfig } from '../config/configStore.ts';
import { formatProblem } from '../config/parse.ts';
import { patchYaml } from '../config/edit.ts';
import { readContinuation } from '../replay/continue.ts';
import type { ConversationStore } from '../storage/conversations.ts';
import type { SnippetStore } from '../tools/packs/ot/index.ts';
import { invalidateSettings } from './settings.ts';

export function snippetStore(store: ConversationStore): SnippetStore {
  const items = async (id: string) => (await store.transcript(id)).map((r) => r.item);
  return {
    async transcript(conversationId) {
      let id = conversationId;
      if (!id) {
        const all = await store.list();
        id = all.sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0))[0]?.id;
        if (!id) throw new Error('There is no conversation to save a snippet from.');
      } else if (!(await store.get(id))) throw new Error(`No conversation ${id}.`);
      return { conversationId: id, items: await items(id) };
    },
    async prior(conversationId) {
      const all = await items(conversationId);
      const user = all.filter((i) => i.type === 'message' && i.role === 'user').at(-1);
      const content = user?.content;
      const text = Array.isArray(content)
        ? content.map((p) => String((p as { text?: unknown }).text ?? '')).join('\n')
        : String(content ?? '');
      return readContinuation(text);
    },
    async exists(name) {
      return Object.hasOwn((await loadConfig()).config.snippets, name);
    },
    async save(name, definition) {
      const { yaml, problems } = await loadConfig();
      if (problems.length) throw new Error('The settings have errors; fix them before saving a snippet.');
      const next = patchYaml(yaml, [{ path: ['snippets', name], value: definition }]);
      const parsed = await saveConfig(next);
      if (!parsed.ok)
        throw new Error(`The snippet does not fit the settings: ${parsed.problems.map(formatProblem).join('; ')}`);
      invalidateSettings();
    },
  };
}
