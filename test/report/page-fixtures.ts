/** The canned results of the page's tests (test/report/fixtures/, see its README), ready to render. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogue } from '../../src/contract/catalogue.ts';
import type { Results, RequirementRow } from '../../src/report/results.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** Markup a module could send. */
export const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(3)>';

/** A fixture's results, the catalogue's words (quote, section, actor) put back into each requirement. */
export function fixture(name: 'failing-results.json' | 'clean-results.json'): Results {
  const r = JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as Results;
  const cat = catalogue();
  r.requirements = r.requirements.map((q): RequirementRow => {
    const e = cat.has(q.id) ? cat.get(q.id) : undefined;
    return { ...q, quote: e?.quote ?? '', section: e?.section ?? '', actor: e?.actor ?? 'module' };
  });
  return r;
}

/** The failing run, with markup a module could send in the first failure's received body and in its message. */
export function failing(): Results {
  const r = fixture('failing-results.json');
  const first = r.results.find((x) => x.status === 'failed')!;
  first.message = first.message.replace('Received: ', `Received: ${HOSTILE} `);
  // The exchange the card shows whole: the first of its evidence (its counterexample's).
  const ids = [first.property?.counterexample?.exchange, ...first.evidence];
  const x = ids.map((id) => r.exchanges.find((e) => e.id === id)).find((e) => e !== undefined)!;
  x.response!.body = `${HOSTILE}${x.response!.body ?? ''}`;
  return r;
}
