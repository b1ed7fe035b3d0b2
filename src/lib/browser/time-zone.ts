/**
 * The browser's time zone (an IANA name such as "America/Chicago"), for the letter to reach the
 * school in its working hours; undefined where the browser does not say.
 */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/** Fills every `<input data-time-zone>` of the page with the browser's time zone. */
export function fillTimeZoneInputs(root: ParentNode = document): void {
  const zone = browserTimeZone();
  if (!zone) return;
  for (const input of root.querySelectorAll<HTMLInputElement>('input[data-time-zone]')) input.value = zone;
}
