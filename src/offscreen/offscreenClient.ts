/**
 * The worker's side of Otto's one offscreen document (src/offscreen/index.html): opened on the first request that
 * needs it, shared by every kind of request (a PDF to read, an HTML page to parse), and closed by the document itself
 * after a minute without requests (src/offscreen/main.ts) — the document, not the worker, keeps that timer, because
 * Chrome stops an idle worker within 30 seconds and a timer in it would die with it, leaving the document open.
 *
 * Chrome allows one offscreen document per extension: creation goes through one promise (concurrent callers wait on
 * it), and a document found open is reused, whatever reasons it was created with. Both reasons are declared on
 * creation for that reason: whichever request opens it, the other kind may follow while it is open.
 */
import {
  OFFSCREEN_REPLIES,
  OFFSCREEN_TARGET,
  type OffscreenReplies,
  type OffscreenRequest,
} from '../shared/offscreenMessages.ts';
import { errorMessage } from '../shared/errorMessage.ts';

export const OFFSCREEN_PATH = 'src/offscreen/index.html';

let creating: Promise<void> | undefined;

async function isOpen(): Promise<boolean> {
  const contexts = await chrome.runtime.getContexts({
    contextTypes: ['OFFSCREEN_DOCUMENT' as chrome.runtime.ContextType],
    documentUrls: [chrome.runtime.getURL(OFFSCREEN_PATH)],
  });
  return contexts.length > 0;
}

async function ensureOpen(): Promise<void> {
  if (creating) return creating;
  if (await isOpen()) return;
  creating ??= chrome.offscreen
    .createDocument({
      url: OFFSCREEN_PATH,
      reasons: [chrome.offscreen.Reason.DOM_PARSER, chrome.offscreen.Reason.WORKERS],
      justification: 'Parses fetched web pages with DOMParser; reads PDF files with pdf.js in a Web Worker.',
    })
    .catch((e: unknown) => {
      // Created meanwhile by another caller.
      if (!/single offscreen document|already/i.test(errorMessage(e))) throw e;
    })
    .finally(() => (creating = undefined));
  await creating;
}

type Request = Omit<OffscreenRequest, 'target'>;
type Reply<T extends Request> = OffscreenReplies[T['type']];

/**
 * Sends one request to the offscreen document, opening it first if needed, and returns its validated reply.
 * A document that closed itself between the check and the message (its idle minute ran out just then) gets no
 * listener: `sendMessage` then rejects or resolves empty, and the request is sent once more to a new document.
 */
export async function askOffscreen<T extends Request>(request: T): Promise<Reply<T>> {
  const message = { ...request, target: OFFSCREEN_TARGET };
  let raw: unknown;
  for (let attempt = 0; attempt < 2 && raw === undefined; attempt++) {
    await ensureOpen();
    raw = await chrome.runtime.sendMessage(message).catch((e: unknown) => {
      if (attempt) throw e;
      return undefined;
    });
  }
  const reply = OFFSCREEN_REPLIES[request.type].safeParse(raw);
  if (!reply.success) throw new Error(`Otto's offscreen document sent no usable answer to ${request.type}.`);
  return reply.data as Reply<T>;
}
