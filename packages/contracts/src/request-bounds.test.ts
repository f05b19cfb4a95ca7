import { z } from 'zod';
import { boundedRecord } from './common/primitives';
import { ROUTE_TABLE } from './route-table';

// API.md: every request schema is strict, every string has a maximum length, every array a
// maximum size, and (here) every map a maximum number of entries. This walks what the planes
// validate — params, query and body of every route-table row — and names each place that does not.

/** String formats whose grammar already bounds their length. */
const BOUNDED_FORMATS = new Set(['uuid', 'guid', 'ulid', 'ipv4', 'ipv6']);
/** Leaf types that cannot grow with what the client sends. */
const BOUNDED_LEAVES = new Set(['enum', 'literal', 'number', 'int', 'boolean', 'null', 'undefined', 'never', 'nan', 'bigint', 'date']);

type TSchema = z.core.$ZodType;

function checksOf(schema: TSchema): string[] {
  return (schema._zod.def.checks ?? []).map((check) => (check as z.core.$ZodCheck)._zod.def.check);
}

function unboundedParts(schema: TSchema, path: string, out: string[] = []): string[] {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  switch (def.type) {
    case 'object': {
      const catchall = def.catchall as TSchema | undefined;
      if (catchall?._zod.def.type !== 'never') out.push(`${path}: object is not strict`);
      for (const [key, value] of Object.entries(def.shape as Record<string, TSchema>)) unboundedParts(value, `${path}.${key}`, out);
      break;
    }
    case 'string': {
      const format = (def as { format?: string }).format;
      if (!checksOf(schema).includes('max_length') && !(format && BOUNDED_FORMATS.has(format))) out.push(`${path}: string has no max length`);
      break;
    }
    case 'array':
      if (!checksOf(schema).includes('max_length')) out.push(`${path}: array has no max size`);
      unboundedParts(def.element as TSchema, `${path}[]`, out);
      break;
    case 'record': {
      const cap = z.globalRegistry.get(schema as z.ZodType)?.maxProperties;
      if (typeof cap !== 'number') out.push(`${path}: record has no cap on its entries (use boundedRecord)`);
      unboundedParts(def.keyType as TSchema, `${path}{key}`, out);
      unboundedParts(def.valueType as TSchema, `${path}{value}`, out);
      break;
    }
    case 'union':
      (def.options as TSchema[]).forEach((option) => unboundedParts(option, path, out));
      break;
    case 'intersection':
      unboundedParts(def.left as TSchema, path, out);
      unboundedParts(def.right as TSchema, path, out);
      break;
    case 'pipe': {
      // What the client sends meets `in`; a preprocess (a transform first) leaves `out` to bound it.
      const input = def.in as TSchema;
      unboundedParts(input._zod.def.type === 'transform' ? (def.out as TSchema) : input, path, out);
      break;
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      unboundedParts(def.innerType as TSchema, path, out);
      break;
    case 'lazy':
      unboundedParts((def.getter as () => TSchema)(), path, out);
      break;
    default:
      if (!BOUNDED_LEAVES.has(def.type)) out.push(`${path}: ${def.type} accepts input this test cannot bound`);
  }
  return out;
}

describe('request schemas of the route table', () => {
  it('are strict objects whose strings, arrays and maps all have a maximum', () => {
    const problems: string[] = [];
    for (const route of ROUTE_TABLE) {
      for (const section of ['params', 'query', 'body'] as const) {
        const schema = route.request[section];
        if (schema) unboundedParts(schema, `${route.operationId}.${section}`, problems);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the walk finds each kind of unbounded input', () => {
    const loose = z.object({
      open: z.object({ a: z.string().max(1) }),
      text: z.string(),
      email: z.email(),
      list: z.array(z.string().max(1)),
      map: z.record(z.string().max(8), z.string().max(8)),
      keys: boundedRecord(z.string(), z.number(), 4),
      anything: z.unknown(),
      id: z.uuid(),
      many: z.union([z.string().max(2), z.array(z.number()).max(3)]).optional(),
    }).strict();
    expect(unboundedParts(loose, 'body').sort()).toEqual([
      'body.anything: unknown accepts input this test cannot bound',
      'body.email: string has no max length',
      'body.keys{key}: string has no max length',
      'body.list: array has no max size',
      'body.map: record has no cap on its entries (use boundedRecord)',
      'body.open: object is not strict',
      'body.text: string has no max length',
    ]);
  });
});

describe('maps a client sends', () => {
  const schema = boundedRecord(z.string().max(8), z.string().max(8), 3);

  it('refuse one entry over the cap, naming the map', () => {
    expect(schema.safeParse({ a: '1', b: '2', c: '3' }).success).toBe(true);
    const result = schema.safeParse({ a: '1', b: '2', c: '3', d: '4' });
    expect(result.success).toBe(false);
    expect(result.error!.issues).toEqual([expect.objectContaining({ path: [], message: 'at most 3 entries' })]);
  });

  it('publish the cap as maxProperties in the OpenAPI document', () => {
    expect(z.globalRegistry.get(schema)).toMatchObject({ maxProperties: 3 });
  });
});
