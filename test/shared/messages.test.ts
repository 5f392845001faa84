import { describe, expect, it } from 'vitest';
import { PanelRequest, WorkerToPanel, parseMessage } from '../../src/shared/messages.ts';
import { ContentReply } from '../../src/shared/contentMessages.ts';
import { isExtensionPage, isFromThisExtension } from '../../src/shared/origin.ts';

describe('message protocol', () => {
  it('accepts every well-formed panel request and rejects unknown types', () => {
    expect(parseMessage(PanelRequest, { type: 'ping', id: 'a' }).ok).toBe(true);
    expect(parseMessage(PanelRequest, { type: 'frames.ping', id: 'a', tabId: 3 }).ok).toBe(true);
    const bad = parseMessage(PanelRequest, { type: 'format-disk', id: 'a' });
    expect(bad.ok).toBe(false);
  });

  it('names the field that failed validation', () => {
    const r = parseMessage(PanelRequest, { type: 'config.save', id: 'a', yaml: 42 });
    expect(r).toEqual({ ok: false, error: expect.stringMatching(/^invalid message at yaml: /) });
  });

  it('parses both success and error replies, and pushed events, from the worker', () => {
    expect(parseMessage(WorkerToPanel, { type: 'result', id: 'x', ok: true, data: { a: 1 } })).toEqual({
      ok: true,
      value: { type: 'result', id: 'x', ok: true, data: { a: 1 } },
    });
    expect(parseMessage(WorkerToPanel, { type: 'result', id: 'x', ok: false, error: 'boom' }).ok).toBe(true);
    expect(parseMessage(WorkerToPanel, { type: 'hello', version: '1', startedAt: 1 }).ok).toBe(true);
    expect(parseMessage(WorkerToPanel, { type: 'result', id: 'x', ok: false }).ok).toBe(false);
  });

  it('content replies carry data or an error', () => {
    expect(parseMessage(ContentReply, { ok: true, data: 1 }).ok).toBe(true);
    expect(parseMessage(ContentReply, { ok: false }).ok).toBe(false);
  });
});

describe('sender checks', () => {
  const self = 'abcdefghijklmnopabcdefghijklmnop';
  it('accepts only senders with this extension id', () => {
    expect(isFromThisExtension({ id: self }, self)).toBe(true);
    expect(isFromThisExtension({ id: 'other' }, self)).toBe(false);
    expect(isFromThisExtension(undefined, self)).toBe(false);
  });
  it('treats a content script inside a web page as not an extension page', () => {
    expect(isExtensionPage({ id: self, url: `chrome-extension://${self}/src/sidepanel/index.html` }, self)).toBe(true);
    expect(isExtensionPage({ id: self, url: 'https://evil.example/' }, self)).toBe(false);
    expect(isExtensionPage({ id: 'other', url: `chrome-extension://other/x.html` }, self)).toBe(false);
  });
});
