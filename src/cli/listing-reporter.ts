/**
 * The reporter of the suite's listing (`playwright test --list --reporter=<this file>`, listing.ts):
 * prints, as one JSON document, each conformance test with its title path, its file, the
 * requirement ids it declares it covers, its tags, and the text Playwright matches a `--grep`
 * against (`grepTitle`: the title path with the tags, joined by spaces). With that text, one
 * listing of all tests answers what any pattern selects, as Playwright's own `--grep` would.
 */
import type { FullConfig, Reporter, Suite, TestCase, TestError } from '@playwright/test/reporter';

/** What the reporter prints: the tests, and the errors of loading the spec files. */
export interface ListingDocument {
  tests: Array<{ title: string; file: string; covers: string[]; tags: string[]; grepTitle: string }>;
  errors: string[];
}

/**
 * The text `--grep` is matched against (Playwright's, with a fallback should its internals change).
 * Playwright matches it while the project's suite is not yet under the root suite: the text starts
 * with the project's name, without the root's empty title (and the space after it) seen here.
 */
function grepTitle(test: TestCase): string {
  const own = (test as unknown as { _grepTitleWithTags?: () => string })._grepTitleWithTags;
  const text = typeof own === 'function' ? own.call(test) : [...test.titlePath(), ...test.tags].join(' ');
  return test.titlePath()[0] === '' && text.startsWith(' ') ? text.slice(1) : text;
}

export default class ListingReporter implements Reporter {
  private suite: Suite | undefined;
  private readonly errors: string[] = [];

  onBegin(_config: FullConfig, suite: Suite): void {
    this.suite = suite;
  }

  onError(error: TestError): void {
    this.errors.push(error.message ?? String(error.value ?? 'error'));
  }

  onEnd(): void {
    // The title path: root, project, file, then the describe blocks and the test's own title.
    const tests = (this.suite?.allTests() ?? []).map((t) => {
      const titlePath = t.titlePath();
      return {
        title: titlePath.slice(3).join(' › '),
        file: titlePath[2] ?? '',
        covers: t.annotations.filter((a) => a.type === 'covers' && a.description).map((a) => a.description!),
        tags: t.tags.map((tag) => (tag.startsWith('@') ? tag : `@${tag}`)),
        grepTitle: grepTitle(t),
      };
    });
    const doc: ListingDocument = { tests, errors: this.errors };
    process.stdout.write(`${JSON.stringify(doc)}\n`);
  }

  printsToStdio(): boolean {
    return true;
  }
}
