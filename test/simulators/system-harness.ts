/** A system simulator on loopback for a test, with its evidence log (the API key redacted). */
import { EvidenceLog } from '../../src/evidence/exchange.ts';
import { Redactor } from '../../src/evidence/redact.ts';
import { SystemSimulator } from '../../src/simulators/system.ts';

export async function startSystem(apiKey: string): Promise<{ sim: SystemSimulator; log: EvidenceLog }> {
  const redactor = new Redactor();
  redactor.add('apiKey', apiKey);
  const log = new EvidenceLog(redactor, 't');
  const sim = new SystemSimulator({ log, apiKey, gatewayUrl: () => 'http://127.0.0.1:9/gateway' });
  await sim.start();
  return { sim, log };
}
