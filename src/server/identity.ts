/**
 * One person, one key: the identities that limits, pairs and impact figures count.
 *
 * - `canonicalAddress`: the mailbox an email address reaches, so that `Head+1@School.org`,
 *   `head@school.org` and `ｈｅａｄ@school.org` are one school contact, and `s.a.m+x@gmail.com`
 *   and `sam@googlemail.com` one parent. Only for counting: mail still goes to the address as given.
 * - `clientAddressKey`: the network a request came from, with an IPv6 client counted by its /64
 *   (one subscriber's whole allocation; any address in it is theirs for the asking).
 */

import { createHash, createHmac, hkdfSync } from 'node:crypto';
import { schoolKey } from '../lib/shared/answer-kinds';
import { serverEnv } from './env';

/** The domains whose mailboxes ignore dots in the local part (and are one and the same). */
const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The canonical form of an email address: NFKC, trimmed, lower case, the `+tag` removed, and for
 * Gmail the dots of the local part removed and googlemail.com made gmail.com. Text without an
 * "@" is returned normalised, so that it can still be compared.
 */
export function canonicalAddress(email: string): string {
  const address = email.normalize('NFKC').trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1).replace(/\.+$/, '');
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

/**
 * The mailbox an address reaches, as a hash (32 hex): what counts one person's emails (budgets,
 * the daily ceiling), so that `sam+1@` and `sam+2@` share one allowance.
 */
export function mailboxKey(email: string): string {
  return createHash('sha256').update(canonicalAddress(email)).digest('hex').slice(0, 32);
}

/** An address exactly as written (NFKC, trimmed, lower case; its `+tag` kept). */
export const exactAddress = (email: string) => email.normalize('NFKC').trim().toLowerCase();

/**
 * An address exactly as written, as a hash (32 hex): what the suppression list keys, so that a
 * stranger who makes `head+x@school` bounce never blocks `head@school` for everyone. (For an
 * address without a tag or Gmail dots it is the same hash as `mailboxKey`.)
 */
export function exactAddressKey(email: string): string {
  return createHash('sha256').update(exactAddress(email)).digest('hex').slice(0, 32);
}

/**
 * A school as the mail layer keys it (32 hex): its record, or, for a school the site does not know,
 * the exact address a letter goes to. Digests, the hourly maximum and the daily cap count by it.
 */
export function schoolGroupKey(school: { schoolId?: string; onRecord?: boolean; to: string }): string {
  const key = school.onRecord && school.schoolId ? `school:${school.schoolId}` : `address:${exactAddress(school.to)}`;
  return createHash('sha256').update(key).digest('hex').slice(0, 32);
}

/** A parent's address as a keyed hash: counts distinct parents (and names their stop link), names none. */
export function parentKey(email: string): string {
  const secret = serverEnv.configEncryptionKey ?? 'local';
  const key = Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), 'mastery-parents impact v1', 32));
  return createHmac('sha256', key).update(canonicalAddress(email)).digest('base64url').slice(0, 22);
}

/**
 * Whether a parent wrote to their own domain (or to their own address): a catch-all domain could
 * otherwise be its own "school", so such a letter counts only once staff approve it.
 */
export function sameDomain(parent: string, school: string): boolean {
  return schoolOf(parent) === schoolOf(school) || canonicalAddress(parent) === canonicalAddress(school);
}

/** The school an address stands for in the impact figures: its domain, or the whole address at a free provider. */
export function schoolOf(address: string): string {
  return schoolKey(canonicalAddress(address));
}

/** A network (`clientAddressKey`) as a hash (32 hex), for counts kept per requesting network. */
export function networkKey(ip: string): string {
  return createHash('sha256')
    .update(`network|${clientAddressKey(ip)}`)
    .digest('hex')
    .slice(0, 32);
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

function ipv4(text: string): string | undefined {
  const parts = IPV4.exec(text);
  if (!parts) return undefined;
  const octets = parts.slice(1).map(Number);
  return octets.every((n) => n <= 255) ? octets.join('.') : undefined;
}

/** The eight 16-bit groups of an IPv6 address (an IPv4 tail as two), or undefined when it is not one. */
function ipv6Groups(text: string): number[] | undefined {
  let address = text;
  const tail = /:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(address);
  if (tail) {
    const v4 = ipv4(tail[1]!);
    if (!v4) return undefined;
    const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
    address = `${address.slice(0, tail.index + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':'));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return undefined;
  return groups.map((group) => parseInt(group, 16));
}

/**
 * The key a per-address limit counts a client by: an IPv4 address as it is, an IPv6 address as
 * its /64 prefix ("2001:db8:1:2::/64"), an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) as the
 * IPv4 address. Anything else is returned trimmed and in lower case.
 */
export function clientAddressKey(ip: string): string {
  const text = ip
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '');
  const v4 = ipv4(text);
  if (v4) return v4;
  const groups = ipv6Groups(text);
  if (!groups) return text;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 0xff, groups[7]! >> 8, groups[7]! & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/**
 * An address as a number to compare with ranges: IPv4 as a number, IPv6 as its 32 hexadecimal
 * digits (which sort as the numbers do), an IPv4-mapped IPv6 address as its IPv4 address; anything
 * that is not an address is undefined.
 */
export function addressValue(ip: string): { family: 4; value: number } | { family: 6; value: string } | undefined {
  const key = clientAddressKey(ip);
  const v4 = ipv4(key);
  if (v4) return { family: 4, value: v4.split('.').reduce((n, octet) => n * 256 + Number(octet), 0) };
  const groups = ipv6Groups(
    ip
      .trim()
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1')
      .replace(/%.*$/, ''),
  );
  return groups ? { family: 6, value: groups.map((group) => group.toString(16).padStart(4, '0')).join('') } : undefined;
}

/**
 * The network a request came from as the abuse watch keeps and blocks it: an IPv4 address as its
 * /24 ("192.0.2.0/24"), an IPv6 one as its /64 (`clientAddressKey`), never a whole address.
 * Anything else (no address known) is "unknown".
 */
export function networkPrefix(ip: string): string {
  const key = clientAddressKey(ip);
  const v4 = ipv4(key);
  if (v4) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  return key.endsWith('::/64') ? key : 'unknown';
}

/** The domain of an address as `canonicalAddress` makes it (googlemail.com is gmail.com), or undefined without one. */
export function emailDomainOf(email: string): string | undefined {
  const address = canonicalAddress(email);
  const at = address.lastIndexOf('@');
  return at > 0 && at < address.length - 1 ? address.slice(at + 1) : undefined;
}
