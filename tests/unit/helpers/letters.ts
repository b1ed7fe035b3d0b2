/**
 * The committed letters (content/letters/*.yaml), read as the server reads them, for tests of the
 * template. `firstLetter` is the one in `order` 1: today's text, "Two focused hours".
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { letterSchema, withStatistics } from '../../../src/lib/shared/email/letter-texts';
import type { Letter } from '../../../src/lib/shared/email/template';
import { statSchema } from '../../../src/lib/shared/stats';

const contentDir = join(import.meta.dirname, '..', '..', '..', 'content');
const lettersDir = join(contentDir, 'letters');

/** The statistics of content/stats.yaml, which the letters quote. */
export const committedStats = () => statSchema.array().parse(yaml.load(readFileSync(join(contentDir, 'stats.yaml'), 'utf8')));

export function committedLetters(): Letter[] {
  const stats = committedStats();
  return readdirSync(lettersDir)
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => ({ id: name.replace(/\.yaml$/, ''), ...letterSchema.parse(yaml.load(readFileSync(join(lettersDir, name), 'utf8'))) }))
    .sort((a, b) => a.order - b.order)
    .map(({ id, introduction, body, closing }) => withStatistics({ id, introduction, body, closing }, stats, `content/letters/${id}.yaml`));
}

export const firstLetter: Letter = committedLetters()[0]!;
