import { JsonReporter } from 'vitest/reporters';
import type { TestModule } from 'vitest/node';

/** What a file of the report adds to vitest's JSON: its project and the time its hooks took too. */
export interface FileTiming {
  project: string;
  /** Milliseconds the file ran, its beforeAll/afterAll hooks included (what the console prints beside it). */
  duration: number;
  /** Milliseconds importing the file and its imports took, before it ran. */
  collectDuration: number;
}

/**
 * Vitest's JSON reporter, each file's entry with a `FileTiming` added: its own startTime and endTime span its
 * tests only, leaving out a beforeAll that starts a stack, the very time a slow file is looked for.
 */
export default class DurationsJsonReporter extends JsonReporter {
  private readonly timings = new Map<string, FileTiming>();

  override async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    for (const testModule of testModules) {
      const { duration, collectDuration } = testModule.diagnostic();
      this.timings.set(testModule.moduleId, { project: testModule.project.name, duration, collectDuration });
    }
    await super.onTestRunEnd(testModules);
  }

  override async writeReport(report: string): Promise<void> {
    const parsed = JSON.parse(report) as { testResults: Array<{ name: string }> };
    for (const file of parsed.testResults) Object.assign(file, this.timings.get(file.name));
    await super.writeReport(JSON.stringify(parsed));
  }
}
