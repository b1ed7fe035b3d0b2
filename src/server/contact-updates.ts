/** The contact fields the browser may write, with their allowed values (see schemas). */
import { contactUpdateAllowList } from '../lib/schemas';
import { serverEnv } from './env';

type AllowedField = keyof typeof contactUpdateAllowList;

/** The HubSpot property behind each field the browser may write. */
const propertyOf: Record<AllowedField, () => string> = {
  choose_how_to_send_your_email: () => serverEnv.contactProperties.sendChoice,
};

/**
 * The allowed value, spelled as the allow-list's first entry that matches it case-insensitively,
 * or undefined when the field or value is not allowed.
 */
export function allowedUpdate(field: string, value: string): { property: string; value: string } | undefined {
  if (!Object.hasOwn(contactUpdateAllowList, field)) return undefined;
  const allowed: readonly string[] = contactUpdateAllowList[field as AllowedField];
  const canonical = allowed.find((candidate) => candidate.toLowerCase() === value.trim().toLowerCase());
  return canonical ? { property: propertyOf[field as AllowedField](), value: canonical } : undefined;
}
