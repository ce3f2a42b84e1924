/**
 * The sixteen-bit groups of an IPv6 address, eight of them: `::` expanded, a dotted IPv4 tail
 * made two groups, a zone (`%eth0`) dropped.
 * @param address - an IPv6 address (`net.isIP` gives 6)
 * @returns the groups, most significant first
 */
function groupsOf(address: string): number[] {
  const text = address.split('%', 1)[0] ?? '';
  const parse = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [Number.parseInt(group, 16)];
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const gap = text.indexOf('::');
  if (gap < 0) return parse(text);
  const head = parse(text.slice(0, gap));
  const tail = parse(text.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

/** Two sixteen-bit groups as a dotted IPv4 address. */
function dotted(high: number, low: number): string {
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/**
 * The IPv4 address an IPv6 address stands for, when it is one of the forms that reach an IPv4
 * host: IPv4-mapped `::ffff:0:0/96`, IPv4-compatible `::/96`, IPv4-translated
 * `::ffff:0:0:0/96`, NAT64 `64:ff9b::/96` (RFC 6052) and 6to4 `2002::/16` (RFC 3056). A webhook
 * host in one of them is judged by that IPv4 address (docs/webhooks.md, "Webhook URLs").
 * @param address - an IPv6 address (`net.isIP` gives 6)
 * @returns the IPv4 address, dotted; undefined for any other IPv6 address
 */
export function embeddedIpv4(address: string): string | undefined {
  const g = groupsOf(address);
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = g;
  if (g0 === 0x2002) return dotted(g1 ?? 0, g2 ?? 0);
  const zeroG2ToG3 = g2 === 0 && g3 === 0;
  if (g0 === 0 && g1 === 0 && zeroG2ToG3) {
    // ::/96 and ::ffff:0:0/96, and the IPv4-translated ::ffff:0:0:0/96 (RFC 2765)
    if (g4 === 0 && (g5 === 0 || g5 === 0xffff)) return dotted(g6, g7);
    if (g4 === 0xffff && g5 === 0) return dotted(g6, g7);
  }
  if (g0 === 0x64 && g1 === 0xff9b && zeroG2ToG3 && g4 === 0 && g5 === 0) return dotted(g6, g7);
  return undefined;
}
