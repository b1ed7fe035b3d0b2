/** The contact fields the browser may write, with their allowed values (see schemas). */
import { sendChoiceField } from '../../config/forms';
import { contactUpdateAllowList } from '../../lib/shared/schemas';
import { serverEnv } from '../env';

/** The HubSpot property behind each field the browser may write. */
const propertyOf: Readonly<Record<string, () => string>> = {};

/**
 * Whether writing this field would choose or start a send of a school email: the send choice, by
 * its form name or its configured HubSpot property. Such a write is never taken from the browser.
 */
export function startsASend(field: string): boolean {
  const name = field.trim().toLowerCase();
  return name === sendChoiceField.name || name === serverEnv.contactProperties.sendChoice.toLowerCase();
}

/**
 * The allowed value, spelled as the allow-list's first entry that matches it case-insensitively,
 * or undefined when the field or value is not allowed.
 */
export function allowedUpdate(field: string, value: string): { property: string; value: string } | undefined {
  if (!Object.hasOwn(contactUpdateAllowList, field) || !Object.hasOwn(propertyOf, field)) return undefined;
  const allowed = contactUpdateAllowList[field]!;
  const canonical = allowed.find((candidate) => candidate.toLowerCase() === value.trim().toLowerCase());
  return canonical ? { property: propertyOf[field]!(), value: canonical } : undefined;
}
