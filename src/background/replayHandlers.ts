/**
 * `replay.context {text, line, error, conversationId?, tabId?}` → `{message}` (#17): the message that hands a stopped
 * snippet replay to the model — the snippet as it ran, the failed step, the error and a fresh snapshot of the tab the
 * replay acted on (replay/continue.ts). The panel sends it as a chat message ("Continue with the model").
 */
import { CommandError, expandSnippet, parseSnippetInvocation } from '../command/index.ts';
import { continuationMessage } from '../replay/continue.ts';
import type { Handlers } from './panelPort.ts';
import { resolveTabId } from '../page/contentRouter.ts';
import { formatSnapshot, snapshotPage } from '../page/pageSnapshot.ts';
import { runTab } from './runTabs.ts';
import type { Settings } from './settings.ts';
import { errorMessage } from '../shared/errorMessage.ts';

export function replayHandlers(deps: { settings: () => Promise<Settings> }): Pick<Handlers, 'replay.context'> {
  return {
    async 'replay.context'(req) {
      const { config } = await deps.settings();
      let invocation;
      let source: string;
      try {
        invocation = parseSnippetInvocation(req.text);
        source = expandSnippet(invocation, config.snippets);
      } catch (e) {
        throw new Error(e instanceof CommandError ? e.message : String(e), { cause: e });
      }
      const definition = config.snippets[invocation.name]!;
      let snapshot: string;
      try {
        const tabId =
          req.tabId ?? (req.conversationId ? (await runTab(req.conversationId).catch(() => undefined))?.id : undefined);
        const snap = await snapshotPage(await resolveTabId(tabId), { maxChars: 30_000 });
        snapshot = formatSnapshot(snap);
      } catch (e) {
        snapshot = `(no snapshot: ${errorMessage(e)}) — take one with dom.snapshot.`;
      }
      return {
        message: continuationMessage({
          name: invocation.name,
          definition,
          values: invocation.args,
          source,
          line: req.line,
          error: req.error,
          snapshot,
        }),
      };
    },
  };
}
