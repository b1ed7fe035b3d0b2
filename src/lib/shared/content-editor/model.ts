/**
 * What the content editor (/content-editor, Decap CMS) edits: for each collection of
 * src/content.config.ts, where its files are and the words editors see. The rules of every field
 * (required, limits, options, patterns) are not written here: ./config.ts derives them from the
 * collection's zod schema, so the editor refuses what the build would refuse.
 */
import type { collections } from '../../../content.config';
import { parentKinds, wordKinds, type WordKind } from '../email/mail-words';

export type CollectionName = keyof typeof collections;

/** How one schema field is shown. The widget is derived from the schema unless given. */
export interface FieldCopy {
  label: string;
  hint?: string;
  /** `text` for a long string; `image` for a poster under /media (uploads go to public/media). */
  widget?: 'text' | 'image';
  /** For a `reference()` field: the collection it points into (its entries as built are the options). */
  relation?: { collection: string };
  /** For a list of strings: how one item is called. */
  itemLabel?: string;
}

/** Rules across the fields of one list item, which no single field's pattern can express. */
export interface ItemRules {
  /** Exactly one field of each group must be filled (zod `.refine` on the collection). */
  exactlyOneOf?: string[][];
}

interface Fields {
  /** The schema's fields, in the order the editor shows them and writes them. */
  fields: Record<string, FieldCopy>;
  /** Schema fields the editor leaves out, each with the reason (derived at build, say). */
  omit?: Record<string, string>;
}

/** One MDX file per entry, front matter from the schema, the body as markdown. */
export interface FolderCollection extends Fields {
  kind: 'folder';
  name: string;
  collection: CollectionName;
  label: string;
  labelSingular: string;
  description: string;
  folder: string;
  /** The field the file name (the entry's id and anchor) is made from. */
  identifierField: string;
  body: { label: string; hint: string };
  /** Where the entry shows on the site ("View Live"), e.g. "faqs#{{slug}}" (the file name is the FAQ's anchor). */
  previewPath?: string;
  /** Fields the entry list can be sorted and grouped by. */
  sortableFields?: string[];
  groupBy?: { label: string; field: string };
  /**
   * Each entry's Spanish: a file of the same name in another folder beside this one (content/faqs-es),
   * holding the `translated` fields and the body, edited beside the English and saved, created and
   * deleted with it (Decap's i18n; docs/spanish.md says why the folders stand in for its locales).
   */
  twin?: { folder: string; collection: CollectionName; translated: string[] };
}

/** A YAML file holding a list of entries (Astro's `file()` loader), one Decap file each. */
export interface ListFile extends Fields {
  name: string;
  collection: CollectionName;
  label: string;
  labelSingular: string;
  file: string;
  /** What a collapsed item shows, e.g. "{{fields.id}}". */
  summary: string;
  itemRules?: ItemRules;
}

export interface ListFilesCollection {
  kind: 'list-files';
  name: string;
  label: string;
  description: string;
  files: ListFile[];
}

/** One YAML file per entry (Astro's `glob()` loader over `*.yaml`): fields only, no body. */
export interface EntriesCollection extends Fields {
  kind: 'entries';
  name: string;
  collection: CollectionName;
  label: string;
  labelSingular: string;
  description: string;
  folder: string;
  /** The field the file name (the entry's id) is made from when the entry is created. */
  identifierField: string;
  sortableFields?: string[];
}

/**
 * One YAML file per kind of a fixed set (the emails' words): each file a form of its own, with that
 * kind's placeholders in its fields' patterns. Files are neither created nor deleted here.
 */
export interface WordFilesCollection extends Fields {
  kind: 'word-files';
  name: string;
  collection: CollectionName;
  label: string;
  description: string;
  folder: string;
  /** The emails that have a file here; each form is labelled with its email and `labelSuffix`. */
  kinds: readonly WordKind[];
  labelSuffix?: string;
}

/**
 * The site's words, one file per place and language (content/i18n/{locale}/{place}.yaml, the same
 * keys in each): a place opens with each key's English and Spanish side by side (Decap's i18n).
 * The places and keys are the code's: editors change the words, never add or remove a key.
 */
export interface LocaleWordsCollection {
  kind: 'locale-words';
  name: string;
  label: string;
  labelSingular: string;
  description: string;
  /** The folder holding one folder per language. */
  folder: string;
}

export type EditorCollection = FolderCollection | ListFilesCollection | EntriesCollection | WordFilesCollection | LocaleWordsCollection;

const idCopy: FieldCopy = {
  label: 'Id',
  hint: 'Lower-case words joined by hyphens, unique in this file, e.g. "two-hours-a-day". Pages link to it: change it only for a new entry.',
};
const orderCopy: FieldCopy = { label: 'Order', hint: 'Position in its list, 1 first.' };
const mediaUrlHint = 'A path under /media (e.g. /media/story.mp4) or a full https:// address.';

const videoFields: Record<string, FieldCopy> = {
  id: idCopy,
  title: { label: 'Title' },
  description: { label: 'Description', widget: 'text' },
  titleEs: { label: 'Title, in Spanish', hint: 'The card on /es pages, e.g. "Recuperamos nuestras tardes". The video itself stays as recorded.' },
  descriptionEs: { label: 'Description, in Spanish', hint: 'The same description for /es: the same facts and figures.', widget: 'text' },
  mp4Url: { label: 'Video (mp4)', hint: mediaUrlHint },
  thumbnailUrl: { label: 'Poster', hint: 'The image shown before the video plays.', widget: 'image' },
  youtubeUrl: { label: 'YouTube link', hint: 'Optional: when set, the card opens the YouTube player instead of playing the mp4.' },
};

/** A collection of one YAML list file, named and labelled as the file. */
function listFile(description: string, file: ListFile): ListFilesCollection {
  return { kind: 'list-files', name: file.name, label: file.label, description, files: [file] };
}

/** The fields of an email's words, in either language; the subject's and the button's hints give an example in it. */
function emailWordFields(example: { subject: string; action: string }): Record<string, FieldCopy> {
  return {
    subject: { label: 'Subject', hint: `The subject line, e.g. "${example.subject}".` },
    preview: { label: 'Preview line', hint: 'The line inboxes show after the subject. Not shown in the email itself.' },
    heading: { label: 'Heading', hint: 'The heading at the top of the email.' },
    paragraphs: {
      label: 'Paragraphs',
      hint: 'Plain text, in order. No links or email addresses: the site adds the button and the links.',
      itemLabel: 'Paragraph',
    },
    action: { label: 'Button', hint: `The words on the button, for the emails that have one, e.g. "${example.action}".` },
  };
}

export const editorCollections: EditorCollection[] = [
  {
    kind: 'folder',
    name: 'faqs',
    collection: 'faqs',
    label: 'FAQs',
    labelSingular: 'FAQ',
    description: 'The questions on /faqs. The file name (and the link to the question) is made from the question when it is created.',
    folder: 'content/faqs',
    identifierField: 'question',
    fields: {
      question: { label: 'Question', hint: 'As a parent would ask it, e.g. "What does a school day look like?"' },
      category: {
        label: 'Category',
        hint: 'The accordion section it appears in (FAQ categories).',
        relation: { collection: 'faqCategories' },
      },
      order: { ...orderCopy, hint: 'Position within its category, 1 first.' },
    },
    body: { label: 'Answer', hint: 'Markdown: bold, italic, links, lists. No { } or < characters (the answer is compiled as MDX).' },
    twin: { folder: 'content/faqs-es', collection: 'faqsEs', translated: ['question'] },
    previewPath: 'faqs#{{slug}}',
    sortableFields: ['order', 'question'],
    groupBy: { label: 'Category', field: 'category' },
  },
  listFile('The sections of the /faqs accordion, in order.', {
    name: 'faqCategories',
    collection: 'faqCategories',
    label: 'FAQ categories',
    labelSingular: 'Category',
    file: 'content/faq-categories.yaml',
    summary: '{{fields.order}}. {{fields.name}}',
    fields: {
      id: { ...idCopy, hint: 'Lower-case words joined by hyphens, e.g. "how-it-works". FAQs name their category by it.' },
      name: { label: 'Name', hint: 'The accordion heading, e.g. "How It Works".' },
      nameEs: { label: 'Name, in Spanish', hint: 'The heading on /es/faqs, e.g. "Cómo funciona".' },
      order: orderCopy,
    },
  }),
  listFile('The figures of the home page bands and /why-this-matters. Give a number to count up to, or a text shown as it is.', {
    name: 'stats',
    collection: 'stats',
    label: 'Statistics',
    labelSingular: 'Statistic',
    file: 'content/stats.yaml',
    summary: '{{fields.group}}: {{fields.prefix}}{{fields.target}}{{fields.text}}{{fields.suffix}} {{fields.label}}',
    itemRules: { exactlyOneOf: [['target', 'text']] },
    fields: {
      id: idCopy,
      group: { label: 'Band', hint: 'Which band shows it: the home "stats" band, the home results or /why-this-matters.' },
      target: { label: 'Number', hint: 'Counts up from 0 to this number, e.g. 85. Leave empty when the figure is a text.' },
      text: { label: 'Text', hint: 'Shown as it is, e.g. "2x" or "1-2". Leave empty when the figure is a number.' },
      prefix: { label: 'Before the figure', hint: 'e.g. "Top " or "1 in ".' },
      prefixEs: { label: 'Before the figure, in Spanish', hint: 'When "Before the figure" has words, e.g. "1 de cada ". Empty: the English one is shown.' },
      suffix: { label: 'After the figure', hint: 'e.g. "%".' },
      suffixEs: { label: 'After the figure, in Spanish', hint: 'When "After the figure" has words. Empty: the English one is shown.' },
      label: { label: 'Line under the figure', hint: 'e.g. "of 8th graders are proficient in math".' },
      labelEs: {
        label: 'Line under the figure, in Spanish',
        hint: 'The same line for /es, the same figures, e.g. "de los alumnos de 8.º grado domina las matemáticas".',
      },
      source: { label: 'Source', hint: 'Where the figure comes from, shown in small print.' },
      order: { ...orderCopy, hint: 'Position within its band, 1 first.' },
    },
  }),
  listFile('The small cards (icon, title, one paragraph) of the home page, /nominate-school, /partnership-form and /resources.', {
    name: 'cards',
    collection: 'cards',
    label: 'Cards',
    labelSingular: 'Card',
    file: 'content/cards.yaml',
    summary: '{{fields.group}}: {{fields.title}}',
    fields: {
      id: idCopy,
      group: { label: 'Band', hint: 'Which band of which page shows it.' },
      icon: { label: 'Icon' },
      title: { label: 'Title' },
      titleEs: { label: 'Title, in Spanish' },
      body: { label: 'Text', widget: 'text' },
      bodyEs: { label: 'Text, in Spanish', hint: 'The same text for /es: the same figures and claims.', widget: 'text' },
      order: { ...orderCopy, hint: 'Position within its band, 1 first.' },
    },
  }),
  listFile('The recorded webinars of /events-webinars.', {
    name: 'webinars',
    collection: 'webinars',
    label: 'Webinars',
    labelSingular: 'Webinar',
    file: 'content/webinars.yaml',
    summary: '{{fields.title}}',
    fields: {
      id: idCopy,
      title: { label: 'Title' },
      duration: { label: 'Length (minutes)', hint: 'e.g. 48.' },
      views: { label: 'Views', hint: 'As shown on the card, e.g. "2.3k".' },
      category: { label: 'Category', hint: 'e.g. "Parent Webinar".' },
      description: { label: 'Description', widget: 'text' },
      categoryEs: { label: 'Category, in Spanish', hint: 'The card on /es/events-webinars, e.g. "Seminario para padres".' },
      descriptionEs: { label: 'Description, in Spanish', hint: 'The same description for /es: the same facts and figures.', widget: 'text' },
      videoUrl: { label: 'Video (mp4)', hint: mediaUrlHint },
      thumbnail: { label: 'Poster', widget: 'image' },
      publishedDate: { label: 'Published' },
      featured: { label: 'Featured' },
    },
  }),
  {
    kind: 'list-files',
    name: 'videos',
    label: 'Videos',
    description: 'Parent and student stories of the home page and /real-stories.',
    files: [
      {
        name: 'parentVideos',
        collection: 'parentVideos',
        label: 'Parent videos',
        labelSingular: 'Parent video',
        file: 'content/videos/parents.yaml',
        summary: '{{fields.order}}. {{fields.title}}',
        fields: { ...videoFields, createdAt: { label: 'Recorded' }, order: orderCopy },
      },
      {
        name: 'studentVideos',
        collection: 'studentVideos',
        label: 'Student videos',
        labelSingular: 'Student video',
        file: 'content/videos/students.yaml',
        summary: '{{fields.order}}. {{fields.title}}',
        fields: { ...videoFields, order: orderCopy },
      },
    ],
  },
  {
    kind: 'entries',
    name: 'letters',
    collection: 'letters',
    label: 'School email letters',
    labelSingular: 'Letter',
    description:
      'The bodies of the email parents send their school. Parents writing to one school get them in turn, in the order below, so the school does not read the same text twice in a row. Keep at least three. In each text, {parent}, {child}, {grade}, {school}, {video} and {booking} are filled in for each parent, and a figure of the Statistics as {stat:<its id>}, e.g. {stat:improvement-8-weeks} for 85%, so the letter always says what the site says.',
    folder: 'content/letters',
    identifierField: 'title',
    sortableFields: ['order', 'title'],
    fields: {
      title: { label: 'Name', hint: 'For editors only, never sent, e.g. "Two focused hours". The file name is made from it.' },
      order: { ...orderCopy, hint: 'Its turn in the rotation, 1 first. Letter 1 is also the one used with HubSpot’s embedded form.' },
      introduction: {
        label: 'Introduction',
        hint: 'The paragraph after "Dear …,". Must contain {parent}, {child}, {grade} and {school}, e.g. "My name is {parent}, and my child, {child}, is in {grade} at {school}." The parent’s own words follow it.',
        widget: 'text',
      },
      body: {
        label: 'Main text',
        hint: 'The model, its results and the two links. Must contain {video} and {booking}. A percentage only as {stat:<id of a statistic>}. Plain text: a blank line between paragraphs, "•" for a bullet.',
        widget: 'text',
      },
      closing: { label: 'Closing', hint: 'The last paragraph before "Warm regards," and the parent’s name. May use {school}.', widget: 'text' },
    },
  },
  {
    kind: 'word-files',
    name: 'emails',
    collection: 'emails',
    label: 'Emails the site sends',
    description:
      'The words of the emails the site sends parents, staff and schools (the letter itself is under School email letters). One file per email; the site adds its button and links. Each text may use the placeholders of its email (listed under each field), which are filled in when it is sent. A link or an email address in the words, or a placeholder the email needs left out, is refused by the site’s checks on the pull request.',
    folder: 'content/emails',
    kinds: wordKinds,
    fields: emailWordFields({ subject: 'Please confirm your email to {school}', action: 'Review and send my email' }),
    omit: { kind: 'Fixed by the file: which email these words are for.' },
  },
  {
    kind: 'word-files',
    name: 'emailsEs',
    collection: 'emails',
    label: 'Emails to parents, in Spanish',
    description:
      'The Spanish words of the emails a parent who wrote from a Spanish page gets (content/emails/es): one file per email, beside the English under Emails the site sends. Use the same placeholders as the English file of the same email (listed under each field); the site checks that on the pull request. Write for parents: usted, plain words, the English figures.',
    folder: 'content/emails/es',
    kinds: parentKinds,
    labelSuffix: ', in Spanish',
    fields: emailWordFields({ subject: 'Confirme su correo a {school}', action: 'Revisar y enviar mi correo' }),
    omit: { kind: 'Fixed by the file: which email these words are for.' },
  },
  {
    kind: 'locale-words',
    name: 'words',
    label: 'Site words',
    labelSingular: 'Place',
    description:
      'The words of the site’s pages and frame, one entry per place of the site (home, faqs, frame, …), English on the left and Spanish on the right, key by key. Open a key to change its words. Keep the figures and claims of the English; in Spanish write for parents: usted, plain words. Words in {braces} are filled in by the site: keep them as they are.',
    folder: 'content/i18n',
  },
  {
    kind: 'folder',
    name: 'blog',
    collection: 'blog',
    label: 'Blog posts (local)',
    labelSingular: 'Blog post',
    description:
      'content/blog: the posts the site shows when it is built without HubSpot (BLOG_SOURCE=local or no HUBSPOT_ACCESS_TOKEN). With HubSpot, posts are written in HubSpot.',
    folder: 'content/blog',
    identifierField: 'title',
    fields: {
      title: { label: 'Title' },
      excerpt: { label: 'Excerpt', hint: 'One or two sentences for cards and the search-engine description.', widget: 'text' },
      publishedAt: { label: 'Published' },
      tags: { label: 'Tags', itemLabel: 'Tag', hint: 'e.g. "Mastery Learning"; at most 8.' },
      featuredImage: { label: 'Image', hint: 'Optional.', widget: 'image' },
      category: { label: 'Category', hint: 'e.g. "Research".' },
      language: { label: 'Language', hint: '"en" (English, the default) or "es" (Spanish: the post is at /es/blogs-insights).' },
      translationOf: {
        label: 'Translation of',
        hint: 'Optional. For a Spanish post that translates an English one: the English post\'s file name without .mdx, e.g. "why-two-hours-is-enough".',
      },
    },
    omit: {
      sourceId: 'set by the loader (the file name)',
      content: 'the body below, rendered by the loader',
      readTime: 'computed by the loader from the body',
    },
    body: { label: 'Text', hint: 'Markdown. No { } or < characters (the post is compiled as MDX).' },
    sortableFields: ['publishedAt', 'title'],
  },
];
