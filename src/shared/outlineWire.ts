/**
 * An outline tree as it crosses from a frame to the worker (#24). Sent as built, it was about twice the size of the
 * text it renders to as JSON, mostly `"kind":"element"` and `"children":[]` on every node. On the wire a node leaves
 * out what is empty or the default: `kind` when it is `element`, `children` when there are none, `states` when
 * empty, `isNew` and `nameInferred` when false. The worker puts the defaults back after checking the tree
 * (`OutlineTree` in contentMessages.ts), so everything past the boundary sees whole nodes. Both directions are
 * iterative: a page can nest thousands of levels deep.
 */
import type { OutlineNode } from './outlineNode.ts';

/** A node on the wire: `kind` defaults to `element`, `children` to none. */
export type OutlineWireNode = Omit<OutlineNode, 'kind' | 'children'> & {
  kind?: OutlineNode['kind'];
  children?: OutlineWireNode[];
};

const STRINGS = ['role', 'name', 'ref', 'value', 'href', 'hint', 'text'] as const;

function packNode(n: OutlineNode): OutlineWireNode {
  const w: OutlineWireNode = {};
  if (n.kind !== 'element') w.kind = n.kind;
  for (const k of STRINGS) if (n[k] !== undefined && n[k] !== '') w[k] = n[k];
  if (n.isNew) w.isNew = true;
  if (n.nameInferred) w.nameInferred = true;
  if (n.states?.length) w.states = n.states;
  if (n.frame !== undefined) w.frame = n.frame;
  return w;
}

/** A compact copy of the tree for the wire (the tree itself is left as it is). */
export function packOutline(nodes: readonly OutlineNode[]): OutlineWireNode[] {
  const top: OutlineWireNode[] = [];
  const stack: [OutlineNode, OutlineWireNode[]][] = [];
  for (let i = nodes.length - 1; i >= 0; i--) stack.push([nodes[i]!, top]);
  // Children are pushed in reverse so each list is filled in order.
  while (stack.length) {
    const [n, into] = stack.pop()!;
    const w = packNode(n);
    into.push(w);
    if (n.children.length) {
      const kids: OutlineWireNode[] = (w.children = []);
      for (let i = n.children.length - 1; i >= 0; i--) stack.push([n.children[i]!, kids]);
    }
  }
  return top;
}

/** Puts the defaults back, in place: the same objects, now whole nodes. */
export function unpackOutline(nodes: OutlineWireNode[]): OutlineNode[] {
  const stack: OutlineWireNode[] = [...nodes];
  while (stack.length) {
    const n = stack.pop()!;
    n.kind ??= 'element';
    n.children ??= [];
    for (const c of n.children) stack.push(c);
  }
  return nodes as OutlineNode[];
}
