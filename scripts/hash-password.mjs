#!/usr/bin/env node
/**
 * Prints an ADMIN_PASSWORD_HASH for the admin page, so the deployed site need not hold the
 * password itself: `node scripts/hash-password.mjs` (asks) or `... "the password"`.
 */
import { randomBytes, scryptSync } from 'node:crypto';
import { createInterface } from 'node:readline/promises';

let password = process.argv[2];
if (!password) {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  password = await rl.question('Admin password: ');
  rl.close();
}
if (!password || password.length < 12) {
  console.error('Use a password of at least 12 characters.');
  process.exit(1);
}
const salt = randomBytes(16);
console.log(`scrypt$${salt.toString('base64')}$${scryptSync(password, salt, 32).toString('base64')}`);
