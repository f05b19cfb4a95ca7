import { JsonSplitter, type TPlanDecision, type TSplitEvent, type TSplitPlan } from './json-splitter';
import { ReportParseError } from './report-parse-error';

// Streams the root, "items" and each item object; captures everything else except "skipped".
const plan: TSplitPlan = (path) => {
  if (path.length === 0) return 'stream';
  if (path[0] === 'skipped') return 'skip';
  if (path[0] === 'items' && path.length <= 2) return 'stream';
  return 'capture';
};

function split(chunks: Buffer[], p: TSplitPlan = plan): TSplitEvent[] {
  const events: TSplitEvent[] = [];
  const s = new JsonSplitter(p, (e) => events.push(e));
  for (const c of chunks) s.write(c);
  s.end();
  return events;
}

function errorOf(fn: () => unknown): ReportParseError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ReportParseError) return err;
    throw err;
  }
  throw new Error('expected a ReportParseError');
}

const TRICKY = Buffer.from(
  JSON.stringify({
    'k\\"ey': 'v',
    skipped: { a: ['x]}', '\\', { '"': '\\"' }], b: -1.5e3, c: [true, false, null] },
    items: [
      { id: 1, text: 'quote " and backslash \\ and \\" together', utf8: 'héllo — 日本 🔐', nested: { deep: [[[]]], empty: {} } },
      { id: 2, esc: '\u0000\u001f\\\\\\"', n: -0.5, e: 1e-7, t: true, f: false, z: null },
      { 'key with \\ slash': '}]', arr: ['[', '{', '"', '\\'] },
    ],
    tail: 'end',
  }),
  'utf8',
);

describe('JsonSplitter', () => {
  const whole = split([TRICKY]);

  it('hands over captured values equal to JSON.parse of the whole document', () => {
    const doc = JSON.parse(TRICKY.toString('utf8')) as Record<string, unknown> & { items: Record<string, unknown>[] };
    const values = whole.filter((e) => e.type === 'value');
    expect(values.find((e) => e.path[0] === 'tail')).toMatchObject({ value: 'end' });
    expect(values.find((e) => e.path[0] === 'k\\"ey')).toMatchObject({ value: 'v' });
    for (const [i, item] of doc.items.entries()) {
      for (const [key, value] of Object.entries(item)) expect(values.find((e) => e.path[0] === 'items' && e.path[1] === i && e.path[2] === key)).toMatchObject({ value });
    }
    expect(values.some((e) => e.path[0] === 'skipped')).toBe(false);
  });

  it('gives enter/exit events for streamed containers with their paths', () => {
    expect(whole.filter((e) => e.type !== 'value').map((e) => `${e.type}:${JSON.stringify(e.path)}`)).toEqual([
      'enter:[]',
      'enter:["items"]',
      'enter:["items",0]',
      'exit:["items",0]',
      'enter:["items",1]',
      'exit:["items",1]',
      'enter:["items",2]',
      'exit:["items",2]',
      'exit:["items"]',
      'exit:[]',
    ]);
  });

  it('gives the same events whichever byte the chunks are split at', () => {
    for (let at = 1; at < TRICKY.length; at++) {
      expect(split([TRICKY.subarray(0, at), TRICKY.subarray(at)])).toEqual(whole);
    }
  });

  it('gives the same events fed one byte at a time', () => {
    const bytes: Buffer[] = [];
    for (let i = 0; i < TRICKY.length; i++) bytes.push(TRICKY.subarray(i, i + 1));
    expect(split(bytes)).toEqual(whole);
  });

  it('accepts a UTF-8 byte-order mark and whitespace around the document', () => {
    expect(split([Buffer.from('\ufeff \n{"tail": "end"}\r\n\t', 'utf8')]).filter((e) => e.type === 'value')).toEqual([{ type: 'value', path: ['tail'], value: 'end' }]);
  });

  it('reads a bare scalar document, including at end of input', () => {
    const capture: TSplitPlan = () => 'capture';
    expect(split([Buffer.from('null')], capture)).toEqual([{ type: 'value', path: [], value: null }]);
    expect(split([Buffer.from('4'), Buffer.from('2')], capture)).toEqual([{ type: 'value', path: [], value: 42 }]);
  });

  it('rejects truncated input wherever it stops', () => {
    for (const cut of [1, 10, TRICKY.length / 2, TRICKY.length - 1]) {
      expect(errorOf(() => split([TRICKY.subarray(0, Math.floor(cut))])).code).toBe('truncated_report');
    }
  });

  it('rejects empty input, garbage after the document, and broken syntax at every level', () => {
    expect(errorOf(() => split([Buffer.alloc(0)])).code).toBe('empty_report');
    expect(errorOf(() => split([Buffer.from('  \n')])).code).toBe('empty_report');
    const invalid = (text: string, p: TSplitPlan = plan): string => errorOf(() => split([Buffer.from(text)], p)).code;
    expect(invalid('{"tail": "end"} x')).toBe('invalid_json');
    expect(invalid('{"tail" "end"}')).toBe('invalid_json');
    expect(invalid('{"tail": "end",}')).toBe('invalid_json');
    expect(invalid('{"items": [{"id": 1,}]}')).toBe('invalid_json');
    expect(invalid('{"items": [{"id": tru}]}')).toBe('invalid_json');
    expect(invalid('{"skipped": [1, 2}')).toBe('invalid_json');
    expect(invalid('{"skipped": nul}')).toBe('invalid_json');
    expect(invalid("{'tail': 1}")).toBe('invalid_json');
  });

  it('points at the offending value', () => {
    const err = errorOf(() => split([Buffer.from('{"items": [{"id": 1}, {"id": [1,]}]}')]));
    expect(err.code).toBe('invalid_json');
    expect(err.pointer).toBe('/items/1/id');
  });

  it('lets the plan reject a shape with its own error', () => {
    const strict: TSplitPlan = (path, kind): TPlanDecision => {
      if (path.length === 0 && kind !== 'object') throw new ReportParseError('invalid_shape', 'not an object');
      return 'capture';
    };
    expect(errorOf(() => split([Buffer.from('[1]')], strict)).code).toBe('invalid_shape');
  });
});
