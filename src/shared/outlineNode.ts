/**
 * One node of a frame's outline (#24): the tree the content script builds, the wire form packs
 * (`outlineWire.ts`), `contentMessages.ts` checks, and the worker stitches and renders (`outline.ts`). Its own
 * file so that those files each import it from below and none imports another back. Element fields are page text
 * as found; rendering quotes and shortens.
 */
export interface OutlineNode {
  /** `frame`: an iframe whose own outline the worker puts in `children` (`frame` indexes the reply's `frames`). */
  kind: 'element' | 'text' | 'frame' | 'note';
  role?: string;
  name?: string;
  ref?: string;
  /** Not shown by an earlier snapshot: rendered `[new]`. */
  isNew?: boolean;
  /** The name was taken from the control's row, not its label: rendered `[name inferred]`. */
  nameInferred?: boolean;
  /** State tokens without brackets, in a fixed order: `checked`, `level=2`, `disabled`. */
  states?: string[];
  /** The control's value as shown (` value="…"`, a select's `options=[…]`), without the leading space. */
  value?: string;
  /** A link's target as shown (same-origin links as a path). */
  href?: string;
  /** How to tell an unnamed control apart: `<div#id.class> beside "…"`. */
  hint?: string;
  /** A `text` node's text (already shortened and defused), or a `note` (Otto's own words, not page text). */
  text?: string;
  frame?: number;
  children: OutlineNode[];
}
