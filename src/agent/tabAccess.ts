/**
 * Tab scope, as the run loop sees it (issue #27): a run reads and acts only on the tabs the user gave it — Otto's tab
 * group for the conversation. A call aimed at any other tab pauses for a share approval that names the tab; approved,
 * the tab joins the group and the call goes on to its usual checks; denied, the model is told so and nothing of the
 * tab is read. The loop knows nothing of chrome.*: the worker passes a `TabAccess` (background/tabScope.ts).
 */
import type { PendingApproval, TabShareRequest } from '../storage/runRecords.ts';

export type { TabShareRequest } from '../storage/runRecords.ts';

export interface TabAccess {
  /**
   * The first tab this call would read or act on that is outside the run's reach, or undefined when every target is
   * in reach (tabs of a site the user always shares join the group here, without asking).
   */
  check(conversationId: string, qualifiedName: string, args: unknown): Promise<TabShareRequest | undefined>;
  /** The user approved: the tab joins the run's group; `site` also shares every later tab of its origin. */
  share(conversationId: string, tabId: number, scope: 'once' | 'site'): Promise<void>;
}

/** "Share 'Accounts — Example Bank' (bank.example) with Otto?" — the question the approval card asks. */
export function shareQuestion(share: TabShareRequest): string {
  const title = share.title.trim() || 'Untitled tab';
  return `Share '${title}'${share.host ? ` (${share.host})` : ''} with Otto?`;
}

/**
 * What the model gets when the user does not share the tab. It names the tab only by the id the model itself sent:
 * the title and address of a tab the user kept private are never sent.
 */
export function deniedShareOutput(share: Pick<TabShareRequest, 'tabId'>): string {
  return `Error: the user did not share tab ${share.tabId} with Otto, so nothing was read from it or done to it. Work with the tabs in Otto's group (tabs.list), or ask the user to share the tab.`;
}

/** True when the pending approval is a tab-share question rather than a destructive-action one. */
export function isShareApproval(
  approval: PendingApproval | undefined,
): approval is PendingApproval & { share: TabShareRequest } {
  return !!approval?.share;
}

/**
 * The loop's check before a call runs. A check that fails (a tab closed meanwhile) asks nothing here: the tool host's
 * gate checks again when the call runs and refuses a tab out of reach, so a failure never opens a tab.
 */
export async function shareNeeded(
  access: TabAccess | undefined,
  conversationId: string,
  qualifiedName: string,
  args: unknown,
): Promise<TabShareRequest | undefined> {
  if (!access) return undefined;
  try {
    return await access.check(conversationId, qualifiedName, args);
  } catch {
    return undefined;
  }
}
