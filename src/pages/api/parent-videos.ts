/** `GET /api/parent-videos`: the parent videos of content/videos/parents.yaml, in display order. */
import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import { jsonFile } from '../../lib/build/api';

export const GET: APIRoute = async () => {
  const videos = (await getCollection('parentVideos'))
    .sort((a, b) => a.data.order - b.data.order)
    .map(({ data }) => ({
      id: data.id,
      title: data.title,
      description: data.description,
      mp4Url: data.mp4Url,
      thumbnailUrl: data.thumbnailUrl,
      createdAt: data.createdAt.toISOString(),
    }));
  return jsonFile({ videos });
};
