// The parts of Decap CMS's packages (decap-cms-app's dependencies) that the tests run, which ship
// no types of their own: its field checks and English messages (its front-matter format is declared
// in src/components/content-editor/decap-modules.d.ts).
interface DecapValidationError {
  type: string;
  message: string;
}

type DecapTranslate = (key: string, values?: Record<string, unknown>) => string;

declare module 'decap-cms-core/dist/esm/components/Editor/EditorControlPane/Widget.js' {
  type Field = import('immutable').Map<string, unknown>;
  /** The wrapper of every field in Decap's editor form. */
  export default class Widget {
    constructor(props: { t: DecapTranslate; parentIds: string[] });
    validatePresence(field: Field, value: unknown): { error: DecapValidationError | false };
    validatePattern(field: Field, value: unknown): { error: DecapValidationError | false };
  }
}

declare module 'decap-cms-widget-number/dist/esm/NumberControl.js' {
  export function validateMinMax(
    value: unknown,
    min: number | false,
    max: number | false,
    field: import('immutable').Map<string, unknown>,
    t: DecapTranslate,
  ): DecapValidationError | undefined;
}

declare module 'decap-cms-lib-widgets/dist/esm/validations.js' {
  /** The list widget's item count. */
  export function validateMinMax(
    t: DecapTranslate,
    fieldLabel: string,
    value: import('immutable').List<unknown>,
    min?: number,
    max?: number,
  ): DecapValidationError | undefined;
}

declare module 'decap-cms-locales/dist/esm/en/index.js' {
  const en: Record<string, unknown>;
  export default en;
}

declare module 'node-polyglot' {
  export default class Polyglot {
    constructor(options: { locale: string; phrases: Record<string, unknown> });
    t(key: string, values?: Record<string, unknown>): string;
  }
}
