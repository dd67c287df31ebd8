/**
 * Model-based sequences (delivery, payment, chat templates) make their steps data: each step is a
 * fast-check command with its precondition on the model and its run, and the sequence a case
 * runs is kept as JSON (what `conformance replay` runs again). One implementation for every area.
 */
import type fc from 'fast-check';

/** A step as a fast-check command: its precondition on the model (`can`), and its run (`act`). */
export class StepCommand<S extends object, M extends object, R> implements fc.AsyncCommand<M, R> {
  constructor(
    readonly step: S,
    private readonly can: (step: S, model: M) => boolean,
    private readonly act: (step: S, model: M, real: R) => Promise<void>,
  ) {}
  check(m: Readonly<M>): boolean {
    return this.can(this.step, m as M);
  }
  async run(m: M, r: R): Promise<void> {
    await this.act(this.step, m, r);
  }
  toString(): string {
    const { op, ...rest } = this.step as Record<string, unknown> & { op: string };
    const args = Object.entries(rest).filter(([, v]) => typeof v !== 'object').map(([k, v]) => `${k}=${String(v)}`);
    return `${op}(${args.join(',')})`;
  }
}

/** The payload of a sequence case: its first step and the steps that ran, as JSON (what `conformance replay` runs again). */
export class SequencePayload<S extends object, M extends object, R> {
  constructor(
    readonly first: S,
    readonly commands: Iterable<fc.AsyncCommand<M, R>>,
  ) {}
  toJSON(): { steps: S[] } {
    // fast-check wraps a command that ran (`cmd`); one shrinking left out did not run (`hasRan` false).
    const ran = [...this.commands].filter((c) => (c as { hasRan?: boolean }).hasRan !== false).map((c) => (c as unknown as { cmd?: StepCommand<S, M, R> }).cmd?.step ?? (c as unknown as StepCommand<S, M, R>).step);
    return { steps: [this.first, ...ran.filter((s): s is S => s !== undefined)] };
  }
}
