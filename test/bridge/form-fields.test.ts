// Elicitation forms as fields: each property's type, choices, required flag and
// default, and typed answers checked against them.
import { describe, expect, it } from 'vitest';
import { formFields, parseAnswer } from '../../bridge/services/elicitation/form-fields.js';

const fields = formFields({
  type: 'object',
  properties: {
    port: { type: 'string', title: 'Serial port', default: '/dev/ttyACM0' },
    baud: { type: 'integer', title: 'Baud rate', minimum: 300, maximum: 2000000 },
    board: { type: 'string', title: 'Board', oneOf: [{ const: 'uno', title: 'Arduino Uno' }, { const: 'mega', title: 'Arduino Mega' }] },
    core: { type: 'string', enum: ['avr', 'samd'] },
    verbose: { type: 'boolean', default: false },
    ratio: { type: 'number', maximum: 1 },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, maxItems: 2 },
    name: { type: 'string', minLength: 2, pattern: '^[a-z]+$' },
  },
  required: ['baud', 'board'],
});
const field = (name: string) => fields.find((f) => f.name === name)!;

describe('elicitation form fields', () => {
  it('reads types, titles, choices, required flags and defaults from the schema', () => {
    expect(fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ['port', 'string', false],
      ['baud', 'integer', true],
      ['board', 'choice', true],
      ['core', 'choice', false],
      ['verbose', 'boolean', false],
      ['ratio', 'number', false],
      ['tags', 'choices', false],
      ['name', 'string', false],
    ]);
    expect(field('port')).toMatchObject({ title: 'Serial port', default: '/dev/ttyACM0' });
    expect(field('board').options).toEqual([{ value: 'uno', title: 'Arduino Uno' }, { value: 'mega', title: 'Arduino Mega' }]);
    expect(field('core').options).toEqual([{ value: 'avr', title: 'avr' }, { value: 'samd', title: 'samd' }]);
  });

  it('takes the default for an empty answer, skips an empty optional field and refuses an empty required one', () => {
    expect(parseAnswer(field('port'), '')).toEqual({ value: '/dev/ttyACM0' });
    expect(parseAnswer(field('verbose'), ' ')).toEqual({ value: false });
    expect(parseAnswer(field('ratio'), '')).toEqual({ skip: true });
    expect(parseAnswer(field('baud'), '')).toEqual({ error: 'Baud rate is required' });
  });

  it('checks numbers, booleans, choices by number or value, lengths and patterns', () => {
    expect(parseAnswer(field('baud'), '115200')).toEqual({ value: 115200 });
    expect(parseAnswer(field('baud'), '9600.5')).toMatchObject({ error: 'type a whole number' });
    expect(parseAnswer(field('baud'), '100')).toMatchObject({ error: 'at least 300' });
    expect(parseAnswer(field('ratio'), '1.5')).toMatchObject({ error: 'at most 1' });
    expect(parseAnswer(field('verbose'), 'yes')).toEqual({ value: true });
    expect(parseAnswer(field('board'), '2')).toEqual({ value: 'mega' });
    expect(parseAnswer(field('board'), 'uno')).toEqual({ value: 'uno' });
    expect(parseAnswer(field('board'), '3')).toMatchObject({ error: 'choose one of 1-2' });
    expect(parseAnswer(field('tags'), '1, 3')).toEqual({ value: ['a', 'c'] });
    expect(parseAnswer(field('tags'), '1,2,3')).toMatchObject({ error: 'choose at most 2' });
    expect(parseAnswer(field('name'), 'x')).toMatchObject({ error: 'at least 2 characters' });
    expect(parseAnswer(field('name'), 'Uno')).toMatchObject({ error: 'must match ^[a-z]+$' });
  });
});
