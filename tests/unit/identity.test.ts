import { describe, expect, test } from 'vitest';
import { canonicalAddress, clientAddressKey } from '../../src/server/identity';

describe('canonicalAddress: one mailbox, one identity', () => {
  test.each([
    ['head@school.org', 'head@school.org'],
    ['  Head@School.ORG ', 'head@school.org'],
    ['head+1@school.org', 'head@school.org'],
    ['head+a+b@school.org', 'head@school.org'],
    ['ｈｅａｄ＠ｓｃｈｏｏｌ．ｏｒｇ', 'head@school.org'],
    ['head@school.org.', 'head@school.org'],
    ['s.a.m+x@gmail.com', 'sam@gmail.com'],
    ['S.A.M@GoogleMail.com', 'sam@gmail.com'],
    ['sam@googlemail.com', 'sam@gmail.com'],
    // Dots matter everywhere but Gmail.
    ['s.a.m@school.org', 's.a.m@school.org'],
    ['s.a.m@gmail.co.uk', 's.a.m@gmail.co.uk'],
    // A leading "+" is the whole local part, not a tag.
    ['+1@school.org', '+1@school.org'],
    ['"quoted"@school.org', '"quoted"@school.org'],
    ['no-at-sign', 'no-at-sign'],
    ['', ''],
  ])('%j → %j', (email, canonical) => {
    expect(canonicalAddress(email)).toBe(canonical);
  });

  test('variants of one parent and one school compare equal', () => {
    const parents = ['sam@gmail.com', 's.a.m+x@gmail.com', 'SAM@googlemail.com', 'sa.m+school@googlemail.com'];
    expect(new Set(parents.map(canonicalAddress)).size).toBe(1);
    const schools = ['head@school.org', 'head+1@school.org', 'Head+2@School.org', 'head+x@SCHOOL.ORG'];
    expect(new Set(schools.map(canonicalAddress)).size).toBe(1);
  });
});

describe('clientAddressKey: IPv6 by its /64', () => {
  test.each([
    ['192.0.2.1', '192.0.2.1'],
    [' 192.0.2.1 ', '192.0.2.1'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['[2001:db8:1:2::7]', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::ffff:192.0.2.9', '192.0.2.9'],
    ['::FFFF:c000:0209', '192.0.2.9'],
    ['2001:db8:1:2::192.0.2.1', '2001:db8:1:2::/64'],
    ['unknown', 'unknown'],
    ['999.1.1.1', '999.1.1.1'],
    ['1::2::3', '1::2::3'],
  ])('%j → %j', (ip, key) => {
    expect(clientAddressKey(ip)).toBe(key);
  });

  test('every address of one /64 is one client, the next /64 another', () => {
    const keys = ['2001:db8:1:2::1', '2001:db8:1:2:abcd::9', '2001:db8:1:2:ffff:ffff:ffff:ffff'].map(clientAddressKey);
    expect(new Set(keys).size).toBe(1);
    expect(clientAddressKey('2001:db8:1:3::1')).not.toBe(keys[0]);
  });
});
