import {
  cvss3BaseScore,
  maxSeverity,
  severityFromCvssScore,
  severityFromLabel,
  severityFromSarifLevel,
  severityFromSarifRank,
  severityFromSecuritySeverity,
  toolSeverity,
} from './severity';

describe('severity mapping', () => {
  it('maps CVSS scores onto the qualitative bands', () => {
    expect([0, 0.1, 3.9, 4, 6.9, 7, 8.9, 9, 10].map((s) => severityFromCvssScore(s))).toEqual(['info', 'low', 'low', 'medium', 'medium', 'high', 'high', 'critical', 'critical']);
    expect(severityFromCvssScore(11)).toBeUndefined();
    expect(severityFromCvssScore(Number.NaN)).toBeUndefined();
  });

  it('reads SARIF security-severity as a string or a number', () => {
    expect(severityFromSecuritySeverity('9.8')).toBe('critical');
    expect(severityFromSecuritySeverity(6.1)).toBe('medium');
    expect(severityFromSecuritySeverity('')).toBeUndefined();
    expect(severityFromSecuritySeverity('high')).toBeUndefined();
  });

  it('maps SARIF levels and ranks', () => {
    expect(['error', 'warning', 'note', 'none'].map(severityFromSarifLevel)).toEqual(['high', 'medium', 'low', 'info']);
    expect(severityFromSarifLevel('fatal')).toBeUndefined();
    expect(severityFromSarifRank(95)).toBe('critical');
    expect(severityFromSarifRank(-1)).toBeUndefined();
  });

  it('maps tool vocabularies', () => {
    expect(severityFromLabel('MODERATE')).toBe('medium');
    expect(severityFromLabel('Negligible')).toBe('info');
    expect(severityFromLabel('UNKNOWN')).toBe('info');
    expect(toolSeverity.semgrep('INFO')).toBe('low');
    expect(toolSeverity.semgrep('ERROR')).toBe('high');
    expect(toolSeverity.semgrep('CRITICAL')).toBe('critical');
    expect(toolSeverity.npmAudit('info')).toBe('info');
    expect(toolSeverity.trivy('UNKNOWN')).toBe('info');
    expect(toolSeverity.secret(undefined)).toBe('high');
    expect(maxSeverity('low', 'critical')).toBe('critical');
  });

  it('computes CVSS 3.x base scores from vectors', () => {
    expect(cvss3BaseScore('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:H/I:H/A:H')).toBe(10);
    expect(cvss3BaseScore('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H')).toBe(9.8);
    expect(cvss3BaseScore('CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:L/I:L/A:N')).toBe(6.5);
    expect(cvss3BaseScore('CVSS:3.0/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:L')).toBe(5.3);
    expect(cvss3BaseScore('CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:N')).toBe(0);
    expect(cvss3BaseScore('AV:N/AC:M/Au:N/C:C/I:C/A:C')).toBeUndefined();
  });
});
