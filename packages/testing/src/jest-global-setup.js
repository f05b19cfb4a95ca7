// Jest globalSetup for every workspace (root jest.preset.js). Runs once per Jest process before
// any test file: makes sure the Prisma client is generated and the migrated template database
// exists. Several Jest processes start at once (turbo), so both steps are serialized with
// PostgreSQL advisory locks. The logic lives in TypeScript (template-db.ts), loaded through tsx.
const { require: tsxRequire } = require('tsx/cjs/api');

module.exports = async function globalSetup() {
  const { ensureGeneratedClient, ensureTemplateDatabase } = tsxRequire('./template-db.ts', __filename);
  const { testAdminUrl } = tsxRequire('./local-postgres.ts', __filename);
  const adminUrl = testAdminUrl();
  let reachable = true;
  try {
    await ensureGeneratedClient(adminUrl);
  } catch (err) {
    if (!isConnectionError(err)) throw err;
    // Unit-only suites must still run without PostgreSQL; integration tests will fail loudly.
    reachable = false;
    process.stderr.write(`[palisade] PostgreSQL unreachable (${err.message}); integration tests will fail\n`);
    await ensureGeneratedClient();
  }
  if (reachable) process.env.PALISADE_TEST_TEMPLATE_DB = await ensureTemplateDatabase(adminUrl);
};

function isConnectionError(err) {
  return Boolean(err) && ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ENOENT'].includes(err.code);
}
