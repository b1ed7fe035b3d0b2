/**
 * Posters and thumbnails through Astro's image pipeline. Content names them by their public URL
 * (`/media/parent-story-1.jpg`); the same file under `src/assets/media/` is resized and converted
 * at build, with its width and height, so nothing shifts when it loads. Other URLs pass through.
 */
import { getImage } from 'astro:assets';
import type { ImageMetadata } from 'astro';

const assets = import.meta.glob<{ default: ImageMetadata }>('../assets/media/*.{jpg,jpeg,png,webp}', { eager: true });

export interface Picture {
  src: string;
  width: number;
  height: number;
}

export async function picture(url: string, width = 640): Promise<Picture> {
  const name = url.split('/').pop() ?? '';
  const asset = url.startsWith('/media/') ? assets[`../assets/media/${name}`]?.default : undefined;
  if (!asset) return { src: url, width: 1280, height: 720 };
  const height = Math.round((asset.height / asset.width) * width);
  const image = await getImage({ src: asset, width, height, format: 'webp', quality: 70 });
  return { src: image.src, width, height };
}
