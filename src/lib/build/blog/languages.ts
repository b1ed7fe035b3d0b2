/**
 * The blog's languages: a post's entry id, its slug and path in its language, and its translation.
 * A post is in one of the site's locales (`language`); a translation names its group's primary
 * post (`translationOf`, an entry id). English posts are at /blogs-insights/<slug>, Spanish ones
 * at /es/blogs-insights/<slug>; a Spanish entry's id is `es/<slug>`, so one slug can serve both.
 */
import { defaultLocale, type Locale } from '../../../config/locales';
import { localePath } from '../../shared/i18n/paths';

interface PostLike {
  id: string;
  data: { language: Locale; translationOf?: string | undefined; publishedAt: Date };
}

/** The entry id of a post of `slug` in `language`: `why-two-hours`, `es/why-two-hours`. */
export function entryIdOf(slug: string, language: Locale): string {
  return language === defaultLocale ? slug : `${language}/${slug}`;
}

/** The post's slug in its language's URLs (its id without its language's folder). */
export function postSlug(post: PostLike): string {
  const prefix = `${post.data.language}/`;
  return post.data.language !== defaultLocale && post.id.startsWith(prefix) ? post.id.slice(prefix.length) : post.id;
}

/** The post's page: `/blogs-insights/why-two-hours`, `/es/blogs-insights/why-two-hours`. */
export function postPath(post: PostLike): string {
  return localePath(`/blogs-insights/${postSlug(post)}`, post.data.language);
}

/** The id of the post's translation group: its primary post's id (its own when it is the primary). */
export function groupOf(post: PostLike): string {
  return post.data.translationOf ?? post.id;
}

/** The post's translation in `locale` among `posts`: the newest of its group in that language, if any. */
export function translationIn<T extends PostLike>(post: T, locale: Locale, posts: readonly T[]): T | undefined {
  if (post.data.language === locale) return undefined;
  const group = groupOf(post);
  return posts
    .filter((other) => other.data.language === locale && groupOf(other) === group)
    .sort((a, b) => b.data.publishedAt.getTime() - a.data.publishedAt.getTime())[0];
}

/** A list in another language with fewer articles than this shows the English ones below its own. */
export const fewArticles = 5;
