/** Path data for the site's icons, shared by Astro components and React islands. */
interface IconDefinition {
  paths: string[];
  fill?: boolean;
}

function defineIcons<T extends Record<string, IconDefinition>>(icons: T): { [K in keyof T]: IconDefinition } {
  return icons;
}

export const iconPaths = defineIcons({
  menu: { paths: ['M4 6h16', 'M4 12h16', 'M4 18h16'] },
  close: { paths: ['M6 6l12 12', 'M18 6L6 18'] },
  chevronDown: { paths: ['M6 9l6 6 6-6'] },
  arrowRight: { paths: ['M5 12h14', 'M13 6l6 6-6 6'] },
  arrowLeft: { paths: ['M19 12H5', 'M11 18l-6-6 6-6'] },
  external: { paths: ['M14 4h6v6', 'M20 4l-9 9', 'M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5'] },
  check: { paths: ['M5 12l5 5 9-10'] },
  mail: { paths: ['M4 6h16v12H4z', 'M4 7l8 6 8-6'] },
  play: { paths: ['M8 5v14l11-7z'], fill: true },
  pause: { paths: ['M7 5h3v14H7z', 'M14 5h3v14h-3z'], fill: true },
  search: { paths: ['M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14z', 'M21 21l-5-5'] },
  users: {
    paths: ['M16 20v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2', 'M9 10a4 4 0 1 0 0-8 4 4 0 0 0 0 8z', 'M22 20v-2a4 4 0 0 0-3-3.87', 'M16 2.13a4 4 0 0 1 0 7.75'],
  },
  heart: { paths: ['M20.8 4.6a5.5 5.5 0 0 0-7.8 0L12 5.7l-1-1.1a5.5 5.5 0 0 0-7.8 7.8l1 1.1L12 21l7.8-7.5 1-1.1a5.5 5.5 0 0 0 0-7.8z'] },
  eye: { paths: ['M1 12s4-8 11-8 11 8 11 8-4 8-11 8S1 12 1 12z', 'M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z'] },
  star: { paths: ['M12 2l3.1 6.3 6.9 1-5 4.9 1.2 6.8L12 17.8 5.8 21l1.2-6.8-5-4.9 6.9-1z'] },
  clock: { paths: ['M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20z', 'M12 6v6l4 2'] },
  calendar: { paths: ['M4 5h16v16H4z', 'M16 3v4', 'M8 3v4', 'M4 11h16'] },
  chart: { paths: ['M4 20V10', 'M10 20V4', 'M16 20v-7', 'M22 20H2'] },
  book: { paths: ['M4 19.5A2.5 2.5 0 0 1 6.5 17H20V3H6.5A2.5 2.5 0 0 0 4 5.5z', 'M4 19.5A2.5 2.5 0 0 0 6.5 22H20v-5'] },
  sparkles: { paths: ['M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9z', 'M19 17l.8 2.2L22 20l-2.2.8L19 23l-.8-2.2L16 20l2.2-.8z'] },
  share: {
    paths: [
      'M18 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
      'M6 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
      'M18 22a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
      'M8.6 13.5l6.8 4',
      'M15.4 6.5l-6.8 4',
    ],
  },
  copy: { paths: ['M9 9h11v11H9z', 'M5 15H4V4h11v1'] },
  download: { paths: ['M12 3v12', 'M7 10l5 5 5-5', 'M5 21h14'] },
  expand: { paths: ['M4 9V4h5', 'M20 9V4h-5', 'M4 15v5h5', 'M20 15v5h-5'] },
  instagram: {
    paths: ['M7 2h10a5 5 0 0 1 5 5v10a5 5 0 0 1-5 5H7a5 5 0 0 1-5-5V7a5 5 0 0 1 5-5z', 'M16 11.4A4 4 0 1 1 12.6 8 4 4 0 0 1 16 11.4z', 'M17.5 6.5h.01'],
  },
  facebook: { paths: ['M18 2h-3a5 5 0 0 0-5 5v3H7v4h3v8h4v-8h3l1-4h-4V7a1 1 0 0 1 1-1h3z'] },
  linkedin: { paths: ['M16 8a6 6 0 0 1 6 6v7h-4v-7a2 2 0 0 0-4 0v7h-4v-7a6 6 0 0 1 6-6z', 'M2 9h4v12H2z', 'M4 6a2 2 0 1 0 0-4 2 2 0 0 0 0 4z'] },
  youtube: {
    paths: [
      'M22.5 6.4a2.8 2.8 0 0 0-2-2C18.8 4 12 4 12 4s-6.8 0-8.5.4a2.8 2.8 0 0 0-2 2A29 29 0 0 0 1 12a29 29 0 0 0 .5 5.6 2.8 2.8 0 0 0 2 2c1.7.4 8.5.4 8.5.4s6.8 0 8.5-.4a2.8 2.8 0 0 0 2-2A29 29 0 0 0 23 12a29 29 0 0 0-.5-5.6z',
      'M9.8 15.5l5.7-3.5-5.7-3.5z',
    ],
  },
});

export type IconName = keyof typeof iconPaths;
