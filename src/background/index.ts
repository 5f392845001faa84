/**
 * Otto's service worker: the composition root. Every listener is registered synchronously at the top level, as MV3
 * requires, so events that wake a stopped worker find their handler.
 */
import '../shared/zod.ts';
import { acceptPanelPort, type Handlers } from './panelPort.ts';
import { pingFrames } from './contentRouter.ts';
import { reject, traffic } from './traffic.ts';
import { isFromThisExtension } from '../shared/origin.ts';
import { loadConfig, saveConfig, saveSecrets } from '../config/store.ts';
import { formatProblems } from '../config/parse.ts';
import { getMeta, putMeta } from '../storage/meta.ts';
import { seedSettings } from '../config/seed.ts';

const VERSION = chrome.runtime.getManifest().version;
const startedAt = Date.now();

const handlers: Handlers = {
  ping: () => ({ pong: true, version: VERSION, startedAt }),
  echo: (req) => req.payload,
  'config.get': async () => {
    const { yaml, problem } = await loadConfig();
    return { yaml, problem };
  },
  'config.save': async (req) => {
    const out = await saveConfig(req.yaml);
    if (!out.ok) throw new Error(formatProblems(out.problems));
    return { saved: true };
  },
  'secrets.save': async (req) => {
    // Problems name only line/column and the key path, never the values.
    const out = await saveSecrets(req.yaml);
    if (!out.ok) throw new Error(formatProblems(out.problems));
    return { saved: true, names: Object.keys(out.value) };
  },
  'frames.ping': (req) => pingFrames(req.tabId),
};

chrome.runtime.onConnect.addListener((port) => {
  acceptPanelPort(port, chrome.runtime.id, handlers, { type: 'hello', version: VERSION, startedAt });
});

chrome.runtime.onMessage.addListener((_msg, sender) => {
  // No one-shot messages are part of the protocol yet; anything arriving is counted and dropped.
  if (!isFromThisExtension(sender, chrome.runtime.id)) reject('runtime', 'foreign sender');
  else reject('runtime', 'no one-shot messages are accepted');
  return false;
});

chrome.runtime.onInstalled.addListener(() => {
  void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true });
});
// Also on every start: the behaviour is cheap to set and must hold even if onInstalled was missed.
void chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => undefined);

// A handle for DevTools and the e2e suite; it exposes nothing a page can reach.
Object.assign(globalThis, { otto: { version: VERSION, startedAt, traffic, storage: { getMeta, putMeta }, seed: seedSettings } });
