/**
 * Which tab each conversation acts on: the tab the user was looking at when they sent the message (the panel says,
 * or the active tab of the focused window). Tools default to it; approvals are judged by its origin.
 */
import { webOrigin } from '../shared/origin.ts';

const tabs = new Map<string, number>();
/** A scheduled run's background window (#46): its new tabs open there, and nothing focuses it. */
const windows = new Map<string, number>();

export function setRunWindow(conversationId: string, windowId: number | undefined): void {
  if (windowId === undefined) windows.delete(conversationId);
  else windows.set(conversationId, windowId);
}

export function runWindow(conversationId: string | undefined): number | undefined {
  return conversationId === undefined ? undefined : windows.get(conversationId);
}

export function setRunTab(conversationId: string, tabId: number | undefined): void {
  if (tabId !== undefined) tabs.set(conversationId, tabId);
}

/** The tab set for the conversation, without falling back to the user's active tab. */
export function runTabId(conversationId: string): number | undefined {
  return tabs.get(conversationId);
}

export async function runTab(conversationId: string): Promise<chrome.tabs.Tab | undefined> {
  const id = tabs.get(conversationId);
  if (id !== undefined) {
    const tab = await chrome.tabs.get(id).catch(() => undefined);
    if (tab) return tab;
  }
  const candidates = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  return candidates.find((t) => !t.url?.startsWith(`chrome-extension://${chrome.runtime.id}/`));
}

export async function runOrigin(conversationId: string): Promise<string | undefined> {
  return webOrigin((await runTab(conversationId))?.url);
}
