/**
 * The Decap CMS configuration of /content-editor, generated at build from the zod schemas of
 * src/content.config.ts and the editor model (./model.ts). Each field's widget, required flag,
 * options, number range, list size and text limits come from its schema, so an entry the editor
 * accepts is one the build accepts; tests/unit/content-editor-config.test.ts checks both ways.
 */
import { z } from 'astro/zod';
import { collections } from '../../../content.config';
import { defaultLocale, locales } from '../../../config/locales';
import { LIST_FIELD, listFormatName } from './list-field';
import { kindRules } from '../email/mail-kinds';
import { mailWordsShape, wordPlaceholders } from '../email/mail-words';
import {
  editorCollections,
  type CollectionName,
  type EntriesCollection,
  type FieldCopy,
  type FolderCollection,
  type ItemRules,
  type ListFile,
  type LocaleWordsCollection,
  type WordFilesCollection,
} from './model';
import { TWIN_MARK, twinFormatName } from './twin-format';
import type { TwinCheck } from './twins';
import { LOCALE_WORDS_FORMAT, WORDS_FIELD } from './words-format';

/** The parts of Decap's field configuration this site uses. */
export interface EditorField {
  name: string;
  label: string;
  widget: string;
  required: boolean;
  hint?: string;
  default?: unknown;
  /** [regular expression, what it asks for]; Decap shows "<label> didn't match the pattern: <what>". */
  pattern?: [string, string];
  options?: (string | { label: string; value: string })[];
  value_type?: 'int' | 'float';
  min?: number;
  max?: number;
  step?: number;
  format?: string;
  date_format?: string;
  time_format?: boolean;
  picker_utc?: boolean;
  field?: EditorField;
  fields?: EditorField[];
  collapsed?: boolean;
  summary?: string;
  label_singular?: string;
  add_to_top?: boolean;
  collection?: string;
  file?: string;
  value_field?: string;
  search_fields?: string[];
  display_fields?: string[];
  buttons?: string[];
  editor_components?: string[];
  modes?: string[];
  choose_url?: boolean;
  /** Decap's i18n: the field has its own value in each language (true) or only in the first (false). */
  i18n?: boolean;
  allow_add?: boolean;
  allow_remove?: boolean;
  allow_reorder?: boolean;
  /** Options of the `rule-list` widget (src/lib/browser/content-editor/list-rules.ts). */
  unique_field?: string;
  exactly_one_of?: string[][];
  required_values?: { field: string; values: string[]; message: string };
}

export interface EditorFile {
  name: string;
  label: string;
  file: string;
  fields: EditorField[];
}

export interface EditorCollectionConfig {
  name: string;
  label: string;
  label_singular?: string;
  description: string;
  folder?: string;
  extension?: string;
  format: string;
  create?: boolean;
  delete?: boolean;
  slug?: string;
  identifier_field?: string;
  summary?: string;
  preview_path?: string;
  sortable_fields?: string[];
  view_groups?: { label: string; field: string }[];
  files?: EditorFile[];
  fields?: EditorField[];
  /** Decap's i18n: `true` takes the site's languages (EditorConfig.i18n); an object gives the collection its own. */
  i18n?: true | I18nConfig;
  filter?: { field: string; value: unknown };
  editor: { preview: boolean };
}

/** Decap's i18n: each language's file at {folder}/{locale}/{slug}.{extension}. */
export interface I18nConfig {
  structure: 'multiple_folders';
  locales: string[];
  default_locale: string;
}

export interface EditorConfig {
  load_config_file: false;
  backend: {
    name: 'github';
    repo: string;
    branch: string;
    base_url: string;
    auth_endpoint: string;
    site_domain?: string;
    squash_merges: boolean;
  };
  local_backend?: { url: string };
  publish_mode: 'editorial_workflow';
  site_url: string;
  display_url: string;
  logo: { src: string; show_in_header: boolean };
  media_folder: string;
  public_folder: string;
  slug: { encoding: 'ascii'; clean_accents: boolean };
  i18n: I18nConfig;
  collections: EditorCollectionConfig[];
}

export interface EditorConfigOptions {
  backend: { repo: string; branch: string; authBaseUrl: string; authEndpoint: string; siteDomain?: string };
  /** Set when running `npm run edit`: the decap-server URL, e.g. http://localhost:8081/api/v1. */
  localBackendUrl?: string;
  siteUrl: string;
  /**
   * The ids of each collection other entries reference (FAQ categories), as built: a reference
   * must name one of `ids`, and the ids in `inUse` may not be removed from their file.
   */
  references: Partial<Record<CollectionName, { ids: string[]; inUse: string[]; usedBy: string; names?: Record<string, string> }>>;
}

/**
 * The answer of an FAQ or the text of a post is MDX: `{` starts a JavaScript expression, `<` a
 * component, and a line starting with `import`/`export` a module statement. None belongs in
 * editor-written text, and each can fail the build.
 */
export const MDX_SAFE_BODY: [string, string] = [
  '^(?![\\s\\S]*(?:^|\\n)[ \\t]*(?:import|export)\\s)[^{}<]*$',
  'no { } or < characters, and no line starting with "import" or "export"',
];

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

interface JsonSchema {
  type?: string;
  format?: string;
  enum?: string[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  anyOf?: unknown[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  /** Added below: the message of the schema's `.regex()`. */
  patternMessage?: string;
  /** Added below: the protocol a `z.url()` requires. */
  urlProtocol?: string;
}

/** The schema of one content collection. */
export function schemaOf(name: CollectionName): z.ZodType {
  const schema = collections[name].schema;
  if (!schema || typeof schema === 'function') throw new Error(`Collection "${name}" has no plain zod schema.`);
  return schema as z.ZodType;
}

/** The collection's schema as JSON Schema (what an entry's file may hold), with what Decap needs besides. */
export function jsonSchemaOf(name: CollectionName): JsonSchema {
  return jsonSchemaOfSchema(schemaOf(name));
}

/** A zod schema as JSON Schema, with what Decap needs besides. */
export function jsonSchemaOfSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      const def = zodSchema._zod.def as {
        type: string;
        format?: string;
        protocol?: RegExp;
        checks?: { _zod: { def: { format?: string; error?: (issue: unknown) => unknown } } }[];
      };
      const target = jsonSchema as JsonSchema;
      if (def.type === 'date') target.format = 'date';
      if (def.type === 'string' && def.format === 'url') target.urlProtocol = def.protocol?.source.replace(/^\^|\$$/g, '') ?? 'https?';
      const regex = def.checks?.find((check) => check._zod.def.format === 'regex');
      const message = regex?._zod.def.error?.({});
      if (typeof message === 'string') target.patternMessage = message;
    },
  }) as JsonSchema;
}

function lengthRule(min: number | undefined, max: number | undefined): [string, string] | undefined {
  if (min === undefined && max === undefined) return undefined;
  const message =
    min !== undefined && max !== undefined ? `${min} to ${max} characters` : min !== undefined ? `at least ${min} characters` : `at most ${max} characters`;
  return [`^[\\s\\S]{${min ?? 0},${max ?? ''}}$`, message];
}

/** One Decap pattern for everything a string schema asks: its length, its regex, its URL protocol. */
function stringPattern(schema: JsonSchema): [string, string] | undefined {
  const rules: [string, string][] = [];
  const length = lengthRule(schema.minLength, schema.maxLength);
  if (length) rules.push(length);
  if (schema.pattern) rules.push([schema.pattern, schema.patternMessage ?? `must match ${schema.pattern}`]);
  if (schema.urlProtocol) {
    // An address `new URL()` takes with that protocol: a domain name ending in a name of letters
    // (a numeric end would be read as an IPv4 address), then anything but spaces.
    rules.push([
      `^(?:${schema.urlProtocol})://(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}(?:[/?#]\\S*)?$`,
      `a full ${schema.urlProtocol}:// address, e.g. ${schema.urlProtocol}://www.youtube.com/watch?v=…`,
    ]);
  }
  const [only] = rules;
  if (!only) return undefined;
  if (rules.length === 1) return only;
  // Every rule must hold: each one as a lookahead from the start.
  return [
    `^${rules.map(([regex]) => `(?=${regex.startsWith('^') ? regex.slice(1) : `[\\s\\S]*?${regex}`})`).join('')}`,
    rules.map(([, message]) => message).join('; '),
  ];
}

function numberRange(schema: JsonSchema): Pick<EditorField, 'value_type' | 'min' | 'max' | 'step'> {
  const integer = schema.type === 'integer';
  const range: Pick<EditorField, 'value_type' | 'min' | 'max' | 'step'> = { value_type: integer ? 'int' : 'float' };
  if (integer) range.step = 1;
  if (schema.exclusiveMinimum !== undefined) {
    if (!integer) throw new Error('An exclusive minimum on a decimal number has no Decap equivalent; use .min() instead.');
    range.min = schema.exclusiveMinimum + 1;
  } else if (schema.minimum !== undefined && Math.abs(schema.minimum) < MAX_SAFE) range.min = schema.minimum;
  if (schema.maximum !== undefined && schema.maximum < MAX_SAFE) range.max = schema.maximum;
  return range;
}

/** The Decap field for one schema property. */
export function fieldFor(name: string, schema: JsonSchema, required: boolean, copy: FieldCopy, context: EditorConfigOptions): EditorField {
  const base: EditorField = { name, label: copy.label, widget: 'string', required };
  if (copy.hint) base.hint = copy.hint;
  if (schema.default !== undefined && schema.default !== '' && !(Array.isArray(schema.default) && schema.default.length === 0)) {
    base.default = schema.default;
  }

  if (schema.anyOf) {
    if (!copy.relation) throw new Error(`"${name}" is a reference: the editor model must say which collection it points into.`);
    const reference = context.references[copy.relation.collection as CollectionName];
    const ids = reference?.ids ?? [];
    return {
      ...base,
      // The entries as built, by name (a select, not Decap's relation widget: that one sets its value
      // again when it loads, and on an FAQ's Spanish side that wrote the English category into the twin).
      widget: 'select',
      options: ids.map((id) => ({ label: reference?.names?.[id] ?? id, value: id })),
      // The widget offers only existing entries; this also refuses a file written by hand with another value.
      pattern: [`^(?:${ids.map(escapeRegExp).join('|')})$`, `one of: ${ids.join(', ')}`],
    };
  }
  if (schema.format === 'date') {
    return { ...base, widget: 'datetime', format: 'YYYY-MM-DD', date_format: 'YYYY-MM-DD', time_format: false, picker_utc: true };
  }
  switch (schema.type) {
    case 'string': {
      if (schema.enum) return { ...base, widget: 'select', options: schema.enum };
      const pattern = stringPattern(schema);
      const field: EditorField = { ...base, widget: copy.widget ?? 'string' };
      if (copy.widget === 'image') field.choose_url = true;
      if (pattern) field.pattern = pattern;
      return field;
    }
    case 'integer':
    case 'number':
      return { ...base, widget: 'number', ...numberRange(schema) };
    case 'boolean':
      // Decap leaves a switch nobody touched out of the entry: off is written only as a default.
      return { ...base, widget: 'boolean', default: base.default ?? false };
    case 'array': {
      const item = schema.items;
      if (item?.type !== 'string') throw new Error(`"${name}": only lists of strings are supported.`);
      const field: EditorField = {
        ...base,
        widget: 'list',
        field: fieldFor(singular(name), item, true, { label: copy.itemLabel ?? copy.label }, context),
      };
      if (schema.maxItems !== undefined) field.max = schema.maxItems;
      if (schema.minItems !== undefined) field.min = schema.minItems;
      return field;
    }
    default:
      throw new Error(`"${name}": a schema of type ${schema.type ?? 'unknown'} has no editor widget yet.`);
  }
}

function singular(name: string): string {
  return name.endsWith('s') ? name.slice(0, -1) : `${name}Item`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The editor fields of a collection: every schema property, in schema order, unless omitted. */
export function fieldsOf(
  collection: CollectionName,
  model: { fields: Record<string, FieldCopy>; omit?: Record<string, string> },
  context: EditorConfigOptions,
  schema: JsonSchema = jsonSchemaOf(collection),
): EditorField[] {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  for (const name of Object.keys(model.fields)) {
    if (!properties[name]) throw new Error(`The editor model of "${collection}" names "${name}", which its schema does not have.`);
  }
  return Object.entries(properties).flatMap(([name, property]) => {
    if (model.omit?.[name]) return [];
    const copy = model.fields[name];
    if (!copy) throw new Error(`The schema of "${collection}" has a field "${name}" that the editor model neither shows nor omits.`);
    return [fieldFor(name, property, required.has(name), copy, context)];
  });
}

/**
 * Decap's i18n writes an entry's languages at {folder}/{locale}/{name}: with the two folders' parent
 * as the folder and their names as the "locales", that is content/faqs/<name>.mdx and
 * content/faqs-es/<name>.mdx, the layout the build reads (docs/spanish.md says why).
 */
export function twinFolders(model: FolderCollection): { parent: string; locales: [string, string] } | undefined {
  if (!model.twin) return undefined;
  const split = (folder: string) => [folder.slice(0, folder.lastIndexOf('/')), folder.slice(folder.lastIndexOf('/') + 1)] as const;
  const [parent, first] = split(model.folder);
  const [twinParent, second] = split(model.twin.folder);
  if (parent !== twinParent || !parent) throw new Error(`"${model.name}": ${model.folder} and ${model.twin.folder} must be folders of the same folder.`);
  return { parent, locales: [first, second] };
}

function folderCollection(model: FolderCollection, context: EditorConfigOptions): EditorCollectionConfig {
  const config: EditorCollectionConfig = {
    name: model.name,
    label: model.label,
    label_singular: model.labelSingular,
    description: model.description,
    folder: model.folder,
    extension: 'mdx',
    format: 'frontmatter',
    create: true,
    delete: true,
    slug: '{{slug}}',
    identifier_field: model.identifierField,
    summary: `{{${model.identifierField}}}`,
    fields: [
      ...fieldsOf(model.collection, model, context),
      {
        name: 'body',
        label: model.body.label,
        hint: model.body.hint,
        widget: 'markdown',
        required: true,
        pattern: MDX_SAFE_BODY,
        buttons: ['bold', 'italic', 'link', 'heading-three', 'bulleted-list', 'numbered-list', 'quote'],
        editor_components: [],
        modes: ['rich_text', 'raw'],
      },
    ],
    editor: { preview: model.name === 'faqs' },
  };
  if (model.previewPath) config.preview_path = model.previewPath;
  if (model.sortableFields) config.sortable_fields = model.sortableFields;
  if (model.groupBy) config.view_groups = [model.groupBy];
  const twin = twinFolders(model);
  if (twin && model.twin) {
    const translated = new Set([...model.twin.translated, 'body']);
    config.folder = twin.parent;
    config.format = twinFormatName(model.name);
    config.i18n = { structure: 'multiple_folders', locales: twin.locales, default_locale: twin.locales[0] };
    // The parent folder holds other collections' files too (content/blog): only this collection's are listed.
    config.filter = { field: TWIN_MARK, value: true };
    config.fields = config.fields?.map((field) => ({ ...field, i18n: translated.has(field.name) }));
  }
  return config;
}

/** One entry per place of the site; its English and Spanish files side by side, key by key. */
function localeWordsCollection(model: LocaleWordsCollection): EditorCollectionConfig {
  return {
    name: model.name,
    label: model.label,
    label_singular: model.labelSingular,
    description: model.description,
    folder: model.folder,
    extension: 'yaml',
    format: LOCALE_WORDS_FORMAT,
    // Places and keys are the code's: a page asks for them.
    create: false,
    delete: false,
    summary: '{{filename}}',
    i18n: true,
    fields: [
      {
        name: WORDS_FIELD,
        label: 'Words',
        label_singular: 'Words',
        hint: 'Each key of this place, in the file’s order. Open one to change its words.',
        widget: 'list',
        required: true,
        i18n: true,
        allow_add: false,
        allow_remove: false,
        allow_reorder: false,
        collapsed: true,
        summary: '{{fields.key}}: {{fields.text}}',
        fields: [
          { name: 'key', label: 'Key', widget: 'hidden', required: true, i18n: true },
          { name: 'text', label: 'Words', widget: 'text', required: true, i18n: true },
        ],
      },
    ],
    editor: { preview: false },
  };
}

/** One YAML file per entry, its fields as the file's keys (no body). */
function entriesCollection(model: EntriesCollection, context: EditorConfigOptions): EditorCollectionConfig {
  const config: EditorCollectionConfig = {
    name: model.name,
    label: model.label,
    label_singular: model.labelSingular,
    description: model.description,
    folder: model.folder,
    extension: 'yaml',
    format: 'yaml',
    create: true,
    delete: true,
    slug: '{{slug}}',
    identifier_field: model.identifierField,
    summary: `{{${model.identifierField}}}`,
    fields: fieldsOf(model.collection, model, context),
    editor: { preview: false },
  };
  if (model.sortableFields) config.sortable_fields = model.sortableFields;
  return config;
}

/** A fixed set of files, each a form of its own (the emails' words: each kind's placeholders in its patterns). */
function wordFilesCollection(model: WordFilesCollection, context: EditorConfigOptions): EditorCollectionConfig {
  return {
    name: model.name,
    label: model.label,
    description: model.description,
    format: 'yaml',
    files: model.kinds.map((kind) => ({
      name: kind,
      label: `${kindRules[kind].label}${model.labelSuffix ?? ''}`,
      file: `${model.folder}/${kind}.yaml`,
      fields: [
        { name: 'kind', label: 'Which email', widget: 'hidden', required: true, default: kind },
        ...fieldsOf(model.collection, model, context, jsonSchemaOfSchema(mailWordsShape(kind))).map((field) => ({
          ...field,
          hint: `${field.hint ?? ''} Placeholders: ${
            Object.keys(wordPlaceholders[kind].placeholders)
              .map((name) => `{${name}}`)
              .join(', ') || 'none'
          }.`.trim(),
        })),
      ],
    })),
    editor: { preview: false },
  };
}

function listField(file: ListFile, context: EditorConfigOptions): EditorField {
  const fields = fieldsOf(file.collection, file, context);
  const field: EditorField = {
    name: LIST_FIELD,
    label: file.label,
    label_singular: file.labelSingular,
    widget: 'rule-list',
    required: true,
    summary: file.summary,
    collapsed: true,
    add_to_top: false,
    fields,
  };
  if (fields.some((item) => item.name === 'id')) field.unique_field = 'id';
  const rules: ItemRules = file.itemRules ?? {};
  if (rules.exactlyOneOf) field.exactly_one_of = rules.exactlyOneOf;
  const referenced = context.references[file.collection];
  if (referenced?.inUse.length) field.required_values = { field: 'id', values: referenced.inUse, message: `${referenced.usedBy} name it` };
  return field;
}

/** The whole Decap configuration. */
export function buildEditorConfig(context: EditorConfigOptions): EditorConfig {
  const config: EditorConfig = {
    load_config_file: false,
    backend: {
      name: 'github',
      repo: context.backend.repo,
      branch: context.backend.branch,
      base_url: context.backend.authBaseUrl,
      auth_endpoint: context.backend.authEndpoint,
      squash_merges: true,
    },
    // Each change is a pull request: the site's checks run on it before anyone publishes it.
    publish_mode: 'editorial_workflow',
    site_url: context.siteUrl,
    display_url: context.siteUrl,
    logo: { src: '/logo.svg', show_in_header: true },
    media_folder: 'public/media',
    public_folder: '/media',
    slug: { encoding: 'ascii', clean_accents: true },
    i18n: { structure: 'multiple_folders', locales: [...locales], default_locale: defaultLocale },
    collections: editorCollections.map((model) =>
      model.kind === 'folder'
        ? folderCollection(model, context)
        : model.kind === 'entries'
          ? entriesCollection(model, context)
          : model.kind === 'word-files'
            ? wordFilesCollection(model, context)
            : model.kind === 'locale-words'
              ? localeWordsCollection(model)
              : {
                  name: model.name,
                  label: model.label,
                  description: model.description,
                  format: listFormatName(model.name),
                  files: model.files.map((file) => ({ name: file.name, label: file.label, file: file.file, fields: [listField(file, context)] })),
                  editor: { preview: model.name === 'stats' },
                },
    ),
  };
  if (context.backend.siteDomain) config.backend.site_domain = context.backend.siteDomain;
  if (context.localBackendUrl) config.local_backend = { url: context.localBackendUrl };
  return config;
}

/**
 * What the second language of each two-language collection must hold when an entry is saved
 * (./twins.ts): the twin's fields from its own schema (an FAQ's Spanish question and answer), and
 * the words files' keys on both sides.
 */
export function twinChecks(context: EditorConfigOptions): TwinCheck[] {
  return editorCollections.flatMap((model): TwinCheck[] => {
    if (model.kind === 'locale-words') {
      const second = locales.find((locale) => locale !== defaultLocale)!;
      return [{ collection: model.name, locale: second, side: 'Spanish', fields: [], sameWords: true }];
    }
    const twin = model.kind === 'folder' ? twinFolders(model) : undefined;
    if (model.kind !== 'folder' || !twin || !model.twin) return [];
    const copies = Object.fromEntries(model.twin.translated.map((name) => [name, model.fields[name]!]));
    const fields = fieldsOf(model.twin.collection, { fields: copies }, context).map(({ name, label, pattern }) =>
      pattern ? { name, label, pattern } : { name, label },
    );
    return [
      {
        collection: model.name,
        locale: twin.locales[1],
        side: `Spanish (${twin.locales[1]})`,
        fields: [...fields, { name: 'body', label: model.body.label, pattern: MDX_SAFE_BODY }],
      },
    ];
  });
}
