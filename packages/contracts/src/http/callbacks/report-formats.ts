/**
 * How a scanner callback names its report's format (API.md "Scanner callback"): SARIF and
 * CycloneDX by their registered media types, tool-native JSON by `application/json` plus
 * `X-Report-Format`. The parsers in @palisade/domain decide per format; this is the wire side.
 */
export const REPORT_CONTENT_TYPES = ['application/sarif+json', 'application/vnd.cyclonedx+json', 'application/json'] as const;

export const NATIVE_REPORT_FORMATS = ['palisade', 'trivy', 'grype', 'gitleaks', 'semgrep', 'npm-audit'] as const;

export const REPORT_FORMAT_HEADER = 'X-Report-Format';

/** The scanner callback body cap (spec Section 8), counted while the body streams in. */
export const CALLBACK_REPORT_LIMIT_BYTES = 64 * 1024 * 1024;
