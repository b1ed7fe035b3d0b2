/**
 * The committed letters (content/letters/*.yaml), read as the server reads them, for tests of the
 * template. `firstLetter` is the one in `order` 1: today's text, "Two focused hours".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { letterSchema } from '../../../src/lib/email/letters';
import type { Letter } from '../../../src/lib/email/template';

const lettersDir = join(import.meta.dirname, '..', '..', '..', 'content', 'letters');

export function committedLetters(): Letter[] {
  return readdirSync(lettersDir)
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => ({ id: name.replace(/\.yaml$/, ''), ...letterSchema.parse(yaml.load(readFileSync(join(lettersDir, name), 'utf8'))) }))
    .sort((a, b) => a.order - b.order)
    .map(({ id, introduction, body, closing }) => ({ id, introduction, body, closing }));
}

export const firstLetter: Letter = committedLetters()[0]!;
