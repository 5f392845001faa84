/**
 * Injected on demand (chrome.scripting.executeScript, isolated world) by the worker before the first `dom.read` in a
 * frame: registers the article reader where the content script looks for it. Shares the content script's isolated
 * world, so the page cannot see or call it.
 */
import { readArticle } from './read.ts';
import { READER_KEY } from './readerKey.ts';

(globalThis as unknown as Record<symbol, unknown>)[READER_KEY] = readArticle;
