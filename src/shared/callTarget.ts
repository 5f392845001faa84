/**
 * What a tool call really touches, resolved before it runs (issue #31): the tab it acts on, the element it names,
 * the URL it loads or fetches. Plain data: it travels from the tool host to the agent (approval rules, allowances),
 * into the persisted pending approval, and to the panel's approval card. Resolution lives in
 * src/tools/resolveCallTarget.ts.
 */

/** The element a call names, as Otto sees it (from the page: role and name are page-controlled text). */
export interface TargetElement {
  ref?: string;
  role: string;
  name: string;
  /** A link's absolute destination. */
  href?: string;
  /** The form the element belongs to (a submit button, a field Enter submits from): where it sends, and how. */
  formAction?: string;
  formMethod?: string;
  /** A click on it submits its form. */
  submits?: boolean;
  /** #42 (page-controlled): its visible text, and the label words of it or its icon (title, aria-label, alt, class). */
  text?: string;
  hints?: string;
  /** #42 (page-controlled): the field it writes (`email "to" To`), and a checkbox's or switch's current state. */
  field?: string;
  checked?: boolean;
  /** #42 (page-controlled): what the action would send or change, for the card: `To: bob@mail.test`, an item, a price. */
  context?: string[];
  /** #42 (page-controlled): the title of the dialog it sits in, or the heading of its section or form. */
  heading?: string;
  /** #42 (page-controlled): for dom.drag, the element it is dropped onto (a "Trash" folder makes the drag a delete). */
  dropOnto?: Pick<TargetElement, 'role' | 'name' | 'text' | 'hints'>;
}

export interface TargetTab {
  id: number;
  url?: string;
  /** The tab page's origin (http/https only). */
  origin?: string;
  /** Page-controlled. */
  title?: string;
  /** Whether this is the run's own tab (the one the conversation started on). */
  isRunTab: boolean;
}

export interface CallTarget {
  tab?: TargetTab;
  element?: TargetElement;
  /** A URL the call loads (tabs.open, tabs.navigate) or fetches (web.fetch). */
  url?: string;
  /** Set when `url` is on the user's own network and config `approvals.local_hosts` does not name it. */
  localNetwork?: { origin: string; reason: string };
  /**
   * The site the call acts on, for approval rules and "always on this site": the destination's origin for a call
   * that loads a URL, else the target tab's origin.
   */
  origin?: string;
}
