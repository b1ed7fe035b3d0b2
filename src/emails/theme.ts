/** The organisation's look in email: the site's colours and system fonts, no web font, no image. */
export const theme = {
  ink: '#13213c',
  inkSoft: '#3d4a63',
  muted: '#5b6678',
  brand: '#1c41a9',
  brandSoft: '#eef4ff',
  accent: '#c2560a',
  canvas: '#f6f7fb',
  line: '#dde2ec',
  font: '-apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
} as const;
