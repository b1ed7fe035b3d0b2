import { describe, expect, test } from 'vitest';
import { startSeconds, toYouTubeEmbedUrl, youTubeId } from '../../src/lib/browser/youtube';

const ID = 'dQw4w9WgXcQ';
const embed = `https://www.youtube.com/embed/${ID}?autoplay=1&rel=0`;

describe('toYouTubeEmbedUrl', () => {
  test.each([
    ['watch page', `https://www.youtube.com/watch?v=${ID}`, embed],
    ['watch page without www', `https://youtube.com/watch?v=${ID}`, embed],
    ['mobile watch page', `https://m.youtube.com/watch?v=${ID}&feature=share`, embed],
    ['watch page with a playlist first', `https://www.youtube.com/watch?list=PL123&v=${ID}`, embed],
    ['short link', `https://youtu.be/${ID}`, embed],
    ['short link with tracking', `https://youtu.be/${ID}?si=abcDEF123`, embed],
    ['Shorts', `https://www.youtube.com/shorts/${ID}`, embed],
    ['Shorts with a trailing slash', `https://youtube.com/shorts/${ID}/`, embed],
    ['an embed URL stays an embed URL', `https://www.youtube.com/embed/${ID}`, embed],
    ['privacy-enhanced embed', `https://www.youtube-nocookie.com/embed/${ID}`, embed],
    ['start time in seconds', `https://www.youtube.com/watch?v=${ID}&t=10s`, `${embed}&start=10`],
    ['start time as a number', `https://youtu.be/${ID}?t=95`, `${embed}&start=95`],
    ['start time in minutes and seconds', `https://youtu.be/${ID}?t=1m5s`, `${embed}&start=65`],
    ['surrounding spaces', `  https://youtu.be/${ID}  `, embed],
  ])('%s', (_name, input, expected) => {
    expect(toYouTubeEmbedUrl(input)).toBe(expected);
  });

  test.each([
    ['an mp4', '/media/parent-story-1.mp4'],
    ['another site', `https://vimeo.com/${ID}`],
    ['a look-alike host', `https://youtube.com.evil.example/watch?v=${ID}`],
    ['a channel page', 'https://www.youtube.com/@masteryparents'],
    ['a watch page without id', 'https://www.youtube.com/watch'],
    ['an id of the wrong length', 'https://youtu.be/abc'],
    ['an id with unsafe characters', 'https://www.youtube.com/watch?v=dQw4w9WgX"Q'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['not a URL', 'not a url'],
    ['empty', ''],
  ])('%s is not a YouTube video', (_name, input) => {
    expect(toYouTubeEmbedUrl(input)).toBeNull();
    expect(youTubeId(input)).toBeNull();
  });

  test('the embed always turns autoplay on and related videos off', () => {
    const url = new URL(toYouTubeEmbedUrl(`https://youtu.be/${ID}`)!);
    expect(url.protocol).toBe('https:');
    expect(url.searchParams.get('autoplay')).toBe('1');
    expect(url.searchParams.get('rel')).toBe('0');
  });
});

describe('startSeconds', () => {
  test.each([
    ['https://youtu.be/x?t=10', 10],
    ['https://youtu.be/x?t=10s', 10],
    ['https://youtu.be/x?t=2m', 120],
    ['https://youtu.be/x?t=1h2m3s', 3723],
    ['https://youtu.be/x?start=42', 42],
    ['https://youtu.be/x?t=soon', 0],
    ['https://youtu.be/x', 0],
  ])('%s starts at %i s', (url, seconds) => {
    expect(startSeconds(url)).toBe(seconds);
  });
});
