/** Queries of the content collections used by the pages (sections and ui take props only). */
import { getCollection, getEntry, type CollectionEntry } from 'astro:content';
import { defaultLocale, type Locale } from '../../config/locales';
import { translator } from '../shared/i18n/translator';
import { statIn } from '../shared/stats';
import { picture, type Picture } from './media';

type StatGroup = CollectionEntry<'stats'>['data']['group'];
type CardGroup = CollectionEntry<'cards'>['data']['group'];

/** A band's statistics in `locale`: the same figures, their words in that language. */
export async function statsOf(group: StatGroup, locale: Locale = 'en') {
  const entries = await getCollection('stats', (entry) => entry.data.group === group);
  return entries
    .map((entry) => entry.data)
    .sort((a, b) => a.order - b.order)
    .map((stat) => statIn(stat, locale));
}

/** A card as a band shows it, in one language. */
export interface CardItem {
  id: string;
  icon: CollectionEntry<'cards'>['data']['icon'];
  title: string;
  body: string;
}

/** A band's cards in `locale`. */
export async function cardsOf(group: CardGroup, locale: Locale = 'en'): Promise<CardItem[]> {
  const entries = await getCollection('cards', (entry) => entry.data.group === group);
  return entries
    .map((entry) => entry.data)
    .sort((a, b) => a.order - b.order)
    .map(({ id, icon, title, body, titleEs, bodyEs }) => (locale === 'es' ? { id, icon, title: titleEs, body: bodyEs } : { id, icon, title, body }));
}

/** A video as the islands receive it: the poster already resized, the date as ISO text. */
export interface VideoItem {
  id: string;
  title: string;
  description: string;
  mp4Url: string;
  youtubeUrl?: string;
  poster: Picture;
  createdAt?: string;
}

/** A band's stories, in order, with their cards' words in `locale` (the videos speak as recorded). */
export async function videosOf(kind: 'parentVideos' | 'studentVideos', locale: Locale = defaultLocale): Promise<VideoItem[]> {
  const entries = (await getCollection(kind)).map((entry) => entry.data).sort((a, b) => a.order - b.order);
  const spanish = locale === 'es';
  return Promise.all(
    entries.map(async (video) => ({
      id: video.id,
      title: spanish ? video.titleEs : video.title,
      description: spanish ? video.descriptionEs : video.description,
      mp4Url: video.mp4Url,
      youtubeUrl: video.youtubeUrl,
      poster: await picture(video.thumbnailUrl),
      createdAt: 'createdAt' in video ? video.createdAt.toISOString() : undefined,
    })),
  );
}

export interface WebinarItem {
  id: string;
  title: string;
  duration: number;
  views: string;
  category: string;
  description: string;
  videoUrl: string;
  thumbnail: Picture;
  publishedDate: string;
}

/** The featured recorded webinars, newest first; in `locale` their category and description (the title stays as recorded). */
export async function featuredWebinars(locale: Locale = defaultLocale): Promise<WebinarItem[]> {
  const entries = (await getCollection('webinars', (entry) => entry.data.featured)).map((entry) => entry.data);
  entries.sort((a, b) => b.publishedDate.getTime() - a.publishedDate.getTime());
  return Promise.all(
    entries.map(async (webinar) => ({
      id: webinar.id,
      title: webinar.title,
      duration: webinar.duration,
      views: webinar.views,
      category: locale === 'es' ? webinar.categoryEs : webinar.category,
      description: locale === 'es' ? webinar.descriptionEs : webinar.description,
      videoUrl: webinar.videoUrl,
      thumbnail: await picture(webinar.thumbnail, 800),
      publishedDate: webinar.publishedDate.toISOString(),
    })),
  );
}

/** One language's words (content/i18n/{locale}/*.yaml), as a lookup that stops the build on an unknown key. */
export async function wordsOf(locale: Locale) {
  const entry = await getEntry('i18n', locale);
  if (!entry) throw new Error(`content/i18n/${locale} is missing`);
  return translator(entry.data.words, `content/i18n/${locale}`);
}
