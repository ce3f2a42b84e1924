import { type LookupAddress, type LookupOptions, lookup as lookupCallback } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { embeddedIpv4 } from './embeddedIpv4.js';

/** Addresses a webhook may not reach: private, loopback, link-local and other non-public ranges. */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  // NAT64 for local use (RFC 8215): where its IPv4 address sits is each network's choice.
  ['64:ff9b:1::', 48],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

/**
 * Whether `address` (an IP literal) is private, loopback, link-local or otherwise not public. An
 * IPv6 address that stands for an IPv4 one (mapped, compatible, translated, NAT64, 6to4) is
 * judged by that IPv4 address: `64:ff9b::a00:1` reaches 10.0.0.1.
 * @param address - the address
 * @returns true when a webhook may not reach it
 */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  const ipv4 = embeddedIpv4(address);
  return ipv4 === undefined ? BLOCKED.check(address, 'ipv6') : BLOCKED.check(ipv4, 'ipv4');
}

/** The host of a URL as an address or a name: IPv6 literals without their brackets. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Checks a webhook URL's form: https (http too with `allowLocalUrls`), no credentials, and no
 * literal address that is not public unless `allowLocalUrls`.
 * @param raw - the URL
 * @param allowLocalUrls - whether http and local addresses are allowed (development, tests)
 * @returns the parsed URL
 * @throws TypeError naming what is wrong
 */
export function checkUrlForm(raw: string, allowLocalUrls: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError(`webhook_url ${JSON.stringify(raw)} is not a URL`);
  }
  const schemes = allowLocalUrls ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    throw new TypeError(
      `webhook_url ${raw} must be https${allowLocalUrls ? ' or http' : ' (http only with allowLocalUrls)'}`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new TypeError(`webhook_url ${raw} must not hold credentials`);
  }
  const host = hostOf(url);
  if (!allowLocalUrls && isIP(host) !== 0 && isBlockedAddress(host)) {
    throw new TypeError(`webhook_url ${raw} is a private, loopback or link-local address`);
  }
  return url;
}

/**
 * Resolves a webhook URL's host and checks every address it resolves to (DNS can change between
 * loading and sending): none may be private, loopback or link-local, unless `allowLocalUrls`.
 * @param url - the URL, its form checked
 * @param allowLocalUrls - whether local addresses are allowed
 * @throws Error naming the host and the address refused, or why it did not resolve
 */
export async function checkUrlAddresses(url: URL, allowLocalUrls: boolean): Promise<void> {
  if (allowLocalUrls) return;
  const host = hostOf(url);
  const addresses = isIP(host) !== 0 ? [{ address: host }] : await lookup(host, { all: true });
  const refused = blockedOf(host, addresses);
  if (refused !== undefined) throw refused;
}

/** The error for the first address of `host` a webhook may not reach; undefined when none. */
function blockedOf(host: string, addresses: readonly { address: string }[]): Error | undefined {
  const blocked = addresses.find(({ address }) => isBlockedAddress(address));
  if (blocked === undefined) return undefined;
  return new Error(
    `webhook host ${host} resolves to ${blocked.address}, a private, loopback or link-local address`,
  );
}

/** The callback of a `lookup` that `net.connect` takes. */
type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for `net.connect` that refuses a host any of whose addresses is not public: the
 * check made on the very answer the connection then uses, so that an answer that changes between
 * an earlier check and the connection (DNS rebinding) is caught too.
 */
function checkedLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  lookupCallback(hostname, { ...options, all: true }, (err, addresses) => {
    if (err !== null) return callback(err, '');
    const refused = blockedOf(hostname, addresses);
    if (refused !== undefined) return callback(refused, '');
    if (options.all === true) return callback(null, addresses);
    const first = addresses[0] as LookupAddress;
    callback(null, first.address, first.family);
  });
}

/**
 * The dispatcher's own HTTP client: undici's `fetch` over an agent whose connections check the
 * addresses they connect to, unless `allowLocalUrls`. Literal addresses are checked with the
 * URL's form, when partners are loaded.
 * URL's form, when partners are loaded. Idle connections do not keep the process alive.
 * @param allowLocalUrls - whether local addresses are allowed (development, tests)
 * @returns the client
 */
export function checkedFetch(allowLocalUrls: boolean): typeof globalThis.fetch {
  const dispatcher = new Agent(allowLocalUrls ? {} : { connect: { lookup: checkedLookup } });
  return ((input: string, init?: RequestInit) =>
    undiciFetch(input, {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher,
    })) as unknown as typeof globalThis.fetch;
}
