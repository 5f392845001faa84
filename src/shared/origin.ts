/**
 * Origins: of a URL (the site a tab shows, a call acts on, a server lives at) and of a message's sender (who may
 * talk to Otto). One home, so every guard reads a site the same way.
 */

/** A URL's origin, or undefined when it does not parse or has none (`about:blank`, `data:`: an opaque `null`). */
export function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const o = new URL(url).origin;
    return o === 'null' ? undefined : o;
  } catch {
    return undefined;
  }
}

/** The origin of an http(s) URL, else undefined (file:, data:, about:blank and browser pages have no site). */
export function webOrigin(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Who may talk to Otto. Only this extension's own contexts (panel, options page, worker, content scripts):
 * a sender with another id — another extension, or a web page if one ever gets a channel — is ignored.
 */
export function isFromThisExtension(sender: chrome.runtime.MessageSender | undefined, selfId: string): boolean {
  return !!sender && sender.id === selfId;
}

/** True for a sender that is one of our extension pages (not a content script inside a web page). */
export function isExtensionPage(sender: chrome.runtime.MessageSender | undefined, selfId: string): boolean {
  return (
    isFromThisExtension(sender, selfId) &&
    typeof sender?.url === 'string' &&
    sender.url.startsWith(`chrome-extension://${selfId}/`)
  );
}

/** The host a site is named by (`https://www.mail.test:8080` → `mail.test`): the task scope's sites (#42). */
export function siteHost(origin: string | undefined): string | undefined {
  if (!origin) return undefined;
  try {
    return new URL(origin).hostname.replace(/^www\./, '') || undefined;
  } catch {
    return undefined;
  }
}
