/**
 * The minimal target resolver the guard needs: which origins a tab's content comes from, and where an element
 * target sends (its frame's origin, and a link's destination). The worker implements it with chrome.* and the
 * content router (src/background/flowResolver.ts); tests pass a map.
 */
import type { Labels } from './labels.ts';

export interface ElementTarget {
  readonly ref?: string | undefined;
  readonly selector?: string | undefined;
}

export interface OriginResolver {
  /** The top origin and every frame origin of a tab (undefined: the run's / the active tab). */
  tabOrigins(tabId: number | undefined): Promise<Labels>;
  /**
   * Where acting on `target` in the tab can send data: the origin of the frame the element lives in, and the origin
   * a link or area element navigates to (listed first). Without a target: the top frame's origin (the focused
   * element).
   */
  targetOrigins(tabId: number | undefined, target: ElementTarget): Promise<Labels>;
  /** The origins of every open tab (tabs.list shows all their titles and URLs). */
  allTabOrigins(): Promise<Labels>;
}
