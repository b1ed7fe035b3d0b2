/**
 * The letters at build: the first one (in `order`) is the letter a page writes itself, when the
 * form is HubSpot's embed and no server draft picks one (src/lib/email/flow.ts reads it from the
 * page's `data-letter`).
 */
import { getCollection } from 'astro:content';
import type { Letter } from './template';

export async function firstLetter(): Promise<Letter> {
  const [first] = (await getCollection('letters')).sort((a, b) => a.data.order - b.data.order || a.id.localeCompare(b.id));
  if (!first) throw new Error('content/letters has no letters: the school email needs at least one.');
  const { introduction, body, closing } = first.data;
  return { id: first.id, introduction, body, closing };
}
