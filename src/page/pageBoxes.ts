/**
 * The boxes of the refs showing in a tab's top frame (tabs.screenshot's overlay). Child frames are not included:
 * their boxes would need each iframe's offset and clipping; a model aiming inside a frame uses its refs instead.
 */
import { BoxesReply } from '../shared/contentMessages.ts';
import { requestContent } from './contentRouter.ts';

export async function refBoxes(tabId: number, limit = 500): Promise<BoxesReply> {
  return BoxesReply.parse(
    await requestContent(tabId, 0, { type: 'dom.boxes', prefix: '', limit }, { timeoutMs: 10_000 }),
  );
}
