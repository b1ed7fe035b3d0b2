import type { ReactNode } from 'react';

/** What Decap passes a preview template (the parts these templates read). */
export interface PreviewProps {
  /** The entry being edited, an Immutable.js map: `entry.getIn(['data', 'question'])`. */
  entry: { getIn(path: (string | number)[]): unknown };
  /** A field rendered by its widget's preview (markdown as HTML). */
  widgetFor(name: string): ReactNode;
}

/** An Immutable.js value as plain data (`toJS()`), or the value itself. */
export function plain<T>(value: unknown): T | undefined {
  if (value && typeof value === 'object' && 'toJS' in value && typeof value.toJS === 'function') return value.toJS() as T;
  return value as T | undefined;
}
