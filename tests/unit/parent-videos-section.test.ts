/**
 * The home parent-videos section, switched off by default (PUBLIC_SHOW_PARENT_VIDEOS_SECTION):
 * rendered as the home page renders it when switched on.
 */
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { describe, expect, test } from 'vitest';
import ParentVideosSection from '../../src/components/sections/ParentVideosSection.astro';
import type { VideoItem } from '../../src/lib/build/content';
import { translator } from '../../src/lib/shared/i18n/translator';
import { parentVideosWords, videoWords } from '../../src/lib/build/video/video-words';
import { readLocaleWords } from '../../src/server/words';

const video: VideoItem = {
  id: 'maya-mother',
  title: 'She finally loves maths again',
  description: 'Priya on homework and maths.',
  mp4Url: '/media/parent-story-1.mp4',
  poster: { src: '/_astro/p.webp', width: 640, height: 360 },
  createdAt: '2025-08-14T00:00:00.000Z',
};

async function render(videos: VideoItem[], locale: 'en' | 'es' = 'en'): Promise<string> {
  const container = await AstroContainer.create();
  const t = translator((await readLocaleWords())[locale]!, `content/i18n/${locale}`);
  return container.renderToString(ParentVideosSection, { props: { videos, words: videoWords(t), band: parentVideosWords(t), locale } });
}

describe('parent-videos section (switched on)', () => {
  test('shows the videos as cards with their dates, playable without JavaScript', async () => {
    const html = await render([video]);
    expect(html).toContain('Parent Success Stories');
    expect(html).toContain('aria-label="Parent success stories"');
    expect(html).toContain('She finally loves maths again');
    expect(html).toContain('Aug 14, 2025');
    expect(html).toMatch(/<noscript>\s*<video[^>]*src="\/media\/parent-story-1\.mp4"[^>]*controls/);
    // Without scripts the video shows its picture, not a black box, until it plays.
    expect(html).toMatch(/<noscript>\s*<video[^>]*poster="\/_astro\/p\.webp"/);
    // With scripts there are no browser controls to build before the first paint (the overlay plays it).
    const outsideNoscript = html.replace(/<noscript>[\s\S]*?<\/noscript>/g, '');
    expect(outsideNoscript).toMatch(/<video[^>]*src="\/media\/parent-story-1\.mp4"[^>]*data-video-inline/);
    expect(outsideNoscript).not.toMatch(/<video[^>]*controls/);
    expect(html).toContain('Your browser does not support the video tag.');
    expect(html).toMatch(/<a[^>]*href="\/media\/parent-story-1\.mp4"[^>]*data-video-open/);
  });

  test('a YouTube story has no video to play without JavaScript: its picture and a link to YouTube', async () => {
    const html = await render([{ ...video, youtubeUrl: 'https://www.youtube.com/watch?v=abc123' }]);
    expect(html).not.toContain('<noscript>');
    expect(html).toMatch(/<img[^>]*src="\/_astro\/p\.webp"/);
    expect(html).toMatch(/<a[^>]*href="https:\/\/www\.youtube\.com\/watch\?v=abc123"[^>]*data-video-open/);
  });

  test('an empty list shows the unavailable message', async () => {
    const html = await render([]);
    expect(html).toContain('Parent Success Stories - Videos are temporarily unavailable. Please check back soon.');
    expect(html).not.toContain('<video');
  });

  test('in Spanish: its heading, the list’s name, the dates as Spanish writes them, and the unavailable message', async () => {
    const html = await render([video], 'es');
    expect(html).toContain('Historias de éxito de padres</h2>');
    expect(html).toContain('aria-label="Historias de éxito de padres"');
    expect(html).toContain('14 ago 2025');
    expect(html).not.toMatch(/Parent Success Stories|Aug 14, 2025/);
    const empty = await render([], 'es');
    expect(empty).toContain('Historias de éxito de padres - Los videos no están disponibles por ahora. Por favor, vuelva pronto.');
  });
});
