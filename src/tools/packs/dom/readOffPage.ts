/**
 * `dom.read` on a big page (#24): its article read in the offscreen document (src/offscreen/pageArticle.ts), not in
 * the page's own thread, where Readability would hold it for one long task.
 */
import { askOffscreen } from '../../../offscreen/offscreenClient.ts';
import type { OffPageReader } from '../../../page/pageSnapshot.ts';

export const readOffPage: OffPageReader = async (page, maxChars) => {
  const reply = await askOffscreen({ type: 'page.article', page, maxChars });
  if (!reply.ok) throw new Error(`dom.read could not read the page's article: ${reply.error}`);
  return reply.article;
};
