/**
 * What the session writes of the launched module into the run's output folder, for the
 * conformance reporter and the vendor: what it printed (`module.stdout.log`, `module.stderr.log`,
 * published), and in `internal/` how it was stopped (`module-stop.json`), the end of its output
 * for the reporter (`module-output.json`) and each launch (`launches.log`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { internalDir, outDir } from './environment.ts';
import type { LaunchedModule, ModuleStop } from '../module/launcher.ts';
import { REPORT_BOUNDS, narrow, type ModuleOutput } from '../module/output-tail.ts';

/** How the run stopped the launched module (read by the conformance reporter into `run.moduleStop`). */
function moduleStopFile(): string {
  return path.join(internalDir(), 'module-stop.json');
}

export function writeModuleStop(stop: ModuleStop): void {
  try {
    fs.mkdirSync(internalDir(), { recursive: true });
    fs.writeFileSync(moduleStopFile(), `${JSON.stringify(stop)}\n`);
  } catch {
    // The report then says nothing of the stop; the module is stopped all the same.
  }
}

/** The launched module's output, for the conformance reporter (results.json `run.moduleOutput`). */
function moduleOutputFile(): string {
  return path.join(internalDir(), 'module-output.json');
}

/** The files, in the run's output folder, that hold the end of the module's stdout and stderr (redacted, bounded). */
export const MODULE_OUTPUT_LOGS = { stdout: 'module.stdout.log', stderr: 'module.stderr.log' } as const;

/**
 * Writes what the launched module printed, for the whole run, secrets redacted: the end of each
 * stream to its log file (a first line says how much was dropped), and a narrower end of both
 * to `module-output.json` for the reporter.
 */
export function writeModuleOutput(launched: LaunchedModule, redact: (text: string) => string): void {
  try {
    fs.mkdirSync(internalDir(), { recursive: true });
    const report: Partial<ModuleOutput> = {};
    for (const stream of ['stdout', 'stderr'] as const) {
      const whole = launched[stream]().snapshot({}, redact);
      const dropped =
        whole.droppedLines > 0 || whole.droppedBytes > 0
          ? `[conformance: the module's ${stream}, ${whole.totalLines} line(s) in all; ${whole.droppedLines} earlier line(s) and ${whole.droppedBytes} byte(s) in all not kept; the last ${whole.lines.length} line(s) follow]\n`
          : '';
      fs.writeFileSync(path.join(outDir(), MODULE_OUTPUT_LOGS[stream]), `${dropped}${whole.lines.map((l) => `${l}\n`).join('')}`);
      report[stream] = narrow(whole, REPORT_BOUNDS);
    }
    fs.writeFileSync(moduleOutputFile(), `${JSON.stringify(report)}\n`);
  } catch {
    // The reports then lack the module's output; the run goes on.
  }
}

/** Counts a launch of the module in the run's output folder (the suite's tests assert one per run). */
export function countLaunch(): void {
  fs.mkdirSync(internalDir(), { recursive: true });
  fs.appendFileSync(path.join(internalDir(), 'launches.log'), `${new Date().toISOString()} ${process.pid}\n`);
}
