import { isStaleTestDatabase, templateDatabaseName } from './template-db';

describe('template database naming', () => {
  it('names the template after a 12-character hash of the migrations folder', () => {
    expect(templateDatabaseName()).toMatch(/^palisade_tpl_[0-9a-f]{12}$/);
    expect(templateDatabaseName()).toBe(templateDatabaseName());
  });

  it('considers a test database stale after an hour, and never one it cannot date', () => {
    const now = Date.now();
    const name = (ms: number) => `palisade_test_${ms.toString(36)}_abc123`;
    expect(isStaleTestDatabase(name(now - 2 * 60 * 60 * 1000), now)).toBe(true);
    expect(isStaleTestDatabase(name(now - 60 * 1000), now)).toBe(false);
    expect(isStaleTestDatabase('palisade_test_something', now)).toBe(false);
  });
});
