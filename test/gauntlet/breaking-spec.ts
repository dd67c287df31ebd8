/** A conformance spec file for the one-session tests: a test that applies a row, one that breaks, then `left` tests that should not relaunch anything. */
import path from 'node:path';
import { PACKAGE_ROOT } from '../../src/contract/paths.ts';

export const breakingSpec = (left: string[]): string => `
import { test } from ${JSON.stringify(path.join(PACKAGE_ROOT, 'specs', 'fixtures.ts'))};
import { ACTIVITY } from ${JSON.stringify(path.join(PACKAGE_ROOT, 'src', 'checks', 'registration', 'applications.ts'))};

test('the module acknowledges activity', async ({ session, conformance }) => {
  const reply = await session.send('activity', { active: true, freeze: false }, { clientId: session.clientId(), extra: { systemUrl: session.system.url() } });
  await conformance.apply(ACTIVITY.acknowledged, reply);
});
test('a spec that breaks', async ({ conformance }) => {
  throw new Error('broken on purpose');
});
${left.map((title) => `test(${JSON.stringify(title)}, async ({ conformance }) => {});`).join('\n')}
`;
