/**
 * YouTube links as editors paste them (watch pages, youtu.be short links, Shorts, embeds) become
 * the embed address the modal player frames: autoplay on, related videos off.
 */
const ID = /^[A-Za-z0-9_-]{11}$/;
const HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'music.youtube.com', 'youtube-nocookie.com', 'www.youtube-nocookie.com']);

/** The 11-character video id of a YouTube URL, or null when the URL is not a YouTube video. */
export function youTubeId(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  const host = parsed.hostname.toLowerCase();
  const segments = parsed.pathname.split('/').filter(Boolean);
  let id: string | null | undefined;
  if (host === 'youtu.be' || host === 'www.youtu.be') id = segments[0];
  else if (HOSTS.has(host)) {
    if (segments[0] === 'watch') id = parsed.searchParams.get('v');
    else if (['shorts', 'embed', 'live', 'v'].includes(segments[0] ?? '')) id = segments[1];
  }
  return id && ID.test(id) ? id : null;
}

/** Seconds of a `t`/`start` parameter ("10", "10s", "1m5s"), or 0. */
export function startSeconds(url: string): number {
  let value: string | null = null;
  try {
    const parsed = new URL(url.trim());
    value = parsed.searchParams.get('t') ?? parsed.searchParams.get('start');
  } catch {
    return 0;
  }
  if (!value) return 0;
  if (/^\d+$/.test(value)) return Number(value);
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(value);
  if (!match?.[0]) return 0;
  return Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0);
}

/** `https://www.youtube.com/embed/{id}?autoplay=1&rel=0` (plus `start`), or null for other URLs. */
export function toYouTubeEmbedUrl(url: string): string | null {
  const id = youTubeId(url);
  if (!id) return null;
  const params = new URLSearchParams({ autoplay: '1', rel: '0' });
  const start = startSeconds(url);
  if (start > 0) params.set('start', String(start));
  return `https://www.youtube.com/embed/${id}?${params}`;
}
