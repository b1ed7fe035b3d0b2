/** Record ids that sort newest first (an inverted time prefix) and are unique (a random UUID). */
export function recordKey(date = new Date()): string {
  const inverted = (9_999_999_999_999 - date.getTime()).toString().padStart(13, '0');
  return `${inverted}-${crypto.randomUUID()}`;
}
