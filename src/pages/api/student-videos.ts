/** `GET /api/student-videos`: the student videos of content/videos/students.yaml, in display order. */
import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import { jsonFile } from '../../lib/build/api';

export const GET: APIRoute = async () => {
  const videos = (await getCollection('studentVideos'))
    .sort((a, b) => a.data.order - b.data.order)
    .map(({ data }) => ({
      id: data.id,
      title: data.title,
      description: data.description,
      mp4Url: data.mp4Url,
      thumbnailUrl: data.thumbnailUrl,
    }));
  return jsonFile({ videos });
};
