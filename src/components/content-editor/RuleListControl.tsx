/**
 * The `rule-list` widget of the content editor: Decap's list widget, plus the rules across
 * entries of src/lib/browser/content-editor/list-rules.ts (unique ids, "a number or a text", ids in use).
 * A broken rule shows under the list's label and keeps the entry from being saved.
 */
import { Component, type ComponentType } from 'react';
import { listRuleErrors, type Entry, type ListRules } from '../../lib/browser/content-editor/list-rules';

/** An Immutable.js map or list as Decap passes them. */
interface Immutable {
  get(key: string): unknown;
  toJS(): unknown;
}

interface ListControlInstance {
  validate?: () => void;
  validateSize?: () => unknown[];
  focus?: (path: string) => void;
}

interface Props {
  field: Immutable;
  controlRef?: (control: unknown) => void;
  value?: Immutable;
  forID: string;
  onValidateObject: (id: string, errors: unknown[]) => void;
  [prop: string]: unknown;
}

function toJS<T>(value: unknown): T | undefined {
  return value && typeof value === 'object' && 'toJS' in value ? ((value as Immutable).toJS() as T) : (value as T | undefined);
}

/** Decap's list control (`CMS.getWidget('list').control`) with the rules added. */
export function ruleListControl(ListControl: ComponentType<Record<string, unknown>>) {
  return class RuleListControl extends Component<Props> {
    private inner: ListControlInstance | null = null;

    private setInner = (instance: ListControlInstance | null) => {
      this.inner = instance;
    };

    /**
     * Decap's editor validates each top-level field through the last control that registered
     * under its name, and the list registers itself (or a nested field) whenever an entry is
     * added: this control registers instead, so that saving always runs its rules.
     */
    private registerSelf = () => {
      this.props.controlRef?.(this);
    };

    ruleErrors(): string[] {
      const { field, value } = this.props;
      const rules: ListRules = {};
      const unique = field.get('unique_field');
      if (typeof unique === 'string') rules.unique_field = unique;
      const exactlyOneOf = toJS<string[][]>(field.get('exactly_one_of'));
      if (exactlyOneOf) rules.exactly_one_of = exactlyOneOf;
      const requiredValues = toJS<ListRules['required_values']>(field.get('required_values'));
      if (requiredValues) rules.required_values = requiredValues;
      const fields = toJS<{ name: string; label?: string }[]>(field.get('fields')) ?? [];
      const labels = Object.fromEntries(fields.map((item) => [item.name, item.label ?? item.name]));
      const entryLabel = String(field.get('label_singular') ?? field.get('label') ?? 'Entry');
      return listRuleErrors(toJS<Entry[]>(value) ?? [], rules, labels, entryLabel);
    }

    /** Decap's per-widget check (on blur and the like). */
    isValid = () => {
      const errors = this.ruleErrors();
      return errors.length ? { error: { type: 'CUSTOM', message: errors.join(' ') } } : true;
    };

    /**
     * Before saving: the list validates its entries' fields and its size, then this field's
     * errors are set once, size and rules together (each call replaces the field's errors).
     */
    validate = () => {
      this.inner?.validate?.();
      const { field, value } = this.props;
      const empty = !(toJS<unknown[]>(value) ?? []).length;
      const errors = [
        ...(empty && field.get('required') !== false ? [{ type: 'PRESENCE', message: `${String(field.get('label'))} is required.` }] : []),
        ...(this.inner?.validateSize?.() ?? []),
        ...this.ruleErrors().map((message) => ({ type: 'CUSTOM', message })),
      ];
      this.props.onValidateObject(this.props.forID, errors);
    };

    focus = (path: string) => this.inner?.focus?.(path);

    // The list re-renders whenever anything changes, as Decap's own list does.
    override shouldComponentUpdate() {
      return true;
    }

    override render() {
      return <ListControl {...this.props} controlRef={this.registerSelf} ref={this.setInner} />;
    }
  };
}
