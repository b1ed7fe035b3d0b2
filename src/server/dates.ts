/** Dates as the content pages show them, in UTC so the prebuilt HTML and the islands agree. */
export function shortDate(iso: string | Date): string {
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

export function longDate(iso: string | Date): string {
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/** A day as a letter names it to a parent: "24 November 2026" (en-GB, in UTC unless a zone is given). */
export function dayInWords(iso: string | Date, timeZone = 'UTC'): string {
  return new Date(iso).toLocaleDateString('en-GB', { year: 'numeric', month: 'long', day: 'numeric', timeZone });
}
