/** The `forms` collection as pages read it (build time only). */
import { getEntry } from 'astro:content';
import type { FormPurpose } from '../../../config/forms';
import type { FormDefinition } from '../../shared/forms/definition';

export interface FormEntry {
  purpose: FormPurpose;
  render: 'native' | 'embed';
  definition: FormDefinition;
}

export async function formEntry(purpose: FormPurpose): Promise<FormEntry> {
  const entry = await getEntry('forms', purpose);
  if (!entry) throw new Error(`The forms collection has no "${purpose}" form (see src/config/forms.ts).`);
  const { purpose: _purpose, render, source: _source, ...definition } = entry.data;
  return { purpose, render, definition: definition as FormDefinition };
}
