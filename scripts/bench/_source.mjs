/**
 * Loads the site's TypeScript into a bench part as it is (no build): jiti, with JSX in React's
 * automatic runtime as tsconfig.json has it, since the handlers a bench calls reach the emails,
 * which are React components (`src/emails/*.tsx`). tests/unit/bench-source.test.ts loads one.
 */
import { fileURLToPath } from 'node:url';
import { createJiti } from 'jiti';

const jiti = createJiti(import.meta.url, { jsx: { runtime: 'automatic', importSource: 'react' } });

/** Imports a module of the project by a path relative to this folder (`../../src/…`). */
export function importSource(path) {
  return jiti.import(fileURLToPath(new URL(path, import.meta.url)));
}
