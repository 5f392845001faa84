/** Pure text helpers of the command card. */

export const CLIP_LINES = 20;
export const CLIP_CHARS = 2400;
/** Hiding fewer lines than this is not worth a click. */
export const SLACK = 8;

/** The first CLIP_LINES lines / CLIP_CHARS characters, or undefined when the text is short enough to show. */
export function clip(text: string): string | undefined {
  const lines = text.split('\n');
  if (lines.length <= CLIP_LINES + SLACK && text.length <= CLIP_CHARS + SLACK * 80) return undefined;
  return lines.slice(0, CLIP_LINES).join('\n').slice(0, CLIP_CHARS);
}

/**
 * Bare links to Otto's bundled docs (ot.help prints them) as markdown autolinks; markdownToHtml.ts keeps only its own.
 */
export function linkDocs(text: string): string {
  return text.replace(/(^|[\s(])(chrome-extension:\/\/[a-p]{32}\/docs\/[^\s)<>]+)/g, '$1<$2>');
}
