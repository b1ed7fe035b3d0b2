/**
 * The Decap format of a collection whose entries are file twins in two sibling folders
 * (content/faqs/<name>.mdx and content/faqs-es/<name>.mdx; ./config.ts). Decap's i18n lists every
 * file of the common parent folder (content/*\/*.mdx, the blog posts too) and groups them by name;
 * this format marks the files that hold the collection's identifying field (an FAQ's `question`),
 * and the collection's filter keeps only the marked ones. The mark is never written to a file.
 */

/** The field the format adds to an entry of the collection when it is read. */
export const TWIN_MARK = 'isEntryOfThisCollection';

/** The custom Decap format name of one twin collection. */
export function twinFormatName(collection: string): string {
  return `frontmatter-twins-${collection}`;
}

export interface Formatter {
  fromFile(content: string): Record<string, unknown>;
  toFile(data: Record<string, unknown>, ...rest: unknown[]): string;
}

/** `base` (Decap's front matter format), marking files that have `identifierField`. */
export function markedFormat(base: Formatter, identifierField: string): Formatter {
  return {
    fromFile(content) {
      const data = base.fromFile(content);
      return identifierField in data ? { ...data, [TWIN_MARK]: true } : data;
    },
    toFile(data, ...rest) {
      const { [TWIN_MARK]: _mark, ...fields } = data;
      return base.toFile(fields, ...rest);
    },
  };
}
