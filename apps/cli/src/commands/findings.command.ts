import type { Command } from 'commander';
import { FINDING_STATUSES, SEVERITIES, type TFindingStatus, type TSeverity } from '@palisade/contracts/common/primitives';
import type { TFinding } from '@palisade/contracts';
import type { TFindingsQuery } from '@palisade/sdk';
import { clientFor } from '../cli-context';
import { commaListOf, integerIn } from '../options/option-parsers';
import { formatFindingsTable } from '../output/findings-table.format';

interface TFindingsOptions {
  severity?: TSeverity[];
  status?: TFindingStatus[];
  scan?: string;
  tool?: string;
  limit?: number;
  all?: boolean;
  json?: boolean;
}

// With --all the page size only sets how many requests it takes; the largest page the API
// allows (500) would hold a slow first answer, so a middle size is used unless --limit says.
const ALL_PAGE_SIZE = 200;

export function registerFindingsCommand(program: Command): void {
  program
    .command('findings')
    .description('list findings, newest first')
    .option('--severity <list>', `only these severities, comma-separated (${SEVERITIES.join(', ')})`, commaListOf(SEVERITIES))
    .option('--status <list>', `only these statuses, comma-separated (${FINDING_STATUSES.join(', ')})`, commaListOf(FINDING_STATUSES))
    .option('--scan <id>', 'only findings seen by this scan')
    .option('--tool <name>', 'only findings of this tool')
    .option('--limit <n>', 'findings per page, 1 to 500 (default 50)', integerIn(1, 500))
    .option('--all', 'follow the cursors through every page')
    .option('--json', 'print the findings as a JSON array')
    .action(async (options: TFindingsOptions, command: Command) => {
      const api = await clientFor(command);
      const query: TFindingsQuery = {
        ...(options.severity ? { severity: options.severity } : {}),
        ...(options.status ? { status: options.status } : {}),
        ...(options.scan ? { scan_id: options.scan } : {}),
        ...(options.tool ? { tool: options.tool } : {}),
        ...(options.limit ? { limit: options.limit } : options.all ? { limit: ALL_PAGE_SIZE } : {}),
      };
      const findings: TFinding[] = [];
      if (options.all) {
        for await (const finding of api.iterateFindings(query)) findings.push(finding);
      } else {
        const page = await api.listFindings(query);
        findings.push(...page.items);
        if (page.next_cursor) process.stderr.write('more findings match: add --all to list every page\n');
      }
      if (options.json) process.stdout.write(JSON.stringify(findings, null, 2) + '\n');
      else if (findings.length === 0) process.stderr.write('no findings match\n');
      else process.stdout.write(formatFindingsTable(findings));
    });
}
