/** Where reader.iife.ts registers the article reader in the isolated world (kept apart so the content script does not bundle Readability). */
export const READER_KEY = Symbol.for('otto.reader');
