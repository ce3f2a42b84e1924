/**
 * Webhook hosts that are IPv6 forms of an IPv4 address (docs/webhooks.md, "Webhook URLs"):
 * IPv4-mapped, IPv4-compatible, IPv4-translated, NAT64 and 6to4 addresses reach the IPv4 host
 * they carry, so they are refused exactly when that IPv4 address is, as a URL's literal host
 * when partners are loaded (the dispatcher, its `setPartners`, `startWebhookDispatcher`), and as
 * an address a host resolves to (the same check, on the resolver's answer, before each attempt
 * and as the default client connects).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { createMemoryStore } from '../../src/engine/entry.js';
import { isBlockedAddress } from '../../src/webhooks/addresses.js';
import { embeddedIpv4 } from '../../src/webhooks/embeddedIpv4.js';
import {
  createWebhookDispatcher,
  generateWebhookSecret,
  startWebhookDispatcher,
} from '../../src/webhooks/index.js';

const SECRET = generateWebhookSecret();

/** An IPv4 address as two sixteen-bit groups in hex. */
function hexGroups(ipv4: string): [string, string] {
  const [a = 0, b = 0, c = 0, d = 0] = ipv4.split('.').map(Number);
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
}

/** Every IPv6 form of an IPv4 address, dotted and in hex, as written in a URL. */
function formsOf(ipv4: string): Record<string, string> {
  const [high, low] = hexGroups(ipv4);
  return {
    'NAT64 (64:ff9b::/96)': `64:ff9b::${high}:${low}`,
    'NAT64, dotted': `64:ff9b::${ipv4}`,
    '6to4 (2002::/16)': `2002:${high}:${low}::1`,
    'IPv4-compatible (::/96)': `::${high}:${low}`,
    'IPv4-compatible, dotted': `::${ipv4}`,
    'IPv4-mapped (::ffff:0:0/96)': `::ffff:${high}:${low}`,
    'IPv4-mapped, dotted': `::ffff:${ipv4}`,
    'IPv4-translated (::ffff:0:0:0/96)': `::ffff:0:${high}:${low}`,
    'NAT64, written whole': `0064:ff9b:0000:0000:0000:0000:${high}:${low}`,
  };
}

const dispatcherOf = (webhook_url: string) =>
  createWebhookDispatcher({
    store: createMemoryStore(),
    partners: [{ application_id: 'bank-a', webhook_url, webhook_secret: SECRET }],
  });

describe('a webhook URL whose host is an IPv6 form of an IPv4 address', () => {
  for (const [form, host] of Object.entries(formsOf('10.0.0.1'))) {
    test(`is refused when it carries 10.0.0.1: ${form}, https://[${host}]/`, () => {
      expect(() => dispatcherOf(`https://[${host}]/hooks`)).toThrow(
        /bank-a.*private, loopback or link-local/,
      );
    });
  }
  for (const [form, host] of Object.entries(formsOf('8.8.8.8'))) {
    test(`is allowed when it carries 8.8.8.8: ${form}, https://[${host}]/`, () => {
      expect(() => dispatcherOf(`https://[${host}]/hooks`)).not.toThrow();
    });
  }

  test('is refused for every private, loopback and link-local IPv4 address it may carry', () => {
    for (const ipv4 of ['127.0.0.1', '169.254.169.254', '172.16.5.4', '192.168.1.1', '0.0.0.0']) {
      for (const host of Object.values(formsOf(ipv4))) {
        expect(() => dispatcherOf(`https://[${host}]/`), host).toThrow(/bank-a/);
      }
    }
  });

  test('is refused when the partners are set again, and the partners before stay', () => {
    const dispatcher = dispatcherOf('https://bank.example/hooks');
    expect(() =>
      dispatcher.setPartners([
        {
          application_id: 'bank-a',
          webhook_url: 'https://[2002:c0a8:101::1]/',
          webhook_secret: SECRET,
        },
      ]),
    ).toThrow(/bank-a.*private, loopback or link-local/);
  });

  test('stops startWebhookDispatcher, as cashback serve starts, naming the partner', async () => {
    await expect(
      startWebhookDispatcher({
        store: createMemoryStore(),
        partners: [
          {
            application_id: 'bank-a',
            webhook_url: 'https://[64:ff9b::a00:1]/',
            webhook_secret: SECRET,
          },
        ],
      }),
    ).rejects.toThrow(/bank-a.*private, loopback or link-local/);
  });

  test('of the local-use NAT64 prefix 64:ff9b:1::/48 is refused, whatever it carries', () => {
    expect(() => dispatcherOf('https://[64:ff9b:1::808:808]/')).toThrow(/bank-a/);
  });
});

describe('the address check a resolver answer goes through', () => {
  const ipv4 = fc
    .tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255))
    .map((bytes) => bytes.join('.'));

  test('judges every IPv6 form of an IPv4 address as that IPv4 address', () => {
    fc.assert(
      fc.property(ipv4, (address) => {
        const blocked = isBlockedAddress(address);
        for (const host of Object.values(formsOf(address))) {
          expect(isBlockedAddress(host), host).toBe(blocked);
          // and as the URL parser writes the host (hex groups, `::` shortest)
          expect(isBlockedAddress(new URL(`https://[${host}]/`).hostname.slice(1, -1))).toBe(
            blocked,
          );
        }
      }),
    );
  });

  test('finds the IPv4 address only in those forms', () => {
    expect(embeddedIpv4('2002:a00:1::1')).toBe('10.0.0.1');
    expect(embeddedIpv4('64:ff9b::c0a8:101')).toBe('192.168.1.1');
    expect(embeddedIpv4('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(embeddedIpv4('fe80::a00:1%eth0')).toBe(undefined);
    expect(embeddedIpv4('2001:db8::a00:1')).toBe(undefined);
    expect(embeddedIpv4('64:ff9b:1::a00:1')).toBe(undefined);
    expect(embeddedIpv4('::1:0:a00:1')).toBe(undefined);
  });

  test('still refuses loopback, unique-local and link-local IPv6, and allows a public one', () => {
    for (const address of ['::1', '::', 'fd00::1', 'fe80::1', 'ff02::1']) {
      expect(isBlockedAddress(address), address).toBe(true);
    }
    expect(isBlockedAddress('2606:4700::1111')).toBe(false);
  });
});
