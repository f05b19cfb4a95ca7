import { AppError } from '../errors/app-error';
import {
  assertScanTransition,
  assertToolTransition,
  canTransitionTool,
  deriveScanOutcome,
  impliedScanStatus,
  planScanClose,
  planToolTransition,
} from './scan-state';

const snapshot = (status: Parameters<typeof impliedScanStatus>[0], tools: Record<string, Parameters<typeof canTransitionTool>[0]>) => ({
  status,
  tools: Object.entries(tools).map(([tool, s]) => ({ tool, status: s })),
});

describe('scan state machine', () => {
  it('derives the outcome from the tools: all succeeded, none, or some', () => {
    expect(deriveScanOutcome(['succeeded', 'succeeded'])).toBe('succeeded');
    expect(deriveScanOutcome(['failed', 'timed_out', 'skipped'])).toBe('failed');
    expect(deriveScanOutcome(['succeeded', 'timed_out'])).toBe('partial');
    expect(deriveScanOutcome(['succeeded', 'skipped'])).toBe('partial');
    expect(deriveScanOutcome([])).toBe('failed');
  });

  it('starts the scan when its first tool starts, and keeps it running while tools remain', () => {
    const plan = planToolTransition(snapshot('queued', { secrets: 'queued', iac: 'queued' }), 'secrets', 'running');
    expect(plan.tool).toEqual({ tool: 'secrets', from: 'queued', to: 'running' });
    expect(plan.scan).toEqual({ from: 'queued', to: 'running' });
    const next = planToolTransition(snapshot('running', { secrets: 'running', iac: 'queued' }), 'secrets', 'succeeded');
    expect(next.scan).toBeNull();
  });

  it('finalizes the scan when the last tool ends', () => {
    const plan = planToolTransition(snapshot('running', { secrets: 'succeeded', semgrep: 'pending' }), 'semgrep', 'failed');
    expect(plan.scan).toEqual({ from: 'running', to: 'partial' });
    const all = planToolTransition(snapshot('running', { secrets: 'succeeded', semgrep: 'running' }), 'semgrep', 'succeeded');
    expect(all.scan).toEqual({ from: 'running', to: 'succeeded' });
  });

  it('goes straight from queued to an outcome when every tool ends without running', () => {
    const plan = planToolTransition(snapshot('queued', { dast: 'skipped', image: 'queued' }), 'image', 'skipped');
    expect(plan.scan).toEqual({ from: 'queued', to: 'failed' });
  });

  it('does not start the scan for a tool that was skipped without running', () => {
    const plan = planToolTransition(snapshot('queued', { dast: 'queued', secrets: 'queued' }), 'dast', 'skipped');
    expect(plan.scan).toBeNull();
  });

  it('refuses to move a finished tool, and says so with invalid_state_transition', () => {
    const attempt = () => planToolTransition(snapshot('running', { secrets: 'succeeded', iac: 'running' }), 'secrets', 'failed');
    expect(attempt).toThrow(AppError);
    expect(attempt).toThrow(expect.objectContaining({ code: 'invalid_state_transition', status: 409 }));
  });

  it('refuses any tool change once the scan has ended', () => {
    expect(() => planToolTransition(snapshot('failed', { secrets: 'pending' }), 'secrets', 'succeeded')).toThrow(
      expect.objectContaining({ code: 'invalid_state_transition' }),
    );
  });

  it('refuses to skip a running tool or to re-queue one', () => {
    expect(() => assertToolTransition('running', 'skipped')).toThrow(AppError);
    expect(() => assertToolTransition('running', 'queued')).toThrow(AppError);
    expect(() => assertToolTransition('pending', 'succeeded')).not.toThrow();
  });

  it('refuses scan moves out of a terminal state and backwards', () => {
    expect(() => assertScanTransition('succeeded', 'running')).toThrow(AppError);
    expect(() => assertScanTransition('running', 'queued')).toThrow(AppError);
    expect(() => assertScanTransition('queued', 'running')).not.toThrow();
  });

  it('names an unknown tool as not found', () => {
    expect(() => planToolTransition(snapshot('running', { secrets: 'running' }), 'iac', 'succeeded')).toThrow(
      expect.objectContaining({ code: 'not_found' }),
    );
  });

  it('closes a scan at its deadline: unfinished tools time out, the outcome follows from all tools', () => {
    const close = planScanClose(snapshot('running', { secrets: 'succeeded', iac: 'running', semgrep: 'pending' }), 'timed_out');
    expect(close?.tools).toEqual([
      { tool: 'iac', from: 'running', to: 'timed_out' },
      { tool: 'semgrep', from: 'pending', to: 'timed_out' },
    ]);
    expect(close?.scan).toEqual({ from: 'running', to: 'partial' });
    expect(planScanClose(snapshot('queued', { semgrep: 'pending' }), 'timed_out')?.scan).toEqual({ from: 'queued', to: 'failed' });
    expect(planScanClose(snapshot('succeeded', { secrets: 'succeeded' }), 'timed_out')).toBeNull();
  });

  it('cancels a scan with all its unfinished tools', () => {
    const close = planScanClose(snapshot('running', { secrets: 'succeeded', iac: 'queued' }), 'cancelled');
    expect(close?.scan).toEqual({ from: 'running', to: 'cancelled' });
  });
});
