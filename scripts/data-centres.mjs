/**
 * `npm run data-centres [asn-ipv4.csv asn-ipv6.csv]`: writes src/server/analytics/data-centre-ranges.json,
 * the address ranges of the networks listed in src/config/data-centres.json, which the figures
 * leave out (issue 46; docs/insights.md). Nothing is fetched: it reads the IP-to-ASN CSV files of
 * ip-location-db (RouteViews, the five RIRs via the NRO, and DB-IP; CC BY 4.0), which staff get
 * from https://github.com/sapics/ip-location-db/releases (or `npm pack @ip-location-db/asn`), and
 * name here. Each row is `start,end,asn,organisation`, both ends included. Ranges of one list that
 * touch or overlap are merged.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const configFile = `${root}src/config/data-centres.json`;
export const rangesFile = `${root}src/server/analytics/data-centre-ranges.json`;

/** An IPv4 address as a number. */
export function v4Number(address) {
  return address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

/** An IPv6 address as 32 hexadecimal digits (which sort as the numbers do). */
export function v6Hex(address) {
  const [head, tail = ''] = address.toLowerCase().split('::');
  const parts = (text) => (text ? text.split(':') : []);
  const groups = address.includes('::') ? [...parts(head), ...Array(8 - parts(head).length - parts(tail).length).fill('0'), ...parts(tail)] : parts(head);
  return groups.map((group) => group.padStart(4, '0')).join('');
}

/** The CSV's rows of the listed networks: [start, end, asn], sorted, and merged where they touch (the first's asn kept). */
export function rangesOf(csv, asns, family) {
  const wanted = new Set(asns);
  const rows = [];
  for (const line of csv.split('\n')) {
    const [start, end, asn] = line.split(',');
    if (!start || !end || !wanted.has(Number(asn))) continue;
    if (family === 4 && isIPv4(start) && isIPv4(end)) rows.push([v4Number(start), v4Number(end), Number(asn)]);
    if (family === 6 && isIPv6(start) && isIPv6(end)) rows.push([v6Hex(start), v6Hex(end), Number(asn)]);
  }
  rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const merged = [];
  for (const [start, end, asn] of rows) {
    const last = merged.at(-1);
    if (last && (family === 4 ? start <= last[1] + 1 : start <= nextHex(last[1]))) {
      if (end > last[1]) last[1] = end;
    } else merged.push([start, end, asn]);
  }
  return merged;
}

/** The hexadecimal number after `hex` (same width). */
function nextHex(hex) {
  return (BigInt(`0x${hex}`) + 1n).toString(16).padStart(hex.length, '0');
}

export function buildRanges(ipv4Csv, ipv6Csv, networks, source) {
  const asns = networks.map((network) => network.asn);
  const v4 = rangesOf(ipv4Csv, asns, 4);
  const v6 = rangesOf(ipv6Csv, asns, 6);
  const missing = asns.filter((asn) => !v4.some((range) => range[2] === asn) && !v6.some((range) => range[2] === asn));
  if (missing.length) throw new Error(`No ranges for AS${missing.join(', AS')} in these files: check src/config/data-centres.json and the files.`);
  return {
    $comment:
      'Written by `npm run data-centres` (scripts/data-centres.mjs): do not edit by hand. IP to ASN data by RouteViews (routeviews.org), the NRO (nro.net) and DB-IP (db-ip.com), CC BY 4.0.',
    source,
    asns,
    v4: v4.map(([start, end]) => [start, end]),
    v6: v6.map(([start, end]) => [start, end]),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [ipv4Path = 'node_modules/@ip-location-db/asn/asn-ipv4.csv', ipv6Path = 'node_modules/@ip-location-db/asn/asn-ipv6.csv'] = process.argv.slice(2);
  const { networks } = JSON.parse(readFileSync(configFile, 'utf8'));
  const source = process.env.DATA_CENTRES_SOURCE || `ip-location-db asn CSV (${ipv4Path}, ${ipv6Path}), read ${new Date().toISOString().slice(0, 10)}`;
  const ranges = buildRanges(readFileSync(ipv4Path, 'utf8'), readFileSync(ipv6Path, 'utf8'), networks, source);
  writeFileSync(rangesFile, `${JSON.stringify(ranges)}\n`);
  console.log(`${rangesFile}: ${ranges.v4.length} IPv4 and ${ranges.v6.length} IPv6 ranges of ${networks.length} networks.`);
}
