// The one home of URL origins (src/shared/origin.ts): what a site is for approvals, tab sharing and guards.
import { describe, expect, it } from 'vitest';
import { originOf, webOrigin } from '../../src/shared/origin.ts';

describe('originOf', () => {
  it('gives the origin of any URL with one, nothing for opaque or unparseable ones', () => {
    expect(originOf('https://a.example:8443/p?q#h')).toBe('https://a.example:8443');
    expect(originOf('ws://b.example/socket')).toBe('ws://b.example');
    expect(originOf('about:blank')).toBeUndefined();
    expect(originOf('data:text/plain,hi')).toBeUndefined();
    expect(originOf('not a url')).toBeUndefined();
    expect(originOf('')).toBeUndefined();
    expect(originOf(undefined)).toBeUndefined();
  });
});

describe('webOrigin', () => {
  it('gives the origin of http(s) URLs only', () => {
    expect(webOrigin('http://a.example/x')).toBe('http://a.example');
    expect(webOrigin('HTTPS://A.Example/x')).toBe('https://a.example');
    expect(webOrigin('ws://b.example/socket')).toBeUndefined();
    expect(webOrigin('file:///etc/hosts')).toBeUndefined();
    expect(webOrigin('chrome://settings')).toBeUndefined();
    expect(webOrigin('about:blank')).toBeUndefined();
    expect(webOrigin('nope')).toBeUndefined();
    expect(webOrigin(undefined)).toBeUndefined();
  });
});
