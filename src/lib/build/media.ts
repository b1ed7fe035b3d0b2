/**
 * Posters and thumbnails through Astro's image pipeline. Content names them by their public URL
 * (`/media/parent-story-1.jpg`); the same file under `src/assets/media/` is resized and converted
 * at build, with its width and height, so nothing shifts when it loads. Other URLs pass through.
 */
import { getImage } from 'astro:assets';
import type { ImageMetadata } from 'astro';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterFirstPaintAttribute, openingPicture } from './first-paint';

const assets = import.meta.glob<{ default: ImageMetadata }>('../../assets/media/*.{jpg,jpeg,png,webp}', { eager: true });

export interface Picture {
  src: string;
  width: number;
  height: number;
}

const quality = 70;
/** The pictures made here, by the URL they were given, with the file they were made from. */
const made = new Map<string, { file: string; width: number; height: number }>();

export async function picture(url: string, width = 640): Promise<Picture> {
  const name = url.split('/').pop() ?? '';
  const asset = url.startsWith('/media/') ? assets[`../../assets/media/${name}`]?.default : undefined;
  if (!asset) return { src: url, width: 1280, height: 720 };
  const height = Math.round((asset.height / asset.width) * width);
  const image = await getImage({ src: asset, width, height, format: 'webp', quality });
  made.set(image.src, { file: join(process.cwd(), 'src/assets/media', name), width, height });
  return { src: image.src, width, height };
}

/** Inline pictures stay small: a larger one would hold up the page's own first paint. */
export const inlineLimit = 8 * 1024;

/**
 * The same picture written into the page (a `data:` URL), for the one picture a page opens with:
 * on a phone it is the largest thing on the screen, and as a file it came one round trip after the
 * text. The URL itself for a picture not made here, or one over `inlineLimit`. Encoded here from
 * the source file (under `src/assets/media/`, the build runs at the project's root) as Astro encodes
 * its file: Astro writes its own bytes only once every page is rendered.
 */
export async function inlinePicture(picture: Picture): Promise<string> {
  const source = made.get(picture.src);
  if (!source) return picture.src;
  const bytes = await sharp(source.file).resize(source.width, source.height).webp({ quality }).toBuffer();
  return bytes.length > inlineLimit ? picture.src : `data:image/webp;base64,${bytes.toString('base64')}`;
}

/**
 * An `<img>`'s source and loading. The picture a page opens with (the first of its first list, which a
 * phone shows at once) is written into the page and drawn with its text; when it cannot be, it is
 * asked for first of all. The rest load as they near the screen, and never before the first paint is on
 * the screen (`afterFirstPaintAttribute`).
 */
export async function pictureLoading(picture: Picture, opensPage: boolean) {
  if (!opensPage) return { src: picture.src, loading: 'lazy', decoding: 'async', [afterFirstPaintAttribute]: '' } as const;
  const src = await inlinePicture(picture);
  if (src.startsWith('data:')) return { src, id: openingPicture, loading: 'eager', decoding: 'sync' } as const;
  return { src, loading: 'eager', fetchpriority: 'high', decoding: 'async' } as const;
}
