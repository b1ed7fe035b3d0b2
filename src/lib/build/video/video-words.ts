/** The story cards' and the video player's own words, in a page's language (content/i18n/{locale}/video.yaml). */
import { wordsUnder, type Translate } from '../../shared/i18n/translator';

const keys = ['play', 'pause', 'watchLarge', 'fallback', 'playerTitle', 'close'] as const;

export type VideoWords = Record<(typeof keys)[number], string>;

/** The words a page hands its VideoGrid, VideoCard and VideoModal. */
export const videoWords = (t: Translate): VideoWords => wordsUnder(t, 'video', keys);

/** The home parent-videos band's own words (content/i18n/{locale}/homeBands.yaml's `parentVideos`). */
export const parentVideosWords = (t: Translate) => wordsUnder(t, 'homeBands.parentVideos', ['title', 'label', 'unavailable'] as const);
