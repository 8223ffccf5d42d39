// An elicitation form (ACP `elicitation/create`, mode form) as fields a face can ask
// one by one, and the person's typed answers checked against each field's schema.
import type { ElicitationContentValue, ElicitationPropertySchema, ElicitationSchema } from '@agentclientprotocol/sdk';
import { BoundedRegex } from '../../../boards/bounded-regex.js';

export interface FormField {
  name: string;
  title: string;
  description?: string;
  type: 'string' | 'number' | 'integer' | 'boolean' | 'choice' | 'choices';
  required: boolean;
  default?: ElicitationContentValue;
  /** For choice/choices: the values and how each is shown. */
  options?: { value: string; title: string }[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
}

export function formFields(schema: ElicitationSchema): FormField[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => fieldOf(name, property, required.has(name)));
}

function fieldOf(name: string, p: ElicitationPropertySchema, required: boolean): FormField {
  const prop = p as Record<string, unknown>;
  const base = {
    name,
    title: typeof prop.title === 'string' && prop.title ? prop.title : name,
    description: typeof prop.description === 'string' ? prop.description : undefined,
    required,
  };
  const num = (key: string) => (typeof prop[key] === 'number' ? (prop[key] as number) : undefined);
  switch (p.type) {
    case 'boolean':
      return { ...base, type: 'boolean', default: typeof prop.default === 'boolean' ? prop.default : undefined };
    case 'number':
    case 'integer':
      return { ...base, type: p.type, default: num('default'), minimum: num('minimum'), maximum: num('maximum') };
    case 'array': {
      const items = (prop.items ?? {}) as { enum?: unknown; anyOf?: unknown };
      return { ...base, type: 'choices', options: optionsOf(items.enum, items.anyOf), default: Array.isArray(prop.default) ? (prop.default as string[]) : undefined, minimum: num('minItems'), maximum: num('maxItems') };
    }
    default: {
      const options = optionsOf(prop.enum, prop.oneOf);
      const text = { default: typeof prop.default === 'string' ? prop.default : undefined };
      if (options.length) return { ...base, ...text, type: 'choice', options };
      return {
        ...base,
        ...text,
        type: 'string',
        minLength: num('minLength'),
        maxLength: num('maxLength'),
        pattern: typeof prop.pattern === 'string' ? prop.pattern : undefined,
        format: typeof prop.format === 'string' ? prop.format : undefined,
      };
    }
  }
}

function optionsOf(values: unknown, titled: unknown): { value: string; title: string }[] {
  if (Array.isArray(titled)) {
    return titled.flatMap((o: { const?: unknown; title?: unknown }) => (typeof o.const === 'string' ? [{ value: o.const, title: typeof o.title === 'string' ? o.title : o.const }] : []));
  }
  if (Array.isArray(values)) return values.filter((v): v is string => typeof v === 'string').map((v) => ({ value: v, title: v }));
  return [];
}

export type FieldAnswer = { value: ElicitationContentValue } | { skip: true } | { error: string };

/** The typed text as the field's value: empty takes the default (or skips an optional field). */
export function parseAnswer(field: FormField, typed: string): FieldAnswer {
  const text = typed.trim();
  if (text === '') {
    if (field.default !== undefined) return { value: field.default };
    return field.required ? { error: `${field.title} is required` } : { skip: true };
  }
  switch (field.type) {
    case 'boolean':
      if (/^(y|yes|true|1)$/i.test(text)) return { value: true };
      if (/^(n|no|false|0)$/i.test(text)) return { value: false };
      return { error: 'answer yes or no' };
    case 'number':
    case 'integer': {
      const n = Number(text);
      if (!Number.isFinite(n) || (field.type === 'integer' && !Number.isInteger(n))) return { error: `type ${field.type === 'integer' ? 'a whole number' : 'a number'}` };
      if (field.minimum !== undefined && n < field.minimum) return { error: `at least ${field.minimum}` };
      if (field.maximum !== undefined && n > field.maximum) return { error: `at most ${field.maximum}` };
      return { value: n };
    }
    case 'choice': {
      const picked = pick(field.options ?? [], text);
      return picked ? { value: picked } : { error: `choose one of 1-${field.options?.length}` };
    }
    case 'choices': {
      const picked = text.split(/[\s,]+/).map((t) => pick(field.options ?? [], t));
      if (picked.some((p) => p === undefined)) return { error: `choose numbers from 1-${field.options?.length}, separated by commas` };
      if (field.minimum !== undefined && picked.length < field.minimum) return { error: `choose at least ${field.minimum}` };
      if (field.maximum !== undefined && picked.length > field.maximum) return { error: `choose at most ${field.maximum}` };
      return { value: [...new Set(picked as string[])] };
    }
    default:
      if (field.minLength !== undefined && text.length < field.minLength) return { error: `at least ${field.minLength} characters` };
      if (field.maxLength !== undefined && text.length > field.maxLength) return { error: `at most ${field.maxLength} characters` };
      if (field.pattern !== undefined && !safeTest(field.pattern, text)) return { error: `must match ${field.pattern}` };
      return { value: text };
  }
}

// A choice by its number or by its value.
function pick(options: { value: string }[], text: string): string | undefined {
  const n = Number(text);
  if (Number.isInteger(n) && n >= 1 && n <= options.length) return options[n - 1].value;
  return options.find((o) => o.value === text)?.value;
}

function safeTest(pattern: string, text: string): boolean {
  try {
    return new BoundedRegex(pattern, 'u').test(text);
  } catch {
    return true; // a pattern we cannot read, or that backtracks too long, is the agent's to check
  }
}
