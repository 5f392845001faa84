/** Which URLs tools may load, and which hosts are the user's own network (issue #31). */
import { describe, expect, it } from 'vitest';
import {
  localDestination,
  localHostAllowed,
  localNetworkReason,
  parseIPv6,
  requireWebUrl,
} from '../../src/tools/urlPolicy.ts';
import { strictParameters, validateArguments } from '../../src/tools/validate.ts';
import { z } from '../../src/shared/zod.ts';

const reasonOf = (url: string) => localNetworkReason(new URL(url).hostname);

describe('requireWebUrl: http and https only', () => {
  it('accepts web URLs', () => {
    expect(requireWebUrl('https://example.com/a?b', 'tabs.open').href).toBe('https://example.com/a?b');
    expect(requireWebUrl(' http://example.com ', 'tabs.open').href).toBe('http://example.com/');
  });
  it.each([
    'file:///home/me/.ssh/id_rsa',
    'data:text/html,<title>Bank</title>',
    'javascript:alert(1)',
    'chrome://settings',
    'chrome-extension://abc/page.html',
    'blob:https://example.com/1',
    'about:blank',
    'view-source:https://example.com',
    'ftp://example.com/x',
  ])('refuses %s with a clear error', (url) => {
    const scheme = new URL(url).protocol;
    expect(() => requireWebUrl(url, 'tabs.open')).toThrow(
      `tabs.open only opens web pages (http: or https:), not ${scheme} URLs`,
    );
  });
  it('refuses what is not a URL', () => {
    expect(() => requireWebUrl('not a url', 'web.fetch')).toThrow(
      'web.fetch: "not a url" is not a valid URL (give an absolute http or https URL).',
    );
  });
});

describe('localNetworkReason: IPv4', () => {
  it.each([
    ['http://127.0.0.1/', 'loopback (this computer)'],
    ['http://127.8.9.10:8080/', 'loopback (this computer)'],
    ['http://0.0.0.0/', 'the unspecified address (this computer)'],
    ['http://10.0.0.1/', 'a private address'],
    ['http://172.16.0.1/', 'a private address'],
    ['http://172.31.255.255/', 'a private address'],
    ['http://192.168.1.1/admin', 'a private address'],
    ['http://169.254.169.254/latest/meta-data', 'a link-local address'],
    ['http://100.64.0.1/', 'a carrier-grade NAT address'],
    // Other spellings the URL parser normalises to the same address.
    ['http://2130706433/', 'loopback (this computer)'],
    ['http://0x7f.1/', 'loopback (this computer)'],
    ['http://127.1/', 'loopback (this computer)'],
    ['http://0300.0250.1.1/', 'a private address'],
  ])('%s is %s', (url, reason) => expect(reasonOf(url)).toBe(reason));
  it.each([
    'http://8.8.8.8/',
    'http://172.15.0.1/',
    'http://172.32.0.1/',
    'http://192.169.0.1/',
    'http://100.128.0.1/',
    'http://11.0.0.1/',
  ])('%s is public', (url) => expect(reasonOf(url)).toBeUndefined());
});

describe('localNetworkReason: IPv6', () => {
  it.each([
    ['http://[::1]/', 'loopback (this computer)'],
    ['http://[::]/', 'the unspecified address (this computer)'],
    ['http://[fe80::1]/', 'a link-local address'],
    ['http://[fc00::1]/', 'a unique-local address'],
    ['http://[fd12:3456:789a::1]/', 'a unique-local address'],
    ['http://[fec0::1]/', 'a site-local address'],
    ['http://[::ffff:127.0.0.1]/', 'loopback (this computer)'],
    ['http://[::ffff:192.168.0.1]/', 'a private address'],
    ['http://[::ffff:a9fe:a9fe]/', 'a link-local address'],
  ])('%s is %s', (url, reason) => expect(reasonOf(url)).toBe(reason));
  it.each(['http://[2001:4860:4860::8888]/', 'http://[2606:4700::1111]/', 'http://[::ffff:8.8.8.8]/'])(
    '%s is public',
    (url) => expect(reasonOf(url)).toBeUndefined(),
  );
  it('expands groups, refuses malformed literals', () => {
    expect(parseIPv6('fe80::1')).toEqual([0xfe80, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseIPv6('1::2::3')).toBeUndefined();
    expect(parseIPv6('12345::1')).toBeUndefined();
    expect(localNetworkReason('[1::2::3]')).toBe('an unreadable IPv6 address');
  });
});

describe('localNetworkReason: names', () => {
  it.each([
    ['http://localhost:5173/', 'loopback (this computer)'],
    ['http://app.localhost/', 'loopback (this computer)'],
    ['http://printer.local/', 'a local network name (.local)'],
    ['http://grafana.internal/', 'a local network name (.internal)'],
    ['http://nas.lan/', 'a local network name (.lan)'],
    ['http://router.home.arpa/', 'a local network name (.home.arpa)'],
    ['http://router/', 'a single-label name (a machine on the local network)'],
    ['http://ROUTER./', 'a single-label name (a machine on the local network)'],
  ])('%s is %s', (url, reason) => expect(reasonOf(url)).toBe(reason));
  it.each([
    'https://example.com/',
    'https://bank.example/',
    'https://local.example.com/',
    'https://internal.company.com/',
  ])('%s is public', (url) => expect(reasonOf(url)).toBeUndefined());
});

describe('approvals.local_hosts', () => {
  const u = (s: string) => new URL(s);
  it('a host allows every port; host:port only that port', () => {
    expect(localHostAllowed(u('http://localhost:5173/'), ['localhost'])).toBe(true);
    expect(localHostAllowed(u('http://localhost:5173/'), ['localhost:5173'])).toBe(true);
    expect(localHostAllowed(u('http://localhost:3000/'), ['localhost:5173'])).toBe(false);
    expect(localHostAllowed(u('http://127.0.0.1/'), ['127.0.0.1:80'])).toBe(true);
    expect(localHostAllowed(u('http://[::1]:8080/'), ['[::1]'])).toBe(true);
    expect(localHostAllowed(u('http://192.168.1.1/'), ['localhost', '127.0.0.1'])).toBe(false);
  });
  it('localDestination asks for the user’s network unless the host is allowed (both ways)', () => {
    expect(localDestination(u('http://192.168.1.1/admin'), [])).toEqual({
      origin: 'http://192.168.1.1',
      reason: 'a private address',
    });
    expect(localDestination(u('http://192.168.1.1/admin'), ['192.168.1.1'])).toBeUndefined();
    expect(localDestination(u('http://localhost:5173/'), [])).toEqual({
      origin: 'http://localhost:5173',
      reason: 'loopback (this computer)',
    });
    expect(localDestination(u('http://localhost:5173/'), ['localhost:5173'])).toBeUndefined();
    expect(localDestination(u('https://example.com/'), [])).toBeUndefined();
  });
});

describe('strict arguments', () => {
  it('unknown top-level arguments are refused; loose schemas keep theirs', () => {
    const s = z.object({ a: z.string() });
    expect(() => validateArguments(s, { a: 'x', padding: 'y'.repeat(900) })).toThrow('Unknown parameter: padding');
    expect(validateArguments(s, { a: 'x' })).toEqual({ a: 'x' });
    const loose = z.looseObject({});
    expect(strictParameters(loose)).toBe(loose);
    expect(validateArguments(loose, { anything: 1 })).toEqual({ anything: 1 });
  });
});
