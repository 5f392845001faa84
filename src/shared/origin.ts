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
