import { findingsSearchParams } from './findings-query';

describe('findingsSearchParams', () => {
  it('writes lists comma-separated and the entity as type:id, as the contract parses them', () => {
    expect(
      findingsSearchParams({
        severity: ['critical', 'high'],
        status: ['open'],
        entity: { type: 'repository', id: 'https://github.com/acme/api' },
        scan_id: '0190f8a0-0000-7000-8000-000000000000',
        tool: 'semgrep',
        limit: 20,
        cursor: 'abc',
      }),
    ).toEqual({
      severity: 'critical,high',
      status: 'open',
      entity: 'repository:https://github.com/acme/api',
      scan_id: '0190f8a0-0000-7000-8000-000000000000',
      tool: 'semgrep',
      limit: '20',
      cursor: 'abc',
    });
  });

  it('leaves out what is not set, empty lists included', () => {
    expect(findingsSearchParams({ severity: [], cursor: undefined })).toEqual({});
  });
});
