/**
 * The networks the figures leave out (issue 46): the committed ranges hold the listed clouds' and
 * hosters' addresses and not a household's, and `npm run data-centres` derives them from the
 * IP-to-ASN files as it says (only the listed networks, merged, every network found).
 */
import { describe, expect, test } from 'vitest';
import { isDataCentre } from '../../src/server/analytics/data-centres';
import ranges from '../../src/server/analytics/data-centre-ranges.json';
import config from '../../src/config/data-centres.json';
import { buildRanges, rangesOf, v6Hex } from '../../scripts/data-centres.mjs';

describe('the committed ranges', () => {
  test.each([
    ['Amazon Web Services', '3.5.140.10'],
    ['Amazon Web Services', '52.95.110.1'],
    ['Amazon Web Services, IPv6', '2600:1f18::1'],
    ['Microsoft Azure', '20.42.0.1'],
    ['Google Cloud', '34.120.0.1'],
    ['DigitalOcean', '142.93.0.1'],
    ['Hetzner', '5.9.10.10'],
    ['Hetzner, IPv6', '2a01:4f8::1'],
    ['Hetzner, IPv6 written in capitals and in brackets', '[2A01:4F8::1]'],
    ['Amazon, as an IPv4-mapped IPv6 address', '::ffff:3.5.140.10'],
  ])('%s (%s) is a data centre', (_, ip) => {
    expect(isDataCentre(ip)).toBe(true);
  });

  test.each([
    ['Comcast, a household in the US', '73.15.0.1'],
    ['Comcast, IPv6', '2001:558::1'],
    ['Virgin Media, a household in the UK', '86.1.1.1'],
    ['BT, IPv6', '2a00:23c4::1'],
    ['loopback (a local run)', '127.0.0.1'],
    ['a documentation network', '198.51.100.4'],
    ['no address', 'unknown'],
    ['not an address', '3.5.140.10; DROP TABLE'],
    ['nothing', undefined],
  ])('%s (%s) is not', (_, ip) => {
    expect(isDataCentre(ip)).toBe(false);
  });

  test('are sorted and apart, so the binary search is right, and name every listed network', () => {
    for (const family of ['v4', 'v6'] as const) {
      const list = ranges[family] as unknown as [number | string, number | string][];
      expect(list.length).toBeGreaterThan(100);
      for (let i = 1; i < list.length; i++) expect(list[i]![0] > list[i - 1]![1]).toBe(true);
    }
    expect(ranges.asns).toEqual(config.networks.map((network) => network.asn));
  });
});

describe('npm run data-centres', () => {
  const v4 = [
    '3.0.0.0,3.0.0.255,16509,"Amazon.com, Inc."',
    '3.0.1.0,3.0.1.255,14618,Amazon',
    '3.0.3.0,3.0.3.255,16509,Amazon',
    '73.0.0.0,73.255.255.255,7922,Comcast',
    'not,a,row',
    '',
  ].join('\n');
  const v6 = [
    '2600:1f00::,2600:1f00:ffff:ffff:ffff:ffff:ffff:ffff,16509,Amazon',
    '2600:1f01::,2600:1f01::ff,14618,Amazon',
    '2001:558::,2001:558:3f::,7922,Comcast',
  ].join('\n');

  test('keeps only the listed networks, merging ranges that touch', () => {
    expect(rangesOf(v4, [16509, 14618], 4)).toEqual([
      [50331648, 50332159, 16509],
      [50332416, 50332671, 16509],
    ]);
    expect(rangesOf(v6, [16509, 14618], 6)).toEqual([[v6Hex('2600:1f00::'), v6Hex('2600:1f01::ff'), 16509]]);
  });

  test('refuses to write a list that misses a listed network, naming it', () => {
    expect(() => buildRanges(v4, v6, [{ asn: 16509 }, { asn: 64500 }], 'test')).toThrow('No ranges for AS64500');
    expect(buildRanges(v4, v6, [{ asn: 16509 }], 'test')).toMatchObject({
      asns: [16509],
      v4: [
        [50331648, 50331903],
        [50332416, 50332671],
      ],
    });
  });
});
