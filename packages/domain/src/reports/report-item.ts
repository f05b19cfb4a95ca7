import type { TNormalizedFinding } from '../findings/normalized-finding';
import type { TSplitEvent, TSplitPlan } from './json-splitter';

/**
 * The formats callback-api accepts (API.md "Scanner callback"): SARIF and CycloneDX by content
 * type, the rest as application/json with X-Report-Format. `osv-scanner` is accepted the same
 * way as an addition (its JSON is as common as the others in CI).
 */
export const REPORT_FORMATS = ['sarif', 'cyclonedx', 'palisade', 'trivy', 'grype', 'gitleaks', 'semgrep', 'npm-audit', 'osv-scanner'] as const;
export type TReportFormat = (typeof REPORT_FORMATS)[number];

/** An SBOM entry: what a report says is installed, vulnerable or not. */
export interface TReportComponent {
  name: string;
  /** Namespace: Maven group, npm scope, ... */
  group?: string;
  version?: string;
  purl?: string;
  /** CycloneDX component type (library, framework, container...) or the tool's package type. */
  type?: string;
  /** SPDX ids, expressions or free-text names, as given. */
  licenses: string[];
  bom_ref?: string;
}

export type TReportItem = { type: 'finding'; finding: TNormalizedFinding } | { type: 'component'; component: TReportComponent };

export interface TParseReportOptions {
  /**
   * The Palisade tool the report is posted for (the callback's `{tool}`). Findings carry it as
   * `tool`; without it the report's own tool name is made a tool name (lower-case, [a-z0-9._-]).
   */
  tool?: string;
  /** Stop with `report_too_large` past this many bytes (callback-api also caps the body). */
  maxBytes?: number;
  /**
   * Called once per run of a multi-run format (SARIF `runs[]`) when the run ends, in report
   * order, empty runs included: which tool each run names and what it yielded. Formats without
   * runs do not call it.
   */
  onRun?: (run: TReportRun) => void;
  /**
   * Called when the report itself says the tool's run did not complete (a SARIF invocation with
   * `executionSuccessful: false`, a Semgrep error at level "error"): what it lists was found, but
   * what it does not list may simply not have been looked at, so absence proves nothing.
   * Called at most once per report, with the first such reason.
   */
  onIncomplete?: (reason: string) => void;
}

/** One run of a report as the report states it (see TParseReportOptions.onRun). */
export interface TReportRun {
  /** 0-based position in the report's runs. */
  index: number;
  /** The run's tool as the report names it (SARIF tool.driver); absent when it gives no name. */
  tool?: { name: string; version?: string };
  /** Results the run lists (kind pass / notApplicable and absent-baseline ones included). */
  results: number;
  /** Findings it yielded. */
  findings: number;
}

/** One format's parser: which parts of the document to stream, and what to make of them. */
export interface TReportHandler {
  readonly plan: TSplitPlan;
  /** Called for every split event, in document order; items go to `out`. */
  onEvent(event: TSplitEvent, out: TReportItem[]): void;
  /** After the whole document was read: flush anything buffered, check required parts. */
  finish(out: TReportItem[]): void;
}

export type TReportHandlerFactory = (options: TParseReportOptions) => TReportHandler;
