// @vitest-environment jsdom
/** The modal players' element: YouTube links become the embed (autoplay on, related off), files a <video>. */
import { describe, expect, test } from 'vitest';
import { createPlayer, VIDEO_FALLBACK_TEXT } from '../../src/lib/browser/video/player';

describe('createPlayer', () => {
  test.each([
    ['a watch page', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ?autoplay=1&rel=0'],
    ['a short link with a start time', 'https://youtu.be/dQw4w9WgXcQ?t=10', 'https://www.youtube.com/embed/dQw4w9WgXcQ?autoplay=1&rel=0&start=10'],
    ['a Shorts link', 'https://youtube.com/shorts/dQw4w9WgXcQ', 'https://www.youtube.com/embed/dQw4w9WgXcQ?autoplay=1&rel=0'],
  ])('%s plays in the YouTube embed', (_name, src, embed) => {
    const player = createPlayer({ src, title: 'A story' });
    expect(player).toBeInstanceOf(HTMLIFrameElement);
    expect(player.getAttribute('src')).toBe(embed);
    expect(player.title).toBe('A story');
    expect(player.getAttribute('allow')).toContain('autoplay');
    expect(player.hasAttribute('allowfullscreen')).toBe(true);
  });

  test('a file plays in <video> with controls, autoplay, the poster and the fallback text', () => {
    const player = createPlayer({ src: '/media/parent-story-1.mp4', title: 'A story', poster: '/p.webp' }, 'max-h-[70vh]') as HTMLVideoElement;
    expect(player).toBeInstanceOf(HTMLVideoElement);
    expect(player.getAttribute('src')).toBe('/media/parent-story-1.mp4');
    expect(player.getAttribute('poster')).toBe('/p.webp');
    expect(player.controls && player.autoplay && player.playsInline).toBe(true);
    expect(player.getAttribute('aria-label')).toBe('A story');
    expect(player.textContent).toBe(VIDEO_FALLBACK_TEXT);
    expect(player.className).toContain('max-h-[70vh]');
  });
});
