/**
 * Opens text in a new tab from a blob URL of the panel's own origin. The document inherits the extension's CSP, so
 * any script in it would not run; HTML reports are static (inline SVG), and other files open as plain text.
 */
export function openInTab(content: string, mime: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: `${mime};charset=utf-8` }));
  // chrome.tabs opens a tab next to the current one even from the side panel, where window.open makes a popup.
  chrome.tabs.create({ url }).catch(() => window.open(url, '_blank', 'noopener'));
  // The new tab has loaded it long before this; the panel keeps no blob alive for long.
  setTimeout(() => URL.revokeObjectURL(url), 120_000);
}

/** Opens a web address in a new tab next to the current one (a link the user chose to follow). */
export function openUrl(url: string): void {
  chrome.tabs.create({ url }).catch(() => window.open(url, '_blank', 'noopener,noreferrer'));
}
